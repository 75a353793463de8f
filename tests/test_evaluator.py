"""Tests for hhtool.evaluation: ranking rules, wording, and cross-checks against a brute-force
reference (every five-card subset, ranked directly) and, when installed, PokerKit."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Sequence

import pytest

from hhtool.evaluation import CATEGORIES, HighHand, LowHand, best_high, best_low, cards, high_value, low_value
from hhtool.model import Card

DECK = tuple(Card(rank, suit) for rank in range(2, 15) for suit in "cdhs")


def high(text: str) -> HighHand:
    return best_high(cards(text))


def low(text: str) -> LowHand | None:
    return best_low(cards(text))


# ---------------------------------------------------------------- reference implementation


def reference_five_high(five: Sequence[Card]) -> tuple[int, tuple[int, ...]]:
    """(category index, tie-break ranks) of exactly five cards, by the textbook definitions."""
    ranks = sorted((card.rank for card in five), reverse=True)
    counts = Counter(ranks)
    by_count = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
    is_flush = len({card.suit for card in five}) == 1
    distinct = sorted(counts, reverse=True)
    straight_top = 0
    if len(distinct) == 5 and distinct[0] - distinct[4] == 4:
        straight_top = distinct[0]
    elif distinct == [14, 5, 4, 3, 2]:
        straight_top = 5  # the wheel: ace plays low
    shape = [count for _, count in by_count]
    grouped = tuple(rank for rank, _ in by_count)
    if straight_top and is_flush:
        return 8, (straight_top,)
    if shape == [4, 1]:
        return 7, grouped
    if shape == [3, 2]:
        return 6, grouped
    if is_flush:
        return 5, tuple(ranks)
    if straight_top:
        return 4, (straight_top,)
    if shape == [3, 1, 1]:
        return 3, grouped
    if shape == [2, 2, 1]:
        return 2, grouped
    if shape == [2, 1, 1, 1]:
        return 1, grouped
    return 0, tuple(ranks)


def reference_high(hand: Sequence[Card]) -> tuple[int, tuple[int, ...]]:
    return max(reference_five_high(five) for five in itertools.combinations(hand, 5))


def reference_five_low(five: Sequence[Card]) -> tuple[int, ...] | None:
    """Ace-to-five ranks highest first when the five qualify for an 8-or-better low, else None."""
    ranks = sorted((1 if card.rank == 14 else card.rank for card in five), reverse=True)
    if len(set(ranks)) != 5 or ranks[0] > 8:
        return None
    return tuple(ranks)


def reference_low(hand: Sequence[Card]) -> tuple[int, ...] | None:
    qualifying = [key for key in map(reference_five_low, itertools.combinations(hand, 5)) if key is not None]
    return min(qualifying) if qualifying else None  # lexicographically smallest from the top = best


# ---------------------------------------------------------------- hand generators


def random_hands(seed: int, count: int) -> list[tuple[Card, ...]]:
    """Uniform 5-7 card hands, plus hands from narrowed decks so rare categories occur often."""
    rng = random.Random(seed)
    hands: list[tuple[Card, ...]] = []
    for index in range(count):
        size = rng.choice((5, 6, 7, 7, 7))
        style = index % 4
        if style == 0:
            deck: Sequence[Card] = DECK
        elif style == 1:  # few ranks: pairs, trips, quads, full houses
            ranks = rng.sample(range(2, 15), rng.randint(2, 4))
            deck = [card for card in DECK if card.rank in ranks]
        elif style == 2:  # a window of ranks in two suits: straights, flushes, straight flushes
            bottom = rng.randint(1, 9)
            window = {14 if rank == 1 else rank for rank in range(bottom, bottom + 6)}
            suits = rng.sample("cdhs", 2)
            deck = [card for card in DECK if card.rank in window and card.suit in suits]
        else:  # low ranks only: many qualifying and many paired lows
            deck = [card for card in DECK if card.rank <= 9 or card.rank == 14]
        hands.append(tuple(rng.sample(deck, min(size, len(deck)))))
    return [hand for hand in hands if len(hand) >= 5]


def assert_same_order(hands: Sequence[tuple[Card, ...]], value_of: Callable, key_of: Callable) -> None:
    """The evaluator's value and the reference key induce the same order, ties included."""
    value_by_key: dict[object, int] = {}
    for hand in hands:
        key, value = key_of(hand), value_of(hand)
        assert value_by_key.setdefault(key, value) == value, f"equal reference keys, different values: {hand}"
    ordered = sorted(value_by_key.items())
    for (key_a, value_a), (key_b, value_b) in itertools.pairwise(ordered):
        assert value_a < value_b, f"{key_a} < {key_b} by the reference but values {value_a} >= {value_b}"


# ---------------------------------------------------------------- high: categories and ties


CATEGORY_EXAMPLES = [
    ("high card", "Ah Qd 9c 7s 3h 2d 4c"),
    ("one pair", "2h 2d 9c 7s 3h Kd 4c"),
    ("two pair", "2h 2d 9c 9s 3h Kd 4c"),
    ("three of a kind", "2h 2d 2c 9s 3h Kd 4c"),
    ("straight", "Ah 2d 3c 4s 5h Kd Kc"),
    ("flush", "2h 7h 9h Jh Kh Kd 4c"),
    ("full house", "2h 2d 2c 9s 9h Kd 4c"),
    ("four of a kind", "2h 2d 2c 2s 3h Kd 4c"),
    ("straight flush", "Ah 2h 3h 4h 5h Kd Kc"),
]


def test_categories_are_named_and_ordered() -> None:
    hands = [high(text) for _, text in CATEGORY_EXAMPLES]
    assert [hand.category for hand in hands] == [name for name, _ in CATEGORY_EXAMPLES] == list(CATEGORIES)
    values = [hand.value for hand in hands]
    assert values == sorted(values) and len(set(values)) == len(values)


def test_weakest_of_each_category_beats_strongest_of_the_one_below() -> None:
    pairs = [
        ("Ah Kd Qc Js 9h", "2h 2d 3c 4s 6h"),  # best high card < worst pair
        ("Ah Ad Kc Qs Jh", "2h 2d 3c 3s 4h"),
        ("Ah Ad Kc Ks Qh", "2h 2d 2c 3s 4h"),
        ("Ah Ad Ac Ks Qh", "Ah 2d 3c 4s 5h"),  # best trips < wheel
        ("Ah Kd Qc Js Th", "2h 3h 4h 5h 7h"),  # broadway < worst flush
        ("Ah Kh Qh Jh 9h", "2h 2d 2c 3s 3h"),
        ("Ah Ad Ac Ks Kh", "2h 2d 2c 2s 3h"),
        ("Ah Ad Ac As Kh", "Ah 2h 3h 4h 5h"),  # best quads < steel wheel
    ]
    for stronger_lower, weaker_upper in pairs:
        lower, upper = high(stronger_lower), high(weaker_upper)
        assert CATEGORIES.index(lower.category) + 1 == CATEGORIES.index(upper.category)
        assert lower.value < upper.value, (stronger_lower, weaker_upper)


def test_wheel_loses_to_six_high_straight_and_ace_high_straight_wins() -> None:
    wheel, six_high, broadway = high("Ah 2d 3c 4s 5h"), high("2d 3c 4s 5h 6c"), high("Tc Jd Qh Ks Ad")
    assert wheel.value < six_high.value < broadway.value
    assert wheel.ranks == (5, 4, 3, 2, 1) and [card.rank for card in wheel.cards] == [5, 4, 3, 2, 14]
    # the ace does not wrap around
    assert high("Qc Kd Ah 2s 3d").category == "high card"
    # with seven cards the six-high straight is taken over the wheel
    assert high("Ah 2d 3c 4s 5h 6c Kd").ranks == (6, 5, 4, 3, 2)


def test_flush_beats_straight_and_straight_flush_beats_quads() -> None:
    both = high("5h 6h 7d 8h 9h Jh 2c")  # 5-9 straight and a heart flush
    assert both.category == "flush" and {card.suit for card in both.cards} == {"h"}
    assert both.value > high("5h 6d 7d 8h 9c Jh 2c").value
    assert high("9h Th Jh Qh Kh Kd Kc").category == "straight flush"
    assert high("9h Th Jh Qh Kh Kd Kc").value > high("Ah Ad Ac As Kh").value


def test_kickers_decide_and_exact_ties_are_equal() -> None:
    assert high("Ah Ad Kc Qs 9h").value > high("As Ac Kd Qh 8c").value  # last kicker
    assert high("9h 9d 8c 8s Ah").value > high("9c 9s 8h 8d Kc").value  # two pair kicker
    assert high("9h 9d 8c 8s 2h").value > high("9c 9s 7h 7d Ac").value  # second pair beats kicker
    assert high("Kh Kd Kc 2s 3h").value > high("Qh Qd Qc As Kh").value
    assert high("8h 8d 8c 4s 4h").value > high("8h 8d 8c 3s 3h 2c 2d").value  # full of Fours > full of Threes
    assert high("Ah Kh 9h 7h 2h").value > high("Ad Kd 9d 6d 5d").value  # flush: fourth card
    # suits never break ties; cards beyond the best five never count
    assert high("Ah Kd Qc Js 9h 3c 2d").value == high("As Kc Qd Jh 9c 4h 2s").value
    assert high("Ah Ad Kc Qs Jh 9d 8c").value == high("As Ac Kd Qh Jc 7d 6h").value
    assert high("Ts Js Qs Ks As").value == high("Th Jh Qh Kh Ah").value


def test_best_five_cards_and_choice_independent_of_order() -> None:
    hand = cards("Kh 7d 7s Kc 7c 2h Ks")  # two sets of trips: Kings full of Sevens
    result = best_high(hand)
    assert result.describe() == "a full house, Kings full of Sevens"
    assert [str(card) for card in result.cards] == ["Ks", "Kh", "Kc", "7s", "7d"]
    rng = random.Random(7)
    for _ in range(20):
        shuffled = list(hand)
        rng.shuffle(shuffled)
        assert best_high(shuffled) == result
    flush = high("2h 7h 9h Jh Kh Ah Kd")
    assert [str(card) for card in flush.cards] == ["Ah", "Kh", "Jh", "9h", "7h"]


@pytest.mark.parametrize(
    ("text", "wording"),
    [
        ("Ah Qd 9c 7s 3h 2d 4c", "high card Ace"),
        ("Ah Ad 9c 7s 3h", "a pair of Aces"),
        ("2h 2d 9c 7s 3h", "a pair of Deuces"),
        ("9h 9d 8c 8s 3h 3d Kc", "two pair, Nines and Eights"),
        ("Kh Kd Kc 8s 3h", "three of a kind, Kings"),
        ("3h 4d 5c 6s 7h 3d", "a straight, Three to Seven"),
        ("Ah 2d 3c 4s 5h", "a straight, Ace to Five"),
        ("Th Jd Qc Ks Ah", "a straight, Ten to Ace"),
        ("Qh 7h 9h 3h 2h", "a flush, Queen high"),
        ("8h 8d 8c 4s 4h", "a full house, Eights full of Fours"),
        ("Ah Ad Ac As 4h", "four of a kind, Aces"),
        ("5h 6h 7h 8h 9h", "a straight flush, Five to Nine"),
        ("Th Jh Qh Kh Ah", "a Royal Flush"),
    ],
)
def test_describe_high(text: str, wording: str) -> None:
    assert high(text).describe() == wording


# ---------------------------------------------------------------- low


def test_low_qualification_edge_cases() -> None:
    assert low("8s 7d 6c 5h 4d") is not None  # worst qualifying low
    assert low("9s 7d 6c 5h 4d") is None  # a nine never plays
    assert low("Ah Ad 2c 2s 3h 3d 4c") is None  # pairs leave only four distinct low ranks
    assert low("Ah Ad 2c 2s 3h 3d 9c") is None
    assert low("Ks Qd Jc Th 9d 8c 7s") is None
    # exactly five distinct low ranks among seven cards, the other two paired or high
    assert low("Ah 3d 5c 7s 8h 8d 3c") == low("Ah 3d 5c 7s 8h")
    assert low("Ah 3d 5c 7s 8h Kd Qc").ranks == (8, 7, 5, 3, 1)  # type: ignore[union-attr]
    # straights and flushes are ignored: the wheel in one suit is still the best low
    best = low("Ah 2h 3h 4h 5h")
    assert best is not None and best.ranks == (5, 4, 3, 2, 1) and best.describe() == "5,4,3,2,A"


def test_low_ordering_examples_from_rules_r13() -> None:
    def value(text: str) -> int:
        result = low(text)
        assert result is not None, text
        return result.value

    assert value("8s 6d 5c 3h Ad") > value("8h 7d 3c 2s Ac")  # 8-6-5-3-A beats 8-7-3-2-A
    assert value("7s 6d 4c 2h Ad") > value("7h 6c 5d 4s 3c")  # 7-6-4-2-A beats 7-6-5-4-3
    assert value("Ah 2d 3c 4s 5h") > value("6h 4d 3c 2s Ac")  # best A-2-3-4-5
    all_lows = [low_value(five) for five in itertools.combinations([Card(rank, "s") for rank in (14, *range(2, 9))], 5)]
    assert value("Ah 2d 3c 4s 5h") == max(v for v in all_lows if v is not None)
    assert value("8h 7d 6c 5s 4h") == min(v for v in all_lows if v is not None)  # worst qualifying 8-7-6-5-4


def test_low_picks_lowest_distinct_ranks_and_ties_ignore_suits() -> None:
    result = low("7s 6d 5c 3h Ad 7c Kd")
    assert result is not None
    assert result.ranks == (7, 6, 5, 3, 1)
    assert [str(card) for card in result.cards] == ["7s", "6d", "5c", "3h", "Ad"]
    assert result.describe() == "7,6,5,3,A"
    assert low("8s 4d 3c 2h Ad 7c 6d").ranks == (6, 4, 3, 2, 1)  # type: ignore[union-attr]
    assert low("7s 6d 5c 3h Ad").value == low("7c 6h 5d 3s Ac 9s Kd").value  # type: ignore[union-attr]


# ---------------------------------------------------------------- input validation


@pytest.mark.parametrize("text", ["Ah Kd Qc Js", "Ah Kd Qc Js Th 9d 8c 7s", "Ah Ah Qc Js Th"])
def test_bad_input_raises_value_error(text: str) -> None:
    with pytest.raises(ValueError):
        best_high(cards(text))
    with pytest.raises(ValueError):
        best_low(cards(text))


def test_unknown_card_raises_value_error() -> None:
    hand: list = [*cards("Ah Kd Qc Js"), None]
    with pytest.raises(ValueError):
        best_high(hand)
    with pytest.raises(ValueError):
        best_low(hand)
    with pytest.raises(ValueError):
        best_high([*cards("Ah Kd Qc Js"), Card(1, "c")])


# ---------------------------------------------------------------- brute-force cross-checks


@pytest.mark.slow
def test_high_agrees_with_reference_on_random_hands() -> None:
    hands = random_hands(2024, 3000)
    assert_same_order(hands, high_value, reference_high)
    seen_categories = set()
    for hand in hands:
        result = best_high(hand)
        category, _ = reference_high(hand)
        assert result.category == CATEGORIES[category]
        seen_categories.add(result.category)
        # the five returned are from the hand and are worth what the value says
        assert len(result.cards) == 5 and set(result.cards) <= set(hand)
        assert reference_five_high(result.cards) == reference_high(hand)
        assert result.value == high_value(hand)
    assert seen_categories == set(CATEGORIES)


def test_low_agrees_with_reference_on_random_hands() -> None:
    hands = random_hands(99, 3000)
    qualifying = [hand for hand in hands if reference_low(hand) is not None]
    assert 300 < len(qualifying) < len(hands)
    for hand in hands:
        result, expected = best_low(hand), reference_low(hand)
        if expected is None:
            assert result is None and low_value(hand) is None
            continue
        assert result is not None and result.ranks == expected and result.value == low_value(hand)
        assert len(result.cards) == 5 and set(result.cards) <= set(hand)
        assert reference_five_low(result.cards) == expected
    # larger value = better low = smaller reference key
    assert_same_order(qualifying, lambda hand: -low_value(hand), reference_low)


def test_agrees_with_pokerkit_on_random_hands() -> None:
    """Sorted by our values, every neighbouring pair compares the same way in PokerKit (so the whole
    order, ties included, is the same)."""
    pokerkit = pytest.importorskip("pokerkit")
    hands = random_hands(5, 1500)

    def sign(first: object, second: object) -> int:
        return (first > second) - (first < second)  # type: ignore[operator]

    def notation(hand: Sequence[Card]) -> str:
        return "".join(map(str, hand))

    by_high = sorted(hands, key=high_value)
    strengths = [pokerkit.StandardHighHand.from_game(notation(hand)) for hand in by_high]
    for index in range(len(by_high) - 1):
        ours = sign(high_value(by_high[index]), high_value(by_high[index + 1]))
        assert ours == sign(strengths[index], strengths[index + 1]), by_high[index : index + 2]

    for hand in hands:
        assert (low_value(hand) is None) == (pokerkit.EightOrBetterLowHand.from_game_or_none(notation(hand)) is None), hand
    by_low = sorted((hand for hand in hands if low_value(hand) is not None), key=low_value)
    strengths = [pokerkit.EightOrBetterLowHand.from_game(notation(hand)) for hand in by_low]
    for index in range(len(by_low) - 1):
        ours = sign(low_value(by_low[index]), low_value(by_low[index + 1]))
        assert ours == sign(strengths[index], strengths[index + 1]), by_low[index : index + 2]


# ---------------------------------------------------------------- exhaustive: every rank multiset


def reference_value(five: Sequence[Card]) -> int:
    """The packed value the module docstring defines, built from the reference key of five cards:
    category << 20, then the five ranks most significant first, each group repeated by its size."""
    category, key = reference_five_high(five)
    ranks = [card.rank for card in five]
    if category in (4, 8):  # straights: counting down from the top, the wheel's ace as 1
        top = key[0]
        packed: Sequence[int] = (5, 4, 3, 2, 1) if top == 5 else range(top, top - 5, -1)
    else:
        packed = [rank for rank in key for _ in range(ranks.count(rank))] if category not in (0, 5) else key
    value = category
    for rank in packed:
        value = value << 4 | rank
    return value


def unsuited(ranks: Sequence[int]) -> tuple[Card, ...]:
    """Cards of these ranks with no flush: suits dealt round the four in turn (at most two of a suit)."""
    return tuple(Card(rank, "cdhs"[index % 4]) for index, rank in enumerate(ranks))


@pytest.mark.slow
def test_high_value_is_exact_for_every_rank_multiset_and_every_flush() -> None:
    """Every multiset of 5 to 7 ranks (at most four of each: 73,775 of them) without a flush, and every
    set of 5 to 7 ranks in one suit: the value is exactly the best five's packing by the reference."""
    five_values: dict[tuple[int, ...], int] = {}
    for five in itertools.combinations_with_replacement(range(2, 15), 5):
        if max(Counter(five).values()) <= 4:
            five_values[five] = reference_value(unsuited(five))
    checked = 0
    for size in (5, 6, 7):
        for ranks in itertools.combinations_with_replacement(range(2, 15), size):
            if max(Counter(ranks).values()) > 4:
                continue
            expected = max(five_values[five] for five in itertools.combinations(ranks, 5))
            assert high_value(unsuited(ranks)) == expected, ranks
            checked += 1
    assert checked == 73_775
    for size in (5, 6, 7):
        for ranks in itertools.combinations(range(2, 15), size):
            suited = tuple(Card(rank, "h") for rank in ranks)
            expected = max(reference_value(five) for five in itertools.combinations(suited, 5))
            assert high_value(suited) == expected, ranks
            assert best_high(suited).value == expected
