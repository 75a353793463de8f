"""The embedded DuckDB store: hands, their parts, replay findings and import errors.

Writes are bulk (Arrow tables inserted by name) and one transaction per batch, so a crash
leaves either the whole batch or none of it. A hand is identified by (site, hand_id);
storing a hand that is already there is a duplicate, never a second copy.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pyarrow as pa

from hhtool.model import Hand
from hhtool.store.schema import HAND_TABLES, REPLAY_TABLES, migrate
from hhtool.store.tables import replay_rows

DEFAULT_DB = "hhtool.duckdb"
DB_ENV = "HHTOOL_DB"
LOCK_TIMEOUT_ENV = "HHTOOL_LOCK_TIMEOUT"
DEFAULT_LOCK_TIMEOUT = 30.0
_MEMORY_SIZE = re.compile(r"\d+(\.\d+)?\s*(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)", re.IGNORECASE)


def resolve_db_path(option: str | None) -> str:
    """--db wins, then $HHTOOL_DB, then hhtool.duckdb in the current directory."""
    return option or os.environ.get(DB_ENV) or DEFAULT_DB


class StoreLocked(RuntimeError):
    """Another process holds the database for writing."""


class Store:
    def __init__(self, path: str, read_only: bool = False, lock_timeout: float | None = None) -> None:
        """Open (and migrate) the store. When another process holds the file, wait up to
        ``lock_timeout`` seconds (default $HHTOOL_LOCK_TIMEOUT or 30) before giving up clearly."""
        self.path = path
        if path != ":memory:":
            Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)
        if lock_timeout is None:
            lock_timeout = float(os.environ.get(LOCK_TIMEOUT_ENV, DEFAULT_LOCK_TIMEOUT))
        deadline = time.monotonic() + lock_timeout
        while True:
            try:
                self.con = duckdb.connect(path, read_only=read_only and path != ":memory:")
                break
            except duckdb.IOException as error:
                if "lock" not in str(error).lower():
                    raise
                if time.monotonic() >= deadline:
                    raise StoreLocked(
                        f"database {path} is in use by another process and stayed locked for {lock_timeout:g} s; "
                        f"nothing was written. ({error})"
                    ) from error
                time.sleep(0.2)
        if not read_only or path == ":memory:":
            migrate(self.con)

    def limit_memory(self, limit: str) -> None:
        """Cap DuckDB's buffer pool (e.g. ``512MiB``): by default it may grow to 80 % of the
        machine's memory, and an import's inserts and facts refresh would keep it filled."""
        if not _MEMORY_SIZE.fullmatch(limit.strip()):
            raise ValueError(f"not a memory size: {limit!r} (e.g. 512MiB, 2GB)")
        self.run(f"SET memory_limit = '{limit.strip()}'")

    def close(self) -> None:
        self.con.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------ reading

    def known_hand_ids(self, site: str, hand_ids: Iterable[str]) -> set[str]:
        ids = list(set(hand_ids))
        if not ids:
            return set()
        probe = pa.table({"hand_id": pa.array(ids, pa.string())})
        self.con.register("probe_ids", probe)
        try:
            rows = self.run(
                "SELECT h.hand_id FROM hands h JOIN probe_ids p ON h.hand_id = p.hand_id WHERE h.site = ?", [site]
            )
        finally:
            self.con.unregister("probe_ids")
        return {row[0] for row in rows}

    def file_by_content(self, sha256: str) -> dict[str, Any] | None:
        """The latest import of a file with exactly these bytes, if any."""
        return self._one_file("sha256 = ?", sha256)

    def last_import_of(self, path: str) -> dict[str, Any] | None:
        return self._one_file("path = ?", path)

    def _one_file(self, condition: str, value: str) -> dict[str, Any] | None:
        cursor = self.con.execute(f"SELECT * FROM files WHERE {condition} ORDER BY imported_at DESC LIMIT 1", [value])
        names = [d[0] for d in cursor.description]
        rows = cursor.fetchall()
        return dict(zip(names, rows[0], strict=True)) if rows else None

    def errors_of(self, path: str) -> list[tuple[int, str]]:
        return [(int(line), str(reason)) for line, reason in
                self.run("SELECT line, reason FROM import_errors WHERE file = ? ORDER BY line", [path])]

    def run(self, sql: str, params: Sequence[Any] | None = None) -> list[tuple[Any, ...]]:
        """Execute one statement and fetch everything (DuckDB 2 keeps a connection busy until then)."""
        return self.con.execute(sql, params or []).fetchall()

    def frame(self, sql: str, params: Sequence[Any] | None = None) -> pl.DataFrame:
        """A query's result as a Polars frame."""
        result = pl.from_arrow(self.con.sql(sql, params=params or None).to_arrow_table())
        assert isinstance(result, pl.DataFrame)
        return result

    # ------------------------------------------------------------ writing

    def write_tables(self, tables: dict[str, pa.Table], new_only: dict[str, tuple[str, ...]] | None = None,
                     first: Sequence[tuple[str, Sequence[Any]]] = ()) -> None:
        """Insert rows into several tables in one transaction (all of them or none). ``new_only``
        names, per table, the columns that identify a row: rows already there are not inserted
        again (a re-run after an interrupted import). ``first``: statements run before, in it."""
        self.run("BEGIN TRANSACTION")
        try:
            for sql, params in first:
                self.run(sql, params)
            for name, table in tables.items():
                if table.num_rows:
                    self._insert(name, table, (new_only or {}).get(name, ()))
            self.run("COMMIT")
        except Exception:
            self.run("ROLLBACK")
            raise

    def _insert(self, name: str, table: pa.Table, key: tuple[str, ...] = ()) -> None:
        view = f"incoming_{name}"
        self.con.register(view, table)
        try:
            sql = f"INSERT INTO {name} BY NAME SELECT * FROM {view}"
            if key:
                match = " AND ".join(f"t.{column} IS NOT DISTINCT FROM {view}.{column}" for column in key)
                sql += f" WHERE NOT EXISTS (SELECT 1 FROM {name} t WHERE {match})"
            self.run(sql)
        finally:
            self.con.unregister(view)

    def replace_replay(self, rows: list[tuple[Hand, Any, str]]) -> None:
        """Store new replay findings for hands already stored (audit under another profile)."""
        tables = replay_rows(rows)
        self.run("BEGIN TRANSACTION")
        try:
            keys = pa.table({
                "site": [hand.site for hand, _, _ in rows],
                "hand_id": [hand.hand_id for hand, _, _ in rows],
                "profile": [profile for _, _, profile in rows],
            })
            self.con.register("replaced_keys", keys)
            for name in REPLAY_TABLES:
                self.run(
                    f"DELETE FROM {name} USING replaced_keys k WHERE {name}.site = k.site "
                    f"AND {name}.hand_id = k.hand_id AND {name}.profile = k.profile"
                )
            self.con.unregister("replaced_keys")
            for name, table in tables.items():
                if name in REPLAY_TABLES and table.num_rows:
                    self._insert(name, table)
            self.run("COMMIT")
        except Exception:
            self.run("ROLLBACK")
            raise


__all__ = ["DB_ENV", "DEFAULT_DB", "HAND_TABLES", "Store", "StoreLocked", "resolve_db_path"]
