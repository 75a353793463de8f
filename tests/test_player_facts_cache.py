"""The player_facts cache: incremental, rebuilt on a new definition, and the same numbers as computing
the facts from the hands (which tests/test_stats.py checks statistic by statistic)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.reports.stats import Breakdown, player_stats
from hhtool.store import Store, player_facts_cache
from hhtool.store.filters import Game, HandFilter, parse_stakes
from hhtool.store.player_facts import player_hand_facts
from hhtool.store.player_facts_cache import needs_refresh, refresh_facts, selected_facts
from tests.stats_hands import ALL_HANDS
from tests.stats_hands import load as load_texts
from tests.test_site_pokerstars import ALLIN_SIDE_POT, SPLIT_HAND

runner = CliRunner()
FIRST, SECOND = ALL_HANDS[:5], (*ALL_HANDS[5:], ALLIN_SIDE_POT, SPLIT_HAND)
FILTERS = (HandFilter(), HandFilter(players=("Bob", "Shorty")), HandFilter(stakes=parse_stakes("0.04/0.08")),
           HandFilter(game=Game.cash, table_size=8), HandFilter(sites=("pokerstars",)))


def load(store: Store, folder: Path, *texts: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    load_texts(store, folder, *texts)


def write_files(folder: Path, texts: tuple[str, ...]) -> list[str]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for index, text in enumerate(texts):
        path = folder / f"hand{index}.txt"
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    return paths


def cli(*args: str) -> Any:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result


def stats_json(db: Path, *args: str) -> list[dict[str, Any]]:
    return json.loads(cli("stats", "--db", str(db), "--format", "json", *args).stdout)


def facts_rows(store: Store, hand_filter: HandFilter | None = None) -> pl.DataFrame:
    """The facts rows the reports read, in a fixed order."""
    with selected_facts(store, hand_filter or HandFilter()) as (sql, params):
        frame = store.frame(sql, params)
    return frame.sort("site", "hand_id", "player")


def computed_rows(store: Store, hand_filter: HandFilter | None = None) -> pl.DataFrame:
    return player_hand_facts(store, hand_filter or HandFilter()).sort("site", "hand_id", "player")


def count(store: Store, table: str) -> int:
    return int(store.run(f"SELECT count(*) FROM {table}")[0][0])


def every_report(store: Store) -> list[pl.DataFrame]:
    return [player_stats(store, hand_filter, by=by) for hand_filter in FILTERS
            for by in (None, Breakdown.stakes, Breakdown.month, Breakdown.door_card, Breakdown.street)]


@pytest.mark.slow
def test_refresh_is_incremental_and_stats_match_a_fresh_computation(tmp_path: Path) -> None:
    db = tmp_path / "inc.duckdb"
    cli("import", "--db", str(db), "--jobs", "1", *write_files(tmp_path / "a", FIRST))
    with Store(str(db), read_only=True) as store:
        first_rows = count(store, "player_facts")
        assert first_rows == computed_rows(store).height > 0
    stats_json(db)
    cli("import", "--db", str(db), "--jobs", "1", *write_files(tmp_path / "b", SECOND))
    incremental = stats_json(db)
    by_month = stats_json(db, "--by", "month")

    fresh = tmp_path / "fresh.duckdb"
    with Store(str(fresh)) as store:  # the hands only: stats computes every fact now
        load(store, tmp_path / "fresh", *FIRST, *SECOND)
    with Store(str(fresh), read_only=True) as store:
        assert not player_facts_cache.cache_is_current(store)
        expected = [frame.to_dicts() for frame in every_report(store)]
    with Store(str(db), read_only=True) as store:
        assert [frame.to_dicts() for frame in every_report(store)] == expected
        cached = facts_rows(store)
        assert cached.equals(computed_rows(store))  # the same rows, none twice
        assert cached.select("site", "hand_id", "player").is_duplicated().sum() == 0
        assert count(store, "player_facts") > first_rows
        assert count(store, "player_facts_hands") == count(store, "hands") == len(FIRST) + len(SECOND)
    assert incremental == json.loads(json.dumps(player_stats_json(fresh)))
    assert sum(row["hands"] for row in by_month) == sum(row["hands"] for row in incremental)


def player_stats_json(db: Path) -> list[dict[str, Any]]:
    with Store(str(db), read_only=True) as store:
        return player_stats(store, HandFilter()).to_dicts()


@pytest.mark.slow
def test_batches_and_partial_cover_give_the_same_rows(tmp_path: Path) -> None:
    store = Store(":memory:")
    load(store, tmp_path / "a", *FIRST)
    assert needs_refresh(store)
    assert refresh_facts(store, batch_hands=2) == len(FIRST)
    assert refresh_facts(store) == 0 and not needs_refresh(store)
    load(store, tmp_path / "b", *SECOND)  # imported without a refresh: the cache covers only FIRST
    assert needs_refresh(store)
    partial = [facts_rows(store, hand_filter) for hand_filter in FILTERS]
    reports = every_report(store)
    assert all(frame.equals(computed_rows(store, hand_filter)) for frame, hand_filter in zip(partial, FILTERS, strict=True))
    assert refresh_facts(store, batch_hands=3) == len(SECOND)
    assert not needs_refresh(store)
    assert [facts_rows(store, hand_filter).equals(frame) for hand_filter, frame in zip(FILTERS, partial, strict=True)] == \
        [True] * len(FILTERS)
    assert [frame.to_dicts() for frame in every_report(store)] == [frame.to_dicts() for frame in reports]
    daily_hands = int(store.run("SELECT sum(hands) FROM player_facts_daily")[0][0])
    assert daily_hands == count(store, "player_facts")
    # the daily sums were merged: one row per player and day (and table kind)
    assert store.run("SELECT count(*) FROM (SELECT DISTINCT player, site, stakes, started_at FROM player_facts_daily)") == \
        store.run("SELECT count(*) FROM player_facts_daily")
    # and so were the door sums: every player-hand once, one row per key
    assert int(store.run(f"SELECT sum(hands) FROM {player_facts_cache.DOOR_TABLE}")[0][0]) == daily_hands
    assert count(store, player_facts_cache.DOOR_TABLE) == len(store.run(
        f"SELECT DISTINCT {', '.join(player_facts_cache.DOOR_KEYS)} FROM {player_facts_cache.DOOR_TABLE}"))


@pytest.mark.slow
def test_a_new_facts_definition_rebuilds_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(":memory:")
    load(store, tmp_path, *ALL_HANDS)
    refresh_facts(store)
    rows = facts_rows(store)
    store.run("UPDATE player_facts_rows SET net = net + 1000")  # stale rows of an older definition
    assert not needs_refresh(store)
    monkeypatch.setattr(player_facts_cache, "FACTS_DEFINITION", player_facts_cache.FACTS_DEFINITION + 1)
    assert not player_facts_cache.cache_is_current(store) and needs_refresh(store)
    assert facts_rows(store).equals(rows)  # not trusted meanwhile: computed from the hands
    assert refresh_facts(store) == len(ALL_HANDS)
    assert player_facts_cache.stored_version(store) == player_facts_cache.facts_version()
    assert facts_rows(store).equals(rows) and count(store, "player_facts") == rows.height


@pytest.mark.slow
def test_stats_after_an_import_reads_the_cache_without_writing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "ready.duckdb"
    cli("import", "--db", str(db), "--jobs", "1", *write_files(tmp_path / "h", ALL_HANDS))
    with Store(str(db), read_only=True) as store:
        assert not needs_refresh(store)

    def refuse(store: Store, batch_hands: int = 0) -> int:
        raise AssertionError("stats refreshed a cache the import had refreshed")

    monkeypatch.setattr("hhtool.service.stats_cache.refresh_facts", refuse)
    rows = stats_json(db, "--player", "Bob")
    assert [row["player"] for row in rows] == ["Bob"] and rows[0]["hands"] == 7
    out = tmp_path / "bob.html"
    cli("graph", "--db", str(db), "--player", "Bob", "--out", str(out))
    assert "Winnings of Bob" in out.read_text(encoding="utf-8")


@pytest.mark.slow
def test_stats_refreshes_a_store_whose_hands_lack_facts(tmp_path: Path) -> None:
    db = tmp_path / "old.duckdb"
    with Store(str(db)) as store:  # hands stored by something that does not refresh
        load(store, tmp_path, *ALL_HANDS)
    with Store(str(db), read_only=True) as store:
        assert needs_refresh(store)
        expected = player_stats(store, HandFilter()).to_dicts()  # computed on the fly, read-only
    rows = stats_json(db)
    with Store(str(db), read_only=True) as store:
        assert not needs_refresh(store)
    assert rows == json.loads(json.dumps(expected))


@pytest.mark.slow
def test_audit_with_paths_refreshes_too(tmp_path: Path) -> None:
    db = tmp_path / "audit.duckdb"
    result = runner.invoke(app, ["audit", "--db", str(db), *write_files(tmp_path / "h", ALL_HANDS)])
    assert result.exit_code in (0, 1), result.output
    with Store(str(db), read_only=True) as store:
        assert not needs_refresh(store) and count(store, "player_facts_hands") == len(ALL_HANDS)


@pytest.mark.slow
def test_stats_computes_on_the_fly_when_the_store_cannot_be_written(tmp_path: Path) -> None:
    db = tmp_path / "held.duckdb"
    with Store(str(db)) as store:
        load(store, tmp_path, *ALL_HANDS)
    with Store(str(db), read_only=True) as reader:  # held read-only: the report cannot open it for writing
        expected = player_stats(reader, HandFilter()).to_dicts()
        rows = stats_json(db)
        assert needs_refresh(reader)
    assert rows == json.loads(json.dumps(expected)) and len(rows) == 5


@pytest.mark.slow
def test_facts_are_written_with_each_transaction_of_an_import(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The import writes the facts of each transaction's hands (here 2 at a time) with them, computed
    from the batch's tables: nothing is left to refresh at the end, and the cache equals the facts
    computed from the stored hands."""
    from hhtool.ingest.loader import import_sources
    from hhtool.ingest.sources import Source

    monkeypatch.setattr("hhtool.ingest.files.BATCH_HANDS", 2)
    monkeypatch.setattr("hhtool.ingest.writer.WRITE_HANDS", 2)
    texts = (*FIRST, *SECOND)
    path = tmp_path / "all.txt"
    path.write_text("\n\n".join(texts), encoding="utf-8")
    store = Store(":memory:")
    batches: list[int] = []
    original = player_facts_cache.BatchFacts.tables_for
    monkeypatch.setattr(player_facts_cache.BatchFacts, "tables_for",
                        lambda self, tables: batches.append(tables["hands"].num_rows) or original(self, tables))
    refreshed: list[int] = []
    original_refresh = player_facts_cache.refresh_facts
    monkeypatch.setattr(player_facts_cache, "refresh_facts", lambda s: refreshed.append(original_refresh(s)) or refreshed[-1])
    report = import_sources(store, [Source(path)]).files[0]
    assert report.stored == len(texts)
    assert len(batches) >= len(texts) // 2 and sum(batches) == len(texts)
    assert refreshed == [0]  # the end of the import found every hand covered
    assert not needs_refresh(store)
    assert all(facts_rows(store, f).equals(computed_rows(store, f)) for f in FILTERS)
    for table, keys in player_facts_cache.SUMMED.items():  # the daily and the door sums: one row per key, all added
        assert count(store, table) == len(store.run(
            f"SELECT DISTINCT {', '.join(keys)} FROM ({player_facts_cache.daily_sums_sql('SELECT * FROM player_facts', keys)})"))
        assert store.run(f"SELECT sum(hands) FROM {table}") == [(count(store, "player_facts"),)]


@pytest.mark.slow
def test_by_door_card_reads_the_door_sums_and_gives_the_per_hand_numbers(tmp_path: Path) -> None:
    """#26: ``stats --by door-card`` sums the door sums (``player_facts_door``), not every player-hand,
    with the numbers of the facts computed now and grouped per door card; the other reports keep
    reading the daily sums."""
    db = tmp_path / "door.duckdb"
    cli("import", "--db", str(db), "--jobs", "1", *write_files(tmp_path / "h", ALL_HANDS))
    rows = stats_json(db, "--by", "door-card")
    with Store(str(db), read_only=True) as store:
        facts = computed_rows(store)
    expected: dict[tuple[str, str, str], dict[str, int]] = {}
    for fact in facts.iter_rows(named=True):
        sums = expected.setdefault((fact["player"], fact["currency"], fact["door_card"]),
                                   {"hands": 0, "net_won": 0, "vpip_count": 0, "vpip_opportunities": 0})
        for key, value in (("hands", 1), ("net_won", fact["net"]), ("vpip_count", fact["vpip__n"]),
                           ("vpip_opportunities", fact["vpip__o"])):
            sums[key] += value
    assert {(row["player"], row["currency"], row["door_card"]): {key: row[key] for key in expected[next(iter(expected))]}
            for row in rows} == expected
    assert len({row["door_card"] for row in rows}) > 3
    with Store(str(db)) as store:  # the report reads these sums: doubled, it shows twice the hands
        store.run(f"UPDATE {player_facts_cache.DOOR_TABLE} SET hands = hands * 2")
    assert [row["hands"] for row in stats_json(db, "--by", "door-card")] == [2 * row["hands"] for row in rows]
    assert sum(row["hands"] for row in stats_json(db)) == facts.height  # (the daily sums, untouched)
