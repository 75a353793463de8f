"""PokerStars grammar and transformer, on tricky lines written from the formats doc."""

from __future__ import annotations

import re
from collections import Counter
from datetime import datetime
from pathlib import Path

import pytest

from hhtool.model import (
    ActionKind,
    Card,
    FailedHand,
    FailureKind,
    Half,
    Hand,
    RawHand,
    ShowStatus,
    SkippedHand,
    Street,
    Structure,
)
from hhtool.sites import detect, parser_for
from hhtool.sites.pokerstars import PokerStarsParser
from tests.inputs import edited
from tests.site_helpers import conserved, corpus_outcomes, failed_at, kinds, one_outcome, only_hand, parse_text

STARS = parser_for("pokerstars")

SPLIT_HAND = """\
PokerStars Game #35874576282:  7 Card Stud Hi/Lo Limit ($0.04/$0.08 USD) - 2009/11/26 10:25:13 ET
Table 'Dawn II' 8-max
Seat 1: u.pressure ($1.00 in chips)
Seat 3: gashpor ($1.50 in chips)
Seat 5: Hero ($2.00 in chips)
u.pressure: posts the ante $0.01
gashpor: posts the ante $0.01
Hero: posts the ante $0.01
*** 3rd STREET ***
Dealt to u.pressure [Td]
Dealt to gashpor [4h]
Dealt to Hero [7c 3s 5h]
gashpor: brings in for $0.02
Hero: calls $0.02
Player9 joins the table at seat #7
u.pressure: raises $0.02 to $0.04
gashpor: calls $0.02
Hero: calls $0.02
*** 4th STREET ***
Dealt to u.pressure [Td] [2c]
Dealt to gashpor [4h] [8d]
Dealt to Hero [7c 3s 5h] [Qc]
Hero: checks
u.pressure: checks
gashpor: bets $0.04
Hero: folds
u.pressure: calls $0.04
*** 5th STREET ***
Dealt to u.pressure [Td 2c] [Ah]
Dealt to gashpor [4h 8d] [6s]
u.pressure: checks
gashpor said, "gl: calls $5"
gashpor: checks
*** 6th STREET ***
Dealt to u.pressure [Td 2c Ah] [Kd]
Dealt to gashpor [4h 8d 6s] [3c]
u.pressure: checks
gashpor: bets $0.08
u.pressure: calls $0.08
*** RIVER ***
u.pressure: checks
gashpor: checks
*** SHOW DOWN ***
u.pressure: shows [Ts Kc Td 2c Ah Kd 9s] (HI: two pair, Kings and Tens)
gashpor: shows [2d 5c 4h 8d 6s 3c Jh] (HI: a straight, Two to Six; LO: 6,5,4,3,2)
gashpor collected $0.19 from pot
gashpor collected $0.18 from pot
*** SUMMARY ***
Total pot $0.39 | Rake $0.02
Seat 1: u.pressure showed [Ts Kc Td 2c Ah Kd 9s] and lost with HI: two pair, Kings and Tens
Seat 3: gashpor showed [2d 5c 4h 8d 6s 3c Jh] and won ($0.37) with HI: a straight, Two to Six; LO: 6,5,4,3,2
Seat 5: Hero folded on the 4th Street
"""


def parse_one(text: str, name: str = "test.txt") -> Hand | SkippedHand | FailedHand:
    return one_outcome(parse_text(STARS, text, name))


def parse_hand(text: str) -> Hand:
    return only_hand(parse_text(STARS, text, "test.txt"))


def test_header_stakes_seats_and_line_numbers() -> None:
    hand = parse_hand(SPLIT_HAND)
    assert hand.hand_id == "35874576282"
    assert hand.stakes.small_bet == 4 and hand.stakes.big_bet == 8
    assert (hand.stakes.ante, hand.stakes.bring_in) == (1, 2)
    assert hand.stakes.currency == "USD" and hand.stakes.unit == 100 and not hand.stakes.is_tournament
    assert hand.stakes.structure is Structure.FIXED_LIMIT
    assert hand.players == ("u.pressure", "gashpor", "Hero")
    assert hand.hero == "Hero"
    assert hand.table_name == "Dawn II" and hand.stakes.table_size == 8
    assert hand.source.first_line == 1 and hand.source.last_line == 52
    bring_in = next(a for a in hand.actions if a.kind is ActionKind.BRING_IN)
    assert bring_in.line == 13 and bring_in.player == "gashpor"


def test_completion_written_as_raise_and_amounts_added_vs_to() -> None:
    hand = parse_hand(SPLIT_HAND)
    third = [a for a in hand.actions if a.street is Street.THIRD and a.kind is not ActionKind.ANTE]
    assert [(a.player, a.kind, a.amount, a.to_amount) for a in third] == [
        ("gashpor", ActionKind.BRING_IN, 2, 2),
        ("Hero", ActionKind.CALL, 2, 2),
        ("u.pressure", ActionKind.COMPLETE, 4, 4),
        ("gashpor", ActionKind.CALL, 2, 4),
        ("Hero", ActionKind.CALL, 2, 4),
    ]


def test_noise_and_chat_that_looks_like_an_action_are_not_actions() -> None:
    hand = parse_hand(SPLIT_HAND)
    assert "Player9" not in {a.player for a in hand.actions}
    fifth = [(a.player, a.kind) for a in hand.actions if a.street is Street.FIFTH]
    assert fifth == [("u.pressure", ActionKind.CHECK), ("gashpor", ActionKind.CHECK)]


def test_deals_hide_unknown_cards_and_showdown_cards() -> None:
    hand = parse_hand(SPLIT_HAND)
    hero_third = next(d for d in hand.deals if d.player == "Hero" and d.street is Street.THIRD)
    assert hero_third.down == (Card.parse("7c"), Card.parse("3s")) and hero_third.up == (Card.parse("5h"),)
    opponent_third = next(d for d in hand.deals if d.player == "gashpor" and d.street is Street.THIRD)
    assert opponent_third.down == (None, None) and opponent_third.up == (Card.parse("4h"),)
    assert not [d for d in hand.deals if d.street is Street.SEVENTH]  # opponents' river cards are not printed
    shown = {s.player: s for s in hand.showdown}
    assert shown["gashpor"].low_text == "6,5,4,3,2" and shown["gashpor"].high_text == "a straight, Two to Six"
    assert shown["u.pressure"].low_text is None and len(shown["u.pressure"].cards) == 7


def test_two_identical_collect_lines_for_a_scoop_are_both_kept() -> None:
    hand = parse_hand(SPLIT_HAND)
    assert [(a.player, a.amount, a.pot, a.half) for a in hand.awards] == [
        ("gashpor", 19, 0, Half.UNKNOWN),
        ("gashpor", 18, 0, Half.UNKNOWN),
    ]
    assert hand.total_pot == 39 and hand.rake == 2
    assert sum(hand.contributed_by(p) for p in hand.players) == hand.total_pot
    assert hand.net_won("gashpor") == 37 - (1 + 4 + 4 + 8)


def test_uncalled_bet_doesnt_show_and_uncontested_pot_is_whole() -> None:
    text = SPLIT_HAND.split("*** 6th STREET ***")[0] + """\
*** 6th STREET ***
Dealt to u.pressure [Td 2c Ah] [Kd]
Dealt to gashpor [4h 8d 6s] [3c]
u.pressure: checks
gashpor: bets $0.08
u.pressure: folds
Uncalled bet ($0.08) returned to gashpor
gashpor collected $0.22 from pot
gashpor: doesn't show hand
*** SUMMARY ***
Total pot $0.23 | Rake $0.01
Seat 3: gashpor collected ($0.22)
"""
    hand = parse_hand(text)
    assert [(u.player, u.amount, u.street) for u in hand.uncalled] == [("gashpor", 8, Street.SIXTH)]
    assert hand.awards[0].half is Half.WHOLE
    assert hand.showdown[0].status is ShowStatus.NOT_SHOWN
    assert sum(hand.contributed_by(p) for p in hand.players) == hand.total_pot == 23


ALLIN_SIDE_POT = """\
PokerStars Hand #200:  7 Card Stud Hi/Lo Limit ($10/$20 USD) - 2017/01/21 16:58:03 ET
Table 'Side' 8-max
Seat 2: Shorty ($6 in chips)
Seat 4: Big ($500 in chips)
Seat 6: Bigger ($500 in chips)
Shorty: posts the ante $1
Big: posts the ante $1
Bigger: posts the ante $1
*** 3rd STREET ***
Dealt to Shorty [2c]
Dealt to Big [Kd]
Dealt to Bigger [Qs]
Shorty: brings in for $3
Big: completes it to $10
Bigger: calls $10
Shorty: calls $2 and is all-in
*** 4th STREET ***
Dealt to Shorty [2c] [9h]
Dealt to Big [Kd] [Kh]
Dealt to Bigger [Qs] [4d]
Big: bets $10
Bigger: calls $10
*** 5th STREET ***
Dealt to Shorty [2c 9h] [3c]
Dealt to Big [Kd Kh] [7s]
Dealt to Bigger [Qs 4d] [5d]
Big: checks
Bigger: checks
*** 6th STREET ***
Dealt to Shorty [2c 9h 3c] [Jd]
Dealt to Big [Kd Kh 7s] [2s]
Dealt to Bigger [Qs 4d 5d] [Ac]
Big: checks
Bigger: checks
*** RIVER ***
Big: checks
Bigger: checks
*** SHOW DOWN ***
Big: shows [Ks 9d Kd Kh 7s 2s 8c] (HI: three of a kind, Kings)
Bigger: shows [Ah 6d Qs 4d 5d Ac 3d] (HI: a pair of Aces; LO: 6,5,4,3,A)
Shorty: shows [4c Qh 2c 9h 3c Jd Th] (HI: high card Queen)
Big collected $15 from side pot
Bigger collected $15 from side pot
Big collected $9 from main pot
Bigger collected $9 from main pot
*** SUMMARY ***
Total pot $48 Main pot $18. Side pot $30. | Rake $0
Seat 2: Shorty showed [4c Qh 2c 9h 3c Jd Th] and lost with HI: high card Queen
Seat 4: Big showed [Ks 9d Kd Kh 7s 2s 8c] and won ($24) with HI: three of a kind, Kings
Seat 6: Bigger showed [Ah 6d Qs 4d 5d Ac 3d] and won ($24) with HI: a pair of Aces; LO: 6,5,4,3,A
"""


def test_all_in_side_pots_and_completes_it_to() -> None:
    hand = parse_hand(ALLIN_SIDE_POT)
    shorty_call = next(a for a in hand.actions if a.player == "Shorty" and a.kind is ActionKind.CALL)
    assert shorty_call.all_in and shorty_call.amount == 200 and shorty_call.to_amount == 500
    big_third = [a.kind for a in hand.actions if a.player == "Big" and a.street is Street.THIRD]
    assert big_third == [ActionKind.ANTE, ActionKind.COMPLETE]
    assert [(a.player, a.pot) for a in hand.awards] == [("Big", 1), ("Bigger", 1), ("Big", 0), ("Bigger", 0)]
    assert hand.stakes.unit == 100 and hand.awards[0].amount == 1500
    assert hand.total_pot == 4800


def test_mucked_cards_revealed_in_summary_and_mucks_hand() -> None:
    text = SPLIT_HAND.replace(
        "u.pressure: shows [Ts Kc Td 2c Ah Kd 9s] (HI: two pair, Kings and Tens)", "u.pressure: mucks hand"
    ).replace(
        "Seat 1: u.pressure showed [Ts Kc Td 2c Ah Kd 9s] and lost with HI: two pair, Kings and Tens",
        "Seat 1: u.pressure mucked [Ts Kc Td 2c Ah Kd 9s]",
    )
    hand = parse_hand(text)
    mucked = next(s for s in hand.showdown if s.player == "u.pressure")
    assert mucked.status is ShowStatus.MUCKED and mucked.cards[0] == Card.parse("Ts") and len(mucked.cards) == 7


@pytest.mark.parametrize(
    ("header", "tournament", "small_bet", "currency", "unit"),
    [
        ("PokerStars Game #29356803849: TOURNAMENT #169962475, $10+$1 7 CARD STUD HI/LO LIMIT - LEVEL I (25/50)"
         " - 2009/06/14 11:45:00 ET", "169962475", 25, "CHIPS", 1),
        ("PokerStars Hand #164954571644:  8-Game (7 Card Stud Hi/Lo Limit, $400/$800 USD) - 2017/01/21 16:58:03 ET",
         None, 40000, "USD", 100),
        ("PokerStars Home Game Hand #99632561862: {Dazzle's Room} Tournament #743144019, 100+9 8-Game (7 Card Stud Hi/Lo"
         " Limit) - Match Round I, Level VI (40/80) - 2013/06/06 0:21:31 ET", "743144019", 40, "CHIPS", 1),
        ("PokerStars Hand #5: HORSE (7 Card Stud Hi/Lo Limit, €0.10/€0.20 EUR) - 2013/06/06 7:21:31 CET"
         " [2013/06/06 1:21:31 ET]", None, 10, "EUR", 100),
    ],
)
def test_header_variants(header: str, tournament: str | None, small_bet: int, currency: str, unit: int) -> None:
    text = SPLIT_HAND.replace(SPLIT_HAND.splitlines()[0], header)
    if unit == 1:  # chips: "$1.50" becomes "150"
        text = re.sub(r"\$(\d+)\.(\d\d)", lambda m: str(int(m.group(1)) * 100 + int(m.group(2))), text)
    outcome = parse_one(text)
    assert isinstance(outcome, Hand), outcome
    assert outcome.tournament_id == tournament
    assert outcome.stakes.small_bet == small_bet and outcome.stakes.currency == currency
    assert outcome.stakes.unit == unit and outcome.stakes.is_tournament == (tournament is not None)
    assert outcome.game_label.lower() == "7 card stud hi/lo limit"
    assert outcome.started_at is not None and outcome.timezone == "ET"


@pytest.mark.parametrize(
    ("stakes", "small_bet", "big_bet", "currency"),
    [
        ("($2.50 / $5 USD)", 250, 500, "USD"),  # the 2026 report: spaces around the slash
        ("($2.50 / $5)", 250, 500, "USD"),
        ("($1,000/$2,000 USD)", 100000, 200000, "USD"),
        ("(€0.10 / €0.20 EUR)", 10, 20, "EUR"),
        ("(£1/£2)", 100, 200, "GBP"),
        ("(0.10/0.20 EUR)", 10, 20, "EUR"),
    ],
)
def test_stakes_read_tolerantly(stakes: str, small_bet: int, big_bet: int, currency: str) -> None:
    header = f"PokerStars Game #35874576282:  7 Card Stud Hi/Lo Limit {stakes} - 2009/11/26 10:25:13 ET"
    hand = parse_hand(SPLIT_HAND.replace(SPLIT_HAND.splitlines()[0], header))
    assert (hand.stakes.small_bet, hand.stakes.big_bet, hand.stakes.currency) == (small_bet, big_bet, currency)


@pytest.mark.parametrize(
    ("when", "expected", "zone"),
    [
        ("2009/11/26 10:25 ET", datetime(2009, 11, 26, 10, 25), "ET"),  # without seconds
        ("2009/11/26 16:25:13 CET [2009/11/26 10:25:13 ET]", datetime(2009, 11, 26, 10, 25, 13), "ET"),
        ("2009/11/26 16:25 CET [2009/11/26 10:25 ET]", datetime(2009, 11, 26, 10, 25), "ET"),
        ("2009/11/26 10:25:13", datetime(2009, 11, 26, 10, 25, 13), None),
    ],
)
def test_dates_read_tolerantly(when: str, expected: datetime, zone: str | None) -> None:
    header = f"PokerStars Game #35874576282:  7 Card Stud Hi/Lo Limit ($0.04/$0.08 USD) - {when}"
    hand = parse_hand(SPLIT_HAND.replace(SPLIT_HAND.splitlines()[0], header))
    assert hand.started_at == expected and hand.timezone == zone


def test_stakes_with_a_letter_inside_fail() -> None:
    header = "PokerStars Game #35874576282:  7 Card Stud Hi/Lo Limit ($0.04/$0.O8 USD) - 2009/11/26 10:25:13 ET"
    outcome = parse_one(SPLIT_HAND.replace(SPLIT_HAND.splitlines()[0], header))
    assert isinstance(outcome, FailedHand) and outcome.line == 1, outcome


def test_other_games_and_cancelled_hands_are_skipped_with_their_game() -> None:
    razz = SPLIT_HAND.replace("7 Card Stud Hi/Lo Limit", "Razz Limit")
    outcome = parse_one(razz)
    assert isinstance(outcome, SkippedHand) and outcome.game == "Razz Limit"
    stud_hi = SPLIT_HAND.replace("7 Card Stud Hi/Lo Limit", "7 Card Stud Limit")
    assert isinstance(parse_one(stud_hi), SkippedHand)
    cancelled = SPLIT_HAND.split("*** 4th STREET ***")[0] + "Hand cancelled\n"
    outcome = parse_one(cancelled)
    assert isinstance(outcome, SkippedHand) and "cancelled" in outcome.game


def test_unknown_line_fails_with_site_line_and_text() -> None:
    text = SPLIT_HAND.replace("Hero: calls $0.02\nPlayer9", "Hero: teleports $0.02\nPlayer9")
    outcome = failed_at(parse_one(text), "pokerstars", 14, "Hero: teleports $0.02")
    assert outcome.hand_id == "35874576282"


def test_truncated_last_hand_is_incomplete_not_a_crash() -> None:
    text = SPLIT_HAND + "\n\n" + "\n".join(SPLIT_HAND.splitlines()[:8])
    outcomes = parse_text(STARS, text, "t.txt")
    assert isinstance(outcomes[0], Hand)
    assert isinstance(outcomes[1], FailedHand) and outcomes[1].kind is FailureKind.ENDS_EARLY
    assert outcomes[1].raw.first_line == 55


def test_action_by_unseated_player_fails() -> None:
    outcome = parse_one(SPLIT_HAND.replace("Hero: calls $0.02\nPlayer9", "Ghost: calls $0.02\nPlayer9"))
    assert isinstance(outcome, FailedHand) and "Ghost" in outcome.reason and outcome.line == 14


def test_community_card_on_the_river() -> None:
    # (the Board edit used to name a total the hand does not state, so no Board line was ever added)
    board = edited(SPLIT_HAND, "Total pot $0.39 | Rake $0.02", "Total pot $0.39 | Rake $0.02\nBoard [9c]")
    assert parse_hand(edited(board, "*** RIVER ***", "*** RIVER *** [9c]")).community_card == Card.parse("9c")
    assert parse_hand(board).community_card == Card.parse("9c")  # the summary's Board line alone states it


def test_sniffing() -> None:
    assert detect(tuple(SPLIT_HAND.splitlines())) is STARS
    assert detect(("Full Tilt Poker Game #1: Table x",)) is not STARS


# ------------------------------------------------------------------ the real corpus

EXPECTED_STUD8 = {
    "7-StudHL-USD-0.04-0.08-200911.txt": (7, 0),
    "7-StudHL-USD-0.04-0.08-200911.Cardtest.txt": (1, 0),
    "7-StudHL-USD-10-1-200906.PT2.export.txt": (1, 0),
    "7-StudHL-USD-400-800-201701.3bet.fix.txt": (1, 0),
    "8-Game-2max-STT-play-100-201306.homeGame.shootout.txt": (18, 119),
}


def test_every_pokerstars_corpus_hand_parses_and_balances(corpus: Path) -> None:
    for name, (stud8, skipped) in EXPECTED_STUD8.items():
        path = corpus / "PokerStars" / name
        outcomes = corpus_outcomes(STARS, path)
        found = kinds(outcomes)
        assert found == Counter({"Hand": stud8, **({"SkippedHand": skipped} if skipped else {})}), (name, found)
        for hand in (o for o in outcomes if isinstance(o, Hand)):
            assert hand.fees == 0 and conserved(hand, total_pot=True), hand.hand_id  # Stars states no fees


def test_a_fault_inside_the_parser_costs_one_hand_not_the_import() -> None:
    class Broken(PokerStarsParser):
        def parse_stud8(self, raw: RawHand) -> Hand:
            raise ZeroDivisionError("simulated parser fault")

    outcome = one_outcome(parse_text(Broken(), SPLIT_HAND, "test.txt"))
    assert isinstance(outcome, FailedHand)
    assert "internal error" in outcome.reason and "simulated parser fault" in outcome.reason
