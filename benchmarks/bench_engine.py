"""Replay time per hand on simulated hands, parsed once, on any Python >= 3.11.

Usage:
    .venv/bin/hhtool simulate --hands 10000 --seed 1 --out /tmp/sim10k.txt
    .venv/bin/python benchmarks/bench_engine.py parse /tmp/sim10k.txt /tmp/sim10k.pickle
    PYTHONPATH=. python3.X benchmarks/bench_engine.py time /tmp/sim10k.pickle [--repeats 5]

``parse`` needs the project's dependencies (lark); ``time`` needs only the standard library (the
model and the replay package import nothing else), so the same parsed hands can be timed under
every interpreter pyenv holds. Prints the median over ``--repeats`` passes of CPU time
(``time.process_time``: the machine is shared) per hand, for ``walk()`` alone and for ``replay()``.
"""

from __future__ import annotations

import pickle
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path


def parse(source: Path, target: Path) -> None:
    from hhtool.ingest.reader import read_file
    from hhtool.model import Hand
    from hhtool.sites import detect

    decoded = read_file(source)
    parser = detect([line for line in decoded.lines[:400] if line.strip()][:40])
    if parser is None:
        raise SystemExit(f"{source}: no site parser recognises this file")
    hands = [hand for raw in parser.split(decoded.lines, str(source)) if isinstance(hand := parser.parse(raw), Hand)]
    target.write_bytes(pickle.dumps(hands))
    print(f"{len(hands)} hands -> {target}")


def median_us(run: Callable[[], None], count: int, repeats: int) -> tuple[float, list[float]]:
    passes = []
    for _ in range(repeats):
        start = time.process_time()
        run()
        passes.append((time.process_time() - start) / count * 1e6)
    return statistics.median(passes), passes


def time_replay(source: Path, repeats: int) -> None:
    from hhtool.replay import profile_for_site, replay
    from hhtool.replay.engine import walk

    hands = pickle.loads(source.read_bytes())
    pairs = [(hand, profile_for_site(hand.site)) for hand in hands]
    print(f"Python {sys.version.split()[0]}, {len(pairs)} hands, median of {repeats}")
    for label, function in (("walk", walk), ("replay", replay)):
        def run(function: Callable[..., object] = function) -> None:
            for hand, profile in pairs:
                function(hand, profile)

        middle, passes = median_us(run, len(pairs), repeats)
        print(f"  {label}: {middle:.1f} us/hand  (passes: {', '.join(f'{p:.1f}' for p in passes)})")


def main() -> None:
    args = sys.argv[1:]
    if len(args) == 3 and args[0] == "parse":
        parse(Path(args[1]), Path(args[2]))
    elif len(args) in (2, 4) and args[0] == "time":
        repeats = int(args[3]) if len(args) == 4 and args[2] == "--repeats" else 5
        time_replay(Path(args[1]), repeats)
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
