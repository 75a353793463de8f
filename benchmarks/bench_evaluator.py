"""Throughput of hhtool.evaluation on random seven-card hands (one core, pure Python).

Usage: /work/venv/bin/python benchmarks/bench_evaluator.py [--hands 50000] [--repeats 7] [--seed 1]

Prints evaluations per second, the median of repeated timed passes over the same hands. The first
pass over a fresh process also fills the lazily built high tables; it is reported separately as
"cold".
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence

from hhtool.evaluation import best_high, best_low, high_value, low_value
from hhtool.model import Card

DECK = tuple(Card(rank, suit) for rank in range(2, 15) for suit in "cdhs")


def timed_pass(function: Callable[[Sequence[Card]], object], hands: Sequence[tuple[Card, ...]]) -> float:
    start = time.perf_counter()
    for hand in hands:
        function(hand)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=50_000)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    rng = random.Random(options.seed)
    hands = [tuple(rng.sample(DECK, 7)) for _ in range(options.hands)]

    cold = timed_pass(high_value, hands)
    print(f"{len(hands)} random 7-card hands, seed {options.seed}, median of {options.repeats} passes")
    print(f"  {'high_value (cold, fills tables)':34} {len(hands) / cold:>12,.0f} evaluations/s")
    for name, function in (
        ("best_high -> HighHand", best_high),
        ("high_value -> int", high_value),
        ("best_low -> LowHand | None", best_low),
        ("low_value -> int | None", low_value),
    ):
        seconds = statistics.median(timed_pass(function, hands) for _ in range(options.repeats))
        print(f"  {name:34} {len(hands) / seconds:>12,.0f} evaluations/s")


if __name__ == "__main__":
    main()
