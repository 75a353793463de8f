"""No-limit and pot-limit hands: minimum bet and raise and the pot-size maximum replace the fixed
sizes; the raise cap does not apply."""

from __future__ import annotations

from hhtool.replay import PROFILES, ReplayResult, Verdict, replay
from tests.replay_helpers import build_hand, edit, line_of

NO_LIMIT = """
seats A=500 B=500 C=500
stakes ante=1 bring=2 small=4 big=8 structure=no_limit
antes
3rd A [Kd Qd] 2c, B [Ah 3h] 5s, C [Ks Kh] Jc
A bring 2
B complete 4
C raise 12
A fold
B raise 20
C raise 28
B raise 36
C raise 44
B call
4th B 4d, C Jd
C bet 30
B fold
return C 30
collect C 93
rake 0
total 93
"""


def run(script: str) -> ReplayResult:
    return replay(build_hand(script), PROFILES["default"])


def test_no_limit_hand_with_many_raises_is_clean() -> None:
    result = run(NO_LIMIT)
    assert result.verdict is Verdict.OK, result.violations


def test_no_limit_raise_below_the_last_raise() -> None:
    script = edit(edit(edit(NO_LIMIT, "B raise 36", "B raise 30"), "C raise 44", "C raise 38"), "collect C 93", "collect C 81")
    script = edit(script, "total 93", "total 81")
    result = run(script)
    assert [(v.code, v.street, v.player, v.line, v.expected) for v in result.violations] == [
        ("BET_SIZE", 3, "B", line_of(script, "B raise 30"), "at least $0.36")]


def test_no_limit_completion_below_the_small_bet() -> None:
    script = edit(NO_LIMIT, "B complete 4", "B complete 3")
    found = run(script).violations[0]
    assert (found.code, found.player, found.line, found.expected, found.actual) == (
        "BET_SIZE", "B", line_of(script, "B complete 3"), "at least $0.04", "$0.03")


def test_pot_limit_maximum() -> None:
    pot_limit = edit(NO_LIMIT, "structure=no_limit", "structure=pot_limit")
    # B's raise to 20 is within the pot: 12 + (3 antes + 2 + 4 + 12) + 8 to call = 41
    assert run(pot_limit).verdict is Verdict.OK
    script = edit(edit(pot_limit, "B raise 20", "B raise 42"), "C raise 28", "C raise 80")
    script = edit(edit(script, "B raise 36", "B raise 118"), "C raise 44", "C raise 156")
    script = edit(edit(script, "collect C 93", "collect C 317"), "total 93", "total 317")
    found = [(v.code, v.player, v.expected, v.actual) for v in run(script).violations]
    assert found == [("BET_SIZE", "B", "at most $0.41", "$0.42")]


def test_no_limit_bring_in_must_be_below_the_minimum_bet() -> None:
    # the bring-in is a forced bet smaller than the minimum bet (the stakes' small bet), as in limit
    script = edit(edit(NO_LIMIT, "bring=2", "bring=4"), "A bring 2", "A bring 4")
    found = [(v.code, v.expected, v.message) for v in run(script).violations if v.code == "BRING_IN_AMOUNT"]
    assert found == [("BRING_IN_AMOUNT", "less than $0.04", "a bring-in of $0.04 is not below the minimum bet $0.04")]
    below = edit(edit(NO_LIMIT, "bring=2", "bring=3"), "A bring 2", "A bring 3")
    assert not [v for v in run(below).violations if v.code == "BRING_IN_AMOUNT"]


def test_no_limit_first_bet_over_the_bring_in_is_a_full_bet_and_sets_the_minimum_raise() -> None:
    # no completion in big-bet poker: B's 4 over the bring-in is a bet of 4, so C must raise by at least 4
    script = edit(edit(edit(NO_LIMIT, "C raise 12", "C raise 7"), "B raise 20", "B raise 15"), "C raise 28", "C raise 23")
    script = edit(edit(script, "B raise 36", "B raise 31"), "C raise 44", "C raise 39")
    script = edit(edit(script, "collect C 93", "collect C 83"), "total 93", "total 83")
    found = [(v.code, v.player, v.expected, v.actual) for v in run(script).violations]
    assert found == [("BET_SIZE", "C", "at least $0.08", "$0.07")]


def test_no_limit_without_a_stated_minimum_bet() -> None:
    script = edit(NO_LIMIT, "small=4 big=8", "small=? big=?")
    result = run(script)
    assert not result.violations
    assert [u.reason for u in result.unverifiable if u.check == "BET_SIZE"] == ["the minimum bet of the table is not stated"]
    # raises are still judged against the round's last full raise
    short = edit(edit(edit(script, "B raise 36", "B raise 30"), "C raise 44", "C raise 38"), "collect C 93", "collect C 81")
    short = edit(short, "total 93", "total 81")
    assert [(v.code, v.player, v.expected) for v in run(short).violations] == [("BET_SIZE", "B", "at least $0.36")]


def test_pot_limit_first_bet_over_the_bring_in_is_capped_by_the_pot() -> None:
    pot_limit = edit(NO_LIMIT, "structure=no_limit", "structure=pot_limit")
    # B faces the bring-in of 2 with 5 in the pot (3 antes + 2): at most 2 + 5 + 2 = 9
    script = edit(edit(pot_limit, "B complete 4", "B complete 10"), "C raise 12", "C raise 20")
    script = edit(edit(script, "B raise 20", "B raise 30"), "C raise 28", "C raise 40")
    script = edit(edit(script, "B raise 36", "B raise 50"), "C raise 44", "C raise 60")
    script = edit(edit(script, "collect C 93", "collect C 125"), "total 93", "total 125")
    found = [(v.code, v.player, v.expected, v.actual) for v in run(script).violations]
    assert found == [("BET_SIZE", "B", "at most $0.09", "$0.10")]
