"""Full Tilt grammar and site module, on tricky lines written from the formats doc (section 2)."""

from __future__ import annotations

import re
from collections import Counter
from datetime import datetime
from decimal import Decimal
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
from hhtool.sites.fulltilt import PARSER
from tests import site_helpers
from tests.site_helpers import corpus_outcomes, failed_at, kinds, only_hand, sample_hands

HEADER = (
    "Full Tilt Poker Game #30011236980: Table Bramble (6 max) - $2/$4 Ante $0.25 - Limit Stud H/L"
    " - 21:06:47 CET - 2011/05/14 [15:06:47 ET - 2011/05/14]"
)

# all-in on 5th street, a side pot, both pots split high/low, noise and chat in the middle
SIDE_POT_HAND = HEADER + """
Seat 1: Peyote7 ($65.25)
Seat 2: dsouza ($69.87)
Seat 3: QuietRiver ($9.25)
Seat 4: Hero ($123.38)
Seat 5: k.lamb ($80)
Seat 6: MontyZ ($119.50)
Hero antes $0.25
k.lamb antes $0.25
MontyZ antes $0.25
Peyote7 antes $0.25
dsouza antes $0.25
QuietRiver antes $0.25
*** 3RD STREET ***
Dealt to Hero [3h 2h] [5c]
Dealt to Peyote7 [Kh]
Dealt to dsouza [Qs]
Dealt to QuietRiver [3d]
Dealt to k.lamb [Th]
Dealt to MontyZ [2s]
MontyZ is low with [2s]
MontyZ brings in for $0.50
Peyote7 folds
dsouza folds
dsouza: i folds
QuietRiver completes it to $2
Hero raises to $4
k.lamb folds
MontyZ has 15 seconds left to act
MontyZ calls $3.50
QuietRiver calls $2
*** 4TH STREET ***
Dealt to Hero [3h 2h 5c] [6d]
Dealt to QuietRiver [3d] [7c]
Dealt to MontyZ [2s] [Ah]
MontyZ bets $2
QuietRiver calls $2
k.lamb adds $10
Hero calls $2
*** 5TH STREET ***
Dealt to Hero [3h 2h 5c 6d] [Kc]
Dealt to QuietRiver [3d 7c] [8s]
Dealt to MontyZ [2s Ah] [9h]
MontyZ bets $4
QuietRiver calls $3, and is all in
Hero calls $4
*** 6TH STREET ***
Dealt to Hero [3h 2h 5c 6d Kc] [4d]
Dealt to QuietRiver [3d 7c 8s] [2c]
Dealt to MontyZ [2s Ah 9h] [Js]
MontyZ bets $4
Hero calls $4
*** 7TH STREET ***
Dealt to Hero [3h 2h 5c 6d Kc 4d] [Td]
MontyZ checks
Hero bets $4
MontyZ calls $4
*** SHOW DOWN ***
Hero shows [3h 2h 5c 6d Kc 4d Td] a straight, Two to Six, for high and 6,5,4,3,2, for low
MontyZ shows [As Ad 2s Ah 9h Js Jd] a full house, Aces full of Jacks, for high
MontyZ wins the high side pot ($9) with a full house, Aces full of Jacks
Hero wins the low side pot ($9) with 6,5,4,3,2
QuietRiver shows [Ac 5h 3d 7c 8s 2c 4s] a straight, Ace to Five, for high and 5,4,3,2,A, for low
MontyZ wins the high main pot ($13.25) with a full house, Aces full of Jacks
QuietRiver wins the low main pot ($13.25) with 5,4,3,2,A
*** SUMMARY ***
Total pot $46.50 Main pot $28.50. Side pot $18. | Rake $2
Seat 1: Peyote7 folded on 3rd St.
Seat 2: dsouza folded on 3rd St.
Seat 3: QuietRiver showed [Ac 5h 3d 7c 8s 2c 4s] and won ($13.25) with HI: a straight, Ace to Five; LO: 5,4,3,2,A
Seat 4: Hero showed [3h 2h 5c 6d Kc 4d Td] and won ($9) with HI: a straight, Two to Six; LO: 6,5,4,3,2
Seat 5: k.lamb folded on 3rd St.
Seat 6: MontyZ showed [As Ad 2s Ah 9h Js Jd] and won ($22.25) with HI: a full house, Aces full of Jacks
"""

# completion, everybody folds: uncalled bet, the winner "mucks" without a showdown; a seat sitting out
FOLD_OUT = """\
Full Tilt Poker Game #30011220001: Table Bramble (6 max) - $2/$4 Ante $0.25 - Limit Stud H/L - 15:02:11 ET - 2011/05/14
Seat 1: Peyote7 ($80)
Seat 2: dsouza ($64.30)
Seat 3: QuietRiver ($15.75), is sitting out
Seat 5: k.lamb ($92.40)
Peyote7 antes $0.25
dsouza antes $0.25
k.lamb antes $0.25
*** 3RD STREET ***
Dealt to Peyote7 [Kd]
Dealt to dsouza [4c]
Dealt to k.lamb [2d]
k.lamb is low with [2d]
k.lamb brings in for $0.50
Peyote7 completes it to $2
dsouza folds
k.lamb folds
Uncalled bet of $1.50 returned to Peyote7
Peyote7 mucks
Peyote7 wins the pot ($1.75)
*** SUMMARY ***
Total pot $1.75 | Rake $0
Seat 1: Peyote7 collected ($1.75), mucked
Seat 2: dsouza folded on 3rd St.
Seat 3: QuietRiver is sitting out
Seat 5: k.lamb folded on 3rd St.
"""

# heads-up to the river, no low: "wins the pot" + "No low hand qualified"; a loser mucks, cards in the summary
NO_LOW = """\
Full Tilt Poker Game #30011230112: Table Bramble (6 max) - $2/$4 Ante $0.25 - Limit Stud H/L - 15:05:02 ET - 2011/05/14
Seat 1: Peyote7 ($81.50)
Seat 4: Hero ($107.63)
Peyote7 antes $0.25
Hero antes $0.25
*** 3RD STREET ***
Dealt to Hero [Jh Td] [Jd]
Dealt to Peyote7 [Qh]
Hero is low with [Jd]
Hero brings in for $0.50
Peyote7 calls $0.50
*** 4TH STREET ***
Dealt to Hero [Jh Td Jd] [3c]
Dealt to Peyote7 [Qh] [8s]
Peyote7 checks
Hero checks
*** 5TH STREET ***
Dealt to Hero [Jh Td Jd 3c] [Jc]
Dealt to Peyote7 [Qh 8s] [Kd]
Hero bets $4
Peyote7 calls $4
*** 6TH STREET ***
Dealt to Hero [Jh Td Jd 3c Jc] [9d]
Dealt to Peyote7 [Qh 8s Kd] [5s]
Hero checks
Peyote7 checks
*** 7TH STREET ***
Dealt to Hero [Jh Td Jd 3c Jc 9d] [2s]
Hero bets $4
Peyote7 calls $4
*** SHOW DOWN ***
Hero shows [Jh Td Jd 3c Jc 9d 2s] three of a kind, Jacks, for high
Peyote7 mucks
Hero wins the pot ($16.50) with three of a kind, Jacks
No low hand qualified
*** SUMMARY ***
Total pot $17.50 | Rake $1
Seat 1: Peyote7 mucked [Ks Qd Qh 8s Kd 5s 7d] - HI: two pair, Kings and Queens
Seat 4: Hero showed [Jh Td Jd 3c Jc 9d 2s] and won ($16.50) with HI: three of a kind, Jacks
"""


def parse_text(text: str, file: str = "inline.txt") -> list[ParseOutcome]:
    return site_helpers.parse_text(PARSER, text, file, encoding="utf-16")  # FTP files are UTF-16LE with a BOM


def parse_one(text: str) -> Hand:
    return only_hand(parse_text(text))


def conserved(hand: Hand) -> bool:
    """Chips in (less returns) = stated total pot = awards + rake + fees."""
    return site_helpers.conserved(hand, total_pot=True)


def test_header_stakes_table_and_time() -> None:
    hand = parse_one(SIDE_POT_HAND)
    assert hand.site == "fulltilt" and hand.hand_id == "30011236980"
    stakes = hand.stakes
    assert (stakes.ante, stakes.bring_in, stakes.small_bet, stakes.big_bet) == (25, 50, 200, 400)
    assert (stakes.currency, stakes.unit, stakes.structure, stakes.table_size) == ("USD", 100, Structure.FIXED_LIMIT, 6)
    assert stakes.bring_in_source == "posted" and not stakes.is_tournament
    assert hand.table_name == "Bramble" and hand.game_label == "Limit Stud H/L"
    assert hand.started_at == datetime(2011, 5, 14, 15, 6, 47) and hand.timezone == "ET"
    assert hand.dealer_seat is None  # FTP deals from the lowest seat; no button in stud
    assert [seat.stack for seat in hand.seats][:3] == [6525, 6987, 925]
    assert hand.seats[0].line == 2 and hand.source.first_line == 1


def test_tournament_and_old_headers() -> None:
    in_chips = re.sub(r"\$(\d+(?:\.\d+)?)", lambda m: str(int(Decimal(m.group(1)) * 100)), FOLD_OUT)
    tournament = in_chips.replace("Table Bramble (6 max)", "$10 + $1 Sit & Go (123456789), Table 3")
    hand = parse_one(tournament)
    assert hand.stakes.is_tournament and hand.tournament_id == "123456789"
    assert (hand.stakes.currency, hand.stakes.unit, hand.stakes.small_bet, hand.stakes.ante) == ("CHIPS", 1, 200, 25)
    assert hand.table_name == "3"
    old_time = parse_one(FOLD_OUT)  # header with the ET time only
    assert old_time.started_at == datetime(2011, 5, 14, 15, 2, 11) and old_time.timezone == "ET"
    assert old_time.stakes.table_size == 6


@pytest.mark.parametrize(
    ("stakes", "expected"),
    [
        ("$2 / $4 Ante $0.25", (25, 200, 400, "USD")),  # spaces around the slash
        ("$2/$4, Ante $0.25", (25, 200, 400, "USD")),
        ("€2/€4 Ante €0.25", (25, 200, 400, "EUR")),
        ("£1,000/£2,000 Ante £100", (10000, 100000, 200000, "GBP")),
        ("2/4 USD Ante 0.25", (25, 200, 400, "USD")),
    ],
)
def test_header_stakes_read_tolerantly(stakes: str, expected: tuple[int, int, int, str]) -> None:
    hand = parse_one(FOLD_OUT.replace("$2/$4 Ante $0.25", stakes, 1))
    assert (hand.stakes.ante, hand.stakes.small_bet, hand.stakes.big_bet, hand.stakes.currency) == expected


@pytest.mark.parametrize(
    ("when", "expected"),
    [
        ("15:02 ET - 2011/05/14", datetime(2011, 5, 14, 15, 2)),  # without seconds
        ("21:02 CET - 2011/05/14 [15:02 ET - 2011/05/14]", datetime(2011, 5, 14, 15, 2)),
        ("21:02:11 CET - 2011/5/14 [15:02:11 ET - 2011/5/14]", datetime(2011, 5, 14, 15, 2, 11)),
    ],
)
def test_header_times_read_tolerantly(when: str, expected: datetime) -> None:
    hand = parse_one(FOLD_OUT.replace("15:02:11 ET - 2011/05/14", when, 1))
    assert hand.started_at == expected and hand.timezone == "ET"


def test_header_stakes_with_a_letter_inside_fail() -> None:
    outcomes = site_helpers.parse_text(PARSER, FOLD_OUT.replace("$2/$4 Ante $0.25", "$2/$4 Ante $0.2S", 1))
    assert kinds(outcomes)["FailedHand"] == 1, outcomes


def test_completion_raise_to_and_call_increment() -> None:
    hand = parse_one(SIDE_POT_HAND)
    third = [(a.player, a.kind, a.amount, a.to_amount) for a in hand.actions if a.street is Street.THIRD
             and a.kind is not ActionKind.ANTE]
    assert third == [
        ("MontyZ", ActionKind.BRING_IN, 50, 50),
        ("Peyote7", ActionKind.FOLD, 0, 0),
        ("dsouza", ActionKind.FOLD, 0, 0),
        ("QuietRiver", ActionKind.COMPLETE, 200, 200),  # "completes it to $2"
        ("Hero", ActionKind.RAISE, 400, 400),  # "raises to $4": the street total
        ("k.lamb", ActionKind.FOLD, 0, 0),
        ("MontyZ", ActionKind.CALL, 350, 400),  # "calls $3.50": chips added over his bring-in
        ("QuietRiver", ActionKind.CALL, 200, 400),
    ]


def test_all_in_suffix_and_contributions() -> None:
    hand = parse_one(SIDE_POT_HAND)
    all_in = [a for a in hand.actions if a.all_in]
    assert [(a.player, a.kind, a.amount, a.street) for a in all_in] == [("QuietRiver", ActionKind.CALL, 300, Street.FIFTH)]
    assert hand.contributed_by("QuietRiver") == 925 == hand.seat_of("QuietRiver").stack
    assert conserved(hand)


def test_side_pot_and_half_labels() -> None:
    hand = parse_one(SIDE_POT_HAND)
    assert [(a.player, a.amount, a.pot, a.half) for a in hand.awards] == [
        ("MontyZ", 900, 1, Half.HIGH),
        ("Hero", 900, 1, Half.LOW),
        ("MontyZ", 1325, 0, Half.HIGH),
        ("QuietRiver", 1325, 0, Half.LOW),
    ]
    assert (hand.total_pot, hand.rake) == (4650, 200)


def test_hidden_cards_hero_and_showdown_texts() -> None:
    hand = parse_one(SIDE_POT_HAND)
    assert hand.hero == "Hero"
    third = {d.player: d for d in hand.deals if d.street is Street.THIRD}
    assert third["Peyote7"].down == (None, None) and third["Peyote7"].up == (Card.parse("Kh"),)
    assert third["Hero"].down == (Card.parse("3h"), Card.parse("2h")) and third["Hero"].up == (Card.parse("5c"),)
    seventh = [d for d in hand.deals if d.street is Street.SEVENTH]
    assert [(d.player, d.down, d.up) for d in seventh] == [("Hero", (Card.parse("Td"),), ())]  # others are not printed
    shows = {s.player: s for s in hand.showdown}
    assert shows["Hero"].status is ShowStatus.SHOWN and len(shows["Hero"].cards) == 7
    assert (shows["Hero"].high_text, shows["Hero"].low_text) == ("a straight, Two to Six", "6,5,4,3,2")
    assert (shows["MontyZ"].high_text, shows["MontyZ"].low_text) == ("a full house, Aces full of Jacks", None)


def test_noise_and_chat_that_looks_like_an_action_are_not_actions() -> None:
    hand = parse_one(SIDE_POT_HAND)
    assert [a.kind for a in hand.actions if a.player == "dsouza"] == [ActionKind.ANTE, ActionKind.FOLD]
    assert len(hand.actions) == 6 + 8 + 3 + 3 + 2 + 3  # "adds" and "seconds left" lines are dropped


def test_uncalled_bet_uncontested_winner_and_sitting_out_seat() -> None:
    hand = parse_one(FOLD_OUT)
    assert [(u.player, u.amount, u.street) for u in hand.uncalled] == [("Peyote7", 150, Street.THIRD)]
    assert [(s.player, s.status) for s in hand.showdown] == [("Peyote7", ShowStatus.NOT_SHOWN)]
    assert [(a.player, a.amount, a.pot, a.half) for a in hand.awards] == [("Peyote7", 175, 0, Half.WHOLE)]
    assert hand.seat_of("QuietRiver").sitting_out and not hand.seat_of("Peyote7").sitting_out
    assert conserved(hand)


def test_no_low_whole_pot_and_mucked_cards_from_summary() -> None:
    hand = parse_one(NO_LOW)
    assert [(a.player, a.amount, a.half) for a in hand.awards] == [("Hero", 1650, Half.WHOLE)]
    peyote = next(s for s in hand.showdown if s.player == "Peyote7")
    assert peyote.status is ShowStatus.MUCKED and peyote.cards[0] == Card.parse("Ks") and len(peyote.cards) == 7
    assert peyote.high_text == "two pair, Kings and Queens"
    assert conserved(hand) and hand.rake == 100


def test_ties_and_a_returned_ante() -> None:
    tie = SIDE_POT_HAND.replace(
        "QuietRiver wins the low main pot ($13.25) with 5,4,3,2,A",
        "QuietRiver ties for the low main pot ($6.63) with 5,4,3,2,A\nHero ties for the low main pot ($6.62) with 6,5,4,3,2",
    )
    hand = parse_one(tie)
    assert [(a.player, a.amount, a.pot, a.half) for a in hand.awards if a.pot == 0 and a.half is Half.LOW] == [
        ("QuietRiver", 663, 0, Half.LOW), ("Hero", 662, 0, Half.LOW)]
    assert conserved(hand)
    timed_out = (FOLD_OUT.replace("Dealt to dsouza [4c]\n", "").replace("dsouza folds\n", "")
                 .replace("k.lamb antes $0.25\n", "k.lamb antes $0.25\nAnte of $0.25 returned to dsouza\n")
                 .replace("$1.75", "$1.50"))
    hand = parse_one(timed_out)
    assert ("dsouza", 25) in [(u.player, u.amount) for u in hand.uncalled]
    assert hand.contributed_by("dsouza") == 0 and conserved(hand)

def test_unknown_line_fails_naming_site_line_and_text() -> None:
    text = SIDE_POT_HAND.replace("Hero raises to $4\n", "Hero teleports to $4\n")
    outcome = failed_at(parse_text(text)[0], "fulltilt", 27, "Hero teleports to $4")
    assert outcome.hand_id == "30011236980"


def test_action_by_unseated_player_fails() -> None:
    outcome = parse_text(FOLD_OUT.replace("dsouza folds", "Ghost folds"))[0]
    assert isinstance(outcome, FailedHand) and "Ghost" in outcome.reason and outcome.line == 16


def test_truncated_last_hand_is_incomplete_not_a_crash() -> None:
    text = FOLD_OUT + "\n\n\n" + "\n".join(NO_LOW.splitlines()[:14])
    outcomes = parse_text(text)
    assert isinstance(outcomes[0], Hand)
    assert isinstance(outcomes[1], FailedHand) and outcomes[1].kind is FailureKind.ENDS_EARLY
    assert outcomes[1].raw.first_line == len(FOLD_OUT.splitlines()) + 4
    partial = parse_text(FOLD_OUT.replace("2011/05/14", "2011/05/14 (partial)", 1))[0]
    assert isinstance(partial, FailedHand) and "partial" in partial.reason


def test_other_games_and_cancelled_hands_are_skipped() -> None:
    for game in ("Limit Stud Hi", "Limit Razz", "No Limit 2-7 Single Draw", "Limit Omaha H/L"):
        outcome = parse_text(FOLD_OUT.replace("Limit Stud H/L", game))[0]
        assert isinstance(outcome, SkippedHand) and outcome.game == game
    cancelled = parse_text(FOLD_OUT + "Hand #30011220001 has been canceled\n")[0]
    assert isinstance(cancelled, SkippedHand) and "cancelled" in cancelled.game


def test_sniffing() -> None:
    lines = decode_bytes(FOLD_OUT.encode("utf-16")).lines
    assert detect(lines) is PARSER
    assert not PARSER.sniff(["PokerStars Game #35874576282:  7 Card Stud Hi/Lo Limit ($0.04/$0.08 USD)"])
    assert not PARSER.sniff(["Bovada Hand #2844383701 TBL#7794710 7CARD HiLo Fixed Limit - 2014-04-06 19:50:19"])
    assert not PARSER.sniff(["***** Hand History for Game 11480841734 *****"])


# ------------------------------------------------------------------ real and sample files

def test_corpus_file_counts_and_conservation(corpus: Path) -> None:
    path = corpus / "FullTilt" / "10Game-6max-USD-2.50-5.201104.Sample.txt"
    outcomes = corpus_outcomes(PARSER, path)
    assert kinds(outcomes) == Counter({"Hand": 10, "SkippedHand": 74})
    hands = [o for o in outcomes if isinstance(o, Hand)]
    assert all(conserved(hand) for hand in hands)
    side_pot_hand = next(h for h in hands if h.hand_id == "29705138396")
    assert {(a.pot, a.half) for a in side_pot_hand.awards} == {(0, Half.HIGH), (0, Half.LOW), (1, Half.HIGH), (1, Half.LOW)}
    skipped = Counter(o.game for o in outcomes if isinstance(o, SkippedHand))
    assert skipped["Limit Stud Hi"] == 10 and skipped["Limit Razz"] == 10


def test_sample_histories_parse() -> None:
    hands = sample_hands(PARSER, encoding="utf-16")
    assert all(conserved(hand) for hand in hands), [hand.hand_id for hand in hands if not conserved(hand)]
    halves = {a.half for h in hands for a in h.awards}
    assert {Half.HIGH, Half.LOW, Half.WHOLE} <= halves
    assert any(a.all_in for h in hands for a in h.actions)
