"""Winamax Stud Hi/Lo parser: tricky lines from the formats doc (inline text), the corpus and the samples."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from hhtool.model import ActionKind, FailedHand, Half, Hand, ParseOutcome, ShowStatus, SkippedHand, Street, Structure
from hhtool.reader import decode_bytes, read_file
from hhtool.sites import detect
from hhtool.sites.winamax import PARSER

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
SAMPLES = Path(__file__).resolve().parents[1] / "sample_histories" / "winamax"

HEADER = (
    "Winamax Poker - CashGame - HandId: #9250793-554-1478991850 - 7-Card Stud Hi/Lo fixed limit (5€/25€/50€)"
    " - 2016/11/12 23:04:10 UTC"
)

# A heads-up hand in the 2016 cash format: the river bet is not called, the pot is printed as two halves.
FOLD_ON_SEVENTH = f"""{HEADER}
Table: 'Pampelune' 6-max (real money)
Seat 1: Hero (2026.03€)
Seat 2: Player0 (572€)
*** ANTE/BLINDS ***
Hero posts ante 5€
Player0 posts ante 5€
*** 3rd STREET ***
Dealt to Hero [8c Tc 7c]
Dealt to Player0 [X X 8h]
Hero brings in 10€
Player0 calls 10€
*** 4th STREET ***
Dealt to Player0 [X X 8h] [Ks]
Dealt to Hero [8c Tc 7c] [2d]
Player0 checks
Hero bets 25€
Player0 calls 25€
*** 5th STREET ***
Dealt to Player0 [X X 8h Ks] [As]
Dealt to Hero [8c Tc 7c 2d] [Kc]
Player0 checks
Hero bets 50€
Player0 calls 50€
*** 6th STREET ***
Dealt to Player0 [X X 8h Ks As] [5h]
Dealt to Hero [8c Tc 7c 2d Kc] [Qh]
Player0 checks
Hero checks
*** 7th STREET ***
Dealt to Player0 [X X 8h Ks As 5h] [X]
Dealt to Hero [8c Tc 7c 2d Kc Qh] [3h]
Player0 bets 50€
Hero folds
Player0 collected 114€ from pot(HI)
Player0 collected 114€ from pot(LO)
*** SUMMARY ***
Total pot 228€ | Rake 2€
Seat 2: Player0 won 114€
Seat 2: Player0 won 114€"""

# The bring-in player re-raises all-in: Winamax prints a "to" without his bring-in (real total 28.90€).
BRING_IN_RAISE = f"""{HEADER}
Table: 'Pampelune' 6-max (real money)
Seat 2: Player0 (33.90€)
Seat 3: Player1 (2417.80€)
Seat 5: Hero (802.07€)
*** ANTE/BLINDS ***
Player0 posts ante 5€
Player1 posts ante 5€
Hero posts ante 5€
*** 3rd STREET ***
Dealt to Player0 [X X 8h]
Dealt to Player1 [X X Kc]
Dealt to Hero [Kd 3s 9h]
Player0 brings in 10€
Player1 raises 25€ to 25€
Hero folds
Player0 raises -6.10€ to 18.90€
Player1 calls 3.90€
*** 4th STREET ***
Dealt to Player1 [X X Kc] [6d]
Dealt to Player0 [X X 8h] [5c]
*** 5th STREET ***
Dealt to Player1 [X X Kc 6d] [7d]
Dealt to Player0 [X X 8h 5c] [Js]
*** 6th STREET ***
Dealt to Player1 [X X Kc 6d 7d] [2d]
Dealt to Player0 [X X 8h 5c Js] [Ad]
*** 7th STREET ***
Dealt to Player1 [X X Kc 6d 7d 2d] [X]
Dealt to Player0 [X X 8h 5c Js Ad] [X]
*** SHOW DOWN ***
Player1 shows [Jh 6h Kc 6d 7d 2d 9s] (HI : One pair : 6)
Player0 shows [4d Ac 8h 5c Js Ad Ts] (HI : One pair : Aces)
Player0 shows [4d Ac 8h 5c Js Ad Ts] (LO : High card : 8)
Player0 collected 70.30€ from pot
*** SUMMARY ***
Total pot 70.30€ | Rake 2.50€
Seat 2: Player0 showed [4d Ac 8h 5c Js Ad Ts] and won 70.30€ with HI : One pair : Aces
Seat 3: Player1 showed [Jh 6h Kc 6d 7d 2d 9s] and lost with HI : One pair : 6"""

# Old play-money export: "*** THIRD ***" markers, "bring-in", no Dealt lines, button on seat 0,
# a side pot with halves "pot (HI)" written with a blank, an all-in call and noise lines.
OLD_HEADER = (
    "Winamax Poker - CashGame - HandId: #8835086-564-1465760198 - 7-Card Stud Hi/Lo fixed limit (0.01/0.05/0.10)"
    " - 2016/06/12 19:36:38 UTC"
)
OLD_EXPORT_SIDE_POT = f"""{OLD_HEADER}
Table: 'Ceske Budejovice' 6-max (play money) Seat #0 is the button
Seat 2: Player0 (2.05)
Seat 3: Player1 (0.30)
Seat 6: Player2 (1.48)
*** ANTE/BLINDS ***
Player1 posts ante 0.01
Player2 posts ante 0.01
Player0 posts ante 0.01
*** THIRD ***
Player1 bring-in 0.02
Player2 raises 0.05 to 0.05
Player0 calls 0.05
Player1 calls 0.03
*** FOURTH ***
Player2 is disconnected
Player1 checks
Player2 bets 0.05
Player0 calls 0.05
Player1 calls 0.05
*** FIFTH ***
Player2 is connected
Player1 bets 0.10
Player2 calls 0.10
Player0 calls 0.10
*** SIXTH ***
Player2 bets 0.10
Player0 raises 0.10 to 0.20
Player1 calls 0.09 and is all-in
Player2 calls 0.10
*** SEVENTH ***
Player2 checks
Player0 checks
*** SHOW DOWN ***
Player2 shows [4h Kd 5h 4s Kc 3s 2d] (HI : Two pairs : Kings and 4)
Player2 shows [4h Kd 5h 4s Kc 3s 2d] (LO : High card : 5)
Player0 shows [8h Ac 7d Th 7s As 6s] (HI : Two pairs : Aces and 7)
Player1 shows [9c Qd Jh 9h Jc Qc 8d] (HI : Two pairs : Queens and Jacks)
Player0 collected 0.11 from side pot 1 (HI)
Player2 collected 0.11 from side pot 1 (LO)
Player0 collected 0.45 from main pot (HI)
Player2 collected 0.44 from main pot (LO)
*** SUMMARY ***
Total pot 1.11 | Rake 0.01
Seat 2: Player0 showed [8h Ac 7d Th 7s As 6s] and won 0.56 with HI : Two pairs : Aces and 7
Seat 6: Player2 showed [4h Kd 5h 4s Kc 3s 2d] and won 0.55 with LO : High card : 5"""


def parse_text(text: str, file: str = "inline.txt") -> list[ParseOutcome]:
    lines = decode_bytes(text.replace("\n", "\r\n").encode("utf-8")).lines
    return [PARSER.parse(raw) for raw in PARSER.split(lines, file)]


def parse_one(text: str) -> Hand:
    (outcome,) = parse_text(text)
    assert isinstance(outcome, Hand), outcome
    return outcome


def conserved(hand: Hand) -> bool:
    put_in = sum(hand.contributed_by(player) for player in hand.players)
    return put_in == sum(award.amount for award in hand.awards) + (hand.rake or 0) + hand.fees


def test_header_stakes_and_table() -> None:
    hand = parse_one(FOLD_ON_SEVENTH)
    assert hand.site == "winamax" and hand.hand_id == "9250793-554-1478991850"
    assert (hand.stakes.ante, hand.stakes.bring_in, hand.stakes.small_bet, hand.stakes.big_bet) == (500, 1000, 2500, 5000)
    assert (hand.stakes.currency, hand.stakes.unit, hand.stakes.structure) == ("EUR", 100, Structure.FIXED_LIMIT)
    assert hand.stakes.table_size == 6 and not hand.stakes.is_tournament
    assert hand.started_at == datetime(2016, 11, 12, 23, 4, 10) and hand.timezone == "UTC"
    assert hand.table_name == "Pampelune" and hand.hero == "Hero"
    assert hand.seat_of("Hero").stack == 202603
    assert hand.game_label == "7-Card Stud Hi/Lo fixed limit"


def test_uncalled_bet_stays_in_the_collects_with_a_note() -> None:
    hand = parse_one(FOLD_ON_SEVENTH)
    assert hand.uncalled == ()
    assert [(a.amount, a.half) for a in hand.awards] == [(11400, Half.HIGH), (11400, Half.LOW)]
    assert any("uncalled" in note and "50€" in note for note in hand.notes)
    assert hand.rake == 200 and hand.total_pot == 23000  # 228€ printed is after rake
    assert conserved(hand)


def test_hidden_cards_and_seventh_street_down_card() -> None:
    hand = parse_one(FOLD_ON_SEVENTH)
    third = {deal.player: deal for deal in hand.deals if deal.street is Street.THIRD}
    assert third["Player0"].down == (None, None) and str(third["Player0"].up[0]) == "8h"
    assert [str(c) for c in third["Hero"].down] == ["8c", "Tc"]
    seventh = {deal.player: deal for deal in hand.deals if deal.street is Street.SEVENTH}
    assert seventh["Player0"].down == (None,) and seventh["Player0"].up == ()
    assert str(seventh["Hero"].down[0]) == "3h"
    fourth = [d for d in hand.deals if d.street is Street.FOURTH and d.player == "Player0"]
    assert str(fourth[0].up[0]) == "Ks" and fourth[0].down == ()


def test_bring_in_players_raise_total_includes_his_bring_in() -> None:
    hand = parse_one(BRING_IN_RAISE)
    by_line = {action.line: action for action in hand.actions}
    completion = by_line[15]
    assert (completion.kind, completion.to_amount, completion.amount) == (ActionKind.COMPLETE, 2500, 2500)
    reraise = by_line[17]
    assert (reraise.kind, reraise.to_amount, reraise.amount) == (ActionKind.RAISE, 2890, 1890)
    assert by_line[18].to_amount == 2890  # the call of 3.90€ confirms the level
    assert any("line 17" in note and "28.90€" in note for note in hand.notes)
    assert hand.seat_of("Player0").stack == hand.contributed_by("Player0")  # all the chips went in
    assert conserved(hand)
    shown = {s.player: s for s in hand.showdown}
    assert shown["Player0"].high_text == "One pair : Aces" and shown["Player0"].low_text == "High card : 8"
    assert shown["Player0"].status is ShowStatus.SHOWN and len(shown["Player0"].cards) == 7
    assert hand.awards[0].half is Half.UNKNOWN  # "from pot" without a label


def test_old_export_side_pot_halves_all_in_and_noise() -> None:
    hand = parse_one(OLD_EXPORT_SIDE_POT)
    assert (hand.stakes.currency, hand.stakes.unit) == ("PLAY", 100)
    assert (hand.stakes.ante, hand.stakes.bring_in) == (1, 2)
    assert hand.dealer_seat == 0 and hand.position_order == ("Player0", "Player1", "Player2")
    assert hand.deals == ()
    kinds = [a.kind for a in hand.actions if a.street is Street.THIRD and a.kind is not ActionKind.ANTE]
    assert kinds == [ActionKind.BRING_IN, ActionKind.COMPLETE, ActionKind.CALL, ActionKind.CALL]
    all_in = [a for a in hand.actions if a.all_in]
    assert [(a.player, a.amount, a.street) for a in all_in] == [("Player1", 9, Street.SIXTH)]
    raise_line = next(a for a in hand.actions if a.kind is ActionKind.RAISE)
    assert (raise_line.amount, raise_line.to_amount) == (20, 20)  # "raises 0.10 to 0.20": to, not by
    assert [(a.player, a.amount, a.pot, a.half) for a in hand.awards] == [
        ("Player0", 11, 1, Half.HIGH),
        ("Player2", 11, 1, Half.LOW),
        ("Player0", 45, 0, Half.HIGH),
        ("Player2", 44, 0, Half.LOW),
    ]
    assert conserved(hand)


def test_unknown_line_fails_naming_site_line_and_text() -> None:
    text = FOLD_ON_SEVENTH.replace("Player0 checks\nHero checks", "Player0 checks\nHero waves at the dealer")
    (outcome,) = parse_text(text, "w.txt")
    assert isinstance(outcome, FailedHand)
    assert outcome.line == 29
    assert outcome.reason.startswith("winamax:") and "Hero waves at the dealer" in outcome.reason


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
    assert PARSER.sniff([HEADER, "Table: 'Pampelune' 6-max (real money)"])
    assert not PARSER.sniff(["PokerStars Hand #35874487284:  7 Card Stud Hi/Lo Limit ($0.04/$0.08 USD)"])
    assert not PARSER.sniff(["***** History for hand R5-78227816-62 *****"])
    assert not PARSER.sniff(["Stage #1300000000: Seven Card Hi/Lo  Normal $0.02/$0.04 - 2009-03-18 19:10:00 (ET)"])
    lines = decode_bytes(FOLD_ON_SEVENTH.encode("utf-8")).lines
    detected = detect(lines)
    assert detected is not None and detected.name == "winamax"


def test_corpus_file_counts_and_conservation() -> None:
    folder = CORPUS / "Winamax"
    if not folder.is_dir():
        pytest.skip("../shared corpus not present")
    expected = {"7-StudHL-6max-EUR-25-50-201611._8games_.txt": 1}
    for name, count in expected.items():
        path = folder / name
        outcomes = [PARSER.parse(raw) for raw in PARSER.split(read_file(path).lines, str(path))]
        hands = [o for o in outcomes if isinstance(o, Hand)]
        assert [o for o in outcomes if isinstance(o, FailedHand)] == []
        assert len(hands) == count
        for hand in hands:
            assert conserved(hand)
            assert hand.total_pot == sum(hand.contributed_by(p) for p in hand.players)


def test_sample_histories_parse() -> None:
    files = sorted(SAMPLES.glob("*.txt"))
    assert files
    hands: list[Hand] = []
    for path in files:
        outcomes = [PARSER.parse(raw) for raw in PARSER.split(read_file(path).lines, str(path))]
        assert [o for o in outcomes if not isinstance(o, Hand)] == []
        hands += [o for o in outcomes if isinstance(o, Hand)]
    assert len(hands) >= 3
    assert all(conserved(hand) for hand in hands)
    assert any(len({a.pot for a in hand.awards}) > 1 for hand in hands)  # a side pot
    assert any({Half.HIGH, Half.LOW} <= {a.half for a in hand.awards} and len({a.player for a in hand.awards}) == 2
               for hand in hands)  # a split between two players
