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
