"""The stats facts an import writes with each transaction, computed from the batch's own Arrow
tables (:class:`hhtool.reports.player_facts_cache.BatchFacts`), are the facts a full refresh computes from
the stored hands: the same rows in ``player_facts``, ``player_facts_daily`` and ``player_facts_hands``
on the sample histories, the real corpus and simulated hands."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.reports import player_facts_cache
from hhtool.store import Store
from tests.inputs import SAMPLES, require_corpus
from tests.test_reliability import every_table, numbered_hands

runner = CliRunner()


def cache_tables(db: Path) -> dict[str, list[tuple[object, ...]]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        tables = every_table(con)
    finally:
        con.close()
    return {name: rows for name, rows in tables.items() if name in player_facts_cache.CACHE_TABLES}


def refreshed_from_the_store(db: Path, target: Path) -> dict[str, list[tuple[object, ...]]]:
    """The cache tables of a copy of ``db`` whose cache was dropped and computed again from its hands."""
    target.write_bytes(db.read_bytes())
    with Store(str(target)) as store:
        for name in (*player_facts_cache.CACHE_TABLES, player_facts_cache.VERSION_TABLE):
            store.run(f"DROP TABLE {name}")
        assert player_facts_cache.refresh_facts(store) == store.run("SELECT count(*) FROM hands")[0][0]
    return cache_tables(target)


def import_command(db: Path, *paths: Path) -> None:
    result = runner.invoke(app, ["import", *map(str, paths), "--db", str(db)])
    assert result.exit_code in (0, 1), result.output  # (1: the corpus holds hands that fail to parse)


@pytest.mark.slow
def test_facts_written_with_the_batches_equal_a_full_refresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:

    monkeypatch.setattr("hhtool.ingest.writer.WRITE_HANDS", 150)  # several transactions per file
    simulated = tmp_path / "sim.txt"
    assert runner.invoke(app, ["simulate", "--hands", "400", "--seed", "3", "--out", str(simulated)]).exit_code == 0
    db = tmp_path / "batches.duckdb"
    import_command(db, SAMPLES, require_corpus(), simulated)
    written = cache_tables(db)
    assert len(written[player_facts_cache.FACTS_TABLE]) > 1000 and len(written[player_facts_cache.COVERED_TABLE]) > 400
    assert written == refreshed_from_the_store(db, tmp_path / "refreshed.duckdb")


@pytest.mark.slow
def test_a_second_import_adds_its_facts_and_covers_hands_stored_without_them(tmp_path: Path) -> None:
    """Hands stored with no facts (an import with the cache unwanted) are computed at the end of the
    next import, whose own hands come with their batch's facts: the cache equals a full refresh."""
    from hhtool.ingest.loader import import_sources
    from hhtool.ingest.sources import Source

    db = tmp_path / "two.duckdb"
    first, second = sorted((SAMPLES / "pokerstars").iterdir())[:2]
    with Store(str(db)) as store:
        import_sources(store, [Source(first)], store_facts=False)
        assert player_facts_cache.needs_refresh(store)
        import_sources(store, [Source(second)])
        assert not player_facts_cache.needs_refresh(store)
    written = cache_tables(db)
    assert written[player_facts_cache.FACTS_TABLE]
    assert written == refreshed_from_the_store(db, tmp_path / "refreshed.duckdb")


def daily_rows(db: Path) -> list[tuple[object, ...]]:
    return cache_tables(db)[player_facts_cache.DAILY_TABLE]


def twice(db: Path) -> int:
    """How many keys of the daily sums have more than one row."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        keys = ", ".join(player_facts_cache.DAILY_KEYS)
        return int(con.execute(f"SELECT count(*) FROM (SELECT {keys} FROM {player_facts_cache.DAILY_TABLE} GROUP BY ALL "
                               "HAVING count(*) > 1)").fetchall()[0][0])
    finally:
        con.close()


def test_an_import_stopped_before_its_facts_step_leaves_each_daily_key_once_and_a_rerun_agrees(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """#28 item 7: stopped right after its last batch's commit, where the daily sums of its batches
    were merged at the end (a kill there left every key once per batch, and the re-run, storing
    nothing new, never merged them): each key has one row at every commit."""

    monkeypatch.setattr("hhtool.ingest.files.BATCH_HANDS", 100)
    monkeypatch.setattr("hhtool.ingest.writer.WRITE_HANDS", 150)  # four transactions, every one adding to the same keys
    history = tmp_path / "a.txt"
    history.write_text(numbered_hands(600))
    reference = tmp_path / "reference.duckdb"
    import_command(reference, history)
    db = tmp_path / "stopped.duckdb"
    with monkeypatch.context() as stopped:
        stopped.setattr(player_facts_cache.BatchFacts, "finish", lambda self: None)  # the process ends right here
        import_command(db, history)
    assert twice(db) == 0 and daily_rows(db) == daily_rows(reference)
    result = runner.invoke(app, ["import", str(history), "--db", str(db), "--format", "json"])
    assert result.exit_code == 0 and '"stored": 0' in result.stdout  # nothing new
    assert twice(db) == 0 and cache_tables(db) == cache_tables(reference)


def test_daily_sums_an_older_hhtool_left_split_are_merged_by_the_next_import(tmp_path: Path) -> None:
    """A store whose daily sums are split (each key's sums over two rows: an older hhtool killed
    before its merge) is merged by the next import, even one storing nothing."""
    history = tmp_path / "a.txt"
    history.write_text(numbered_hands(20))
    reference = tmp_path / "reference.duckdb"
    import_command(reference, history)
    db = tmp_path / "split.duckdb"
    db.write_bytes(reference.read_bytes())
    with Store(str(db)) as store:  # every row split in two: its sums, and a row of zeros of the same key
        columns = [row[0] for row in store.run(f"DESCRIBE {player_facts_cache.DAILY_TABLE}")]
        zeros = [key if key in player_facts_cache.DAILY_KEYS else f"0 AS {key}" for key in columns]
        daily = player_facts_cache.DAILY_TABLE
        store.run(f"INSERT INTO {daily} BY NAME SELECT {', '.join(zeros)} FROM {daily}")
    assert twice(db) > 0
    result = runner.invoke(app, ["import", str(history), "--db", str(db), "--format", "json"])
    assert result.exit_code == 0 and '"stored": 0' in result.stdout, result.output
    assert twice(db) == 0 and daily_rows(db) == daily_rows(reference)
