"""Winning Poker Network parser, both exports: tricky lines from the formats doc (inline, no corpus
needed), the corpus file (skipped without ../shared) and the hand-written sample histories."""

from __future__ import annotations

from datetime import datetime

import pytest

from hhtool.ingest.reader import decode_bytes
from hhtool.model import Action, ActionKind, Card, FailedHand, Half, Hand, ShowStatus, SkippedHand, Street, Structure
from hhtool.sites import detect
from hhtool.sites.winning import PARSER
from tests.site_helpers import (
    conserved,
    corpus_outcomes,
    corpus_path,
    failed_at,
    only_hand,
    parse_text,
    sample_files,
    sample_hands,
)

# Old export: one line per card, "*** Third street ***" introduces 4th street, amounts added.
OLD = """Game started at: 2017/3/4 9:5:1
Game ID: 800000001 1/2 (PRR) Wendigo - 4 (Seven Cards Stud HiLow)
Seat 1: Ada Byron (20).
Seat 3: Bert (2.15).
Seat 6: Cleo (5.05).
Seat 8: Dora (9).
Player Dora sitting out
Player Ada Byron ante (0.15)
Player Bert ante (0.15)
Player Cleo ante (0.15)
Player Ada Byron received card: [10d]
Player Ada Byron received card: [2c]
Player Bert received a card.
Player Bert received a card.
Player Cleo received a card.
Player Cleo received a card.
Player Ada Byron received card: [Ks]
Player Bert received card: [3d]
Player Cleo received card: [9h]
Player Bert bring in (0.40)
Player Cleo calls (0.40)
Player Ada Byron raises (1)
Player Bert calls (0.60)
Player Cleo calls (0.60)
*** Third street ***
Player Ada Byron received card: [Kd]
Player Bert received card: [7c]
Player Cleo received card: [2d]
Player Ada Byron bets (1)
Player Bert allin (1)
Player Cleo raises (2)
Player Ada Byron calls (1)
*** Fourth street ***
Player Ada Byron received card: [4h]
Player Bert received card: [8s]
Player Cleo received card: [Ah]
Player Cleo is timed out.
Player Ada Byron bets (2)
Player Cleo allin
Uncalled bet (0.10) returned to Ada Byron
*** Fifth street ***
Player Ada Byron received card: [5s]
Player Bert received card: [6h]
Player Cleo received card: [Qc]
*** Sixth street ***
Player Ada Byron received card: [10s]
Player Bert received a card.
Player Cleo received a card.
------ Summary ------
Pot: 11.60. Rake 0.55. JP fee 0.10
*Player Ada Byron shows: Two pairs. Ks and 10s [10d 2c Ks Kd 4h 5s 10s]. Bets: 5.05. Collects: 5.60. Wins: 0.55.
*Player Bert shows: Straight [4c 5d 3d 7c 8s 6h 9c] Low hand (3 4 5 6 7 ).Bets: 2.15. Collects: 6. Wins: 3.85.
Player Cleo mucks (does not show cards). Bets: 5.05. Collects: 0. Loses: 5.05.
Player Dora does not show cards.Bets: 0. Collects: 0. Loses: 0.
Game ended at: 2017/3/4 9:6:40"""


def _outcomes(text: str) -> list[Hand | FailedHand | SkippedHand]:
    return parse_text(PARSER, text)


def _hand(text: str) -> Hand:
    return only_hand(_outcomes(text))


def _bets(hand: Hand, street: Street) -> list[Action]:
    return [a for a in hand.actions if a.street is street and a.kind is not ActionKind.ANTE]


def test_old_header_stakes_seats_and_sitting_out() -> None:
    hand = _hand(OLD)
    assert hand.hand_id == "800000001" and hand.game_label == "Seven Cards Stud HiLow"
    assert hand.table_name == "(PRR) Wendigo - 4"
    assert hand.started_at == datetime(2017, 3, 4, 9, 5, 1)
    stakes = hand.stakes
    assert (stakes.ante, stakes.bring_in, stakes.small_bet, stakes.big_bet) == (15, 40, 100, 200)
    assert stakes.bring_in_source == "posted" and stakes.currency == "USD" and stakes.structure is Structure.FIXED_LIMIT
    assert [(s.seat, s.player, s.stack, s.sitting_out) for s in hand.seats] == [
        (1, "Ada Byron", 2000, False), (3, "Bert", 215, False), (6, "Cleo", 505, False), (8, "Dora", 900, True),
    ]


def test_old_one_line_per_card_and_shifted_streets() -> None:
    hand = _hand(OLD)
    assert hand.hero == "Ada Byron"
    ada = [(d.street, d.down, d.up) for d in hand.deals if d.player == "Ada Byron"]
    assert ada[0] == (Street.THIRD, (Card.parse("Td"), Card.parse("2c")), (Card.parse("Ks"),))
    assert ada[1] == (Street.FOURTH, (), (Card.parse("Kd"),))  # after "*** Third street ***"
    assert ada[-1] == (Street.SEVENTH, (Card.parse("Ts"),), ())  # "[10s]" after "*** Sixth street ***"
    bert = [(d.street, d.down, d.up) for d in hand.deals if d.player == "Bert"]
    assert bert[0] == (Street.THIRD, (None, None), (Card.parse("3d"),)) and bert[-1] == (Street.SEVENTH, (None,), ())
    assert {d.street for d in hand.deals} == set(Street)


def test_old_amounts_are_chips_added_and_allin_is_classified() -> None:
    hand = _hand(OLD)
    third = [(a.player, a.kind, a.amount, a.to_amount) for a in _bets(hand, Street.THIRD)]
    assert third == [
        ("Bert", ActionKind.BRING_IN, 40, 40),
        ("Cleo", ActionKind.CALL, 40, 40),
        ("Ada Byron", ActionKind.COMPLETE, 100, 100),  # "raises (1)" over the bring-in
        ("Bert", ActionKind.CALL, 60, 100),
        ("Cleo", ActionKind.CALL, 60, 100),
    ]
    fourth = [(a.player, a.kind, a.amount, a.to_amount, a.all_in) for a in hand.actions if a.street is Street.FOURTH]
    assert fourth == [
        ("Ada Byron", ActionKind.BET, 100, 100, False),
        ("Bert", ActionKind.CALL, 100, 100, True),  # "allin (1)" that only calls
        ("Cleo", ActionKind.RAISE, 200, 200, False),  # "raises (2)" = call 1 + raise 1
        ("Ada Byron", ActionKind.CALL, 100, 200, False),
    ]
    fifth = [(a.player, a.kind, a.amount, a.all_in) for a in hand.actions if a.street is Street.FIFTH]
    # "allin" without an amount (after "is timed out."): Cleo's remaining 5.05 - 0.15 - 1 - 2 = 1.90
    assert fifth == [("Ada Byron", ActionKind.BET, 200, False), ("Cleo", ActionKind.CALL, 190, True)]


def test_old_uncalled_summary_awards_pot_rake_and_jackpot_fee() -> None:
    hand = _hand(OLD)
    assert [(r.player, r.amount, r.street) for r in hand.uncalled] == [("Ada Byron", 10, Street.FIFTH)]
    assert hand.rake == 55 and hand.fees == 10 and hand.total_pot == 1160 + 55 + 10
    assert sum(hand.contributed_by(p) for p in hand.players) == hand.total_pot and conserved(hand)
    # one "Collects" total per player over all pots: with an all-in the pot is not named
    assert [(a.player, a.amount, a.pot, a.half) for a in hand.awards] == [
        ("Ada Byron", 560, None, Half.UNKNOWN), ("Bert", 600, None, Half.UNKNOWN),
    ]
    assert hand.notes == ()
    shown = {s.player: s for s in hand.showdown}
    assert shown["Ada Byron"].status is ShowStatus.SHOWN and shown["Ada Byron"].high_text == "Two pairs. Ks and 10s"
    assert shown["Bert"].low_text == "3 4 5 6 7" and len(shown["Bert"].cards) == 7
    assert shown["Cleo"].status is ShowStatus.MUCKED and "Dora" not in shown


def test_old_summary_bets_disagreement_becomes_a_note() -> None:
    hand = _hand(OLD.replace("Bets: 5.05. Collects: 0. Loses: 5.05.", "Bets: 5.60. Collects: 0. Loses: 5.60."))
    assert len(hand.notes) == 1 and "Cleo" in hand.notes[0].text and "Bets 5.60" in hand.notes[0].text


def test_old_unknown_line_and_truncated_hand() -> None:
    bad = _outcomes(OLD.replace("Player Ada Byron calls (1)", "Player Ada Byron dances (1)"))[0]
    failed_at(bad, "winning", 32, "Player Ada Byron dances (1)")
    truncated = OLD + "\n\n" + "\n".join(OLD.splitlines()[:6])
    outcomes = _outcomes(truncated)
    assert isinstance(outcomes[0], Hand)
    assert isinstance(outcomes[1], FailedHand) and "incomplete" in outcomes[1].reason
    cut = _outcomes(OLD.rsplit("\n", 1)[0])[0]  # "Game ended at:" missing
    assert isinstance(cut, FailedHand) and "incomplete" in cut.reason


def test_old_other_games_are_skipped() -> None:
    stud_hi = _outcomes(OLD.replace("(Seven Cards Stud HiLow)", "(Seven Cards Stud)"))[0]
    assert isinstance(stud_hi, SkippedHand) and stud_hi.game == "Seven Cards Stud" and stud_hi.hand_id == "800000001"
    omaha = _outcomes(OLD.replace("(Seven Cards Stud HiLow)", "(Omaha HiLow)"))[0]
    assert isinstance(omaha, SkippedHand)


def test_old_marker_that_contradicts_the_deals_fails() -> None:
    outcome = _outcomes(OLD.replace("*** Fifth street ***", "*** Sixth street ***"))[0]
    assert isinstance(outcome, FailedHand) and "says 7th" in outcome.reason and outcome.line == 41


# Newer export: Stars-like, "raises X to Y", collected lines per pot, JP fee.
ACR = """Hand #1999000001 - 7Stud H/L(Fixed Limit) - $0.10/$0.20 - 2023/11/02 21:04:10 UTC
Orinda 8-max
Seat 1: Ann ($3.00)
Seat 4: Ben ($0.47)
Seat 6: Cal ($9.10)
Ben posts ante $0.02
Cal posts ante $0.02
Ann posts ante $0.02
*** 3rd STREET ***
Main pot $0.06 | Rake $0.00
Dealt to Ann [Ah 3c 5d]
Dealt to Ben [2s]
Dealt to Cal [Kd]
Ben brings in $0.05
Cal raises $0.10 to $0.10
Ann raises $0.20 to $0.20
Ben calls $0.15
Cal calls $0.10
*** 4th STREET ***
Main pot $0.66 | Rake $0.00
Dealt to Ann [Ah 3c 5d] [4c]
Dealt to Ben [2s] [7h]
Dealt to Cal [Kd] [Kh]
Cal bets $0.10
Ann calls $0.10
Ben calls $0.10
Player Zed is disconnected
*** 5th STREET ***
Main pot $0.94 | Rake $0.02
Dealt to Ann [Ah 3c 5d 4c] [9d]
Dealt to Ben [2s 7h] [8c]
Dealt to Cal [Kd Kh] [Qs]
Cal bets $0.20
Ann calls $0.20
Ben calls $0.15 and is all-in
*** 6th STREET ***
Main pot $1.37 | Rake $0.04
Side pot(1) $0.10 | Rake $0.00
Dealt to Ann [Ah 3c 5d 4c 9d] [Jh]
Dealt to Ben [2s 7h 8c] [3h]
Dealt to Cal [Kd Kh Qs] [Tc]
Cal checks
Ann checks
*** 7th STREET ***
Main pot $1.37 | Rake $0.04
Side pot(1) $0.10 | Rake $0.00
Dealt to Ann [Ah 3c 5d 4c 9d Jh] [6s]
Cal bets $0.20
Ann calls $0.20
*** SHOW DOWN ***
Main pot $1.37 | Rake $0.04
Side pot(1) $0.50 | Rake $0.00
Cal shows [Ks Qd Kd Kh Qs Tc 2c] (HI - a full house, Kings full of Queens [Ks Kd Kh Qs Qd])
Ann shows [Ah 3c 5d 4c 9d Jh 6s] (HI - a straight, Six high [6s 5d 4c 3c Ah] | LO - [6,5,4,3,1])
Ben shows [6d 4h 2s 7h 8c 3h 9c] (HI - a high card, Nine high [9c 8c 7h 6d 4h] | LO - [7,6,4,3,2])
Cal collected $0.25 from side pot-1
Ann collected $0.25 from side pot-1
Cal collected $0.69 from main pot
Ann collected $0.68 from main pot
*** SUMMARY ***
Total pot $1.87 | Rake $0.03 | JP Fee $0.01
Seat 1: Ann showed [Ah 3c 5d 4c 9d Jh 6s] and won $0.93 with HI - a straight, Six high [6s 5d 4c 3c Ah] | LO - [6,5,4,3,1]
Seat 4: Ben showed [6d 4h 2s 7h 8c 3h 9c] and lost with HI - a high card, Nine high [9c 8c 7h 6d 4h] | LO - [7,6,4,3,2]
Seat 6: Cal showed [Ks Qd Kd Kh Qs Tc 2c] and won $0.94 with HI - a full house, Kings full of Queens [Ks Kd Kh Qs Qd]"""

ACR_FOLD = """Hand #1999000002 - 7Stud H/L(Fixed Limit) - $0.10/$0.20 - 2023/11/02 21:06:00 UTC
Orinda 8-max
Seat 1: Ann ($3.93)
Seat 6: Cal ($9.18)
Ann posts ante $0.02
Cal posts ante $0.02
*** 3rd STREET ***
Main pot $0.04 | Rake $0.00
Dealt to Ann [Ah 3c 5d]
Dealt to Cal [2c]
Cal brings in $0.05
Ann raises $0.10 to $0.10
Cal folds
Uncalled bet ($0.05) returned to Ann
Ann does not show
*** SUMMARY ***
Total pot $0.14 | Rake $0.00
Seat 1: Ann did not show and won $0.14
Seat 6: Cal folded on the 3rd Street"""


def test_acr_header_and_stakes() -> None:
    hand = _hand(ACR)
    assert hand.hand_id == "1999000001" and hand.game_label == "7Stud H/L(Fixed Limit)"
    assert hand.started_at == datetime(2023, 11, 2, 21, 4, 10) and hand.timezone == "UTC"
    assert hand.table_name == "Orinda" and hand.hero == "Ann"
    stakes = hand.stakes
    assert (stakes.ante, stakes.bring_in, stakes.small_bet, stakes.big_bet, stakes.currency) == (2, 5, 10, 20, "USD")
    assert not stakes.is_tournament and stakes.bring_in_source == "posted"


def test_acr_completion_raise_to_and_all_in() -> None:
    hand = _hand(ACR)
    third = [(a.player, a.kind, a.amount, a.to_amount) for a in _bets(hand, Street.THIRD)]
    assert third == [
        ("Ben", ActionKind.BRING_IN, 5, 5),
        ("Cal", ActionKind.COMPLETE, 10, 10),  # "raises $0.10 to $0.10"
        ("Ann", ActionKind.RAISE, 20, 20),
        ("Ben", ActionKind.CALL, 15, 20),
        ("Cal", ActionKind.CALL, 10, 20),
    ]
    ben = [a for a in hand.actions if a.player == "Ben" and a.street is Street.FIFTH]
    assert ben[0].kind is ActionKind.CALL and ben[0].all_in and ben[0].amount == 15
    assert hand.notes == ()


def test_acr_pots_fee_and_shows() -> None:
    hand = _hand(ACR)
    assert [(a.player, a.amount, a.pot) for a in hand.awards] == [("Cal", 25, 1), ("Ann", 25, 1), ("Cal", 69, 0), ("Ann", 68, 0)]
    assert all(a.half is Half.UNKNOWN for a in hand.awards)
    assert hand.rake == 3 and hand.fees == 1 and hand.total_pot == 191
    assert conserved(hand) and sum(hand.contributed_by(p) for p in hand.players) == hand.total_pot
    shown = {s.player: s for s in hand.showdown}
    assert shown["Ann"].low_text == "[6,5,4,3,1]" and shown["Ann"].high_text is not None
    assert shown["Cal"].low_text is None and shown["Cal"].high_text.startswith("a full house")  # type: ignore[union-attr]
    seventh = [d for d in hand.deals if d.street is Street.SEVENTH]
    assert [(d.player, d.down) for d in seventh] == [("Ann", (Card.parse("6s"),))]  # opponents' 7th not printed


def test_acr_fold_out_winner_from_summary() -> None:
    hand = _hand(ACR_FOLD)
    assert [(a.player, a.amount, a.pot, a.half) for a in hand.awards] == [("Ann", 14, 0, Half.WHOLE)]
    assert [(r.player, r.amount) for r in hand.uncalled] == [("Ann", 5)]
    assert [(s.player, s.status) for s in hand.showdown] == [("Ann", ShowStatus.NOT_SHOWN)]
    assert conserved(hand) and hand.fees == 0


def test_acr_other_games_tournaments_and_errors() -> None:
    stud_hi = _outcomes(ACR.replace("7Stud H/L(Fixed Limit)", "7Stud(Fixed Limit)"))[0]
    assert isinstance(stud_hi, SkippedHand) and stud_hi.game == "7Stud(Fixed Limit)"
    tournament = ACR_FOLD.replace(
        "Hand #1999000002 - 7Stud H/L(Fixed Limit) - $0.10/$0.20 -",
        "Game Hand #1999000002 - Tournament #11212445 - 7Stud H/L(Fixed Limit) - Level 1 (100.00/200.00)-",
    ).replace("$", "")
    tournament = tournament.replace("0.02", "20").replace("0.04", "40").replace("0.05", "50").replace("0.10", "100")
    tournament = tournament.replace("0.14", "140").replace("0.00", "0").replace("3.93", "3930").replace("9.18", "9180")
    hand = _hand(tournament)
    assert hand.stakes.is_tournament and hand.stakes.unit == 1 and hand.stakes.currency == "CHIPS"
    assert hand.tournament_id == "11212445" and hand.stakes.small_bet == 100 and conserved(hand)
    failed_at(_outcomes(ACR.replace("Ann checks", "Ann ponders"))[0], "winning", 43, "Ann ponders")
    cut = _outcomes(ACR.split("*** SHOW DOWN ***")[0])[0]
    assert isinstance(cut, FailedHand) and "incomplete" in cut.reason


def test_sniff_claims_both_exports_only() -> None:
    old = decode_bytes(OLD.encode("utf-16")).lines
    acr = decode_bytes(ACR.encode()).lines
    assert detect(old) is PARSER and detect(acr) is PARSER
    kings = ["#39969428: Limit Seven Card Stud Hi-Lo - 40/80", "2021-01-02 15:52:36"]
    stars = ["PokerStars Hand #35874487284:  7 Card Stud Hi/Lo Limit ($0.04/$0.08) - 2009/11/25 14:17:35 ET"]
    assert not PARSER.sniff(kings) and not PARSER.sniff(stars)
    assert not PARSER.sniff(["Game started at: 2016/8/2 11:13:2", "Table 'x'"])


# Current ACR export (2026): a space before the limit and the ante in the header; the rest of the hand
# as the 2019+ export (public parsers of 2026 files read the same stud markers, "Main pot … | Rake …"
# lines, "brings in", "raises X to Y" and summary seat lines).
ACR_2026 = """Hand #2672065780 - 7Stud H/L (Fixed Limit) - $0.04/$0.08, Ante $0.01 - 2026/02/16 03:36:34 UTC
Pinecrest 8-max
Seat 2: Dara ($2.40)
Seat 5: Eli ($1.95)
Seat 8: Fen ($4.00) is sitting out
Dara posts ante $0.01
Eli posts ante $0.01
*** 3rd STREET ***
Main pot $0.02 | Rake $0.00
Dealt to Dara [4d 6h 2c]
Dealt to Eli [Kd]
Dara brings in $0.02
Eli raises $0.04 to $0.04
Dara calls $0.02
*** 4th STREET ***
Main pot $0.10 | Rake $0.00
Dealt to Dara [4d 6h 2c] [5s]
Dealt to Eli [Kd] [Kc]
Eli bets $0.04
Dara folds
Uncalled bet ($0.04) returned to Eli
Eli does not show
*** SUMMARY ***
Total pot $0.10 | Rake $0.00
Seat 2: Dara folded on the 4th Street
Seat 5: Eli did not show and won $0.10"""


def test_acr_2026_header_with_ante_and_spaced_limit() -> None:
    lines = decode_bytes(ACR_2026.encode()).lines
    assert detect(lines) is PARSER  # today's files were not even recognised
    hand = _hand(ACR_2026)
    assert hand.hand_id == "2672065780" and hand.game_label == "7Stud H/L(Fixed Limit)"
    assert hand.started_at == datetime(2026, 2, 16, 3, 36, 34) and hand.timezone == "UTC"
    stakes = hand.stakes
    assert (stakes.ante, stakes.bring_in, stakes.small_bet, stakes.big_bet, stakes.currency) == (1, 2, 4, 8, "USD")
    assert [(a.player, a.amount, a.half) for a in hand.awards] == [("Eli", 10, Half.WHOLE)]
    assert conserved(hand)


def test_acr_2026_header_ante_is_the_header_s_not_the_posts() -> None:
    """The header states the ante: a hand posting another amount keeps the header's (the audit
    compares the posts with it), where the 2019 export, without one, takes the posted ante."""
    posted_two = ACR_2026.replace("posts ante $0.01", "posts ante $0.02").replace("Main pot $0.02", "Main pot $0.04")
    posted_two = posted_two.replace("$0.10", "$0.12")
    assert _hand(posted_two).stakes.ante == 1
    no_ante = posted_two.replace(", Ante $0.01", "")
    assert _hand(no_ante).stakes.ante == 2


@pytest.mark.parametrize("header", [
    "Hand #2672065780 - 7Stud H/L (Fixed Limit) - $0.04 / $0.08, Ante $0.01 - 2026/02/16 03:36:34 UTC",
    "Hand #2672065780 - 7Stud H/L (Fixed Limit) - $0.04/$0.08, Ante $0.01 - 2026/02/16 03:36 UTC",
    "Hand #2672065780 - 7Stud H/L(Fixed Limit) - $0.04/$0.08 Ante $0.01 - 2026/02/16 03:36:34 UTC",
])
def test_acr_header_spacing_variants(header: str) -> None:
    hand = _hand(header + ACR_2026[ACR_2026.index("\n"):])
    assert (hand.stakes.ante, hand.stakes.small_bet, hand.stakes.big_bet) == (1, 4, 8)
    assert hand.started_at is not None and hand.started_at.date() == datetime(2026, 2, 16).date()


def test_acr_2026_tournament_without_rake_and_bring_in_variants() -> None:
    tournament = ACR_2026.replace(
        "Hand #2672065780 - 7Stud H/L (Fixed Limit) - $0.04/$0.08, Ante $0.01 -",
        "Game Hand #2653060401 - Tournament #34375286 - 7Stud H/L (Fixed Limit) - Level 17 (400.00/800.00) -",
    ).replace("$", "").replace(" | Rake 0.00", "")
    for old, new in (("0.01", "100.00"), ("0.02", "200.00"), ("0.04", "400.00"), ("0.10", "1000.00"),
                     ("2.40", "24000.00"), ("1.95", "19500.00"), ("4.00", "40000.00")):
        tournament = tournament.replace(old, new)
    tournament = tournament.replace("Dara brings in", "Dara brings-in")
    hand = _hand(tournament)
    assert hand.stakes.is_tournament and hand.tournament_id == "34375286" and hand.stakes.small_bet == 400
    assert hand.rake == 0 and conserved(hand)
    assert _hand(ACR_2026.replace("Dara brings in", "Dara brings in low")).stakes.bring_in == 2


def test_acr_2026_letter_in_the_header_stakes_fails() -> None:
    outcome = _outcomes(ACR_2026.replace("$0.04/$0.08", "$0.04/$0.0O8"))[0]
    assert isinstance(outcome, FailedHand), outcome


# ---------------------------------------------------------------- corpus and samples


def test_corpus_file() -> None:
    path = corpus_path("Winning", "7-Stud-HL-8max-USD-1.00-2.00-201608.HH00000000 G0.txt")
    outcomes = corpus_outcomes(PARSER, path, encoding="utf-16")
    # SOURCES.md: 1 complete hand + 1 truncated (header and seats only)
    assert len(outcomes) == 2
    hand, truncated = outcomes
    assert isinstance(hand, Hand) and isinstance(truncated, FailedHand)
    assert "incomplete" in truncated.reason and truncated.hand_id == "693976187"
    assert conserved(hand) and hand.notes == ()
    assert hand.total_pot == sum(hand.contributed_by(p) for p in hand.players) == 725
    assert (hand.rake, hand.fees) == (14, 6)
    assert {a.player: a.amount for a in hand.awards} == {"ChazDazzle": 353, "KickAzzJohnny": 352}
    assert {d.street for d in hand.deals if d.player == "KickAzzJohnny"} == set(Street)


def test_sample_histories_parse_and_conserve() -> None:
    files = sample_files("winning")
    assert len(files) == 2
    hands = sample_hands(PARSER, files)
    assert all(conserved(hand, total_pot=True) and hand.notes == () for hand in hands), [hand.hand_id for hand in hands]
    assert len(hands) >= 6
