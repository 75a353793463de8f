"""#33: a judgement is one value, made by the replay and stored whole. The store judges nothing: no SQL
string in hhtool/ computes a verdict into ``hands.verdict`` or patches a hand's findings by their code;
the one writer of stored verdicts (hhtool/store/judgements.py) writes the value it is given. And the
888poker case: the violation a profile's own per-hand rule makes of a forced bet the cross-hand pass
judges is kept, the same in the views (judged in memory) and in the store (`audit --rules`).
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from tests.inputs import SAMPLES
from tests.test_service_sql import _docstrings, _text

HHTOOL = Path(__file__).resolve().parents[1] / "hhtool"
runner = CliRunner()

#: the one module that writes ``hands.verdict`` after a hand is stored: as given, from its own table
VERDICT_WRITER = "store/judgements.py"
_SETS_VERDICT = re.compile(r"\bUPDATE\s+\S+(?:\s+(?:AS\s+)?\w+)?\s+SET\b[\s\S]*?\bverdict\s*=\s*(?P<value>[^,\n]*)", re.I)
_GIVEN = re.compile(r"^\w+\.verdict\b")
_JUDGEMENT_TABLE = r"(?:\{\}|\w+)?\.?(?:violations|unverifiable|assumptions)\b"
_PATCHES = (
    # deleting some of a hand's findings by their code (the rest kept): a judgement patched, not replaced
    # (the table or the code's column may be a replacement field: ``{KEYED}.{table} ... x.{code} = o.code``)
    re.compile(r"\bDELETE\s+FROM\b[\s\S]*?(?:\b(?:code|check_code|kind)|\.\{\})\s*(?:=|IN\b)", re.I),
    re.compile(rf"\bUPDATE\s+{_JUDGEMENT_TABLE}", re.I),
)


def judging_sql(source: str, module: str) -> list[str]:
    """What in ``source`` (a module's text) judges in SQL or patches a judgement: each as a short text."""
    tree = ast.parse(source)
    skipped = _docstrings(tree)
    inner = {id(value) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for value in node.values}
    found = []
    for node in ast.walk(tree):
        if id(node) in skipped or id(node) in inner:
            continue
        text = _text(node)
        if text is None:
            continue
        line = getattr(node, "lineno", 0)
        for match in _SETS_VERDICT.finditer(text):
            if module != VERDICT_WRITER or not _GIVEN.match(match.group("value").strip()):
                found.append(f"{module}:{line}: sets a verdict: {' '.join(match.group(0).split())[:80]}")
        found += [f"{module}:{line}: patches findings: {' '.join(text.split())[:80]}"
                  for pattern in _PATCHES if pattern.search(text)]
    return found


@pytest.mark.slow
def test_no_sql_in_hhtool_computes_a_verdict_or_patches_findings_by_code() -> None:
    found = [hit for path in sorted(HHTOOL.rglob("*.py"))
             for hit in judging_sql(path.read_text(encoding="utf-8"), path.relative_to(HHTOOL).as_posix())]
    assert not found, "the store judges nothing; store a whole judgement (replace_judgements):\n" + "\n".join(found)


def test_the_verdict_writer_still_writes_verdicts() -> None:
    """The exemption is not stale: the module it names writes the verdict as given."""
    text = (HHTOOL / VERDICT_WRITER).read_text(encoding="utf-8")
    assert any(_GIVEN.match(m.group("value").strip()) for m in _SETS_VERDICT.finditer(text))


@pytest.mark.parametrize(("source", "module"), [
    # as the pass stored its outcome before #33: its codes deleted, the verdict updated
    ('run(f"""DELETE FROM {KEYED}.{table} AS x USING {owned} o WHERE x.hk = o.hk AND x.{code} = o.code""")\n',
     "store/forced_bets.py"),
    ('run("DELETE FROM keyed.violations WHERE hk = ? AND code IN (?, ?)", key)\n', "store/x.py"),
    ('run("UPDATE hands SET verdict = v.verdict FROM fb_verdicts v WHERE hands.hk = v.hk")\n', "store/forced_bets.py"),
    ("run(f\"UPDATE hands SET verdict = CASE WHEN {v} THEN 'violation' ELSE 'ok' END\")\n", VERDICT_WRITER),
    ('run(f"UPDATE hands h SET ante = 5, verdict = {verdict_sql(a, b)} WHERE x")\n', VERDICT_WRITER),
    ('run("UPDATE unverifiable SET reason = ? WHERE hk = ?", [r, k])\n', "store/y.py"),
])
def test_judging_in_sql_is_found(source: str, module: str) -> None:
    assert judging_sql(source, module)


@pytest.mark.parametrize(("source", "module"), [
    ('run("UPDATE hands SET verdict = v.verdict FROM jd_verdicts v WHERE hands.hk = v.hk")\n', VERDICT_WRITER),
    ('run(f"DELETE FROM {KEYED}.{table} AS x USING jd_keys k WHERE x.hk = k.hk AND x.profile = k.profile")\n',
     VERDICT_WRITER),
    ('"""UPDATE hands SET verdict = CASE ... in a docstring is prose"""\n', "store/z.py"),
    ('run("SELECT verdict FROM hands WHERE verdict = ?", ["ok"])\n', "store/z.py"),
])
def test_a_whole_judgement_stored_as_given_passes(source: str, module: str) -> None:
    assert judging_sql(source, module) == []


def _judgement(db: Path, hand_id: str, rules: str) -> tuple[str, list[tuple[str, str]], list[str], list[str]]:
    """`show --rules RULES --format json`, as the command prints it."""
    result = runner.invoke(app, ["show", hand_id, "--db", str(db), "--rules", rules, "--format", "json"])
    assert result.exit_code == 0, result.output
    shown = json.loads(result.output)
    violations = sorted((v["code"], v["message"]) for street in shown["streets"] for row in street["actions"]
                        for v in row["violations"]) + sorted((v["code"], v["message"]) for v in shown["other_violations"])
    return (shown["verdict"], sorted(violations), sorted(u["reason"] for u in shown["unverifiable"]),
            sorted(a["words"] for a in shown["assumptions"]))


@pytest.mark.slow
def test_a_profiles_own_rule_on_a_bet_the_pass_judges_is_kept_in_views_and_store(tmp_path: Path) -> None:
    """PokerStars hand 200 states no bring-in (the cross-hand pass judges it from the postings); 888poker's
    rules have the bring-in at half the small bet, which its $3 is not. Judged in memory (`show --rules`
    before any `audit --rules`) and as `audit --rules 888poker` stores it, the hand keeps that violation."""
    db = tmp_path / "own_rule.duckdb"
    imported = runner.invoke(app, ["import", str(SAMPLES / "pokerstars"), "--db", str(db), "-q", "--jobs", "1"])
    assert imported.exit_code in (0, 1), imported.output
    in_memory = _judgement(db, "200", "888poker")
    own_rule = [message for code, message in in_memory[1] if code == "BRING_IN_AMOUNT"]
    assert own_rule and "888poker's rules have it at 1/2" in own_rule[0], in_memory
    assert in_memory[0] == "violation"
    audited = runner.invoke(app, ["audit", "--db", str(db), "--rules", "888poker", "-q"])
    assert audited.exit_code in (0, 1), audited.output
    assert _judgement(db, "200", "888poker") == in_memory
    from hhtool.store import Store
    with Store(str(db), read_only=True) as store:
        rows = store.run("SELECT h.bring_in_source, v.message FROM violations v JOIN hands h USING (site, hand_id) "
                         "WHERE v.hand_id = '200' AND v.profile = '888poker' AND v.code = 'BRING_IN_AMOUNT'")
    assert [message for _, message in rows] == own_rule
    assert {source for source, _ in rows} == {"posted"}  # a bet the pass judged, not one the header states


def test_a_toml_profiles_own_rule_is_kept_by_its_parameters_not_its_name(tmp_path: Path) -> None:
    """A profile from a TOML file with 888poker's ``bring_in_fraction`` keeps its own rule's violation as
    888poker does: decided from the profile's parameters, in the views and in the store alike."""
    profile = tmp_path / "halfbring.toml"
    profile.write_text('[profile]\nbase = "pokerstars"\nbring_in_fraction = [1, 2]\n')
    db = tmp_path / "toml_rule.duckdb"
    imported = runner.invoke(app, ["import", str(SAMPLES / "pokerstars"), "--db", str(db), "-q", "--jobs", "1"])
    assert imported.exit_code in (0, 1), imported.output
    in_memory = _judgement(db, "200", str(profile))
    own_rule = [message for code, message in in_memory[1] if code == "BRING_IN_AMOUNT"]
    assert own_rule and "halfbring's rules have it at 1/2" in own_rule[0], in_memory
    assert in_memory[0] == "violation"
    audited = runner.invoke(app, ["audit", "--db", str(db), "--rules", str(profile), "-q"])
    assert audited.exit_code == 1, audited.output
    assert _judgement(db, "200", str(profile)) == in_memory
    from hhtool.store import Store
    with Store(str(db), read_only=True) as store:
        rows = store.run("SELECT message FROM violations WHERE hand_id = '200' AND profile = 'halfbring' "
                         "AND code = 'BRING_IN_AMOUNT'")
    assert [message for (message,) in rows] == own_rule
