"""CPU µs per hand of the replay step as an import runs it, two source trees A/B interleaved.

    .venv/bin/hhtool simulate --hands 10000 --seed 1 --out /tmp/sim10k.txt
    .venv/bin/python benchmarks/bench_engine.py parse /tmp/sim10k.txt /tmp/sim10k.pickle
    git archive main | tar -x -C /tmp/main-tree
    .venv/bin/python benchmarks/ab_replay.py /tmp/main-tree . /tmp/sim10k.pickle [--rounds 5]

Each run is a fresh process (``PYTHONPATH`` = the tree) that loads the parsed hands, takes the
import's collector settings (the heap frozen, :data:`~hhtool.ingest.executors.IMPORT_GC_THRESHOLDS`)
and replays every hand once, as :mod:`hhtool.ingest.chunks` does (``rule_choice.make_replayer``:
the site's profile, the unsettled readings tried for a hand with violations): fresh hands, so the
evaluator's and the checks' per-process tables fill as they do in an import's worker. The replay
loop's CPU time (``time.process_time``) is taken inside the process; the whole process's CPU
(:func:`cputime.run_measured`: start-up and loading included) is printed beside it. A and B
alternate (A B, then B A, ...) so that a change of the machine's load falls on both; the median
of the rounds is printed. Both trees must hold the same :mod:`hhtool.model` (the pickles name its classes).
"""

from __future__ import annotations

import argparse
import gc
import os
import pickle
import statistics
import sys
import tempfile
import time
from pathlib import Path


def worker(source: Path, out: Path) -> None:
    """Replay every hand of ``source`` once; write the loop's CPU µs per hand to ``out``."""
    from hhtool.ingest.executors import IMPORT_GC_THRESHOLDS
    from hhtool.ingest.rule_choice import make_replayer

    hands = pickle.loads(source.read_bytes())
    replayer = make_replayer(None)
    gc.freeze()
    gc.set_threshold(*IMPORT_GC_THRESHOLDS)
    started = time.process_time()
    for hand in hands:
        replayer(hand)
    out.write_text(f"{(time.process_time() - started) / len(hands) * 1e6:.2f}")


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "worker":
        worker(Path(sys.argv[2]), Path(sys.argv[3]))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", type=Path, help="source tree A (e.g. an export of main)")
    parser.add_argument("b", type=Path, help="source tree B (e.g. this branch)")
    parser.add_argument("hands", type=Path, nargs="+", help="pickled parsed hands (bench_engine.py parse)")
    parser.add_argument("--rounds", type=int, default=5)
    options = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from cputime import run_measured

    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "us"
        for source in options.hands:
            loop: dict[str, list[float]] = {"A": [], "B": []}
            whole: dict[str, list[float]] = {"A": [], "B": []}
            for number in range(options.rounds):
                sides = ("A", "B") if number % 2 == 0 else ("B", "A")
                for side in sides:
                    tree = (options.a if side == "A" else options.b).resolve()
                    os.environ["PYTHONPATH"] = str(tree)
                    measured = run_measured([sys.executable, str(Path(__file__).resolve()), "worker", str(source), str(out)])
                    loop[side].append(float(out.read_text()))
                    whole[side].append(measured.cpu)
            a, b = statistics.median(loop["A"]), statistics.median(loop["B"])
            print(f"{source.name}: replay CPU µs per hand, median of {options.rounds}: A {a:.1f} → B {b:.1f} "
                  f"({a / b:.2f}× less)  [A {', '.join(f'{x:.0f}' for x in loop['A'])}; "
                  f"B {', '.join(f'{x:.0f}' for x in loop['B'])}]  whole process CPU s: "
                  f"A {statistics.median(whole['A']):.2f}, B {statistics.median(whole['B']):.2f}; "
                  f"load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
