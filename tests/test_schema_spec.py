"""The table specification (hhtool/store/spec.py) is the one source of the store's tables: a fresh
store, a migrated old one, the row builders and docs/schema.md must all agree with it."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pytest

from hhtool.ingest.chunks import process_chunk
from hhtool.ingest.loader import import_file
from hhtool.ingest.reader import read_file
from hhtool.ingest.rule_choice import make_replayer
from hhtool.ingest.writer import CARRIED
from hhtool.model import FailedHand, FailureKind, Finish, Hand, RawHand, SkippedHand
from hhtool.replay.codes import Code
from hhtool.replay.result import Violation
from hhtool.sites import detect, parser_for
from hhtool.store import Store, document, schema, spec, tables
from hhtool.store.facts_rows import COVERED_TABLE, ROWS_TABLE, rows_schema
from hhtool.store.spec import INTEGER, Column, Role
from hhtool.store.tables import SpecMismatch
from tests.test_site_pokerstars import SPLIT_HAND
from tests.tournament_hands import stars_hand

REPO = Path(__file__).resolve().parents[1]


def layout(con: duckdb.DuckDBPyConnection) -> dict[str, Any]:
    """Every table's columns in order (name, type, nullable, default), the keyed tables' in their
    schema, the views' columns (by view name) and the keys."""
    columns: dict[str, list[tuple[Any, ...]]] = {}
    views: dict[str, list[tuple[Any, ...]]] = {}
    for name, column, kind, nullable, default, table_type in con.execute(
            "SELECT c.table_name, c.column_name, c.data_type, c.is_nullable, c.column_default, t.table_type "
            "FROM information_schema.columns c JOIN information_schema.tables t USING (table_schema, table_name) "
            f"WHERE c.table_schema IN ('main', '{spec.KEYED}') AND t.table_catalog = current_database() "
            "AND c.table_catalog = current_database() ORDER BY c.table_name, c.ordinal_position").fetchall():
        into = views if table_type == "VIEW" else columns
        into.setdefault(name, []).append((column, kind, nullable, default))
    keys = sorted((name, kind, tuple(names)) for name, kind, names in con.execute(
        "SELECT table_name, constraint_type, constraint_column_names FROM duckdb_constraints() "
        "WHERE constraint_type IN ('PRIMARY KEY', 'UNIQUE')").fetchall())
    return {"columns": columns, "views": views, "keys": keys}


def version_1_store() -> duckdb.DuckDBPyConnection:
    """A store as the first hhtool wrote it (schema version 1)."""
    con = duckdb.connect(":memory:")
    con.execute("CREATE TABLE schema_version (version INTEGER NOT NULL, applied_at TIMESTAMP NOT NULL)")
    con.execute(schema.MIGRATIONS[0])
    con.execute("INSERT INTO schema_version VALUES (1, current_timestamp)")
    return con


def fresh_store() -> duckdb.DuckDBPyConnection:
    con = duckdb.connect(":memory:")
    schema.migrate(con)
    return con


def test_a_fresh_store_is_the_spec_at_the_current_version() -> None:
    con = fresh_store()
    assert con.execute("SELECT version FROM schema_version").fetchall() == [(schema.CURRENT_VERSION,)]
    found = layout(con)
    assert set(found["columns"]) == set(spec.BY_NAME)
    for table in spec.TABLES:
        assert [(c[0], c[1], c[2] == "YES") for c in found["columns"][table.name]] == \
            [(c.name, c.type, c.null) for c in table.columns], table.name
    assert found["keys"] == [("hands", "PRIMARY KEY", ("site", "hand_id"))]
    # each keyed table is shown under its name by a view with the hand's (site, hand_id) in place of hk
    keyed = [table for table in spec.TABLES if table.keyed]
    assert keyed and set(found["views"]) == {table.name for table in keyed}
    for table in keyed:
        assert [c[0] for c in found["views"][table.name]] == ["site", "hand_id", *(c.name for c in table.columns[1:]),
                                                             *spec.VIEW_EXTRA_COLUMNS.get(table.name, ())]
        assert table.columns[0].name == "hk"


def test_a_migrated_version_1_store_equals_a_fresh_one() -> None:
    """Names, types, nullability, defaults and order of every column (the order too: `SELECT *` and
    the Parquet export show it), and the keys."""
    old = version_1_store()
    assert schema.migrate(old) == schema.CURRENT_VERSION
    assert [v for (v,) in old.execute("SELECT version FROM schema_version ORDER BY version").fetchall()] == \
        list(range(1, schema.CURRENT_VERSION + 1))
    assert layout(old) == layout(fresh_store())


def _sample_tables() -> dict[str, pa.Table]:
    """What the import's chunks build from every sample history (all sites)."""
    built: dict[str, list[pa.Table]] = {}
    for path in sorted(p for p in (REPO / "sample_histories").rglob("*") if p.is_file()):
        lines = read_file(path).lines
        parser = detect(lines)
        assert parser is not None, path
        for name, table in process_chunk(parser.name, list(parser.split(lines, str(path)))).tables.items():
            if name not in CARRIED:  # (handed to the batch's pass with the rows, not stored)
                built.setdefault(name, []).append(table)
    return {name: pa.concat_tables(parts) for name, parts in built.items()}


def test_every_builder_writes_its_table_as_the_spec_says() -> None:
    built = _sample_tables()
    hand = parser_for("pokerstars").parse(RawHand("a.txt", 1, tuple(SPLIT_HAND.splitlines())))
    assert isinstance(hand, Hand)
    replay, profile = make_replayer(None)(hand)
    violation = Violation("pokerstars", hand.hand_id, Code.ANTE, 5, "Bob", "expected", "actual", "message", "v.txt", 42)
    found = tables.replay_rows([(hand, dataclasses.replace(replay, violations=(violation,)), profile)])["violations"]
    raw = RawHand("b.txt", 7, ("PokerStars Hand #1: gibberish",))
    built |= {"violations": found,
              "import_errors": tables.failure_rows([FailedHand("pokerstars", "1", 8, "why", raw, FailureKind.ENDS_EARLY)]),
              "skipped_hands": tables.skipped_rows([SkippedHand("pokerstars", "2", "Razz", raw, "77", (
                  Finish("Bob", 2, None, None, 100, 9), Finish("Al", 1, 1250, "USD", 100, 10)))])}
    # no sample history is a tournament's last hand: the finishes of one stated by a small tournament hand
    finished = parser_for("pokerstars").parse(RawHand("t.txt", 1, tuple(stars_hand().splitlines())))
    assert isinstance(finished, Hand) and finished.finishes
    built["finishes"] = pa.concat_tables([built["finishes"], tables.hand_rows([(finished, None, None)], [None])["finishes"]])
    # the stats facts ride with the chunk's tables (the cache's, not the spec's: tests/test_facts_rows.py)
    assert built.pop(ROWS_TABLE).schema == rows_schema()
    assert built.pop(COVERED_TABLE).num_rows == built["hands"].num_rows
    # the tables the export and the replay code name (schema.HAND_TABLES, REPLAY_TABLES) are the ones built
    assert set(built) == {"hands", *schema.HAND_TABLES, *schema.REPLAY_TABLES, "import_errors", "skipped_hands"}
    assert set(schema.HAND_TABLES) == {t.name for t in spec.TABLES if t.role is Role.HAND_PART} and schema.REPLAY_TABLES
    for name, table in built.items():
        assert table.schema == tables.arrow_schema(name), name
        assert table.column_names == [c.name for c in spec.table(name).columns if not c.auto], name
        assert table.num_rows, name
    # values land in their own columns (two of the same type swapped would pass the schema; the
    # hand tables are checked so by tests/test_store.py::test_stored_hands_load_back_identical)
    assert found.to_pylist() == [{
        "hk": 0, "profile": profile, "code": "ANTE", "street": 5, "player": "Bob",
        "expected": "expected", "actual": "actual", "message": "message", "file": "v.txt", "line": 42}]
    assert built["import_errors"].to_pylist()[0] | {"raw_sha256": ""} == {
        "file": "b.txt", "first_line": 7, "last_line": 7, "line": 8, "site": "pokerstars", "hand_id": "1",
        "reason": "why", "raw_text": "PokerStars Hand #1: gibberish", "raw_sha256": "", "kind": "ends_early"}
    assert built["skipped_hands"].to_pylist() == [
        {"file": "b.txt", "first_line": 7, "site": "pokerstars", "hand_id": "2", "game": "Razz", "tournament_id": "77",
         "finish_players": ["Bob", "Al"], "finish_places": [2, 1], "finish_prizes": [None, 1250],
         "finish_currencies": [None, "USD"], "finish_units": [100, 100], "finish_lines": [9, 10]}]
    assert tables.skipped_rows([SkippedHand("pokerstars", "3", "Razz", raw)]).to_pylist()[0]["finish_players"] is None


def test_a_builder_that_disagrees_with_the_spec_fails() -> None:
    with pytest.raises(SpecMismatch, match="without `of`"):
        tables.Rows("actions", ("site", "hand_id"))  # the spec has seq too
    with pytest.raises(SpecMismatch, match="wants"):
        tables.ACTIONS.table({"site": [], "hand_id": []}, [])


def test_a_column_added_in_the_spec_with_its_migration_is_stored(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The two edits a new model field needs, and nothing else: the row builder reads it by `of`."""
    actions = spec.table("actions")
    grown = dataclasses.replace(actions, columns=(*actions.columns, Column("line_again", INTEGER, "test", null=True, of="line")))
    monkeypatch.setattr(spec, "TABLES", tuple(grown if t is actions else t for t in spec.TABLES))
    monkeypatch.setitem(spec.BY_NAME, "actions", grown)
    migrations = [*schema.MIGRATIONS, "ALTER TABLE keyed.actions ADD COLUMN line_again INTEGER;"]
    monkeypatch.setattr(schema, "MIGRATIONS", migrations)
    for module in (schema, sys.modules["hhtool.store"]):
        monkeypatch.setattr(module, "CURRENT_VERSION", len(migrations))
    monkeypatch.setattr(schema, "SPEC_VERSION", len(migrations))
    monkeypatch.setattr(tables, "ACTIONS", tables.Rows("actions", tables.ACTIONS_GIVEN))  # built again from the grown spec
    path = tmp_path / "a.txt"
    path.write_text(SPLIT_HAND, encoding="utf-8")
    with Store(":memory:") as store:
        import_file(store, path, path.read_bytes(), store_facts=False)
        pairs = store.run("SELECT line, line_again FROM actions")
    assert pairs and all(line == again for line, again in pairs)
    old = version_1_store()
    schema.migrate(old)
    assert layout(old) == layout(fresh_store())


def test_docs_schema_md_is_what_the_spec_generates() -> None:
    text = (REPO / "docs" / "schema.md").read_text(encoding="utf-8")
    start, end = text.index(document.BEGIN), text.index(document.END) + len(document.END) + 1
    assert text[start:end] == document.markdown(), "regenerate: python -m hhtool.store.document --write docs/schema.md"
    for table in spec.TABLES:  # the generated part names every table and column
        assert f"### `{table.name}`" in text
        assert all(f"| `{column.name}` |" in text[start:end] for column in table.columns)


def test_the_document_command_prints_the_tables_and_a_ddl_that_builds_a_fresh_store(tmp_path: Path) -> None:
    run = [sys.executable, "-m", "hhtool.store.document"]
    printed = subprocess.run(run, capture_output=True, text=True, check=True, cwd=REPO)
    assert printed.stdout == document.markdown() and not printed.stderr
    sql = subprocess.run([*run, "--sql"], capture_output=True, text=True, check=True, cwd=REPO).stdout
    con = duckdb.connect(":memory:")
    con.execute(sql)
    assert layout(con) == layout(fresh_store())
    target = tmp_path / "schema.md"
    target.write_text(f"intro\n{document.BEGIN}\nstale\n{document.END}\noutro\n", encoding="utf-8")
    subprocess.run([*run, "--write", str(target)], check=True, cwd=REPO)
    assert target.read_text(encoding="utf-8") == f"intro\n{document.markdown()}outro\n"
    target.write_text("no markers\n", encoding="utf-8")
    failed = subprocess.run([*run, "--write", str(target)], capture_output=True, text=True, cwd=REPO)
    assert failed.returncode != 0 and "markers" in failed.stderr and target.read_text(encoding="utf-8") == "no markers\n"
