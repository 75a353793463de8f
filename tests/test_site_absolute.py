"""Absolute / UB Stud Hi/Lo parser: tricky lines from the formats doc (inline text), the corpus and the samples."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest

from hhtool.ingest.reader import decode_bytes
from hhtool.model import ActionKind, Card, FailedHand, Half, Hand, ParseOutcome, ShowStatus, SkippedHand, Street, Structure
from hhtool.sites import detect
from hhtool.sites.absolute import PARSER
from tests import site_helpers
from tests.site_helpers import catalogued_hands, conserved, failed_at, one_outcome, only_hand, sample_hands

SHORTY_SUMMARY = (
    "Seat 4: shorty won Total ($6.95) All-In HI:($3.48) with One pair, aces [Ac 3h 2h 10h Ah 5s 4c - "
    "P:Ac,B:Ah,B:10h,B:5s,P:4c] LO:($3.47) [B:Ah,B:2h,P:3h,P:4c,B:5s]"
)

# A short stack is all-in on 4th and scoops with one collect line; the summary splits it HI/LO.
# The hero folds on 3rd and keeps getting his "Pocket" line; "Raises $1.50" has no "to".
SCOOP = f"""Stage #1400000001: Seven Card Hi/Lo  Normal $1/$2 - 2009-05-01 10:00:00 (ET)
Table: ELM ST (Real Money) Seat #2 is the dealer
Seat 1 - AAA ($50 in chips)
Seat 2 - Hero ($40 in chips)
Seat 4 - shorty ($3.60 in chips)
AAA - Ante $0.10
Hero - Ante $0.10
shorty - Ante $0.10
*** 3rd STREET ***
AAA - Pocket [H H 7c]
Hero - Pocket [Kd Qd 10s]
shorty - Pocket [H H 2h]
shorty - Bring-In $0.50
AAA - Completes to $1
Hero - Folds
shorty - Raises $1.50
AAA - Calls $1
*** 4TH STREET ***
AAA - Pocket [H H 7c 4d]
Hero - Pocket [Kd Qd 10s]
shorty - Pocket [H H 2h 10h]
Hero - Sitout
shorty - Checks
AAA - Bets $1
shorty - All-In(Raise) $1.50
AAA - Calls $0.50
*** 5TH STREET ***
AAA - Pocket [H H 7c 4d 3c]
Hero - Pocket [Kd Qd 10s]
shorty - Pocket [H H 2h 10h Ah]
*** 6TH STREET ***
AAA - Pocket [H H 7c 4d 3c 8s]
Hero - Pocket [Kd Qd 10s]
shorty - Pocket [H H 2h 10h Ah 5s]
*** RIVER ***
AAA - Pocket [H H 7c 4d 3c 8s H]
Hero - Pocket [Kd Qd 10s]
shorty - Pocket [H H 2h 10h Ah 5s H]
*** SHOW DOWN ***
shorty - Shows [Ac 3h 2h 10h Ah 5s 4c] (One pair, aces)
AAA - Shows [Jc 9d 7c 4d 3c 8s Kh] (King high)
shorty Collects $6.95 from main pot
*** SUMMARY ***
Total Pot($7.30) | Rake ($0.35)
Seat 1: AAA HI:lost with King high [Jc 9d 7c 4d 3c 8s Kh - P:Kh,P:Jc,P:9d,B:8s,B:7c]
Seat 2: Hero (dealer) Folded on the 3rd STREET
{SHORTY_SUMMARY}
"""

# Everyone folds to a completion: the return is printed, the pot is labelled HI in the summary.
FOLD_OUT = """Stage #1400000002: Seven Card Hi/Lo  Normal $1/$2 - 2009-05-01 10:02:00 (ET)
Seat 1 - AAA ($49.35 in chips)
Seat 2 - Hero ($39.90 in chips)
Seat 4 - BBB ($20 in chips)
AAA - Ante $0.10
Hero - Ante $0.10
BBB - Ante $0.10
*** 3rd STREET ***
AAA - Pocket [H H 3d]
Hero - Pocket [Ac 5c 9h]
BBB - Pocket [H H Qs]
AAA - Bring-In $0.50
Hero - Raises $1 to $1
BBB - Folds
AAA - Folds
Hero - returned ($0.50) : not called
*** SHOW DOWN ***
Hero - Does not show
Hero Collects $1.30 from main pot
*** SUMMARY ***
Total Pot($1.30)
Seat 1: AAA Folded on the 3rd STREET
Seat 2: Hero collected Total ($1.30) HI:($1.30)  [Does not show]
Seat 4: BBB Folded on the 3rd STREET
"""


def parse_text(text: str, file: str = "inline.txt") -> list[ParseOutcome]:
    """Read the text as a real Absolute file is: every line carries a trailing blank."""
    with_blanks = "\n".join(line + " " if line else line for line in text.split("\n"))
    return site_helpers.parse_text(PARSER, with_blanks, file, encoding="ascii")


def parse_one(text: str) -> Hand:
    return only_hand(parse_text(text))


def test_header_stakes_and_table() -> None:
    hand = parse_one(SCOOP)
    assert hand.site == "absolute" and hand.hand_id == "1400000001"
    assert (hand.stakes.ante, hand.stakes.bring_in, hand.stakes.small_bet, hand.stakes.big_bet) == (10, 50, 100, 200)
    assert (hand.stakes.currency, hand.stakes.unit, hand.stakes.structure) == ("USD", 100, Structure.FIXED_LIMIT)
    assert hand.started_at == datetime(2009, 5, 1, 10, 0) and hand.timezone == "ET"
    assert hand.table_name == "ELM ST" and hand.dealer_seat == 2 and hand.hero == "Hero"
    assert hand.position_order == ("shorty", "AAA", "Hero")
    assert hand.game_label == "Seven Card Hi/Lo Normal"


def test_completion_raise_without_to_and_all_in_raise() -> None:
    hand = parse_one(SCOOP)
    moves = [(a.player, a.kind, a.amount, a.to_amount, a.all_in) for a in hand.actions if a.kind is not ActionKind.ANTE]
    assert moves == [
        ("shorty", ActionKind.BRING_IN, 50, 50, False),
        ("AAA", ActionKind.COMPLETE, 100, 100, False),
        ("Hero", ActionKind.FOLD, 0, 0, False),
        ("shorty", ActionKind.RAISE, 150, 200, False),  # "Raises $1.50": the chips put in
        ("AAA", ActionKind.CALL, 100, 200, False),
        ("shorty", ActionKind.CHECK, 0, 0, False),
        ("AAA", ActionKind.BET, 100, 100, False),
        ("shorty", ActionKind.RAISE, 150, 150, True),
        ("AAA", ActionKind.CALL, 50, 150, False),
    ]
    assert hand.contributed_by("shorty") == hand.seat_of("shorty").stack


def test_cumulative_holdings_become_deals_and_folded_hero_gets_none() -> None:
    hand = parse_one(SCOOP)
    deals = {(d.street, d.player): d for d in hand.deals}
    assert [d.street for d in hand.deals if d.player == "Hero"] == [Street.THIRD]
    assert deals[(Street.THIRD, "Hero")].up == (Card.parse("Ts"),)  # rank written "10"
    assert deals[(Street.THIRD, "shorty")].down == (None, None)
    assert deals[(Street.FIFTH, "shorty")].up == (Card.parse("Ah"),)
    assert deals[(Street.SEVENTH, "AAA")].down == (None,) and deals[(Street.SEVENTH, "AAA")].up == ()
    assert len(hand.deals) == 3 + 2 * 4


def test_single_collect_split_into_labelled_halves() -> None:
    hand = parse_one(SCOOP)
    assert [(a.player, a.amount, a.pot, a.half) for a in hand.awards] == [
        ("shorty", 348, 0, Half.HIGH), ("shorty", 347, 0, Half.LOW),
    ]
    assert hand.total_pot == 730 and hand.rake == 35 and conserved(hand)
    shown = {s.player: s for s in hand.showdown}
    assert shown["AAA"].status is ShowStatus.SHOWN and shown["AAA"].high_text == "King high"
    assert shown["shorty"].cards[3] == Card.parse("Th")


def test_halves_that_do_not_match_are_noted_and_left_unknown() -> None:
    text = SCOOP.replace(" LO:($3.47) [B:Ah,B:2h,P:3h,P:4c,B:5s]", "")
    assert text != SCOOP
    hand = parse_one(text)
    assert [(a.amount, a.half) for a in hand.awards] == [(695, Half.UNKNOWN)]
    assert any("cannot be matched" in note.text for note in hand.notes)


def test_printed_return_and_uncontested_high_label() -> None:
    hand = parse_one(FOLD_OUT)
    assert [(r.player, r.amount, r.street, r.line) for r in hand.uncalled] == [("Hero", 50, Street.THIRD, 16)]
    assert [(a.player, a.amount, a.half) for a in hand.awards] == [("Hero", 130, Half.HIGH)]
    assert [(s.player, s.status) for s in hand.showdown] == [("Hero", ShowStatus.NOT_SHOWN)]
    assert hand.rake == 0 and hand.total_pot == 130 and conserved(hand)
    completion = next(a for a in hand.actions if a.kind is ActionKind.COMPLETE)
    assert (completion.player, completion.to_amount) == ("Hero", 100)


def test_unknown_line_fails_naming_site_line_and_text() -> None:
    text = SCOOP.replace("shorty - Checks\n", "shorty - Winks\n")
    failed_at(one_outcome(parse_text(text)), "absolute", 23, "shorty - Winks")


def test_contradicting_holding_is_a_restated_finding() -> None:
    # the repeated holding is the site's second statement of the cards: the hand is read with the
    # cards as first dealt, and the audit reports the disagreement with both lines
    fourth_street = "Hero - Pocket [Kd Qd 10s]\nshorty - Pocket [H H 2h 10h]\n"
    text = SCOOP.replace(fourth_street, fourth_street.replace("Qd", "Qc"))
    assert text != SCOOP
    hand = only_hand(parse_text(text))
    first = next(deal.line for deal in hand.deals if deal.player == "Hero")
    from hhtool.replay import profile_for_site, replay

    def repeats(hand: Hand) -> list[Any]:  # (SCOOP's "One pair, aces" for a wheel is a RESTATED finding of its own)
        return [v for v in replay(hand, profile_for_site("absolute")).violations if "repeats" in v.message]

    (restated,) = repeats(hand)
    assert restated.code == "RESTATED" and restated.line == 20 and f"(line {first}) dealt [Kd Qd Ts]" in restated.message
    assert not repeats(only_hand(parse_text(SCOOP)))


def test_truncated_hand_and_blank_lines_between_hands() -> None:
    truncated = "\n".join(SCOOP.splitlines()[:25])
    outcomes = parse_text(SCOOP + "\n\n\n" + FOLD_OUT + "\n" + truncated)
    assert [type(o) for o in outcomes] == [Hand, Hand, FailedHand]
    assert isinstance(outcomes[2], FailedHand) and "incomplete" in outcomes[2].reason


def test_other_games_are_skipped() -> None:
    holdem = FOLD_OUT.replace("Seven Card Hi/Lo  Normal $1/$2", "Holdem  Normal $1/$2")
    razz = FOLD_OUT.replace("Seven Card Hi/Lo  Normal $1/$2", "Razz  Normal $1/$2")
    outcomes = parse_text(holdem + "\n\n" + razz + "\n\n" + FOLD_OUT)
    assert [type(o) for o in outcomes] == [SkippedHand, SkippedHand, Hand]
    assert isinstance(outcomes[0], SkippedHand) and outcomes[0].game == "Holdem Normal"


def test_sniffing() -> None:
    assert PARSER.sniff(["Stage #1300000000: Seven Card Hi/Lo  Normal $0.02/$0.04 - 2009-03-18 19:10:00 (ET)"])
    assert PARSER.sniff(["Stage #C284520999: Holdem No Limit $4  - 2010-12-09 22:49:17 (ET)"])
    assert not PARSER.sniff(["PokerStars Hand #35874487284:  7 Card Stud Hi/Lo Limit ($0.04/$0.08 USD)"])
    assert not PARSER.sniff(["***** History for hand R5-78227816-62 *****"])
    assert not PARSER.sniff(["Winamax Poker - CashGame - HandId: #1-2-3 - 7-Card Stud Hi/Lo fixed limit (5€/25€/50€) - x"])
    detected = detect(decode_bytes(SCOOP.encode("ascii")).lines)
    assert detected is not None and detected.name == "absolute"


def test_corpus_file_counts_and_conservation() -> None:
    hands = catalogued_hands(PARSER, "Absolute", {"7-StudHL-USD-0.02-0.04-200903.River.with.mucked.txt": 1})
    for hand in hands:
        assert conserved(hand, total_pot=True)
        assert hand.notes == ()
    hand = hands[0]
    assert {(a.player, a.half) for a in hand.awards} == {("PLAYER6", Half.HIGH), ("PLAYER3", Half.LOW)}
    assert [d.street for d in hand.deals if d.player == "Hero"] == [Street.THIRD]


def test_sample_histories_parse() -> None:
    hands = sample_hands(PARSER)
    assert len(hands) >= 3
    for hand in hands:
        assert conserved(hand) and hand.notes == ()
    assert any(a.all_in for hand in hands for a in hand.actions)


@pytest.mark.parametrize(
    ("header_stakes", "expected"),
    [
        ("Normal $1 / $2 - 2009-05-01 10:00:00 (ET)", (100, 200, "USD")),  # spaces around the slash
        ("Normal €1/€2 - 2009-05-01 10:00:00 (ET)", (100, 200, "EUR")),
        ("Normal £1,000/£2,000 - 2009-05-01 10:00:00 (ET)", (100000, 200000, "GBP")),
        ("Normal $1/$2 USD - 2009-05-01 10:00 (ET)", (100, 200, "USD")),  # a code, no seconds
    ],
)
def test_header_read_tolerantly(header_stakes: str, expected: tuple[int, int, str]) -> None:
    text = SCOOP.replace("Normal $1/$2 - 2009-05-01 10:00:00 (ET)", header_stakes, 1)
    hand = only_hand(site_helpers.parse_text(PARSER, text))
    assert (hand.stakes.small_bet, hand.stakes.big_bet, hand.stakes.currency) == expected
    assert hand.started_at is not None and hand.started_at.hour == 10


def test_header_with_a_letter_in_the_stakes_fails() -> None:
    outcome = one_outcome(parse_text(SCOOP.replace("Normal $1/$2", "Normal $1/$2O", 1)))
    assert isinstance(outcome, FailedHand) and outcome.line == 1, outcome
