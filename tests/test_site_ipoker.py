"""iPoker XML sessions: unit tests on inline XML (no corpus needed), the sample file and the corpus."""

from __future__ import annotations

import re

from hhtool.ingest.reader import decode_bytes, read_file
from hhtool.model import ActionKind, Card, FailedHand, Half, Hand, ParseOutcome, SkippedHand, Street, Structure
from hhtool.sites import detect
from hhtool.sites.ipoker import PARSER
from tests import site_helpers
from tests.site_helpers import SAMPLES, corpus_path, parse_lines

HEADER = """<?xml version="1.0" encoding="utf-8"?>
<session sessioncode="1234">
  <general>
    <mode>real</mode>
    <gametype>{gametype}</gametype>
    <tablename>Testville, 42</tablename>
    <tablecurrency>EUR</tablecurrency>
    <currency>{currency}</currency>
    <nickname>Hero</nickname>
  </general>"""

PLAYERS = (
    '<player seat="1" name="Villain" chips="€1" dealer="1" win="{vwin}" bet="{vbet}" rebuy="0" addon="0" reg_code="-"/>'
    '<player seat="6" name="Hero" chips="€2" dealer="0" win="{hwin}" bet="{hbet}" rebuy="0" addon="0" reg_code="-"/>'
)

ANTES = """  <round no="0">
   <action no="1" player="Villain" type="15" sum="€0.01" cards="[cards]"/><action no="2" player="Hero" type="15" sum="€0.01" cards="[cards]"/>
  </round>
  <round no="1">
  </round>"""  # noqa: E501


def game(code: str, rounds: str, vwin: str = "€0", vbet: str = "€0", hwin: str = "€0", hbet: str = "€0") -> str:
    players = PLAYERS.format(vwin=vwin, vbet=vbet, hwin=hwin, hbet=hbet)
    return (f'<game gamecode="{code}">\n <general>\n  <startdate>2014-05-10 18:02:19</startdate>\n'
            f"  <players>\n   {players}\n  </players>\n </general>\n{ANTES}\n{rounds}\n</game>")


# Hero completes without a bring-in; Villain calls; Villain folds to a bet on 4th.
FOLD_OUT = """  <round no="2">
   <cards type="Third Street" player="Villain">X X C10</cards><action no="4" player="Villain" type="3" sum="€0.05" cards=""/><cards type="Third Street" player="Hero">CA D5 H4</cards><action no="3" player="Hero" type="5" sum="€0.05" cards=""/>
  </round>
  <round no="3">
   <cards type="Fourth Street" player="Villain">DK</cards><action no="6" player="Villain" type="0" sum="€0" cards=""/><cards type="Fourth Street" player="Hero">H7</cards><action no="5" player="Hero" type="5" sum="€0.05" cards=""/>
  </round>"""  # noqa: E501


def session(*games: str, gametype: str = "7 Card Stud Hi-Lo L €0.05/€0.10", currency: str = "USD") -> list[str]:
    text = HEADER.format(gametype=gametype, currency=currency) + "\n" + "".join(games) + "\n</session>"
    return text.split("\n")


def parse_all(lines: list[str]) -> list[ParseOutcome]:
    return parse_lines(PARSER, lines, "test.xml")


def only_hand(lines: list[str]) -> Hand:
    return site_helpers.only_hand(parse_all(lines))


def fold_out_lines() -> list[str]:
    return session(game("100", FOLD_OUT, vwin="€0", vbet="€0.06", hwin="€0.17", hbet="€0.11"))


# ---------------------------------------------------------------- sniffing and splitting


def test_sniff_claims_ipoker_sessions_only() -> None:
    assert PARSER.sniff([line for line in fold_out_lines() if line.strip()][:40])
    assert detect(fold_out_lines()) is PARSER
    stars = ["PokerStars Game #35874487284:  7 Card Stud Hi/Lo Limit ($0.04/$0.08) - 2009/11/25 14:22:27 ET"]
    merge = ['<description type="7-Stud H/L8" stakes="Limit $0.25/$0.50" version="2"/>',
             '<game id="70969727-130" starttime="20130715213500" numholecards="7" gametype="43">']
    assert not PARSER.sniff(stars)
    assert not PARSER.sniff(merge)


def test_each_game_is_one_hand_with_its_true_file_lines() -> None:
    lines = session(game("100", FOLD_OUT, vbet="€0.06", hwin="€0.17", hbet="€0.11"),
                    game("101", FOLD_OUT, vbet="€0.06", hwin="€0.17", hbet="€0.11"))
    raws = list(PARSER.split(lines, "test.xml"))
    assert len(raws) == 2
    for raw in raws:
        assert raw.lines[0].startswith("<game ")
        assert lines[raw.first_line - 1].endswith(raw.lines[0])  # the true file line, cut at the tag
        assert raw.lines[-1].endswith("</game>")
    # the first game ends on the line where the second begins: "</game><game gamecode=...>"
    assert raws[0].last_line == raws[1].first_line
    hand = PARSER.parse(raws[1])
    assert isinstance(hand, Hand)
    fold_line = next(a.line for a in hand.actions if a.kind is ActionKind.FOLD)
    assert 'type="0"' in lines[fold_line - 1]


# ---------------------------------------------------------------- header, stakes, currency


def test_header_stakes_currency_contradiction_and_dealer() -> None:
    hand = only_hand(fold_out_lines())
    assert hand.hand_id == "100"
    assert (hand.stakes.small_bet, hand.stakes.big_bet, hand.stakes.ante) == (5, 10, 1)
    assert hand.stakes.currency == "EUR" and hand.stakes.unit == 100
    assert hand.stakes.structure is Structure.FIXED_LIMIT
    assert hand.stakes.bring_in_source == "posted"
    assert any("<currency> says USD" in note.text for note in hand.notes)
    assert hand.dealer_seat == 1 and hand.position_order == ("Hero", "Villain")
    assert hand.hero == "Hero" and hand.table_name == "Testville, 42"
    assert hand.game_label == "7 Card Stud Hi-Lo L"
    assert hand.started_at is not None and hand.started_at.hour == 18
    assert [seat.stack for seat in hand.seats] == [100, 200]


def test_no_contradiction_note_when_currency_agrees() -> None:
    lines = session(game("100", FOLD_OUT, vbet="€0.06", hwin="€0.17", hbet="€0.11"), currency="EUR")
    assert not any("<currency>" in note.text for note in only_hand(lines).notes)


def test_completion_without_bring_in_and_actions_sorted_by_number() -> None:
    hand = only_hand(fold_out_lines())
    third = [(a.player, a.kind) for a in hand.actions if a.street is Street.THIRD and a.kind is not ActionKind.ANTE]
    assert third == [("Hero", ActionKind.COMPLETE), ("Villain", ActionKind.CALL)]  # no=3 before no=4
    fourth = [(a.player, a.kind) for a in hand.actions if a.street is Street.FOURTH]
    assert fourth == [("Hero", ActionKind.BET), ("Villain", ActionKind.FOLD)]
    assert hand.stakes.bring_in is None
    assert any("no bring-in was posted" in note.text for note in hand.notes)


def test_suit_first_cards_tens_and_hidden_cards() -> None:
    hand = only_hand(fold_out_lines())
    villain_third = next(d for d in hand.deals if d.player == "Villain" and d.street is Street.THIRD)
    assert villain_third.down == (None, None) and villain_third.up == (Card.parse("Tc"),)
    hero_third = next(d for d in hand.deals if d.player == "Hero" and d.street is Street.THIRD)
    assert hero_third.down == (Card.parse("Ac"), Card.parse("5d")) and hero_third.up == (Card.parse("4h"),)


def test_awards_are_win_totals_with_unknown_pot_and_half() -> None:
    hand = only_hand(fold_out_lines())
    assert [(a.player, a.amount, a.pot, a.half) for a in hand.awards] == [("Hero", 17, None, Half.UNKNOWN)]
    assert any("which half" in note.text for note in hand.notes)
    assert hand.uncalled == ()  # the uncalled 4th-street bet is inside the win total, as the site says
    assert hand.rake is None  # not printed; the note gives what the totals imply
    assert any("total bet 17 - total won 17 = 0 implied" in note.text for note in hand.notes)


def test_bet_total_mismatch_is_noted() -> None:
    lines = session(game("100", FOLD_OUT, vbet="€0.07", hwin="€0.17", hbet="€0.11"))
    assert any("Villain's actions add up to 6 but the site's bet total is 7" in note.text for note in only_hand(lines).notes)


# ---------------------------------------------------------------- raises and all-ins


RAISES = """  <round no="2">
   <cards type="Third Street" player="Villain">CQ C10 H8</cards><action no="3" player="Villain" type="16" sum="€0.02" cards=""/><cards type="Third Street" player="Hero">C3 D9 H9</cards><action no="4" player="Hero" type="3" sum="€0.02" cards=""/>
  </round>
  <round no="3">
   <cards type="Fourth Street" player="Villain">CJ</cards><action no="5" player="Villain" type="5" sum="€0.05" cards=""/><action no="7" player="Villain" type="6" sum="€0.05" cards=""/><cards type="Fourth Street" player="Hero">H7</cards><action no="6" player="Hero" type="23" sum="€0.10" cards=""/><action no="8" player="Hero" type="3" sum="€0.05" cards=""/>
  </round>
  <round no="4">
   <cards type="Fifth Street" player="Villain">DJ</cards><action no="9" player="Villain" type="5" sum="€0.10" cards=""/><cards type="Fifth Street" player="Hero">D7</cards><action no="10" player="Hero" type="3" sum="€0.10" cards=""/>
  </round>
  <round no="5">
   <cards type="Sixth Street" player="Villain">D2</cards><action no="11" player="Villain" type="5" sum="€0.10" cards=""/><cards type="Sixth Street" player="Hero">S9</cards><action no="12" player="Hero" type="3" sum="€0.10" cards=""/>
  </round>
  <round no="6">
   <cards type="River" player="Villain">SQ</cards><action no="14" player="Villain" type="7" sum="€0.62" cards=""/><cards type="River" player="Hero">H2</cards><action no="13" player="Hero" type="5" sum="€0.10" cards=""/><action no="15" player="Hero" type="3" sum="€0.52" cards=""/>
  </round>"""  # noqa: E501


def raises_hand(villain_river: str = "€0.62") -> Hand:
    rounds = RAISES.replace('type="7" sum="€0.62"', f'type="7" sum="{villain_river}"')
    return only_hand(session(game("200", rounds, vwin="€0", vbet="€1", hwin="€1.96", hbet="€1")))


def test_raise_to_and_raise_by() -> None:
    hand = raises_hand()
    fourth = [(a.player, a.kind, a.amount, a.to_amount) for a in hand.actions if a.street is Street.FOURTH]
    assert fourth == [
        ("Villain", ActionKind.BET, 5, 5),
        ("Hero", ActionKind.RAISE, 10, 10),  # type 23: raise to 0.10
        ("Villain", ActionKind.RAISE, 10, 15),  # type 6: raise by 0.05 over the 0.10 bet
        ("Hero", ActionKind.CALL, 5, 15),
    ]


def test_all_in_over_a_bet_is_a_raise_and_is_checked_against_the_stack() -> None:
    hand = raises_hand()
    river = [(a.player, a.kind, a.amount, a.to_amount, a.all_in) for a in hand.actions if a.street is Street.SEVENTH]
    assert river == [("Hero", ActionKind.BET, 10, 10, False), ("Villain", ActionKind.RAISE, 62, 62, True),
                     ("Hero", ActionKind.CALL, 52, 62, False)]
    assert hand.contributed_by("Villain") == 100  # his whole stack
    assert not any("does not match" in note.text for note in hand.notes)


def test_all_in_amount_that_does_not_empty_the_stack_is_noted() -> None:
    hand = raises_hand(villain_river="€0.60")
    assert any("all-in by Villain for 60 does not match the 62 left" in note.text for note in hand.notes)


def test_all_in_for_less_than_the_bet_is_a_call() -> None:
    rounds = """  <round no="2">
   <cards type="Third Street" player="Villain">X X C2</cards><action no="3" player="Villain" type="16" sum="€0.02" cards=""/><action no="5" player="Villain" type="7" sum="€0.02" cards=""/><cards type="Third Street" player="Hero">CA D5 H4</cards><action no="4" player="Hero" type="5" sum="€0.05" cards=""/>
  </round>"""  # noqa: E501
    text = game("202", rounds, vwin="€0.10", vbet="€0.05", hwin="€0.03", hbet="€0.06").replace('chips="€1"', 'chips="€0.05"')
    hand = only_hand(session(text))
    third = [(a.player, a.kind, a.amount, a.to_amount, a.all_in) for a in hand.actions if a.street is Street.THIRD]
    assert third[-1] == ("Villain", ActionKind.CALL, 2, 4, True)  # short of the 0.05 completion


def test_all_in_as_first_third_street_action_below_the_small_bet_is_the_bring_in() -> None:
    rounds = """  <round no="2">
   <cards type="Third Street" player="Villain">X X C2</cards><action no="3" player="Villain" type="7" sum="€0.01" cards=""/><cards type="Third Street" player="Hero">CA D5 H4</cards><action no="4" player="Hero" type="3" sum="€0.01" cards=""/>
  </round>"""  # noqa: E501
    text = game("203", rounds, vwin="€0.04", vbet="€0.02", hwin="€0", hbet="€0.02").replace('chips="€1"', 'chips="€0.02"')
    hand = only_hand(session(text))
    assert hand.actions[2].kind is ActionKind.BRING_IN and hand.actions[2].all_in


# ---------------------------------------------------------------- noise, games, failures


def test_no_action_code_is_ignored_and_sitting_out_fold_is_noted() -> None:
    rounds = FOLD_OUT.replace('type="0" sum="€0"', 'type="9" sum="€0"')
    rounds = rounds.replace('<action no="5" player="Hero"', '<action no="7" player="Hero" type="8" sum="€0" cards=""/>'
                            '<action no="5" player="Hero"')
    hand = only_hand(session(game("100", rounds, vbet="€0.06", hwin="€0.17", hbet="€0.11")))
    assert [a.kind for a in hand.actions if a.street is Street.FOURTH] == [ActionKind.BET, ActionKind.FOLD]
    assert any("folded while sitting out" in note.text for note in hand.notes)


def test_other_games_are_skipped() -> None:
    lines = session(game("100", FOLD_OUT), gametype="7 Card Stud L €0.05/€0.10")
    outcomes = parse_all(lines)
    assert len(outcomes) == 1 and isinstance(outcomes[0], SkippedHand)
    assert outcomes[0].game == "7 Card Stud L" and outcomes[0].hand_id == "100"


def test_unknown_action_type_fails_with_site_line_and_text() -> None:
    lines = session(game("100", FOLD_OUT.replace('type="0" sum="€0"', 'type="42" sum="€0"'), vbet="€0.06", hbet="€0.11"))
    failed = parse_all(lines)[0]
    assert isinstance(failed, FailedHand)
    assert failed.reason.startswith("ipoker: unknown action type '42'") and 'player="Villain"' in failed.reason
    assert 'type="42"' in lines[failed.line - 1]


def test_malformed_game_fails_alone_and_points_at_its_line() -> None:
    good = game("100", FOLD_OUT, vbet="€0.06", hwin="€0.17", hbet="€0.11")
    broken = game("101", FOLD_OUT.replace('<cards type="Fourth Street" player="Hero">H7</cards>',
                                          '<cards type="Fourth Street" player="Hero">H7</card>'))
    lines = session(good, broken, good.replace('"100"', '"102"'))
    outcomes = parse_all(lines)
    assert [type(o).__name__ for o in outcomes] == ["Hand", "FailedHand", "Hand"]
    failed = outcomes[1]
    assert isinstance(failed, FailedHand) and failed.hand_id == "101"
    assert "malformed XML" in failed.reason and "</card>" in lines[failed.line - 1]


def test_truncated_last_game_is_incomplete() -> None:
    lines = session(game("100", FOLD_OUT, vbet="€0.06", hwin="€0.17", hbet="€0.11"))
    cut = lines[: lines.index("  <round no=\"3\">")]
    outcomes = parse_all(cut)
    assert len(outcomes) == 1 and isinstance(outcomes[0], FailedHand)
    assert "incomplete" in outcomes[0].reason and outcomes[0].line == len(cut)


def test_self_closed_game_fails_alone_with_its_id() -> None:
    """An empty ``<game .../>`` is read as Merge reads one: its start tag names the hand, which
    fails as an element without content, and the next game is read."""
    good = game("102", FOLD_OUT, vbet="€0.06", hwin="€0.17", hbet="€0.11")
    outcomes = parse_all(session('<game gamecode="101"/>\n', good))
    assert [type(o).__name__ for o in outcomes] == ["FailedHand", "Hand"]
    failed = outcomes[0]
    assert isinstance(failed, FailedHand) and failed.hand_id == "101" and "incomplete <game>" in failed.reason


def test_text_outside_games_is_reported() -> None:
    lines = session(game("100", FOLD_OUT, vbet="€0.06", hwin="€0.17", hbet="€0.11"))
    lines.insert(len(lines) - 1, "garbage between games")
    outcomes = parse_all(lines)
    failed = outcomes[-1]
    assert isinstance(failed, FailedHand) and "outside any <game>" in failed.reason
    assert lines[failed.line - 1] == "garbage between games"


def test_a_doctype_is_never_parsed_and_an_entity_is_malformed() -> None:
    lines = session(game("100", FOLD_OUT, vbet="€0.06", hwin="€0.17", hbet="€0.11"))
    lines[0] = '<?xml version="1.0"?><!DOCTYPE session [<!ENTITY big "boom">]>'
    outcomes = parse_all(lines)
    assert isinstance(outcomes[0], FailedHand) and "outside any <game>" in outcomes[0].reason
    assert isinstance(outcomes[1], Hand)
    lines = session(game("100", FOLD_OUT.replace('sum="€0.05"', 'sum="&big;"', 1)))
    failed = parse_all(lines)[0]
    assert isinstance(failed, FailedHand) and "undefined entity" in failed.reason


def test_cp1252_bytes_declared_utf8_are_read() -> None:
    data = "\r\n".join(fold_out_lines()).encode("cp1252")
    decoded = decode_bytes(data)
    assert decoded.encoding == "cp1252"
    assert only_hand(list(decoded.lines)).stakes.currency == "EUR"


# ---------------------------------------------------------------- sample file and corpus


def check_against_site_totals(outcomes: list[ParseOutcome], lines: list[str]) -> list[Hand]:
    """Every hand: contributions equal the site's bet totals, awards its win totals, bet − win
    is a small implied rake, and each player's chips in the next game equal chips − bet + win."""
    hands = [o for o in outcomes if isinstance(o, Hand)]
    assert len(hands) == len(outcomes), [o for o in outcomes if not isinstance(o, Hand)]
    stated = re.compile(r'name="([^"]+)" chips="€([\d.]+)"[^>]*win="€([\d.]+)" bet="€([\d.]+)"')
    previous: dict[str, int] = {}
    for hand in hands:
        text = "\n".join(lines[hand.source.first_line - 1: hand.source.last_line])
        totals = {name: (round(float(chips) * 100), round(float(win) * 100), round(float(bet) * 100))
                  for name, chips, win, bet in stated.findall(text)}
        assert set(totals) == set(hand.players)
        for player, (chips, win, bet) in totals.items():
            assert hand.contributed_by(player) == bet
            assert hand.collected_by(player) == win
            if previous.get(player):  # a player who busted rebuys (corpus: Player0 after 5710056302)
                assert previous[player] == chips
            previous[player] = chips - bet + win
        implied_rake = sum(bet for _, _, bet in totals.values()) - sum(win for _, win, _ in totals.values())
        assert 0 <= implied_rake <= 5 and hand.rake is None
        assert sum(hand.contributed_by(p) for p in hand.players) == sum(a.amount for a in hand.awards) + implied_rake
        assert any(f"= {implied_rake} implied" in note.text for note in hand.notes)
    return hands


def test_sample_session_parses_with_zero_failures() -> None:
    path = SAMPLES / "ipoker" / "7-StudHL-EUR-0.05-0.10-sample-session.xml"
    decoded = read_file(path)
    assert detect(decoded.lines) is PARSER
    hands = check_against_site_totals(parse_all(list(decoded.lines)), list(decoded.lines))
    assert len(hands) == 3
    split = hands[1]
    assert sorted((a.player, a.amount) for a in split.awards) == [("Alice", 49), ("Hero", 50)]
    assert {shown.player for shown in split.showdown} == {"Alice", "Hero"}
    all_in = hands[2]
    assert any(a.all_in and a.kind is ActionKind.CALL and a.player == "Bob" for a in all_in.actions)


def test_corpus_session() -> None:
    path = corpus_path("iPoker", "7-StudHL-EUR-0.05-0.10-201405.txt")
    decoded = read_file(path)
    assert detect(decoded.lines) is PARSER
    hands = check_against_site_totals(parse_all(list(decoded.lines)), list(decoded.lines))
    assert [hand.hand_id for hand in hands] == ["5710054735", "5710056302", "5710077134", "5710078165", "5710079903"]
    by_id = {hand.hand_id: hand for hand in hands}
    river = [(a.player, a.kind, a.amount) for a in by_id["5710056302"].actions if a.street is Street.SEVENTH]
    assert river == [("Hero", ActionKind.BET, 10), ("Player0", ActionKind.RAISE, 11), ("Hero", ActionKind.CALL, 1)]
    assert by_id["5710054735"].actions[2].kind is ActionKind.COMPLETE  # bring-in player opens for the full bet


def test_gametype_stakes_with_spaces_around_the_slash() -> None:
    hand = only_hand(session(game("100", FOLD_OUT), gametype="7 Card Stud Hi-Lo L €0.05 / €0.10", currency="EUR"))
    assert (hand.stakes.small_bet, hand.stakes.big_bet) == (5, 10)

