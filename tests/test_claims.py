"""What a site states is its claim: stated per-pot amounts are checked and split, and every fact a
history states twice must agree (RESTATED, with both lines). Each altered history has its legal
counterpart, which stays clean."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.evaluation import cards
from hhtool.model import Hand, Restated, StatedPot
from hhtool.replay import Verdict, profile_for_site, replay
from hhtool.replay.checks.descriptions import description_conflict, read_high
from hhtool.replay.codes import Code
from hhtool.sites import parser_for
from tests import site_helpers
from tests.replay_helpers import beyond_table_context
from tests.test_site_fulltilt import NO_LOW
from tests.test_site_pokerstars import ALLIN_SIDE_POT, SPLIT_HAND

runner = CliRunner()

# the side-pot hand with $1 rake, all of it from the main pot as the summary states: a proportional
# share of the rake ($0.37 / $0.63) would pay other amounts
RAKED_SIDE_POT = (ALLIN_SIDE_POT.replace("Rake $0", "Rake $1").replace("Main pot $18.", "Main pot $17.")
                  .replace("Big collected $9 from main pot", "Big collected $8.50 from main pot")
                  .replace("Bigger collected $9 from main pot", "Bigger collected $8.50 from main pot")
                  .replace("won ($24)", "won ($23.50)"))


def stars(text: str) -> Hand:
    return site_helpers.only_hand(site_helpers.parse_text(parser_for("pokerstars"), text))


def tilt(text: str) -> Hand:
    return site_helpers.only_hand(site_helpers.parse_text(parser_for("fulltilt"), text, encoding="utf-16"))


def findings(hand: Hand, code: str = "RESTATED") -> list[str]:
    return [v.message for v in replay(hand, profile_for_site(hand.site)).violations if v.code == code]


def clean(hand: Hand) -> bool:
    result = replay(hand, profile_for_site(hand.site))
    return not result.violations and not beyond_table_context(result.unverifiable)


# ---------------------------------------------------------------- stated per-pot amounts


def test_stated_pots_are_recorded_and_their_amounts_split() -> None:
    hand = stars(RAKED_SIDE_POT)
    line = hand.stated_pots[0].line
    assert hand.stated_pots == (StatedPot(0, 1700, True, line), StatedPot(1, 3000, True, line))
    result = replay(hand, profile_for_site("pokerstars"))  # proportional rake rule, not used: the site states each pot
    assert not result.violations and not beyond_table_context(result.unverifiable), result
    assert [(pot.amount, pot.rake_share) for pot in result.pots] == [(1800, 100), (3000, 0)]


def test_without_stated_pots_the_profile_rake_rule_decides() -> None:
    unstated = stars(RAKED_SIDE_POT.replace(" Main pot $17. Side pot $30.", ""))
    assert unstated.stated_pots == ()
    result = replay(unstated, profile_for_site("pokerstars"))
    assert [(pot.amount, pot.rake_share) for pot in result.pots] == [(1800, 37), (3000, 63)]
    assert set(result.codes) == {"POT_AWARD"}


def test_stated_pots_that_do_not_add_up_with_the_rake_are_a_pot_total_finding() -> None:
    hand = stars(RAKED_SIDE_POT.replace("Side pot $30.", "Side pot $29."))
    totals = findings(hand, "POT_TOTAL")
    assert any("make $47.00, not the stated total pot of $48.00" in m for m in totals), totals
    # the collect lines of the side pot pay $30 where the summary states $29: both lines named
    side = [m for m in findings(hand) if "side pot" in m]
    assert side and f"line {hand.stated_pots[1].line}" in side[0] and "pay $30.00" in side[0]


def test_a_stated_pot_beyond_its_chips_is_a_pot_total_finding() -> None:
    hand = stars(RAKED_SIDE_POT.replace("Main pot $17. Side pot $30.", "Main pot $19. Side pot $28."))
    totals = findings(hand, "POT_TOTAL")
    assert any("main pot as $19.00 after rake; its chips ($18.00)" in m for m in totals), totals


def test_stated_pots_before_rake_must_be_the_chips_that_went_in() -> None:
    stated = NO_LOW.replace("Total pot $17.50 | Rake $1", "Total pot $17.50 Main pot $17.50. | Rake $1")
    hand = tilt(stated)
    assert [(p.pot, p.amount, p.after_rake) for p in hand.stated_pots] == [(0, 1750, False)]
    assert clean(hand)
    wrong = tilt(stated.replace("Main pot $17.50.", "Main pot $16.50."))
    assert any("main pot as $16.50; $17.50 went into it" in m for m in findings(wrong, "POT_TOTAL"))


# ---------------------------------------------------------------- cumulative card lists


def test_an_altered_cumulative_card_list_is_found_with_both_lines() -> None:
    hand = stars(SPLIT_HAND)
    restated = [r for r in hand.restatements if r.fact is Restated.CARDS]
    assert len(restated) == 7 and clean(hand)  # 4th street: 3 lines, 5th and 6th: 2 each
    altered = stars(SPLIT_HAND.replace("Dealt to u.pressure [Td 2c] [Ah]", "Dealt to u.pressure [Td 3c] [Ah]"))
    (message,) = findings(altered)
    fifth = next(d.line for d in altered.deals if d.player == "u.pressure" and d.street == 5)
    earlier = [str(d.line) for d in altered.deals if d.player == "u.pressure" and d.street < 5]
    assert f"line {fifth} repeats u.pressure's earlier cards as [Td 3c]" in message
    assert f"(lines {', '.join(earlier)}) dealt [?? ?? Td 2c]" in message


def test_the_heros_cumulative_list_includes_his_down_cards() -> None:
    altered = stars(SPLIT_HAND.replace("Dealt to Hero [7c 3s 5h] [Qc]", "Dealt to Hero [7c 3s 5d] [Qc]"))
    (message,) = findings(altered)
    assert "Hero's earlier cards as [7c 3s 5d]" in message and "dealt [7c 3s 5h]" in message


def test_full_tilt_cumulative_lists() -> None:
    assert clean(tilt(NO_LOW))
    altered = tilt(NO_LOW.replace("Dealt to Peyote7 [Qh 8s Kd] [5s]", "Dealt to Peyote7 [Qh 8s Kc] [5s]"))
    assert any("Peyote7's earlier cards as [Qh 8s Kc]" in m for m in findings(altered))


# ---------------------------------------------------------------- summary seat lines


def test_summary_fold_street_must_match_the_fold() -> None:
    altered = stars(SPLIT_HAND.replace("Hero folded on the 4th Street", "Hero folded on the 5th Street"))
    (message,) = findings(altered)
    fold = next(a.line for a in altered.actions if a.player == "Hero" and a.kind.value == "fold")
    assert "says Hero folded on 5th street" in message and f"line {fold} has him fold on 4th street" in message


def test_summary_won_amount_must_match_the_collect_lines() -> None:
    altered = stars(SPLIT_HAND.replace("won ($0.37)", "won ($0.38)"))
    (message,) = findings(altered)
    assert "says gashpor won $0.38" in message and "pay him $0.37" in message
    lost = stars(SPLIT_HAND.replace("Kd 9s] and lost", "Kd 9s] and won ($0.01)"))
    assert any("says u.pressure won $0.01" in m for m in findings(lost))


def test_summary_shown_cards_must_match_the_show_line() -> None:
    altered = stars(SPLIT_HAND.replace("Seat 1: u.pressure showed [Ts Kc Td 2c Ah Kd 9s]",
                                       "Seat 1: u.pressure showed [Ts Kc Td 2c Ah Kd 9h]"))
    messages = findings(altered)
    assert any("showed [Ts Kc Td 2c Ah Kd 9h]" in m and "shows [Ts Kc Td 2c Ah Kd 9s]" in m for m in messages), messages


def test_summary_muck_against_a_shown_hand() -> None:
    altered = stars(SPLIT_HAND.replace("u.pressure showed [Ts Kc Td 2c Ah Kd 9s] and lost with HI: two pair, Kings and Tens",
                                       "u.pressure mucked [Ts Kc Td 2c Ah Kd 9s]"))
    assert any("says u.pressure mucked" in m and "says he showed" in m for m in findings(altered))


def test_a_name_containing_a_summary_verb_is_read_by_its_seat() -> None:
    text = SPLIT_HAND.replace("Hero", "Al folded on the River")
    hand = stars(text)
    folded = [r for r in hand.restatements if r.fact is Restated.FOLDED]
    assert [(r.player, r.street) for r in folded] == [("Al folded on the River", 4)]
    assert clean(hand)


def test_full_tilt_summary_lines() -> None:
    assert clean(tilt(NO_LOW))
    altered = tilt(NO_LOW.replace("and won ($16.50)", "and won ($17.50)"))
    assert any("says Hero won $17.50" in m for m in findings(altered))


# ---------------------------------------------------------------- hand descriptions


def test_a_wrong_high_description_is_found() -> None:
    altered = stars(SPLIT_HAND.replace("u.pressure: shows [Ts Kc Td 2c Ah Kd 9s] (HI: two pair, Kings and Tens)",
                                       "u.pressure: shows [Ts Kc Td 2c Ah Kd 9s] (HI: two pair, Kings and Nines)"))
    (message,) = findings(altered)
    assert "as 'two pair, Kings and Nines'; those cards make two pair, Kings and Tens" in message


def test_a_wrong_low_description_is_found() -> None:
    altered = stars(SPLIT_HAND.replace("Six; LO: 6,5,4,3,2)", "Six; LO: 6,5,4,3,A)"))
    (message,) = findings(altered)
    assert "those cards make a low of 6,5,4,3,2" in message


def test_a_summary_description_is_checked_too() -> None:
    altered = tilt(NO_LOW.replace("- HI: two pair, Kings and Queens", "- HI: two pair, Kings and Eights"))
    assert any("Kings and Eights" in m for m in findings(altered))


def test_an_unreadable_description_is_unverifiable_not_a_violation() -> None:
    altered = stars(SPLIT_HAND.replace("(HI: two pair, Kings and Tens)", "(HI: something shiny)"))
    result = replay(altered, profile_for_site("pokerstars"))
    assert not result.violations and result.verdict is Verdict.UNVERIFIABLE
    assert any(u.check == "RESTATED" and "something shiny" in u.reason for u in result.unverifiable)


@pytest.mark.parametrize(("hand", "text"), [
    ("As Ac 8h Qs Jh Qh 7c", "two pair, Aces and Queens"),
    ("8d 3c 5d 7s 9c Ks 2h", "King Nine high"),
    ("Ah 2d 3c 4s 5h Kd Kc", "a straight, Ace to Five"),
    ("8h 8c 8d 4s 4c 2h 3h", "FULL_HOUSE EIGHT, FOUR"),
    ("2h 3h 4h 5h 6d 9c Kc", "Six High Straight"),
    ("Qd Qc 5s 5h 9d 2c 3h", "Two Pair, queens and fives"),
    ("Kd Kc Ks 5h 9d 2c 3h", "three of a kind, Kings"),
    ("Ah Kh 9h 5h 2h 2c 3d", "a flush, Ace high"),
])
def test_site_wordings_that_agree(hand: str, text: str) -> None:
    assert description_conflict(cards(hand), text, None) is None


def test_site_wordings_that_disagree() -> None:
    assert description_conflict(cards("8d 3c 5d 7s 9c Ks 2h"), "King Ten high", None) is not None
    assert description_conflict(cards("Kd Kc Ks 5h 9d 2c 3h"), "a pair of Kings", None) is not None
    assert description_conflict(cards("Kd Kc Ks 5h 9d 2c 3h"), None, "8,5,3,2,A") == (
        "conflict", "8,5,3,2,A", "no qualifying low")
    assert read_high("the nuts") is None


# ---------------------------------------------------------------- stored and re-replayed


def test_a_re_replay_from_the_store_gives_the_import_findings(tmp_path: Path) -> None:
    altered = (SPLIT_HAND.replace("35874576282", "77").replace("Dealt to gashpor [4h 8d] [6s]", "Dealt to gashpor [4h 8c] [6s]")
               .replace("won ($0.37)", "won ($0.36)"))
    path = tmp_path / "h.txt"
    path.write_text(RAKED_SIDE_POT + "\n\n\n" + altered)
    db = str(tmp_path / "c.duckdb")
    imported = runner.invoke(app, ["audit", str(path), "--db", db, "--format", "jsonl", "--code", "restated"])
    again = runner.invoke(app, ["audit", "--db", db, "--rules", "pokerstars", "--format", "jsonl", "--code", "restated"])
    assert imported.exit_code == again.exit_code == 1, (imported.output, again.output)
    rows = [line for line in imported.output.splitlines() if line.startswith("{")]
    assert len(rows) == 2 and rows == [line for line in again.output.splitlines() if line.startswith("{")]
    from hhtool.store import Store
    from hhtool.store.load import load_hands

    with Store(db) as store:
        stored = {hand.hand_id: hand for hand in load_hands(store)}
    assert stored["200"].stated_pots == stars(RAKED_SIDE_POT).stated_pots
    offset = stored["77"].source.first_line - 1  # the hand is the second of the file
    assert stored["77"].restatements == tuple(replace(r, line=r.line + offset) for r in stars(altered).restatements)


# ---------------------------------------------------------------- other sites


def winamax(text: str) -> Hand:
    return site_helpers.only_hand(site_helpers.parse_text(parser_for("winamax"), text, newline="\r\n"))


def acr(text: str) -> Hand:
    return site_helpers.only_hand(site_helpers.parse_text(parser_for("winning"), text))


def test_winamax_hidden_cards_in_the_cumulative_list_and_won_per_half() -> None:
    from tests.test_site_winamax import FOLD_ON_SEVENTH

    hand = winamax(FOLD_ON_SEVENTH)
    assert clean(hand) and len([r for r in hand.restatements if r.fact is Restated.CARDS]) == 8
    altered = winamax(FOLD_ON_SEVENTH.replace("Dealt to Zoé B [X X 4c 9d] [Kh]", "Dealt to Zoé B [X X 4c 9h] [Kh]"))
    assert any("Zoé B's earlier cards as [?? ?? 4c 9h]" in m for m in findings(altered))
    # "won 129€" is printed once per half: the two lines together restate the two collect lines
    more = winamax(FOLD_ON_SEVENTH[: FOLD_ON_SEVENTH.rindex("won 129€")] + "won 130€")
    assert any("says Zoé B won €259.00" in m and "pay him €258.00" in m for m in findings(more))


def test_acr_pots_stated_at_the_showdown() -> None:
    from tests.test_site_winning import ACR

    # that handwritten hand calls Ann's A-3-4-5-6 "a straight" (the summary repeats the words, judged
    # once): the description check finds it; with the true description the hand states nothing twice differently
    assert len([m for m in findings(acr(ACR)) if "as 'a straight, Six high" in m]) == 1
    legal = ACR.replace("a straight, Six high [6s 5d 4c 3c Ah]", "a high card, Ace high [Ah Jh 9d 6s 5d]")
    hand = acr(legal)
    assert [(p.pot, p.amount, p.after_rake) for p in hand.stated_pots] == [(0, 137, True), (1, 50, True)]
    assert not findings(hand) and not findings(hand, "POT_TOTAL")
    showdown_side = legal.index("Side pot(1) $0.50")
    altered = acr(legal[:showdown_side] + "Side pot(1) $0.51" + legal[showdown_side + len("Side pot(1) $0.50"):])
    assert findings(altered, "POT_TOTAL") and any("side pot 1 as $0.51" in m for m in findings(altered))
    won = acr(legal.replace("and won $0.93", "and won $0.95"))
    assert any("says Ann won $0.95" in m for m in findings(won))
    cards = acr(legal.replace("Dealt to Ben [2s 7h] [8c]", "Dealt to Ben [2s 7d] [8c]"))
    assert any("Ben's earlier cards as [2s 7d]" in m for m in findings(cards))


def test_bovada_summary_amounts() -> None:
    from tests.test_site_bovada import SPLIT

    def bovada(text: str) -> Hand:
        return site_helpers.only_hand(site_helpers.parse_text(parser_for("bovada"), text))

    assert not findings(bovada(SPLIT))
    altered = bovada(SPLIT.replace("LO $20.87 [", "LO $20.97 ["))
    assert any("says Seat+2 won $20.97" in m and "pay him $20.87" in m for m in findings(altered))
    folded = bovada(SPLIT.replace("Seat+1:  Folded on the 4TH STREET", "Seat+1:  Folded on the 5TH STREET"))
    assert any("Seat+1 folded on 5th street" in m for m in findings(folded))


def test_absolute_summary_fold_street_and_total() -> None:
    from tests.test_site_absolute import SCOOP

    def absolute(text: str) -> Hand:
        return site_helpers.only_hand(site_helpers.parse_text(parser_for("absolute"), text))

    def not_descriptions(hand: Hand) -> list[str]:  # SCOOP calls a wheel "One pair, aces": a finding of its own
        return [m for m in findings(hand) if "describes" not in m]

    assert not not_descriptions(absolute(SCOOP))
    folded = absolute(SCOOP.replace("Hero (dealer) Folded on the 3rd STREET", "Hero (dealer) Folded on the 4TH STREET"))
    assert any("Hero folded on 4th street" in m for m in not_descriptions(folded))
    total = absolute(SCOOP.replace("won Total ($6.95)", "won Total ($6.59)"))
    assert any("says shorty won $6.59" in m for m in not_descriptions(total))


def test_old_winning_summary_net_result() -> None:
    from tests.test_site_winning import OLD

    assert not findings(acr(OLD))
    altered = acr(OLD.replace("Bets: 5.05. Collects: 0. Loses: 5.05.", "Bets: 5.05. Collects: 0. Loses: 5.50."))
    assert any("net result of -$5.50 for Cleo" in m for m in findings(altered))


def test_a_phh_export_keeps_the_claims_and_their_findings() -> None:
    from hhtool.reports.phh_writer import hand_to_phh

    altered = stars(RAKED_SIDE_POT.replace("Dealt to Big [Kd Kh] [7s]", "Dealt to Big [Kd Kc] [7s]")
                    .replace("Seat 2: Shorty showed", "Seat 2: Shorty mucked"))
    exported = site_helpers.only_hand(site_helpers.parse_text(parser_for("phh"), hand_to_phh(altered)))
    assert [(p.pot, p.amount, p.after_rake) for p in exported.stated_pots] == [(p.pot, p.amount, p.after_rake)
                                                                             for p in altered.stated_pots]
    assert [replace(r, line=0) for r in exported.restatements] == [replace(r, line=0) for r in altered.restatements]

    def found(hand: Hand) -> list[tuple[str, str | None, int | None]]:
        profile = profile_for_site(hand.origin_site or hand.site)
        return sorted((v.code, v.player, v.street) for v in replay(hand, profile).violations)

    assert found(exported) == found(altered) and len(found(altered)) == 2


def test_an_unreadable_restatement_is_noted_and_the_hand_kept() -> None:
    text = (SPLIT_HAND.replace("Dealt to u.pressure [Td 2c] [Ah]", "Dealt to u.pressure [Td 2x] [Ah]")
            .replace("and won ($0.37)", "and won ($0.3.7)"))
    garbled = stars(text)

    def line_of(fragment: str) -> int:
        return next(number for number, line in enumerate(text.splitlines(), garbled.source.first_line) if fragment in line)

    # the note's line is a field (the file line of the unreadable text), not words inside it
    notes = {note.text: note.line for note in garbled.notes}
    assert notes["the repeated cards [Td 2x] cannot be read"] == line_of("[Td 2x]")
    assert notes["the summary's amount for gashpor cannot be read"] == line_of("$0.3.7")
    assert not findings(garbled)  # the first statements stand; nothing readable disagrees
    result = replay(garbled, profile_for_site("pokerstars"))
    unread = [u for u in result.unverifiable if u.check is Code.RESTATED]
    assert [(u.reason, u.line) for u in unread] == [("the summary's amount for gashpor cannot be read", line_of("$0.3.7"))]
