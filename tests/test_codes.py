"""Finding codes are values declared once (hhtool/replay/codes.py): every code a check names is
declared, every declared code is emitted by a check or says who emits it, no module spells a code
as text, and the command line offers exactly the declared codes. An unverifiable finding keeps the
line of its cause as a column, and the commands show it."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.replay.codes import EMITTED_OUTSIDE_CHECKS, RULES, Code
from hhtool.store import Store
from tests.test_site_pokerstars import SPLIT_HAND

HHTOOL = Path(__file__).resolve().parent.parent / "hhtool"
CHECKS = HHTOOL / "replay" / "checks"
#: the simulator names its faults after the code each breaks ("RESTATED:cards" a variant): its own
#: vocabulary for --faults; test_fault_kinds_name_declared_codes holds it to the declared codes
FAULT_KIND_MODULES = {HHTOOL / "simulate" / "faults.py", HHTOOL / "simulate" / "dealer.py", HHTOOL / "simulate" / "__init__.py"}
#: the site modules name their grammars' terminals (ANTE, SHOWDOWN lines): words of a format, not codes
SITES = HHTOOL / "sites"
runner = CliRunner()


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def codes_named(path: Path) -> set[str]:
    """The attribute names of every ``Code.X`` in a module."""
    return {node.attr for node in ast.walk(_tree(path))
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "Code"}


def test_every_code_has_its_rule() -> None:
    assert set(RULES) == set(Code)
    assert all(rule.strip() for rule in RULES.values())


def test_every_code_a_check_names_is_declared() -> None:
    declared = {code.name for code in Code}
    named = {path.name: codes_named(path) - declared for path in sorted(CHECKS.glob("*.py"))}
    assert {name: unknown for name, unknown in named.items() if unknown} == {}


def test_every_declared_code_is_emitted_by_a_check_or_says_who_emits_it() -> None:
    by_checks = set().union(*(codes_named(path) for path in CHECKS.glob("*.py")))
    assert {code for code in Code if code.name not in by_checks} == set(EMITTED_OUTSIDE_CHECKS)
    outside = set().union(*(codes_named(path) for path in HHTOOL.rglob("*.py")
                            if CHECKS not in path.parents and path.name != "codes.py"))
    assert {code for code in EMITTED_OUTSIDE_CHECKS if code.name not in outside} == set()


def test_no_module_spells_a_code_as_text() -> None:
    values = {code.value for code in Code}
    spelled: list[str] = []
    for path in sorted(HHTOOL.rglob("*.py")):
        if path.name == "codes.py" or path in FAULT_KIND_MODULES or SITES in path.parents:
            continue
        for node in ast.walk(_tree(path)):
            text = node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None
            # a code alone, or quoted inside SQL ('ANTE'): both are a second spelling of the value
            if text is not None and (text in values or any(f"'{value}'" in text for value in values)):
                spelled.append(f"{path.relative_to(HHTOOL)}:{node.lineno}: {text[:40]!r}")
    assert spelled == []


def test_fault_kinds_name_declared_codes() -> None:
    from hhtool.simulate import FAULT_CODES

    assert {kind.partition(":")[0] for kind in FAULT_CODES} <= {code.value for code in Code}


@pytest.mark.parametrize("command", ["audit", "violations"])
def test_code_option_offers_the_declared_codes(tmp_path: Path, command: str) -> None:
    db = str(tmp_path / "c.duckdb")
    wrong = runner.invoke(app, [command, "--db", db, "--code", "POT_AWARDS"])
    assert wrong.exit_code == 2 and "'POT_AWARDS' is not a finding code" in " ".join(wrong.output.split())
    assert all(code in wrong.output for code in Code)  # the message lists every declared code
    (tmp_path / "h.txt").write_text(SPLIT_HAND)
    assert runner.invoke(app, ["import", str(tmp_path / "h.txt"), "--db", db]).exit_code == 0
    chosen = runner.invoke(app, [command, "--db", db, "--code", "pot_award"])  # any case
    assert chosen.exit_code == 0, chosen.output


def test_an_unverifiable_finding_keeps_the_line_of_its_cause(tmp_path: Path) -> None:
    """The summary's unreadable amount: the finding names its line in the store, in `show` and in
    `audit --explain`, and not inside its reason."""
    text = SPLIT_HAND.replace("and won ($0.37)", "and won ($0.3.7)")
    line = next(number for number, row in enumerate(text.splitlines(), 1) if "$0.3.7" in row)
    (tmp_path / "h.txt").write_text(text)
    db = str(tmp_path / "u.duckdb")
    assert runner.invoke(app, ["import", str(tmp_path / "h.txt"), "--db", db]).exit_code == 0
    with Store(db, read_only=True) as store:
        stored = store.run("SELECT reason, line FROM unverifiable WHERE check_code = ?", [Code.RESTATED.value])
    assert stored == [("the summary's amount for gashpor cannot be read", line)]
    hand_id = SPLIT_HAND.split("#", 1)[1].split(":", 1)[0]
    shown = runner.invoke(app, ["show", hand_id, "--db", db, "--format", "json"])
    assert shown.exit_code == 0, shown.output
    assert {"check": "RESTATED", "reason": "the summary's amount for gashpor cannot be read", "line": line} in \
        json.loads(shown.output)["unverifiable"]
    as_text = runner.invoke(app, ["show", hand_id, "--db", db])
    assert (f"unverifiable RESTATED (line {line}): the summary's amount for gashpor cannot be read"
            in " ".join(as_text.output.split()))  # (wrapped to the terminal's 80 columns)
    explained = runner.invoke(app, ["audit", "--db", db, "--explain", hand_id])
    cause = explained.output.split("the summary's amount for gashpor cannot be read")[-1]
    assert f"Line {line} of" in cause.split("\n  - ", 1)[0], explained.output  # the finding cites its line
