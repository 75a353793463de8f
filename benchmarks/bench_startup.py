"""Start-up of the command line: CPU (user + system) and wall time of short commands, median of N runs.

    python benchmarks/bench_startup.py --db small.duckdb --hand-id 250010000119 [--runs 7] [--base DIR]

Each command runs as ``python -m hhtool ...`` in a fresh process. ``--base DIR`` names another source
tree of hhtool (e.g. ``git archive main | tar -x -C DIR``) put first on PYTHONPATH: its runs alternate
with this tree's, so both see the same load. The CPU of a child is exact (``os.wait4``); the load is the
1-minute average when the runs started and ended.
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

ROOT = Path(__file__).resolve().parents[1]


def run_once(args: list[str], tree: Path) -> tuple[float, float]:
    """(cpu, wall) seconds of ``python -m hhtool ARGS`` with ``tree`` first on the path."""
    env = dict(os.environ, PYTHONPATH=str(tree), COLUMNS="80")
    started = time.perf_counter()
    # run from elsewhere: `python -m` puts the working directory before PYTHONPATH
    process = subprocess.Popen([sys.executable, "-m", "hhtool", *args], env=env, cwd=tempfile.gettempdir(),
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in (0, 1):
        raise SystemExit(f"hhtool {' '.join(args)} exited {process.returncode} (tree {tree})")
    return usage.ru_utime + usage.ru_stime, wall


def compare(commands: dict[str, list[str]], trees: dict[str, Path], runs: int) -> None:
    """Print, per command, the median CPU and wall seconds of ``runs`` runs in each source tree, the
    trees' runs interleaved so that they see the same load."""
    width = max(map(len, commands)) + 2
    print(f"load {os.getloadavg()[0]:.2f} at start; median of {runs} runs, seconds")
    print(f"{'command':<{width}}" + "".join(f"{name + ' cpu':>11}{name + ' wall':>11}" for name in trees))
    for label, args in commands.items():
        samples: dict[str, list[tuple[float, float]]] = {name: [] for name in trees}
        for _ in range(runs):
            for name, tree in trees.items():
                samples[name].append(run_once(args, tree))
        print(f"{label:<{width}}" + "".join(f"{statistics.median(c for c, _ in samples[name]):>11.3f}"
                                            f"{statistics.median(w for _, w in samples[name]):>11.3f}" for name in trees),
              flush=True)
    print(f"load {os.getloadavg()[0]:.2f} at end")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=lambda text: str(Path(text).resolve()), required=True,
                        help="a small store (e.g. sample_histories/ imported)")
    parser.add_argument("--hand-id", required=True, help="a hand of that store, for `show`")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--base", type=Path, help="another hhtool source tree to compare with")
    options = parser.parse_args()
    commands = {
        "--help": ["--help"],
        "stats --help": ["stats", "--help"],
        "show --help": ["show", "--help"],
        "import --help": ["import", "--help"],
        "show ID": ["show", options.hand_id, "--db", options.db],
        "stats (small store)": ["stats", "--db", options.db],
    }
    trees = {"this": ROOT} | ({"base": options.base.resolve()} if options.base else {})
    compare(commands, trees, options.runs)

if __name__ == "__main__":
    main()
