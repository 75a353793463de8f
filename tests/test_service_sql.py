"""The service writes no SQL: it says what a command asks for and calls the store's queries
(README, the layer table). Every string literal of hhtool/service/*.py (f-strings and implicitly
joined literals included; docstrings left out) is read for SQL statements; a module that holds one
fails unless ALLOWED names it with its reason, and an entry no longer needed fails too, so the list
only shrinks.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

SERVICE = Path(__file__).resolve().parents[1] / "hhtool" / "service"

#: SQL statements, as written in capitals ("{}" stands for an f-string's replacement field)
STATEMENTS = (
    re.compile(r"\bSELECT\b[\s\S]*?\bFROM\b"),
    re.compile(r"\bINSERT\s+(?:OR\s+\w+\s+)?INTO\b"),
    re.compile(r"\bDELETE\s+FROM\b"),
    re.compile(r"\bUPDATE\s+\S+(?:\s+\w+)?\s+SET\b"),
    re.compile(r"\b(?:CREATE|DROP|ALTER)\s+(?:OR\s+REPLACE\s+)?(?:TEMP(?:ORARY)?\s+)?"
               r"(?:TABLE|VIEW|INDEX|SCHEMA|MACRO|SEQUENCE|TYPE)\b"),
    re.compile(r"\b(?:BEGIN\s+TRANSACTION|COMMIT|ROLLBACK)\b"),
)

#: service modules that still write SQL, and why: each is being reworked by another change of #27 now,
#: and its SQL moves to the store there (the service's `sql` command and the verdicts write none:
#: the user's statement runs in hhtool.store.confined, the verdict queries are hhtool.store.findings)
ALLOWED: dict[str, str] = {
}


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of a module, its classes and functions."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                found.add(id(first.value))
    return found


def _text(node: ast.AST) -> str | None:
    """A string literal's text, an f-string's with ``{}`` for each field; None for anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(part.value if isinstance(part, ast.Constant) and isinstance(part.value, str) else "{}"
                       for part in node.values)
    return None


def sql_in(source: str, filename: str = "<module>") -> list[tuple[int, str]]:
    """(line, text) of each string literal of ``source`` holding a SQL statement."""
    tree = ast.parse(source, filename=filename)
    skipped = _docstrings(tree)
    inner = {id(value) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for value in node.values}
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if id(node) in skipped or id(node) in inner:
            continue
        text = _text(node)
        if text is not None and any(pattern.search(text) for pattern in STATEMENTS):
            found.append((getattr(node, "lineno", 0), " ".join(text.split())[:70]))
    return sorted(found)


def service_sql(service: Path = SERVICE) -> dict[str, list[tuple[int, str]]]:
    """Each service module that writes SQL, with where."""
    found = {}
    for path in sorted(service.glob("*.py")):
        lines = sql_in(path.read_text(encoding="utf-8"), str(path))
        if lines:
            found[path.stem] = lines
    return found


def unexpected(found: dict[str, list[tuple[int, str]]], allowed: dict[str, str]) -> dict[str, list[tuple[int, str]]]:
    """The modules of ``found`` that write SQL without an entry in ``allowed``."""
    return {module: lines for module, lines in found.items() if module not in allowed}


def test_the_service_writes_no_sql() -> None:
    found = unexpected(service_sql(), ALLOWED)
    assert not found, "SQL in the service (move it into a store query module, hhtool/store/):\n" + "\n".join(
        f"  hhtool/service/{module}.py:{line}: {text}" for module, lines in found.items() for line, text in lines)


def test_every_allowed_module_still_writes_sql() -> None:
    found = service_sql()
    stale = sorted(module for module in ALLOWED if module not in found)
    assert not stale, f"no SQL left: remove from ALLOWED: {stale}"


def test_every_allowed_module_exists_and_says_why() -> None:
    for module, reason in ALLOWED.items():
        assert (SERVICE / f"{module}.py").is_file(), module
        assert len(reason.split()) >= 3, module


@pytest.mark.parametrize("source", [
    # as the service wrote them before their SQL moved into the store (#27)
    'rows = store.run(f"SELECT {COLUMNS} FROM {NOTES} WHERE target = \'hand\' AND key = ?", [key])\n',
    'store.run(f"INSERT INTO {NOTES} (id, target, site, key, text, created) VALUES (?, ?, ?, ?, ?, ?)", row)\n',
    'sql = (f"DELETE FROM {ALIASES} WHERE person = ? "\n       "AND site = ? AND player = ?")\n',
    'store.run("BEGIN TRANSACTION")\n',
    'store.run("COMMIT")\n',
    'POT = ("(SELECT CAST(coalesce(sum(r.contributed), 0) AS BIGINT) FROM results r "\n'
    '       "WHERE r.site = h.site AND r.hand_id = h.hand_id)")\n',
    '_DEFECTS = f"""SELECT \'{DEFECT}\' AS problem, file\n               FROM hands WHERE x"""\n',
    'store.run(f"UPDATE hands SET verdict = ? WHERE hk = ?", [v, k])\n',
    'store.run("CREATE OR REPLACE TEMP VIEW chosen AS SELECT 1")\n',
    'def f():\n    return "x" if y else f"SELECT count(*) FROM ({sql}) l"\n',
])
def test_sql_is_found_in_every_kind_of_literal(source: str) -> None:
    assert sql_in(source)


@pytest.mark.parametrize("source", [
    '"""Select the hands; SELECT 1 FROM hands in a docstring is prose."""\n',
    'def f():\n    """Delete the note: DELETE FROM notes, as the store does it."""\n',
    'raise UsageError("select a hand from the list, then update it")\n',
    'message = f"no stored hand {hand_id!r}; did you mean {close}?"\n',
    'VERDICT = f"CASE WHEN {CONFLICTED} THEN \'violation\' ELSE h.verdict END"\n',  # an expression, not a statement
])
def test_prose_and_docstrings_are_not_sql(source: str) -> None:
    assert sql_in(source) == []


def test_a_service_module_writing_sql_fails(tmp_path: Path) -> None:
    """The check at work on a service tree: a module with SQL is named, an allowed one is not."""
    (tmp_path / "notes.py").write_text('def f(store):\n    return store.run("SELECT 1 FROM notes WHERE id = ?", [1])\n',
                                       encoding="utf-8")
    (tmp_path / "stores.py").write_text('GUARD = "BEGIN TRANSACTION READ ONLY"\n', encoding="utf-8")
    (tmp_path / "clean.py").write_text('from hhtool.store import notes_and_tags\n', encoding="utf-8")
    found = service_sql(tmp_path)
    assert set(found) == {"notes", "stores"}
    assert list(unexpected(found, {"stores": "a guard that is allowed here"})) == ["notes"]
    assert found["notes"] == [(2, "SELECT 1 FROM notes WHERE id = ?")]
