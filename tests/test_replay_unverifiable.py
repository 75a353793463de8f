"""What the history hides makes a check unverifiable — never a silent pass, never a false violation —
and the dispute view explains a hand in words."""

from __future__ import annotations

from hhtool.replay import PROFILES, ReplayResult, Verdict, replay
from tests.replay_helpers import CLEAN, SIDE, build_hand, edit

DEFAULT = PROFILES["default"]


def run(script: str) -> ReplayResult:
    return replay(build_hand(script), DEFAULT)


def reasons(result: ReplayResult) -> dict[str, str]:
    return {u.check: u.reason for u in result.unverifiable}


def test_opponents_upcards_not_printed() -> None:
    script = CLEAN
    for old, new in (("B [Ah 3h] 5s", "B [Ah 3h] ??"), ("B 4d", "B ??"), ("B 6c", "B ??"), ("B 8s", "B ??")):
        script = edit(script, old, new)
    # B's hidden upcards cannot be below A's 2c, and they are among the cards he shows, none of which
    # pairs: neither the bring-in nor an opener depends on them (issue 18 §4)
    shown = run(edit(script, "show B", "show B [Ah 3h 5s 4d 6c 8s 9s]"))
    assert shown.verdict is Verdict.OK, shown.unverifiable
    # without his showdown they could pair, and beat C's pair of jacks from 5th street on
    unshown = run(edit(edit(script, "show B", "muck B"), "collect B 44", "collect C 44"))
    assert unshown.violations == () and set(reasons(unshown)) == {"ACTION_ORDER"}
    assert "B's upcards on 4th street are not all printed, and a value of them could beat C's Jc Jd" in \
        reasons(unshown)["ACTION_ORDER"]


def test_hidden_upcards_do_not_hide_a_wrong_turn_order() -> None:
    script = edit(edit(CLEAN, "B [Ah 3h] 5s", "B [Ah 3h] ??"), "C bet 4\nA call\nB call", "C bet 4\nB call\nA call")
    result = run(script)
    assert [(v.code, v.player) for v in result.violations] == [("ACTION_ORDER", "B")]


def test_unshown_cards_known_from_the_deal_still_decide() -> None:
    assert run(edit(CLEAN, "show C", "noshow C")).verdict is Verdict.OK  # e.g. the hero's own cards


def test_stacks_not_printed() -> None:
    result = run(edit(CLEAN, "seats A=100 B=100 C=100", "seats A=? B=? C=?"))
    assert result.violations == () and result.verdict is Verdict.UNVERIFIABLE
    assert reasons(result) == {"STACK": "starting stack not printed for A, B, C"}


def test_bring_in_amount_not_stated() -> None:
    result = run(edit(CLEAN, "bring=2", "bring=?"))
    assert result.violations == ()
    assert set(reasons(result)) == {"BRING_IN_AMOUNT"}


def test_bet_sizes_not_stated() -> None:
    result = run(edit(CLEAN, "small=4 big=8", "small=? big=?"))
    assert result.violations == ()
    assert set(reasons(result)) == {"BET_SIZE"}


HIDDEN_WINNER = edit(edit(edit(CLEAN, "C [Ks Kh] Jc", "C [?? ??] Jc"), "C [3c]", "C [??]"), "show C", "noshow C")


def test_winner_did_not_show() -> None:
    result = run(HIDDEN_WINNER)
    assert result.violations == () and result.verdict is Verdict.UNVERIFIABLE
    assert "C: cards not shown" in reasons(result)["POT_AWARD"]
    assert result.awards == ()  # never assume the site's award is the rules' award
    assert result.pots[0].decided is False


def test_rake_not_stated() -> None:
    result = run(edit(CLEAN, "rake 2", "rake ?"))
    assert result.violations == ()
    # issue #33: the chips the pot kept are the rake, adopted as an assumption, not an unverifiable check
    assert reasons(result) == {} and result.verdict is Verdict.OK
    assert [(a.kind, a.value, a.words) for a in result.assumptions] == [
        ("rake", 2, "rake $0.02, the chips the pot kept: $0.91 went in and $0.89 was paid out; the history does not "
                    "state the rake")]
    assert {(a.player, a.rules_amount) for a in result.awards} == {("C", 45), ("B", 44)}  # split after the implied rake


def test_no_rake_stated_but_chips_in_equal_chips_out_is_judged() -> None:
    """Issue #24: awards that add up to the pot mean no rake; the total and the split are judged to the chip."""
    script = edit(edit(edit(CLEAN, "rake 2", "rake ?"), "collect C 45", "collect C 46"), "collect B 44", "collect B 45")
    result = run(script)
    assert result.verdict is Verdict.OK, (result.violations, result.unverifiable)
    # and a wrong split is still caught, with the implied rake of 0
    wrong = run(edit(edit(CLEAN, "rake 2", "rake ?"), "collect C 45", "collect C 47"))  # 47 + 44: B is owed 45
    assert {v.code for v in wrong.violations} == {"POT_AWARD"}


def test_a_tournament_pot_short_of_its_chips_is_a_violation() -> None:
    """Issue #24: tournaments take no rake from pots: chips that vanish are missing, not a rake."""
    from hhtool.replay.checks.totals import check_totals
    from hhtool.replay.timeline import ReplayState
    from tests.replay_helpers import with_stakes

    hand = with_stakes(build_hand(edit(CLEAN, "rake 2", "rake ?")), is_tournament=True)
    found = list(check_totals(hand, ReplayState.__new__(ReplayState), DEFAULT))
    assert [getattr(f, "code", None) for f in found] == ["POT_TOTAL"]
    assert "a tournament takes no rake from its pots, and $0.02 is missing" in found[0].message  # type: ignore[union-attr]


def test_an_assumption_does_not_hide_a_violation() -> None:
    result = run(edit(edit(CLEAN, "rake 2", "rake ?"), "A bring 2", "A bring 3"))
    assert result.verdict is Verdict.VIOLATION
    assert result.codes == ("BRING_IN_AMOUNT",) and [a.kind for a in result.assumptions] == ["rake"]


def explained(text: str) -> str:
    """The dispute report (hhtool.reports.dispute) of a built hand under the default rules, as text."""
    from hhtool.replay import profile_for
    from hhtool.reports.dispute import build_report, render_text

    hand = build_hand(text)
    return render_text(build_report(hand, profile_for(hand, DEFAULT)))


def test_the_dispute_report_walks_through_each_pot() -> None:
    text = explained(SIDE)
    for fragment in (
        "Main pot: $0.60, rake $0.01, $0.59 to award",
        "Eligible: A, B, C",
        "high: two pair, Kings and Jacks [Ks Kh Jd Jc 8h]",
        "high: high card Ace [Ad Kd Qc 6h 4h]",
        "low: 6,4,3,2,A [6h 4h 3d 2c Ad]",
        "High half $0.30: C $0.30",
        "Low half $0.29: A $0.29",
        "odd $0.01 between the halves goes to the high half",
        "Side pot 1: $0.34",
        "Eligible: B, C",
        "Low half $0.17: B $0.17",
        "  C            $0.47       $0.47        $0.00",
    ):
        assert fragment in text, fragment
    assert text.startswith("The site's award is correct under the rules document's defaults.")
    assert "Departures" not in text


def test_the_dispute_report_signs_the_difference_and_says_what_is_hidden() -> None:
    wrong = explained(edit(edit(CLEAN, "collect C 45", "collect C 44"), "collect B 44", "collect B 45"))
    assert wrong.startswith("The site paid $0.01 of the high half of the main pot to B; by the rules it\nbelongs to C")
    assert "  B            $0.44       $0.45       +$0.01" in wrong and "  C            $0.45       $0.44       -$0.01" in wrong
    assert "POT_AWARD" not in wrong and "←" not in wrong  # the rule in words, money signed, no internal code
    hidden = explained(HIDDEN_WINNER)
    assert hidden.startswith("The award could not be verified: C: cards not shown")


