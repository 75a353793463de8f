"""The stats facts the workers tabulate in Python (:mod:`hhtool.store.facts_rows`), read as every reader reads
them (through the view ``player_facts``, which adds the hand's columns to the stored rows:
:mod:`hhtool.store.facts_storage`), are the facts query's (:func:`hhtool.store.player_facts_cache.sql_facts`,
the SQL definition kept as the oracle): the same schema and, every column of every row, the same values, on
the samples, the real corpus and simulated hands (legal and faulty, three betting policies, two sites'
formats)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.ingest.chunks import ChunkResult, process_chunk
from hhtool.ingest.reader import read_file
from hhtool.sites import detect
from hhtool.store.facts_rows import COVERED_TABLE, ROWS_TABLE, rows_schema, start_group
from hhtool.store.facts_storage import facts_view_sql, rows_table_ddl, stored_rows_sql
from hhtool.store.player_facts_cache import sql_facts
from hhtool.store.start_groups import start_group as start_group_by_sql
from tests.inputs import SAMPLES, require_corpus

runner = CliRunner()


def chunks_of(folder: Path, replay: bool = True) -> Iterator[tuple[Path, ChunkResult]]:
    """Each history file of ``folder`` (recursively) as one chunk, as an import's worker tabulates it."""
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        try:
            lines = read_file(path).lines
        except Exception:  # (an archive, a picture: not what this test is about)
            continue
        parser = detect(lines)
        if parser is not None:
            yield path, process_chunk(parser.name, list(parser.split(lines, str(path))), replay=replay)


def as_read(rows: pa.Table, hands: pa.Table) -> pa.Table:
    """The stored rows ``rows`` as a reader finds them: through the view's definition, over ``hands``."""
    con = duckdb.connect()
    con.register("batch_rows", rows)
    con.register("batch_hands", hands)
    return con.sql(facts_view_sql("batch_rows", "batch_hands")).to_arrow_table()


def by_player_hand(table: pa.Table) -> list[dict[str, Any]]:
    return sorted(table.to_pylist(), key=lambda row: (row["hk"], row["player"]))


def assert_same_facts(folder: Path, at_least: int, replay: bool = True) -> None:
    rows = 0
    for path, chunk in chunks_of(folder, replay):
        assert chunk.tables[ROWS_TABLE].schema == rows_schema(), path
        tabulated, oracle = as_read(chunk.tables[ROWS_TABLE], chunk.tables["hands"]), sql_facts(chunk.tables)
        assert tabulated.schema == oracle.schema, path
        assert chunk.tables[COVERED_TABLE].num_rows == chunk.tables["hands"].num_rows, path
        got, want = by_player_hand(tabulated), by_player_hand(oracle)
        assert len(got) == len(want), path
        for mine, theirs in zip(got, want, strict=True):
            differing = {name: (mine[name], theirs[name]) for name in theirs if mine[name] != theirs[name]}
            assert not differing, (path, theirs["hand_id"], theirs["player"], differing)
        rows += len(want)
    assert rows >= at_least  # (the inputs were read: a test comparing nothing would pass)


def test_the_samples_facts_equal_the_sql_definition() -> None:
    assert_same_facts(SAMPLES, at_least=700)


def test_the_samples_facts_imported_without_replay_equal_the_sql_definition() -> None:
    assert_same_facts(SAMPLES / "pokerstars", at_least=50, replay=False)


def test_the_corpus_facts_equal_the_sql_definition() -> None:
    assert_same_facts(require_corpus(), at_least=200)


def simulated(folder: Path, hands: int, seed: int, *options: str) -> None:
    result = runner.invoke(app, ["simulate", "--hands", str(hands), "--seed", str(seed), "--faults", "0.2",
                                 *options, "--out", str(folder / f"sim-{seed}.txt")])
    assert result.exit_code == 0, result.output


def test_simulated_facts_equal_the_sql_definition(tmp_path: Path) -> None:
    simulated(tmp_path, 200, 1)
    simulated(tmp_path, 200, 2, "--policy", "raisewar", "--site", "fulltilt")
    assert_same_facts(tmp_path, at_least=1000)


@pytest.mark.slow
def test_ten_thousand_simulated_hands_facts_equal_the_sql_definition(tmp_path: Path) -> None:
    simulated(tmp_path, 4000, 5)
    simulated(tmp_path, 3000, 6, "--policy", "raisewar")
    simulated(tmp_path, 3000, 7, "--policy", "calldown", "--site", "fulltilt", "--players", "2-4")
    assert_same_facts(tmp_path, at_least=25_000)


def test_the_schema_is_the_querys_even_with_no_rows() -> None:
    chunk = next(chunk for _, chunk in chunks_of(SAMPLES / "pokerstars") if chunk.tables[ROWS_TABLE].num_rows)
    rows, hands = chunk.tables[ROWS_TABLE], chunk.tables["hands"]
    assert as_read(rows, hands).schema == sql_facts(chunk.tables).schema
    assert as_read(rows.slice(0, 0), hands).schema == sql_facts({}).schema and sql_facts({}).num_rows == 0


def test_the_stored_table_takes_the_rows_as_the_workers_and_the_sql_make_them() -> None:
    """The stored table's types are the tabulated rows' (no cast on insert) and the SQL's rows narrowed."""
    chunk = next(chunk for _, chunk in chunks_of(SAMPLES / "pokerstars") if chunk.tables[ROWS_TABLE].num_rows)
    con = duckdb.connect()
    con.execute(rows_table_ddl())
    stored = con.sql(f"SELECT * FROM {ROWS_TABLE}").to_arrow_table().schema
    assert [(field.name, field.type) for field in stored] == [(field.name, field.type) for field in rows_schema()]
    con.register("facts", sql_facts(chunk.tables))
    narrowed = con.sql(stored_rows_sql("SELECT * FROM facts")).to_arrow_table()
    assert by_player_hand(narrowed) == by_player_hand(chunk.tables[ROWS_TABLE].cast(narrowed.schema))


@pytest.mark.parametrize("cards", ["Kd Ks Kh", "9c 9d Ah", "Ah 7c As", "2c 7d Ah", "Kh 2h 9h", "9c Td Qh", "Ac Kd Jh",
                                   "Kc 2d 9h", "?? 2d 9h", "ah 2H 3c", "Tc Jd 2s", "Ac 2d 6h", "Ac 2d 9h", "Ac 2d", None])
def test_the_starting_hand_groups_are_the_sql_ones(cards: str | None) -> None:
    assert start_group(cards) == start_group_by_sql(cards)


def test_a_hand_whose_walk_failed_has_no_rows_and_the_others_keep_theirs() -> None:
    from hhtool.ingest.allin_step import allin_of
    from hhtool.ingest.rule_choice import make_replayer
    from hhtool.model import Hand
    from hhtool.replay import betting_of
    from hhtool.store.facts_rows import facts_table
    from hhtool.store.tables import hand_rows

    path = sorted((SAMPLES / "pokerstars").iterdir())[0]
    lines = read_file(path).lines
    parser = detect(lines)
    assert parser is not None
    replayer = make_replayer(None)
    hands = [hand for hand in map(parser.parse, parser.split(lines, str(path))) if isinstance(hand, Hand)][:4]
    items = [(hand, *replayer(hand)) for hand in hands]
    betting = [betting_of(hand, replayed) for hand, replayed, _ in items]
    allin = [allin_of(hand, replayed, None) for hand, replayed, _ in items]
    walked = facts_table(items, betting, allin, hand_rows(items, betting, allin))
    failed = facts_table(items, [None, *betting[1:]], allin, hand_rows(items, [None, *betting[1:]], allin))
    assert len(items) >= 2 and 0 in walked["hk"].to_pylist() and 1 in walked["hk"].to_pylist()
    assert 0 not in failed["hk"].to_pylist()
    assert failed.to_pylist() == [row for row in walked.to_pylist() if row["hk"] != 0]
