"""The command line's edges (issue #28, items 9, 10 and 12): no escape sequence of a player's reaches
the terminal through `show` or `audit --explain`; `hhtool sql` holds no more than its --memory of a
result; every failure ends with the exit code the README gives and one line; a failed write leaves
no partial file."""

from __future__ import annotations

import contextlib
import errno
import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import polars as pl
import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from tests.tracker_hands import EVENING

runner = CliRunner()
WIDTH = {"COLUMNS": "80", "NO_COLOR": "1"}
RED = "\x1b[31mRED\x1b[0m"


@pytest.fixture(scope="module")
def red_store(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The evening's hands with Ann named ``\\x1b[31mRED\\x1b[0m``."""
    folder = tmp_path_factory.mktemp("red")
    (folder / "e.txt").write_text("\n\n".join(hand.replace("Ann", RED) for hand in EVENING), encoding="utf-8")
    path = str(folder / "red.duckdb")
    result = runner.invoke(app, ["import", str(folder / "e.txt"), "--db", path])
    assert result.exit_code == 0, result.output
    return path


# ------------------------------------------------------------------ 9: terminal escapes


@pytest.mark.parametrize("command", [["show", "7001"], ["audit", "--explain", "7001"],
                                     ["audit", "--explain", "7001", "--format", "html"]])
def test_a_players_escape_sequence_never_reaches_the_terminal(red_store: str, command: list[str]) -> None:
    result = runner.invoke(app, [*command, "--db", red_store], env=WIDTH)
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.output
    assert "?[31mRED?[0m" in result.output


# ------------------------------------------------------------------ 10: what `hhtool sql` holds

_RSS_RUN = """
import resource, runpy, sys
sys.argv = ["hhtool", *sys.argv[1:]]
try:
    runpy.run_module("hhtool", run_name="__main__")
finally:
    sys.stderr.write(f"\\nmaxrss-kib {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}\\n")
"""


@pytest.mark.parametrize("output", [[], ["--format", "json"]])
def test_sql_bounds_the_result_it_holds_by_bytes(red_store: str, output: list[str]) -> None:
    """Long texts in few rows: 100,000 rows of 100 kB (10 GB) at --memory 64MiB end with exit 2 and
    one line, the process never near the result's size (it was rendered whole at 1 GB and more)."""
    done = subprocess.run([sys.executable, "-c", _RSS_RUN, "sql", "--db", red_store, "--memory", "64MiB",
                           *output, "SELECT repeat('x', 100000) FROM range(100000)"],
                          capture_output=True, text=True, timeout=300, env={**os.environ, "NO_COLOR": "1"})
    said, rss = done.stderr.rsplit("maxrss-kib", 1)
    assert done.returncode == 2, done.stderr[-500:]
    assert (len(said.strip().splitlines()) == 1 and "64 MiB" in said) or "16 MiB" in said, said
    assert "LIMIT" in said and done.stdout == ""
    assert int(rss) < 1 << 20, f"peak RSS {int(rss) >> 10} MiB"  # KiB: under 1 GiB


def test_the_sql_table_draws_the_query_as_written(red_store: str) -> None:
    """The table's rows pass through a temporary table, long texts cut: a trailing ';' and comment, a
    repeated column name, DuckDB's own types and long texts come out as DuckDB's renderer draws them."""
    query = ("SELECT 1::HUGEINT AS a, 'b0b8d2c3-33b4-4e4a-9a5e-3f0b1a7f9a11'::UUID AS a, repeat('y', 50000) AS long, "
             "'é李' || repeat('z', 900) AS mid, NULL AS n, '101'::BIT AS b")
    con = duckdb.connect()
    drawn = io.StringIO()
    with contextlib.redirect_stdout(drawn):
        con.sql(query).show(max_width=80, max_rows=40, max_col_width=None, null_value="NULL")
    con.close()
    result = runner.invoke(app, ["sql", "--db", red_store, "--max-width", "80", "--", query + "; -- done"])
    assert result.exit_code == 0, result.output
    assert result.stdout == drawn.getvalue()


# ------------------------------------------------------------------ 12: exit codes, partial files


def test_too_little_memory_for_sql_is_a_usage_error(red_store: str) -> None:
    result = runner.invoke(app, ["sql", "--db", red_store, "--memory", "1KB", "SELECT 1"])
    assert result.exit_code == 2, result.output
    assert result.stderr.strip() == "error: --memory: 1KB is too little for a query: give at least 16MiB"


def test_show_on_a_store_missing_a_table_is_a_store_error(red_store: str, tmp_path: Path) -> None:
    damaged = tmp_path / "damaged.duckdb"
    shutil.copy(red_store, damaged)
    con = duckdb.connect(str(damaged))
    con.execute("DROP VIEW main.seats")
    con.execute("DROP TABLE keyed.seats")
    con.close()
    result = runner.invoke(app, ["show", "7001", "--db", str(damaged)])
    assert result.exit_code == 3, result.output
    assert len(result.stderr.strip().splitlines()) == 1 and "lacks part of hhtool's schema" in result.stderr


@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
def test_a_full_disk_while_writing_out_is_a_store_error_and_leaves_no_partial_file(
        red_store: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, suffix: str) -> None:
    target = tmp_path / f"result{suffix}"
    target.write_text("the earlier result\n", encoding="utf-8")

    def parquet_on_a_full_disk(frame: pl.DataFrame, file: Path, *args: object, **kwargs: object) -> None:
        Path(file).write_bytes(b"PAR1 half")
        raise pl.exceptions.ComputeError("parquet: underlying IO error: No space left on device (os error 28)")

    def text_on_a_full_disk(path: Path, text: str, *args: object, **kwargs: object) -> int:
        with open(path, "w", encoding="utf-8") as half:
            half.write(text[:3])
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(pl.DataFrame, "write_parquet", parquet_on_a_full_disk)
    monkeypatch.setattr(Path, "write_text", text_on_a_full_disk)
    result = runner.invoke(app, ["sql", "--db", red_store, "--out", str(target), "SELECT 1 AS one"])
    assert result.exit_code == 3, result.output
    assert len(result.stderr.strip().splitlines()) == 1 and "No space left" in result.stderr, result.stderr
    assert [path.name for path in tmp_path.iterdir()] == [target.name]  # no partial file beside it
    assert target.read_text(encoding="utf-8") == "the earlier result\n"  # the earlier one as it was


def test_a_written_out_file_is_whole(red_store: str, tmp_path: Path) -> None:
    for suffix in (".parquet", ".csv", ".txt"):
        target = tmp_path / f"r{suffix}"
        result = runner.invoke(app, ["sql", "--db", red_store, "--out", str(target), "SELECT 1 AS one"])
        assert result.exit_code == 0 and target.stat().st_size > 0, result.output
    assert sorted(path.name for path in tmp_path.iterdir()) == ["r.csv", "r.parquet", "r.txt"]


def test_hands_on_an_empty_store_lists_none_and_says_so(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("just notes\n", encoding="utf-8")
    db = str(tmp_path / "empty.duckdb")
    assert runner.invoke(app, ["import", str(tmp_path / "notes.txt"), "--db", db]).exit_code == 0
    result = runner.invoke(app, ["hands", "--db", db], env=WIDTH)
    assert result.exit_code == 0, result.output
    assert "players asked for" not in result.output and "the store holds no hands yet" in result.output
    result = runner.invoke(app, ["hands", "--db", db, "--verdict", "ok"], env=WIDTH)
    assert result.exit_code == 2 and "the store holds no hands yet" in result.stderr, result.output
