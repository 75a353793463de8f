"""One hand per violation code, built to break its rule once, beside its clean counterpart.

Every hand is the clean three-handed ``CLEAN`` hand (or a small variant) with one edit; the tests
assert the exact code, street, player and source line the replay reports.
"""

from __future__ import annotations

from hhtool.replay import PROFILES, ReplayResult, RuleProfile, Verdict, Violation, replay
from tests.replay_helpers import CLEAN, build_hand, edit, line_of

DEFAULT = PROFILES["default"]


def run(script: str, profile: str = "default") -> ReplayResult:
    return replay(build_hand(script), PROFILES[profile])


def only(result: ReplayResult, code: str) -> Violation:
    found = [v for v in result.violations if v.code == code]
    assert len(found) == 1, result.violations
    return found[0]


def assert_single(result: ReplayResult, code: str, street: int | None, player: str | None, line: int) -> Violation:
    """Exactly one violation, with this code, street, player and line."""
    assert result.verdict is Verdict.VIOLATION
    assert [v.code for v in result.violations] == [code], result.violations
    found = result.violations[0]
    assert (found.street, found.player, found.line) == (street, player, line), found
    assert found.site == "test" and found.hand_id == "1" and found.file == "test.txt"
    return found


def test_clean_hand_is_ok_with_rules_award_equal_to_site_award() -> None:
    result = run(CLEAN)
    assert result.verdict is Verdict.OK
    assert result.violations == () and result.unverifiable == ()
    assert {(a.player, a.rules_amount, a.site_amount) for a in result.awards} == {("C", 45, 45), ("B", 44, 44)}
    (pot,) = result.pots
    assert (pot.amount, pot.rake_share, pot.high_shares, pot.low_shares) == (91, 2, (("C", 45),), (("B", 44),))


# ---------------------------------------------------------------- R2 antes


def test_ante_too_large() -> None:
    script = edit(CLEAN, "antes", "ante A 1\nante B 2\nante C 1")
    script = edit(edit(script, "collect B 44", "collect B 45"), "total 91", "total 92")  # C's 45 stays
    found = assert_single(run(script), "ANTE", 3, "B", line_of(script, "ante B 2"))
    assert (found.expected, found.actual) == ("$0.01", "$0.02")


def test_missing_ante() -> None:
    script = edit(CLEAN, "antes", "ante A 1\nante C 1")
    script = edit(edit(script, "collect C 45", "collect C 44"), "total 91", "total 90")  # B's 44 stays
    assert_single(run(script), "ANTE", 3, "B", line_of(script, "seats"))


def test_short_ante_all_in_is_legal() -> None:
    script = """
seats A=1 B=100
stakes ante=2 bring=2 small=4 big=8
ante A 1 allin
ante B 2
3rd A [Kd Qd] 2c, B [Ah 3h] 5s
B bring 2
4th A 9d, B 4d
5th A Tc, B 6c
6th A 8c, B 8s
7th A [7c], B [9s]
show A
show B
collect B 3
collect A 1
collect B 1
return B 1
rake 0
"""
    # main pot 2 (A, B): A high (pair of 8s? no: K Q T 9 8 7 2 → K-high vs B A-high) → B high 1, A low 1
    result = run(script)
    assert "ANTE" not in result.codes and "STACK" not in result.codes, result.violations


def test_ante_handed_back_to_a_player_who_sat_out() -> None:
    # Full Tilt: "Ante of $0.25 returned to dsouza" — a timed-out player is not dealt in (R2)
    script = edit(edit(CLEAN, "seats A=100 B=100 C=100", "seats A=100 B=100 C=100 D=100"), "antes\n", "antes\nreturn D 1\n")
    assert run(script).verdict is Verdict.OK
    kept = edit(script, "return D 1\n", "")  # the ante stays in: D is dealt in yet never acts
    assert {v.player for v in run(kept).violations if v.code == "ROUND_INCOMPLETE"} == {"D"}


# ---------------------------------------------------------------- R3 / R4 bring-in


def test_bring_in_by_the_wrong_player_suit_breaks_the_tie() -> None:
    script = edit(CLEAN, "A [Kd Qd] 2c, B [Ah 3h] 5s", "A [Kd Qd] 2h, B [Ah 3h] 2c")
    found = assert_single(run(script), "BRING_IN_PLAYER", 3, "A", line_of(script, "A bring 2"))
    assert (found.expected, found.actual) == ("B", "A")
    assert run(edit(script, "A [Kd Qd] 2h", "A [Kd Qd] 2s")).codes == ("BRING_IN_PLAYER",)
    assert replay(build_hand(script), RuleProfile(bringin_tie="position")).verdict is Verdict.OK


def test_bring_in_with_ace_showing_is_not_the_ace() -> None:
    script = edit(CLEAN, "A [Kd Qd] 2c, B [Ah 3h] 5s", "A [Kd Qd] Ac, B [2h 3h] 5s")
    result = run(script)
    found = only(result, "BRING_IN_PLAYER")
    assert (found.expected, found.player) == ("B", "A")


def test_bring_in_amount_wrong() -> None:
    script = edit(CLEAN, "A bring 2", "A bring 3")
    found = assert_single(run(script), "BRING_IN_AMOUNT", 3, "A", line_of(script, "A bring 3"))
    assert (found.expected, found.actual) == ("$0.02", "$0.03")


def test_bring_in_player_may_open_for_the_small_bet_instead() -> None:
    script = edit(edit(CLEAN, "A bring 2", "A complete 4"), "B complete 4\nC call\nA call", "B call\nC call")
    assert run(script).verdict is Verdict.OK


def test_short_all_in_bring_in_is_legal() -> None:
    script = """
seats A=2 B=100 C=100
antes
3rd A [Kd Qd] 2c, B [Ah 3h] 5s, C [Ks Kh] Jc
A bring 1 allin
B call 2
C call 2
4th A 9d, B 4d, C Jd
C check
B check
5th A Tc, B 6c, C 8h
C check
B check
6th A 7s, B 8s, C 2d
C check
B check
7th A [4s], B [9s], C [3c]
C check
B check
show A
show B
show C
collect C 4
collect B 4
rake 0
"""
    result = run(script)
    assert result.verdict is Verdict.OK, result.violations
    assert not any(v.code.startswith("BRING_IN") for v in result.violations)


# ---------------------------------------------------------------- R5 / R6 sizes and legal actions


def test_raise_of_the_wrong_size() -> None:
    script = edit(CLEAN, "B raise 16", "B raise 20")
    script = edit(edit(edit(script, "collect C 45", "collect C 49"), "collect B 44", "collect B 48"), "total 91", "total 99")
    found = assert_single(run(script), "BET_SIZE", 5, "B", line_of(script, "B raise 20"))
    assert (found.expected, found.actual) == ("$0.16", "$0.20")


def test_completion_must_be_exactly_the_small_bet() -> None:
    script = edit(CLEAN, "B complete 4\nC call\nA call", "B complete 8\nC call\nA call")
    script = edit(edit(edit(script, "collect C 45", "collect C 51"), "collect B 44", "collect B 50"), "total 91", "total 103")
    found = assert_single(run(script), "BET_SIZE", 3, "B", line_of(script, "B complete 8"))
    assert (found.expected, found.actual) == ("$0.04", "$0.08")


def test_big_bet_on_fourth_street_open_pair_needs_the_double_bet_rule() -> None:
    script = edit(CLEAN, "C bet 4\nA call\nB call", "C bet 8\nA call\nB call")
    script = edit(edit(edit(script, "collect C 45", "collect C 51"), "collect B 44", "collect B 50"), "total 91", "total 103")
    assert_single(run(script), "BET_SIZE", 4, "C", line_of(script, "C bet 8\nA call\nB call"))
    stud_high = RuleProfile(fourth_street_double_bet=True)
    assert replay(build_hand(script), stud_high).verdict is Verdict.OK


def test_call_of_the_wrong_amount() -> None:
    script = edit(CLEAN, "B raise 16\nC call", "B raise 16\nC call 6")
    script = edit(edit(edit(script, "collect C 45", "collect C 44"), "collect B 44", "collect B 43"), "total 91", "total 89")
    # C is 2 short and the round ends with him unmatched: the short call is BET_SIZE, the gap ROUND_INCOMPLETE
    result = run(script)
    found = only(result, "BET_SIZE")
    assert (found.street, found.player, found.line, found.expected, found.actual) == (
        5, "C", line_of(script, "C call 6"), "$0.08", "$0.06")


def test_acting_after_folding_is_illegal() -> None:
    script = edit(CLEAN, "6th B 8s, C 2d\nC check", "6th B 8s, C 2d\nA check\nC check")
    found = assert_single(run(script), "ILLEGAL_ACTION", 6, "A", line_of(script, "A check"))
    assert "folding on 5th street" in found.message


def test_check_on_third_street_is_illegal() -> None:
    script = """
seats A=100 B=100
antes
3rd A [Kd Qd] 2c, B [Ah 3h] 5s
A bring 2
B check
"""
    result = run(script)
    found = only(result, "ILLEGAL_ACTION")
    assert (found.street, found.player, found.line) == (3, "B", line_of(script, "B check"))


def test_bring_in_player_may_not_fold() -> None:
    script = """
seats A=100 B=100
antes
3rd A [Kd Qd] 2c, B [Ah 3h] 5s
A fold
collect B 2
rake 0
"""
    found = only(run(script), "ILLEGAL_ACTION")
    assert (found.street, found.player, found.actual) == (3, "A", "fold")


def test_check_facing_a_bet_is_illegal() -> None:
    script = edit(CLEAN, "C check\nB bet 8\nC call\n7th", "C check\nB bet 8\nC check\nC call\n7th")
    result = run(script)
    found = only(result, "ILLEGAL_ACTION")
    assert (found.street, found.player, found.line) == (6, "C", line_of(script, "C check\nC call"))


def test_fold_without_a_bet_follows_the_profile() -> None:
    script = edit(CLEAN, "5th A Tc, B 6c, C 8h\nC bet 8\nA fold\nB raise 16\nC call",
                  "5th A Tc, B 6c, C 8h\nC check\nA fold\nB bet 8\nC raise 16\nB call")
    assert run(script).verdict is Verdict.OK
    strict = RuleProfile(allow_fold_unfaced=False)
    result = replay(build_hand(script), strict)
    found = only(result, "ILLEGAL_ACTION")
    assert (found.street, found.player, found.line) == (5, "A", line_of(script, "A fold"))


# ---------------------------------------------------------------- R7 order


def test_wrong_opener_on_fourth_street() -> None:
    script = edit(CLEAN, "C bet 4\nA call\nB call", "A bet 4\nB call\nC call")
    found = assert_single(run(script), "ACTION_ORDER", 4, "A", line_of(script, "A bet 4"))
    assert found.expected == "C" and "one pair" in found.message


def test_out_of_turn_within_a_round() -> None:
    script = edit(CLEAN, "C bet 4\nA call\nB call", "C bet 4\nB call\nA call")
    found = assert_single(run(script), "ACTION_ORDER", 4, "B", line_of(script, "B call\nA call"))
    assert (found.expected, found.actual) == ("A", "B")


def test_action_after_the_round_was_complete() -> None:
    script = edit(CLEAN, "C check\nB bet 8\nC call\n7th", "C check\nB bet 8\nC call\nB check\n7th")
    found = assert_single(run(script), "ACTION_ORDER", 6, "B", line_of(script, "B check\n7th"))
    assert found.expected == "no further action"


# ---------------------------------------------------------------- R8 cap


CAPPED = """
seats A=200 B=200 C=200
antes
3rd A [Kd Qd] 2c, B [Ah 3h] 5s, C [Ks Kh] Jc
A bring 2
B complete 4
C raise 8
A call
B raise 12
C raise 16
A call
B raise 20
C call
A call
4th A 9d, B 4d, C Jd
C check
A check
B check
5th A Tc, B 6c, C 8h
C check
A fold
B check
6th B 8s, C 2d
C check
B check
7th B [9s], C [3c]
C check
B check
show B
show C
collect C 32
collect B 31
rake 0
"""


def test_raise_cap() -> None:
    found = assert_single(run(CAPPED), "RAISE_CAP", 3, "B", line_of(CAPPED, "B raise 20"))
    assert "capped at 4 bets" in found.message
    assert run(edit(CAPPED, "B raise 20\nC call\nA call", "B call\nC check\nA call")).codes != ("RAISE_CAP",)


def test_fifth_bet_is_legal_with_four_raises() -> None:
    assert run(CAPPED, "wsop").verdict is Verdict.OK


# ---------------------------------------------------------------- stacks


def test_putting_in_more_than_the_stack() -> None:
    script = edit(CLEAN, "seats A=100 B=100 C=100", "seats A=100 B=100 C=36")
    found = assert_single(run(script), "STACK", 7, "C", line_of(script, "B bet 8\nC call\nshow") + 1)
    assert (found.expected, found.actual) == ("at most $0.03", "$0.08")


def test_all_in_flag_with_chips_left() -> None:
    script = edit(CLEAN, "B bet 8\nC call\nshow", "B bet 8\nC call allin\nshow")
    assert_single(run(script), "STACK", 7, "C", line_of(script, "C call allin"))


# ---------------------------------------------------------------- R9 round completion


def test_round_ends_before_a_player_matched() -> None:
    script = edit(CLEAN, "C bet 4\nA call\nB call", "C bet 4\nA call")
    script = edit(edit(edit(script, "collect C 45", "collect C 43"), "collect B 44", "collect B 42"), "total 91", "total 87")
    found = assert_single(run(script), "ROUND_INCOMPLETE", 4, "B", line_of(script, "A call\n5th"))
    assert found.actual == "$0.00 in"


def test_hand_stops_while_two_players_could_still_bet() -> None:
    script = CLEAN[: CLEAN.index("7th")] + "collect C 37\ncollect B 36\nrake 0\n"
    result = run(script)
    found = only(result, "ROUND_INCOMPLETE")
    assert (found.street, found.player) == (7, None)


# ---------------------------------------------------------------- R1 / R17 cards


def test_duplicate_card() -> None:
    script = edit(CLEAN, "7th B [9s], C [3c]", "7th B [9s], C [9s]")
    result = run(script)
    found = only(result, "CARDS")
    assert (found.street, found.player, found.line) == (7, "C", line_of(script, "7th B"))
    assert found.actual == "9s twice"


def test_card_dealt_to_a_folded_player() -> None:
    script = edit(CLEAN, "6th B 8s, C 2d", "6th A 7h, B 8s, C 2d")
    assert_single(run(script), "CARDS", 6, "A", line_of(script, "6th A 7h"))


def test_wrong_number_of_cards() -> None:
    script = edit(CLEAN, "4th A 9d, B 4d, C Jd", "4th A 9d 7h, B 4d, C Jd")
    found = assert_single(run(script), "CARDS", 4, "A", line_of(script, "4th A"))
    assert (found.expected, found.actual) == ("0 down, 1 up", "0 down, 2 up")


def test_shown_hand_contradicts_the_deal() -> None:
    script = edit(CLEAN, "show C", "show C [Ks Kh Jc Jd 8h 2d 4c]")
    result = run(script)
    found = only(result, "CARDS")
    assert (found.player, found.line, found.expected) == ("C", line_of(script, "show C"), "3c")


def test_common_card_when_the_deck_suffices() -> None:
    script = edit(CLEAN, "7th B [9s], C [3c]", "street 7th\ncommunity 9c")
    result = run(script)
    assert result.codes == ("CARDS",)
    assert (result.violations[0].street, result.violations[0].player) == (7, None)


def _eight_players(common: str | None) -> str:
    names = "ABCDEFGH"
    ups = ["2c 3c 4c 5c", "2d 3d 4d 5d", "2h 3h 4h 5h", "2s 3s 4s 5s", "6c 7c 8c 9c", "6d 7d 8d 9d", "6h 7h 8h 9h", "6s 7s 8s 9s"]
    downs = ["Tc Jc", "Td Jd", "Th Jh", "Ts Js", "Qc Kc", "Qd Kd", "Qh Kh", "Qs Ks"]
    lines = ["seats " + " ".join(f"{n}=100" for n in names), "stakes ante=0 bring=2 small=4 big=8"]
    cards = [up.split() for up in ups]
    lines.append("3rd " + ", ".join(f"{n} [{downs[i]}] {cards[i][0]}" for i, n in enumerate(names)))
    lines.append("A bring 2")
    lines += [f"{n} call" for n in names[1:]]
    checks = [f"{n} check" for n in "EFGHABCD"]  # E's 7-6 shows first of the tied best boards
    for street, index in (("4th", 1), ("5th", 2), ("6th", 3)):
        lines.append(f"{street} " + ", ".join(f"{n} {cards[i][index]}" for i, n in enumerate(names)))
        lines += checks
    if common is None:
        lines.append("7th " + ", ".join(f"{n} [{c}]" for n, c in zip(names, ["Ac", "Ad", "Ah", "As"] + ["??"] * 4, strict=True)))
    else:
        lines += ["street 7th", f"community {common}"]
    lines += checks
    return "\n".join(lines) + "\n"


def test_eight_players_need_a_common_card() -> None:
    result = replay(build_hand(_eight_players(None)), DEFAULT)
    found = only(result, "CARDS")
    assert found.street == 7 and "needs a common card" in found.message
    assert set(result.codes) == {"CARDS"}
    assert replay(build_hand(_eight_players("Ac")), DEFAULT).violations == ()


# ---------------------------------------------------------------- R10 uncalled


# C folds to B's 7th-street bet: 8 returned, 75 in the pot, 73 to B after the rake.
FOLD_ON_SEVENTH = edit(edit(edit(CLEAN, "B bet 8\nC call\nshow B\nshow C", "B bet 8\nC fold\nreturn B 8\nnoshow B"),
                            "collect C 45\ncollect B 44", "collect B 73"), "total 91", "total 75")


def test_uncalled_bet_returned_is_clean() -> None:
    assert run(FOLD_ON_SEVENTH).verdict is Verdict.OK


def test_uncalled_bet_not_returned() -> None:
    script = edit(edit(edit(FOLD_ON_SEVENTH, "return B 8\n", ""), "collect B 73", "collect B 81"), "total 75", "total 83")
    result = run(script)
    found = only(result, "UNCALLED_BET")
    assert (found.street, found.player, found.expected, found.actual) == (7, "B", "$0.08", "$0.00")
    assert set(result.codes) == {"UNCALLED_BET", "POT_AWARD"}  # the unreturned 8 went into B's award


def test_uncalled_bet_wrong_amount() -> None:
    script = edit(edit(edit(FOLD_ON_SEVENTH, "return B 8", "return B 6"), "total 75", "total 77"), "collect B 73", "collect B 75")
    result = run(script)
    found = only(result, "UNCALLED_BET")
    assert (found.street, found.player, found.line, found.expected, found.actual) == (
        7, "B", line_of(script, "return B 6"), "$0.08", "$0.06")


# ---------------------------------------------------------------- R12–R14 awards and showdown


def test_pot_award_odd_cent_to_the_wrong_half() -> None:
    script = edit(edit(CLEAN, "collect C 45", "collect C 44"), "collect B 44", "collect B 45")
    result = run(script)
    assert result.codes == ("POT_AWARD", "POT_AWARD")
    by_player = {v.player: v for v in result.violations}
    c_row = by_player["C"]
    assert (c_row.expected, c_row.actual, c_row.line) == ("$0.45", "$0.44", line_of(script, "collect C"))
    assert (by_player["B"].expected, by_player["B"].actual) == ("$0.44", "$0.45")
    assert run(script, "winning").verdict is Verdict.OK  # Winning gives the odd unit to the low half


def test_labelled_halves_given_to_the_wrong_hands() -> None:
    script = edit(edit(CLEAN, "collect C 45", "collect C 45 low"), "collect B 44", "collect B 44 high")
    result = run(script)
    assert result.codes == ("SHOWDOWN", "SHOWDOWN")
    assert {v.player for v in result.violations} == {"B", "C"}
    assert run(edit(edit(CLEAN, "collect C 45", "collect C 45 high"), "collect B 44", "collect B 44 low")).verdict is Verdict.OK


def test_mucked_hand_paid() -> None:
    script = edit(CLEAN, "show C", "muck C")
    result = run(script)
    found = only(result, "SHOWDOWN")
    assert (found.player, found.line) == ("C", line_of(script, "collect C"))
    awards = {a.player: (a.rules_amount, a.site_amount) for a in result.awards}
    assert awards == {"B": (89, 44), "C": (0, 45)}


def test_loser_paid_the_whole_pot() -> None:
    script = edit(edit(CLEAN, "B [Ah 3h] 5s", "B [Th Qh] 5s"), "collect C 45\ncollect B 44", "collect B 89")
    result = run(script)
    found = only(result, "SHOWDOWN")
    assert found.player == "B" and "without the best hand" in found.message
    assert sorted((v.player, v.expected, v.actual) for v in result.violations if v.code == "POT_AWARD") == [
        ("B", "$0.00", "$0.89"), ("C", "$0.89", "$0.00")]


def test_folded_player_paid() -> None:
    script = edit(CLEAN, "collect B 44", "collect B 43\ncollect A 1")
    result = run(script)
    found = only(result, "SHOWDOWN")
    assert (found.player, found.line) == ("A", line_of(script, "collect A 1"))


# ---------------------------------------------------------------- R15 totals


def test_stated_total_pot_wrong() -> None:
    script = edit(CLEAN, "total 91", "total 95")
    found = assert_single(run(script), "POT_TOTAL", None, None, line_of(script, "collect B 44"))
    assert (found.expected, found.actual) == ("$0.91", "$0.95")


def test_money_not_conserved() -> None:
    script = edit(CLEAN, "collect C 45", "collect C 46")
    result = run(script)
    found = only(result, "POT_TOTAL")
    assert (found.expected, found.actual) == ("$0.91", "$0.92")
    assert set(result.codes) == {"POT_TOTAL", "POT_AWARD"}
