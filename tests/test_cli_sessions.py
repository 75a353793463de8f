"""Issue #14, `hhtool sessions`: a player's sessions per table with exact numbers on a small evening
(tests/tracker_hands.py), split by --gap, bb/100 as `stats` defines it and computed exactly, at 80
columns, with the filters, sort, limit and formats of the other lists."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from fractions import Fraction
from pathlib import Path

import pytest
from rich.cells import cell_len
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.reports.sessions import PlayedHand, split_sessions
from tests.inputs import SAMPLES
from tests.tracker_hands import EVENING

runner = CliRunner()
WIDTH = {"COLUMNS": "80"}


@pytest.fixture(scope="module")
def evening(tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = tmp_path_factory.mktemp("evening")
    (folder / "evening.txt").write_text("\n\n".join(EVENING), encoding="utf-8")
    path = str(folder / "e.duckdb")
    assert runner.invoke(app, ["import", str(folder / "evening.txt"), "--db", path]).exit_code == 0
    return path


def run(db: str, *args: str) -> str:
    result = runner.invoke(app, ["sessions", "--db", db, *args], env=WIDTH)
    assert result.exit_code == 0, result.output
    return result.output


def test_a_break_of_exactly_the_gap_splits_a_table_session(evening: str) -> None:
    shown = run(evening, "--player", "Ann", "--by", "table").splitlines()
    assert shown == [
        "table  start             length  hands  hands/h     net  bb/100",
        "─────  ────────────────  ──────  ─────  ───────  ──────  ──────",
        "Alpha  2024-03-01 20:59  0:05        2       12   $0.06   37.50",  # 20:59:59-21:05:00, 2 x +$0.03
        "Beta   2024-03-01 20:05  0:00        1        -  -$0.03  -37.50",  # another table: its own session
        "Alpha  2024-03-01 20:00  0:29        3        4   $0.03   12.50",  # 20:00:00-20:29:59, +3 -3 +3
        "3 rows",
    ]


def test_a_longer_gap_joins_them(evening: str) -> None:
    rows = json.loads(run(evening, "--player", "Ann", "--gap", "31", "--format", "json", "--by", "table"))
    alpha = [row for row in rows if row["table"] == "Alpha"]
    assert len(rows) == 2 and len(alpha) == 1
    assert {key: alpha[0][key] for key in ("hands", "net_won", "duration_seconds", "bb_per_100", "bb_per_100_hands",
                                           "hands_per_hour", "currency", "unit")} == {
        "hands": 5, "net_won": 9, "duration_seconds": 3900, "bb_per_100": 22.5, "bb_per_100_hands": 5,
        "hands_per_hour": round(4 * 3600 / 3900, 3), "currency": "USD", "unit": 100}
    assert alpha[0]["start"] == "2024-03-01 20:00:00" and alpha[0]["end"] == "2024-03-01 21:05:00"


def test_bb_per_100_is_the_one_stats_reports(evening: str) -> None:
    rows = json.loads(run(evening, "--player", "Dan", "--gap", "120", "--format", "json", "--site", "pokerstars"))
    stats = json.loads(runner.invoke(app, ["stats", "--db", evening, "--player", "Dan", "--format", "json"]).stdout)
    hands = sum(row["hands"] for row in rows)
    assert hands == stats[0]["hands"] == 6
    weighted = sum(Fraction(str(row["bb_per_100"])) * row["bb_per_100_hands"] for row in rows) / hands
    assert round(float(weighted), 3) == stats[0]["bb_per_100"]


def test_bb_per_100_is_exact_and_rounded_only_where_shown() -> None:
    start = datetime(2024, 1, 1, 20, 0)
    # a cent won three times at a $0.05/$0.10 table: in floats 0.1 + 0.1 + 0.1 is not 0.3
    played = [PlayedHand("Ann", "s", "T", None, "USD", 100, start + timedelta(minutes=i), 1, 10) for i in range(3)]
    [session] = split_sessions(played, timedelta(minutes=30))
    assert session.bb_per_100 == Fraction(10) and isinstance(session.bb_per_100, Fraction)
    assert session.hands_per_hour == Fraction(60) and session.net == 3
    # a hand whose big bet is unknown counts in hands and net, not in bb/100
    unknown = PlayedHand("Ann", "s", "T", None, "USD", 100, start + timedelta(minutes=3), 5, None)
    [session] = split_sessions([*played, unknown], timedelta(minutes=30))
    assert (session.hands, session.net, session.bb_hands, session.bb_per_100) == (4, 8, 3, Fraction(10))
    # each hand in its own big bet: a tournament level that rises at the table
    levels = [PlayedHand("Ann", "s", "T", "77", "CHIPS", 1, start, 30, 20),
              PlayedHand("Ann", "s", "T", "77", "CHIPS", 1, start + timedelta(minutes=10), -30, 60)]
    [session] = split_sessions(levels, timedelta(minutes=30))
    assert session.net == 0 and session.bb_per_100 == Fraction(100 * (Fraction(30, 20) - Fraction(30, 60)), 2)


@pytest.mark.slow
def test_without_a_player_the_heroes_sessions(tmp_path: Path) -> None:
    db = str(tmp_path / "s.duckdb")
    assert runner.invoke(app, ["import", str(SAMPLES / "pokerstars"), "--db", db, "--jobs", "1"]).exit_code == 0
    shown = run(db).splitlines()
    assert [line.split()[:2] for line in shown[2:4]] == [["Alcyone", "IV"], ["Dawn", "II"]]
    assert shown[2].split()[-5:] == ["1:29", "120", "80", "$1.08", "11.25"]
    assert all(cell_len(line) <= 80 for line in shown)


def test_nothing_to_report_exits_2_saying_why(evening: str) -> None:
    for args, said in ((["--player", "ann"], "no player 'ann' in the store; did you mean 'Ann'?"),
                       ([], "--player is required: the hands the filters select name no hero"),
                       (["--player", "Ann", "--sort", "bb"], "no sessions column 'bb'"),
                       (["--player", "Ann", "--from", "2025-01-01"], "no stored hand matches the filters together")):
        result = runner.invoke(app, ["sessions", "--db", evening, *args], env=WIDTH)
        assert result.exit_code == 2 and said in result.output and "Traceback" not in result.output, result.output


def test_sort_limit_and_out(evening: str, tmp_path: Path) -> None:
    shown = run(evening, "--player", "Ann", "--sort", "net", "--asc", "--limit", "2", "--by", "table").splitlines()
    assert [line.split()[0] for line in shown[2:4]] == ["Beta", "Alpha"] and "-$0.03" in shown[2]
    assert shown[-1] == "showing 2 of 3 sessions; --limit N to see more (--limit 0: all)"
    out = tmp_path / "sessions" / "ann.csv"
    written = runner.invoke(app, ["sessions", "--db", evening, "--player", "Ann", "--out", str(out), "--by", "table"])
    assert written.exit_code == 0, written.output
    header, *rows = out.read_text(encoding="utf-8").splitlines()
    assert header.split(",")[:3] == ["player", "site", "table"] and len(rows) == 3
