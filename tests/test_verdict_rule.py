"""The verdict rule is written once (hhtool/replay/result.py): the SQL every query uses is rendered
from it and agrees with the Python rule on every combination of facts; the cross-hand pass hands the
store verdicts worked out with it."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import pytest

from hhtool.replay.codes import Code
from hhtool.replay.result import Verdict, stored_verdict_sql, verdict, verdict_sql
from hhtool.replay.table_pass import hand_posts, judge_slice

FLAGS = (False, True)
NOT_REPLAYED = "not-replayed"


def sql_disagreements(render: Callable[[str, str, str | None], str]) -> list[tuple[bool, bool, bool | None]]:
    """The combinations of facts (violated, unverified, conflicted; None: not given) on which the SQL
    ``render`` makes of the rule gives another verdict than :func:`verdict`."""
    con = duckdb.connect()
    found = []
    for violated, unverified, conflicted in itertools.product(FLAGS, FLAGS, (*FLAGS, None)):
        sql = render("v", "u", None if conflicted is None else "c")
        row = con.execute(f"SELECT {sql} FROM (SELECT ?::BOOLEAN AS v, ?::BOOLEAN AS u, ?::BOOLEAN AS c)",
                          [violated, unverified, bool(conflicted)]).fetchone()
        if row is None or row[0] != verdict(violated, unverified, bool(conflicted)).value:
            found.append((violated, unverified, conflicted))
    return found


def test_the_sql_rule_agrees_with_the_python_rule_on_every_combination() -> None:
    assert sql_disagreements(lambda v, u, c: verdict_sql(v, u, c)) == []


def test_the_agreement_check_catches_a_rule_written_otherwise() -> None:
    """A CASE written by hand that forgets the conflicting-copy override, or puts unverifiable first."""
    assert sql_disagreements(lambda v, u, c: f"CASE WHEN {v} THEN 'violation' WHEN {u} THEN 'unverifiable' ELSE 'ok' END")
    assert sql_disagreements(lambda v, u, c: f"CASE WHEN {u} THEN 'unverifiable' WHEN {v} OR {c or 'FALSE'} "
                                             "THEN 'violation' ELSE 'ok' END")


@pytest.mark.parametrize("conflicted", FLAGS)
@pytest.mark.parametrize("stored", [None, *(v.value for v in Verdict)])
def test_the_stored_verdict_sql_is_the_rule_over_the_stored_verdict(stored: str | None, conflicted: bool) -> None:
    sql = stored_verdict_sql("s", "c", NOT_REPLAYED)
    row = duckdb.connect().execute(f"SELECT {sql} FROM (SELECT ?::VARCHAR AS s, ?::BOOLEAN AS c)",
                                   [stored, conflicted]).fetchone()
    expected = (NOT_REPLAYED if stored is None and not conflicted
                else verdict(stored == Verdict.VIOLATION, stored == Verdict.UNVERIFIABLE, conflicted).value)
    assert row == (expected,)


def test_no_module_but_the_replays_result_writes_the_rule_in_sql() -> None:
    """The CASE of the rule (or a comparison with a verdict's text) appears nowhere else in hhtool."""
    package = Path(__file__).resolve().parents[1] / "hhtool"
    pattern = re.compile(r"THEN '(violation|unverifiable)'|= '(violation|unverifiable)'")
    found = [str(path.relative_to(package)) for path in package.rglob("*.py")
             if path != package / "replay" / "result.py" and pattern.search(path.read_text(encoding="utf-8"))]
    assert found == []


#: a verdict decided in Python outside the rule: a conditional choosing a verdict's text or member
#: (``"violation" if violations else "unverifiable" if unverifiable else "ok"``, as reports/dispute/build.py
#: had it until issue #33)
PYTHON_RULE = re.compile(r"""(['"](violation|unverifiable|ok)['"]|Verdict\.(VIOLATION|UNVERIFIABLE|OK))\s+if\s"""
                         r"""|\belse\s+(['"](violation|unverifiable|ok)['"]|Verdict\.(VIOLATION|UNVERIFIABLE|OK))""")


def python_rules(package: Path) -> list[str]:
    """The modules of ``package`` but the replay's result that decide a verdict by a conditional of their own."""
    return [str(path.relative_to(package)) for path in sorted(package.rglob("*.py"))
            if path != package / "replay" / "result.py" and PYTHON_RULE.search(path.read_text(encoding="utf-8"))]


def test_no_module_but_the_replays_result_writes_the_rule_in_python() -> None:
    assert python_rules(Path(__file__).resolve().parents[1] / "hhtool") == []


def test_the_python_rule_check_catches_a_second_copy(tmp_path: Path) -> None:
    """The copy build.py held before issue #33, and the same with the enum, are found; the rule's own calls are not."""
    (tmp_path / "replay").mkdir()
    (tmp_path / "replay" / "result.py").write_text('OTHERWISE = "ok" if True else "violation"\n', encoding="utf-8")
    (tmp_path / "fine.py").write_text("decided = verdict(bool(violations), bool(unverifiable), conflicted)\n",
                                      encoding="utf-8")
    assert python_rules(tmp_path) == []
    (tmp_path / "build.py").write_text('verdict = "violation" if violations or facts.copies else "unverifiable" '
                                       'if unverifiable else "ok"\n', encoding="utf-8")
    (tmp_path / "other.py").write_text("found = Verdict.VIOLATION if bad else Verdict.OK\n", encoding="utf-8")
    assert python_rules(tmp_path) == ["build.py", "other.py"]


@dataclass
class Row:
    """A hand as the store's gather gives it (only what the pass reads)."""

    hk: int = 0
    site: str = "pokerstars"
    hand_id: str = "1"
    dealt_by: str = "pokerstars"
    file: str = "h.txt"
    profile: str = "pokerstars"
    table_name: str | None = "T"
    tournament_id: str | None = None
    is_tournament: bool = False
    small_bet: int | None = 4
    big_bet: int | None = 8
    currency: str = "USD"
    unit: int = 100
    structure: str = "fixed_limit"
    table: str | None = "T"
    level: str = "L"
    private: bool = False
    ante_source: str = "posted"
    bring_in_source: str = "header"
    posts: list[tuple[str, str, int, int, bool]] = field(default_factory=lambda: [
        ("ante", "a", 1, 5, False), ("ante", "b", 1, 6, False)])
    unanted: list[tuple[str, int]] = field(default_factory=list)
    # (code, street, player, expected, actual, message, file, line)
    violations: list[tuple[Any, ...]] = field(default_factory=list)
    unverifiable: list[tuple[Any, ...]] = field(default_factory=list)  # (check_code, reason, line)
    assumptions: list[tuple[Any, ...]] = field(default_factory=list)  # (kind, value, words, line)


def found(*codes: str) -> list[tuple[Any, ...]]:
    """Stored violations of these codes, as the store's gather gives them."""
    return [(code, None, None, "", "", f"a {code} finding", "h.txt", 1) for code in codes]


def unverified(*codes: str) -> list[tuple[Any, ...]]:
    return [(code, f"{code} could not be decided", None) for code in codes]


#: three other hands at table T anted 1
TABLE_ANTED_1 = {("T", "ante"): [((1, 1), True, 4)]}


def verdicts_of(row: Row, tables: dict[tuple[str, str], list[tuple[tuple[int, ...], bool, int]]]) -> list[tuple[int, str, str]]:
    return [(j.hk, j.profile, j.verdict.value) for j in judge_slice([row], tables, lambda levels: {})]


def test_the_pass_hands_the_store_the_verdict_with_the_hands_other_findings() -> None:
    # the placeholder is the pass's own finding (ANTE): replaced, the hand is ok
    assert verdicts_of(Row(unverifiable=unverified(Code.ANTE.value)), TABLE_ANTED_1) == [(0, "pokerstars", "ok")]
    # a finding of another code stays: its verdict counts
    assert verdicts_of(Row(violations=found(Code.BET_SIZE.value, Code.ANTE.value)),
                       TABLE_ANTED_1) == [(0, "pokerstars", "violation")]
    assert verdicts_of(Row(unverifiable=unverified(Code.POT_TOTAL.value)),
                       TABLE_ANTED_1) == [(0, "pokerstars", "unverifiable")]
    # the table anted 2: the hand's own 1s are violations
    assert verdicts_of(Row(), {("T", "ante"): [((2, 2), True, 4)]}) == [(0, "pokerstars", "violation")]
    # alone at its table, with no level nor structure: the ante both players posted is adopted as an
    # assumption (no unverifiable check), and the hand is ok
    [alone] = judge_slice([Row(table_name="alone", table="alone", level="nowhere", dealt_by="nosuchsite")], {},
                          lambda levels: {})
    assert alone.verdict == "ok"
    assert alone.unverifiable == ()
    assert [(assumed.kind.value, assumed.value) for assumed in alone.assumptions] == [("ante", 1)]
    # alone, but its players' antes disagree: a violation, and nothing is assumed
    [split] = judge_slice([Row(table_name="alone", table="alone", level="nowhere", dealt_by="nosuchsite",
                               posts=[("ante", "a", 1, 5, False), ("ante", "b", 2, 6, False)])], {}, lambda levels: {})
    assert split.verdict == "violation"
    assert split.assumptions == ()


def test_a_hand_whose_forced_bets_are_all_stated_is_judged_by_its_own_findings_alone() -> None:
    row = Row(ante_source="header", violations=found(Code.BET_SIZE.value))
    assert judge_slice([], {}, lambda levels: {}) == []
    [judged] = judge_slice([row], TABLE_ANTED_1, lambda levels: {})
    assert hand_posts(row).stated
    # the pass judged no forced bet: the hand's own finding decides, nothing assumed, no stake replaced
    assert judged.verdict == "violation" and [v.code for v in judged.violations] == [Code.BET_SIZE]
    assert judged.values == () and judged.assumptions == ()
