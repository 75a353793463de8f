"""Kill campaign: SIGKILL an import at random points, again and again, then re-run it once and
compare every table with an uninterrupted import. Prints one line per kill and the totals (for the
figures an issue's closing note asks for: kills survived, hands lost).

    .venv/bin/python benchmarks/kill_run.py --kills 20 --hands 3000 --seed 1

Uses the test suite's history (a failed hand, a repeat, an edited copy, a stray line and a
truncated last hand among numbered hands) and its every-table comparison.
"""

from __future__ import annotations

import argparse
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.test_reliability import (
    HHTOOL_SMALL_WRITES,
    history_with_every_outcome,
    run_hhtool,
    tables_of,
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as folder:
        history = Path(folder) / "big.txt"
        history.write_text(history_with_every_outcome(args.hands))
        reference = str(Path(folder) / "reference.duckdb")
        run_hhtool("import", str(history), "--db", reference, timeout=1800)
        want = tables_of(reference)
        db = str(Path(folder) / "killed.duckdb")
        killed = 0
        for number in range(1, args.kills + 1):
            process = subprocess.Popen([*HHTOOL_SMALL_WRITES, "import", "-j", "1", str(history), "--db", db],
                                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            assert process.stdout is not None
            for _ in range(rng.randint(0, 8)):  # after some transactions (0: before the first)
                process.stdout.readline()
            time.sleep(rng.uniform(0, 0.2))
            finished = process.poll() is not None
            process.send_signal(signal.SIGKILL)
            process.wait()
            killed += not finished
            stored = len(tables_of(db)["hands"]) if Path(db).exists() else 0
            print(f"kill {number}: {'finished before the kill' if finished else 'killed'}, {stored} hands stored",
                  flush=True)
        run_hhtool("import", str(history), "--db", db, timeout=1800)
        got = tables_of(db)
        differing = [name for name in want if got.get(name) != want[name]]
        lost = len(want["hands"]) - len(got["hands"])
        print(f"{killed} kills of {args.kills} landed during an import; after one re-run: "
              f"{len(got['hands'])} hands for {len(want['hands'])} ({lost} lost); "
              f"tables differing from an uninterrupted import: {differing or 'none'}")
        return 1 if differing else 0


if __name__ == "__main__":
    raise SystemExit(main())
