"""Output that fits a terminal (issue 14): `sql` draws DuckDB's own box fitted to 80 columns, `--out`
writes the format its suffix names, CSV takes list columns, JSON keeps numbers numbers; `stats`
fits 80 columns with chosen columns, sorting, a limit and a record view."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from hhtool.cli import app

runner = CliRunner()
WIDTH = 80


def run(*args: str, code: int = 0) -> str:
    result = runner.invoke(app, list(args), env={"COLUMNS": str(WIDTH)})
    assert result.exit_code == code, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    return result.stdout if code == 0 else result.stderr


def assert_fits(text: str, width: int = WIDTH) -> None:
    long = [line for line in text.splitlines() if len(line) > width]
    assert text.strip() and not long, long


# ------------------------------------------------------------------ sql


def test_sql_draws_a_wide_table_in_80_columns_with_types_and_counts(pokerstars_samples_store: Path) -> None:
    db = str(pokerstars_samples_store)
    text = run("sql", "--db", db, "SELECT * FROM hands LIMIT 3")
    assert_fits(text)
    assert len(text.splitlines()) < 15  # three rows, not a column per line
    assert "varchar" in text and "3 rows" in text and "columns (" in text and "…" in text
    wide = run("sql", "--db", db, "--max-width", "120", "SELECT * FROM hands LIMIT 3")
    assert max(len(line) for line in wide.splitlines()) > WIDTH


def test_sql_table_right_aligns_numbers_and_shows_hugeint(pokerstars_samples_store: Path) -> None:
    text = run("sql", "--db", str(pokerstars_samples_store), "SELECT sum(net) AS total, 'x' AS t FROM results")
    lines = text.splitlines()
    row = lines[lines.index(next(line for line in lines if line.startswith("├"))) + 1]
    number_cell, text_cell = row.split("│")[1:3]
    assert number_cell.startswith("  ") and number_cell.endswith(" ") and number_cell.strip().lstrip("-").isdigit()
    assert text_cell.startswith(" x  ")  # text to the left, numbers to the right
    assert "int128" in text


def test_sql_json_numbers_stay_numbers_and_integers_exact(pokerstars_samples_store: Path) -> None:
    db = str(pokerstars_samples_store)
    rows = json.loads(run("sql", "--db", db, "--format", "json",
                          "SELECT sum(net) AS net, 12345678901234567890123456789012345678::HUGEINT AS big, "
                          "1.25::DECIMAL(10,2) AS d, count(*) AS n FROM results"))
    [row] = rows
    assert isinstance(row["net"], int) and isinstance(row["n"], int)
    assert row["big"] == 12345678901234567890123456789012345678 and row["d"] == 1.25
    plain = run("sql", "--db", db, "--format", "csv", "SELECT sum(net) AS net FROM results")
    assert plain.splitlines()[1] == str(row["net"])


def test_sql_csv_writes_list_columns_as_json_text(pokerstars_samples_store: Path) -> None:
    text = run("sql", "--db", str(pokerstars_samples_store), "--format", "csv",
               "SELECT hand_id, notes, ['a,b', 'c\"d'] AS words FROM hands LIMIT 2")
    frame = pl.read_csv(text.encode(), schema_overrides={"hand_id": pl.Utf8})
    assert frame.columns == ["hand_id", "notes", "words"] and frame.height == 2
    assert json.loads(frame["words"][0]) == ["a,b", 'c"d']
    assert isinstance(json.loads(frame["notes"][0]), list)


@pytest.mark.parametrize("suffix", ["csv", "json", "parquet", "html"])
def test_sql_out_writes_the_format_its_suffix_names_into_new_folders(pokerstars_samples_store: Path,
                                                                    tmp_path: Path, suffix: str) -> None:
    target = tmp_path / "new" / "folder" / f"result.{suffix}"
    run("sql", "--db", str(pokerstars_samples_store), "--out", str(target),
        "SELECT hand_id, total_pot, notes FROM hands ORDER BY hand_id LIMIT 3")
    assert target.exists()
    if suffix == "parquet":
        assert pl.read_parquet(target).height == 3
        return
    text = target.read_text(encoding="utf-8")
    assert "│" not in text and "─" not in text  # no box-drawn table in a data file
    if suffix == "csv":
        assert text.splitlines()[0] == "hand_id,total_pot,notes" and len(text.splitlines()) == 4
    elif suffix == "json":
        rows = json.loads(text)
        assert len(rows) == 3 and isinstance(rows[0]["total_pot"], int)
    else:
        assert text.startswith("<!doctype html>") and text.count("<tr>") == 4


def test_sql_out_refuses_a_suffix_that_contradicts_format_or_is_no_table(pokerstars_samples_store: Path,
                                                                        tmp_path: Path) -> None:
    db = str(pokerstars_samples_store)
    message = run("sql", "--db", db, "--format", "json", "--out", str(tmp_path / "x.csv"), "SELECT 1", code=2)
    assert "does not match" in message and not (tmp_path / "x.csv").exists()
    message = run("sql", "--db", db, "--out", str(tmp_path / "x.png"), "SELECT 1", code=2)
    assert ".png" in message and len(message.strip().splitlines()) == 1
    text_file = tmp_path / "deep" / "x.txt"
    run("sql", "--db", db, "--out", str(text_file), "SELECT 1 AS one")
    assert "one" in text_file.read_text(encoding="utf-8")
