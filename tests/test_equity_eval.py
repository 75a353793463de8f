"""The fast evaluator gives hhtool.evaluation's own values: on every 7-card class of both halves,
their edge cases, and many random hands (equal values, hence the same order and the same ties)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from hhtool.equity.fast_eval import card_index, card_of, hand_values
from hhtool.evaluation import CATEGORIES, cards, high_value, low_value
from hhtool.model import Card

ALL_CARDS = [card_of(index) for index in range(52)]

#: one or more seven-card hands per high class, and the low edge cases
CLASSES = {
    "high card": ["As Kd 9h 7c 5s 3d 2h", "Kc Qd 9s 7h 5c 4d 3s"],
    "one pair": ["As Ad 9h 7c 5s 3d Kh", "2c 2d 4h 6s 8c Td Qh"],
    "two pair": ["As Ad 9h 9c 5s 5d Kh", "Kc Kd Qh Qs 2c 2d 3h"],
    "three of a kind": ["7s 7d 7h Ac 5s 3d Kh", "2c 2d 2h 9s Tc Qd Ah"],
    "straight": ["As 2d 3h 4c 5s Kd Kh", "Ts Jd Qh Kc As 2d 2h", "5s 6d 7h 8c 9s Td Jh", "As 2d 3h 4c 5s 6d Kh"],
    "flush": ["As Ks 9s 7s 5s 3d 2h", "2h 4h 6h 8h Th Qh Ah", "3c 5c 7c 9c Jc Jd Jh"],
    "full house": ["7s 7d 7h Ac As 3d Kh", "7s 7d 7h Ac As Ad Kh", "2s 2d 2h 3c 3s 4d 4h"],
    "four of a kind": ["7s 7d 7h 7c As 3d Kh", "7s 7d 7h 7c As Ad Ah", "2s 2d 2h 2c 3s 3d 3h"],
    "straight flush": ["As 2s 3s 4s 5s Kd Kh", "Ts Js Qs Ks As 2d 2h", "5h 6h 7h 8h 9h Th Jh"],
}
LOWS = {
    "wheel": "As 2d 3h 4c 5s Kd Kh",
    "six-four": "As 2d 3h 4c 6s 6d Kh",
    "worst qualifier": "8s 7d 6h 5c 4s Kd Kh",
    "pair counts once": "As Ad 2h 3c 4s 8d 8h",
    "a nine does not qualify": "9s 7d 6h 5c 4s Kd Kh",
    "four low ranks only": "As Ad 2h 3c 4s 4d Kh",
    "no low card": "9s Td Jh Qc Ks 9d Th",
    "seven distinct lows": "As 2d 3h 4c 5s 6d 7h",
}


def values_of(hands: list[tuple[Card, ...]]) -> tuple[list[int], list[int]]:
    high, low = hand_values(np.array([[card_index(card) for card in hand] for hand in hands], dtype=np.int8))
    return [int(value) for value in high], [int(value) for value in low]


def expected(hand: tuple[Card, ...]) -> tuple[int, int]:
    return high_value(hand), low_value(hand) or 0


def test_card_index_round_trips() -> None:
    assert [card_index(card) for card in ALL_CARDS] == list(range(52))
    assert card_of(0) == Card(2, "c") and card_of(51) == Card(14, "s")


@pytest.mark.parametrize("category", CATEGORIES)
def test_every_high_class(category: str) -> None:
    hands = [cards(text) for text in CLASSES[category]]
    high, low = values_of(hands)
    for hand, fast_high, fast_low in zip(hands, high, low, strict=True):
        assert fast_high >> 20 == CATEGORIES.index(category)
        assert (fast_high, fast_low) == expected(hand)


@pytest.mark.parametrize("name", LOWS)
def test_low_edge_cases(name: str) -> None:
    hand = cards(LOWS[name])
    high, low = values_of([hand])
    assert (high[0], low[0]) == expected(hand)
    assert (low[0] == 0) == (name in ("a nine does not qualify", "four low ranks only", "no low card"))


def test_lows_order_as_the_rules_say() -> None:
    # R13: 8-6-5-3-A beats 8-7-3-2-A; 7-6-4-2-A beats 7-6-5-4-3; the wheel is the best
    texts = ["As 2d 3h 4c 5s Kd Kh", "7s 6d 4h 2c As Kd Kh", "7s 6d 5h 4c 3s Kd Kh",
             "8s 6d 5h 3c As Kd Kh", "8s 7d 3h 2c As Kd Kh", "8s 7d 6h 5c 4s Kd Kh"]
    _, low = values_of([cards(text) for text in texts])
    assert low == sorted(low, reverse=True) and len(set(low)) == len(low) and low[-1] > 0


def test_random_hands_match_the_showdown_evaluator() -> None:
    generator = random.Random(36)
    hands = [tuple(generator.sample(ALL_CARDS, 7)) for _ in range(20_000)]
    # flushes are rare at random: add hands with five or more of one suit
    for _ in range(3_000):
        suit = generator.choice("cdhs")
        same = generator.sample([card for card in ALL_CARDS if card.suit == suit], generator.randint(5, 7))
        others = generator.sample([card for card in ALL_CARDS if card.suit != suit], 7 - len(same))
        hands.append(tuple(same + others))
    high, low = values_of(hands)
    assert list(zip(high, low, strict=True)) == [expected(hand) for hand in hands]
    # hence the same order, ties included, as a sort by the showdown evaluator's values
    assert sorted(range(len(hands)), key=lambda i: (high[i], i)) == sorted(
        range(len(hands)), key=lambda i: (high_value(hands[i]), i))


def test_every_rank_pattern_matches() -> None:
    # every 7-card rank multiset (suits that make no flush): the whole non-flush table checked
    from itertools import combinations_with_replacement

    hands = []
    for ranks in combinations_with_replacement(range(2, 15), 7):
        if max(ranks.count(rank) for rank in ranks) <= 4:
            hands.append(tuple(Card(rank, "cdhs"[(position + 1) % 4]) for position, rank in enumerate(ranks)))
    high, low = values_of(hands)
    assert len(hands) == 49_205
    assert list(zip(high, low, strict=True)) == [expected(hand) for hand in hands]


def test_shapes_are_kept() -> None:
    hand = [card_index(card) for card in cards("As 2d 3h 4c 5s Kd Kh")]
    high, low = hand_values(np.array([[hand, hand], [hand, hand], [hand, hand]], dtype=np.int8))
    assert high.shape == low.shape == (3, 2) and high.dtype == np.int64
