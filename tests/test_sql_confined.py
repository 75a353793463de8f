"""`hhtool sql` is read-only and confined: each escape the issue found (ATTACH another store or the
store itself READ_WRITE, COPY TO a path, reading any file, unbounded queries, settings, extensions)
is refused with one clear line and exit 2, and changes nothing; analytic queries still work."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import duckdb
import polars as pl
import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.store.confined import check_statement, open_confined, run_query
from tests.inputs import copy_store

runner = CliRunner()


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory, pokerstars_samples_store: Path) -> dict[str, Path]:
    """The store the queries run on, another hhtool store, and a hard link to the first (the two
    stores are copies of the PokerStars sample histories' store)."""
    folder = tmp_path_factory.mktemp("sql")
    store, other = folder / "store.duckdb", folder / "other.duckdb"
    for path in (store, other):
        copy_store(pokerstars_samples_store, path)
    os.link(store, folder / "hardlink.duckdb")
    return {"store": store, "other": other, "hardlink": folder / "hardlink.duckdb", "folder": folder}


def hands(path: Path) -> int:
    con = duckdb.connect(str(path), read_only=True)
    try:
        return int(con.execute("SELECT count(*) FROM hands").fetchall()[0][0])
    finally:
        con.close()


def sql(store: Path, query: str, *options: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["sql", "--db", str(store), *options, "--", query])
    return result.exit_code, result.stdout, result.stderr


def assert_refused(code: int, stdout: str, stderr: str, *words: str) -> None:
    assert code == 2, (stdout, stderr)
    assert "Traceback" not in stderr and stdout == ""
    assert len(stderr.strip().splitlines()) == 1, stderr  # one line, however long
    for word in words:
        assert word in stderr, stderr


# ------------------------------------------------------------------ each escape, through the CLI

STATEMENTS_REFUSED_BY_TYPE = [
    ("ATTACH '{other}' AS o (READ_WRITE)", "ATTACH is not allowed"),
    ("ATTACH '{hardlink}' AS self_again (READ_WRITE)", "ATTACH is not allowed"),
    ("ATTACH ':memory:' AS scratch", "ATTACH is not allowed"),
    ("DETACH store", "DETACH is not allowed"),
    ("USE memory", "USE is not allowed"),
    ("COPY (SELECT 'owned') TO '{folder}/copied.csv'", "COPY is not allowed"),
    ("COPY hands FROM '{folder}/copied.csv'", "COPY is not allowed"),
    ("EXPORT DATABASE '{folder}/exported'", "EXPORT is not allowed"),
    ("IMPORT DATABASE '{folder}/exported'", "IMPORT is not allowed"),
    ("PRAGMA enable_profiling", "PRAGMA is not allowed"),
    ("SET enable_external_access = true", "SET is not allowed"),
    ("SET allowed_directories = ['/']", "SET is not allowed"),
    ("RESET lock_configuration", "RESET is not allowed"),
    ("INSTALL httpfs", "INSTALL is not allowed"),
    ("LOAD httpfs", "LOAD is not allowed"),
    ("CHECKPOINT", "CHECKPOINT is not allowed"),
    ("CREATE SECRET leak (TYPE s3, KEY_ID 'a', SECRET 'b')", "CREATE is not allowed"),
    ("CREATE TEMP TABLE t AS SELECT 1", "CREATE is not allowed"),
    ("DELETE FROM hands", "DELETE is not allowed"),
    ("UPDATE hands SET total_pot = 0", "UPDATE is not allowed"),
    ("INSERT INTO hands SELECT * FROM hands", "INSERT is not allowed"),
    ("DROP TABLE hands", "DROP is not allowed"),
    ("CALL duckdb_settings()", "SELECT * FROM function"),
    ("PIVOT hands ON site USING count(*)", "explicit IN"),
    ("-- a comment first\n/* and another */ ATTACH '{other}' AS o", "ATTACH is not allowed"),
    ("SELECT 1; ATTACH '{other}' AS o (READ_WRITE)", "one statement at a time: 2"),
    ("ATTACH '{other}' AS o (READ_WRITE); DELETE FROM o.hands", "one statement at a time: 2"),
    ("SELECT 1; SELECT 2", "one statement at a time"),
    ("  ;  ", "no statement"),
]


@pytest.mark.parametrize(("statement", "reason"), STATEMENTS_REFUSED_BY_TYPE)
def test_statements_other_than_one_query_are_refused_with_one_line(stores: dict[str, Path], statement: str,
                                                                    reason: str) -> None:
    query = statement.format(**{name: str(path) for name, path in stores.items()})
    code, stdout, stderr = sql(stores["store"], query)
    assert_refused(code, stdout, stderr, reason)
    assert hands(stores["store"]) == hands(stores["other"]) == 122  # nothing deleted anywhere
    assert not (stores["folder"] / "copied.csv").exists() and not (stores["folder"] / "exported").exists()


FILE_READS = [
    "SELECT * FROM read_csv('/etc/shadow')",
    "SELECT * FROM read_csv('/etc/passwd', sep = ':')",
    "SELECT * FROM read_text('/etc/passwd')",
    "SELECT * FROM read_blob('/etc/hostname')",
    "SELECT * FROM glob('/etc/*')",
    "SELECT * FROM read_parquet('{folder}/*.parquet')",
    "SELECT * FROM sniff_csv('/etc/passwd')",
    "WITH x AS (SELECT * FROM read_text('{other}')) SELECT count(*) FROM x",
]


@pytest.mark.parametrize("statement", FILE_READS)
def test_queries_reading_files_are_refused_by_duckdb(stores: dict[str, Path], statement: str) -> None:
    code, stdout, stderr = sql(stores["store"], statement.format(folder=stores["folder"], other=stores["other"]))
    assert_refused(code, stdout, stderr, "refused:", "cannot read or write files")


def test_a_file_path_as_a_table_is_not_read(stores: dict[str, Path]) -> None:
    code, stdout, stderr = sql(stores["store"], "SELECT * FROM '/etc/passwd'")
    assert code == 2 and "root:" not in stdout + stderr and len(stderr.strip().splitlines()) == 1


def test_an_unbounded_query_is_stopped_at_the_timeout(stores: dict[str, Path]) -> None:
    started = time.monotonic()
    code, stdout, stderr = sql(stores["store"], "SELECT sum(range) FROM range(1e12::BIGINT)", "--timeout", "1")
    assert_refused(code, stdout, stderr, "longer than 1 s", "--timeout")
    assert time.monotonic() - started < 20


def test_a_result_or_a_query_beyond_the_memory_limit_is_refused(stores: dict[str, Path]) -> None:
    code, stdout, stderr = sql(stores["store"], "SELECT range FROM range(1e10::BIGINT)", "--memory", "64MiB",
                               "--format", "csv")
    assert_refused(code, stdout, stderr, "larger than 16 MiB (a quarter of --memory)", "LIMIT")
    # the table holds only the rows DuckDB's renderer reads (its cap), so it draws the same query
    code, stdout, stderr = sql(stores["store"], "SELECT range FROM range(1e10::BIGINT)", "--memory", "64MiB")
    assert code == 0 and ">9999 rows" in stdout, stderr
    code, stdout, stderr = sql(stores["store"], "SELECT list(range) FROM range(1e10::BIGINT)", "--memory", "64MiB")
    assert_refused(code, stdout, stderr, "more memory than its limit of 64 MiB")
    code, stdout, stderr = sql(stores["store"], "SELECT 1", "--memory", "lots")
    assert_refused(code, stdout, stderr, "--memory", "not a memory size")


def test_a_wrong_query_is_exit_2_with_duckdbs_reason(stores: dict[str, Path]) -> None:
    assert_refused(*sql(stores["store"], "SELECT * FROM no_such_table"), "no_such_table does not exist")
    assert_refused(*sql(stores["store"], "SELEC 1"), "syntax error")


# ------------------------------------------------------------------ DuckDB's own confinement, without the statement check


def test_the_confined_connection_itself_refuses_attach_copy_files_and_settings(stores: dict[str, Path]) -> None:
    """Even a statement that got past the statement check meets DuckDB's refusal; on an ordinary
    read-only connection the same statements work (so this test would see the hole)."""
    escapes = [
        f"ATTACH '{stores['other']}' AS o (READ_WRITE)",
        f"ATTACH '{stores['hardlink']}' AS h (READ_WRITE)",
        f"COPY (SELECT 1) TO '{stores['folder']}/from_confined.csv'",
        "SELECT count(*) FROM read_text('/etc/passwd')",
        "SELECT count(*) FROM glob('/etc/*')",
        "SET enable_external_access = true",
        "SET lock_configuration = false",
        "SET memory_limit = '100GB'",
        "LOAD httpfs",  # (json and parquet are built in: loading them reads nothing)
        "INSTALL httpfs",
    ]
    with open_confined(str(stores["store"]), "1GiB") as store:
        for statement in escapes:
            with pytest.raises(duckdb.Error):
                store.con.execute(statement).fetchall()
        settings = dict(store.run("SELECT name, value FROM duckdb_settings()"))
        assert settings["enable_external_access"] == "false" and settings["lock_configuration"] == "true"
        # the only files DuckDB may touch: the store's own (and its write-ahead log's)
        assert settings["allowed_directories"] == "[]"
        allowed = settings["allowed_paths"].strip("[]").split(", ")
        assert str(stores["store"]) in allowed and all(path.startswith(str(stores["store"])) for path in allowed)
        assert settings["autoload_known_extensions"] == "false" and settings["autoinstall_known_extensions"] == "false"
        assert settings["temp_directory"] == "" and settings["python_enable_replacements"] == "false"
        looks_like_a_table = pl.DataFrame({"secret": [1]})  # noqa: F841 - a replacement scan would find it
        with pytest.raises(duckdb.CatalogException):
            store.con.execute("SELECT * FROM looks_like_a_table").fetchall()
    assert not (stores["folder"] / "from_confined.csv").exists()
    ordinary = duckdb.connect(str(stores["store"]), read_only=True)
    try:
        assert ordinary.execute("SELECT count(*) FROM read_text('/etc/passwd')").fetchall()[0][0] == 1
        ordinary.execute(f"ATTACH '{stores['other']}' AS o (READ_ONLY)")
        assert ordinary.execute("SELECT count(*) FROM o.hands").fetchall()[0][0] == 122
    finally:
        ordinary.close()


def test_the_statement_check_passes_queries_and_stops_the_rest(stores: dict[str, Path]) -> None:
    con = duckdb.connect()
    for query in ("SELECT 1", "WITH a AS (SELECT 1) SELECT * FROM a", "FROM range(3)", "VALUES (1)",
                  "DESCRIBE SELECT 1", "SHOW TABLES", "SUMMARIZE SELECT 1 AS x"):
        check_statement(con, query)
    with pytest.raises(ValueError, match="one statement at a time"):
        check_statement(con, "SELECT 1; SELECT 2")


# ------------------------------------------------------------------ analytic queries still work, confined


def test_joins_ctes_windows_and_list_columns_work_under_the_confinement(stores: dict[str, Path]) -> None:
    query = """
        WITH per_player AS (
            SELECT s.player, count(*) AS hands, sum(r.net)::BIGINT AS net
            FROM seats s JOIN results r ON r.site = s.site AND r.hand_id = s.hand_id AND r.player = s.player
            GROUP BY s.player
        )
        SELECT player, hands, net, rank() OVER (ORDER BY net DESC, player) AS place,
               (sum(hands) OVER ())::BIGINT AS all_seats
        FROM per_player ORDER BY place"""
    code, stdout, stderr = sql(stores["store"], query, "--format", "json")
    assert code == 0, stderr
    rows = json.loads(stdout)
    con = duckdb.connect(str(stores["store"]), read_only=True)
    try:
        expected = con.execute(query).fetchall()
        cards = con.execute("SELECT hand_id, list(card ORDER BY seq) FROM cards WHERE card IS NOT NULL "
                            "GROUP BY hand_id ORDER BY hand_id LIMIT 3").fetchall()
    finally:
        con.close()
    assert [tuple(row.values()) for row in rows] == [tuple(row) for row in expected] and len(rows) > 5
    assert [row["place"] for row in rows] == list(range(1, len(rows) + 1))
    code, stdout, stderr = sql(stores["store"], "SELECT hand_id, list(card ORDER BY seq) AS cards FROM cards WHERE card "
                               "IS NOT NULL GROUP BY hand_id ORDER BY hand_id LIMIT 3", "--format", "json")
    assert code == 0, stderr
    assert [(row["hand_id"], row["cards"]) for row in json.loads(stdout)] == cards
    code, stdout, stderr = sql(stores["store"], "SELECT count(*) AS with_notes FROM hands WHERE len(notes) >= 0 "
                               "AND list_contains(notes || ['x'], 'x')", "--format", "csv")
    assert code == 0 and stdout.splitlines() == ["with_notes", "122"], stderr


@pytest.mark.parametrize("query", [
    "DESCRIBE hands",
    "SUMMARIZE SELECT total_pot FROM hands",
    "SHOW TABLES",
    "FROM hands SELECT count(*)",
    "PIVOT (SELECT site, structure FROM hands) ON structure IN ('fixed_limit') USING count(*) GROUP BY site",
    "SELECT table_name FROM information_schema.tables WHERE table_name = 'hands'",
    "-- the hand count\nSELECT count(*) FROM hands",
    "SELECT unnest(['a', 'b']) AS letter",
])
def test_other_read_only_query_forms_work(stores: dict[str, Path], query: str) -> None:
    code, stdout, stderr = sql(stores["store"], query, "--format", "csv")
    assert code == 0 and stdout.strip(), stderr


def test_run_query_returns_the_same_frame_as_an_unconfined_connection(stores: dict[str, Path]) -> None:
    query = "SELECT site, hand_id, total_pot FROM hands ORDER BY hand_id"
    with open_confined(str(stores["store"]), "1GiB") as store:
        confined = run_query(store, query, timeout=30)
    con = duckdb.connect(str(stores["store"]), read_only=True)
    try:
        plain = pl.from_arrow(con.sql(query).to_arrow_table())
    finally:
        con.close()
    assert confined.equals(plain) and confined.height == 122


def test_the_table_shows_values_and_names_as_they_are_not_as_markup(stores: dict[str, Path]) -> None:
    code, stdout, stderr = sql(stores["store"], "SELECT '[red]Bob[/red] [bold]' AS \"who[x]\"")
    assert code == 0, stderr
    assert "[red]Bob[/red] [bold]" in stdout and "who[x]" in stdout
