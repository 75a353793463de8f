"""hhtool's equity against an independent count: an exhaustive enumerator written here over
PokerKit's own hand evaluators (StandardHighHand, EightOrBetterLowHand), nothing of hhtool's but
the card type. 200 random exact spots (2-4 players, 5th to 7th street, dead cards) agree to 1e-9 on
equity and scoop (and exactly on high, low and no_low); sampled spots fall within 4 standard errors.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations

import pytest

pokerkit = pytest.importorskip("pokerkit", reason="pokerkit (the test extra) is the independent evaluator")

from hhtool.equity.deals import deal_count, deal_values  # noqa: E402
from hhtool.equity.spot import spot_equity  # noqa: E402
from hhtool.model import Card  # noqa: E402

DECK = [f"{rank}{suit}" for rank in "23456789TJQKA" for suit in "cdhs"]
#: the independent count stays quick: spots of at most this many completions
MAX_DEALS = 12_000


# PokerKit orders its hands by their lookup entry's index (a greater index is a stronger high hand,
# a smaller one a stronger low hand): the keys below are those indexes, signed so larger is stronger.
@cache
def high_key(cards: frozenset[str]) -> int:
    return int(pokerkit.StandardHighHand.from_game("".join(sorted(cards))).entry.index)


@cache
def low_key(cards: frozenset[str]) -> int | None:
    hand = pokerkit.EightOrBetterLowHand.from_game_or_none("".join(sorted(cards)))
    return None if hand is None else -int(hand.entry.index)


def test_the_keys_order_as_pokerkits_hands() -> None:
    texts = ["As2d3h4c5sKdKh", "As2d3h4c6sKdKh", "8s7d6h5c4sKdKh", "9s7d6h5c4sKdKh"]
    highs = [pokerkit.StandardHighHand.from_game(text) for text in texts]
    lows = [pokerkit.EightOrBetterLowHand.from_game_or_none(text) for text in texts]
    sets = [frozenset(text[i : i + 2] for i in range(0, 14, 2)) for text in texts]
    for a in range(4):
        for b in range(4):
            assert (highs[a] < highs[b]) == (high_key(sets[a]) < high_key(sets[b]))
            if lows[a] is not None and lows[b] is not None:
                assert (lows[a] < lows[b]) == (low_key(sets[a]) < low_key(sets[b]))  # type: ignore[operator]
    assert lows[3] is None and low_key(sets[3]) is None


@dataclass(frozen=True)
class Expected:
    equity: list[Fraction]
    scoop: list[Fraction]
    high: list[Fraction]
    low: list[Fraction]
    no_low: Fraction
    deals: int


def completions(known: list[list[str]], unseen: list[str]) -> list[list[frozenset[str]]]:
    """Every distinct deal: each player's seven cards (R17: a common 7th card when the stub is short)."""
    needs = [7 - len(cards) for cards in known]
    common = sum(needs) > len(unseen)
    own = [max(need - 1, 0) for need in needs] if common else needs
    deals: list[list[frozenset[str]]] = []

    def deal(player: int, left: list[str], hands: list[frozenset[str]]) -> None:
        if player == len(known):
            if not common:
                deals.append(hands)
                return
            for card in left:  # the one common card, for every player still to get a 7th
                deals.append([hand | {card} if needs[i] else hand for i, hand in enumerate(hands)])
            return
        for drawn in combinations(left, own[player]):
            rest = [card for card in left if card not in drawn]
            deal(player + 1, rest, [*hands, frozenset(known[player]) | set(drawn)])

    deal(0, unseen, [])
    return deals


def independent_count(known: list[list[str]], dead: list[str]) -> Expected:
    used = {card for cards in known for card in cards} | set(dead)
    unseen = [card for card in DECK if card not in used]
    players = range(len(known))
    units = [0] * len(known)  # pot shares in 24ths: a half among 1 to 4 players, or the whole pot
    scoop, high, low = [0] * len(known), [0] * len(known), [0] * len(known)
    no_low = 0
    deals = completions(known, unseen)
    for hands in deals:
        highs = [high_key(hand) for hand in hands]
        lows = [low_key(hand) for hand in hands]
        best_high = max(highs)
        high_winners = [p for p in players if highs[p] == best_high]
        qualifying = [value for value in lows if value is not None]
        if not qualifying:
            no_low += 1
            for p in high_winners:
                units[p] += 24 // len(high_winners)
                high[p] += 1
            if len(high_winners) == 1:
                scoop[high_winners[0]] += 1
            continue
        best_low = max(qualifying)
        low_winners = [p for p in players if lows[p] == best_low]
        for p in high_winners:
            units[p] += 12 // len(high_winners)
            high[p] += 1
        for p in low_winners:
            units[p] += 12 // len(low_winners)
            low[p] += 1
        if high_winners == low_winners and len(high_winners) == 1:
            scoop[high_winners[0]] += 1
    count = len(deals)
    return Expected([Fraction(u, 24 * count) for u in units], [Fraction(s, count) for s in scoop],
                    [Fraction(h, count) for h in high], [Fraction(w, count) for w in low], Fraction(no_low, count), count)


def parsed(texts: list[str]) -> list[Card]:
    return [Card.parse(text) for text in texts]


def random_spot(generator: random.Random, max_deals: int) -> tuple[list[list[str]], list[str]]:
    """2-4 players, each on 5th, 6th or 7th street (5 to 7 known cards), and some dead cards."""
    while True:
        players = generator.randint(2, 4)
        streets = [generator.choice((5, 6, 6, 7, 7)) for _ in range(players)]
        deck = DECK[:]
        generator.shuffle(deck)
        known = [[deck.pop() for _ in range(count)] for count in streets]
        dead = [deck.pop() for _ in range(generator.randint(0, 12))]
        count = deal_count([parsed(cards) for cards in known], parsed(dead))
        if 1 < count <= max_deals:
            return known, dead


@pytest.mark.parametrize("spots", [
    pytest.param(20, id="20 spots"),
    pytest.param(200, id="200 spots", marks=pytest.mark.slow),  # about 30 s of CPU, mostly PokerKit's
])
def test_random_exact_spots_agree_with_the_independent_count(spots: int) -> None:
    generator = random.Random(3601 + spots)
    for _ in range(spots):
        known, dead = random_spot(generator, MAX_DEALS)
        expected = independent_count(known, dead)
        result = spot_equity(deal_values([parsed(cards) for cards in known], parsed(dead)))
        assert result.exact and result.deals == expected.deals, (known, dead)
        for player, figures in enumerate(result.players):
            assert figures.equity == pytest.approx(float(expected.equity[player]), abs=1e-9), (known, dead)
            assert figures.scoop == pytest.approx(float(expected.scoop[player]), abs=1e-9), (known, dead)
            assert figures.high == pytest.approx(float(expected.high[player]), abs=1e-12), (known, dead)
            assert figures.low == pytest.approx(float(expected.low[player]), abs=1e-12), (known, dead)
        assert result.no_low == pytest.approx(float(expected.no_low), abs=1e-12), (known, dead)
        assert sum(figures.equity for figures in result.players) == pytest.approx(1.0, abs=1e-12)


#: spots where lows tie often (quarters; a high won alone beside a tied low is no scoop), highs too
TIE_HEAVY = [
    (["As 2d 3h 4c 5s", "Ac 2s 3d 4h 5c"], "6c 6d 6h 6s 7c 7d 7h 7s 8c 8d 8h 8s 9c 9d Tc Td Jc Jd Qc Qd"),
    (["As 2d 3h 4c 7s 9d", "Ac 2s 3d 4h 7c Kd", "Ah 2h 3c 8d Ks Kh"], "5s 5h 6c 6h"),
    (["2c 3c 4c 5c 7d Kh", "2d 3d 4d 5d 7h 9s", "Qs Qh Qd Js Jh Tc"], "As Ac 8c 8d 6h"),
]


@pytest.mark.parametrize(("known", "dead"), TIE_HEAVY)
def test_spots_full_of_ties_agree_with_the_independent_count(known: list[str], dead: str) -> None:
    hands = [text.split() for text in known]
    expected = independent_count(hands, dead.split())
    result = spot_equity(deal_values([parsed(cards) for cards in hands], parsed(dead.split())))
    assert result.deals == expected.deals
    for player, figures in enumerate(result.players):
        assert figures.equity == pytest.approx(float(expected.equity[player]), abs=1e-9)
        assert figures.scoop == pytest.approx(float(expected.scoop[player]), abs=1e-9)
        assert figures.high == pytest.approx(float(expected.high[player]), abs=1e-12)
        assert figures.low == pytest.approx(float(expected.low[player]), abs=1e-12)


def test_a_deck_exhaustion_spot_agrees_with_the_independent_count() -> None:
    # 8 players on 6th street with 4 unseen cards: the 7th is one common card (R17)
    known = [DECK[6 * player : 6 * player + 6] for player in range(8)]
    expected = independent_count(known, [])
    result = spot_equity(deal_values([parsed(cards) for cards in known]))
    assert result.deals == expected.deals == 4
    assert [p.equity for p in result.players] == pytest.approx([float(e) for e in expected.equity], abs=1e-12)


def test_sampled_spots_fall_within_four_standard_errors() -> None:
    generator = random.Random(3602)
    for seed in range(12):
        known, dead = random_spot(generator, 4 * MAX_DEALS)
        expected = independent_count(known, dead)
        result = spot_equity(deal_values([parsed(cards) for cards in known], parsed(dead), exact=False,
                                         samples=4_000, seed=seed))
        assert not result.exact and result.deals == 4_000
        for player, figures in enumerate(result.players):
            assert figures.stderr is not None
            error = abs(figures.equity - float(expected.equity[player]))
            # a sure outcome has no spread: then the sample must be exact
            assert error <= 4 * figures.stderr + 1e-12, (known, dead, player, error, figures.stderr)
