"""PartyPoker grammar and site module, on tricky lines written from the formats doc (section 3)."""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from pathlib import Path

import pytest

from hhtool.ingest.reader import decode_bytes
from hhtool.model import (
    ActionKind,
    Card,
    FailedHand,
    FailureKind,
    Half,
    Hand,
    ParseOutcome,
    ShowStatus,
    SkippedHand,
    Street,
    Structure,
)
from hhtool.sites import detect
from hhtool.sites.partypoker import PARSER
from tests import site_helpers
from tests.site_helpers import corpus_outcomes, failed_at, kinds, only_hand, sample_hands

PREAMBLE = """\
Game #22001 starts.

#Game No : 22001
***** Hand History for Game 22001 *****
"""

# heads-up to the river: bring-in, completion, raise by chips added, hi/lo split with the low on its own line
SPLIT = PREAMBLE + """\
$10/$20 USD FL 7 Card Stud Hi-Lo - Monday, February 27, 09:51:26 EST 2012
Table Table  125524 (Real Money)
Seat 0 is the button
Total number of players : 2/8
Seat 3: Villain ( $510 USD )
Seat 1: Hero ( $390 USD )
Hero posts ante [$1 USD]
Villain posts ante [$1 USD]
** Dealing **
Dealt to Hero [  Ah 4h 4d ]
Hero opens
Hero bring-ins [$3 USD]
Villain completes [$10 USD]
Villain: i folds lol
Hero raises [$17 USD]
Villain calls [$10 USD]
** Dealing Fourth street **
Dealt to Hero [  Td ]
Villain opens
Villain bets [$10 USD]
Hero calls [$10 USD]
** Dealing Fifth street **
Dealt to Hero [  Qd ]
Villain opens
Villain bets [$20 USD]
Hero will be using his time bank for this hand.
Hero calls [$20 USD]
** Dealing Sixth street **
Dealt to Hero [  Kc ]
Villain opens
Villain bets [$20 USD]
Hero calls [$20 USD]
** Dealing River **
Dealt to Hero [  8s ]
Villain opens
Villain bets [$20 USD]
Hero calls [$20 USD]
Villain shows [ Qc, 3d, Ac, 8h, 2s, 5h, Jc ]high card Ace.
Villain shows8,5,3,2,A  for low.
Hero shows [ Ah, 4h, 4d, Td, Qd, Kc, 8s ]a pair of Fours.
Hero wins $90.50 USD from the main pot with a pair of Fours.
Villain wins Lo ($90.50 USD) from the main pot with 8,5,3,2,A.
"""

# three players: one all-in with chips in the line, one flagged all-in after his call; side pot; no low
ALL_IN = PREAMBLE.replace("22001", "22002") + """\
$10/$20 USD FL 7 Card Stud Hi-Lo - Monday, February 27, 10:02:11 EST 2012
Table Table  125524 (Real Money)
Seat 0 is the button
Total number of players : 3/8
Seat 1: Hero ( $35 USD )
Seat 3: Villain ( $510 USD )
Seat 6: Shorty ( $25 USD )
Newbie has joined the table.
Hero posts ante [$1 USD]
Villain posts ante [$1 USD]
Shorty posts ante [$1 USD]
** Dealing **
Dealt to Hero [  Kh Kd 9s ]
Shorty opens
Shorty bring-ins [$3 USD]
Hero completes [$10 USD]
Villain calls [$10 USD]
Shorty is all-In  [$21 USD]
Hero calls [$14 USD]
Villain calls [$14 USD]
** Dealing Fourth street **
Dealt to Hero [  2c ]
Villain opens
Villain bets [$10 USD]
Hero calls [$10 USD]
Hero is all-In.
** Dealing Fifth street **
Dealt to Hero [  Ks ]
** Dealing Sixth street **
Dealt to Hero [  7d ]
** Dealing River **
Dealt to Hero [  Qc ]
Hero doesn't show [ Kh, Kd, 9s, 2c, Ks, 7d, Qc ]three of a kind, Kings.
Villain shows [ Jc, Jd, Td, 9h, 8h, 7s, 3s ]a straight, Seven to Jack.
Shorty shows [ Qs, Qh, 6c, Kc, 9c, 4c, 3c ]a flush, King high.
Villain wins $20 USD from the side pot 1 with a straight, Seven to Jack.
Shorty wins $74 USD from the main pot with a flush, King high.
There was no qualifying low hand.
"""

# completion and everybody folds: no uncalled-bet line, the win includes the completion
FOLD_OUT = PREAMBLE.replace("22001", "22003") + """\
$10/$20 USD FL 7 Card Stud Hi-Lo - Monday, February 27, 10:05:40 EST 2012
Table Table  125524 (Real Money)
Seat 0 is the button
Total number of players : 3/8
Seat 1: Hero ( $390 USD )
Seat 3: Villain ( $510 USD )
Seat 6: Shorty ( $80 USD )
Hero posts ante [$1 USD]
Villain posts ante [$1 USD]
Shorty posts ante [$1 USD]
** Dealing **
Dealt to Hero [  2c 7h 3d ]
Hero opens
Hero bring-ins [$3 USD]
Villain completes [$10 USD]
Shorty folds
Hero folds
Villain wins $16 USD from the main pot.
"""


def parse_text(text: str, file: str = "inline.txt") -> list[ParseOutcome]:
    return site_helpers.parse_text(PARSER, text, file, encoding="ascii", newline="\r\n")


def parse_one(text: str) -> Hand:
    return only_hand(parse_text(text))


def implied_rake(hand: Hand) -> int:
    """Party states neither rake nor total pot: what the players put in less what they won."""
    contributed = sum(hand.contributed_by(player) for player in hand.players)
    return contributed - sum(award.amount for award in hand.awards)


def test_header_stakes_button_and_time() -> None:
    hand = parse_one(SPLIT)
    assert hand.site == "partypoker" and hand.hand_id == "22001" and hand.source.first_line == 1
    stakes = hand.stakes
    assert (stakes.ante, stakes.bring_in, stakes.small_bet, stakes.big_bet) == (100, 300, 1000, 2000)
    assert (stakes.currency, stakes.unit, stakes.structure, stakes.table_size) == ("USD", 100, Structure.FIXED_LIMIT, 8)
    assert stakes.bring_in_source == "posted" and not stakes.is_tournament
    assert hand.dealer_seat == 0 and hand.position_order == ("Hero", "Villain")  # seats listed out of order
    assert hand.table_name == "Table 125524" and hand.game_label == "7 Card Stud Hi-Lo"
    assert hand.started_at == datetime(2012, 2, 27, 9, 51, 26) and hand.timezone == "EST"
    assert (hand.total_pot, hand.rake) == (None, None)


@pytest.mark.parametrize(
    ("stakes", "expected"),
    [
        ("$10 / $20 USD", (1000, 2000, "USD")),  # spaces around the slash
        ("€10/€20 EUR", (1000, 2000, "EUR")),
        ("£10/£20", (1000, 2000, "GBP")),
        ("$1,000/$2,000 USD", (100000, 200000, "USD")),
        ("10/20 USD", (1000, 2000, "USD")),
    ],
)
def test_header_stakes_read_tolerantly(stakes: str, expected: tuple[int, int, str]) -> None:
    hand = only_hand(site_helpers.parse_text(PARSER, SPLIT.replace("$10/$20 USD FL", f"{stakes} FL", 1)))
    assert (hand.stakes.small_bet, hand.stakes.big_bet, hand.stakes.currency) == expected


def test_header_time_without_seconds_and_a_letter_in_the_stakes() -> None:
    hand = parse_one(SPLIT.replace("09:51:26 EST", "09:51 EST", 1))
    assert hand.started_at == datetime(2012, 2, 27, 9, 51) and hand.timezone == "EST"
    outcomes = site_helpers.parse_text(PARSER, SPLIT.replace("$10/$20 USD FL", "$10/$2O USD FL", 1))
    assert [type(outcome).__name__ for outcome in outcomes] == ["FailedHand"], outcomes


def test_amounts_are_chips_added_bring_in_completion_raise() -> None:
    hand = parse_one(SPLIT)
    third = [(a.player, a.kind, a.amount, a.to_amount) for a in hand.actions
             if a.street is Street.THIRD and a.kind is not ActionKind.ANTE]
    assert third == [
        ("Hero", ActionKind.BRING_IN, 300, 300),
        ("Villain", ActionKind.COMPLETE, 1000, 1000),
        ("Hero", ActionKind.RAISE, 1700, 2000),  # "raises [$17 USD]" adds 17 to the 3 already in
        ("Villain", ActionKind.CALL, 1000, 2000),
    ]
    assert [a.kind for a in hand.actions if a.street is Street.FOURTH] == [ActionKind.BET, ActionKind.CALL]


def test_hero_cards_only_and_low_on_its_own_line() -> None:
    hand = parse_one(SPLIT)
    assert hand.hero == "Hero"
    assert {d.player for d in hand.deals} == {"Hero"}  # opponents' up cards are never printed
    third = next(d for d in hand.deals if d.street is Street.THIRD)
    assert third.down == (Card.parse("Ah"), Card.parse("4h")) and third.up == (Card.parse("4d"),)
    seventh = next(d for d in hand.deals if d.street is Street.SEVENTH)
    assert seventh.down == (Card.parse("8s"),) and seventh.up == ()
    villain = next(s for s in hand.showdown if s.player == "Villain")
    assert villain.status is ShowStatus.SHOWN and villain.cards[0] == Card.parse("Qc") and len(villain.cards) == 7
    assert (villain.high_text, villain.low_text) == ("high card Ace", "8,5,3,2,A")


def test_halves_low_labelled_high_by_elimination() -> None:
    hand = parse_one(SPLIT)
    assert [(a.player, a.amount, a.pot, a.half) for a in hand.awards] == [
        ("Hero", 9050, 0, Half.HIGH),
        ("Villain", 9050, 0, Half.LOW),
    ]
    assert implied_rake(hand) == 100  # $182 in, $181 out: Party prints no rake line


def test_all_in_with_chips_flag_line_side_pot_and_no_low() -> None:
    hand = parse_one(ALL_IN)
    shorty = next(a for a in hand.actions if a.player == "Shorty" and a.street is Street.THIRD and a.all_in)
    assert (shorty.kind, shorty.amount, shorty.to_amount) == (ActionKind.RAISE, 2100, 2400)
    flagged = [a for a in hand.actions if a.player == "Hero" and a.all_in]
    assert [(a.kind, a.street, a.amount) for a in flagged] == [(ActionKind.CALL, Street.FOURTH, 1000)]
    # without the flag line the call that empties Hero's $35 stack is still all-in
    unflagged = parse_one(ALL_IN.replace("Hero is all-In.\n", ""))
    assert [(a.player, a.street) for a in unflagged.actions if a.all_in] == [("Shorty", Street.THIRD), ("Hero", Street.FOURTH)]
    assert [(a.player, a.amount, a.pot, a.half) for a in hand.awards] == [
        ("Villain", 2000, 1, Half.WHOLE),
        ("Shorty", 7400, 0, Half.WHOLE),
    ]
    assert next(s for s in hand.showdown if s.player == "Hero").status is ShowStatus.MUCKED
    assert implied_rake(hand) == 100


def test_fold_out_has_no_uncalled_line_and_the_win_includes_it() -> None:
    hand = parse_one(FOLD_OUT)
    assert hand.uncalled == ()
    assert [(a.player, a.amount, a.half) for a in hand.awards] == [("Villain", 1600, Half.WHOLE)]
    assert implied_rake(hand) == 0
    assert any("uncalled" in note.text for note in hand.notes)


def test_noise_and_chat_are_not_actions() -> None:
    hand = parse_one(SPLIT)
    assert [a.kind for a in hand.actions if a.player == "Villain" and a.kind is ActionKind.FOLD] == []
    assert len(hand.actions) == 2 + 4 + 2 * 4


def test_hands_without_the_starts_line_split_on_the_history_line() -> None:
    bare = SPLIT.replace("Game #22001 starts.\n\n#Game No : 22001\n", "").replace("for Game", "For Game")
    text = bare + "\n" + bare.replace("22001", "22009")
    outcomes = parse_text(text)
    assert [o.hand_id for o in outcomes if isinstance(o, Hand)] == ["22001", "22009"]
    assert outcomes[1].source.first_line == len(bare.splitlines()) + 2  # type: ignore[union-attr]


def test_unknown_line_fails_naming_site_line_and_text() -> None:
    outcome = parse_text(SPLIT.replace("Hero raises [$17 USD]", "Hero juggles [$17 USD]"))[0]
    assert failed_at(outcome, "partypoker", 19, "Hero juggles [$17 USD]").hand_id == "22001"


def test_truncated_last_hand_is_incomplete_not_a_crash() -> None:
    text = FOLD_OUT + "\n" + "\n".join(SPLIT.splitlines()[:20])
    outcomes = parse_text(text)
    assert isinstance(outcomes[0], Hand)
    assert isinstance(outcomes[1], FailedHand) and outcomes[1].kind is FailureKind.ENDS_EARLY
    assert outcomes[1].raw.first_line == len(FOLD_OUT.splitlines()) + 2


def test_other_games_and_closed_tables_are_skipped() -> None:
    stud_hi = parse_text(SPLIT.replace("7 Card Stud Hi-Lo", "7 Card Stud"))[0]
    assert isinstance(stud_hi, SkippedHand) and stud_hi.game == "7 Card Stud" and stud_hi.hand_id == "22001"
    omaha = parse_text(SPLIT.replace("FL 7 Card Stud Hi-Lo", "PL Omaha Hi-Lo"))[0]
    assert isinstance(omaha, SkippedHand) and omaha.game == "Omaha Hi-Lo"
    closed = parse_text(FOLD_OUT.replace("Villain wins $16 USD from the main pot.", "Table Closed"))[0]
    assert isinstance(closed, SkippedHand) and "closed" in closed.game


def test_sniffing() -> None:
    assert detect(decode_bytes(SPLIT.encode()).lines) is PARSER
    assert PARSER.sniff(["***** Hand History For Game 11480841734 *****"])
    assert not PARSER.sniff(["PokerStars Game #35874576282:  7 Card Stud Hi/Lo Limit ($0.04/$0.08 USD)"])
    assert not PARSER.sniff(["Full Tilt Poker Game #1: Table T - $1/$2 Ante $0.10 - Limit Stud H/L - 10:00:00 ET - 2011/04/07"])
    assert not PARSER.sniff(["Bovada Hand #2844383701 TBL#7794710 7CARD HiLo Fixed Limit - 2014-04-06 19:50:19"])


# ------------------------------------------------------------------ real and sample files

def test_corpus_file_counts_and_conservation(corpus: Path) -> None:
    path = corpus / "PartyPoker" / "7-StudHL-USD-10-20.201202.wins.lo.pot.txt"
    outcomes = corpus_outcomes(PARSER, path)
    assert kinds(outcomes) == Counter({"Hand": 1})
    hand = outcomes[0]
    assert isinstance(hand, Hand) and hand.hand_id == "11480841734"
    # $182 went in and $181 came out: the $1 is the rake, which Party does not print
    assert sum(hand.contributed_by(p) for p in hand.players) == 18200 and implied_rake(hand) == 100
    assert {a.half for a in hand.awards} == {Half.HIGH, Half.LOW}


def test_sample_histories_parse() -> None:
    hands = sample_hands(PARSER)
    assert all(0 <= implied_rake(hand) <= 100 for hand in hands), [(hand.hand_id, implied_rake(hand)) for hand in hands]
    assert len(hands) >= 3
    assert {Half.HIGH, Half.LOW, Half.WHOLE} <= {a.half for h in hands for a in h.awards}
    assert any(a.pot == 1 for h in hands for a in h.awards) and any(a.all_in for h in hands for a in h.actions)
