"""deal_values: the contract the all-in EV builds on (shapes, counts, exactness, sampling, R17)."""

from __future__ import annotations

import re
from collections import Counter
from math import comb

import numpy as np
import pytest

from hhtool.equity.deals import DealValues, SpotError, deal_count, deal_values
from hhtool.equity.fast_eval import card_index
from hhtool.evaluation import cards, high_value, low_value


def test_heads_up_fifth_street_counts_every_completion_once() -> None:
    known = [cards("As 2s 3h 5d 9c"), cards("Kd Kc 9s 9h 4c")]
    values = deal_values(known, cards("7c 8d Qh 2c 3c 4d"))
    assert isinstance(values, DealValues) and values.exact
    assert values.deals == comb(36, 2) * comb(34, 2) == 353_430 == deal_count(known, cards("7c 8d Qh 2c 3c 4d"))
    assert values.high.shape == values.low.shape == (353_430, 2)
    assert values.high.dtype == values.low.dtype == np.int64
    assert values.hands is not None
    # each row: the known cards, two distinct drawn cards per player, nothing known or dead drawn
    drawn = values.hands[:, :, 5:].reshape(values.deals, 4)
    assert (np.sort(drawn, axis=1)[:, 1:] != np.sort(drawn, axis=1)[:, :-1]).all()
    used = {card_index(card) for card in (*known[0], *known[1], *cards("7c 8d Qh 2c 3c 4d"))}
    assert not np.isin(drawn, list(used)).any()
    # distinct completions: no (player 1's pair, player 2's pair) twice
    first = Counter(map(bytes, np.sort(values.hands[:, 0, 5:], axis=1)))
    assert len(first) == comb(36, 2) and set(first.values()) == {comb(34, 2)}
    pairs = {bytes(row) for row in np.concatenate(
        [np.sort(values.hands[:, 0, 5:], axis=1), np.sort(values.hands[:, 1, 5:], axis=1)], axis=1)}
    assert len(pairs) == values.deals


def test_values_are_the_showdown_evaluators_and_cards_of_returns_the_hands() -> None:
    values = deal_values([cards("As 2s 3h 5d 9c 7h"), cards("Kd Kc 9s 9h 4c 4h")], cards("7c"))
    rows = [0, 17, values.deals - 1]
    for row, hands in zip(rows, values.cards_of(rows), strict=True):
        assert hands[0][:6] == cards("As 2s 3h 5d 9c 7h") and len(hands[0]) == len(hands[1]) == 7
        for player, hand in enumerate(hands):
            assert values.high[row, player] == high_value(hand)
            assert values.low[row, player] == (low_value(hand) or 0)


def test_budget_decides_exact_and_sampling_repeats_for_a_seed() -> None:
    known = [cards("As 2s 3h"), cards("Kd Kc 9s"), cards("7h 8h 9h")]
    assert deal_count(known) > 3_000_000
    first = deal_values(known, samples=1_000, seed=5)
    assert not first.exact and first.deals == 1_000 and first.high.shape == (1_000, 3)
    again = deal_values(known, samples=1_000, seed=5)
    other = deal_values(known, samples=1_000, seed=6)
    assert (first.high == again.high).all() and not (first.high == other.high).all()
    small = deal_values([cards("As 2s 3h 5d 9c 7h"), cards("Kd Kc 9s 9h 4c 4h")], exact=False, samples=50)
    assert not small.exact and small.deals == 50


def test_deck_exhaustion_deals_one_common_card_on_seventh_street() -> None:
    # 8 players with six cards each: 48 known, 4 unseen, 8 seventh-street cards needed -> one common card
    deck = [f"{rank}{suit}" for rank in "23456789TJQKA" for suit in "cdhs"]
    known = [cards(" ".join(deck[6 * player : 6 * player + 6])) for player in range(8)]
    values = deal_values(known)
    assert values.exact and values.deals == 4 == deal_count(known)
    assert values.hands is not None
    seventh = values.hands[:, :, 6]
    assert (seventh == seventh[:, :1]).all()  # every player uses the same card
    assert sorted(seventh[:, 0].tolist()) == [card_index(card) for card in cards(" ".join(deck[48:]))]
    # one player still on 5th street: his 6th card is his own, his 7th the common card
    short = [*known[:7], cards(" ".join(deck[42:47]))]
    values = deal_values(short, dead=cards(deck[47]))
    assert values.deals == 4 * 3  # his own 6th from the 4 unseen, then the common card from the other 3
    assert values.hands is not None and (values.hands[:, :, 6] == values.hands[:, :1, 6]).all()


@pytest.mark.parametrize(("known", "dead", "message"), [
    (["As Kd", "As Qd"], "", "As is given twice (player 1 and player 2)"),
    (["As Kd", "Qs Qd"], "Kd", "Kd is given twice (player 1 and dead)"),
    (["As", "Qs Qd"], "", "player 1 has 1 card: give 2 to 7"),
    (["As Kd Qh Js Tc 9d 8h 7c", "Qs Qd"], "", "player 1 has 8 cards: give 2 to 7"),
    (["As Kd"], "", "need at least 2 players, got 1"),
])
def test_spots_that_cannot_be_dealt(known: list[str], dead: str, message: str) -> None:
    with pytest.raises(SpotError, match=re.escape(message)):
        deal_values([cards(text) for text in known], cards(dead))


def test_more_players_than_the_deck_can_serve() -> None:
    deck = [f"{rank}{suit}" for rank in "23456789TJQKA" for suit in "cdhs"]
    known = [cards(" ".join(deck[2 * player : 2 * player + 2])) for player in range(10)]  # 10 players, 32 unseen
    with pytest.raises(SpotError, match="more players than the deck can serve"):
        deal_values(known)


@pytest.mark.parametrize("exact", [True, False])
def test_values_looked_up_by_draw_equal_each_hand_judged(exact: bool) -> None:
    # 18 unseen: player 1's 153 possible draws are looked up (sampled: from unsorted cards), player 2's
    # 3,060 too when exact (278,460 deals) but judged deal by deal in 3,000 samples; player 3 draws none
    from hhtool.equity.fast_eval import hand_values

    known = [cards("As 2s 3h 5d 9c"), cards("Kd Kc 9s"), cards("7h 7d Jh Js Qc Ad 2h")]
    values = deal_values(known, cards("7c 8d Qh Th Td 6c 6s 5h 5s 4s 4h 3s 3c 2c 2d Ks Kh Jc Jd"),
                         exact=exact, samples=3_000, seed=9)
    assert values.hands is not None and values.exact is exact
    high, low = hand_values(values.hands)
    assert (values.high == high).all() and (values.low == low).all()


def test_deal_shares_of_a_side_pot_count_only_its_players() -> None:
    from hhtool.equity.spot import deal_shares

    # the quartered spot of docs/equity.md: 3's trips win the high; 1 and 2 tie the low (7-4-3-2-A)
    values = deal_values([cards("As 2d 3h 4c 7s Kd Kh"), cards("Ac 2s 3d 4h 7c Qd Qh"), cards("9s 9d 9h Tc Jc Js 8d")])
    assert deal_shares(values).share.tolist() == [[0.25, 0.25, 0.5]]
    side = deal_shares(values, [1, 2])  # players 2 and 3: 2's low alone, 3's high
    assert side.share.tolist() == [[0.5, 0.5]] and side.has_low.tolist() == [True]
    without_lows = deal_shares(values, [2])  # 3 alone: no low among the pot's players, the whole pot
    assert without_lows.share.tolist() == [[1.0]] and without_lows.has_low.tolist() == [False]
