"""The cross-hand pass's counts (``forced_bet_votes``, #37) always agree with the stored hands' posts: after an
import in several batches, after a hand is replaced (a grown file imported twice, by the command), after an
import that fails inside its batch's transaction, and after the migration counts an older store's hands.

The counts are checked against a count made here, in Python, from the stored posts and seats (the store's
SQL is not asked to count them a second time): a table's or level's hands, by how each posted each forced
bet (its posts' amounts not all-in, smallest first, and whether it posted)."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import duckdb
import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.ingest import loader
from hhtool.ingest.loader import import_sources
from hhtool.ingest.sources import collect_sources
from hhtool.store import Store, schema
from tests.inputs import SAMPLES
from tests.test_growing_files import cut_in_summary, hand

runner = CliRunner()
Counts = Counter[tuple[Any, ...]]


def counted_from_posts(con: duckdb.DuckDBPyConnection) -> Counts:
    """Every stored hand counted under its table (when it names one) and its level, per forced bet."""
    hands = con.execute("SELECT hk, coalesce(origin_site, site), is_tournament, tournament_id, table_name, small_bet, "
                        "big_bet, currency, structure FROM hands").fetchall()
    stacks = {(hk, player): stack for hk, player, stack in con.execute("SELECT hk, player, stack FROM keyed.seats").fetchall()}
    posts: dict[tuple[int, str], list[tuple[str, int, bool]]] = {}
    paid: Counter[tuple[int, str]] = Counter()
    for hk, player, kind, amount, flagged in con.execute(
            "SELECT hk, player, kind, amount, all_in FROM keyed.actions WHERE kind IN ('ante', 'bring_in') "
            "ORDER BY hk, seq").fetchall():
        paid[(hk, player)] += amount  # a post is all-in when flagged or when the player's posts reach his stack
        stack = stacks.get((hk, player))
        all_in = flagged or (stack is not None and paid[(hk, player)] >= stack)
        posts.setdefault((hk, kind), []).append((player, amount, all_in))
    counts: Counts = Counter()
    for hk, dealt_by, tournament, tid, table_name, small, big, currency, structure in hands:
        place = tid if tournament else table_name
        level = (dealt_by, (tid or "") if tournament else None, small, big, currency, structure)
        for kind in ("ante", "bring_in"):
            made = posts.get((hk, kind), [])
            pattern = (kind, tuple(sorted(amount for _, amount, all_in in made if not all_in)), bool(made))
            counts[("level", level, *pattern)] += 1
            if place is not None:
                counts[("table", (dealt_by, tournament, place, small, big, currency, structure), *pattern)] += 1
    return counts


def stored_counts(con: duckdb.DuckDBPyConnection) -> Counts:
    counts: Counts = Counter()
    for scope, key, kind, amounts, posted, hands in con.execute("SELECT * FROM forced_bet_votes").fetchall():
        k = json.loads(key)
        place = ((k["site"], k["tournament"], k["place"], k["small"], k["big"], k["currency"], k["structure"])
                 if scope == "table" else (k["site"], k["tournament"], k["small"], k["big"], k["currency"], k["structure"]))
        assert hands > 0, "a key no hand is counted under is kept"
        assert counts[(scope, place, kind, tuple(amounts), posted)] == 0, "a key is stored twice"
        counts[(scope, place, kind, tuple(amounts), posted)] += hands
    return counts


def assert_counts_agree(db: Path) -> Counts:
    with duckdb.connect(str(db), read_only=True) as con:
        expected, stored = counted_from_posts(con), stored_counts(con)
        hands = con.execute("SELECT count(*) FROM hands").fetchall()[0][0]
    assert stored == expected
    assert sum(n for key, n in stored.items() if key[0] == "level") == 2 * hands  # each hand, each bet, once
    return stored


def test_an_import_in_many_batches_keeps_the_counts_of_its_hands(tmp_path: Path) -> None:
    """Every sample file (every site's; all-in posts among them), a batch each."""
    db = tmp_path / "v.duckdb"
    with Store(str(db)) as store:
        report = import_sources(store, collect_sources([str(SAMPLES)]).sources)
    assert len(report.files) > 10
    counts = assert_counts_agree(db)
    assert any(n > 1 for n in counts.values())  # hands of one table added up across batches
    assert len({key[1] for key in counts if key[0] == "table"}) > 10


def test_a_hand_replaced_by_its_grown_copy_is_counted_once_through_the_command(tmp_path: Path) -> None:
    path, db = tmp_path / "live.txt", tmp_path / "g.duckdb"
    before = hand(1) + "\n\n" + hand(2) + "\n\n"
    written, rest = cut_in_summary(hand(3), 2)
    path.write_text(before + written)
    first = runner.invoke(app, ["import", str(path), "--db", str(db), "--jobs", "1"])
    assert first.exit_code == 0, first.output
    assert sum(n for key, n in assert_counts_agree(db).items() if key[0] == "table") == 2 * 3
    path.write_text(before + written + rest + "\n\n" + hand(4))
    grown = runner.invoke(app, ["import", str(path), "--db", str(db), "--jobs", "1", "--format", "json"])
    assert grown.exit_code == 0, grown.output
    assert json.loads(grown.output)["files"][0]["completed"] == 1  # hand 3 forgotten, then stored again
    assert sum(n for key, n in assert_counts_agree(db).items() if key[0] == "table") == 2 * 4


def test_an_import_that_fails_in_its_batch_leaves_the_counts_of_the_hands_stored(tmp_path: Path,
                                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "k.duckdb"
    with Store(str(db)) as store:
        import_sources(store, collect_sources([str(SAMPLES / "pokerstars")]).sources)
    before = assert_counts_agree(db)

    def broken(*args: object, **kwargs: object) -> int:
        raise RuntimeError("killed in the pass")  # after the batch's hands and counts were written, before its commit

    monkeypatch.setattr(loader, "judge_batch", broken)
    path = tmp_path / "more.txt"
    path.write_text(hand(7) + "\n\n" + hand(8))
    with Store(str(db)) as store, pytest.raises(RuntimeError, match="killed in the pass"):
        import_sources(store, collect_sources([str(path)]).sources)
    assert assert_counts_agree(db) == before


def test_the_migration_counts_the_hands_an_older_store_holds(pokerstars_samples_store: Path, tmp_path: Path) -> None:
    path = tmp_path / "older.duckdb"
    shutil.copy(pokerstars_samples_store, path)
    with duckdb.connect(str(path)) as con:
        fresh = stored_counts(con)
        con.execute("DROP TABLE forced_bet_votes")  # the store as the version before wrote it
        con.execute("UPDATE schema_version SET version = ?", [schema.MIGRATIONS.index(schema.FORCED_BET_VOTES)])
    with Store(str(path)) as store:
        assert store.run("SELECT max(version) FROM schema_version") == [(schema.CURRENT_VERSION,)]
    assert assert_counts_agree(path) == fresh
    assert sum(fresh.values()) > 100
