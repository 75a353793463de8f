"""The detector of SQL statements in Python source, and its cases: every string literal (f-strings and
implicitly joined literals included) is read for a SQL statement; docstrings and the help text given to
a command's options and arguments (``help=``, ``short_help=``, ``epilog=``: words shown to a user,
never run) are left out.

The service writes no SQL (README, the layer table): tests/test_layering.py's check that the SQL lives in
the store runs this detector over the service with the other layers above the store (reports, web, cli,
ingest), and tests/test_judgement_store.py reads the literals by its helpers.
"""

from __future__ import annotations

import ast
import re

import pytest

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

#: the keyword arguments of a call whose text is shown to a user, never run (Typer's options and commands)
HELP_KEYWORDS = ("help", "short_help", "epilog")


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of a module, its classes and functions."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                found.add(id(first.value))
    return found


def _help_texts(tree: ast.AST) -> set[int]:
    """The ids of the nodes inside a call's help text (:data:`HELP_KEYWORDS`)."""
    return {id(inner) for node in ast.walk(tree) if isinstance(node, ast.keyword) and node.arg in HELP_KEYWORDS
            for inner in ast.walk(node.value)}


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
    skipped = _docstrings(tree) | _help_texts(tree)
    inner = {id(value) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for value in node.values}
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if id(node) in skipped or id(node) in inner:
            continue
        text = _text(node)
        if text is not None and any(pattern.search(text) for pattern in STATEMENTS):
            found.append((getattr(node, "lineno", 0), " ".join(text.split())[:70]))
    return sorted(found)


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
    # a statement beside help text, or given by another keyword, is still one
    'typer.Option(None, help="the rows", default="SELECT 1 FROM hands")\n',
    'run(query="DELETE FROM notes WHERE id = ?", help="a note")\n',
    'HELP = "One SELECT (or WITH, FROM) statement"\n',
])
def test_sql_is_found_in_every_kind_of_literal(source: str) -> None:
    assert sql_in(source)


@pytest.mark.parametrize("source", [
    '"""Select the hands; SELECT 1 FROM hands in a docstring is prose."""\n',
    'def f():\n    """Delete the note: DELETE FROM notes, as the store does it."""\n',
    'raise UsageError("select a hand from the list, then update it")\n',
    'message = f"no stored hand {hand_id!r}; did you mean {close}?"\n',
    'VERDICT = f"CASE WHEN {CONFLICTED} THEN \'violation\' ELSE h.verdict END"\n',  # an expression, not a statement
    # the help of the `sql` command's argument: which statements it takes
    'q: str = typer.Argument(..., help="One SELECT (or WITH, FROM, VALUES) "\n'
    '                        "statement; the schema is in docs.")\n',
    '@app.command(short_help="SELECT a FROM b", epilog=f"UPDATE {t} SET x, as the store does")\ndef f(): ...\n',
])
def test_prose_and_docstrings_are_not_sql(source: str) -> None:
    assert sql_in(source) == []
