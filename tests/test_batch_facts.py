"""The stats facts an import writes with each transaction (tabulated by its workers:
:class:`hhtool.store.player_facts_cache.BatchFacts`) and sums once its workers stop are the facts a full
refresh computes from the stored hands: the same rows in ``player_facts``, its sums (``player_facts_daily``,
and ``player_facts_door`` for ``stats --by door-card``) and ``player_facts_hands`` on the sample histories,
the real corpus and simulated hands; so does a grown file whose completed last hand replaced its cut copy.
Stopped before it sums them, the import leaves rows every report sums as if they were summed."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.store import Store, player_facts_cache
from tests.inputs import SAMPLES, require_corpus
from tests.test_growing_files import cut_in_summary, hand
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
    assert len(written[player_facts_cache.ROWS_TABLE]) > 1000 and len(written[player_facts_cache.COVERED_TABLE]) > 400
    assert len(written[player_facts_cache.DOOR_TABLE]) > 100 and twice(db) == 0
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
    assert written[player_facts_cache.ROWS_TABLE]
    assert written == refreshed_from_the_store(db, tmp_path / "refreshed.duckdb")


def daily_rows(db: Path) -> dict[str, list[tuple[object, ...]]]:
    """The rows of every table of sums (the daily and the door sums)."""
    tables = cache_tables(db)
    return {name: tables[name] for name in player_facts_cache.SUMMED}


def twice(db: Path) -> int:
    """How many keys of the tables of sums (daily and door) have more than one row."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        return sum(int(con.execute(f"SELECT count(*) FROM (SELECT {', '.join(keys)} FROM {table} GROUP BY ALL "
                                   "HAVING count(*) > 1)").fetchall()[0][0])
                   for table, keys in player_facts_cache.SUMMED.items())
    finally:
        con.close()


@pytest.mark.slow
def test_an_import_stopped_before_its_facts_step_leaves_each_daily_key_once_and_a_rerun_agrees(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """#28 item 7: stopped right after its last batch's commit, where the daily sums of its batches
    were merged at the end (a kill there left every key once per batch, and the re-run, storing
    nothing new, never merged them): each key has one row at every commit. (#37: the import sums its
    batches' rows once its workers stop: stopped there, none is summed yet, and the re-run sums them.)"""

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
    assert twice(db) == 0 and not any(daily_rows(db).values())
    assert len(cache_tables(db)[player_facts_cache.UNSUMMED_TABLE]) == 600
    result = runner.invoke(app, ["import", str(history), "--db", str(db), "--format", "json"])
    assert result.exit_code == 0 and '"stored": 0' in result.stdout  # nothing new
    assert twice(db) == 0 and cache_tables(db) == cache_tables(reference)


@pytest.mark.slow
def test_daily_sums_an_older_hhtool_left_split_are_merged_by_the_next_import(tmp_path: Path) -> None:
    """A store whose daily sums and door sums are split (each key's sums over two rows: an older
    hhtool killed before its merge) is merged by the next import, even one storing nothing."""
    history = tmp_path / "a.txt"
    history.write_text(numbered_hands(20))
    reference = tmp_path / "reference.duckdb"
    import_command(reference, history)
    db = tmp_path / "split.duckdb"
    db.write_bytes(reference.read_bytes())
    with Store(str(db)) as store:  # every row split in two: its sums, and a row of zeros of the same key
        for table, keys in player_facts_cache.SUMMED.items():
            columns = [row[0] for row in store.run(f"DESCRIBE {table}")]
            zeros = [key if key in keys else f"0 AS {key}" for key in columns]
            store.run(f"INSERT INTO {table} BY NAME SELECT {', '.join(zeros)} FROM {table}")
        assert player_facts_cache.split_sums(store) == list(player_facts_cache.SUMMED)
    assert twice(db) > 0
    result = runner.invoke(app, ["import", str(history), "--db", str(db), "--format", "json"])
    assert result.exit_code == 0 and '"stored": 0' in result.stdout, result.output
    assert twice(db) == 0 and daily_rows(db) == daily_rows(reference)


@pytest.mark.slow
def test_a_grown_files_completed_last_hand_leaves_the_sums_a_full_refresh_computes(tmp_path: Path) -> None:
    """The cut copy of a file's last hand (stored as read, hhtool.ingest.provisional) is replaced by
    the completed hand when the file grows: its facts leave both tables of sums (daily and door), so
    the cache is the one computed from the stored hands, each key one row."""
    path, db = tmp_path / "live.txt", tmp_path / "grown.duckdb"
    before = hand(1) + "\n\n" + hand(2) + "\n\n"
    written, rest = cut_in_summary(hand(3), 2)
    path.write_text(before + written)
    import_command(db, path)
    assert len(cache_tables(db)[player_facts_cache.COVERED_TABLE]) == 3  # the third one cut in its summary
    path.write_text(before + written + rest + "\n\n" + hand(4))
    result = runner.invoke(app, ["import", str(path), "--db", str(db), "--format", "json"])
    assert result.exit_code == 0 and '"completed": 1' in result.stdout, result.output
    cache = cache_tables(db)
    assert len(cache[player_facts_cache.COVERED_TABLE]) == 4 and twice(db) == 0
    with duckdb.connect(str(db), read_only=True) as con:
        for table in player_facts_cache.SUMMED:  # every player-hand once: 4 hands of 3 players
            assert con.execute(f"SELECT sum(hands) FROM {table}").fetchall() == [(12,)], table
    assert cache == refreshed_from_the_store(db, tmp_path / "refreshed.duckdb")


@pytest.mark.slow
def test_a_pool_imports_facts_come_from_its_workers_with_every_batch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """#37: with a pool of two workers, each batch's transaction writes the facts the workers tabulated
    (the SQL definition is not run): stopped before its facts step, the import leaves every hand's rows
    stored, none summed; the facts step sums them, and the cache equals a full refresh over the stored hands."""
    from hhtool.ingest.executors import LocalExecutor
    from hhtool.ingest.loader import import_sources
    from hhtool.ingest.sources import Source

    def no_sql(*_: object) -> None:
        raise AssertionError("the facts of a batch were computed by SQL, not brought by the workers")

    monkeypatch.setattr("hhtool.ingest.executors.POOL_MIN_BYTES", 0)  # a pool even for a small file
    monkeypatch.setattr("hhtool.ingest.files.BATCH_HANDS", 100)
    monkeypatch.setattr("hhtool.ingest.writer.WRITE_HANDS", 150)  # several transactions
    monkeypatch.setattr(player_facts_cache, "sql_facts", no_sql)
    history = tmp_path / "a.txt"
    history.write_text(numbered_hands(600))
    db = tmp_path / "pool.duckdb"
    with Store(str(db)) as store, monkeypatch.context() as stopped:
        stopped.setattr(player_facts_cache.BatchFacts, "finish", lambda self: None)  # the process ends right here
        report = import_sources(store, [Source(history)], executor=LocalExecutor(2))
        assert report.files[0].stored == 600 and player_facts_cache.needs_refresh(store)
    tables = cache_tables(db)
    assert len(tables[player_facts_cache.COVERED_TABLE]) == len(tables[player_facts_cache.UNSUMMED_TABLE]) == 600
    with Store(str(db)) as store:
        assert player_facts_cache.refresh_facts(store) == 0 and not player_facts_cache.needs_refresh(store)  # (summed)
    assert twice(db) == 0 and cache_tables(db) == refreshed_from_the_store(db, tmp_path / "refreshed.duckdb")


@pytest.mark.parametrize("by", [(), ("--by", "door-card"), ("--by", "start"), ("--by", "month"),
                                ("--by", "stakes", "--player", "Hero")])
def test_rows_an_import_stored_and_did_not_sum_report_as_the_summed_ones(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, by: tuple[str, ...]) -> None:
    """#37: stopped before its facts step (a kill), an import leaves its hands' rows stored and not summed;
    a report that may not write the store (read-only, or another process holds it) sums them from their rows
    with the stored sums: the same figures as the store of an import that finished."""
    monkeypatch.setattr("hhtool.ingest.files.BATCH_HANDS", 100)
    monkeypatch.setattr("hhtool.ingest.writer.WRITE_HANDS", 150)  # several transactions
    history = tmp_path / "a.txt"
    history.write_text(numbered_hands(300))
    reference, db = tmp_path / "reference.duckdb", tmp_path / "stopped.duckdb"
    import_command(reference, history)
    import_command(db, SAMPLES / "pokerstars")  # (sums stored before: the report adds the unsummed ones to them)
    import_command(reference, SAMPLES / "pokerstars")
    with monkeypatch.context() as stopped:
        stopped.setattr(player_facts_cache.BatchFacts, "finish", lambda self: None)  # the process ends right here
        import_command(db, history)
    assert len(cache_tables(db)[player_facts_cache.UNSUMMED_TABLE]) == 300
    want = runner.invoke(app, ["stats", "--db", str(reference), *by])
    with monkeypatch.context() as read_only:  # (the report may not write: it reads what is stored)
        read_only.setattr("hhtool.service.stats_cache.needs_refresh", lambda store: False)
        got = runner.invoke(app, ["stats", "--db", str(db), *by])
    assert got.exit_code == want.exit_code == 0 and got.output == want.output and "Hero" in want.output
    assert len(cache_tables(db)[player_facts_cache.UNSUMMED_TABLE]) == 300  # (nothing was written)
