"""Merge / Carbon XML fragments: unit tests on inline XML (no corpus needed), an authored tournament file,
the sample file and the corpus."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.ingest.reader import read_file
from hhtool.model import (
    ActionKind,
    Card,
    FailedHand,
    Half,
    Hand,
    ParseOutcome,
    ShowStatus,
    SkippedHand,
    StakeSource,
    Street,
    Structure,
)
from hhtool.replay import Verdict, replay
from hhtool.sites import detect
from hhtool.sites.merge import PARSER, UNCALLED_INSIDE_AWARDS_NOTE
from tests import site_helpers
from tests.site_helpers import SAMPLES, corpus_outcomes, corpus_path, kinds, parse_lines, sample_hands

DESCRIPTION = '<description type="{kind}" stakes="{stakes}" version="2"/>'
START = ('<game id="{gid}" starttime="{start}" numholecards="7" gametype="{gametype}" seats="8" realmoney="true"'
         '{multi} data="20130715|Guatemala II|70969727|{gid}|false" version="2">')
PLAYERS = """	<players dealer="7">
		<player seat="0" nickname="Sleeper" balance="$4.02" dealtin="false" />
		<player seat="2" nickname="Ann" balance="$1.00" dealtin="true" />
		<player seat="5" nickname="Bo" balance="$9.93" dealtin="true" />
		<player seat="7" nickname="Hero" balance="$10.00" dealtin="true" />
	</players>
	<round id="BLINDS" sequence="1">
		<event sequence="1" type="ANTE" timestamp="1373942103107" player="5" amount="0.02"/>
		<event sequence="2" type="ANTE" timestamp="1373942103263" player="7" amount="0.02"/>
		<event sequence="3" type="ANTE" timestamp="1373942103263" player="2" amount="0.02"/>
	</round>"""

# Ann brings in, Bo completes, Hero folds, Ann calls; 4th: Ann checks, Bo bets, Ann raises, Bo calls;
# 5th: Bo bets, Ann folds -> the bet comes back as an uncalled pseudo-winner.
FOLDED = """	<round id="BRING_IN" sequence="2">
		<event sequence="4" type="BRING_IN" timestamp="1373942107408" player="2" amount="0.05"/>
		<cards type="DRAW_DRAWN_CARDS" cards="null,null,2h" player="2"/>
		<cards type="DRAW_DRAWN_CARDS" cards=",,Jc" player="5"/>
		<cards type="HOLE" cards="9c,6c,Ah" player="7" hand="Ace High"/>
	</round>
	<round id="THIRD_STREET" sequence="3">
		<event sequence="5" type="COMPLETE" timestamp="1373942109718" player="5" amount="0.25"/>
		<event sequence="6" type="FOLD" timestamp="1373942125745" player="7"/>
		<event sequence="7" type="CHAT" timestamp="1373942125800" player="Hero" text="RAISE 5 CALL"/>
		<event sequence="8" type="CALL" timestamp="1373942128840" player="2" amount="0.20"/>
	</round>
	<round id="FOURTH_STREET" sequence="4">
		<event sequence="9" type="CHECK" timestamp="1373942130381" player="2"/>
		<event sequence="10" type="BET" timestamp="1373942132514" player="5" amount="0.25"/>
		<event sequence="11" type="DISCONNECTED" timestamp="1373942132600" player="7"/>
		<event sequence="12" type="RAISE" timestamp="1373942138331" player="2" amount="0.50"/>
		<event sequence="13" type="CALL" timestamp="1373942141211" player="5" amount="0.25"/>
		<cards type="DRAW_DRAWN_CARDS" cards="null,null,2h,8s" player="2"/>
		<cards type="DRAW_DRAWN_CARDS" cards=",,Jc,Td" player="5"/>
		<cards type="HOLE" cards="9c,6c,Ah" player="7" hand="Ace High"/>
	</round>
	<round id="FIFTH_STREET" sequence="5">
		<event sequence="14" type="BET" timestamp="1373942147985" player="5" amount="0.50"/>
		<event sequence="15" type="FOLD" timestamp="1373942151604" player="2"/>
		<cards type="DRAW_DRAWN_CARDS" cards="null,null,2h,8s,Js" player="2"/>
		<cards type="DRAW_DRAWN_CARDS" cards=",,Jc,Td,Ad" player="5"/>
		<cards type="HOLE" cards="9c,6c,Ah" player="7" hand="Ace High"/>
	</round>
	<round id="END_OF_FOLDED_GAME" sequence="6">
		<event sequence="16" type="MUCK" timestamp="1373942152000" player="5"/>
		<winner amount="1.50" uncalled="false" potnumber="1" player="5" pottype="n"/>
		<winner amount="0.50" uncalled="true" potnumber="2" player="5" pottype="n"/>
	</round>
	<round id="END_OF_GAME" sequence="7">
	</round>"""

# Ann is all-in on 4th; Bo and Hero bet on into a side pot; showdown with halves in both pots.
SIDE_POT = """	<round id="BRING_IN" sequence="2">
		<event sequence="4" type="BRING_IN" timestamp="1" player="2" amount="0.05"/>
		<cards type="DRAW_DRAWN_CARDS" cards="null,null,2h" player="2"/>
		<cards type="DRAW_DRAWN_CARDS" cards="null,null,Jc" player="5"/>
		<cards type="HOLE" cards="4c,5c,Kh" player="7" hand="King High"/>
	</round>
	<round id="THIRD_STREET" sequence="3">
		<event sequence="5" type="COMPLETE" timestamp="2" player="5" amount="0.25"/>
		<event sequence="6" type="CALL" timestamp="3" player="7" amount="0.25"/>
		<event sequence="7" type="CALL" timestamp="4" player="2" amount="0.20"/>
	</round>
	<round id="FOURTH_STREET" sequence="4">
		<event sequence="8" type="BET" timestamp="5" player="5" amount="0.25"/>
		<event sequence="9" type="CALL" timestamp="6" player="7" amount="0.25"/>
		<event sequence="10" type="ALL_IN" timestamp="7" player="2" amount="0.{allin}"/>
		{after_allin}
		<cards type="DRAW_DRAWN_CARDS" cards="null,null,2h,8s" player="2"/>
		<cards type="DRAW_DRAWN_CARDS" cards="null,null,Jc,Td" player="5"/>
		<cards type="HOLE" cards="4c,5c,Kh,3d" player="7" hand="King High"/>
	</round>
	<round id="FIFTH_STREET" sequence="5">
		<event sequence="12" type="BET" timestamp="8" player="5" amount="0.50"/>
		<event sequence="13" type="CALL" timestamp="9" player="7" amount="0.50"/>
		<cards type="DRAW_DRAWN_CARDS" cards="null,null,2h,8s,Js" player="2"/>
		<cards type="DRAW_DRAWN_CARDS" cards="null,null,Jc,Td,Ad" player="5"/>
		<cards type="HOLE" cards="4c,5c,Kh,3d,7h" player="7" hand="King High"/>
	</round>
	<round id="SIXTH_STREET" sequence="6">
		<event sequence="14" type="CHECK" timestamp="10" player="5"/>
		<event sequence="15" type="CHECK" timestamp="11" player="7"/>
		<cards type="DRAW_DRAWN_CARDS" cards="null,null,2h,8s,Js,6d" player="2"/>
		<cards type="DRAW_DRAWN_CARDS" cards="null,null,Jc,Td,Ad,Qs" player="5"/>
		<cards type="HOLE" cards="4c,5c,Kh,3d,7h,9s" player="7" hand="King High"/>
	</round>
	<round id="SEVENTH_STREET" sequence="7">
		<event sequence="16" type="CHECK" timestamp="12" player="5"/>
		<event sequence="17" type="CHECK" timestamp="13" player="7"/>
		<cards type="DRAW_DRAWN_CARDS" cards="null,null,2h,8s,Js,6d,null" player="2"/>
		<cards type="DRAW_DRAWN_CARDS" cards="null,null,Jc,Td,Ad,Qs,null" player="5"/>
		<cards type="HOLE" cards="4c,5c,Kh,3d,7h,9s,2c" player="7" hand="Seven High - Lo (7-5-4-3-2)"/>
	</round>
	<round id="SHOWDOWN" sequence="8">
		<event sequence="18" type="SHOW" timestamp="14" player="5"/>
		<event sequence="19" type="SHOW" timestamp="15" player="7"/>
		<event sequence="20" type="MUCK" timestamp="16" player="2"/>
		<cards type="SHOWN" cards="Jd,Jh,Jc,Td,Ad,Qs,3s" player="5"/>
		<cards type="SHOWN" cards="4c,5c,Kh,3d,7h,9s,2c" player="7"/>
		<cards type="MUCKED" cards="Ks,Qd,2h,8s,Js,6d,Tc" player="2"/>
	</round>
	<round id="END_OF_GAME" sequence="9">
		<winner amount="{main_high}" uncalled="false" potnumber="1" player="5" pottype="h" hand="Three of a Kind Jacks"/>
		<winner amount="{main_low}" uncalled="false" potnumber="1" player="7" pottype="l" hand="7-5-4-3-2"/>
		<winner amount="0.50" uncalled="false" potnumber="2" player="5" pottype="h" hand="Three of a Kind Jacks"/>
		<winner amount="0.50" uncalled="false" potnumber="2" player="7" pottype="l" hand="7-5-4-3-2"/>
	</round>"""


def game(rounds: str, gid: str = "70969727-130", gametype: str = "43", multi: str = "", start: str = "20130715213500",
         players: str = PLAYERS) -> str:
    head = START.format(gid=gid, start=start, gametype=gametype, multi=f' multigametype="{multi}"' if multi else "")
    return f"{head}\n{players}\n{rounds}\n</game>"


def file_lines(*games: str, kind: str = "7-Stud H/L8", stakes: str = "Limit $0.25/$0.50") -> list[str]:
    return "\n\n".join([DESCRIPTION.format(kind=kind, stakes=stakes), *games]).split("\n")


def parse_all(lines: list[str]) -> list[ParseOutcome]:
    return parse_lines(PARSER, lines, "test.xml")


def only_hand(lines: list[str]) -> Hand:
    return site_helpers.only_hand(parse_all(lines))


def side_pot_lines(allin: str = "73", after: str = "") -> list[str]:
    rounds = SIDE_POT.replace("{allin}", allin).replace("{after_allin}", after)
    rounds = rounds.replace("{main_high}", "1.45").replace("{main_low}", "1.44")
    return file_lines(game(rounds))


# ---------------------------------------------------------------- sniffing and splitting


def test_sniff_claims_merge_fragments_only() -> None:
    lines = file_lines(game(FOLDED))
    assert PARSER.sniff([line for line in lines if line.strip()][:40])
    assert detect(lines) is PARSER
    assert PARSER.sniff([lines[2]])  # a file of games without the description
    ipoker = ['<?xml version="1.0" encoding="utf-8"?>', '<session sessioncode="6249559275">']
    stars = ["PokerStars Game #35874487284:  7 Card Stud Hi/Lo Limit ($0.04/$0.08) - 2009/11/25 14:22:27 ET"]
    assert not PARSER.sniff(ipoker) and not PARSER.sniff(stars)


def test_games_split_with_true_lines_and_blank_lines_between() -> None:
    lines = file_lines(game(FOLDED, gid="1-1"), game(FOLDED, gid="1-2"))
    raws = list(PARSER.split(lines, "test.xml"))
    assert [raw.first_line for raw in raws] == [3, 3 + len(raws[0].lines) + 1]
    for raw in raws:
        assert lines[raw.first_line - 1] == raw.lines[0] and lines[raw.last_line - 1] == "</game>"
    hand = PARSER.parse(raws[1])
    assert isinstance(hand, Hand) and hand.hand_id == "1-2"
    raise_line = next(a.line for a in hand.actions if a.kind is ActionKind.RAISE)
    assert 'type="RAISE"' in lines[raise_line - 1]


def test_concatenated_files_switch_to_the_next_description() -> None:
    first = file_lines(game(FOLDED, gid="1-1"))
    second = file_lines(game(FOLDED, gid="2-1"), stakes="Limit $0.50/$1.00")
    outcomes = parse_all([*first, "", *second])
    assert [o.stakes.small_bet for o in outcomes if isinstance(o, Hand)] == [25, 50]


def test_stray_text_and_end_tag_outside_games_are_reported() -> None:
    lines = [*file_lines(game(FOLDED, gid="1-1")), "stray words", "</game>"]
    outcomes = parse_all(lines)
    assert isinstance(outcomes[0], Hand)
    failed = [o for o in outcomes[1:] if isinstance(o, FailedHand)]
    assert [lines[f.line - 1] for f in failed] == ["stray words", "</game>"]
    assert all("outside any <game>" in f.reason for f in failed)


# ---------------------------------------------------------------- header, seats, actions


def test_header_stakes_seats_dealer_and_sitting_out() -> None:
    hand = only_hand(file_lines(game(FOLDED)))
    assert hand.hand_id == "70969727-130" and hand.game_label == "7-Stud H/L8"
    assert (hand.stakes.small_bet, hand.stakes.big_bet, hand.stakes.ante, hand.stakes.bring_in) == (25, 50, 2, 5)
    assert hand.stakes.currency == "USD" and hand.stakes.structure is Structure.FIXED_LIMIT
    assert hand.stakes.table_size == 8 and hand.table_name == "Guatemala II"
    assert hand.dealer_seat == 7
    assert hand.position_order == ("Sleeper", "Ann", "Bo", "Hero")
    assert [(s.player, s.stack, s.sitting_out) for s in hand.seats][:2] == [("Sleeper", 402, True), ("Ann", 100, False)]
    assert hand.hero == "Hero"
    assert hand.started_at is not None and (hand.started_at.hour, hand.started_at.minute) == (21, 35)


def test_no_limit_stakes() -> None:
    hand = only_hand(file_lines(game(FOLDED), stakes="No Limit ($0.25/$0.50)"))
    assert hand.stakes.structure is Structure.NO_LIMIT and hand.stakes.small_bet == 25


def test_events_by_seat_complete_raise_to_and_call_added() -> None:
    hand = only_hand(file_lines(game(FOLDED)))
    actions = [(a.street, a.player, a.kind, a.amount, a.to_amount) for a in hand.actions if a.kind is not ActionKind.ANTE]
    assert actions == [
        (Street.THIRD, "Ann", ActionKind.BRING_IN, 5, 5),
        (Street.THIRD, "Bo", ActionKind.COMPLETE, 25, 25),
        (Street.THIRD, "Hero", ActionKind.FOLD, 0, 0),
        (Street.THIRD, "Ann", ActionKind.CALL, 20, 25),  # CALL amount is chips added
        (Street.FOURTH, "Ann", ActionKind.CHECK, 0, 0),
        (Street.FOURTH, "Bo", ActionKind.BET, 25, 25),
        (Street.FOURTH, "Ann", ActionKind.RAISE, 50, 50),  # RAISE amount is the street total
        (Street.FOURTH, "Bo", ActionKind.CALL, 25, 50),
        (Street.FIFTH, "Bo", ActionKind.BET, 50, 50),
        (Street.FIFTH, "Ann", ActionKind.FOLD, 0, 0),
    ]


def test_old_format_raise_is_chips_added() -> None:
    hand = only_hand(file_lines(game(FOLDED, start="20100101120000")))
    ann_raise = next(a for a in hand.actions if a.kind is ActionKind.RAISE)
    assert (ann_raise.amount, ann_raise.to_amount) == (50, 50)  # Ann had nothing in: same either way
    bo_raise_text = FOLDED.replace('type="CALL" timestamp="1373942141211" player="5" amount="0.25"',
                                   'type="RAISE" timestamp="1373942141211" player="5" amount="0.50"')
    bo_raise_text = bo_raise_text.replace("</round>\n\t<round id=\"FIFTH_STREET\"",
                                          '\t<event sequence="30" type="CALL" timestamp="1" player="2" amount="0.25"/>\n'
                                          "\t</round>\n\t<round id=\"FIFTH_STREET\"", 1)
    old = only_hand(file_lines(game(bo_raise_text, start="20100101120000")))
    new = only_hand(file_lines(game(bo_raise_text)))
    old_raise = [a for a in old.actions if a.kind is ActionKind.RAISE][-1]
    new_raise = [a for a in new.actions if a.kind is ActionKind.RAISE][-1]
    assert (old_raise.amount, old_raise.to_amount) == (50, 75) and (new_raise.amount, new_raise.to_amount) == (25, 50)
    assert any("format before 2010-09-08" in note.text for note in old.notes)


def test_cumulative_hidden_cards_become_new_deals_only() -> None:
    hand = only_hand(file_lines(game(FOLDED)))
    bo = [(d.street, d.down, d.up) for d in hand.deals if d.player == "Bo"]
    assert bo == [(Street.THIRD, (None, None), (Card.parse("Jc"),)), (Street.FOURTH, (), (Card.parse("Td"),)),
                  (Street.FIFTH, (), (Card.parse("Ad"),))]
    hero = [(d.street, d.down, d.up) for d in hand.deals if d.player == "Hero"]
    assert hero == [(Street.THIRD, (Card.parse("9c"), Card.parse("6c")), (Card.parse("Ah"),))]  # repeats ignored


def test_uncalled_pseudo_winner_is_a_return_not_an_award() -> None:
    hand = only_hand(file_lines(game(FOLDED)))
    assert [(u.player, u.amount, u.street) for u in hand.uncalled] == [("Bo", 50, Street.FIFTH)]
    assert [(a.player, a.amount, a.pot, a.half) for a in hand.awards] == [("Bo", 150, 0, Half.WHOLE)]
    assert [(s.player, s.status) for s in hand.showdown] == [("Bo", ShowStatus.NOT_SHOWN)]
    contributed = sum(hand.contributed_by(p) for p in hand.players)
    assert contributed == 156 and hand.rake is None
    assert any("= 6 implied" in note.text for note in hand.notes)


def test_older_export_award_includes_the_uncalled_bet() -> None:
    """Older Merge exports have no uncalled pseudo-winner: the winner's amount holds the unmatched bet.
    The amounts stay as stated, no return is invented, and the hand says which accounting it uses; the
    newer export (a pseudo-winner) and a hand whose award does not hold the bet get no such note."""
    older = FOLDED.replace('<winner amount="1.50" uncalled="false"', '<winner amount="2.00" uncalled="false"').replace(
        '\t\t<winner amount="0.50" uncalled="true" potnumber="2" player="5" pottype="n"/>\n', "")
    hand = only_hand(file_lines(game(older)))
    assert hand.uncalled == () and [(a.player, a.amount) for a in hand.awards] == [("Bo", 200)]
    assert any(note.text.startswith(UNCALLED_INSIDE_AWARDS_NOTE) and "the 0.50 nobody matched (Bo, 5th street)" in note.text
               for note in hand.notes), hand.notes
    newer = only_hand(file_lines(game(FOLDED)))
    assert not any(note.text.startswith(UNCALLED_INSIDE_AWARDS_NOTE) for note in newer.notes)
    kept = FOLDED.replace('\t\t<winner amount="0.50" uncalled="true" potnumber="2" player="5" pottype="n"/>\n', "")
    short = only_hand(file_lines(game(kept)))  # the bet neither returned nor awarded: no older-export reading
    assert short.uncalled == () and not any(note.text.startswith(UNCALLED_INSIDE_AWARDS_NOTE) for note in short.notes)


# ---------------------------------------------------------------- all-in, side pots, halves


def test_all_in_raise_side_pot_and_halves() -> None:
    hand = only_hand(side_pot_lines(after='<event sequence="11" type="CALL" timestamp="7" player="5" amount="0.48"/>'
                                    '<event sequence="11" type="CALL" timestamp="7" player="7" amount="0.48"/>'))
    ann_all_in = next(a for a in hand.actions if a.player == "Ann" and a.street is Street.FOURTH)
    assert (ann_all_in.kind, ann_all_in.amount, ann_all_in.to_amount, ann_all_in.all_in) == (ActionKind.RAISE, 73, 73, True)
    assert hand.contributed_by("Ann") == 100  # her whole stack
    awards = [(a.player, a.amount, a.pot, a.half) for a in hand.awards]
    assert awards == [("Bo", 145, 0, Half.HIGH), ("Hero", 144, 0, Half.LOW), ("Bo", 50, 1, Half.HIGH), ("Hero", 50, 1, Half.LOW)]
    assert sum(hand.contributed_by(p) for p in hand.players) - sum(a.amount for a in hand.awards) == 11
    shown = {s.player: (s.status, s.high_text, s.low_text, len(s.cards)) for s in hand.showdown}
    assert shown == {"Bo": (ShowStatus.SHOWN, "Three of a Kind Jacks", None, 7),
                     "Hero": (ShowStatus.SHOWN, None, "7-5-4-3-2", 7), "Ann": (ShowStatus.MUCKED, None, None, 7)}


def test_all_in_for_less_than_the_bet_is_a_short_call() -> None:
    lines = side_pot_lines(allin="20")
    short = [line.replace('balance="$1.00"', 'balance="$0.47"') for line in lines]
    assert short != lines, "Ann's balance was not edited"
    lines = short
    hand = only_hand(lines)
    ann = next(a for a in hand.actions if a.player == "Ann" and a.street is Street.FOURTH)
    assert (ann.kind, ann.amount, ann.to_amount, ann.all_in) == (ActionKind.CALL, 20, 20, True)
    assert not any("does not match" in note.text for note in hand.notes)


def test_all_in_amount_given_as_street_total_is_recognised_by_the_stack() -> None:
    # Ann calls 0.25, Hero raises, Bo calls, Ann shoves her last 0.48: written as 0.73, her street total.
    rounds = SIDE_POT.replace(
        '<event sequence="9" type="CALL" timestamp="6" player="7" amount="0.25"/>', "").replace(
        '<event sequence="10" type="ALL_IN" timestamp="7" player="2" amount="0.{allin}"/>',
        '<event sequence="9" type="CALL" timestamp="6" player="2" amount="0.25"/>'
        '<event sequence="10" type="RAISE" timestamp="7" player="7" amount="0.50"/>'
        '<event sequence="11" type="CALL" timestamp="7" player="5" amount="0.25"/>'
        '<event sequence="11" type="ALL_IN" timestamp="7" player="2" amount="0.73"/>')
    rounds = rounds.replace("{after_allin}", "").replace("{main_high}", "1.45").replace("{main_low}", "1.44")
    hand = only_hand(file_lines(game(rounds)))
    ann = [a for a in hand.actions if a.player == "Ann" and a.street is Street.FOURTH][-1]
    assert (ann.kind, ann.amount, ann.to_amount, ann.all_in) == (ActionKind.RAISE, 48, 73, True)
    assert hand.contributed_by("Ann") == 100
    assert not any("does not match" in note.text for note in hand.notes)


# ---------------------------------------------------------------- games, noise, failures


def test_mixed_game_file_skips_other_games() -> None:
    lines = file_lines(game(FOLDED, gid="1-1", gametype="75", multi="43"), game(FOLDED, gid="1-2", gametype="75", multi="46"),
                       game(FOLDED, gid="1-3", gametype="75", multi="38"), kind="HORSE")
    outcomes = parse_all(lines)
    assert isinstance(outcomes[0], Hand) and outcomes[0].game_label == "HORSE (7-Stud H/L8)"
    assert [(type(o).__name__, getattr(o, "game", None)) for o in outcomes[1:]] == [
        ("SkippedHand", "HORSE (Razz)"), ("SkippedHand", "HORSE (7-Stud)")]


def test_cancelled_game_is_skipped() -> None:
    rounds = FOLDED.replace('<event sequence="16" type="MUCK"', '<event sequence="17" type="GAME_CANCELLED" timestamp="1"/>'
                            '<event sequence="16" type="MUCK"')
    outcome = parse_all(file_lines(game(rounds)))[0]
    assert isinstance(outcome, SkippedHand) and "cancelled" in outcome.game


def test_unknown_event_fails_with_site_line_and_text() -> None:
    lines = file_lines(game(FOLDED.replace('type="CHECK"', 'type="STRADDLE"')))
    failed = parse_all(lines)[0]
    assert isinstance(failed, FailedHand) and failed.hand_id == "70969727-130"
    assert failed.reason.startswith("merge: unknown event type 'STRADDLE'") and 'player="2"' in failed.reason
    assert 'type="STRADDLE"' in lines[failed.line - 1]


def test_event_for_an_empty_seat_fails() -> None:
    lines = file_lines(game(FOLDED.replace('type="CHECK" timestamp="1373942130381" player="2"',
                                           'type="CHECK" timestamp="1373942130381" player="4"')))
    failed = parse_all(lines)[0]
    assert isinstance(failed, FailedHand) and "no player in seat 4" in failed.reason
    assert 'player="4"' in lines[failed.line - 1]


def test_malformed_game_fails_alone() -> None:
    broken = game(FOLDED, gid="1-2").replace('<cards type="DRAW_DRAWN_CARDS" cards=",,Jc,Td" player="5"/>',
                                             '<cards type="DRAW_DRAWN_CARDS" cards=",,Jc,Td" player="5">')
    lines = file_lines(game(FOLDED, gid="1-1"), broken, game(FOLDED, gid="1-3"))
    outcomes = parse_all(lines)
    assert [type(o).__name__ for o in outcomes] == ["Hand", "FailedHand", "Hand"]
    failed = outcomes[1]
    assert isinstance(failed, FailedHand) and "malformed XML" in failed.reason
    assert failed.raw.first_line <= failed.line <= failed.raw.last_line


def test_truncated_last_game_is_incomplete() -> None:
    lines = file_lines(game(FOLDED, gid="1-1"), game(FOLDED, gid="1-2"))
    cut = lines[: len(lines) - 12]
    outcomes = parse_all(cut)
    assert isinstance(outcomes[0], Hand)
    assert isinstance(outcomes[1], FailedHand) and "incomplete" in outcomes[1].reason
    assert outcomes[1].line == len(cut) and outcomes[1].hand_id == "1-2"


def test_game_without_description_fails_clearly() -> None:
    lines = file_lines(game(FOLDED))[2:]
    failed = parse_all(lines)[0]
    assert isinstance(failed, FailedHand) and "no stakes" in failed.reason


# ---------------------------------------------------------------- sample file and corpus


def check_balances(hands: list[Hand]) -> None:
    """The site's own numbers: a player's balance in the next game equals balance − contributed
    + collected in this one (the awards, returns and actions read must account for every cent),
    and every hand's contributions cover its awards with a small implied rake."""
    previous: dict[str, int] = {}
    for hand in hands:
        for seat in hand.seats:
            if seat.player in previous:
                assert previous[seat.player] == seat.stack, (hand.hand_id, seat.player)
            assert seat.stack is not None
            previous[seat.player] = seat.stack - hand.contributed_by(seat.player) + hand.collected_by(seat.player)
        implied = sum(hand.contributed_by(p) for p in hand.players) - sum(a.amount for a in hand.awards)
        assert 0 <= implied <= 20 and hand.rake is None
        assert any(f"= {implied} implied" in note.text for note in hand.notes)


def test_sample_file_parses_with_zero_failures() -> None:
    hands = sample_hands(PARSER, [SAMPLES / "merge" / "7-StudHL-USD-0.25-0.50-sample.xml"])
    assert len(hands) == 4
    check_balances(hands)
    fold_out, split, side_pot, scoop = hands
    assert fold_out.uncalled and fold_out.awards[0].half is Half.WHOLE
    assert sorted(a.half for a in split.awards) == [Half.HIGH, Half.LOW]
    assert {a.pot for a in side_pot.awards} == {0, 1} and any(a.all_in for a in side_pot.actions)
    assert [a.half for a in scoop.awards] == [Half.WHOLE]


CATALOGUE = {  # corpus/SOURCES.md: Stud Hi/Lo hands per file
    "7-StudHL-USD-0.25-0.50-201307.no.null.xml": 1,
    "HORSE-8max-USD-0.25-0.50-201409.new.format.txt": 3,
}


@pytest.mark.parametrize("name", sorted(CATALOGUE))
def test_corpus_file(name: str) -> None:
    path = corpus_path("Merge", name)
    outcomes = corpus_outcomes(PARSER, path)
    assert kinds(outcomes) == Counter({"Hand": CATALOGUE[name]})  # no failures, no other games
    hands = [o for o in outcomes if isinstance(o, Hand)]
    check_balances(hands)
    text = "\n".join(read_file(path).lines)
    assert sum(len(h.awards) + len(h.uncalled) for h in hands) == len(re.findall(r"<winner ", text))


def test_corpus_horse_halves_and_uncalled() -> None:
    path = corpus_path("Merge", "HORSE-8max-USD-0.25-0.50-201409.new.format.txt")
    hands = [o for o in parse_all(list(read_file(path).lines)) if isinstance(o, Hand)]
    first, folded, split = hands
    assert [(a.player, a.amount, a.half) for a in first.awards] == [("Player3", 230, Half.HIGH), ("Player3", 229, Half.LOW)]
    assert [(u.player, u.amount) for u in folded.uncalled] == [("Player0", 25)]
    assert [(a.player, a.half) for a in split.awards] == [("Player1", Half.HIGH), ("Hero", Half.LOW)]


def test_description_stakes_read_tolerantly() -> None:
    for stakes in ("Limit $0.25 / $0.50", "Limit $0.25/$0.50", "Limit ($0.25 / $0.50)"):
        hand = only_hand(file_lines(game(FOLDED), stakes=stakes))
        assert (hand.stakes.small_bet, hand.stakes.big_bet, hand.stakes.currency) == (25, 50, "USD"), stakes
    hand = only_hand(file_lines(game(FOLDED), stakes="Limit €1,000/€2,000"))
    assert (hand.stakes.small_bet, hand.stakes.big_bet, hand.stakes.currency) == (100000, 200000, "EUR")



def test_older_export_replays_clean_and_a_missing_bet_is_still_misawarded() -> None:
    """The Merge profile reads a winner's amount as holding the unmatched bet only where the hand prints no
    return: the older export replays without UNCALLED_BET or POT_AWARD, the newer one judges its return as a
    return, and a hand that neither returns nor pays the bet is not passed: Merge states no rake, so the
    missing bet shows as $0.56 kept (not the $0.06 rake of the other two), more than any rake: a violation."""
    from hhtool.replay import replay

    older = FOLDED.replace('<winner amount="1.50" uncalled="false"', '<winner amount="2.00" uncalled="false"').replace(
        '\t\t<winner amount="0.50" uncalled="true" potnumber="2" player="5" pottype="n"/>\n', "")
    newer = FOLDED
    unpaid = FOLDED.replace('\t\t<winner amount="0.50" uncalled="true" potnumber="2" player="5" pottype="n"/>\n', "")
    results = {name: replay(only_hand(file_lines(game(text))))
               for name, text in (("older", older), ("newer", newer), ("unpaid", unpaid))}
    for name in ("older", "newer"):
        assert not set(results[name].codes) & {"UNCALLED_BET", "POT_AWARD", "POT_TOTAL"}, results[name]
        assert [(a.rules_amount, a.site_amount) for a in results[name].awards] in ([(150, 150)], [(200, 200)])
    # issue #33: the $0.06 the older export's pot kept is its rake, assumed; the unpaid hand's $0.56 is more
    # than any rake takes of its pot: money missing, a violation
    assert "$0.56 is missing, more than any rake" in {v.code: v.message for v in results["unpaid"].violations}["POT_TOTAL"]
    assert [(a.kind, a.value) for a in results["older"].assumptions] == [("rake", 6)]
    assert "POT_TOTAL" not in {u.check for u in results["older"].unverifiable}  # (the placeholders are the pass's)


# ---------------------------------------------------------------- stakes the description does not state (issue 24)

# A mixed-game tournament export states only the limit. The input is written in the shape of fpdb's regression file
# tour/Merge/Mixed/HORSE-Tournament-Freeroll.201107.xml: <description type="HORSE Tournament" stakes="Limit"/>, games
# of gametype 77 with the real game in multigametype (45: Stud Hi/Lo), no seats attribute, chip balances printed
# "$1000.00" and amounts with cents. Level 15 ante, 30 bring-in, 150/300. In the first game Bo (2c) brings in, Cy
# completes, bets are 150 on 4th and 300 on 5th-6th, and the halves split at showdown; in the second the bring-in
# player opens for the full bet, printed as a BET in the BRING_IN round (as in the fpdb file's game 36487050-24).
TOURNAMENT = Path(__file__).parent / "merge_inputs" / "HORSE-Tournament-stakes-Limit.xml"


def test_tournament_description_without_amounts_infers_the_bets() -> None:
    showdown, opened = parse_all(list(read_file(TOURNAMENT).lines))
    assert isinstance(showdown, Hand) and isinstance(opened, Hand), (showdown, opened)
    check_balances([showdown, opened])
    stakes = showdown.stakes
    assert (stakes.currency, stakes.unit, stakes.is_tournament, stakes.structure) == ("CHIPS", 1, True, Structure.FIXED_LIMIT)
    assert (stakes.ante, stakes.bring_in, stakes.small_bet, stakes.big_bet) == (15, 30, 150, 300)
    assert stakes.bets_source is StakeSource.INFERRED
    assert showdown.tournament_id == "36400000" and showdown.game_label == "HORSE Tournament (7-Stud H/L8)"
    assert [(a.player, a.amount, a.half) for a in showdown.awards] == [("Cy", 1230, Half.HIGH), ("Bo", 1230, Half.LOW)]
    # the bring-in player opened for the full bet: no bring-in posted, nothing bet on 5th-7th street
    assert (opened.stakes.bring_in, opened.stakes.small_bet, opened.stakes.big_bet) == (None, 150, None)
    assert (opened.actions[4].player, opened.actions[4].kind) == ("Bo", ActionKind.COMPLETE)
    for hand in (showdown, opened):
        result = replay(hand)
        assert not result.violations and result.verdict is not Verdict.VIOLATION, (hand.hand_id, result.violations)


def test_tournament_description_without_amounts_is_stored_and_replayed(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    result = CliRunner().invoke(app, ["import", str(TOURNAMENT), "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert "2 hands found = 2 stored" in result.output and "0 failed" in result.output, result.output
    con = duckdb.connect(str(db), read_only=True)
    try:
        rows = con.execute("SELECT hand_id, verdict FROM hands ORDER BY hand_id").fetchall()
        errors = con.execute("SELECT count(*) FROM import_errors").fetchall()
    finally:
        con.close()
    assert [hand_id for hand_id, _ in rows] == ["36400001-20", "36400001-21"] and errors == [(0,)]
    assert all(verdict in ("ok", "unverifiable") for _, verdict in rows), rows


# ---------------------------------------------------------------- no-limit descriptions of three amounts (issue 24)


@pytest.mark.parametrize("limit, structure", [("No Limit", Structure.NO_LIMIT), ("Pot Limit", Structure.POT_LIMIT)])
def test_three_amounts_are_ante_bring_in_and_minimum_bet(limit: str, structure: Structure) -> None:
    # as fpdb's cash/Merge/Stud/NL7-StudHL-0.01-0.02-0.10-201204.xml states them: "No Limit ($0.01/$0.02/$0.10)"
    hand = only_hand(file_lines(game(FOLDED), stakes=f"{limit} ($0.02/$0.05/$0.25)"))
    stakes = hand.stakes
    assert stakes.structure is structure
    assert (stakes.ante, stakes.bring_in, stakes.small_bet, stakes.big_bet) == (2, 5, 25, None)
    assert (stakes.ante_source, stakes.bring_in_source, stakes.bets_source) == (StakeSource.HEADER,) * 3


def test_three_amounts_judge_the_bring_in_and_bets_against_the_minimum_bet() -> None:
    # Ann's $0.05 bring-in is below the $0.25 minimum bet; the completion, bets and raise are at least the last bet
    hand = only_hand(file_lines(game(FOLDED), stakes="No Limit ($0.02/$0.05/$0.25)"))
    result = replay(hand)
    assert not [v for v in result.violations if v.code in ("BRING_IN_AMOUNT", "BET_SIZE")], result.violations
    assert "BRING_IN_AMOUNT" not in {u.check for u in result.unverifiable}


def test_three_amounts_judge_the_bring_in_against_the_stated_one() -> None:
    hand = only_hand(file_lines(game(FOLDED), stakes="No Limit ($0.02/$0.04/$0.25)"))  # Ann brings in for $0.05
    found = [(v.code, v.expected, v.actual) for v in replay(hand).violations if v.code == "BRING_IN_AMOUNT"]
    assert found == [("BRING_IN_AMOUNT", "$0.04", "$0.05")]


def test_two_amounts_keep_their_meaning_in_no_limit() -> None:
    hand = only_hand(file_lines(game(FOLDED), stakes="No Limit ($0.25/$0.50)"))
    stakes = hand.stakes
    assert (stakes.small_bet, stakes.big_bet, stakes.ante, stakes.bring_in) == (25, 50, 2, 5)
    assert (stakes.ante_source, stakes.bring_in_source, stakes.bets_source) == (
        StakeSource.POSTED, StakeSource.POSTED, StakeSource.HEADER)
