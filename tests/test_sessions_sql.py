"""#26's speed: sessions are split in SQL (hhtool/store/session_queries.py, ``sessions_sql``), over spans of
the gap, so that only sessions come back to Python, never every hand. They are the sessions the
command listed when Python walked every hand: checked against that walk (kept here as the oracle)
through `hhtool sessions` on the samples and on a simulated store whose hands have breaks around the
gap, hands of one minute at two tables and hands without a time; and on lists made for the edges."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from fractions import Fraction
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import duckdb
import pyarrow as pa
import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.clock import utc_instant
from hhtool.reports.sessions import PlayedHand, Session, sessions_frame, split_sessions
from tests.inputs import samples_store

runner = CliRunner()


def walked(hands: list[PlayedHand], gap: timedelta, by_table: bool = False) -> list[Session]:
    """The sessions as the command found them before: every hand walked in Python."""
    grouped: dict[tuple[Any, ...], list[PlayedHand]] = {}
    for hand in hands:
        grouped.setdefault(hand[:6] if by_table else (hand.player, hand.currency, hand.unit), []).append(hand)
    found: list[Session] = []
    for played in grouped.values():
        played.sort(key=lambda hand: hand.started_at)
        runs: list[list[PlayedHand]] = [[played[0]]]
        for hand in played[1:]:
            if hand.started_at - runs[-1][-1].started_at >= gap:
                runs.append([])
            runs[-1].append(hand)
        for run in runs:
            def listed(values: list[str | None]) -> str | None:
                present = list(dict.fromkeys(value for value in values if value is not None))
                return ", ".join(present) if present else None

            known = [hand for hand in run if hand.big_bet]
            found.append(Session(
                run[0].player, listed([h.site for h in run]) or run[0].site, listed([h.table for h in run]),
                listed([h.tournament_id for h in run]), run[0].currency, run[0].unit, run[0].started_at,
                run[-1].started_at, len(run), sum(h.net for h in run),
                sum((Fraction(h.net, h.big_bet) for h in known if h.big_bet), Fraction(0)), len(known),
                len({(h.site, h.table, h.tournament_id) for h in run})))
    return found


def played_hands(db: str, player: str | None) -> list[PlayedHand]:
    """Each player-hand of the store (each hand's hero's, without ``player``), in the order the
    command read them before: by time, then file and line."""
    whose = "f.player = ?" if player else "f.player = h.hero"
    with duckdb.connect(db, read_only=True) as con:
        rows = con.execute(
            "SELECT f.player, h.site, h.table_name, h.tournament_id, h.currency, h.unit, h.started_utc, f.net, f.big_bet "
            f"FROM player_facts f JOIN hands h ON h.site = f.site AND h.hand_id = f.hand_id WHERE {whose} "
            "AND h.started_utc IS NOT NULL ORDER BY h.started_utc, h.file, h.first_line",
            [player] if player else []).fetchall()
    return [PlayedHand(*row) for row in rows]


def listed_json(db: str, *args: str) -> list[dict[str, Any]]:
    result = runner.invoke(app, ["sessions", "--db", db, "--format", "json", "--limit", "0", *args])
    assert result.exit_code == 0, result.output
    rows: list[dict[str, Any]] = json.loads(result.stdout)
    return rows


def expected_json(sessions: list[Session]) -> list[dict[str, Any]]:
    newest = sorted(sessions, key=lambda s: (s.start, s.player, s.site, s.table or ""), reverse=True)
    rows: list[dict[str, Any]] = json.loads(sessions_frame(newest, ZoneInfo("America/New_York")).write_json())
    for row in rows:  # (as the command writes times)
        row["start"], row["end"] = (str(datetime.fromisoformat(row[key][:19])) for key in ("start", "end"))
    return rows


@pytest.fixture(scope="module")
def samples(tmp_path_factory: pytest.TempPathFactory) -> str:
    return samples_store(tmp_path_factory.mktemp("sessions-samples"))


@pytest.fixture(scope="module")
def broken_up(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Simulated hands at two sites' tables, their times then moved: 29 more minutes every 50 hands of
    a file (breaks about the gap), cut to the minute (hands of one time at two tables), a few without
    a time; the facts computed again from the moved times."""
    folder = tmp_path_factory.mktemp("sessions-simulated")
    for site, seed, hands in (("pokerstars", 21, 1200), ("fulltilt", 22, 500)):
        written = runner.invoke(app, ["simulate", "--hands", str(hands), "--seed", str(seed), "--site", site,
                                      "--out", str(folder / f"{site}.txt"), "-q"])
        assert written.exit_code == 0, written.output
    db = str(folder / "sim.duckdb")
    result = runner.invoke(app, ["import", str(folder / "pokerstars.txt"), str(folder / "fulltilt.txt"), "--db", db, "-q"])
    assert result.exit_code == 0, result.output
    with duckdb.connect(db) as con:
        con.execute("UPDATE hands SET started_at = CASE WHEN hk % 301 = 7 THEN NULL ELSE "
                    "date_trunc('minute', started_at + to_minutes(CAST((hk % 1200 // 50) * 29 AS BIGINT))) END")
        moved = con.execute("SELECT hk, site, started_at, timezone FROM hands").fetchall()  # the instants moved too
        con.register("moved", pa.table({"hk": [row[0] for row in moved], "utc": pa.array(
            [utc_instant(row[1], row[2], row[3]) for row in moved], pa.timestamp("us"))}))
        con.execute("UPDATE hands SET started_utc = moved.utc FROM moved WHERE hands.hk = moved.hk")
        con.execute("DROP VIEW player_facts")
        for table in ("player_facts_rows", "player_facts_daily", "player_facts_hands", "facts_version"):
            con.execute(f"DROP TABLE {table}")
    assert runner.invoke(app, ["stats", "--db", db]).exit_code == 0  # (the facts stored again)
    return db


@pytest.mark.slow
@pytest.mark.parametrize(("gap", "by_table"), [(30, False), (30, True), (5, False), (29, False), (1, True), (600, False)])
def test_the_sessions_of_a_simulated_store_are_the_walked_ones(broken_up: str, gap: int, by_table: bool) -> None:
    args = ["--gap", str(gap), *(["--by", "table"] if by_table else [])]
    for player in ("Hero", None):
        rows = listed_json(broken_up, *args, *(["--player", player] if player else []))
        expected = walked(played_hands(broken_up, player), timedelta(minutes=gap), by_table)
        assert rows == expected_json(expected)
        assert len(rows) > 3 or gap == 600
    assert any(", " in str(row["site"]) for row in listed_json(broken_up, "--gap", "30"))  # two sites in a sitting


@pytest.mark.slow
def test_the_sessions_of_the_samples_are_the_walked_ones(samples: str) -> None:
    for args, player in ((["--gap", "30"], None), (["--by", "table"], None), (["--player", "Hero", "--gap", "2"], "Hero")):
        by_table = "table" in args
        gap = int(args[args.index("--gap") + 1]) if "--gap" in args else 30
        expected = walked(played_hands(samples, player), timedelta(minutes=gap), by_table)
        assert listed_json(samples, *args) == expected_json(expected)


def test_hands_without_a_time_are_counted_and_said(broken_up: str) -> None:
    result = runner.invoke(app, ["sessions", "--db", broken_up, "--player", "Hero"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    with duckdb.connect(broken_up, read_only=True) as con:
        undated = con.execute("SELECT count(*) FROM player_facts WHERE player = 'Hero' AND started_at IS NULL").fetchone()
    assert undated is not None and undated[0] > 0
    assert f"{undated[0]} hands state no time: they are in no session" in result.output
    assert max(len(line) for line in result.output.splitlines()) <= 80


def test_the_edges_of_the_spans() -> None:
    """Spans are the gap long: a break of exactly the gap across or inside a span, a break just short
    of it across one, times before 1970, hands of one time, a big bet unknown or nought."""
    start = datetime(2024, 5, 1, 19, 59, 59, 999_999)  # a microsecond before a 30-minute span starts
    minutes = [0, 1, 31, 60.5, 61, 90.999, 121, 151, 181.000001]
    hands = [PlayedHand("Ann", "s", "T" if i % 3 else "U", None, "USD", 100, start + timedelta(minutes=m), i - 4,
                        None if i == 2 else (0 if i == 3 else 10)) for i, m in enumerate(minutes)]
    hands.append(PlayedHand("Ann", "t", "V", "77", "USD", 100, start + timedelta(minutes=61), 5, 10))  # same time
    old = [PlayedHand("Bob", "s", "T", None, "EUR", 100, datetime(1969, 12, 31, 23, 45) + timedelta(minutes=m), 1, 4)
           for m in (0, 14, 29, 58.9, 120)]

    def key(session: Session) -> tuple[Any, ...]:  # (groups come in another order: the command sorts them)
        return session.player, session.currency, session.start, session.site, session.table or ""

    for gap in (1, 29, 30, 31, 60):
        for by_table in (False, True):
            given = [*hands, *old]
            found = split_sessions(given, timedelta(minutes=gap), by_table=by_table)
            assert sorted(found, key=key) == sorted(walked(given, timedelta(minutes=gap), by_table), key=key)
            assert len(found) > 2


def test_the_sessions_page_over_the_whole_history(broken_up: str, tmp_path: Path) -> None:
    """The serve page asked for every day (From the first): the command's sessions, newest first."""
    testclient = pytest.importorskip("starlette.testclient", reason="httpx is not installed (pip install httpx)")
    from hhtool.service.serving import HeldStore
    from hhtool.service.stores import Database
    from hhtool.web.app import create_app

    held = HeldStore(Database(broken_up))
    try:
        client = testclient.TestClient(create_app(held, {"testserver"}))
        page = client.get("/sessions?player=Hero&from=2000-01-01&limit=1000").text
    finally:
        held.close()
    expected = listed_json(broken_up, "--player", "Hero")
    assert f"{len(expected)} sessions" in page and page.count('class="link-row"') == len(expected)
    assert 'id="since"' not in page
