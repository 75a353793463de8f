"""CPU time of `hhtool equity`'s engine on the two spots of issue #36 (one core, start-up excluded).

Usage: .venv/bin/python benchmarks/bench_equity.py [--repeats 7] [--baseline]

* exact heads-up on 5th street: two unseen cards each, six dead cards (353,430 deals), target <= 1 s;
* a 3-way 3rd-street spot sampled to +-0.5 % at 95 % (the default 40,000 samples), target <= 1 s.

Each figure is the median CPU time (time.process_time) of ``deal_values`` + ``spot_equity`` over
``--repeats`` runs in this process; the tables are built first and timed apart ("tables, once per
process"). ``--baseline`` also times the same exact count done the plain way, one Python call of
hhtool.evaluation per seven cards (once: it takes a while), as the "before" figure.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from functools import partial
from itertools import combinations
from typing import TypeVar

from hhtool.equity.deals import deal_values
from hhtool.equity.fast_eval import _tables
from hhtool.equity.spot import SpotEquity, spot_equity
from hhtool.evaluation import cards, high_value, low_value
from hhtool.model import Card

HEADS_UP_5TH = ([cards("As 2s 3h 5d 9c"), cards("Kd Kc 9s 9h 4c")], cards("7c 8d Qh 2c 3c 4d"))
THREE_WAY_3RD = ([cards("As 2s 3h"), cards("Kd Kc 9s"), cards("7h 8h 6d")], cards("7c 8d Qh Jd Ts"))
SAMPLES = 40_000
T = TypeVar("T")


def cpu(action: Callable[[], T]) -> tuple[float, T]:
    start = time.process_time()
    result = action()
    return time.process_time() - start, result


def sampled_spot(seed: int) -> SpotEquity:
    return spot_equity(deal_values(*THREE_WAY_3RD, samples=SAMPLES, seed=seed))


def baseline(known: list[tuple[Card, ...]], dead: tuple[Card, ...]) -> tuple[float, list[float]]:
    """The plain way: every deal enumerated and judged with one evaluation call per hand."""
    start = time.process_time()
    used = {card for hand in known for card in hand} | set(dead)
    deck = [card for card in cards(" ".join(r + s for r in "23456789TJQKA" for s in "cdhs")) if card not in used]
    shares = [0.0, 0.0]
    deals = 0
    for first in combinations(deck, 2):
        rest = [card for card in deck if card not in first]
        hand_a = (*known[0], *first)
        high_a, low_a = high_value(hand_a), low_value(hand_a) or 0
        for second in combinations(rest, 2):
            hand_b = (*known[1], *second)
            high_b, low_b = high_value(hand_b), low_value(hand_b) or 0
            high = (1.0, 0.0) if high_a > high_b else (0.0, 1.0) if high_b > high_a else (0.5, 0.5)
            if low_a or low_b:
                low = (1.0, 0.0) if low_a > low_b else (0.0, 1.0) if low_b > low_a else (0.5, 0.5)
                shares[0] += (high[0] + low[0]) / 2
                shares[1] += (high[1] + low[1]) / 2
            else:
                shares[0] += high[0]
                shares[1] += high[1]
            deals += 1
    return time.process_time() - start, [share / deals for share in shares]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--baseline", action="store_true", help="also time the one-call-per-hand count (slow)")
    options = parser.parse_args()

    tables, _ = cpu(_tables)
    print(f"tables, once per process: {tables:.3f} s CPU")

    heads_up = [cpu(lambda: spot_equity(deal_values(*HEADS_UP_5TH))) for _ in range(options.repeats)]
    result = heads_up[-1][1]
    print(f"exact heads-up 5th street ({result.deals:,} deals): median {statistics.median(t for t, _ in heads_up):.3f} s "
          f"CPU over {options.repeats} runs (min {min(t for t, _ in heads_up):.3f}); "
          f"equity {result.players[0].equity:.4f} / {result.players[1].equity:.4f}")

    sampled = [cpu(partial(sampled_spot, run)) for run in range(options.repeats)]
    margins = [result.margin_95 or 0.0 for _, result in sampled]
    print(f"3-way 3rd street sampled ({SAMPLES:,} samples): median {statistics.median(t for t, _ in sampled):.3f} s "
          f"CPU over {options.repeats} runs (min {min(t for t, _ in sampled):.3f}); 95 % margin "
          f"{100 * max(margins):.2f} % at most")

    if options.baseline:
        seconds, equity = baseline(*HEADS_UP_5TH)
        print(f"before: the same exact count, one hhtool.evaluation call per hand: {seconds:.2f} s CPU "
              f"(equity {equity[0]:.4f} / {equity[1]:.4f})")


if __name__ == "__main__":
    main()
