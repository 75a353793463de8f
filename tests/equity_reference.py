"""A slow reference for the equity engine's ``deal_values`` (hhtool.equity.deals), for the all-in EV
tests: every completion enumerated with itertools (or a seeded sample of them) and scored with
hhtool.evaluation, "no low" as 0 and larger better. It keeps the same contract, so that the tests
check the EV against an engine written independently of the real one."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb, prod

import numpy as np

from hhtool.evaluation import high_value, low_value
from hhtool.model import Card

DECK = tuple(Card(rank, suit) for rank in range(2, 15) for suit in "cdhs")


@dataclass(frozen=True)
class ReferenceDeals:
    high: np.ndarray
    low: np.ndarray
    exact: bool
    deals: int
    hands: list[list[tuple[Card, ...]]]

    def cards_of(self, rows: Sequence[int]) -> list[list[tuple[Card, ...]]]:
        return [self.hands[row] for row in rows]


def _completions(needs: Sequence[int], unseen: Sequence[Card]) -> Iterator[list[tuple[Card, ...]]]:
    if not needs:
        yield []
        return
    for drawn in combinations(unseen, needs[0]):
        rest = [c for c in unseen if c not in drawn]
        for later in _completions(needs[1:], rest):
            yield [drawn, *later]


def reference_deal_values(known: Sequence[Sequence[Card]], dead: Sequence[Card] = (), *, exact: bool | None = None,
                          samples: int = 2_000, seed: int = 0, budget: int = 50_000) -> ReferenceDeals:
    seen = {*(c for cards in known for c in cards), *dead}
    if len(seen) != sum(map(len, known)) + len(dead):
        raise ValueError("a card is given twice")
    unseen = [c for c in DECK if c not in seen]
    needs = [7 - len(cards) for cards in known]
    if sum(needs) > len(unseen):
        raise ValueError("more cards needed than the deck holds")
    count = prod(comb(len(unseen) - sum(needs[:i]), need) for i, need in enumerate(needs))
    if exact is None:
        exact = count <= budget
    hands: list[list[tuple[Card, ...]]] = []
    if exact:
        for drawn in _completions(needs, unseen):
            hands.append([(*cards, *more) for cards, more in zip(known, drawn, strict=True)])
    else:
        generator = random.Random(seed)
        for _ in range(samples):
            order = generator.sample(unseen, sum(needs))
            row, start = [], 0
            for cards, need in zip(known, needs, strict=True):
                row.append((*cards, *order[start:start + need]))
                start += need
            hands.append(row)
    high = np.array([[high_value(h) for h in row] for row in hands], dtype=np.int64)
    low = np.array([[low_value(h) or 0 for h in row] for row in hands], dtype=np.int64)
    return ReferenceDeals(high, low, exact, len(hands), hands)
