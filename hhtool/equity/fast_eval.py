"""Hand values for many seven-card hands at once, as numpy arrays.

The values are :mod:`hhtool.evaluation`'s own (``high_value``; ``low_value`` with 0 for no
qualifying low): the tables below are filled by calling it once per rank pattern, so the one
definition of hand values stays there and this module only looks them up, many hands per call.

A hand is a row of seven card indices, ``(rank - 2) * 4 + suit`` with suits c, d, h, s = 0..3.

* Non-flush high: the sorted ranks r0 <= ... <= r6 of a hand are a multiset, numbered by the
  combinatorial number system (``sum C(r_i + i, i + 1)``, below C(19, 7) = 50,388): one table entry
  per multiset, filled from a hand of those ranks whose suits make no flush.
* Flush: at most one suit holds five of seven cards, and then no quads or full house is possible,
  so the flush suit's rank bitmask (8,192 entries) decides the value alone.
* Low: the bitmask of distinct ranks ace..eight (256 entries).

The tables are built at first use (about half a second) and kept in memory.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement
from math import comb
from typing import TYPE_CHECKING

from hhtool.evaluation import high_value, low_value
from hhtool.model import SUIT_CHARS, Card

if TYPE_CHECKING:
    import numpy

__all__ = ["CARD_COUNT", "card_index", "card_of", "hand_values"]

CARD_COUNT = 52
RANKS = 13
HAND_SIZE = 7


def card_index(card: Card) -> int:
    """The card's index 0..51: ``(rank - 2) * 4 + suit`` (c, d, h, s = 0..3)."""
    return (card.rank - 2) * 4 + SUIT_CHARS.index(card.suit)


def card_of(index: int) -> Card:
    return Card(index // 4 + 2, SUIT_CHARS[index % 4])


@cache
def _tables() -> tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray, numpy.ndarray, numpy.ndarray]:
    """(multiset-number weights (7, 19), non-flush values, flush values, low-bit per card, low values)."""
    import numpy as np

    weights = np.array([[comb(value, position + 1) for value in range(RANKS + HAND_SIZE - 1)]
                        for position in range(HAND_SIZE)], dtype=np.int64)
    deck = [card_of(index) for index in range(CARD_COUNT)]
    # sorted rank multisets with at most four of a rank; suits in turn over the sorted cards, so a
    # rank's cards get different suits and no suit gets five
    patterns = [ranks for ranks in combinations_with_replacement(range(RANKS), HAND_SIZE)
                if ranks[0] != ranks[4] and ranks[1] != ranks[5] and ranks[2] != ranks[6]]
    pattern_values = [high_value([deck[rank * 4 + position % 4] for position, rank in enumerate(ranks)])
                      for ranks in patterns]
    sorted_ranks = np.array(patterns, dtype=np.int64)
    numbers = sum(weights[position, sorted_ranks[:, position] + position] for position in range(HAND_SIZE))
    non_flush = np.zeros(comb(RANKS + HAND_SIZE - 1, HAND_SIZE), dtype=np.int64)
    non_flush[numbers] = pattern_values
    flush = np.zeros(1 << RANKS, dtype=np.int64)
    for mask in range(1 << RANKS):
        if 5 <= mask.bit_count() <= HAND_SIZE:  # a flush suit holds five to seven of the cards
            flush[mask] = high_value([deck[rank * 4 + 3] for rank in range(RANKS) if mask >> rank & 1])
    low_bit = np.array([0 if index // 4 + 2 not in (2, 3, 4, 5, 6, 7, 8, 14) else
                        1 << (0 if index // 4 + 2 == 14 else index // 4 + 2 - 1) for index in range(CARD_COUNT)],
                       dtype=np.int64)
    low = np.zeros(256, dtype=np.int64)
    for mask in range(256):
        ranks_present = [rank for rank in range(8) if mask >> rank & 1]
        if len(ranks_present) >= 5:
            # bit 0 is the ace, bit k the rank k + 1; any five ranks give the same best low as the mask
            hand = [Card(14 if rank == 0 else rank + 1, SUIT_CHARS[position % 4])
                    for position, rank in enumerate(ranks_present[:7])]
            low[mask] = low_value(hand) or 0
    return weights, non_flush, flush, low_bit, low


#: hands judged per step: bounds the temporary arrays (about 60 bytes a hand each)
CHUNK = 1 << 18


def hand_values(hands: numpy.ndarray) -> tuple[numpy.ndarray, numpy.ndarray]:
    """(high, low) int64 values of each row of ``hands`` (shape (..., 7), card indices): the values
    of :func:`hhtool.evaluation.high_value` and ``low_value`` (0 where no low qualifies)."""
    import numpy as np

    shape = hands.shape[:-1]
    rows = hands.reshape(-1, HAND_SIZE)
    high = np.empty(len(rows), dtype=np.int64)
    low = np.empty(len(rows), dtype=np.int64)
    for start in range(0, len(rows), CHUNK):
        high[start : start + CHUNK], low[start : start + CHUNK] = _chunk_values(rows[start : start + CHUNK])
    return high.reshape(shape), low.reshape(shape)


def _chunk_values(hands: numpy.ndarray) -> tuple[numpy.ndarray, numpy.ndarray]:
    import numpy as np

    weights, non_flush, flush, low_bit, low = _tables()
    rows = hands.astype(np.int64)
    ranks = np.sort(rows >> 2, axis=1)
    number = weights[0, ranks[:, 0]]
    for position in range(1, HAND_SIZE):
        number += weights[position, ranks[:, position] + position]
    high = non_flush[number]
    suits = rows & 3
    suit_counts = np.stack([(suits == suit).sum(axis=1) for suit in range(4)], axis=1)
    flush_suit = suit_counts.argmax(axis=1)
    flushed = np.flatnonzero(suit_counts[np.arange(len(rows)), flush_suit] >= 5)
    if len(flushed):
        chosen = rows[flushed]
        in_suit = (chosen & 3) == flush_suit[flushed, None]
        mask = (np.left_shift(1, chosen >> 2) * in_suit).sum(axis=1)
        high[flushed] = flush[mask]
    low_mask = np.bitwise_or.reduce(low_bit[rows], axis=1)
    return high, low[low_mask]
