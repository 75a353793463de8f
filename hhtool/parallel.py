"""Running the import's chunks on several cores (a process pool) or a Dask cluster.

Pool: the importing process reads and splits files and writes the store; workers parse, replay
and tabulate chunks. Cluster: each Dask task imports one whole file into Parquet partitions
(``<dir>/<table>/<file digest>-<chunk>.parquet``); the client then ingests them, file by file,
dropping hands already stored — the same rows a single-machine import writes.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import astuple
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from hhtool.chunks import ChunkResult, failure_chunk, process_chunk
from hhtool.importer import (
    BATCH_HANDS,
    COUNTS,
    Failure,
    FileReport,
    FileWriter,
    ImportReport,
    ends_mid_line,
    store_result,
    unknown_format_failure,
)
from hhtool.reader import decode_bytes
from hhtool.sites import detect, parser_for
from hhtool.sources import Source, SourceError
from hhtool.store import Store
from hhtool.store.context import import_mark, judge_imported_since
from hhtool.store.copies import CopyAt
from hhtool.store.tables import failure_rows

#: a process pool pays its start-up only when there is this much to read
POOL_MIN_BYTES = 4 << 20


def default_jobs() -> int:
    return os.cpu_count() or 1


@contextmanager
def process_pool(jobs: int, total_bytes: int) -> Iterator[Any]:
    """A pool's submit function, or None when one process is enough."""
    if jobs <= 1 or total_bytes < POOL_MIN_BYTES:
        yield None
        return
    # forkserver: workers do not inherit the importing process's open database
    with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("forkserver"),
                             initializer=exit_with, initargs=(os.getpid(),)) as pool:
        yield pool.submit


def exit_with(importer_pid: int, interval: float = 1.0) -> None:
    """Pool initializer: end this worker when the importing process is gone. A killed importer
    (SIGKILL, the OOM killer) runs no clean-up, and its workers would otherwise wait on their task
    queue for ever. Ctrl-C (SIGINT to the whole process group) is the importer's to handle: it stops
    the pool and says what was stored; a worker would only print a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while _alive(importer_pid):
            time.sleep(interval)
        os._exit(1)

    threading.Thread(target=watch, name="hhtool-importer-watch", daemon=True).start()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a killed process stays a zombie until its parent reaps it
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            return stat.read().rpartition(")")[2].split()[0] != "Z"
    except (OSError, IndexError):
        return True


# ------------------------------------------------------------------ cluster: one task per file


def import_file_to_parquet(source: Source, out_dir: str, site: str | None, rules: str | None) -> dict[str, Any]:
    """A Dask task: parse, replay and tabulate one file into Parquet partitions; returns its accounting."""
    try:
        data = source.read()
    except SourceError as error:
        return {"name": source.name, "unreadable": str(error)}
    digest = hashlib.sha256(data).hexdigest()
    decoded = decode_bytes(data)
    parser = parser_for(site) if site else detect(decoded.lines)
    summary: dict[str, Any] = {"name": source.name, "sha256": digest, "size": len(data), "encoding": decoded.encoding,
                               "lines": len(decoded.lines), "site": parser.name if parser else None, "chunks": [],
                               "problems": list(decoded.problems)}
    if parser is None:
        if decoded.lines:
            failure = unknown_format_failure(source.name, decoded)
            part = _write_tables(out_dir, digest, 0, {"import_errors": failure_rows([failure])})
            summary["chunks"].append(_chunk_summary(part, failure_chunk(failure)))
        return summary
    raws = list(parser.split(decoded.lines, source.name))
    cut_inside_line = ends_mid_line(data[-4:])
    for index in range(0, len(raws), BATCH_HANDS):
        last = index + BATCH_HANDS >= len(raws)
        result = process_chunk(parser.name, raws[index:index + BATCH_HANDS], rules, True, last, last and cut_inside_line)
        part = _write_tables(out_dir, digest, index // BATCH_HANDS, result.tables)
        summary["chunks"].append(_chunk_summary(part, result))
    return summary


def _chunk_summary(part: str, result: ChunkResult) -> dict[str, Any]:
    return {"part": part, "hand_ids": result.hand_ids, "found": result.found, "duplicates": result.duplicates,
            "skipped": result.skipped, "failures": result.failures, "incomplete": result.incomplete,
            "last_first_line": result.last_first_line, "origins": result.origins,
            "repeats": [astuple(copy) for copy in result.repeats], "tail": result.tail}


def _write_tables(out_dir: str, digest: str, index: int, tables: dict[str, pa.Table]) -> str:
    part = f"{digest[:16]}-{index:05d}"
    for name, table in tables.items():
        if table.num_rows:
            folder = Path(out_dir) / name
            folder.mkdir(parents=True, exist_ok=True)
            pq.write_table(table, folder / f"{part}.parquet")
    return part


def _read_part(out_dir: str, part: str) -> dict[str, pa.Table]:
    tables = {}
    for folder in sorted(Path(out_dir).iterdir()):
        path = folder / f"{part}.parquet"
        if path.exists():
            tables[folder.name] = pq.read_table(path)
    return tables


def cluster_import(store: Store, sources: Sequence[Source], address: str, out_dir: str, site: str | None,
                   rules: str | None) -> ImportReport:
    """Import on a Dask cluster ("local" starts a LocalCluster on loopback), then ingest here."""
    from distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=default_jobs(), threads_per_worker=1, host="127.0.0.1",
                           dashboard_address=None) if address == "local" else None
    client = Client(cluster) if cluster is not None else Client(address)
    try:
        futures = client.map(import_file_to_parquet, list(sources), out_dir=out_dir, site=site, rules=rules, pure=False)
        summaries = client.gather(futures)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    return ingest(store, summaries, out_dir, site)


def ingest(store: Store, summaries: Sequence[dict[str, Any]], out_dir: str, site: str | None = None) -> ImportReport:
    """Store the partitions the tasks wrote, in the order of the files, as a local import would."""
    report = ImportReport()
    mark = import_mark(store)  # the tables of the files stored from here on are judged again at the end
    reading = "forced" if site else "detected"
    for summary in summaries:
        if "unreadable" in summary:
            report.unreadable.append(summary["unreadable"])
            continue
        file_report = FileReport(summary["name"], summary["site"], summary["encoding"], reading=reading)
        file_report.failures.extend(Failure(0, f"decoding: {problem}") for problem in summary["problems"])
        resume_line = 1
        # every file is read whole here: an earlier row for the same bytes is replaced, not repeated
        writer = FileWriter(store, first=[("DELETE FROM files WHERE path = ? AND sha256 = ?",
                                           [summary["name"], summary["sha256"]])])
        for chunk in summary["chunks"]:
            result = ChunkResult(summary["site"], chunk["hand_ids"], _read_part(out_dir, chunk["part"]), chunk["found"],
                                 chunk["duplicates"], chunk["skipped"], [tuple(f) for f in chunk["failures"]],
                                 [tuple(f) for f in chunk["incomplete"]], origins=dict(chunk["origins"]),
                                 repeats=[CopyAt(*copy) for copy in chunk["repeats"]],
                                 tail=[tuple(item) for item in chunk["tail"]])  # type: ignore[misc]
            resume_line = chunk["last_first_line"] or resume_line
            last = chunk is summary["chunks"][-1]
            store_result(writer, file_report, result,
                         (lambda counts, tail, s=summary, r=file_report, line=resume_line:
                          {"files": _file_row(s, r, counts, tail, line, reading)}) if last else None)
        if not summary["chunks"]:
            counts = {name: getattr(file_report, name) for name in COUNTS}
            writer.add(None, [], {"files": _file_row(summary, file_report, counts, [], resume_line, reading)}, last=True)
        report.files.append(file_report)
    judge_imported_since(store, mark)  # forced bets against the tables' other hands
    return report


def _file_row(summary: dict[str, Any], report: FileReport, counts: dict[str, int], tail: list[str], resume_line: int,
              reading: str) -> pa.Table:
    report.totals = dict(counts)
    return pa.Table.from_pylist([{
        "path": summary["name"], "sha256": summary["sha256"], "size": summary["size"], "site": summary["site"],
        "encoding": summary["encoding"], **counts, "lines": summary["lines"], "resume_line": resume_line,
        "reading": reading, "tail": tail,
    }], schema=pa.schema([("path", pa.string()), ("sha256", pa.string()), ("size", pa.int64()), ("site", pa.string()),
                          ("encoding", pa.string()), *((name, pa.int64()) for name in COUNTS), ("lines", pa.int64()),
                          ("resume_line", pa.int64()), ("reading", pa.string()), ("tail", pa.list_(pa.string()))]))


def export_parquet(store: Store, out_dir: str, tables: Sequence[str]) -> dict[str, int]:
    """Write every table of the store in the cluster layout: ``<dir>/<table>/part-00000.parquet``."""
    counts = {}
    for name in tables:
        folder = Path(out_dir) / name
        folder.mkdir(parents=True, exist_ok=True)
        arrow = store.con.sql(f"SELECT * FROM {name}").to_arrow_table()
        pq.write_table(arrow, folder / "part-00000.parquet")
        counts[name] = arrow.num_rows
    return counts
