"""Throughput of hhtool.replay.replay: every Stud Hi/Lo hand of ../shared/corpus under its site's
profile, and random PokerKit hands (the differential test's generator) under ``pokerkit``.

Usage: /work/venv/bin/python benchmarks/bench_replay.py [--repeats 5] [--pokerkit 1000]

Parsing and PokerKit play are done before timing; only replay() is timed. Prints hands per second,
the median of the repeated passes.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import warnings
from pathlib import Path

from hhtool.model import Hand
from hhtool.reader import read_file
from hhtool.replay import PROFILES, profile_for_site, replay
from hhtool.sites import all_parsers

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus"


def corpus_hands() -> list[Hand]:
    hands: list[Hand] = []
    for parser in all_parsers():
        for path in sorted(CORPUS.rglob("*")):
            if not path.is_file() or path.suffix in (".hp", ".json", ".md"):
                continue
            decoded = read_file(path)
            if not parser.sniff([line for line in decoded.lines[:400] if line.strip()][:40]):
                continue
            for raw in parser.split(decoded.lines, str(path)):
                outcome = parser.parse(raw)
                if isinstance(outcome, Hand):
                    hands.append(outcome)
    return hands


def pokerkit_hands(count: int) -> list[Hand]:
    sys.path.insert(0, str(REPO))
    from tests.test_replay_pokerkit import play, to_hand

    rng = random.Random(7)
    warnings.simplefilter("ignore")
    return [to_hand(*play(rng), str(number)) for number in range(count)]


def rate(hands: list[Hand], repeats: int, profile_of: object) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for hand in hands:
            replay(hand, profile_of(hand))  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return len(hands) / statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--pokerkit", type=int, default=1000)
    options = parser.parse_args()
    if CORPUS.is_dir():
        hands = corpus_hands()
        per_second = rate(hands, options.repeats, lambda hand: profile_for_site(hand.site))
        print(f"corpus: {len(hands)} hands, {per_second:,.0f} hands/s")
    if options.pokerkit:
        hands = pokerkit_hands(options.pokerkit)
        per_second = rate(hands, options.repeats, lambda hand: PROFILES["pokerkit"])
        print(f"pokerkit random: {len(hands)} hands, {per_second:,.0f} hands/s")


if __name__ == "__main__":
    main()
