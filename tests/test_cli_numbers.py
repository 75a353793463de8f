"""Issue #34, item 3: a number no one expects given to a command's numeric option (a limit past Polars'
rows or DuckDB's BIGINT, 5,000 nines, ``²``, ``٣``, 1e23, a 42-digit pot) is a usage error: exit 2
and one line saying the bounds, never "internal error" (4) nor "could not be read" (3). The bounds
are the ones the web pages use (:mod:`hhtool.service.numbers`), and each option's help states them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.service.errors import UsageError
from hhtool.service.numbers import LIMIT, TABLE_SIZE, quoted
from tests.inputs import SAMPLES

runner = CliRunner()
HHTOOL = [sys.executable, "-m", "hhtool"]
ENV = {**os.environ, "COLUMNS": "80", "NO_COLOR": "1"}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("numbers") / "samples.duckdb"
    result = runner.invoke(app, ["--db", str(db), "import", str(SAMPLES / "pokerstars"), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    return db


#: (command and option, what the one line says)
OPTIONS = [
    (["stats", "--limit"], "'--limit' / '--top': wants a whole number from 1 to 1,000,000"),
    (["stats", "--top"], "'--limit' / '--top': wants a whole number from 1 to 1,000,000"),
    (["stats", "--min-hands"], "'--min-hands': wants a whole number from 0 to 1,000,000,000"),
    (["stats", "--table-size"], "'--table-size': wants a whole number from 2 to 10"),
    (["hands", "--limit"], "'--limit' / '--top': wants a whole number from 0 to 1,000,000"),
    (["hands", "--table-size"], "'--table-size': wants a whole number from 2 to 10"),
    (["sessions", "--limit"], "'--limit' / '--top': wants a whole number from 0 to 1,000,000"),
    (["sessions", "--gap"], "'--gap': wants a whole number from 1 to 525,600"),
    (["problems", "--limit"], "'--limit': wants a whole number from 1 to 1,000,000"),
    (["violations", "--top"], "'--top': wants a whole number from 1 to 1,000,000"),
    (["graph", "--table-size"], "'--table-size': wants a whole number from 2 to 10"),
    (["sql", "SELECT 1", "--max-rows"], "'--max-rows': wants a whole number from 1 to 1,000,000"),
    (["simulate", "--hands"], "'--hands': wants a whole number from 1 to 100,000,000"),
    (["hands", "--min-pot"], "--min-pot wants an amount"),
    (["hands", "--max-pot"], "--max-pot wants an amount"),
]
ODD = ["100000000000000000000000", "9" * 5000, "9" * 42, "²", "٣", "-1", "1e23", "NaN", "0x10", "1_000", "１２",
       "\x1b[31m"]


def _one_line(output: str) -> str:
    lines = output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), lines
    return lines[0]


@pytest.mark.slow
@pytest.mark.parametrize(("command", "says"), OPTIONS, ids=["-".join(c) for c, _ in OPTIONS])
@pytest.mark.parametrize("value", ODD, ids=[f"v{n}" for n in range(len(ODD))])
def test_an_odd_number_is_a_usage_error_of_one_line(store: Path, command: list[str], says: str, value: str) -> None:
    where = [] if command[0] == "simulate" else ["--db", str(store)]  # (simulate has no store)
    result = runner.invoke(app, [*command, value, *where])
    assert result.exit_code == 2, (result.exit_code, result.output[-500:])
    line = _one_line(result.output)
    assert says in line, line
    assert len(line) < 220 and "\x1b" not in line, line  # the value cut when long, its escape as text


@pytest.mark.parametrize("args", [
    ["stats", "--limit", "100000000000000000000000"],  # was "internal error: OverflowError", exit 4
    ["sql", "SELECT 1", "--max-rows", "100000000000000000000000"],  # was "internal error: TypeError", exit 4
    ["hands", "--limit", "100000000000000000000000"],  # was "could not be read: Conversion Error", exit 3
    ["hands", "--min-pot", "9" * 42],  # was DuckDB's DECIMAL(38,6) conversion, exit 3
    ["problems", "--limit", "9" * 5000],  # the 4,300-digit limit of int
])
def test_the_issues_values_end_with_exit_2_as_the_user_runs_them(store: Path, args: list[str]) -> None:
    done = subprocess.run([*HHTOOL, *args, "--db", str(store)], capture_output=True, text=True, env=ENV,
                          check=False, timeout=120)
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert done.stdout == "" and "Traceback" not in done.stderr
    _one_line(done.stderr)


@pytest.mark.parametrize("args", [
    ["stats", "--limit", "1000000"], ["stats", "--min-hands", "0"], ["hands", "--limit", "0"],
    ["sessions", "--gap", "525600"], ["stats", "--table-size", " 8 "], ["hands", "--max-pot", "1000000000000"],
])
def test_a_number_within_its_bounds_is_taken(store: Path, args: list[str]) -> None:
    result = runner.invoke(app, [*args, "--db", str(store)])
    assert result.exit_code == 0, result.output[-500:]


def test_the_help_states_the_bounds() -> None:
    result = runner.invoke(app, ["stats", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    assert "(from 1 to 1,000,000)" in text and "(from 0 to 1,000,000,000)" in text and "(from 2 to 10)" in text


def test_the_rule_reads_ascii_digits_within_the_bounds_only() -> None:
    assert LIMIT.read(" 42 ") == 42 and LIMIT.read("007") == 7
    for text in ("²", "٣", "1_000", "+1", "0", "1000001", "9" * 25, "", "4 2"):
        assert LIMIT.read(text) is None, text
    with pytest.raises(UsageError, match=r"^table_size wants a whole number from 2 to 10, not '11'$"):
        TABLE_SIZE.parse("11", "table_size")
    assert quoted("9" * 5000) == repr("9" * 24) + "…" and quoted("\x1b") == "'\\x1b'"


def test_to_the_last_day_there_is_selects_every_hand(store: Path) -> None:
    every = runner.invoke(app, ["hands", "--limit", "0", "--format", "csv", "--db", str(store)])
    to_the_end = runner.invoke(app, ["hands", "--limit", "0", "--format", "csv", "--to", "9999-12-31", "--db", str(store)])
    assert to_the_end.exit_code == 0, to_the_end.output[-500:]  # (was "internal error: OverflowError", exit 4)
    assert to_the_end.stdout == every.stdout and every.stdout.count("\n") > 10
