"""The import, in one function: read → split → parse → replay → tabulate (the stats facts too) → write →
judge across hands → the facts of hands stored without (:func:`import_sources`).

Each step is a call into its own module: :mod:`~hhtool.ingest.files` reads what is new in each file
and cuts it into chunks of hands; an executor (:mod:`~hhtool.ingest.executors`: this process, a
process pool, a Dask cluster) parses, replays and tabulates each chunk, a typed work item
(:func:`~hhtool.ingest.chunks.run_chunk` of a :class:`~hhtool.ingest.chunks.ChunkWork`);
:mod:`~hhtool.ingest.writer` writes the rows, less the hands stored before, while
:mod:`~hhtool.ingest.accounting` counts every hand found — *found = stored + duplicates + skipped +
failed + incomplete*, failed hands kept raw with file, lines and reason; the cross-hand pass
(:mod:`~hhtool.ingest.cross_hand`) judges each batch's forced bets in the batch's own transaction, so that
its hands are committed with their whole judgement, and with their stats facts (tabulated by the executor);
the facts' sums are made last, once the workers have stopped, with the facts of hands an older store holds
without.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import Any

import pyarrow as pa

from hhtool.ingest.accounting import COUNTS, FileReport, ImportProgress, ImportReport, ProgressTracker, not_a_history
from hhtool.ingest.chunks import HAND, ChunkResult, ChunkWork, failure_chunk, run_chunk
from hhtool.ingest.cross_hand import judge_batch, judge_left_unjudged
from hhtool.ingest.executors import Executor, LocalExecutor, Running, import_gc
from hhtool.ingest.files import NO_TEXT, FileJob, FileOpener, InMemory, damage_failure, source_size
from hhtool.ingest.judged_alone import JUDGED_ALONE
from hhtool.ingest.sources import Readable, SourceError
from hhtool.ingest.stopping import CtrlC, ImportInterrupted
from hhtool.ingest.writer import FileWriter, write_chunk
from hhtool.replay.judgement import profiles_with
from hhtool.replay.profiles import load_profile
from hhtool.replay.user_structures import UserStructures
from hhtool.store import Store, player_facts_cache

#: a test's hook, run once the import's last batch is committed and judged, before its facts step: where
#: the kill campaign (``benchmarks/kill_run.py``, ``tests/test_kill_hook.py``) kills an import, the point
#: where an older hhtool still had the facts' merge to do. None in production
before_facts_step: Callable[[], None] | None = None


def import_sources(store: Store, sources: Iterable[Readable], *, site: str | None = None, rules: str | None = None,
                   replay: bool = True, executor: Executor | None = None, store_facts: bool = True,
                   on_file: Callable[[FileReport], None] | None = None,
                   on_progress: Callable[[ImportProgress], None] | None = None,
                   desk: UserStructures | None = None) -> ImportReport:
    """Import ``sources`` in order into ``store`` and account for every hand found.

    ``site`` forces the site (default: detected from each file's content); ``rules`` replays every
    hand under one rule profile (default: each hand's own); ``replay`` False stores hands unjudged.
    ``executor`` runs the parsing and replay (default: this process). ``store_facts`` stores the
    stats facts of the hands imported (False leaves them to be computed on reading). ``on_file`` hears
    of each file once it is stored; ``on_progress`` how far the import is after each chunk and file;
    ``desk`` the user's structures file, for the forced bets' cross-hand pass."""
    sources = list(sources)
    report = ImportReport()
    total_bytes = sum(source_size(source) for source in sources)
    progress = ProgressTracker(len(sources), total_bytes, on_progress)
    facts = player_facts_cache.BatchFacts(store) if store_facts else None
    ctrl_c = CtrlC()
    with import_gc(), ctrl_c.installed():  # (the collector tuned for the chunks of model objects: ≈9 % of CPU)
        with (executor or LocalExecutor()).running(total_bytes) as running:
            # every batch writes its hands' stats facts in its own transaction, at any --jobs: the workers
            # tabulated them from what the replay walked (hhtool.store.facts_rows), and facts.finish sums them
            # once the workers have stopped (#37; until then a ≈ 40-CTE SQL plan per batch, or after the workers)
            # each batch's hands committed with their whole judgement (and those of the stored hands whose
            # evidence they change): no reader sees, no kill leaves, the replay's placeholders
            profiles = profiles_with(load_profile(rules) if rules else None)  # (a TOML file's: its parameters)
            judge = (lambda hands, carried: judge_batch(store, hands["hk"].to_pylist(), desk, profiles=profiles,
                                                        alone=carried.get(JUDGED_ALONE), counted=True)) if replay else None
            files = FileOpener(store, site, lambda first: FileWriter(store, first, facts, judge))
            writing: FileJob | None = None  # the file whose writer may hold results not written yet
            try:
                for job, result, is_last in parsed(opened(files, sources, report, progress, ctrl_c), running, rules,
                                                   replay, ctrl_c, None if desk is None else desk.path):
                    writing = None if is_last else job
                    with store.batch():  # (a chunk's write: readers get their turn between the chunks written)
                        write(job, result, is_last)
                    if is_last:
                        if on_file:
                            on_file(job.report)
                        progress.file_done(job.size, job.report)
                    elif result is not None and job.shares:  # (a result known at opening was read with the file)
                        progress.chunk_done(job.report, job.size * job.shares.popleft())
            except KeyboardInterrupt:
                if not ctrl_c.requested:
                    raise
                if writing is not None:  # Ctrl-C: what came back is written, then the stop
                    writing.writer.flush()
                raise ImportInterrupted(report) from None
        if ctrl_c.requested:  # (heard while a last result was written: every batch written is judged)
            raise ImportInterrupted(report)
        if replay:  # hands an older hhtool's killed import left with the replay's placeholders (none usually)
            with store.batch():  # (the tables' pass: a reader's turn after it, before the facts step)
                judge_left_unjudged(store, desk, profiles_with(load_profile(rules) if rules else None))
    if facts is not None:
        if before_facts_step is not None:
            before_facts_step()
        with store.batch():
            facts.finish()  # the facts of the hands left without: `stats` and `graph` have nothing left to compute
    return report


def import_file(store: Store, name: str, data: bytes, **options: Any) -> FileReport:
    """Import the bytes of one file, named ``name`` (options: :func:`import_sources`'s)."""
    return import_sources(store, [InMemory(str(name), data)], **options).files[0]


def opened(files: FileOpener, sources: Iterable[Readable], report: ImportReport,
           progress: ProgressTracker, ctrl_c: CtrlC | None = None) -> Iterator[FileJob]:
    """Read: each source's job, in order; one that cannot be read at all is noted and passed."""
    ctrl_c = ctrl_c or CtrlC()
    for source in sources:
        try:  # (a file's opening: reading it holds nothing, readers may open the store once its scope ends)
            with ctrl_c.abandonable(), files.store.batch():  # (only reads: a Ctrl-C gives it up)
                job = files.open(source)
        except SourceError as error:
            report.unreadable.append(str(error))
            progress.file_done(source_size(source))
            continue
        report.files.append(job.report)
        progress.started(job.report)
        yield job


def parsed(jobs: Iterable[FileJob], running: Running, rules: str | None, replay: bool, ctrl_c: CtrlC | None = None,
           structures: str | None = None) -> Iterator[tuple[FileJob, ChunkResult | None, bool]]:
    """Split → parse → replay → tabulate: each file's chunks as results in file order, (job, result,
    whether it is the file's last); up to ``running.in_flight`` chunks parse meanwhile. A file with
    nothing to parse comes as its results known at opening, then (job, None, True). After a Ctrl-C
    (``ctrl_c``): the results that came back (in file order, up to the first still running), then
    the rest is cancelled and KeyboardInterrupt raised."""
    ctrl_c = ctrl_c or CtrlC()
    pending: deque[tuple[FileJob, Any, bool]] = deque()
    in_flight = running.in_flight if running.submit else 0
    try:
        for job in jobs:
            chunks = iter(job.chunks)
            with ctrl_c.abandonable():
                chunk = next(chunks, None)
            if chunk is None:
                yield from ((job, ready, False) for ready in job.ready)
                yield job, None, True
                continue
            first = True
            while chunk is not None:  # one chunk ahead, to know which is the file's last
                with ctrl_c.abandonable():  # (reading, and parsing here: nothing written)
                    following = next(chunks, None)
                    is_last = following is None
                    assert job.report.site is not None  # a file no site reads has no chunks to parse
                    whole = first and job.resume_line <= 1  # from the file's start (a grown file resumes later)
                    work = ChunkWork(job.report.site, chunk, rules, replay, ends_file=is_last,
                                     ends_mid_line=is_last and job.ends_mid_line, starts_file=whole,
                                     structures=structures)
                    job.shares.append(1.0 if is_last else job.position(chunk) if job.position else 0.0)
                    pending.append((job, run_chunk(work) if running.submit is None
                                    else running.submit(run_chunk, work), is_last))
                first = False
                while len(pending) > in_flight:
                    yield _oldest(pending, ctrl_c)
                chunk = following
        while pending:
            yield _oldest(pending, ctrl_c)
    except KeyboardInterrupt:
        if not ctrl_c.requested:
            raise
        while pending and _came_back(pending[0][1]):
            job, result, is_last = pending.popleft()
            yield job, result if isinstance(result, ChunkResult) else result.result(), is_last
        if running.stop is not None:
            running.stop()
        raise


def _oldest(pending: deque[tuple[FileJob, Any, bool]], ctrl_c: CtrlC) -> tuple[FileJob, ChunkResult, bool]:
    """The oldest chunk's result, waited for (it leaves ``pending`` only once it came back)."""
    ctrl_c.check()  # (a Ctrl-C heard while the previous result was written)
    job, result, is_last = pending[0]
    if not isinstance(result, ChunkResult):
        with ctrl_c.abandonable():  # (every use of the store is inside a batch scope: waiting holds nothing)
            pending[0] = (job, result := result.result(), is_last)
    pending.popleft()
    return job, result, is_last


def _came_back(result: Any) -> bool:
    """Whether a chunk's result is here (parsed in this process, or a worker finished it well)."""
    if isinstance(result, ChunkResult):
        return True
    try:
        return bool(result.done()) and result.exception() is None
    except Exception:  # (cancelled, or the worker is gone)
        return False


def write(job: FileJob, result: ChunkResult | None, is_last: bool) -> None:
    """Write and account a chunk's result (None: a file with nothing parsed, its files row only)."""
    if result is None:
        if job.row:  # unchanged files are not imported again, so they get no new row
            if job.report.status == "parsed" and not job.report.hands_found:
                not_a_history(job.report, NO_TEXT)  # (an empty file read with --site)
            counts = {name: getattr(job.report, name) for name in COUNTS}
            job.writer.add(None, [], {"files": _file_row(job, counts, job.tail)}, last=True)
        return
    if result.not_hand_history:
        looks = job.report.looks_like
        not_a_history(job.report, f"no hand start of --site {job.report.site}" + (
            f"; it looks like a history of {looks}: import it without --site, or with --site {looks}" if looks else ""))
    if result.found:
        job.resume_line = result.last_first_line
    if not is_last:
        job.tail = [kind for kind, _ in result.tail if kind != HAND]
    elif job.damage and job.report.site:  # the damage is the file's last item, after its last hand
        result = _joined(result, failure_chunk(damage_failure(job)))
    write_chunk(job.writer, job.report, result,
                (lambda counts, tail: {"files": _file_row(job, counts, tail)}) if is_last else None)


def _file_row(job: FileJob, counts: dict[str, int], tail: list[str]) -> pa.Table:
    totals = {name: counts[name] + job.prefix.get(name, 0) for name in COUNTS}
    job.report.totals = totals
    return pa.Table.from_pylist([{**job.row, **totals, "resume_line": job.resume_line, "tail": tail}],
                                schema=_files_schema(job.row))


def _files_schema(row: dict[str, Any]) -> pa.Schema:
    types = {"size": pa.int64(), "lines": pa.int64(), "resume_line": pa.int64(), "tail": pa.list_(pa.string())}
    names = [*row, *COUNTS, "resume_line", "tail"]
    return pa.schema([(name, types.get(name, pa.int64() if name in COUNTS else pa.string())) for name in names])


def _joined(result: ChunkResult, more: ChunkResult) -> ChunkResult:
    """A chunk's result with the items of ``more`` (found after it in the file) added at its end."""
    tables = dict(result.tables)
    for name, table in more.tables.items():
        tables[name] = pa.concat_tables([tables[name], table]) if name in tables else table
    return replace(result, tables=tables, found=result.found + more.found, failures=[*result.failures, *more.failures],
                   tail=[*result.tail, *more.tail])
