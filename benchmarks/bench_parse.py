"""CPU µs per hand of the parse step of an import's workers: split a block into hands, then each
hand's line grammar, site module and HandBuilder (``SiteParser.parse``), under the import's collector
settings (:func:`hhtool.ingest.executors.import_gc`), a block of 2,000 hands alive at a time as in a worker.

    python benchmarks/bench_parse.py bench_data/sim-10000.txt [--real] [--repeats 5] [--profile]
    python benchmarks/bench_parse.py bench_data/sim-10000.txt --real --against /tmp/base [--rounds 5]

Each file's site is detected as the importer does; ``--real`` adds the corpus's real PokerStars
Stud Hi/Lo hands replicated to 10,000 (``benchmarks/real_hands.py``). Every run parses every hand
afresh; the median of ``--repeats`` runs is reported with the spread, the build (pure Python or
compiled) and the load. ``--profile`` runs once more under cProfile and prints the top functions.

``--against CHECKOUT`` compares this checkout's parse step with another's (e.g. the branch's base,
``git archive BASE | tar -x -C /tmp/base``), A/B interleaved: each round runs one fresh process per
side (the other checkout first on PYTHONPATH), the sides' order alternating from round to round, each
process warming up once and then measuring one parse of every input; the median of the rounds is
reported per side, with the ratio.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import os
import pstats
import statistics
import subprocess
import sys
import time
from itertools import pairwise
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
#: hands per block: what an import hands a worker at a time (hhtool.ingest.files.BATCH_HANDS)
BLOCK_HANDS = 2_000


def blocks_of(path: Path) -> tuple[object, list[tuple[str, ...]]]:
    """(the file's site parser, its lines cut into runs of BLOCK_HANDS hands at hand starts)."""
    from hhtool.ingest.reader import read_file
    from hhtool.sites import detect

    lines = read_file(path).lines
    parser = detect(lines)
    if parser is None:
        raise SystemExit(f"{path}: no site recognises it")
    starts = parser.hand_starts(lines) if parser.splits_at_hand_starts else [0]
    cuts = [0, *starts[BLOCK_HANDS::BLOCK_HANDS], len(lines)]
    return parser, [tuple(lines[a:b]) for a, b in pairwise(cuts) if b > a]


def parse_all(parser: object, blocks: list[tuple[str, ...]], file: str) -> tuple[int, int]:
    """Split and parse every block, the previous block's outcomes alive until the next is done;
    (hands parsed into a Hand, other outcomes)."""
    from hhtool.model import Hand

    good = other = 0
    alive: list[object] = []
    offset = 0
    for lines in blocks:
        raws = list(parser.split(lines, file, offset))  # type: ignore[attr-defined]
        prepare = getattr(parser, "prepare", None)  # a line site reads the chunk's lines at once (absent before #37)
        if prepare is not None:
            prepare(raws)
        outcomes = [parser.parse(raw) for raw in raws]  # type: ignore[attr-defined]
        offset += len(lines)
        alive = outcomes
        for outcome in alive:
            if isinstance(outcome, Hand):
                good += 1
            else:
                other += 1
    return good, other


def measure(inputs: list[tuple[str, object, list[tuple[str, ...]]]]) -> tuple[float, int]:
    """(CPU seconds, hands) of one fresh parse of every input under the import's collector settings."""
    from hhtool.ingest.executors import import_gc

    gc.collect()
    hands = 0
    with import_gc():
        started = time.process_time()
        for file, parser, blocks in inputs:
            good, other = parse_all(parser, blocks, file)
            hands += good + other
        spent = time.process_time() - started
    return spent, hands


def main() -> int:
    cli = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    cli.add_argument("paths", type=Path, nargs="*", help="hand-history files (each measured on its own)")
    cli.add_argument("--real", action="store_true", help="also the real PokerStars hands replicated to 10,000")
    cli.add_argument("--repeats", type=int, default=5)
    cli.add_argument("--profile", action="store_true", help="one more run under cProfile: the top functions")
    cli.add_argument("--top", type=int, default=30, help="functions the profile shows")
    cli.add_argument("--against", type=Path, help="another checkout: A/B interleaved, before (it) → after (this one)")
    cli.add_argument("--rounds", type=int, default=5, help="A/B rounds (with --against)")
    cli.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # one process of an A/B round
    args = cli.parse_args()

    import hhtool

    paths = list(args.paths)
    if args.real:
        sys.path.insert(0, str(REPO / "benchmarks"))
        from real_hands import replicated

        paths.append(replicated(10_000, REPO / "bench_data"))
    if not paths:
        cli.error("give a file or --real")
    if args.json:
        print(json.dumps({str(path): one_run(path) for path in paths}))
        return 0
    if args.against is not None:
        return compare(paths, args.against.resolve(), args.rounds)
    build = getattr(hhtool, "build", lambda: "pure Python")()  # (hhtool.build went with the mypyc build, #27)
    print(f"hhtool {build} build, Python {sys.version.split()[0]}, load {os.getloadavg()[0]:.1f}")
    print("| input | hands | CPU µs per hand, median | min–max | runs |\n|---|---|---|---|---|")
    for path in paths:
        parser, blocks = blocks_of(path)
        one = [(str(path), parser, blocks)]
        measure(one)  # warm: the grammar compiled, the parser's caches filled, as in a worker after its first chunk
        runs = [measure(one) for _ in range(args.repeats)]
        per_hand = [spent / hands * 1e6 for spent, hands in runs]
        print(f"| {path.name} ({parser.name}) | {runs[0][1]:,} | {statistics.median(per_hand):,.0f} | "  # type: ignore[attr-defined]
              f"{min(per_hand):,.0f}–{max(per_hand):,.0f} | {len(runs)} |", flush=True)
        if args.profile:
            profile = cProfile.Profile()
            profile.enable()
            measure(one)
            profile.disable()
            pstats.Stats(profile).sort_stats("tottime").print_stats(args.top)
    print(f"load at the end {os.getloadavg()[0]:.1f}")
    return 0


def one_run(path: Path) -> float:
    """CPU µs per hand of one parse of ``path``'s hands, after one warm-up parse."""
    parser, blocks = blocks_of(path)
    one = [(str(path), parser, blocks)]
    measure(one)
    spent, hands = measure(one)
    return spent / hands * 1e6


def compare(paths: list[Path], other: Path, rounds: int) -> int:
    """Before (``other``'s code) → after (this checkout's), A/B interleaved; prints a table."""
    sides = {"before": other, "after": REPO}
    runs: dict[str, dict[str, list[float]]] = {side: {str(path): [] for path in paths} for side in sides}
    print(f"A/B, {rounds} rounds: before = {other}, after = {REPO}; Python {sys.version.split()[0]}, "
          f"load {os.getloadavg()[0]:.1f}")
    for round_no in range(rounds):
        order = list(sides) if round_no % 2 == 0 else list(reversed(sides))
        for side in order:
            env = {**os.environ, "PYTHONPATH": str(sides[side])}
            out = subprocess.run([sys.executable, str(Path(__file__).resolve()), *map(str, paths), "--json"],
                                 env=env, check=True, capture_output=True, text=True, cwd=sides[side]).stdout
            for path, per_hand in json.loads(out.strip().splitlines()[-1]).items():
                runs[side][path].append(per_hand)
    print("| input | before µs/hand (median, min–max) | after µs/hand (median, min–max) | after / before |\n|---|---|---|---|")
    for path in map(str, paths):
        before, after = runs["before"][path], runs["after"][path]
        print(f"| {Path(path).name} | {statistics.median(before):,.0f} ({min(before):,.0f}–{max(before):,.0f}) | "
              f"{statistics.median(after):,.0f} ({min(after):,.0f}–{max(after):,.0f}) | "
              f"{statistics.median(after) / statistics.median(before):.2f} |")
    print(f"load at the end {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
