"""The int64 hand key (#17): the per-hand tables refer to their hand by ``hands.hk`` (schema
``keyed``), each shown under its old name by a view with (site, hand_id). The migration that
introduced it rewrites a store of the schema before it; every query answers the same after it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.store import Store, schema, spec
from hhtool.store.player_facts_cache import CACHE_TABLES, FACTS_TABLE, VERSION_TABLE
from tests.inputs import SAMPLES
from tests.test_reliability import every_table

runner = CliRunner()
WIDTH = {"COLUMNS": "100", "NO_COLOR": "1"}
#: the version just before the hand key: the stores hhtool wrote until then
BEFORE_KEY = schema.MIGRATIONS.index(schema.HAND_KEY)


def import_samples(db: Path, *more: str) -> None:
    result = runner.invoke(app, ["import", str(SAMPLES), *more, "--db", str(db), "--jobs", "1"])
    assert result.exit_code in (0, 1), result.output


def store_before_the_key(current: Path, old: Path) -> None:
    """A store of the schema before the hand key holding what ``current`` holds: the tables of
    versions 1 to BEFORE_KEY, filled from ``current``'s tables and views (which show the rows as
    those tables held them: (site, hand_id) first; the columns those versions had are taken by name)."""
    con = duckdb.connect(str(old))
    try:
        con.execute("CREATE TABLE schema_version (version INTEGER NOT NULL, applied_at TIMESTAMP NOT NULL)")
        for version, sql in enumerate(schema.MIGRATIONS[:BEFORE_KEY], start=1):
            con.execute(sql)
            con.execute("INSERT INTO schema_version VALUES (?, current_timestamp)", [version])
        con.execute(f"ATTACH '{current}' AS cur (READ_ONLY)")
        existing = {name for (name,) in con.execute("SELECT table_name FROM duckdb_tables() "
                                                    "WHERE database_name = current_database()").fetchall()}
        for table in spec.TABLES:
            if table.name == "schema_version" or table.name not in existing:  # (a table of a later version)
                continue
            # the columns the table had then (not hk, nor a column a later version added), by name
            had = con.execute("SELECT column_name FROM duckdb_columns() WHERE database_name = current_database() "
                              "AND schema_name = 'main' AND table_name = ? ORDER BY column_index", [table.name]).fetchall()
            chosen = ", ".join(f'"{name}"' for (name,) in had)
            con.execute(f"INSERT INTO main.{table.name} SELECT {chosen} FROM cur.main.{table.name}")
        con.execute("DETACH cur")
    finally:
        con.close()


def outputs(db: Path, hand: tuple[str, str]) -> dict[str, str]:
    """What the reports say, as a user runs them."""
    site, hand_id = hand
    commands = {
        "stats": ["stats"], "hands": ["hands", "--limit", "0"], "sessions": ["sessions"],
        "violations": ["violations"], "problems": ["problems"], "show": ["show", hand_id, "--site", site],
        "explain": ["audit", "--explain", hand_id, "--site", site],
        "sql": ["sql", "SELECT site, hand_id, seq, kind, amount FROM actions ORDER BY site, hand_id, seq"],
    }
    said = {}
    for name, args in commands.items():
        result = runner.invoke(app, [*args, "--db", str(db)], env=WIDTH)
        assert result.exit_code in (0, 1), (name, result.output)
        said[name] = result.output
    return said


@pytest.mark.slow
def test_a_store_of_the_schema_before_the_key_migrates_and_answers_the_same(tmp_path: Path) -> None:
    current = tmp_path / "current.duckdb"
    faulty = tmp_path / "faulty.txt"
    made = runner.invoke(app, ["simulate", "--hands", "60", "--seed", "4", "--faults", "0.3", "--out", str(faulty)])
    assert made.exit_code == 0, made.output
    import_samples(current, str(faulty))
    old = tmp_path / "old.duckdb"
    store_before_the_key(current, old)
    with duckdb.connect(str(old), read_only=True) as con:  # the old layout: strings in every child table
        assert con.execute("SELECT max(version) FROM schema_version").fetchall() == [(BEFORE_KEY,)]
        assert ("hand_id",) in con.execute("SELECT column_name FROM information_schema.columns "
                                           "WHERE table_name = 'actions'").fetchall()
    with duckdb.connect(str(current), read_only=True) as con:
        hand = con.execute("SELECT site, hand_id FROM hands WHERE verdict = 'violation' ORDER BY 1, 2 LIMIT 1").fetchone()
    # a store from before version 11 has no all-in EV: the migration adds its columns empty (docs/schema.md:
    # its hands get them when imported again), so the current store is compared with them emptied
    emptied = tmp_path / "emptied.duckdb"
    emptied.write_bytes(current.read_bytes())
    with duckdb.connect(str(emptied)) as con:
        con.execute("UPDATE hands SET allin_ev = NULL, allin_street = NULL, allin_deals = NULL")
        con.execute("UPDATE keyed.results SET ev_net = NULL")
    with duckdb.connect(str(emptied), read_only=True) as con:
        want = every_table(con)
    assert hand is not None
    before = outputs(current, hand)
    with Store(str(old)):  # a writer migrates it
        pass
    with duckdb.connect(str(old), read_only=True) as con:
        assert con.execute("SELECT max(version) FROM schema_version").fetchall() == [(schema.CURRENT_VERSION,)]
        got = every_table(con)
        # every keyed row kept its hand, and the keys are the hands' own, one each
        for table in spec.TABLES:
            if table.keyed:
                assert con.execute(f"SELECT count(*) FROM {table.stored} x ANTI JOIN hands h USING (hk)").fetchall() == [(0,)]
        assert con.execute("SELECT count(DISTINCT hk) = count(*) FROM hands").fetchall() == [(True,)]
    # the same rows in every table and view, but for the stats cache, which the migration leaves to
    # be computed again (its covered hands were kept by (site, hand_id)), and the assumptions, which a
    # store from before version 11 never had (docs/schema.md: its hands get them when imported again)
    cache = {*CACHE_TABLES, FACTS_TABLE, VERSION_TABLE, "assumptions"}
    assert {name: rows for name, rows in got.items() if name not in cache} == \
        {name: rows for name, rows in want.items() if name not in cache}
    assert outputs(old, hand) == before


@pytest.mark.slow
def test_keys_are_unique_and_grow_across_imports_and_duplicates_leave_no_rows(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:

    monkeypatch.setattr("hhtool.ingest.writer.WRITE_HANDS", 7)  # several batches per file, each numbering its hands from 0
    db = tmp_path / "h.duckdb"
    import_samples(db)
    with duckdb.connect(str(db), read_only=True) as con:
        first = con.execute("SELECT count(*), max(hk) FROM hands").fetchone()
    assert first is not None
    # a second import of the same files and one more: the duplicates get no rows, the new hands the next keys
    extra = tmp_path / "more.txt"
    assert runner.invoke(app, ["simulate", "--hands", "30", "--seed", "9", "--out", str(extra)]).exit_code == 0
    import_samples(db, str(extra))
    with duckdb.connect(str(db), read_only=True) as con:
        count, low_new = con.execute(
            "SELECT count(*), min(hk) FILTER (WHERE file LIKE '%more.txt') FROM hands").fetchone()
        assert count == first[0] + 30 and low_new > first[1]
        assert con.execute("SELECT count(DISTINCT hk) FROM hands").fetchone() == (count,)
        for table in spec.TABLES:
            if table.keyed:
                orphans = con.execute(f"SELECT count(*) FROM {table.stored} x ANTI JOIN hands h USING (hk)").fetchone()
                assert orphans == (0,), table.name
        # every hand's rows are its own: the seats named in a hand's rows are its seated players
        assert con.execute("""SELECT count(*) FROM hands h
                              WHERE h.players <> (SELECT count(*) FROM keyed.seats s WHERE s.hk = h.hk)""").fetchone() == (0,)
        # the views show (site, hand_id) and hide the key
        assert [row[0] for row in con.execute("DESCRIBE actions").fetchall()][:3] == ["site", "hand_id", "seq"]


@pytest.mark.slow
def test_audit_under_another_profile_replaces_the_findings_of_the_right_hands(tmp_path: Path) -> None:
    db = tmp_path / "a.duckdb"
    import_samples(db)
    with duckdb.connect(str(db), read_only=True) as con:
        before = con.execute("SELECT count(*) FROM violations").fetchone()
    result = runner.invoke(app, ["audit", "--rules", "pokerkit", "--db", str(db)], env=WIDTH)
    assert result.exit_code in (0, 1), result.output
    with duckdb.connect(str(db), read_only=True) as con:
        profiles = dict(con.execute("SELECT profile, count(*) FROM unverifiable GROUP BY 1").fetchall())
        orphans = con.execute("SELECT count(*) FROM keyed.unverifiable x ANTI JOIN hands h USING (hk)").fetchone()
        again = con.execute("SELECT count(*) FROM violations").fetchone()
    assert "pokerkit" in profiles and orphans == (0,)
    assert before is not None and again is not None and again[0] >= before[0]


@pytest.mark.slow
def test_a_command_says_it_upgrades_an_older_store_once(tmp_path: Path) -> None:
    """The upgrade rewrites every hand's rows (minutes on a large store): the user is told before it,
    whichever command meets the older store first (a reader too), and not again; -q says nothing."""
    current, old, quiet = tmp_path / "current.duckdb", tmp_path / "old.duckdb", tmp_path / "quiet.duckdb"
    import_samples(current)
    store_before_the_key(current, old)
    store_before_the_key(current, quiet)
    first = subprocess.run([sys.executable, "-m", "hhtool", "stats", "--db", str(old)], capture_output=True,
                           text=True, env={**os.environ, **WIDTH})
    assert first.returncode == 0, first.stderr
    assert f"upgrading database {old} from schema version {BEFORE_KEY} to {schema.CURRENT_VERSION}" in first.stderr
    assert "Hero" in first.stdout
    again = subprocess.run([sys.executable, "-m", "hhtool", "stats", "--db", str(old)], capture_output=True,
                           text=True, env={**os.environ, **WIDTH})
    assert again.returncode == 0 and "upgrading" not in again.stderr, again.stderr
    hushed = subprocess.run([sys.executable, "-m", "hhtool", "-q", "stats", "--db", str(quiet)], capture_output=True,
                            text=True, env={**os.environ, **WIDTH})
    assert hushed.returncode == 0 and "upgrading" not in hushed.stderr, hushed.stderr
