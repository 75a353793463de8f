"""Bovada grammar and site module, on tricky lines written from the formats doc (section 4)."""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from pathlib import Path

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
from hhtool.sites.bovada import PARSER
from tests import site_helpers
from tests.site_helpers import corpus_outcomes, failed_at, kinds, only_hand, sample_hands

# three-way to 4th street, heads-up to the river; hi/lo split told only by the summary; trailing blanks kept
SPLIT = """\
Bovada Hand #3000000001 TBL#5550001 7CARD HiLo Fixed Limit - 2014-05-02 20:12:31
Seat+1: $81.75 in chips
Seat+2: $64.05 in chips
Seat+4 [ME]: $99.75 in chips
Seat+4 [ME] : Ante chip $0.25 \n\
Seat+1 : Ante chip $0.25 \n\
Seat+2 : Ante chip $0.25 \n\
*** 3RD STREET ***
Seat+1 : Card dealt to a spot [Ts Kh 8d] \n\
Seat+2 : Card dealt to a spot [2d Ac 3s] \n\
Seat+4 [ME] : Card dealt to a spot [4h 6c 5h] \n\
Seat+2 : Bring_in chip $0.50 \n\
Seat+4 [ME] : Raises $2 to $2
Seat+1 : Raises $2 to $4
Seat+2 : Raises $7.50 to $6
Seat+4 [ME] : Calls $4 \n\
Seat+1 : Calls $2 \n\
*** 4TH STREET ***
Seat+1 : Card dealt to a spot [Kd] \n\
Seat+2 : Card dealt to a spot [6d] \n\
Seat+4 [ME] : Card dealt to a spot [7s] \n\
Seat+1 : Bets $2 \n\
Seat+2 : Calls $2 \n\
Seat+4 [ME] : Raises $4 to $4
Seat+1 : Folds
Seat+2 : Calls $2 \n\
Seat+1 : Table leave user
*** 5TH STREET ***
Seat+2 : Card dealt to a spot [4d] \n\
Seat+4 [ME] : Card dealt to a spot [Ad] \n\
Seat+2 : Bets $4 \n\
Seat+4 [ME] : Calls $4 \n\
*** 6TH STREET ***
Seat+2 : Card dealt to a spot [Js] \n\
Seat+4 [ME] : Card dealt to a spot [8h] \n\
Seat+2 : Checks
Seat+4 [ME] : Checks
*** RIVER ***
Seat+2 : Card dealt to a spot [Qh] \n\
Seat+4 [ME] : Card dealt to a spot [9c] \n\
Seat+2 : Checks
Seat+4 [ME] : Bets $4 \n\
Seat+2 : Calls $4 \n\
Seat+4 [ME] : Showdown [9c 8h 7s 6c 5h Ad 4h 5h 6c 7s] (Straight)
Seat+2 : Showdown [Ac Qh Js 6d 4d Ac 2d 3s 4d 6d] (High Card)
Seat+2 : Hand result $20.87 \n\
Seat+4 [ME] : Hand result $20.88 \n\
*** SUMMARY ***
Total Pot($44.75) | Rake ($3)
Seat+1:  Folded on the 4TH STREET
Seat+2:   with High Card [2d Ac 3s 6d 4d Js Qh-Ac Qh Js 6d 4d] LO $20.87 [2d Ac 3s 6d 4d Js Qh-Ac 2d 3s 4d 6d]
Seat+4:  HI $20.88  with Straight [4h 6c 5h 7s Ad 8h 9c-9c 8h 7s 6c 5h]  \n\

"""

# a short stack all-in for chips ("All-in $3"), a raise all-in ("All-in(raise) ... to ..."), a side pot,
# a scoop whose single result the summary splits into HI and LO, an uncontested side pot
ALL_IN = """\
Bovada Hand #3000000002 TBL#5550001 7CARD HiLo Fixed Limit - 2014-05-02 20:15:47
Seat+3: $9.25 in chips
Seat+4 [ME]: $121.38 in chips
Seat+6: $12.25 in chips
Seat+4 [ME] : Ante chip $0.25 \n\
Seat+3 : Ante chip $0.25 \n\
Seat+6 : Ante chip $0.25 \n\
*** 3RD STREET ***
Seat+3 : Card dealt to a spot [Ac 5h 3d] \n\
Seat+4 [ME] : Card dealt to a spot [Kh Kd 9c] \n\
Seat+6 : Card dealt to a spot [Qs Jh 2s] \n\
Seat+6 : Bring_in chip $0.50 \n\
Seat+3 : Raises $2 to $2
Seat+4 [ME] : Raises $4 to $4
Seat+6 : Calls $3.50 \n\
Seat+3 : Calls $2 \n\
*** 4TH STREET ***
Seat+3 : Card dealt to a spot [7c] \n\
Seat+4 [ME] : Card dealt to a spot [6d] \n\
Seat+6 : Card dealt to a spot [Qh] \n\
Seat+6 : Bets $2 \n\
Seat+3 : Calls $2 \n\
Seat+4 [ME] : Calls $2 \n\
*** 5TH STREET ***
Seat+3 : Card dealt to a spot [8s] \n\
Seat+4 [ME] : Card dealt to a spot [Kc] \n\
Seat+6 : Card dealt to a spot [9h] \n\
Seat+6 : Bets $4 \n\
Seat+3 : All-in $3 \n\
Seat+4 [ME] : Calls $4 \n\
*** 6TH STREET ***
Seat+3 : Card dealt to a spot [2c] \n\
Seat+4 [ME] : Card dealt to a spot [4d] \n\
Seat+6 : Card dealt to a spot [Js] \n\
Seat+6 : All-in(raise) $2 to $2
Seat+4 [ME] : Calls $2 \n\
*** RIVER ***
Seat+3 : Card dealt to a spot [4s] \n\
Seat+4 [ME] : Card dealt to a spot [Td] \n\
Seat+6 : Card dealt to a spot [8d] \n\
Seat+3 : Showdown [5h 4s 3d 2c Ac Ac 2c 3d 4s 5h] (Straight)
Seat+4 [ME] : Showdown [Kh Kd Kc Td 9c] (Three of a kind)
Seat+6 : Showdown [Qs Qh Jh Js 9h] (Two pair)
Seat+4 [ME] : Hand result-Side pot $6 \n\
Seat+3 : Hand result $26.75 \n\
*** SUMMARY ***
Total Pot($33.75) | Rake ($1)
Seat+3:  HI $13.38  with Straight [Ac 5h 3d 7c 8s 2c 4s-5h 4s 3d 2c Ac] LO $13.37 [Ac 5h 3d 7c 8s 2c 4s-Ac 2c 3d 4s 5h]
Seat+4:  HI $6  with Three of a kind [Kh Kd 9c 6d Kc 4d Td-Kh Kd Kc Td 9c]  \n\
Seat+6:   with Two pair [Qs Jh 2s Qh 9h Js 8d-Qs Qh Jh Js 9h] \n\
"""

# bring-in, completion, everybody folds: the uncalled part is returned; the summary amount has no label
FOLD_OUT = """\
Bovada Hand #3000000003 TBL#5550001 7CARD HiLo Fixed Limit - 2014-05-02 20:11:09
Seat+1: $80 in chips
Seat+2: $64.30 in chips
Seat+5: $92.40 in chips
Seat+1 : Ante chip $0.25 \n\
Seat+2 : Ante chip $0.25 \n\
Seat+5 : Ante chip $0.25 \n\
*** 3RD STREET ***
Seat+1 : Card dealt to a spot [5s 8c Kd] \n\
Seat+2 : Card dealt to a spot [Th 3h 4c] \n\
Seat+5 : Card dealt to a spot [Kc 8h 2d] \n\
Seat+5 : Bring_in chip $0.50 \n\
Seat+1 : Raises $2 to $2
Seat+2 : Folds
Seat+5 : Folds
Seat+1 : Return uncalled portion of bet $1.50 \n\
Seat+1 : Hand result $1.75 \n\
*** SUMMARY ***
Total Pot($1.75)
Seat+1:  $1.75  [Does not show]  \n\
Seat+2:  Folded on the 3rd STREET
Seat+5:  Folded on the 3rd STREET
"""


# the 2012 export: "*** HOLE CARDS ***" and no later street markers, "Big blind/Bring in", raises that
# state only the total ("Raises 40"), "Hand Result", tournament chips, summary lines "Seat 4:"
OLD_FORMAT = """\
Bovada Hand #2633200001: 7CARD HiLo Tournament #1378700 TBL#2, Fixed Limit- Level 1 (0/0) - 2012-06-17 22:21:03
Seat+1: 1,500 in chips
Seat+4 [ME]: 1,500 in chips
Seat+5: 1,500 in chips
Seat+4 [ME] : Table enter user
Seat+1 : Ante chip 2 \n\
Seat+4 [ME] : Ante chip 2 \n\
Seat+5 : Ante chip 2 \n\
*** HOLE CARDS ***
Seat+1 : Card dealt to a spot [9d Td 5c] \n\
Seat+4 [ME] : Card dealt to a spot [2h 2c 3c] \n\
Seat+5 : Card dealt to a spot [Kc 4s Kd] \n\
Seat+4 [ME] : Big blind/Bring in 5 \n\
Seat+5 : Raises 10 \n\
Seat+1 : Call 10 \n\
Seat+4 [ME] : Call 5 \n\
Seat+1 : Card dealt to a spot [8s] \n\
Seat+4 [ME] : Card dealt to a spot [7d] \n\
Seat+5 : Card dealt to a spot [Ts] \n\
Seat+5 : Bets 10 \n\
Seat+1 : Folds
Seat+4 [ME] : Call 10 \n\
Seat+4 [ME] : Card dealt to a spot [4c] \n\
Seat+5 : Card dealt to a spot [6h] \n\
Seat+5 : Bets 20 \n\
Seat+4 [ME] : Raises 40 \n\
Seat+5 : Call 20 \n\
Seat+4 [ME] : Card dealt to a spot [5d] \n\
Seat+5 : Card dealt to a spot [8c] \n\
Seat+4 [ME] : Bets 20 \n\
Seat+5 : Call 20 \n\
Seat+4 [ME] : Card dealt to a spot [Ah] \n\
Seat+5 : Card dealt to a spot [Qs] \n\
Seat+4 [ME] : Checks
Seat+5 : Checks
Seat+4 [ME] : Showdown [5d 4c 3c 2h Ah 5d 4c 3c 2h Ah] (Straight)
Seat+5 : Mucks [Kc 4s Kd Ts 6h 8c Qs] (One pair)
Seat+4 [ME] : Hand Result 176 \n\
*** SUMMARY ***
Total Pot(176)
Seat 1:  Folded on the 4TH STREET
Seat 4:  HI 88  with Straight [2h 2c 3c 7d 4c 5d Ah-5d 4c 3c 2h Ah] LO 88 [2h 2c 3c 7d 4c 5d Ah-Ah 2h 3c 4c 5d]
Seat 5:   [Mucked] [Kc 4s Kd Ts 6h 8c Qs ]
"""

def parse_text(text: str, file: str = "inline.txt") -> list[ParseOutcome]:
    return site_helpers.parse_text(PARSER, text, file, encoding="ascii", newline="\r\n")


def parse_one(text: str) -> Hand:
    return only_hand(parse_text(text))


def conserved(hand: Hand) -> bool:
    """Bovada states no fees: chips in = the stated total pot = awards + rake."""
    return hand.fees == 0 and site_helpers.conserved(hand, total_pot=True)


def test_header_and_stakes_read_from_the_posts_and_first_bets() -> None:
    hand = parse_one(SPLIT)
    assert hand.site == "bovada" and hand.hand_id == "3000000001" and hand.table_name == "5550001"
    assert hand.game_label == "7CARD HiLo Fixed Limit"
    assert hand.started_at == datetime(2014, 5, 2, 20, 12, 31)
    stakes = hand.stakes
    assert (stakes.ante, stakes.bring_in, stakes.small_bet, stakes.big_bet) == (25, 50, 200, 400)
    assert (stakes.currency, stakes.unit, stakes.structure) == ("USD", 100, Structure.FIXED_LIMIT)
    assert stakes.bring_in_source == "posted"
    assert any("prints no stakes" in note.text for note in hand.notes)
    fold_out = parse_one(FOLD_OUT)
    assert (fold_out.stakes.small_bet, fold_out.stakes.big_bet) == (200, None)  # no big-street bet to read


def test_anonymous_seats_and_the_hero() -> None:
    hand = parse_one(SPLIT)
    assert hand.players == ("Seat+1", "Seat+2", "Seat+4")
    assert [seat.seat for seat in hand.seats] == [1, 2, 4] and hand.seat_of("Seat+4").stack == 9975
    assert hand.hero == "Seat+4" and hand.dealer_seat is None


def test_completion_raise_to_and_call_increment() -> None:
    hand = parse_one(SPLIT)
    third = [(a.player, a.kind, a.amount, a.to_amount) for a in hand.actions
             if a.street is Street.THIRD and a.kind is not ActionKind.ANTE]
    assert third == [
        ("Seat+2", ActionKind.BRING_IN, 50, 50),
        ("Seat+4", ActionKind.COMPLETE, 200, 200),  # "Raises $2 to $2"
        ("Seat+1", ActionKind.RAISE, 400, 400),
        ("Seat+2", ActionKind.RAISE, 550, 600),  # the "to" total wins over a wrong "$7.50" added
        ("Seat+4", ActionKind.CALL, 400, 600),  # "Calls $4": chips added
        ("Seat+1", ActionKind.CALL, 200, 600),
    ]
    assert any("raise adds 750 but goes from 50 to 600" in note.text for note in hand.notes)
    fourth = [(a.kind, a.to_amount) for a in hand.actions if a.street is Street.FOURTH]
    assert fourth == [(ActionKind.BET, 200), (ActionKind.CALL, 200), (ActionKind.RAISE, 400),
                      (ActionKind.FOLD, 200), (ActionKind.CALL, 400)]


def test_deals_reveal_every_card_and_are_not_a_showdown() -> None:
    hand = parse_one(SPLIT)
    third = {d.player: d for d in hand.deals if d.street is Street.THIRD}
    assert third["Seat+1"].down == (Card.parse("Ts"), Card.parse("Kh")) and third["Seat+1"].up == (Card.parse("8d"),)
    seventh = {d.player: d for d in hand.deals if d.street is Street.SEVENTH}
    assert seventh["Seat+2"].down == (Card.parse("Qh"),) and seventh["Seat+2"].up == ()
    assert {s.player for s in hand.showdown} == {"Seat+2", "Seat+4"}  # the folded Seat+1 showed nothing
    low_player = next(s for s in hand.showdown if s.player == "Seat+2")
    assert low_player.status is ShowStatus.SHOWN and low_player.high_text == "High Card"
    # ten cards printed (best high five, best low five), seven distinct kept
    assert low_player.cards == tuple(Card.parse(c) for c in ["Ac", "Qh", "Js", "6d", "4d", "2d", "3s"])


def test_halves_come_from_the_summary() -> None:
    hand = parse_one(SPLIT)
    assert [(a.player, a.amount, a.pot, a.half) for a in hand.awards] == [
        ("Seat+2", 2087, 0, Half.LOW),
        ("Seat+4", 2088, 0, Half.HIGH),
    ]
    assert conserved(hand) and hand.rake == 300


def test_all_in_side_pot_and_a_scoop_split_into_halves() -> None:
    hand = parse_one(ALL_IN)
    all_in = [(a.player, a.kind, a.amount, a.to_amount, a.street) for a in hand.actions if a.all_in]
    assert all_in == [
        ("Seat+3", ActionKind.CALL, 300, 300, Street.FIFTH),  # "All-in $3" under a $4 bet
        ("Seat+6", ActionKind.BET, 200, 200, Street.SIXTH),  # "All-in(raise) $2 to $2" opens 6th
    ]
    assert [(a.player, a.amount, a.pot, a.half) for a in hand.awards] == [
        ("Seat+4", 600, 1, Half.HIGH),
        ("Seat+3", 1338, 0, Half.HIGH),  # one "Hand result $26.75" = HI $13.38 + LO $13.37
        ("Seat+3", 1337, 0, Half.LOW),
    ]
    assert conserved(hand)


def test_uncalled_return_and_unlabelled_summary_amount() -> None:
    hand = parse_one(FOLD_OUT)
    assert [(u.player, u.amount, u.street) for u in hand.uncalled] == [("Seat+1", 150, Street.THIRD)]
    assert [(a.player, a.amount, a.half) for a in hand.awards] == [("Seat+1", 175, Half.WHOLE)]
    assert hand.rake is None and hand.total_pot == 175 and hand.showdown == ()


def test_older_export_counts_streets_by_deals() -> None:
    hand = parse_one(OLD_FORMAT)
    assert hand.stakes.is_tournament and (hand.stakes.currency, hand.stakes.unit) == ("CHIPS", 1)
    assert (hand.stakes.ante, hand.stakes.bring_in, hand.stakes.small_bet, hand.stakes.big_bet) == (2, 5, 10, 20)
    assert hand.table_name == "2" and hand.tournament_id == "1378700"
    by_street = Counter(a.street for a in hand.actions if a.kind is not ActionKind.ANTE)
    assert by_street == {Street.THIRD: 4, Street.FOURTH: 3, Street.FIFTH: 3, Street.SIXTH: 2, Street.SEVENTH: 2}
    third = [(a.kind, a.to_amount) for a in hand.actions if a.street is Street.THIRD and a.kind is not ActionKind.ANTE]
    assert third == [(ActionKind.BRING_IN, 5), (ActionKind.COMPLETE, 10), (ActionKind.CALL, 10), (ActionKind.CALL, 10)]
    raise_ = next(a for a in hand.actions if a.kind is ActionKind.RAISE)
    assert (raise_.street, raise_.amount, raise_.to_amount) == (Street.FIFTH, 40, 40)  # "Raises 40": the total
    assert next(d for d in hand.deals if d.street is Street.SEVENTH and d.player == "Seat+4").down == (Card.parse("Ah"),)
    assert [(a.player, a.amount, a.half) for a in hand.awards] == [("Seat+4", 88, Half.HIGH), ("Seat+4", 88, Half.LOW)]
    mucked = next(s for s in hand.showdown if s.player == "Seat+5")
    assert mucked.status is ShowStatus.MUCKED and len(mucked.cards) == 7
    assert conserved(hand)

def test_noise_is_dropped() -> None:
    hand = parse_one(SPLIT)
    assert [a.kind for a in hand.actions if a.player == "Seat+1"][-1] is ActionKind.FOLD


def test_unknown_line_fails_naming_site_line_and_text() -> None:
    outcome = failed_at(parse_text(SPLIT.replace("Seat+1 : Calls $2 ", "Seat+1 : Dances $2 "))[0], "bovada", 17,
                        "Seat+1 : Dances $2")
    assert outcome.hand_id == "3000000001"


def test_truncated_last_hand_is_incomplete_not_a_crash() -> None:
    text = FOLD_OUT + "\n" + "\n".join(SPLIT.splitlines()[:30])
    outcomes = parse_text(text)
    assert isinstance(outcomes[0], Hand)
    assert isinstance(outcomes[1], FailedHand) and outcomes[1].kind is FailureKind.ENDS_EARLY
    assert outcomes[1].raw.first_line == len(FOLD_OUT.splitlines()) + 2


def test_other_games_are_skipped() -> None:
    stud_hi = parse_text(FOLD_OUT.replace("7CARD HiLo", "7CARD"))[0]
    assert isinstance(stud_hi, SkippedHand) and stud_hi.game == "7CARD Fixed Limit" and stud_hi.hand_id == "3000000003"
    holdem = parse_text(FOLD_OUT.replace("7CARD HiLo Fixed Limit", "HOLDEM No Limit"))[0]
    assert isinstance(holdem, SkippedHand) and holdem.game == "HOLDEM No Limit"


def test_sniffing() -> None:
    assert detect(decode_bytes(SPLIT.encode()).lines) is PARSER
    assert PARSER.sniff(["Bodog.eu Hand #12345 TBL#9 7CARD HiLo Fixed Limit - 2012-05-02 20:15:47"])
    assert not PARSER.sniff(["PokerStars Game #35874576282:  7 Card Stud Hi/Lo Limit ($0.04/$0.08 USD)"])
    assert not PARSER.sniff(["Full Tilt Poker Game #1: Table T - $1/$2 Ante $0.10 - Limit Stud H/L - 10:00:00 ET - 2011/04/07"])
    assert not PARSER.sniff(["Game #11480841734 starts."])


# ------------------------------------------------------------------ real and sample files

def test_corpus_file_counts_and_conservation(corpus: Path) -> None:
    path = corpus / "Bovada" / "7-StudHL-USD - RING - $5-$10, $1.25 Ante - 201404.txt"
    outcomes = corpus_outcomes(PARSER, path)
    assert kinds(outcomes) == Counter({"Hand": 1})
    hand = outcomes[0]
    assert isinstance(hand, Hand) and hand.hand_id == "2844383701"
    contributed = sum(hand.contributed_by(p) for p in hand.players)
    assert contributed == hand.total_pot == 15000
    # "Total Pot($150)" with no rake printed; the results add up to $147: the $3 left is the rake
    assert hand.rake is None and contributed - sum(a.amount for a in hand.awards) == 300
    assert [(a.player, a.half) for a in hand.awards] == [("Seat+2", Half.LOW), ("Seat+5", Half.HIGH)]
    assert (hand.stakes.small_bet, hand.stakes.big_bet, hand.stakes.bring_in) == (500, 1000, 250)


def test_sample_histories_parse() -> None:
    hands = sample_hands(PARSER)
    assert all(conserved(hand) for hand in hands), [hand.hand_id for hand in hands if not conserved(hand)]
    assert len(hands) >= 3
    assert {Half.HIGH, Half.LOW} == {a.half for h in hands for a in h.awards}
    assert any(a.pot == 1 for h in hands for a in h.awards) and any(a.all_in for h in hands for a in h.actions)
    # an uncontested pot is labelled "HI $2.50 [Does not show]": recorded as the summary says
    fold_out = next(h for h in hands if h.uncalled)
    assert [(a.amount, a.half) for a in fold_out.awards] == [(250, Half.HIGH)]
    assert [(s.status, len(s.cards)) for s in fold_out.showdown] == [(ShowStatus.NOT_SHOWN, 3)]


def test_level_stakes_and_time_read_tolerantly() -> None:
    hand = parse_one(OLD_FORMAT.replace("Level 1 (0/0) - 2012-06-17 22:21:03", "Level 1 (0 / 0) - 2012-06-17 22:21", 1))
    assert hand.started_at == datetime(2012, 6, 17, 22, 21)
