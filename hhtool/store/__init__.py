"""The embedded DuckDB store: hands, their parts, replay findings and import errors.

Writes are bulk (Arrow tables inserted by name) and one transaction per batch, so a crash
leaves either the whole batch or none of it. A hand is identified by (site, hand_id);
storing a hand that is already there is a duplicate, never a second copy. Its rows in the per-hand
tables refer to it by its number ``hands.hk``, given when its batch is written (:meth:`Store.write_tables`).

DuckDB lets one process write a file and keeps every other process out meanwhile (readers share
it among themselves). An import therefore holds its write connection only while it uses it
(:meth:`Store.share_between_batches`, then each batch a :meth:`Store.batch` scope): between batches, and between the
polls of ``--watch``, readers open the file; each side waits a bounded time for the other
($HHTOOL_LOCK_TIMEOUT), telling who holds the file (:mod:`hhtool.store.holders`).
"""

from __future__ import annotations

import contextlib
import importlib.util
import math
import os
import re
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hhtool.store.holders import Holder, holder_of
from hhtool.store.schema import CURRENT_VERSION, HAND_TABLES, REPLAY_TABLES, SchemaTooNew, current_version, migrate
from hhtool.store.spec import BY_NAME

if TYPE_CHECKING:
    import duckdb
else:
    def _loaded_on_first_use(name: str) -> Any:
        """``name`` as a module that loads when first used: an import's workers build the store's rows
        from this package and never open a connection, and DuckDB costs each one 15 MiB resident
        (measured: 83 -> 68 MiB after the worker's imports); see the stdlib's importlib.util.LazyLoader."""
        if name in sys.modules:
            return sys.modules[name]
        spec = importlib.util.find_spec(name)
        assert spec is not None and spec.loader is not None
        spec.loader = importlib.util.LazyLoader(spec.loader)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        return module

    duckdb = _loaded_on_first_use("duckdb")

if TYPE_CHECKING:  # Polars, PyArrow and the rows of a replay load where they are used: a reader (`show`) needs none
    import polars as pl
    import pyarrow as pa

    from hhtool.model import Hand

DEFAULT_DB = "hhtool.duckdb"
DB_ENV = "HHTOOL_DB"
LOCK_TIMEOUT_ENV = "HHTOOL_LOCK_TIMEOUT"
DEFAULT_LOCK_TIMEOUT = 30.0
_MEMORY_SIZE = re.compile(r"(\d+(?:\.\d+)?)\s*(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)", re.IGNORECASE)
_MEMORY_UNITS = {"b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12,
                 "kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40}
#: seconds between two attempts to open a file another process holds
_RETRY_EVERY = 0.1
#: a writer taking its file back between batches tells that it waits only once it waited this long
_QUIET_WAIT = 1.0
#: a writer that held its file this long leaves it free at least _GAP seconds before taking it back:
#: file locks are not fair, and a reader that waited (it retries every _RETRY_EVERY) gets its turn
_LONG_HOLD, _GAP = 1.0, 0.3
#: DuckDB's block size for a store made afresh (a file keeps the size it was made with): every table's segments
#: take whole blocks of their own, so 64 KiB instead of DuckDB's 256 KiB wastes less (#37; a fresh copy of a
#: store of 10,000 real hands: 1,102 -> 827 bytes per hand; of 100,000 simulated ones: 1,033 -> 948; 128 KiB
#: gave 1,050 on the simulated, 32 KiB 2,574 and 16 KiB 3,593: smaller blocks than 64 KiB cut segments too short)
NEW_STORE_BLOCK_SIZE = 65_536
# DuckDB's words for a file that is not (or no longer) a whole database
_DAMAGED = ("not a valid DuckDB database", "Could not read enough bytes", "checksum", "Corrupt", "corrupt")


class SettingError(ValueError):
    """An $HHTOOL_* variable (or --db) holds a value that cannot be used."""


class StoreError(RuntimeError):
    """The store could not be opened, read or written. The message is one line naming the file."""


class StoreMissing(StoreError):
    """A reader was pointed at a database file that does not exist."""

    def __init__(self, path: str) -> None:
        super().__init__(f"no database at {path} yet: run `hhtool import PATH` first")
        self.path = path


class StoreDamaged(StoreError):
    """The file is not a DuckDB database, or a truncated or corrupted one."""


class StoreLocked(StoreError):
    """Another process held the database for as long as this one could wait (for writing; or for
    reading while this one wants to write). ``resumed``: a writer taking it back between batches,
    which has written the batches before."""

    def __init__(self, path: str, waited: float, read_only: bool, holder: Holder, resumed: bool = False) -> None:
        verb = "read" if read_only else "write"
        kept = "kept it locked" if holder.writing else "kept it open"
        outcome = "" if read_only or resumed else "nothing was written; "
        super().__init__(f"could not {verb} database {path}: {holder.describe()} {kept} for {waited:g} s; "
                         f"{outcome}try again when it is done, or wait longer with {LOCK_TIMEOUT_ENV}=SECONDS")
        self.path, self.waited, self.read_only, self.holder = path, waited, read_only, holder


class SchemaTooOld(StoreError):
    """A reader found a store written by an older hhtool: it must be migrated before it can be read."""


def default_db_path() -> str:
    """The database a command opens when nothing names one: ``hhtool.duckdb`` in the user's data folder
    (``platformdirs``: ``$XDG_DATA_HOME/hhtool`` or ``~/.local/share/hhtool`` on Linux, ``~/Library/Application
    Support/hhtool`` on macOS, ``%LOCALAPPDATA%\\hhtool`` on Windows), so every command finds it from any folder."""
    import platformdirs

    return str(Path(platformdirs.user_data_dir("hhtool", appauthor=False)) / DEFAULT_DB)


def resolve_db_path(option: str | None, configured: Callable[[], str | None] | None = None) -> str:
    """--db wins, then $HHTOOL_DB (unless empty), then what ``configured`` gives (the user's config
    file, which the service reads: asked only when neither names a file), then :func:`default_db_path`."""
    return chosen_db_path(option, configured)[0]


def chosen_db_path(option: str | None, configured: Callable[[], str | None] | None = None) -> tuple[str, str]:
    """The database file :func:`resolve_db_path` picks, and what picked it: ``--db``, ``$HHTOOL_DB``,
    ``config`` or ``default``."""
    source, path = ("--db", option) if option else (f"${DB_ENV}", os.environ.get(DB_ENV, "").strip())
    if not path and configured is not None:
        source, path = "config", configured() or ""
    if not path:
        return default_db_path(), "default"
    named = "the config file's database" if source == "config" else source
    if path != ":memory:" and Path(path).expanduser().is_dir():
        raise SettingError(f"{named} {path} is a folder; name a database file, e.g. {Path(path) / DEFAULT_DB}")
    real = os.path.realpath(os.path.expanduser(path)) if path != ":memory:" else ""
    if os.sep == "/" and "\\" in real:
        # a legal name here, but DuckDB reads each '\' of a database path as '/': it would open another file
        raise SettingError(f"{named} {path}: DuckDB, which hhtool stores in, reads '\\' in a database path as '/' "
                           f"and would open {real.replace(chr(92), '/')} instead; name a path without '\\'")
    if "?" in real:
        # DuckDB reads what follows a '?' as parameters: the write-ahead log of a/b?c/x.duckdb goes to
        # a/b.wal?c/x.duckdb, so a commit fails (a folder named with '?') or the log lands under another name
        raise SettingError(f"{named} {path}: DuckDB, which hhtool stores in, reads what follows '?' in a database "
                           f"path as parameters and would keep its log elsewhere; name a path without '?'")
    return path, source


def lock_timeout_from_env() -> float:
    """Seconds to wait for a database another process holds: $HHTOOL_LOCK_TIMEOUT, default 30."""
    text = os.environ.get(LOCK_TIMEOUT_ENV, "").strip()
    if not text:
        return DEFAULT_LOCK_TIMEOUT
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not math.isfinite(seconds) or seconds < 0:
        raise SettingError(f"${LOCK_TIMEOUT_ENV} must be a number of seconds (0 or more), not {text!r}")
    return seconds


def memory_size(text: str) -> int:
    """Bytes in a DuckDB memory size such as ``512MiB`` or ``2GB``."""
    match = _MEMORY_SIZE.fullmatch(text.strip())
    if not match:
        raise SettingError(f"not a memory size: {text!r} (e.g. 512MiB, 2GB)")
    return int(float(match.group(1)) * _MEMORY_UNITS[match.group(2).lower()])


def raise_if_interrupted(error: BaseException) -> None:
    """A Ctrl-C that arrives while DuckDB reads a registered Python object (a batch's Arrow table)
    comes back as DuckDB's own error naming it ("counting the rows of the object registered as
    'awards' failed: KeyboardInterrupt"): raise it as the KeyboardInterrupt it is (exit 130 and
    "interrupted", not a store error or an internal one)."""
    if "failed: KeyboardInterrupt" in str(error):
        raise KeyboardInterrupt from error


def duckdb_message(error: BaseException) -> str:
    """DuckDB's message on one line: its first line, and a "Did you mean" hint when it gives one."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    if not lines:
        return type(error).__name__
    hint = next((line for line in lines[1:] if line.startswith("Did you mean")), None)
    return lines[0] + (f" {hint}" if hint else "")


def is_damage(message: str) -> bool:
    """Whether DuckDB's message says the file is not a whole database (truncated, corrupted, not one)."""
    return any(word in message for word in _DAMAGED)


def _open_error(error: duckdb.Error, path: str) -> StoreError:
    message = duckdb_message(error).removeprefix("IO Error: ")
    if "Could not read enough bytes" in message:  # its header or metadata lies past the file's end
        return StoreDamaged(f"database {path} is truncated: it ends before blocks it needs ({message})")
    if is_damage(message):
        return StoreDamaged(f"database {path} is damaged or not a DuckDB database ({message})")
    return StoreError(f"cannot open database {path}: {message}")


class Store:
    def __init__(self, path: str, read_only: bool = False, lock_timeout: float | None = None,
                 on_wait: Callable[[str], None] | None = None, config: dict[str, Any] | None = None,
                 on_upgrade: Callable[[int, int], None] | None = None) -> None:
        """Open the store: a writer migrates it to the current schema, a reader checks that it is
        an hhtool store of exactly this schema. When another process holds the file, wait up to
        ``lock_timeout`` seconds (default $HHTOOL_LOCK_TIMEOUT or 30), telling ``on_wait`` once
        what it waits for ("an import (…, PID 1234) is writing a batch"), before giving up with
        :class:`StoreLocked`. ``config`` is passed to DuckDB at connection (e.g. the confinement of
        :mod:`hhtool.store.confined`). ``on_upgrade`` is told (the file's schema version, this
        hhtool's) before a writer migrates an existing store: a migration may rewrite every hand's rows."""
        self.path = path
        self._on_upgrade = on_upgrade
        in_memory = path == ":memory:"
        read_only = read_only and not in_memory
        self._con: duckdb.DuckDBPyConnection | None = None
        self._closed = False
        self._shared = False  # release() gives the file back (share_between_batches)
        self._settings: list[str] = []  # statements run again on taking the file back
        self._lock_timeout = lock_timeout_from_env() if lock_timeout is None else lock_timeout
        self._on_wait, self._config = on_wait, config or {}
        self._held_since = self._released_at = time.monotonic()
        self._long_hold = False
        if read_only and not Path(path).expanduser().exists():
            raise StoreMissing(path)
        if not read_only and not in_memory:
            folder = Path(path).expanduser().parent
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except FileExistsError:
                raise StoreError(f"cannot create database {path}: part of {folder} is a file, not a folder") from None
            except OSError as error:
                raise StoreError(f"cannot create database {path}: {error.strerror or error}") from None
        self._con = self._connect(read_only)
        try:
            if not in_memory:
                self._check_length()
            self._check_schema(read_only)
        except BaseException:
            self.close()
            raise

    @property
    def con(self) -> duckdb.DuckDBPyConnection:
        """The connection; a store that gave its file back between batches takes it back here
        (waiting, as at open, while another process holds it)."""
        if self._con is None:
            if self._closed:
                raise duckdb.ConnectionException(f"the store {self.path} is closed")
            if self._long_hold:  # a reader's turn, if one waited
                time.sleep(max(0.0, self._released_at + _GAP - time.monotonic()))
            self._con = self._connect(read_only=False, resumed=True)
            self._held_since = time.monotonic()
            try:
                for statement in self._settings:
                    self._con.execute(statement)
                self._check_schema(read_only=False)  # (another hhtool may have migrated it meanwhile)
            except BaseException:
                self.release(force=True)
                raise
        return self._con

    def _connect(self, read_only: bool, resumed: bool = False) -> duckdb.DuckDBPyConnection:
        started = time.monotonic()
        told = False
        while True:
            try:
                self._make_file(read_only)
                return duckdb.connect(self.path, read_only=read_only, config=self._config)
            except duckdb.Error as error:
                holder = holder_of(error, self.path, read_only)
                if holder is None:
                    raise _open_error(error, self.path) from error
                waited = time.monotonic() - started
                if waited >= self._lock_timeout:
                    raise StoreLocked(self.path, self._lock_timeout, read_only, holder, resumed) from None
                if self._on_wait is not None and not told and (not resumed or waited >= _QUIET_WAIT):
                    self._on_wait(f"{holder.describe()} {holder.doing()}")
                    told = True
                time.sleep(_RETRY_EVERY)

    def _make_file(self, read_only: bool) -> None:
        """A store about to be made is made first with :data:`NEW_STORE_BLOCK_SIZE` and closed: a connection
        that kept that setting would differ from every later one in this process (`serve --watch`'s pages
        beside its importer), and DuckDB refuses a second connection to a file with another configuration."""
        if read_only or self.path == ":memory:" or Path(self.path).expanduser().exists():
            return
        duckdb.connect(self.path, config={"default_block_size": str(NEW_STORE_BLOCK_SIZE), **self._config}).close()

    def share_between_batches(self) -> None:
        """From now on hold the file only inside :meth:`batch` scopes (a file-backed writer only: an
        in-memory store would lose everything): it is given back now, and at the end of each batch."""
        self._shared = self.path != ":memory:"
        self.release()

    @contextlib.contextmanager
    def batch(self) -> Iterator[Store]:
        """One batch of a writer that shares its file (:meth:`share_between_batches`): the block takes
        the file back at its first use of the store and gives it back at its end, whatever happened
        in it, so that a reader waiting gets its turn between two batches. Scopes do not nest: an inner
        one gives the file back at its end too (the next use takes it again). Never open one around a
        transaction that outlives it (each write is one whole call inside). A store not shared keeps
        its file."""
        try:
            yield self
        finally:
            self.release()

    def release(self, force: bool = False) -> None:
        """Between batches: close the connection, so that readers can open the file; the next use
        of :attr:`con` opens it again. Never inside a transaction (each write is one whole call)."""
        if (self._shared or force) and self._con is not None:
            con, self._con = self._con, None
            con.close()
            self._released_at = time.monotonic()
            self._long_hold = self._released_at - self._held_since >= _LONG_HOLD

    @property
    def holds_file(self) -> bool:
        """Whether the store holds its connection now (not closed, not released between batches)."""
        return self._con is not None

    def _check_length(self) -> None:
        """A file cut short (a copy interrupted, a disk that filled) opens, and fails only on the
        first read past its end, possibly in the middle of a report or an import: compare its length
        with the blocks its header says it has, once, at open. (Skipped while a write-ahead log is
        pending: its blocks are not in the file yet.)"""
        file = Path(self.path).expanduser()
        if Path(f"{file}.wal").exists():
            return
        rows = self.con.execute("PRAGMA database_size").fetchall()
        if not rows:
            return
        # the blocks in use, not the total: DuckDB may cut free blocks off the end of the file, so a
        # sound file can be shorter than its total (seen: 33 of 34 blocks on disk, the last one free)
        block_size, used_blocks = int(rows[0][2]), int(rows[0][4])
        length = file.stat().st_size
        if length < block_size * used_blocks:
            raise StoreDamaged(f"database {self.path} is truncated: the file has {length:,} bytes, but the "
                               f"{used_blocks} blocks in use need {block_size * used_blocks:,}")

    def _check_schema(self, read_only: bool) -> None:
        """Every command checks the version: a newer one is refused; a writer migrates an older one."""
        version = current_version(self.con)
        if version > CURRENT_VERSION:
            raise SchemaTooNew(f"database {self.path} has schema version {version}, newer than this hhtool "
                               f"understands ({CURRENT_VERSION}): use a newer hhtool")
        if not read_only:
            if 0 < version < CURRENT_VERSION and self._on_upgrade is not None:
                self._on_upgrade(version, CURRENT_VERSION)
            migrate(self.con)
        elif version == 0:
            raise StoreError(f"{self.path} is a DuckDB database but not an hhtool store (it has no schema_version)")
        elif version < CURRENT_VERSION:
            raise SchemaTooOld(f"database {self.path} has schema version {version}, older than this hhtool's "
                               f"{CURRENT_VERSION}")

    def limit_memory(self, limit: str) -> None:
        """Cap DuckDB's buffer pool (e.g. ``512MiB``): by default it may grow to 80 % of the
        machine's memory, and an import's inserts and facts refresh would keep it filled."""
        memory_size(limit)
        statement = f"SET memory_limit = '{limit.strip()}'"
        self.run(statement)
        self._settings.append(statement)

    def close(self) -> None:
        self._closed = True
        if self._con is not None:
            con, self._con = self._con, None
            con.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------ reading

    def known_hand_ids(self, site: str, hand_ids: Iterable[str]) -> set[str]:
        ids = list(set(hand_ids))
        if not ids:
            return set()
        import pyarrow as pa

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
        try:
            return self.con.execute(sql, params or []).fetchall()
        except duckdb.Error as error:
            raise_if_interrupted(error)
            raise

    def frame(self, sql: str, params: Sequence[Any] | None = None) -> pl.DataFrame:
        """A query's result as a Polars frame."""
        import polars as pl

        # through the Arrow C stream interface: no PyArrow needed (nor loaded) for a report
        result = pl.DataFrame(self.con.sql(sql, params=params or None))
        assert isinstance(result, pl.DataFrame)
        return result

    # ------------------------------------------------------------ writing

    def rollback(self) -> None:
        """Undo the open transaction, if any. A COMMIT that failed (a full disk) has already ended
        it; a second error here would hide the first, which is the one to report."""
        with contextlib.suppress(duckdb.Error):
            self.run("ROLLBACK")

    def write_tables(self, tables: dict[str, pa.Table], new_only: dict[str, tuple[str, ...]] | None = None,
                     first: Sequence[tuple[str, Sequence[Any]]] = (),
                     derived: Callable[[dict[str, pa.Table]], dict[str, pa.Table]] | None = None,
                     then: Callable[[pa.Table, dict[str, pa.Table]], object] | None = None,
                     carried: Sequence[str] = ()) -> None:
        """Insert rows into several tables in one transaction (all of them or none). ``new_only``
        names, per table, the columns that identify a row: rows already there are not inserted
        again (a re-run after an interrupted import). ``first``: statements run before, in it.

        New hands (``hands`` and the keyed tables, their ``hk`` numbered from 0 within the batch, as
        the row builders give it) get the store's next free keys here: ``max(hands.hk) + 1`` is
        added to every ``hk``. It is read just before the transaction, on the connection that
        writes it: DuckDB lets one process at a time open the file for writing, and this one keeps
        it until the commit, so no other writer can take those keys. ``derived``: more tables
        computed from the batch with its keys (the stats facts, which may set up their own tables
        first), written with it. ``then``: called inside the transaction, after the inserts, with the
        batch's ``hands`` rows under their stored keys (the import's cross-hand pass: the hands are
        committed with their whole judgement, never without it) and the tables ``carried`` names, keyed
        like the others but not stored (what the workers judged of the hands). The new hands are counted in
        the cross-hand pass's counts (:mod:`hhtool.store.forced_bet_votes`) in the same transaction."""
        hands = tables.get("hands")
        first_hk = 0
        if hands is not None and hands.num_rows:
            from hhtool.store.tables import shifted

            first_hk = int(self.run("SELECT coalesce(max(hk) + 1, 0) FROM hands")[0][0])
            tables = shifted(tables, first_hk)
        handed = {name: tables[name] for name in carried if name in tables}
        tables = {name: table for name, table in tables.items() if name not in handed}
        if derived is not None:
            tables = {**tables, **derived(tables)}
        self.run("BEGIN TRANSACTION")
        try:
            for sql, params in first:
                self.run(sql, params)
            for name, table in tables.items():
                if table.num_rows:
                    self._insert(name, table, (new_only or {}).get(name, ()))
            if hands is not None and hands.num_rows:
                from hhtool.store.forced_bet_votes import add_hands

                add_hands(self, first_hk)  # (the cross-hand pass's counts, with the hands they count)
                if then is not None:
                    then(tables["hands"], handed)
            self.run("COMMIT")
        except BaseException:
            self.rollback()
            raise

    def _insert(self, name: str, table: pa.Table, key: tuple[str, ...] = ()) -> None:
        view = f"incoming_{name}"
        spec = BY_NAME.get(name)
        stored = spec.stored if spec is not None else name  # (the reports' cache tables are not the spec's)
        sql = f"INSERT INTO {stored} BY NAME SELECT * FROM {view}"
        if key:
            match = " AND ".join(f"t.{column} IS NOT DISTINCT FROM {view}.{column}" for column in key)
            sql += f" WHERE NOT EXISTS (SELECT 1 FROM {stored} t WHERE {match})"
        self._with_view(view, table, [sql])

    @contextlib.contextmanager
    def registered(self, name: str, table: pa.Table) -> Iterator[None]:
        """``table`` readable as ``name`` by this connection's statements inside the ``with`` block.
        A statement that fails there may abort the caller's transaction, in which DuckDB refuses even to
        unregister the view: that error would hide the one to report (a Ctrl-C, a full disk, a broken key),
        so it is not raised (the view is replaced at the name's next use, or goes with the connection)."""
        self.con.register(name, table)
        try:
            yield
        except BaseException:
            with contextlib.suppress(duckdb.Error):
                self.con.unregister(name)
            raise
        self.con.unregister(name)

    def _with_view(self, view: str, table: pa.Table, statements: list[str]) -> None:
        """Run ``statements`` (inside the caller's transaction) with ``table`` registered as ``view``."""
        with self.registered(view, table):
            for sql in statements:
                self.run(sql)

    def replace_replay(self, rows: list[tuple[Hand, Any, str]],
                       then: Callable[[list[int]], object] | None = None) -> None:
        """Store new replay findings for hands already stored (audit under another profile). ``then``:
        called inside the transaction with the hands' stored keys (the cross-hand pass completes their
        judgement, committed with them)."""
        import pyarrow as pa

        from hhtool.store.tables import replay_rows

        tables = replay_rows(rows)  # hk: the hand's place in rows, mapped to the stored key below
        self.run("BEGIN TRANSACTION")
        try:
            keys = pa.table({
                "place": pa.array(range(len(rows)), pa.int64()),
                "site": [hand.site for hand, _, _ in rows],
                "hand_id": [hand.hand_id for hand, _, _ in rows],
                "profile": [profile for _, _, profile in rows],
            })
            self.con.register("replaced_keys", keys)
            self.run("CREATE OR REPLACE TEMP TABLE replaced_hands AS SELECT k.place, h.hk, k.profile "
                     "FROM replaced_keys k JOIN hands h USING (site, hand_id)")
            self.con.unregister("replaced_keys")
            for name in REPLAY_TABLES:
                self.run(f"DELETE FROM {BY_NAME[name].stored} AS x USING replaced_hands k "
                         "WHERE x.hk = k.hk AND x.profile = k.profile")
            for name, table in tables.items():
                if name in REPLAY_TABLES and table.num_rows:
                    self.con.register("replaced_rows", table)
                    try:
                        self.run(f"INSERT INTO {BY_NAME[name].stored} BY NAME SELECT k.hk, x.* EXCLUDE (hk) "
                                 "FROM replaced_rows x JOIN replaced_hands k ON k.place = x.hk")
                    finally:
                        self.con.unregister("replaced_rows")
            replaced = [int(hk) for (hk,) in self.run("SELECT DISTINCT hk FROM replaced_hands ORDER BY hk")]
            self.run("DROP TABLE replaced_hands")
            if then is not None and replaced:
                then(replaced)
            self.run("COMMIT")
        except BaseException:
            self.rollback()
            raise


__all__ = ["DB_ENV", "DEFAULT_DB", "HAND_TABLES", "SchemaTooNew", "SchemaTooOld", "SettingError", "Store",
           "StoreDamaged", "StoreError", "StoreLocked", "StoreMissing", "chosen_db_path", "default_db_path",
           "duckdb_message", "holder_of",
           "is_damage", "lock_timeout_from_env", "memory_size", "raise_if_interrupted", "resolve_db_path"]
