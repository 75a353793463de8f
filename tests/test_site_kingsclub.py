"""KingsClub parser: tricky lines from the formats doc (inline, no corpus needed), the corpus
file (skipped without ../shared) and the hand-written sample histories."""

from __future__ import annotations

import pytest

from hhtool.ingest.reader import decode_bytes
from hhtool.model import ActionKind, Card, FailedHand, Half, Hand, ShowStatus, SkippedHand, Street, Structure
from hhtool.sites import detect
from hhtool.sites.kingsclub import PARSER
from tests.site_helpers import (
    conserved,
    corpus_outcomes,
    corpus_path,
    failed_at,
    one_outcome,
    only_hand,
    parse_text,
    sample_hands,
)

HEAD_2021 = """#40000001: Limit Seven Card Stud Hi-Lo - 40/80
2021-01-04 10:00:00
Table '8 Game Mix'
Seat 1: Ann Lee (1,725.59)
Seat 4: Bob (300)
Seat 6: Hero (1,384.19)
Ann Lee: posts ante 10
Bob: posts ante 10
Hero: posts ante 10
Dealt to Ann Lee: [X X Td]
Dealt to Bob: [X X 2c]
Dealt to Hero: [Qh 4s Qs]
Bob brings in for 10
"""

# 2021 style: 3rd street has no marker, "*** 3RD STREET ***" introduces 4th street.
SHIFTED = HEAD_2021 + """Hero bets 40
Ann Lee raises to 80
Bob folds
Hero calls 80
*** 3RD STREET ***
Dealt to Ann Lee: [Ks]
Dealt to Hero: [3d]
Ann Lee bets 40
Hero calls 40
*** 4TH STREET ***
Dealt to Ann Lee: [5d]
Dealt to Hero: [6h]
Ann Lee bets 80
Hero raises to 160
Ann Lee calls 160
*** 5TH STREET ***
Dealt to Ann Lee: [6d]
Dealt to Hero: [As]
Ann Lee checks
Hero checks
*** 6TH STREET ***
Dealt to Ann Lee: [X]
Dealt to Hero: [Kd]
Ann Lee checks
Hero bets 80
Ann Lee folds
*** SUMMARY ***
Seat 1: Ann Lee (1,435.59) -290
Seat 4: Bob (280) -20
Seat 6: Hero (1,693.19) +309
Rake 1
Hero wins pot (599)"""


def _one(text: str, name: str = "inline.txt") -> Hand | FailedHand | SkippedHand:
    return one_outcome(parse_text(PARSER, text, name))


def _hand(text: str) -> Hand:
    return only_hand(parse_text(PARSER, text))


def test_header_stakes_and_seats() -> None:
    hand = _hand(SHIFTED)
    assert hand.hand_id == "40000001"
    assert hand.game_label == "Limit Seven Card Stud Hi-Lo"
    stakes = hand.stakes
    assert (stakes.ante, stakes.bring_in, stakes.small_bet, stakes.big_bet) == (1000, 1000, 4000, 8000)
    assert stakes.bring_in_source == "posted" and stakes.currency == "USD" and stakes.unit == 100
    assert stakes.structure is Structure.FIXED_LIMIT and not stakes.is_tournament
    assert hand.table_name == "8 Game Mix"
    assert hand.started_at is not None and hand.started_at.year == 2021 and hand.started_at.hour == 10
    assert [(s.seat, s.player, s.stack) for s in hand.seats] == [(1, "Ann Lee", 172559), (4, "Bob", 30000), (6, "Hero", 138419)]
    assert hand.hero == "Hero"


def test_shifted_street_labels_are_counted_by_deals() -> None:
    hand = _hand(SHIFTED)
    streets = {deal.line: deal.street for deal in hand.deals}
    assert streets[19] is Street.FOURTH  # dealt right after "*** 3RD STREET ***"
    assert streets[35] is Street.SEVENTH  # after "*** 6TH STREET ***"
    bets = [(a.street, a.kind, a.to_amount) for a in hand.actions if a.player == "Ann Lee" and a.kind is ActionKind.BET]
    assert bets == [(Street.FOURTH, ActionKind.BET, 4000), (Street.FIFTH, ActionKind.BET, 8000)]
    seventh = [d for d in hand.deals if d.street is Street.SEVENTH]
    assert [(d.player, d.down, d.up) for d in seventh] == [("Ann Lee", (None,), ()), ("Hero", (Card.parse("Kd"),), ())]


def test_correct_2022_labels_give_the_same_streets() -> None:
    fixed = SHIFTED.replace("Dealt to Ann Lee: [X X Td]", "*** 3RD STREET ***\nDealt to Ann Lee: [X X Td]")
    for old, new in (("6TH", "7TH"), ("5TH", "6TH"), ("4TH", "5TH")):
        fixed = fixed.replace(f"*** {old} STREET ***", f"*** {new} STREET ***")
    fixed = fixed.replace("Hero calls 80\n*** 3RD STREET ***", "Hero calls 80\n*** 4TH STREET ***")
    shifted, labelled = _hand(SHIFTED), _hand(fixed)
    assert [(a.street, a.player, a.kind, a.amount) for a in labelled.actions] == [
        (a.street, a.player, a.kind, a.amount) for a in shifted.actions
    ]
    assert [d.street for d in labelled.deals] == [d.street for d in shifted.deals]


def test_marker_that_contradicts_the_deals_fails() -> None:
    broken = SHIFTED.replace("*** 4TH STREET ***", "*** 5TH STREET ***", 1)
    outcome = _one(broken)
    assert isinstance(outcome, FailedHand)
    assert outcome.line == 23 and "kingsclub" in outcome.reason and "5th" in outcome.reason


def test_completion_raise_and_call_amounts_are_street_totals() -> None:
    hand = _hand(SHIFTED)
    third = [(a.player, a.kind, a.amount, a.to_amount) for a in hand.actions if a.street is Street.THIRD]
    assert third == [
        ("Ann Lee", ActionKind.ANTE, 1000, 1000),
        ("Bob", ActionKind.ANTE, 1000, 1000),
        ("Hero", ActionKind.ANTE, 1000, 1000),
        ("Bob", ActionKind.BRING_IN, 1000, 1000),
        ("Hero", ActionKind.COMPLETE, 4000, 4000),  # "Hero bets 40"
        ("Ann Lee", ActionKind.RAISE, 8000, 8000),  # "raises to 80"
        ("Bob", ActionKind.FOLD, 0, 1000),
        ("Hero", ActionKind.CALL, 4000, 8000),  # "calls 80" puts in 40 more
    ]
    fifth = [(a.player, a.kind, a.amount) for a in hand.actions if a.street is Street.FIFTH]
    assert fifth == [("Ann Lee", ActionKind.BET, 8000), ("Hero", ActionKind.RAISE, 16000), ("Ann Lee", ActionKind.CALL, 8000)]


def test_unmatched_bet_is_returned_and_confirmed_by_the_summary() -> None:
    hand = _hand(SHIFTED)
    assert [(r.street, r.player, r.amount) for r in hand.uncalled] == [(Street.SEVENTH, "Hero", 8000)]
    assert hand.notes == ()  # the summary's net results agree
    assert hand.rake == 100
    assert [(a.player, a.amount, a.pot, a.half) for a in hand.awards] == [("Hero", 59900, 0, Half.WHOLE)]
    assert sum(hand.contributed_by(p) for p in hand.players) == hand.collected_by("Hero") + 100


def test_summary_net_disagreement_is_a_restated_finding() -> None:
    from hhtool.replay import profile_for_site, replay

    hand = _hand(SHIFTED.replace("Seat 6: Hero (1,693.19) +309", "Seat 6: Hero (1,753.19) +369"))
    # the nets add up to +59
    assert len(hand.notes) == 1 and "Rake 100" in hand.notes[0].text and "imply -5900" in hand.notes[0].text
    restated = [v.message for v in replay(hand, profile_for_site("kingsclub")).violations if v.code == "RESTATED"]
    assert len(restated) == 2 and all("for Hero" in m for m in restated)  # the net result and the chips after the hand
    assert any("net result of $369.00" in m and "make $309.00" in m for m in restated)
    assert not [v for v in replay(_hand(SHIFTED), profile_for_site("kingsclub")).violations if v.code == "RESTATED"]


def test_rake_line_left_out_is_taken_from_the_net_results() -> None:
    hand = _hand(SHIFTED.replace("Rake 1\n", ""))
    assert hand.rake == 100 and len(hand.notes) == 1 and "no Rake line" in hand.notes[0].text
    no_rake = SHIFTED.replace("Rake 1\n", "").replace("(1,693.19) +309", "(1,694.19) +310").replace("(599)", "(600)")
    hand = _hand(no_rake)
    assert hand.rake == 0 and hand.notes == ()


ALL_IN = """#49000002: Limit Seven Card Stud Hi-Lo - 40/80
2022-03-04 19:13:39
Table 'Real Deal Mix'
Seat 1: Ann (500)
Seat 2: Bob (45)
Seat 3: Cy (900)
Ann: posts ante 10
Bob: posts ante 10
Cy: posts ante 10
*** 3RD STREET ***
Dealt to Ann: [X X 3h]
Dealt to Bob: [X X 9c]
Dealt to Cy: [X X Kd]
Ann brings in for 10
Bob bets 35, and is all in
Cy calls 35
Ann calls 35
*** 4TH STREET ***
Dealt to Ann: [4h]
Dealt to Bob: [Ts]
Dealt to Cy: [Kh]
Cy bets 40
Ann calls 40
*** 5TH STREET ***
Dealt to Ann: [5h]
Dealt to Bob: [2d]
Dealt to Cy: [7c]
Cy checks
Ann checks
*** 6TH STREET ***
Dealt to Ann: [8s]
Dealt to Bob: [Js]
Dealt to Cy: [Qs]
Cy checks
Ann checks
*** 7TH STREET ***
Dealt to Ann: [X]
Dealt to Bob: [X]
Dealt to Cy: [X]
Cy checks
Ann checks
Ann shows [Ac 2h 3h 4h 5h 8s 6c]
Cy shows [Kc 9d Kd Kh 7c Qs 3s]
Bob shows [Th 7d 9c Ts 2d Js 8c]
Player sits out
*** SUMMARY ***
Seat 1: Ann (521.50) +21.50
Seat 2: Bob (0) -45
Seat 3: Cy (921.50) +21.50
Rake 2
Ann wins (40) from side pot 1
Cy wins (40) from side pot 1
Ann wins pot (66.50)
Cy wins pot (66.50)"""


def test_all_in_side_pots_hidden_cards_and_noise() -> None:
    hand = _hand(ALL_IN)
    bob = [a for a in hand.actions if a.player == "Bob" and a.kind is ActionKind.COMPLETE]
    assert bob and bob[0].all_in and bob[0].to_amount == 3500
    assert [(a.player, a.amount, a.pot, a.half) for a in hand.awards] == [
        ("Ann", 4000, 1, Half.UNKNOWN),
        ("Cy", 4000, 1, Half.UNKNOWN),
        ("Ann", 6650, 0, Half.UNKNOWN),
        ("Cy", 6650, 0, Half.UNKNOWN),
    ]
    assert hand.hero is None and all(d.down in ((None, None), (), (None,)) for d in hand.deals)
    assert [(s.player, s.status, len(s.cards)) for s in hand.showdown] == [
        ("Ann", ShowStatus.SHOWN, 7), ("Cy", ShowStatus.SHOWN, 7), ("Bob", ShowStatus.SHOWN, 7),
    ]
    assert hand.uncalled == () and hand.notes == ()
    assert sum(hand.contributed_by(p) for p in hand.players) == sum(a.amount for a in hand.awards) + hand.rake


def test_unknown_line_names_site_line_and_text() -> None:
    outcome = failed_at(_one(SHIFTED.replace("Hero calls 40", "Hero juggles 40")), "kingsclub", 22, "Hero juggles 40")
    assert outcome.hand_id == "40000001"


def test_truncated_hand_is_reported_incomplete() -> None:
    text = SHIFTED + "\n\n" + HEAD_2021.replace("40000001", "40000002") + "Hero bets 40"
    outcomes = parse_text(PARSER, text, "two.txt")
    assert isinstance(outcomes[0], Hand)
    assert isinstance(outcomes[1], FailedHand) and "incomplete" in outcomes[1].reason
    cut_in_summary = SHIFTED.split("Seat 6: Hero (1,693.19)")[0].rstrip()
    outcome = _one(cut_in_summary)
    assert isinstance(outcome, FailedHand) and "incomplete" in outcome.reason


def test_other_games_are_skipped() -> None:
    razz = SHIFTED.replace("Limit Seven Card Stud Hi-Lo", "Limit Razz")
    outcome = _one(razz)
    assert isinstance(outcome, SkippedHand) and outcome.game == "Limit Razz" and outcome.hand_id == "40000001"
    stud_hi = SHIFTED.replace("Seven Card Stud Hi-Lo", "Seven Card Stud")
    assert isinstance(_one(stud_hi), SkippedHand)
    mixed = "\n\n\n".join([razz.replace("40000001", "40000000"), SHIFTED, stud_hi.replace("40000001", "40000002")])
    outcomes = parse_text(PARSER, mixed, "mixed.txt")
    assert [type(o).__name__ for o in outcomes] == ["SkippedHand", "Hand", "SkippedHand"]
    assert outcomes[1].source.first_line == 48 and outcomes[2].hand_id == "40000002"


def test_sniff_claims_kingsclub_only() -> None:
    lines = decode_bytes(SHIFTED.encode()).lines
    assert PARSER.sniff(lines[:40])
    assert detect(lines) is PARSER
    stars = ["PokerStars Hand #35874487284:  7 Card Stud Hi/Lo Limit ($0.04/$0.08) - 2009/11/25 14:17:35 ET",
             "Table 'Dawn II' 8-max"]
    winning = ["Game started at: 2016/8/2 11:13:2", "Game ID: 693975843 1/2 (PRR) La Llorona - 3 (Seven Cards Stud HiLow)"]
    assert not PARSER.sniff(stars) and not PARSER.sniff(winning)
    assert not PARSER.sniff(["#39969428: Limit Seven Card Stud Hi-Lo - 40/80"])  # no date line: not enough to claim


# ---------------------------------------------------------------- corpus and samples


def test_corpus_file() -> None:
    outcomes = corpus_outcomes(PARSER, corpus_path("KingsClub", "7-StudHL-USD-40-80-202101.txt"))
    hands = [o for o in outcomes if isinstance(o, Hand)]
    assert len(outcomes) == 1 and len(hands) == 1  # SOURCES.md: 1 Stud H/L hand
    hand = hands[0]
    assert all(conserved(h) for h in hands) and hand.notes == ()
    assert hand.collected_by("Player0") - hand.contributed_by("Player0") == 32900  # summary: +329
    assert [d.street for d in hand.deals if d.player == "Hero"] == list(Street)
    assert hand.uncalled == () and hand.rake == 100


def test_sample_histories_parse_and_conserve() -> None:
    hands = sample_hands(PARSER)
    assert all(conserved(hand) and hand.notes == () for hand in hands), [hand.hand_id for hand in hands]
    assert len(hands) >= 3


@pytest.mark.parametrize(
    ("stakes", "expected"),
    [("40 / 80", (4000, 8000)), ("$40/$80", (4000, 8000)), ("1,000/2,000", (100000, 200000))],
)
def test_header_stakes_read_tolerantly(stakes: str, expected: tuple[int, int]) -> None:
    hand = _hand(ALL_IN.replace(" - 40/80", f" - {stakes}", 1))
    assert (hand.stakes.small_bet, hand.stakes.big_bet) == expected


def test_date_without_seconds_and_a_letter_in_the_stakes() -> None:
    from datetime import datetime

    hand = _hand(ALL_IN.replace("2022-03-04 19:13:39", "2022-03-04 19:13", 1))
    assert hand.started_at == datetime(2022, 3, 4, 19, 13)
    outcomes = parse_text(PARSER, ALL_IN.replace(" - 40/80", " - 40/8O", 1))
    assert [type(outcome).__name__ for outcome in outcomes] == ["FailedHand"], outcomes
