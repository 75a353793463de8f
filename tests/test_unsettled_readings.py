"""§3 of issue 18: under a site's own profile a finding that holds only under one reading of a
rule the rules document leaves unsettled online is `unverifiable` for its check (naming the
readings and the one the history followed); under a profile the user chose it is a violation.
One hand per unsettled rule, each beside a legal counterpart that stays clean."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.replay import PROFILES, ReplayResult, Verdict, replay
from hhtool.replay.profiles import UNSETTLED
from hhtool.reports.phh_writer import hand_to_phh
from tests.replay_helpers import QUARTER, SIDE, build_hand, edit

DEFAULT = PROFILES["default"]
runner = CliRunner()

# --- R7 opener tie: B (9c Kh) and C (9h Ks) tie on 4th; by position B opens, by suit C (Ks).
OPENER_TIE = """seats A=100 B=100 C=100
stakes ante=1 bring=2 small=4 big=8
antes
3rd A [Kd Qd] 2c, B [Ah 3h] 9c, C [Qs 7h] 9h
A bring 2
B call
C call
4th A 5d, B Kh, C Ks
C bet 4
A fold
B fold
return C 4
collect C 9
rake 0"""
OPENER_TIE_CLEAN = edit(OPENER_TIE, "C bet 4\nA fold\nB fold", "B check\nC bet 4\nA fold\nB fold")

# --- R7 all-in best board: A (pair of 2s) is all-in; next active clockwise is B, best active board C.
ALLIN_OPENER = """seats A=3 B=100 C=100
stakes ante=1 bring=2 small=4 big=8
antes
3rd A [Ad 4h] 2c, B [7s 8s] 3c, C [Qs Js] Kh
A bring 2 allin
B call
C call
4th A 2d, B 5d, C 9d
C check
B bet 4
C fold
return B 4
5th A 6c, B Tc
6th A 7c, B Jc
7th A [9c], B [Qc]
show A
show B
collect A 9
rake 0"""
ALLIN_OPENER_CLEAN = edit(ALLIN_OPENER, "C check\nB bet 4\nC fold", "B bet 4\nC fold")

# --- R7 exposed 7th card: A's 7th card is dealt face up (5h: trip fives over B's pair of nines).
EXPOSED_7TH = """seats A=100 B=100 C=100
stakes ante=1 bring=2 small=4 big=8
antes
3rd A [Kd Qd] 5c, B [Ah 3h] 9c, C [Qs Js] 2c
C bring 2
A call
B call
4th A 5d, B 9d, C 7h
B check
C check
A check
5th A Th, B 4s, C 8c
B check
C check
A check
6th A Jh, B 6d, C Ks
B check
C check
A check
7th A 5h, B [Kc], C [3d]
A bet 8
B fold
C fold
return A 8
collect A 9
rake 0"""
EXPOSED_7TH_CLEAN = edit(EXPOSED_7TH, "A bet 8\nB fold", "B check\nC check\nA bet 8\nB fold")

# --- R11: D bets 8, A goes all-in to 11 (+3, less than half), B raises to 19: one bet over the all-in
# (PokerKit's full-raise rule) where the half-bet rule completes to the full level (16).
REOPEN = """seats A=14 B=100 C=100 D=100
stakes ante=1 bring=2 small=4 big=8
antes
3rd A [Kd Qd] 2c, B [Ah 3h] 5s, C [7c 7d] 6h, D [Ks Kh] 9d
A bring 2
B call
C call
D call
4th A 3c, B 5d, C 8s, D Jc
B check
C check
D check
A check
5th A Td, B Tc, C 4d, D Js
D bet 8
A raise 11 allin
B raise 19
C fold
D fold
return B 8
6th A 9h, B 4c
7th A [8h], B [2h]
show A
show B
collect B 42
rake 0"""
REOPEN_CLEAN = edit(edit(REOPEN, "B raise 19", "B raise 16"), "return B 8", "return B 5")

# --- R14 tied half: QUARTER pays A the low half's odd unit (highest card of the winning five by
# suit); Robert's Rules (lowest card by suit, all cards) give it to B.
TIED_HALF = edit(edit(QUARTER, "collect A 30", "collect A 29"), "collect B 9", "collect B 10")

# --- R15: SIDE with a rake of 2: in proportion the main pot pays 1 and the side pot 1 (C 47, A 29,
# B 16); all from the main pot gives C 46, A 29, B 17.
RAKE_PROPORTIONAL = edit(edit(SIDE, "rake 1", "rake 2"), "collect B 17 pot=1", "collect B 16 pot=1")
RAKE_MAIN_POT = edit(edit(SIDE, "rake 1", "rake 2"), "collect C 30", "collect C 29")


def _common_card_hand(opener: str) -> str:
    """Eight players to 7th street, so the 7th card is one common card (5h, R17): C shows aces on
    4th-6th, and the common card gives D trip fives. ``opener`` bets 7th and everyone else folds."""
    boards = {
        "A": ("Kd Kh", "2c", "9d", "Jd", "3h"), "B": ("Qs Qh", "6c", "7d", "Td", "4h"),
        "C": ("Ks Qc", "As", "Ah", "Kc", "Qd"), "D": ("Js Jh", "5c", "5d", "9h", "Th"),
        "E": ("Ts 9s", "8c", "3d", "2h", "Jc"), "F": ("8s 7s", "4c", "6d", "8h", "2d"),
        "G": ("6s 4s", "3c", "Ac", "7h", "Tc"), "H": ("3s 2s", "9c", "Ad", "6h", "7c"),
    }  # fmt: skip
    names = list(boards)
    lines = ["seats " + " ".join(f"{n}=100" for n in names), "stakes ante=1 bring=2 small=4 big=8", "antes",
             "3rd " + ", ".join(f"{n} [{b[0]}] {b[1]}" for n, b in boards.items()), "A bring 2"]
    lines += [f"{n} call" for n in names[1:]]
    from_c = names[2:] + names[:2]
    for number, street in enumerate(("4th", "5th", "6th")):
        lines.append(street + " " + ", ".join(f"{n} {b[2 + number]}" for n, b in boards.items()))
        lines += [f"{n} check" for n in from_c]
    lines += ["community 5h", "street 7th", f"{opener} bet 8"]
    lines += [f"{n} fold" for n in names[names.index(opener) + 1:] + names[: names.index(opener)]]
    return "\n".join([*lines, f"return {opener} 8", f"collect {opener} 24", "rake 0"]) + "\n"


COMMON_CARD = _common_card_hand("C")  # the 6th-street board (aces) opens
COMMON_CARD_CLEAN = _common_card_hand("D")  # the board with the common card (trip fives) opens

# (rule, hand following another reading, its check, the reading it followed, legal counterpart)
CASES = [
    ("opener_tie", OPENER_TIE, "ACTION_ORDER", "suit", OPENER_TIE_CLEAN),
    ("allin_opener", ALLIN_OPENER, "ACTION_ORDER", "best active board", ALLIN_OPENER_CLEAN),
    ("common_card_opener", COMMON_CARD, "ACTION_ORDER", "6th-street board", COMMON_CARD_CLEAN),
    ("exposed_7th_opener", EXPOSED_7TH, "ACTION_ORDER", "all upcards", EXPOSED_7TH_CLEAN),
    ("reopen_threshold", REOPEN, "BET_SIZE", "full-raise rule", REOPEN_CLEAN),
    ("odd_unit_tied_half", TIED_HALF, "POT_AWARD", "highest (high) / lowest (low) card by suit of all cards", QUARTER),
    ("rake_allocation", RAKE_MAIN_POT, "POT_AWARD", "all from the main pot", RAKE_PROPORTIONAL),
]


def findings(result: ReplayResult, code: str) -> tuple[list[str], list[str]]:
    """(violation messages, unverifiable reasons) for one check."""
    return [v.message for v in result.violations if v.code == code], [u.reason for u in result.unverifiable if u.check == code]


def test_every_unsettled_rule_of_the_document_has_a_case() -> None:
    assert {case[0] for case in CASES} == set(UNSETTLED)


@pytest.mark.parametrize(("rule", "script", "code", "followed", "clean"), CASES, ids=[case[0] for case in CASES])
def test_a_finding_that_needs_one_reading_is_unverifiable_under_the_site_profile(
    rule: str, script: str, code: str, followed: str, clean: str,
) -> None:
    hand = build_hand(script)  # site "test": no recorded practice, every rule unsettled
    violations, reasons = findings(replay(hand), code)
    assert violations == [] and reasons, (rule, violations)
    own = UNSETTLED[rule].reading_of(DEFAULT)
    assert own is not None
    for reason in reasons:
        assert UNSETTLED[rule].what in reason  # the rule, both readings and the one the history followed
        assert f"reading '{own.label}'" in reason and f"the history follows '{followed}'" in reason
        assert UNSETTLED[rule].why_open in reason


@pytest.mark.parametrize(("rule", "script", "code", "followed", "clean"), CASES, ids=[case[0] for case in CASES])
def test_under_a_profile_the_user_chose_the_finding_is_a_violation(
    rule: str, script: str, code: str, followed: str, clean: str,
) -> None:
    violations, reasons = findings(replay(build_hand(script), DEFAULT), code)
    assert violations and reasons == [], rule


@pytest.mark.parametrize(("rule", "script", "code", "followed", "clean"), CASES, ids=[case[0] for case in CASES])
def test_the_legal_counterpart_is_clean_under_both(rule: str, script: str, code: str, followed: str, clean: str) -> None:
    hand = build_hand(clean)
    for result in (replay(hand), replay(hand, DEFAULT)):
        assert findings(result, code) == ([], []), rule
        if rule != "exposed_7th_opener":  # an exposed 7th card is itself a CARDS finding online (R1)
            assert result.verdict is Verdict.OK, (rule, result.violations, result.unverifiable)


def test_a_rule_the_site_establishes_still_decides() -> None:
    """PokerStars is seen to reduce each pot in proportion (STARS-SALM): the main-pot payout is a violation there."""
    result = replay(build_hand(RAKE_MAIN_POT, site="pokerstars"))
    assert [v.player for v in result.violations if v.code == "POT_AWARD"] == ["C", "B"]
    assert replay(build_hand(RAKE_PROPORTIONAL, site="pokerstars")).verdict is Verdict.OK
    # Full Tilt is seen to take it all from the main pot: the proportional payout is its violation
    assert [v.code for v in replay(build_hand(RAKE_PROPORTIONAL, site="fulltilt")).violations] == ["POT_AWARD", "POT_AWARD"]


def test_a_wrong_opener_without_a_tie_stays_a_violation() -> None:
    worse = edit(OPENER_TIE, "C [Qs 7h] 9h", "C [Qs 7h] 8h")  # C shows 8h Ks: below B's 9c Kh whatever the tie rule
    result = replay(build_hand(worse))
    assert [v.code for v in result.violations] == ["ACTION_ORDER"] and not result.unverifiable


def test_an_unrelated_fault_stays_a_violation_beside_the_unsettled_one() -> None:
    both = edit(OPENER_TIE, "A bring 2\nB call\nC call", "A bring 3\nB call\nC call")
    both = edit(both, "collect C 9", "collect C 12")
    result = replay(build_hand(both))
    assert [v.code for v in result.violations] == ["BRING_IN_AMOUNT"]
    assert [u.check for u in result.unverifiable] == ["ACTION_ORDER"]


def test_when_no_reading_makes_the_hand_legal_the_findings_stand() -> None:
    """B opens by position, C by suit; here A, who ties neither, opens: every reading accuses someone."""
    wrong = edit(OPENER_TIE, "C bet 4\nA fold\nB fold", "A check\nB check\nC bet 4\nA fold\nB fold")
    result = replay(build_hand(wrong))
    assert [v.code for v in result.violations] == ["ACTION_ORDER"]


def test_audit_reports_it_as_unverifiable_and_as_a_violation_under_rules(tmp_path: Path) -> None:
    path = tmp_path / "tie.phhs"
    path.write_text(hand_to_phh(build_hand(OPENER_TIE, site="bovada", hand_id="5"), key="5"), encoding="utf-8")
    db = str(tmp_path / "s.duckdb")
    audit = runner.invoke(app, ["audit", str(path), "--db", db])
    assert audit.exit_code == 0, audit.output
    assert "1 unverifiable" in audit.output and "0 violations reported" in audit.output
    explained = runner.invoke(app, ["audit", "--db", db, "--explain", "bovada:5"])
    assert explained.exit_code == 0, explained.output
    assert "the history follows 'suit'" in " ".join(explained.output.split())
    chosen = runner.invoke(app, ["audit", "--db", db, "--rules", "bovada"])
    assert chosen.exit_code == 1 and "ACTION_ORDER" in chosen.output
