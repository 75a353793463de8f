"""Wall and CPU time of `hhtool import` of one simulated file, on the process pool and on Dask.

    .venv/bin/python benchmarks/bench_executors.py --hands 20000 --repeats 3

Each run imports into a fresh store in a child process; CPU time is the user + system time of
the child and of all its descendants (pool or cluster workers, sampled every 0.1 s while they run:
a forkserver's workers are never reaped by the importing process, so getrusage misses them).
Prints the median of the runs.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

MODES = {"2 jobs": ["--jobs", "2"], "dask local": ["--dask", "local"]}


def run_once(history: Path, arguments: list[str], folder: Path) -> tuple[float, float]:
    db = folder / f"store-{time.monotonic_ns()}.duckdb"
    started = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "hhtool", "import", "--db", str(db), *arguments, str(history)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    cpu: dict[int, float] = {}  # the latest user + system time seen of each process of the tree
    root = psutil.Process(child.pid)
    while child.poll() is None:
        try:
            tree = [root, *root.children(recursive=True)]
        except psutil.NoSuchProcess:
            break
        for process in tree:
            try:
                times = process.cpu_times()
            except psutil.NoSuchProcess:
                continue
            cpu[process.pid] = times.user + times.system
        time.sleep(0.1)
    _, stderr = child.communicate()
    wall = time.perf_counter() - started
    if child.returncode not in (0, 1):
        raise SystemExit(f"import failed ({child.returncode}): {stderr[-2000:]}")
    db.unlink()
    return wall, sum(cpu.values())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--history", help="an existing file to import instead of simulating one")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="hhtool-bench-") as scratch:
        folder = Path(scratch)
        history = Path(args.history) if args.history else folder / "simulated.txt"
        if not args.history:
            subprocess.run([sys.executable, "-m", "hhtool", "simulate", "--hands", str(args.hands), "--seed",
                            str(args.seed), "--out", str(history)], check=True, capture_output=True)
        print(f"{history.name}: {history.stat().st_size / 1e6:.1f} MB, load {os.getloadavg()[0]:.1f}")
        for mode, arguments in MODES.items():
            runs = [run_once(history, arguments, folder) for _ in range(args.repeats)]
            walls, cpus = [wall for wall, _ in runs], [cpu for _, cpu in runs]
            print(f"{mode:>10}: wall {statistics.median(walls):6.1f} s (runs {', '.join(f'{w:.1f}' for w in walls)}), "
                  f"CPU {statistics.median(cpus):6.1f} s (runs {', '.join(f'{c:.1f}' for c in cpus)})", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
