"""The import pipeline: read → parse → (replay) → store, file by file, in batches.

:func:`import_sources` is the one way in, whatever runs the parsing (:mod:`hhtool.ingest.executors`: this
process, a process pool, a Dask cluster): this module alone reads the files, cuts them into
chunks, decides duplicates and resumes, writes the file rows and failures, judges the tables'
context and refreshes the stats facts; an executor only turns chunks into results.

Every hand found is accounted for — *found = stored + duplicates + skipped + failed* — where
failed hands are kept raw in ``import_errors`` with file, lines and reason. Files already
imported are recognised by content and not parsed again; a file that grew since its last
import is parsed from its last hand on.
"""

from __future__ import annotations

import hashlib
import io
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, BinaryIO, cast

import pyarrow as pa
import pyarrow.compute as pc

from hhtool.cross_hand import judge_imported_since
from hhtool.ingest.accounting import (
    COUNTS,
    NOT_A_HAND_HISTORY,
    Failure,
    FileReport,
    ImportProgress,
    ImportReport,
    ProgressTracker,
)
from hhtool.ingest.chunks import HAND, ChunkResult, LineBlock, failure_chunk, process_chunk
from hhtool.ingest.conflicts import CopyChecker
from hhtool.ingest.executors import Executor, LocalExecutor, Submit, import_gc
from hhtool.ingest.hand_identity import identity
from hhtool.ingest.meanwhile import left_out
from hhtool.ingest.provisional import completes, forget_hand
from hhtool.ingest.reader import CountingStream, DecodedFile, LineReader, decode_bytes, describe_bad_bytes, scan_stream
from hhtool.ingest.sources import Readable, SourceError
from hhtool.model import CUT_LINE_MARK, FailedHand, FailureKind, RawHand
from hhtool.reports import facts_table
from hhtool.sites import all_parsers, detect, parser_for
from hhtool.sites.kit.base import SiteParser
from hhtool.store import Store
from hhtool.store.copies import NEW_ONLY, CopyAt, conflict_table, stored_copies
from hhtool.store.forced_bets import import_mark
from hhtool.store.tables import next_key, shifted

#: hands parsed, replayed and tabulated together (one task for a worker). Measured on a 31 MB file
#: at --jobs 2: a worker peaks at 190 MiB with 1,000 against 230 MiB with 2,000, the same CPU time
BATCH_HANDS = 1000
#: hands of one file written in one transaction at most: DuckDB writes inserts this big straight
#: into compressed row groups (measured: 2x faster and 40 % smaller than transactions of 2,000)
WRITE_HANDS = 10_000
#: files at least this big are read as a stream (twice: digest, then lines) instead of whole. Read
#: whole, a file costs about 3x its size more (measured on a 31 MB file: 696 against 606 MiB with
#: --jobs 1), so that below 4 MiB (one process, POOL_MIN_BYTES) it costs little, and the progress
#: within a small file still goes by its lines
STREAM_MIN_BYTES = 4 << 20
#: lines held at most while waiting for the next hand start (real blocks hold about 80,000)
MAX_BLOCK_LINES = 1_000_000
#: raw text kept for a file no site recognises (the rest is noted as cut)
MAX_UNKNOWN_RAW = 1_000_000
#: why a file is not a hand history (its status NOT_A_HAND_HISTORY: skipped, nothing found, no failure)
NO_TEXT = "empty"
NO_HAND_START = "no hand start of any site, nor PHH"
#: the rows of more tables to write with a transaction's tables (the stats facts of its hands)
FactsOf = Callable[[dict[str, pa.Table]], dict[str, pa.Table]]


def import_sources(store: Store, sources: Iterable[Readable], *, site: str | None = None, rules: str | None = None,
                   replay: bool = True, executor: Executor | None = None, store_facts: bool = True,
                   on_file: Callable[[FileReport], None] | None = None,
                   on_progress: Callable[[ImportProgress], None] | None = None) -> ImportReport:
    """Import ``sources`` in order into ``store`` and account for every hand found.

    ``site`` forces the site (default: detected from each file's content); ``rules`` replays every
    hand under one rule profile (default: each hand's own); ``replay`` False stores hands unjudged.
    ``executor`` runs the parsing and replay (default: this process). ``store_facts`` stores the
    stats facts of the hands of each transaction with them, computed from the batch's tables
    (:class:`~hhtool.reports.facts_table.BatchFacts`), when the chunks are parsed in this process
    (else after the workers are stopped), and those of any hand left without at the end; False
    leaves them to be computed on reading. ``on_file`` hears of each file once it is stored;
    ``on_progress`` hears how far the import is after each chunk and file."""
    sources = list(sources)
    total_bytes = sum(getattr(source, "size", lambda: 0)() for source in sources)
    facts = facts_table.BatchFacts(store) if store_facts else None
    # the collector tuned for the chunks of model objects an import holds (import_gc: ≈9 % of CPU)
    with import_gc():
        with (executor or LocalExecutor()).running(total_bytes) as running:
            # With workers beside it, the importing process leaves the facts to facts.finish, after
            # the workers stop: computed and committed with each batch, they made its commits (the
            # checkpoint of their 130-column table) the peak while the workers ran (#28, item 11:
            # a 200 MB file at --jobs 2, the whole tree 1,088 → 771 MiB; see benchmarks/RESULTS.md)
            importer = Importer(store, replay, rules, site, running.submit, running.in_flight,
                                facts_of=facts.tables_for if facts is not None and running.submit is None else None)
            report = importer.run(sources, on_file, on_progress, judge=False)
        # the pool's workers are stopped first: idle, they still hold ≈250 MiB each, and the pass
        # over every hand imported is the import's peak (measured on a 200 MB file at --jobs 2: the
        # tree's peak 1,600 → 1,209 MiB)
        importer.judge()
    if facts is not None:
        store.release()  # a reader's turn before the facts of the hands left without
        facts.finish()  # `stats` and `graph` have nothing left to compute
    return report


def sites_holding_a_hand(lines: Sequence[str]) -> list[str]:
    """The sites (PHH included) a hand of which starts somewhere in ``lines``: a file in which none
    does is not a hand history, whatever its name (a README, notes, JSON, a picture, an empty file)."""
    return [parser.name for parser in all_parsers() if parser.holds_hand(lines)]


def unknown_format_failure(name: str, decoded: DecodedFile, holding: Sequence[str] = ()) -> FailedHand:
    text = "\n".join(decoded.lines)
    raw = RawHand(name, 1, tuple(text[:MAX_UNKNOWN_RAW].split("\n")) if text else ("",))
    first = next((line for line in decoded.lines if line.strip()), "")
    reason = f"no supported site recognised this file's format (first line: {first[:120]!r})"
    if holding:  # a hand start further in: a garbled history, or one behind a preamble
        reason += (f"; a {' or '.join(holding)} hand starts further in (if it is one, import it with "
                   f"--site {holding[0]})")
    if len(text) > MAX_UNKNOWN_RAW:
        reason += f"; raw text cut to {MAX_UNKNOWN_RAW} characters"
    return FailedHand(None, None, 1, reason, raw, FailureKind.UNKNOWN_FORMAT)


def ends_mid_line(tail: bytes) -> bool:
    """Whether a file whose last bytes are ``tail`` stops inside a line (no final line break;
    NUL bytes are ignored, so UTF-16 text counts too)."""
    stripped = tail.rstrip(b"\x00")
    return bool(stripped) and stripped[-1:] not in (b"\n", b"\r")


class FileWriter:
    """Writes one file's chunks, grouped up to WRITE_HANDS hands per transaction; the file's last
    chunk goes with its ``files`` row, so a files row always means the whole file is stored."""

    def __init__(self, store: Store, first: Sequence[tuple[str, Sequence[Any]]] = (),
                 facts_of: FactsOf | None = None) -> None:
        self.store = store
        self.facts_of = facts_of  # the stats-facts rows of a transaction's hands, written with them
        self.first = list(first)  # statements for the file's first transaction (a grown file: drop re-read rows)
        self.checker = CopyChecker(store)
        self.candidates: list[CopyAt] = []  # second copies of stored hands whose text differs: checked at the end
        self.report: FileReport | None = None  # the file's (store_result): hands stored meanwhile are counted there
        self.tail_ids: list[str | None] = []  # the hands of the files row's tail, item by item
        self.completing: set[str] = set()  # hands whose cut copy `first` removes (hhtool.ingest.provisional)
        self._tables: dict[str, list[pa.Table]] = {}
        self._pending: set[tuple[str, str]] = set()  # identities accounted as stored but not written yet
        self._hands = 0
        self._next_key = 0  # the batch's own hand numbers (hk) so far: each chunk's are moved past them

    def copies_of(self, site: str, hand_ids: list[str], origins: dict[str, str]) -> dict[str, CopyAt]:
        """The stored copy of each of ``hand_ids`` already stored (or about to be: written first)."""
        probes = [(hand_id, *identity(site, hand_id, origins.get(hand_id))) for hand_id in hand_ids]
        if self._pending and any((isite, iid) in self._pending for _, isite, iid in probes):
            self.flush()
        return stored_copies(self.store, probes)

    def add(self, site: str | None, new_ids: list[str], tables: dict[str, pa.Table], last: bool,
            origins: dict[str, str] | None = None) -> None:
        moved = next_key(tables)
        tables = shifted(tables, self._next_key)
        self._next_key += moved
        for name, table in tables.items():
            if table.num_rows:
                self._tables.setdefault(name, []).append(table)
        if site:
            self._pending.update(identity(site, hand_id, (origins or {}).get(hand_id)) for hand_id in new_ids)
        self._hands += len(new_ids)
        if last or self._hands >= WRITE_HANDS:
            self.flush()

    def flush(self) -> None:
        hands = self._hands
        if self._tables or self.first:
            tables = {name: pa.concat_tables(parts) for name, parts in self._tables.items()}
            # (hands another import stored since copies_of looked: left out, counted; hhtool.ingest.meanwhile)
            tables = left_out(self.store, tables, self.report, self.tail_ids, self.candidates, self.completing)
            self.store.write_tables(tables, new_only=NEW_ONLY, first=self.first, derived=self.facts_of,
                                    summed=facts_table.SUMMED)
        self._tables, self._pending, self._hands, self.first, self._next_key = {}, set(), 0, [], 0
        self.completing = set()
        if hands:
            self.store.release()  # the batch (and its facts) is committed: a reader's turn


def _locations(table: pa.Table, hand_ids: set[str]) -> dict[str, tuple[str, int, int, str]]:
    """(file, first line, last line, raw sha256) of some hands of a chunk's ``hands`` table."""
    chosen = table.filter(pc.is_in(table["hand_id"], value_set=pa.array(sorted(hand_ids), pa.string())))
    columns = [chosen[name].to_pylist() for name in ("hand_id", "file", "first_line", "last_line", "raw_sha256")]
    return {hand_id: (file, first, last, sha) for hand_id, file, first, last, sha in zip(*columns, strict=True)}


def store_result(writer: FileWriter, report: FileReport, result: ChunkResult,
                 extra: Callable[[dict[str, int], list[str]], dict[str, pa.Table]] | None = None) -> None:
    """Account a chunk's hands in the file's report and hand them, less those already stored, to
    the writer; ``extra`` (the file row, made once the counts are final, from the file's counts
    and how its tail was counted) marks the file's last chunk."""
    writer.report = report
    known = writer.copies_of(result.site, result.hand_ids, result.origins) if result.site and result.hand_ids else {}
    tables = result.tables
    own: set[str] = set()  # stored before from this very place of this file: an interrupted or shorter read
    if known and report.status == "grown":  # a provisional last hand the grown file completes: replaced
        for hand_id, (file, first, last, sha) in _locations(result.tables["hands"], set(known)).items():
            if result.site and completes(known[hand_id], result.site, file, first, last, sha):
                writer.first.extend(forget_hand(writer.store, known.pop(hand_id).site, hand_id))
                writer.completing.add(hand_id)
                report.completed += 1
    if known:  # their rows go, in every table keyed by the chunk's hand numbers (hk)
        hands = tables["hands"]
        drop = hands.filter(pc.is_in(hands["hand_id"], value_set=pa.array(sorted(known), pa.string())))["hk"]
        tables = {name: table.filter(pc.invert(pc.is_in(table["hk"], value_set=drop.combine_chunks())))
                  if "hk" in table.column_names else table for name, table in tables.items()}
        for hand_id, (file, first, last, sha) in _locations(result.tables["hands"], set(known)).items():
            stored = known[hand_id]
            if (stored.file, stored.first_line) == (file, first):
                own.add(hand_id)
            if stored.sha256 != sha or stored.site != result.site:
                assert result.site is not None
                writer.candidates.append(CopyAt(result.site, hand_id, file, first, last, sha,
                                                result.origins.get(hand_id)))
    writer.candidates.extend(copy for copy in result.repeats)
    report.keep_duplicate_ids([copy.hand_id for copy in result.repeats] + [hand_id for hand_id in known if hand_id not in own])
    skipped_hands = result.tables.get("skipped_hands")
    if skipped_hands is not None and skipped_hands.num_rows:
        for game in skipped_hands["game"].to_pylist():
            report.skipped_games[str(game)] = report.skipped_games.get(str(game), 0) + 1
    # a hand this file's earlier read stored at this very place (the last hand, read again by a grown
    # file's resume; the part an interrupted import stored) is not found again by this read: counted
    # apart, and in the file's totals as the hand it stored
    report.hands_found += result.found - len(own)
    report.stored += len(result.hand_ids) - len(known)
    report.duplicates += result.duplicates + len(known) - len(own)
    report.already_stored += len(own)
    report.skipped += result.skipped
    report.failed += len(result.failures)
    report.failures.extend(Failure(*failure) for failure in result.failures)
    report.failures.extend(Failure(0, note) for note in result.notes)  # (line 0: a note, no hand failed)
    report.incomplete += len(result.incomplete)
    report.incomplete_hands.extend(Failure(*failure) for failure in result.incomplete)
    new_ids = [hand_id for hand_id in result.hand_ids if hand_id not in known]
    if extra is None:
        writer.add(result.site, new_ids, tables, last=False, origins=result.origins)
        return
    tail = [("duplicates" if hand_id in known and hand_id not in own else "stored") if kind == HAND else kind
            for kind, hand_id in result.tail]
    writer.tail_ids = [hand_id for _, hand_id in result.tail]
    conflicts: dict[str, pa.Table] = {}
    if writer.candidates:  # compare with everything of this file stored first
        writer.add(result.site, new_ids, tables, last=True, origins=result.origins)
        tables, new_ids = {}, []
        rows, report.conflicts = writer.checker.resolve(writer.candidates)
        writer.checker.forget()
        conflicts = {"copy_conflicts": conflict_table(rows)}
    counts = {name: getattr(report, name) for name in COUNTS}
    counts["stored"] += report.already_stored
    counts["hands_found"] += report.already_stored
    writer.add(result.site, new_ids, {**tables, **conflicts, **extra(counts, tail)}, last=True, origins=result.origins)


@dataclass
class _FileJob:
    """One file in flight: its report, and what its files row will say."""

    report: FileReport
    row: dict[str, Any]
    chunks: Iterable[list[RawHand] | LineBlock]
    resume_line: int
    writer: FileWriter
    prefix: dict[str, int] = field(default_factory=dict)  # a grown file: the counts of the part not read again
    ends_mid_line: bool = False
    tail: list[str] = field(default_factory=list)  # how the items of a file with no chunk to parse were counted
    size: int = 0  # bytes on disk, for the progress
    position: Callable[[list[RawHand] | LineBlock], float] | None = None  # the share of the file read after a chunk
    shares: deque[float] = field(default_factory=deque)  # position after each chunk in flight
    damage: str | None = None  # a damaged archive: where its readable part ends, and why


@dataclass
class _Resume:
    """Where to start reading a file, and what its earlier import leaves to this one."""

    start_line: int = 1
    status: str = "parsed"
    prefix: dict[str, int] = field(default_factory=dict)
    first: list[tuple[str, list[Any]]] = field(default_factory=list)


class Importer:
    """Imports files into a store (:func:`import_sources` sets one up). ``submit`` (an executor's)
    runs the parsing and replay elsewhere; results are written here, in order, one transaction per chunk.
    A store shared between batches (:meth:`Store.share_between_batches`) is given back to other
    processes while files are read and chunks parsed, and taken again to look up and write."""

    def __init__(self, store: Store, replay: bool = True, rules: str | None = None, site: str | None = None,
                 submit: Submit | None = None, in_flight: int = 4, facts_of: FactsOf | None = None) -> None:
        self.store = store
        self.replay = replay
        self.rules = rules
        self.site = site
        self.submit = submit
        self.in_flight = in_flight if submit else 0
        self._progress = ProgressTracker(0, 0, None)  # run's, for each import
        self.facts_of = facts_of  # the stats-facts rows of each transaction's hands (FileWriter)
        self._mark: Any = None  # (run's: what the cross-hand pass judges again)

    @property
    def reading(self) -> str:
        return "forced" if self.site else "detected"

    def run(self, sources: Iterable[Readable], on_file: Callable[[FileReport], None] | None = None,
            on_progress: Callable[[ImportProgress], None] | None = None, judge: bool = True) -> ImportReport:
        """Import ``sources`` in order; ``on_file`` hears of each file once it is stored, ``on_progress``
        how far the import is after each chunk and file; ``judge`` False leaves the cross-hand pass
        to a call of :meth:`judge`."""
        sources = list(sources)
        report = ImportReport()
        self._progress = ProgressTracker(len(sources), sum(_source_size(source) for source in sources), on_progress)
        self._mark = import_mark(self.store)  # the tables of the files stored from here on are judged again at the end
        pending: deque[tuple[_FileJob, Any, bool]] = deque()
        for source in sources:
            self.store.release()  # reading the file holds nothing: readers may open the store meanwhile
            try:
                job = self._start(source)
            except SourceError as error:
                report.unreadable.append(str(error))
                self._progress.file_done(_source_size(source))
                continue
            job.size = _source_size(source)
            report.files.append(job.report)
            self._progress.started(job.report)
            chunks = iter(job.chunks)
            chunk = next(chunks, None)
            if chunk is None:
                if job.row and job.report.status == "parsed" and not job.report.hands_found:
                    _not_a_history(job.report, NO_TEXT)  # (an empty file read with --site)
                self._write_file_row(job)
                if on_file:
                    on_file(job.report)
                self._progress.file_done(job.size, job.report)
            first = True
            while chunk is not None:  # one chunk ahead, to know which is the file's last
                self.store.release()  # (between batches, while the lines are read and parsed)
                following = next(chunks, None)
                pending.append((job, self._dispatch(job, chunk, following is None, first), following is None))
                first = False
                while len(pending) > self.in_flight:
                    self._finish(*pending.popleft(), on_file)
                chunk = following
        while pending:
            self._finish(*pending.popleft(), on_file)
        if judge:
            self.judge()
        return report

    def judge(self) -> None:
        """The cross-hand pass over the tables of the files :meth:`run` stored."""
        if self.replay:
            self.store.release()  # (a reader's turn between the last batch and the tables' pass)
            judge_imported_since(self.store, self._mark)  # forced bets against the tables' other hands

    def _writer(self, resume: _Resume | None = None) -> FileWriter:
        return FileWriter(self.store, resume.first if resume else (), self.facts_of)

    def import_file(self, name: str | os.PathLike[str], data: bytes) -> FileReport:
        return self.run([_InMemory(str(name), data)]).files[0]

    def _start(self, source: Readable) -> _FileJob:
        opener = getattr(source, "open_binary", None)
        # an archive's size on disk says nothing of what it expands to: always streamed
        if opener is not None and (source.size() >= STREAM_MIN_BYTES or getattr(source, "compressed", False)):  # type: ignore[attr-defined]
            job = self._start_streaming(source.name, opener)
            if job is not None:
                return job
        return self._start_whole(source.name, source.read())

    def _known(self, name: str, digest: str, size: int, prefix_digest: Callable[[int], str | None],
               ) -> tuple[_FileJob | None, _Resume]:
        """(the job if these bytes were imported before and read the same way, where to resume)."""
        known = self.store.file_by_content(digest)
        found_none = known is not None and self.site is not None and not known["hands_found"]
        if known is not None and not found_none and (  # (a forced --site that found nothing: read again, to say so)
                known["site"] == self.site if self.site else known["reading"] == "detected"):
            return _FileJob(self._unchanged(name, known), {}, [], 0, self._writer()), _Resume(status="unchanged")
        if known is not None and known["path"] == name:  # the same bytes read another way: read them again
            return None, _Resume(status="reread", first=[
                *(_drop_rows_of(name, 1)), ("DELETE FROM files WHERE path = ? AND sha256 = ?", [name, digest])])
        previous = self.store.last_import_of(name)
        if (previous is not None and size > previous["size"] and prefix_digest(previous["size"]) == previous["sha256"]
                and (previous["site"] == self.site if self.site else previous["reading"] == "detected")):
            prefix = {name: previous[name] for name in COUNTS}
            for counted in previous["tail"]:  # the items from the resume line on are read again
                prefix[counted] -= 1
                prefix["hands_found"] -= 1
            start = int(previous["resume_line"])
            return None, _Resume(start, "grown", prefix, [
                *(_drop_rows_of(name, start)),
                ("DELETE FROM files WHERE path = ? AND sha256 = ?", [name, previous["sha256"]])])
        return None, _Resume()

    def _start_whole(self, name: str, data: bytes) -> _FileJob:
        digest = hashlib.sha256(data).hexdigest()
        known, resume = self._known(name, digest, len(data), lambda size: hashlib.sha256(data[:size]).hexdigest())
        if known is not None:
            return known
        decoded = decode_bytes(data)
        parser = parser_for(self.site) if self.site else detect(decoded.lines)
        report = FileReport(name, parser.name if parser else None, decoded.encoding, status=resume.status,
                            reading=self.reading, looks_like=self._looks_like(decoded.lines))
        report.failures.extend(Failure(0, f"decoding: {problem}") for problem in decoded.problems)
        row = {"path": name, "sha256": digest, "size": len(data), "site": report.site, "encoding": decoded.encoding,
               "lines": len(decoded.lines), "reading": self.reading}
        writer = self._writer(resume)
        writer.checker.provide(name, decoded.lines)
        start_line = resume.start_line
        if parser is None:
            job = _FileJob(report, row, [], start_line, writer, resume.prefix)
            self._no_site_detected(job, decoded, sites_holding_a_hand(decoded.lines))
            return job
        if parser.splits_at_hand_starts:  # cut into blocks of lines; the workers split them
            chunks: Iterable[list[RawHand] | LineBlock] = _line_blocks([decoded.lines], parser, name, start_line)
        else:
            chunks = _batched(raw for raw in parser.split(decoded.lines, name) if raw.first_line >= start_line)
        total = max(len(decoded.lines), 1)
        return _FileJob(report, row, chunks, start_line, writer, resume.prefix, ends_mid_line(data[-4:]),
                        position=lambda chunk: min(_last_line(chunk) / total, 1.0))

    def _looks_like(self, lines: Sequence[str]) -> str | None:
        """With --site: the site the content is detected as, where that is another one (else None)."""
        if not self.site:
            return None
        detected = detect(lines)
        return detected.name if detected is not None and detected.name != self.site else None

    def _no_site_detected(self, job: _FileJob, decoded: DecodedFile, holding: Sequence[str]) -> None:
        """A file no site recognises: not a hand history when no hand of any site starts in it (or it
        holds no text), else one failure holding its text (a garbled history: nothing is lost)."""
        if not any(line.strip() for line in decoded.lines):
            _not_a_history(job.report, NO_TEXT)
        elif not holding:
            _not_a_history(job.report, NO_HAND_START)
        else:
            self._apply(job, failure_chunk(unknown_format_failure(job.report.path, decoded, holding)), file_row=False)

    def _start_streaming(self, name: str, opener: Callable[[], BinaryIO]) -> _FileJob | None:
        """A file read as a stream (digest and encoding, then lines), never whole: memory stays
        flat whatever its size. None when its site's splitter needs the whole file."""
        previous = self.store.last_import_of(name)
        self.store.release()  # (the whole file is read to digest it)
        with opener() as stream:
            scanned = scan_stream(stream, prefix_size=previous["size"] if previous else None)
            damage: str | None = getattr(stream, "damage", None)  # (its part before the damage is read)
        if damage and not scanned.size:
            raise SourceError(f"{name}: cannot read: {damage}")  # (nothing before the damage)
        known, resume = self._known(name, scanned.sha256, scanned.size, lambda _: scanned.prefix_sha256)
        if known is not None:
            return known
        parser = parser_for(self.site) if self.site else detect(scanned.head_lines)
        if parser is not None and not parser.can_stream:
            return None
        report = FileReport(name, parser.name if parser else None, scanned.encoding.label, status=resume.status,
                            reading=self.reading, looks_like=self._looks_like(scanned.head_lines))
        row: dict[str, Any] = {"path": name, "sha256": scanned.sha256, "size": scanned.size, "site": report.site,
                               "encoding": scanned.encoding.label, "lines": 0, "reading": self.reading}
        start_line = resume.start_line

        def lines_read(reader: LineReader) -> None:
            row["lines"] = reader.lines
            problems = [*reader.problems, *([describe_bad_bytes(reader.bad_bytes)] if reader.bad_bytes else [])]
            report.failures.extend(Failure(0, f"decoding: {problem}") for problem in problems)

        if parser is None:
            with opener() as stream:
                reader = LineReader(stream, scanned.encoding)
                kept, holding = _first_characters(reader, MAX_UNKNOWN_RAW + 1)
                decoded = DecodedFile(scanned.encoding.label, kept)
                lines_read(reader)
            job = _FileJob(report, row, [], start_line, self._writer(resume), resume.prefix, damage=damage)
            self._no_site_detected(job, decoded, holding)
            if damage:
                self._apply(job, failure_chunk(_damage_failure(job)), file_row=False)
            return job
        counted = CountingStream()

        def chunks() -> Iterator[LineBlock | list[RawHand]]:
            with opener() as stream:
                counted.stream = stream
                reader = LineReader(cast(BinaryIO, counted), scanned.encoding)
                if parser.splits_at_hand_starts:
                    yield from _line_blocks(reader, parser, name, start_line)
                else:
                    lines = (line for batch in reader for line in batch)
                    yield from _batched(raw for raw in parser.split(lines, name) if raw.first_line >= start_line)
                lines_read(reader)

        expanded = max(scanned.size, 1)
        # the text of a damaged archive stops at the damage, in a line or not: its last hand is cut off
        return _FileJob(report, row, chunks(), start_line, self._writer(resume), resume.prefix,
                        bool(damage) or _last_bytes(opener), position=lambda _: min(counted.read_bytes / expanded, 1.0),
                        damage=damage)

    def _dispatch(self, job: _FileJob, chunk: list[RawHand] | LineBlock, is_last: bool, is_first: bool) -> Any:
        site = job.report.site
        assert site is not None  # a file no site reads has no chunks to parse
        whole = is_first and job.resume_line <= 1  # from the file's start (a grown file resumes later)
        args = (site, chunk, self.rules, self.replay, is_last, is_last and job.ends_mid_line, whole)
        job.shares.append(1.0 if is_last else job.position(chunk) if job.position else 0.0)
        if self.submit is None:
            return process_chunk(*args)
        return self.submit(process_chunk, *args)

    def _finish(self, job: _FileJob, pending: Any, is_last: bool,
                on_file: Callable[[FileReport], None] | None = None) -> None:
        if not isinstance(pending, ChunkResult):
            self.store.release()  # waiting for a worker holds nothing
        result: ChunkResult = pending if isinstance(pending, ChunkResult) else pending.result()
        self._apply(job, result, file_row=is_last)
        share = job.shares.popleft() if job.shares else 1.0
        if is_last and on_file:
            on_file(job.report)
        if is_last:
            self._progress.file_done(job.size, job.report)
        else:
            self._progress.chunk_done(job.report, job.size * share)

    def _apply(self, job: _FileJob, result: ChunkResult, file_row: bool) -> None:
        if result.not_hand_history:
            looks = job.report.looks_like
            _not_a_history(job.report, f"no hand start of --site {job.report.site}" + (
                f"; it looks like a history of {looks}: import it without --site, or with --site {looks}" if looks else ""))
        if result.found:
            job.resume_line = result.last_first_line
        if not file_row:
            job.tail = [kind for kind, _ in result.tail if kind != HAND]
        elif job.damage and job.report.site:  # the damage is the file's last item, after its last hand
            result = _joined(result, failure_chunk(_damage_failure(job)))
        store_result(job.writer, job.report, result,
                     (lambda counts, tail: {"files": self._file_row(job, counts, tail)}) if file_row else None)

    def _file_row(self, job: _FileJob, counts: dict[str, int], tail: list[str]) -> pa.Table:
        totals = {name: counts[name] + job.prefix.get(name, 0) for name in COUNTS}
        job.report.totals = totals
        return pa.Table.from_pylist([{**job.row, **totals, "resume_line": job.resume_line, "tail": tail}],
                                    schema=_files_schema(job.row))

    def _write_file_row(self, job: _FileJob) -> None:
        if job.row:  # unchanged files are not imported again, so they get no new row
            counts = {name: getattr(job.report, name) for name in COUNTS}
            job.writer.add(None, [], {"files": self._file_row(job, counts, job.tail)}, last=True)

    @staticmethod
    def _unchanged(name: str, known: dict[str, Any]) -> FileReport:
        """A file whose bytes were imported before: not read again, so this import finds nothing in
        it (no hand stored, none a duplicate, no failure told twice); ``totals`` still give what its
        import found (the files row)."""
        report = FileReport(name, known["site"], known["encoding"], status="unchanged", reading=known["reading"])
        report.totals = {name: known[name] for name in COUNTS}
        return report


def _damage_failure(job: _FileJob) -> FailedHand:
    """A damaged archive's unread rest as a failure, at the line after the last one read."""
    line = int(job.row.get("lines", 0)) + 1
    assert job.damage is not None
    return FailedHand(job.report.site, None, line, job.damage, RawHand(job.report.path, line, ("",)),
                      FailureKind.DAMAGED)


def _joined(result: ChunkResult, more: ChunkResult) -> ChunkResult:
    """A chunk's result with the items of ``more`` (found after it in the file) added at its end."""
    tables = dict(result.tables)
    for name, table in more.tables.items():
        tables[name] = pa.concat_tables([tables[name], table]) if name in tables else table
    return replace(result, tables=tables, found=result.found + more.found, failures=[*result.failures, *more.failures],
                   tail=[*result.tail, *more.tail])


def _drop_rows_of(path: str, start_line: int) -> list[tuple[str, list[Any]]]:
    """Statements removing what an earlier import of ``path`` stored about its lines from
    ``start_line`` on, which this import reads again (its hands stay: a stored hand never changes)."""
    return [("DELETE FROM import_errors WHERE file = ? AND first_line >= ?", [path, start_line]),
            ("DELETE FROM skipped_hands WHERE file = ? AND first_line >= ?", [path, start_line]),
            ("DELETE FROM copy_conflicts WHERE second_file = ? AND second_first_line >= ?", [path, start_line])]


def _files_schema(row: dict[str, Any]) -> pa.Schema:
    types = {"size": pa.int64(), "lines": pa.int64(), "resume_line": pa.int64(), "tail": pa.list_(pa.string())}
    names = [*row, *COUNTS, "resume_line", "tail"]
    return pa.schema([(name, types.get(name, pa.int64() if name in COUNTS else pa.string())) for name in names])


def _last_bytes(opener: Callable[[], BinaryIO]) -> bool:
    """Whether a file read as a stream ends inside a line (see :func:`ends_mid_line`)."""
    try:
        with opener() as stream:
            stream.seek(-4, os.SEEK_END)
            return ends_mid_line(stream.read())
    except (OSError, ValueError):
        return False


@dataclass(frozen=True)
class _InMemory:
    """Bytes already in memory, named like the file they came from."""

    name: str
    data: bytes

    def read(self) -> bytes:
        return self.data

    def size(self) -> int:
        return len(self.data)

    def open_binary(self) -> BinaryIO:
        return io.BytesIO(self.data)


def _first_characters(reader: LineReader, limit: int) -> tuple[tuple[str, ...], list[str]]:
    """The lines holding a stream's first ``limit`` characters (the rest is read and counted only),
    and the sites a hand of which starts anywhere in it (:func:`sites_holding_a_hand`)."""
    kept: list[str] = []
    holding: list[str] = []
    size = 0
    for batch in reader:
        holding.extend(site for site in sites_holding_a_hand(batch) if site not in holding)
        for line in batch:
            if size < limit:
                kept.append(line[: limit - size])
                size += len(line) + 1
    return tuple(kept), holding


def _not_a_history(report: FileReport, note: str) -> None:
    """Mark a file that holds no hand: skipped, nothing found, no failure (its decoding notes are
    about text that is no hand: dropped)."""
    report.status, report.note = NOT_A_HAND_HISTORY, note
    report.failures = [failure for failure in report.failures if not failure.reason.startswith("decoding:")]


def _source_size(source: Readable) -> int:
    size = getattr(source, "size", None)
    return int(size()) if callable(size) else 0


def _last_line(chunk: list[RawHand] | LineBlock) -> int:
    if isinstance(chunk, LineBlock):
        return chunk.offset + len(chunk.lines)
    return chunk[-1].last_line if chunk else 0



def _line_blocks(pieces: Iterable[Sequence[str]], parser: SiteParser, file: str, start_line: int) -> Iterator[LineBlock]:
    """Cut a file's lines, arriving in pieces, into blocks of BATCH_HANDS hands, each cut just
    before a hand's first line; blocks whose hands all start before ``start_line`` are dropped."""
    pending: list[str] = []
    starts: list[int] = []  # indexes in pending of the lines that begin a hand
    offset = 0  # file index of pending[0]
    for piece in pieces:
        base = len(pending)
        starts.extend(base + index for index in parser.hand_starts(piece))
        pending.extend(piece)
        while len(starts) > BATCH_HANDS:
            cut = starts[BATCH_HANDS]
            if offset + cut >= start_line:  # some hand in it starts at or after start_line
                yield LineBlock(file, offset, tuple(pending[:cut]), start_line)
            del pending[:cut]
            offset += cut
            starts = [start - cut for start in starts[BATCH_HANDS:]]
        if len(pending) - (starts[-1] if starts else 0) > MAX_BLOCK_LINES:  # a hand that never ends: cut it here
            pending[-1] += f"{CUT_LINE_MARK}more than {MAX_BLOCK_LINES:,} lines without a hand start; the text was cut here"
            if offset + len(pending) >= start_line:
                yield LineBlock(file, offset, tuple(pending), start_line)
            offset += len(pending)
            pending, starts = [], []
    if pending:
        yield LineBlock(file, offset, tuple(pending), start_line)


def _batched(raws: Iterable[RawHand]) -> Iterator[list[RawHand]]:
    batch: list[RawHand] = []
    for raw in raws:
        batch.append(raw)
        if len(batch) >= BATCH_HANDS:
            yield batch
            batch = []
    if batch:
        yield batch
