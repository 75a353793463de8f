"""OnGame Stud Hi/Lo parser: tricky lines from the formats doc (inline text), the corpus and the samples."""

from __future__ import annotations

from datetime import datetime

import pytest

from hhtool.ingest.reader import decode_bytes
from hhtool.model import ActionKind, FailedHand, Half, Hand, ParseOutcome, ShowStatus, SkippedHand, Street, Structure
from hhtool.sites import detect
from hhtool.sites.ongame import PARSER
from tests import site_helpers
from tests.site_helpers import catalogued_hands, conserved, failed_at, one_outcome, only_hand, sample_hands

# The raise line is wrong ("$1 to $1.37": the call of $0.50 over a $0.50 bet proves a raise to $1);
# the river bet is not called and OnGame prints no return (the pot total leaves it out).
WRONG_RAISE_TEXT = """***** History for hand R5-1111-1 *****
Start hand: Sat Aug 28 20:33:38 GMT+0300 2010
Table: Poznan [1111] (LIMIT SEVEN_CARD_STUD_HI_LO $0.25/$0.50, ante: $0.05, Real money)
User: Hero
Button: seat 4
Players in round: 3 (6)
Seat 1: Hero ($10)
Seat 4: anna maria ($8.20)
Seat 6: Zed ($5)
Hero posts ante $0.05
anna maria posts ante $0.05
Zed posts ante $0.05
---
Dealing pocket cards
Dealing to Hero: [Ah, 2h, 5d]
Dealing to anna maria: [-, -, 9c]
Dealing to Zed: [-, -, 3s]
Zed small bring in $0.12
Hero bets $0.25
anna maria calls $0.25
Zed folds
---
Dealing 4th street
Dealing to Hero: [4c]
Dealing to anna maria: [Kd]
Hero is disconnected
anna maria bets $0.25
Hero is connected
Hero calls $0.25
---
Dealing 5th street
Dealing to Hero: [8s]
Dealing to anna maria: [Jd]
anna maria bets $0.50
Hero raises $1 to $1.37
anna maria calls $0.50
---
Dealing 6th street
Dealing to Hero: [Qh]
Dealing to anna maria: [2d]
anna maria checks
Zed sits out
Hero checks
---
Dealing river
Dealing to Hero: [7c]
anna maria bets $0.50
Hero folds
---
Summary:
Main pot: $3.27 won by anna maria ($3.11)
Rake taken: $0.16
Seat 1: Hero ($8.45), net: -$1.55
Seat 4: anna maria ($9.76), net: +$1.56
Seat 6: Zed ($4.83), net: -$0.17
***** End of hand R5-1111-1 *****"""

# "big bring in" opens for the small bet; a short stack is all-in on 4th; pots carry High/Low tags
# and a pot line names two winners.
SIDE_POT_HALVES = """***** History for hand R5-1111-2 *****
Start hand: Sat Aug 28 20:40:00 CET 2010
Table: Poznan [1111] (LIMIT SEVEN_CARD_STUD_HI_LO $0.25/$0.50, ante: $0.05, Real money)
User: Hero
Players in round: 3
Seat 2: shorty ($0.60)
Seat 3: Hero ($6)
Seat 7: Big Lou ($9)
shorty posts ante $0.05
Hero posts ante $0.05
Big Lou posts ante $0.05
---
Dealing pocket cards
Dealing to shorty: [-, -, 2d]
Dealing to Hero: [Kh, Kc, 6c]
Dealing to Big Lou: [-, -, 7h]
shorty big bring in $0.25
Hero calls $0.25
Big Lou calls $0.25
---
Dealing 4th street
Dealing to shorty: [4s]
Dealing to Hero: [3d]
Dealing to Big Lou: [8h]
shorty bets $0.25
Hero calls $0.25
Big Lou raises $0.50 to $0.50
shorty calls $0.05 and is all-in
Hero calls $0.25
---
Dealing 5th street
Dealing to shorty: [Td]
Dealing to Hero: [5s]
Dealing to Big Lou: [Ah]
Big Lou bets $0.50
Hero calls $0.50
---
Dealing 6th street
Dealing to shorty: [9c]
Dealing to Hero: [Js]
Dealing to Big Lou: [8d]
Big Lou checks
Hero checks
---
Dealing river
Dealing to Hero: [2c]
Big Lou checks
Hero checks
---
Summary:
Main pot: $1.80 won by Big Lou ($0.86 High), shorty ($0.85 Low)
Side pot 1: $1.40 won by Big Lou ($0.67 High), Hero ($0.66 Low)
Rake taken: $0.16
Seat 2: shorty ($0.85), net: +$0.25, [As, 3c, 2d, 4s, Td, 9c, 6h] (HIGH_CARD ACE)
Seat 3: Hero ($5.36), net: -$0.64, [Kh, Kc, 6c, 3d, 5s, Js, 2c] (ONE_PAIR KING)
Seat 7: Big Lou ($9.23), net: +$0.23, [Qd, 8c, 7h, 8h, Ah, 8d, 5c] (THREE_OF_A_KIND EIGHT)
***** End of hand R5-1111-2 *****"""

TOURNAMENT = """***** History for hand T5-2222-7 (TOURNAMENT: "Stud8 Freeroll", T-3333, buy-in: $1) *****
Start hand: Sun Sep 05 18:00:00 GMT+0100 2010
Table: Freeroll 3333 [2222] (LIMIT SEVEN_CARD_STUD_HI_LO 100/200, ante: 10, Chips)
User: Hero
Players in round: 2
Seat 1: Hero (1500)
Seat 2: Villain (1500)
Hero posts ante 10
Villain posts ante 10
---
Dealing pocket cards
Dealing to Hero: [Qs, Jd, Tc]
Dealing to Villain: [-, -, 4h]
Villain small bring in 30
Hero raises 100 to 120
Villain folds
---
Summary:
Main pot: 80 won by Hero (80)
Seat 1: Hero (1540), net: +40
Seat 2: Villain (1460), net: -40
***** End of hand T5-2222-7 *****"""


def parse_text(text: str, file: str = "inline.txt") -> list[ParseOutcome]:
    return site_helpers.parse_text(PARSER, text, file, encoding="ascii")


def parse_one(text: str) -> Hand:
    return only_hand(parse_text(text))


def test_header_stakes_and_table() -> None:
    hand = parse_one(WRONG_RAISE_TEXT)
    assert hand.site == "ongame" and hand.hand_id == "R5-1111-1"
    assert (hand.stakes.ante, hand.stakes.bring_in, hand.stakes.small_bet, hand.stakes.big_bet) == (5, 12, 25, 50)
    assert (hand.stakes.currency, hand.stakes.unit, hand.stakes.structure) == ("USD", 100, Structure.FIXED_LIMIT)
    assert hand.stakes.table_size == 6 and hand.table_name == "Poznan"
    assert hand.started_at == datetime(2010, 8, 28, 20, 33, 38) and hand.timezone == "GMT+0300"
    assert hand.hero == "Hero" and hand.dealer_seat == 4
    assert hand.position_order == ("Zed", "Hero", "anna maria")
    assert hand.game_label == "LIMIT SEVEN_CARD_STUD_HI_LO"


def test_wrong_raise_text_is_recorded_as_the_chips_prove() -> None:
    hand = parse_one(WRONG_RAISE_TEXT)
    raise_action = next(a for a in hand.actions if a.kind is ActionKind.RAISE)
    assert (raise_action.street, raise_action.amount, raise_action.to_amount) == (Street.FIFTH, 100, 100)
    assert any(note.line == raise_action.line and "$1.37" in note.text for note in hand.notes)
    assert hand.contributed_by("Hero") == 155  # = -net in the summary


def test_uncalled_bet_derived_from_the_pot_total() -> None:
    hand = parse_one(WRONG_RAISE_TEXT)
    assert [(r.player, r.amount, r.street) for r in hand.uncalled] == [("anna maria", 50, Street.SEVENTH)]
    assert hand.uncalled[0].line == 47
    assert any("no uncalled-bet line" in note.text for note in hand.notes)
    assert hand.total_pot == 327 and hand.rake == 16
    assert [(a.player, a.amount, a.half) for a in hand.awards] == [("anna maria", 311, Half.WHOLE)]
    assert conserved(hand)
    assert not any("net" in note.text for note in hand.notes)  # the summary nets agree


def test_completion_bring_in_and_hidden_cards() -> None:
    hand = parse_one(WRONG_RAISE_TEXT)
    third = [a for a in hand.actions if a.street is Street.THIRD and a.kind is not ActionKind.ANTE]
    assert [(a.player, a.kind, a.to_amount) for a in third] == [
        ("Zed", ActionKind.BRING_IN, 12), ("Hero", ActionKind.COMPLETE, 25), ("anna maria", ActionKind.CALL, 25),
        ("Zed", ActionKind.FOLD, 12),
    ]
    deals = {(d.street, d.player): d for d in hand.deals}
    assert deals[(Street.THIRD, "anna maria")].down == (None, None)
    assert str(deals[(Street.THIRD, "anna maria")].up[0]) == "9c"
    assert [str(c) for c in deals[(Street.THIRD, "Hero")].down] == ["Ah", "2h"]
    assert str(deals[(Street.SEVENTH, "Hero")].down[0]) == "7c" and deals[(Street.SEVENTH, "Hero")].up == ()
    assert (Street.SEVENTH, "anna maria") not in deals  # OnGame prints only the hero's river card


def test_big_bring_in_side_pot_halves_and_all_in() -> None:
    hand = parse_one(SIDE_POT_HALVES)
    first = next(a for a in hand.actions if a.kind is not ActionKind.ANTE)
    assert (first.player, first.kind, first.to_amount) == ("shorty", ActionKind.COMPLETE, 25)
    assert hand.stakes.bring_in is None and any("bring-in amount is unknown" in n.text for n in hand.notes)
    big_lou_raise = next(a for a in hand.actions if a.kind is ActionKind.RAISE)
    assert (big_lou_raise.amount, big_lou_raise.to_amount) == (50, 50)
    short_call = next(a for a in hand.actions if a.all_in)
    assert (short_call.player, short_call.amount, short_call.to_amount) == ("shorty", 5, 30)
    assert [(a.player, a.amount, a.pot, a.half) for a in hand.awards] == [
        ("Big Lou", 86, 0, Half.HIGH), ("shorty", 85, 0, Half.LOW),
        ("Big Lou", 67, 1, Half.HIGH), ("Hero", 66, 1, Half.LOW),
    ]
    assert hand.total_pot == 320 and hand.uncalled == () and conserved(hand)
    shown = {s.player: s for s in hand.showdown}
    assert shown["Big Lou"].status is ShowStatus.SHOWN and shown["Big Lou"].high_text == "THREE_OF_A_KIND EIGHT"
    assert [str(c) for c in shown["shorty"].cards][:2] == ["As", "3c"]
    assert hand.timezone == "CET" and hand.dealer_seat is None


def test_tournament_chips_and_stated_raise_kept_when_nobody_calls() -> None:
    hand = parse_one(TOURNAMENT)
    assert (hand.stakes.currency, hand.stakes.unit, hand.stakes.is_tournament) == ("CHIPS", 1, True)
    assert (hand.stakes.ante, hand.stakes.bring_in, hand.stakes.small_bet) == (10, 30, 100)
    assert hand.tournament_id == "T-3333"
    completion = next(a for a in hand.actions if a.kind is ActionKind.COMPLETE)
    assert completion.to_amount == 120  # nobody calls: the stated "to" is kept, with a note
    assert any("no call confirms" in note.text for note in hand.notes)
    assert [(r.player, r.amount) for r in hand.uncalled] == [("Hero", 90)]
    assert hand.rake is None and conserved(hand)


def test_summary_net_disagreement_is_a_restated_finding() -> None:
    from hhtool.replay import profile_for_site, replay

    def restated(hand: Hand) -> list[str]:
        return [v.message for v in replay(hand, profile_for_site("ongame")).violations if v.code == "RESTATED"]

    text = WRONG_RAISE_TEXT.replace("Seat 6: Zed ($4.83), net: -$0.17", "Seat 6: Zed ($4.83), net: -$0.20")
    assert restated(parse_one(text)) == [
        "the summary (line 55) states a net result of -$0.20 for Zed; his actions and collect lines (no collect line) "
        "make -$0.17"
    ]
    assert restated(parse_one(WRONG_RAISE_TEXT)) == []
    stack = WRONG_RAISE_TEXT.replace("Seat 6: Zed ($4.83), net: -$0.17", "Seat 6: Zed ($4.80), net: -$0.17")
    assert [m for m in restated(parse_one(stack)) if "chips after the hand of $4.80" in m]


def test_unknown_line_fails_naming_site_line_and_text() -> None:
    text = WRONG_RAISE_TEXT.replace("anna maria checks\n", "anna maria waves\n")
    failed_at(one_outcome(parse_text(text)), "ongame", 41, "anna maria waves")


def test_truncated_hand_and_hands_without_blank_lines() -> None:
    truncated = "\n".join(SIDE_POT_HALVES.splitlines()[:30])
    outcomes = parse_text(WRONG_RAISE_TEXT + "\n" + SIDE_POT_HALVES + "\n" + truncated)
    assert [type(o) for o in outcomes] == [Hand, Hand, FailedHand]
    assert isinstance(outcomes[2], FailedHand) and "incomplete" in outcomes[2].reason


def test_other_games_are_skipped() -> None:
    stud_hi = WRONG_RAISE_TEXT.replace("SEVEN_CARD_STUD_HI_LO", "SEVEN_CARD_STUD")
    razz = WRONG_RAISE_TEXT.replace("SEVEN_CARD_STUD_HI_LO", "RAZZ")
    outcomes = parse_text(stud_hi + "\n" + razz)
    assert [type(o) for o in outcomes] == [SkippedHand, SkippedHand]
    assert isinstance(outcomes[0], SkippedHand) and outcomes[0].game == "LIMIT SEVEN_CARD_STUD"


def test_sniffing() -> None:
    assert PARSER.sniff(["***** History for hand R5-78227816-62 *****", "Start hand: Sat Aug 28 20:33:38 GMT+0300 2010"])
    assert not PARSER.sniff(["PokerStars Hand #35874487284:  7 Card Stud Hi/Lo Limit ($0.04/$0.08 USD)"])
    assert not PARSER.sniff(["Stage #1300000000: Seven Card Hi/Lo  Normal $0.02/$0.04 - 2009-03-18 19:10:00 (ET)"])
    assert not PARSER.sniff(["Winamax Poker - CashGame - HandId: #1-2-3 - 7-Card Stud Hi/Lo fixed limit (5€/25€/50€) - x"])
    detected = detect(decode_bytes(WRONG_RAISE_TEXT.encode("ascii")).lines)
    assert detected is not None and detected.name == "ongame"


def test_corpus_file_counts_and_conservation() -> None:
    hands = catalogued_hands(PARSER, "OnGame", {"7-StudHL-USD-0.25-0.50-201008.All.streets.txt": 1})
    for hand in hands:
        assert conserved(hand)
        returned = sum(r.amount for r in hand.uncalled)
        assert hand.total_pot == sum(a.amount for a in hand.actions) - returned
        assert not any("net" in note.text for note in hand.notes)
    hand = hands[0]
    raise_action = next(a for a in hand.actions if a.kind is ActionKind.RAISE)
    assert (raise_action.to_amount, raise_action.amount) == (100, 100)  # not $1.37


def test_sample_histories_parse() -> None:
    hands = sample_hands(PARSER)
    assert len(hands) >= 3
    for hand in hands:
        assert conserved(hand)
        assert not any("net" in note.text or "but the summary" in note.text for note in hand.notes)
    assert any(len({a.pot for a in hand.awards}) > 1 for hand in hands)  # a side pot


def test_seated_player_who_takes_no_part_is_sitting_out() -> None:
    text = WRONG_RAISE_TEXT.replace("Seat 6: Zed ($5)\n", "Seat 6: Zed ($5)\nSeat 8: napping ($3)\n")
    hand = parse_one(text)
    assert [(s.player, s.sitting_out) for s in hand.seats] == [
        ("Hero", False), ("anna maria", False), ("Zed", False), ("napping", True),
    ]
    assert any("napping" in note.text and "sitting out" in note.text for note in hand.notes)
    assert conserved(hand)


@pytest.mark.parametrize(
    ("stakes", "expected"),
    [
        ("$0.25 / $0.50, ante: $0.05", (25, 50, 5, "USD")),  # spaces around the slash
        ("€0.25/€0.50, ante: €0.05", (25, 50, 5, "EUR")),
        ("£1,000/£2,000, ante: £100", (100000, 200000, 10000, "GBP")),
        ("$0.25/$0.50 USD, ante: $0.05", (25, 50, 5, "USD")),
    ],
)
def test_table_stakes_read_tolerantly(stakes: str, expected: tuple[int, int, int, str]) -> None:
    text = WRONG_RAISE_TEXT.replace("$0.25/$0.50, ante: $0.05", stakes, 1)
    hand = only_hand(site_helpers.parse_text(PARSER, text))
    assert (hand.stakes.small_bet, hand.stakes.big_bet, hand.stakes.ante, hand.stakes.currency) == expected


def test_start_time_without_seconds_and_a_letter_in_the_stakes() -> None:
    hand = parse_one(WRONG_RAISE_TEXT.replace("20:33:38 GMT", "20:33 GMT", 1))
    assert hand.started_at == datetime(2010, 8, 28, 20, 33)
    outcome = one_outcome(parse_text(WRONG_RAISE_TEXT.replace("ante: $0.05", "ante: $0.O5", 1)))
    assert isinstance(outcome, FailedHand) and outcome.line == 3, outcome
