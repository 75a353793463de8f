"""End to end: one import of a file into a fresh store, in this process, with the CPU time of the
importing process (its serial part: read, cut, account, write, facts) apart from the workers'.

    python benchmarks/bench_import.py FILE [--jobs 2] [--repeats 5]

Prints, per run and as medians: wall seconds, hands/s (wall), the importing process's CPU µs per
hand, the workers' CPU µs per hand (every descendant's CPU time, sampled), both together, the
process tree's peak resident memory (sampled every 50 ms) and the store's bytes per hand. Run it
with another checkout's PYTHONPATH for an A/B, interleaved (``--label``).
Nothing here runs in the unit tests.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import threading
import time
from pathlib import Path

import psutil


class Descendants:
    """The CPU seconds of this process's descendants (the pool's workers are the forkserver's
    children, so the rusage of children never counts them): each one's last reading, every 50 ms."""

    def __init__(self) -> None:
        self.seen: dict[int, float] = {}
        self.peak_rss = 0  # the largest sum of this process's and its descendants' resident memory seen
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        me = psutil.Process(os.getpid())
        while not self._stop.wait(0.05):
            rss = me.memory_info().rss
            for child in me.children(recursive=True):
                try:
                    times, rss = child.cpu_times(), rss + child.memory_info().rss
                except psutil.Error:
                    continue
                self.seen[child.pid] = times.user + times.system
            self.peak_rss = max(self.peak_rss, rss)

    def __enter__(self) -> Descendants:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()

    @property
    def seconds(self) -> float:
        return sum(self.seen.values())


def one_import(path: Path, jobs: int) -> dict[str, float]:
    try:
        from hhtool.ingest.executors import LocalExecutor
        from hhtool.ingest.loader import import_sources
        from hhtool.ingest.sources import collect_sources
    except ImportError:  # a tree from before hhtool/ingest/ (#27), for an A/B
        from hhtool.executors import LocalExecutor  # type: ignore[no-redef]
        from hhtool.importer import import_sources  # type: ignore[no-redef]
        from hhtool.sources import collect_sources  # type: ignore[no-redef]
    from hhtool.store import Store

    with tempfile.TemporaryDirectory() as folder:
        started, cpu = time.perf_counter(), time.process_time()
        db = Path(folder) / "b.duckdb"
        with Descendants() as descendants, Store(str(db)) as store:
            report = import_sources(store, collect_sources([str(path)]).sources, executor=LocalExecutor(jobs))
        wall, own = time.perf_counter() - started, time.process_time() - cpu
        db_bytes = db.stat().st_size
    hands = report.total("stored")
    workers = descendants.seconds
    return {"hands": hands, "wall s": wall, "hands/s": hands / wall, "importing µs/hand": own / hands * 1e6,
            "workers µs/hand": workers / hands * 1e6, "total µs/hand": (own + workers) / hands * 1e6,
            "peak RSS MiB (tree)": descendants.peak_rss / 2**20, "DB bytes/hand": db_bytes / hands}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("file", type=Path)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--label", default="")
    options = parser.parse_args()
    runs = []
    for _ in range(options.repeats):
        runs.append(one_import(options.file, options.jobs))
        print(options.label, {key: round(value, 1) for key, value in runs[-1].items()}, flush=True)
    print(options.label, "median", {key: round(statistics.median(run[key] for run in runs), 1) for key in runs[0]})


if __name__ == "__main__":
    main()
