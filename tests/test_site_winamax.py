"""Winamax Stud Hi/Lo parser: tricky lines from the formats doc (inline text), the corpus and the samples."""

from __future__ import annotations

import re
from datetime import datetime

import pytest

from hhtool.ingest.reader import decode_bytes
from hhtool.model import ActionKind, FailedHand, Half, Hand, ParseOutcome, ShowStatus, SkippedHand, Street, Structure
from hhtool.sites import detect
from hhtool.sites.winamax import PARSER
from tests import site_helpers
from tests.site_helpers import catalogued_hands, conserved, failed_at, one_outcome, only_hand, sample_hands

HEADER = (
    "Winamax Poker - CashGame - HandId: #9401122-87-1479300000 - 7-Card Stud Hi/Lo fixed limit (5€/25€/50€)"
    " - 2016/11/16 12:40:00 UTC"
)

# A heads-up hand in the 2016 cash format: the river bet is not called, the pot is printed as two halves.
FOLD_ON_SEVENTH = f"""{HEADER}
Table: 'Perpignan' 6-max (real money)
Seat 1: Zoé B (640€)
Seat 4: Hero (1210.50€)
*** ANTE/BLINDS ***
Zoé B posts ante 5€
Hero posts ante 5€
*** 3rd STREET ***
Dealt to Zoé B [X X 4c]
Dealt to Hero [Ad 6s Jh]
Zoé B brings in 10€
Hero raises 25€ to 25€
Zoé B calls 15€
*** 4th STREET ***
Dealt to Zoé B [X X 4c] [9d]
Dealt to Hero [Ad 6s Jh] [2s]
Hero bets 25€
Zoé B calls 25€
*** 5th STREET ***
Dealt to Zoé B [X X 4c 9d] [Kh]
Dealt to Hero [Ad 6s Jh 2s] [Qc]
Zoé B checks
Hero bets 50€
Zoé B calls 50€
*** 6th STREET ***
Dealt to Zoé B [X X 4c 9d Kh] [7s]
Dealt to Hero [Ad 6s Jh 2s Qc] [8d]
Zoé B checks
Hero checks
*** 7th STREET ***
Dealt to Zoé B [X X 4c 9d Kh 7s] [X]
Dealt to Hero [Ad 6s Jh 2s Qc 8d] [3h]
Zoé B bets 50€
Hero folds
Zoé B collected 129€ from pot(HI)
Zoé B collected 129€ from pot(LO)
*** SUMMARY ***
Total pot 258€ | Rake 2€
Seat 1: Zoé B won 129€
Seat 1: Zoé B won 129€"""

# The bring-in player re-raises all-in: Winamax prints a "to" that leaves his bring-in out
# ("raises -2.50€ to 22.50€" for a real total of 32.50€, which the next call matches).
BRING_IN_RAISE = f"""{HEADER}
Table: 'Perpignan' 6-max (real money)
Seat 2: Mireille (37.50€)
Seat 3: kraken_59 (980€)
Seat 5: Hero (1210.50€)
*** ANTE/BLINDS ***
Mireille posts ante 5€
kraken_59 posts ante 5€
Hero posts ante 5€
*** 3rd STREET ***
Dealt to Mireille [X X 3d]
Dealt to kraken_59 [X X Qs]
Dealt to Hero [Kc 8s Jd]
Mireille brings in 10€
kraken_59 raises 25€ to 25€
Hero folds
Mireille raises -2.50€ to 22.50€
kraken_59 calls 7.50€
*** 4th STREET ***
Dealt to kraken_59 [X X Qs] [5h]
Dealt to Mireille [X X 3d] [Ac]
*** 5th STREET ***
Dealt to kraken_59 [X X Qs 5h] [Td]
Dealt to Mireille [X X 3d Ac] [6c]
*** 6th STREET ***
Dealt to kraken_59 [X X Qs 5h Td] [Qd]
Dealt to Mireille [X X 3d Ac 6c] [2h]
*** 7th STREET ***
Dealt to kraken_59 [X X Qs 5h Td Qd] [X]
Dealt to Mireille [X X 3d Ac 6c 2h] [X]
*** SHOW DOWN ***
kraken_59 shows [9h 9c Qs 5h Td Qd 4s] (HI : Two pairs : Queens and 9)
Mireille shows [7d 5c 3d Ac 6c 2h Kd] (HI : Straight : 7)
Mireille shows [7d 5c 3d Ac 6c 2h Kd] (LO : High card : 6)
Mireille collected 77.50€ from pot
*** SUMMARY ***
Total pot 77.50€ | Rake 2.50€
Seat 2: Mireille showed [7d 5c 3d Ac 6c 2h Kd] and won 77.50€ with HI : Straight : 7
Seat 3: kraken_59 showed [9h 9c Qs 5h Td Qd 4s] and lost with HI : Two pairs : Queens and 9"""

# Old play-money export: "*** THIRD ***" markers, "bring-in", no Dealt lines, button on seat 0,
# a side pot with halves "pot (HI)" written with a blank, an all-in call and noise lines.
OLD_HEADER = (
    "Winamax Poker - CashGame - HandId: #8835999-12-1465761000 - 7-Card Stud Hi/Lo fixed limit (0.01/0.05/0.10)"
    " - 2016/06/12 21:10:05 UTC"
)
OLD_EXPORT_SIDE_POT = f"""{OLD_HEADER}
Table: 'Brno' 6-max (play money) Seat #0 is the button
Seat 2: Ours (2.05)
Seat 3: lapin (0.30)
Seat 6: renard 3 (1.48)
*** ANTE/BLINDS ***
lapin posts ante 0.01
renard 3 posts ante 0.01
Ours posts ante 0.01
*** THIRD ***
lapin bring-in 0.02
renard 3 raises 0.05 to 0.05
Ours calls 0.05
lapin calls 0.03
*** FOURTH ***
renard 3 is disconnected
lapin checks
renard 3 bets 0.05
Ours calls 0.05
lapin calls 0.05
*** FIFTH ***
renard 3 is connected
lapin bets 0.10
renard 3 calls 0.10
Ours calls 0.10
*** SIXTH ***
renard 3 bets 0.10
Ours raises 0.10 to 0.20
lapin calls 0.09 and is all-in
renard 3 calls 0.10
*** SEVENTH ***
renard 3 checks
Ours checks
*** SHOW DOWN ***
renard 3 shows [2d Qh 6h 5c Qc 4d 3c] (HI : One pair : Queens)
renard 3 shows [2d Qh 6h 5c Qc 4d 3c] (LO : High card : 6)
Ours shows [9h Ad 8d Ts 8s Ah 6d] (HI : Two pairs : Aces and 8)
lapin shows [9c Kd Jh 9d Jc Ks 7c] (HI : Two pairs : Kings and Jacks)
Ours collected 0.11 from side pot 1 (HI)
renard 3 collected 0.11 from side pot 1 (LO)
Ours collected 0.45 from main pot (HI)
renard 3 collected 0.44 from main pot (LO)
*** SUMMARY ***
Total pot 1.11 | Rake 0.01
Seat 2: Ours showed [9h Ad 8d Ts 8s Ah 6d] and won 0.56 with HI : Two pairs : Aces and 8
Seat 6: renard 3 showed [2d Qh 6h 5c Qc 4d 3c] and won 0.55 with LO : High card : 6"""


def parse_text(text: str, file: str = "inline.txt") -> list[ParseOutcome]:
    return site_helpers.parse_text(PARSER, text, file, newline="\r\n")


def parse_one(text: str) -> Hand:
    return only_hand(parse_text(text))


def test_header_stakes_and_table() -> None:
    hand = parse_one(FOLD_ON_SEVENTH)
    assert hand.site == "winamax" and hand.hand_id == "9401122-87-1479300000"
    assert (hand.stakes.ante, hand.stakes.bring_in, hand.stakes.small_bet, hand.stakes.big_bet) == (500, 1000, 2500, 5000)
    assert (hand.stakes.currency, hand.stakes.unit, hand.stakes.structure) == ("EUR", 100, Structure.FIXED_LIMIT)
    assert hand.stakes.table_size == 6 and not hand.stakes.is_tournament
    assert hand.started_at == datetime(2016, 11, 16, 12, 40) and hand.timezone == "UTC"
    assert hand.table_name == "Perpignan" and hand.hero == "Hero"
    assert hand.seat_of("Hero").stack == 121050 and hand.seat_of("Zoé B").stack == 64000
    assert hand.game_label == "7-Card Stud Hi/Lo fixed limit"


def test_uncalled_bet_stays_in_the_collects_with_a_note() -> None:
    hand = parse_one(FOLD_ON_SEVENTH)
    assert hand.uncalled == ()
    assert [(a.amount, a.half) for a in hand.awards] == [(12900, Half.HIGH), (12900, Half.LOW)]
    assert any("uncalled" in note.text and "50€" in note.text for note in hand.notes)
    assert hand.rake == 200 and hand.total_pot == 26000  # 258€ printed is after rake
    assert conserved(hand)


def test_hidden_cards_and_seventh_street_down_card() -> None:
    hand = parse_one(FOLD_ON_SEVENTH)
    third = {deal.player: deal for deal in hand.deals if deal.street is Street.THIRD}
    assert third["Zoé B"].down == (None, None) and str(third["Zoé B"].up[0]) == "4c"
    assert [str(c) for c in third["Hero"].down] == ["Ad", "6s"]
    seventh = {deal.player: deal for deal in hand.deals if deal.street is Street.SEVENTH}
    assert seventh["Zoé B"].down == (None,) and seventh["Zoé B"].up == ()
    assert str(seventh["Hero"].down[0]) == "3h"
    fourth = [d for d in hand.deals if d.street is Street.FOURTH and d.player == "Zoé B"]
    assert str(fourth[0].up[0]) == "9d" and fourth[0].down == ()


def test_bring_in_players_raise_total_includes_his_bring_in() -> None:
    hand = parse_one(BRING_IN_RAISE)
    by_line = {action.line: action for action in hand.actions}
    completion = by_line[15]
    assert (completion.kind, completion.to_amount, completion.amount) == (ActionKind.COMPLETE, 2500, 2500)
    reraise = by_line[17]
    assert (reraise.kind, reraise.to_amount, reraise.amount) == (ActionKind.RAISE, 3250, 2250)
    assert by_line[18].to_amount == 3250  # the call of 7.50€ confirms the level
    assert any(note.line == 17 and "32.50€" in note.text for note in hand.notes)
    assert hand.seat_of("Mireille").stack == hand.contributed_by("Mireille")  # all the chips went in
    assert conserved(hand)
    shown = {s.player: s for s in hand.showdown}
    assert shown["Mireille"].high_text == "Straight : 7" and shown["Mireille"].low_text == "High card : 6"
    assert shown["Mireille"].status is ShowStatus.SHOWN and len(shown["Mireille"].cards) == 7
    assert hand.awards[0].half is Half.UNKNOWN  # "from pot" without a label


def test_old_export_side_pot_halves_all_in_and_noise() -> None:
    hand = parse_one(OLD_EXPORT_SIDE_POT)
    assert (hand.stakes.currency, hand.stakes.unit) == ("PLAY", 100)
    assert (hand.stakes.ante, hand.stakes.bring_in) == (1, 2)
    assert hand.dealer_seat == 0 and hand.position_order == ("Ours", "lapin", "renard 3")
    assert hand.deals == ()
    kinds = [a.kind for a in hand.actions if a.street is Street.THIRD and a.kind is not ActionKind.ANTE]
    assert kinds == [ActionKind.BRING_IN, ActionKind.COMPLETE, ActionKind.CALL, ActionKind.CALL]
    all_in = [a for a in hand.actions if a.all_in]
    assert [(a.player, a.amount, a.street) for a in all_in] == [("lapin", 9, Street.SIXTH)]
    raise_line = next(a for a in hand.actions if a.kind is ActionKind.RAISE)
    assert (raise_line.amount, raise_line.to_amount) == (20, 20)  # "raises 0.10 to 0.20": to, not by
    assert [(a.player, a.amount, a.pot, a.half) for a in hand.awards] == [
        ("Ours", 11, 1, Half.HIGH),
        ("renard 3", 11, 1, Half.LOW),
        ("Ours", 45, 0, Half.HIGH),
        ("renard 3", 44, 0, Half.LOW),
    ]
    assert conserved(hand)


def test_unknown_line_fails_naming_site_line_and_text() -> None:
    text = FOLD_ON_SEVENTH.replace("Zoé B checks\nHero checks", "Zoé B checks\nHero waves at the dealer")
    failed_at(one_outcome(parse_text(text, "w.txt")), "winamax", 29, "Hero waves at the dealer")


def test_truncated_last_hand_is_incomplete_and_first_hand_survives() -> None:
    truncated = "\n".join(FOLD_ON_SEVENTH.splitlines()[:20])
    outcomes = parse_text(FOLD_ON_SEVENTH + "\n\n\n" + truncated)
    assert isinstance(outcomes[0], Hand)
    assert isinstance(outcomes[1], FailedHand) and "incomplete" in outcomes[1].reason
    assert outcomes[1].raw.first_line == len(FOLD_ON_SEVENTH.splitlines()) + 3


def test_other_games_are_skipped() -> None:
    stud_hi = BRING_IN_RAISE.replace("7-Card Stud Hi/Lo fixed limit", "7-Card Stud fixed limit")
    razz = BRING_IN_RAISE.replace("7-Card Stud Hi/Lo fixed limit", "Razz fixed limit")
    outcomes = parse_text(stud_hi + "\n\n" + razz + "\n\n" + FOLD_ON_SEVENTH)
    assert [type(o) for o in outcomes] == [SkippedHand, SkippedHand, Hand]
    assert isinstance(outcomes[0], SkippedHand) and outcomes[0].game == "7-Card Stud fixed limit"


def test_sniffing() -> None:
    assert PARSER.sniff([HEADER, "Table: 'Perpignan' 6-max (real money)"])
    assert not PARSER.sniff(["PokerStars Hand #35874487284:  7 Card Stud Hi/Lo Limit ($0.04/$0.08 USD)"])
    assert not PARSER.sniff(["***** History for hand R5-78227816-62 *****"])
    assert not PARSER.sniff(["Stage #1300000000: Seven Card Hi/Lo  Normal $0.02/$0.04 - 2009-03-18 19:10:00 (ET)"])
    lines = decode_bytes(FOLD_ON_SEVENTH.encode("utf-8")).lines
    detected = detect(lines)
    assert detected is not None and detected.name == "winamax"


def test_corpus_file_counts_and_conservation() -> None:
    hands = catalogued_hands(PARSER, "Winamax", {"7-StudHL-6max-EUR-25-50-201611._8games_.txt": 1})
    assert all(conserved(hand, total_pot=True) for hand in hands)


def test_sample_histories_parse() -> None:
    hands = sample_hands(PARSER)
    assert len(hands) >= 3
    assert all(conserved(hand) for hand in hands)
    assert any(len({a.pot for a in hand.awards}) > 1 for hand in hands)  # a side pot
    assert any({Half.HIGH, Half.LOW} <= {a.half for a in hand.awards} and len({a.player for a in hand.awards}) == 2
               for hand in hands)  # a split between two players


def test_tournament_header_chips_and_id() -> None:
    header = (
        'Winamax Poker - Tournament "Stud8 Mania" buyIn: 4.50€ + 0.50€ level: 3 - HandId: #1234567-89-1479000000'
        " - 7-Card Stud Hi/Lo fixed limit (10/40/80) - 2016/11/12 23:04:10 UTC"
    )
    body = FOLD_ON_SEVENTH.split("\n", 2)[2].replace("(640€)", "(1500)").replace("(1210.50€)", "(2000)")
    chips = {"5": "10", "10": "20", "15": "20", "25": "40", "50": "80", "129": "206", "258": "412", "2": "8"}
    body = re.sub(r"(?<![\d.])(\d+)€", lambda amount: chips[amount.group(1)], body)
    text = f"{header}\nTable: 'Stud8 Mania(987654)#003' 8-max (real money)\n{body}"
    hand = parse_one(text)
    assert (hand.stakes.currency, hand.stakes.unit, hand.stakes.is_tournament) == ("CHIPS", 1, True)
    assert (hand.stakes.ante, hand.stakes.bring_in, hand.stakes.small_bet, hand.stakes.big_bet) == (10, 20, 40, 80)
    assert hand.tournament_id == "987654" and hand.stakes.table_size == 8
    assert conserved(hand)


@pytest.mark.parametrize("stakes", ["5€ / 25€ / 50€", "5 € / 25 € / 50 €", "5€/25€/50€"])
def test_header_stakes_read_tolerantly(stakes: str) -> None:
    hand = parse_one(FOLD_ON_SEVENTH.replace("(5€/25€/50€)", f"({stakes})", 1))
    assert (hand.stakes.ante, hand.stakes.small_bet, hand.stakes.big_bet) == (500, 2500, 5000)


def test_header_time_without_seconds_and_a_letter_in_the_stakes() -> None:
    hand = parse_one(FOLD_ON_SEVENTH.replace("2016/11/16 12:40:00 UTC", "2016/11/16 12:40 UTC", 1))
    assert hand.started_at == datetime(2016, 11, 16, 12, 40)
    outcomes = site_helpers.parse_text(PARSER, FOLD_ON_SEVENTH.replace("(5€/25€/50€)", "(5€/2S€/50€)", 1))
    assert [type(outcome).__name__ for outcome in outcomes] == ["FailedHand"], outcomes
