"""A user's SQL on the store, confined by DuckDB itself: one read-only query over the store's own
tables and views, no files, no other databases, no extensions, bounded in memory, threads and time.

The connection is opened read-only with external access off from its first moment (so ATTACH of
a file, COPY, EXPORT, read_csv/read_text/glob and Python replacement scans are refused by DuckDB),
and the configuration is locked, so that no statement can undo any of it. DuckDB has no statement
timeout: the waiting thread interrupts the connection at the deadline instead. The statement check below only gives the
refusals a clear message; the confinement does not depend on it.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import duckdb
import polars as pl
import pyarrow as pa

from hhtool.store import SettingError, Store, duckdb_message, memory_size

THREADS = min(os.cpu_count() or 1, 4)
#: rows a fetched batch holds: a result is checked against its bound every 256 rows (an eighth of a DuckDB
#: vector: a batch of long texts overshoots the bound by less, and fetching takes hardly longer)
_BATCH_ROWS = 256
#: the least --memory a query is given (DuckDB cannot open the store in much less)
MIN_MEMORY = 16 << 20
#: the share of --memory a fetched result may hold (:func:`result_bound`)
RESULT_SHARE = 4
#: the rows DuckDB's box renderer reads of a result (it says ">9999 rows" past them)
RENDERED_ROWS = 10_000
#: lines a long text's cell may take in the table (DuckDB's renderer wraps a text up to 16, then cuts it with "…")
_CELL_LINES = 64
#: where the table's rows wait for the renderer: a temporary table, in DuckDB's memory (no spilling)
_HELD = 'temp.main."hhtool rendered rows"'
_LEADING_COMMENTS = re.compile(r"(?:\s+|--[^\n]*(?:\n|$)|/\*.*?\*/)*", re.DOTALL)
_DUCKDB_KIND = re.compile(r"^(?P<kind>[A-Za-z ]+?) Error: ")

#: the statement types a query may have; DESCRIBE, SHOW, SUMMARIZE, VALUES, FROM-first and PIVOT with
#: an IN list are SELECTs to DuckDB
ALLOWED = frozenset({duckdb.StatementType.SELECT})


class QueryRefused(ValueError):
    """The statement is not one read-only query, or DuckDB's confinement refused it."""


class QueryFailed(ValueError):
    """The query itself is wrong (unknown table, syntax, types), ran out of time or of memory."""


def confinement(memory_limit: str, threads: int = THREADS) -> dict[str, Any]:
    """DuckDB configuration for the user's connection (given at connection: nothing runs before it)."""
    if memory_size(memory_limit) < MIN_MEMORY:  # (a bad size: a clear error, before DuckDB's)
        raise SettingError(f"{memory_limit} is too little for a query: give at least {MIN_MEMORY >> 20}MiB")
    return {
        "enable_external_access": False,  # no file but the store: ATTACH, COPY, EXPORT, read_*, glob
        "python_enable_replacements": False,  # no Python variable read as a table
        "autoload_known_extensions": False,
        "autoinstall_known_extensions": False,
        "allow_community_extensions": False,
        "allow_unsigned_extensions": False,
        "allow_extension_repositories": "forbidden",
        "allow_persistent_secrets": False,
        "temp_directory": "",  # no spilling to disk: past the memory limit a query fails, writing nothing
        "memory_limit": memory_limit,
        "threads": threads,
        "lock_configuration": True,  # last: no SET, RESET or PRAGMA can change any of the above
    }


def first_keyword(sql: str) -> str:
    """The statement's first word, after any leading comments, upper-cased (for messages)."""
    rest = sql[_LEADING_COMMENTS.match(sql).end():]  # type: ignore[union-attr]
    match = re.match(r"[A-Za-z_]+", rest)
    return match.group(0).upper() if match else rest[:1] or "(nothing)"


def check_statement(con: duckdb.DuckDBPyConnection, sql: str) -> None:
    """Refuse anything but exactly one SELECT-type statement, with a one-line reason."""
    try:
        statements = con.extract_statements(sql)
    except duckdb.Error as error:
        raise QueryFailed(duckdb_message(error)) from None
    if not statements:
        raise QueryRefused("no statement given")
    if len(statements) > 1:
        raise QueryRefused(f"one statement at a time: {len(statements)} were given (separated by ';')")
    statement = statements[0]
    if statement.type in ALLOWED:
        return
    keyword = first_keyword(sql)
    hint = ""
    if statement.type is duckdb.StatementType.MULTI and keyword == "PIVOT":
        hint = " (a PIVOT needs an explicit IN (…) list of its columns here)"
    elif statement.type is duckdb.StatementType.CALL:
        hint = " (write SELECT * FROM function(…) for a table function)"
    raise QueryRefused(f"{keyword} is not allowed{hint}: hhtool sql runs one read-only query "
                       "(SELECT, WITH, FROM, VALUES, DESCRIBE, SHOW or SUMMARIZE) on the store's own tables")


def open_confined(path: str, memory_limit: str, threads: int = THREADS, **store_options: Any) -> Store:
    """The store opened read-only under :func:`confinement`."""
    return Store(path, read_only=True, config=confinement(memory_limit, threads), **store_options)


def run_query(store: Store, sql: str, timeout: float, max_bytes: int | None = None) -> pl.DataFrame:
    """Check and run one query on a confined store; stop it after ``timeout`` seconds, and refuse
    a result holding more than ``max_bytes`` (default: :func:`result_bound` of the connection's
    memory limit) as soon as the batches fetched so far pass it, instead of holding it all."""
    con = store.con
    check_statement(con, sql)
    limit = max_bytes if max_bytes is not None else result_bound(_memory_limit(con))
    result = pl.from_arrow(_limited(con, lambda: _fetch(con, sql, limit), timeout))
    assert isinstance(result, pl.DataFrame)
    return result


def result_bound(memory_limit: int) -> int:
    """The most a result fetched for csv, json, parquet or html may hold (in Arrow's bytes): a quarter
    of the query's memory, since writing it out takes a few times as much again (Polars' copy, the
    text)."""
    return max(memory_limit // RESULT_SHARE, 1)


@dataclass(frozen=True)
class BoxLayout:
    """How DuckDB's box renderer fits a result: at most ``max_width`` characters a line (middle
    columns and long values elided), at most ``max_rows`` rows (the first and last halves shown)."""

    max_width: int
    max_rows: int = 40
    max_col_width: int | None = None
    null_value: str = "NULL"


def render_query(store: Store, sql: str, layout: BoxLayout, timeout: float) -> str:
    """Check and run one query on a confined store and draw its result with DuckDB's own box
    renderer (the shell's "duckbox": column types, numbers right-aligned, a row count), under the
    same ``timeout``. The rows the renderer reads (its first :data:`RENDERED_ROWS`) are first kept in
    a temporary table, where DuckDB counts their bytes against the connection's memory limit (past
    it, the query fails as out of memory), and a text longer than a line reaches the renderer cut to
    a line, so that drawing the table holds no more of the result than that."""
    con = store.con
    check_statement(con, sql)
    return str(_limited(con, lambda: _box(con, sql, layout), timeout))


def _box(con: duckdb.DuckDBPyConnection, sql: str, layout: BoxLayout) -> str:
    names = con.sql(sql).columns  # (bound, not run) the names as the query gives them, a repeated one too
    con.execute(f"CREATE OR REPLACE TEMPORARY TABLE {_HELD} AS SELECT * FROM (\n{_bare(sql)}\n) LIMIT {RENDERED_ROWS}")
    try:
        held = con.sql(f"FROM {_HELD}")
        cut = layout.max_width * _CELL_LINES + 1  # still longer than a cell can show: cut where the renderer would
        columns = ", ".join(
            (f"left({_quoted(column)}, {cut})" if str(kind) == "VARCHAR" else _quoted(column)) + f" AS {_quoted(name)}"
            for column, kind, name in zip(held.columns, held.types, names, strict=True))
        relation = con.sql(f"SELECT {columns} FROM {_HELD}")
        drawn = io.StringIO()
        # show() is the public entry to the renderer's options, and it prints: the text is taken from its print
        with contextlib.redirect_stdout(drawn):
            relation.show(max_width=layout.max_width, max_rows=layout.max_rows, max_col_width=layout.max_col_width,
                          null_value=layout.null_value)
        return drawn.getvalue()
    finally:
        con.execute(f"DROP TABLE IF EXISTS {_HELD}")


def _bare(sql: str) -> str:
    """``sql`` (one statement) without the semicolons and comments it ends with, to be a subquery."""
    text = sql.encode()  # the tokenizer's positions count UTF-8 bytes
    end = len(text)
    for position, kind in reversed(duckdb.tokenize(sql)):
        if kind is not duckdb.token_type.comment and not (kind is duckdb.token_type.operator
                                                          and text[position:position + 1] == b";"):
            break
        end = position
    return text[:end].decode()


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _limited(con: duckdb.DuckDBPyConnection, work: Callable[[], Any], timeout: float) -> Any:
    """``work()`` run on ``con`` in a thread while this one waits, interrupted after ``timeout``
    seconds: a thread inside DuckDB never returns to Python, so a Ctrl-C (and the deadline) is
    seen here, which interrupts DuckDB and waits for it. DuckDB's errors are judged (:func:`_judge`)."""
    outcome: dict[str, Any] = {}
    done = threading.Event()  # (not Thread.join: a Ctrl-C inside join leaves the thread looking finished)

    def run() -> None:
        try:
            outcome["value"] = work()
        except BaseException as error:  # handed to the waiting thread, which judges it
            outcome["error"] = error
        finally:
            done.set()

    deadline = time.monotonic() + timeout
    threading.Thread(target=run, name="hhtool-sql", daemon=True).start()
    try:
        while not done.wait(min(max(deadline - time.monotonic(), 0.0), 0.1)):
            if time.monotonic() >= deadline:
                con.interrupt()
                done.wait()
                if "value" in outcome:  # it finished as the deadline came
                    break
                raise QueryFailed(f"the query ran longer than {timeout:g} s and was stopped (--timeout SECONDS)")
    except KeyboardInterrupt:
        con.interrupt()
        done.wait()
        raise
    if "error" in outcome:
        _judge(outcome["error"], con)
    return outcome["value"]


def _fetch(con: duckdb.DuckDBPyConnection, sql: str, limit: int) -> pa.Table:
    relation = con.sql(sql)
    reader = relation.to_arrow_reader(_BATCH_ROWS)
    try:
        batches, size = [], 0
        for batch in _batches(reader):
            size += batch.nbytes
            if size > limit:
                raise QueryFailed(f"the result is larger than {_mib(limit)} (a quarter of --memory): add a LIMIT, "
                                  "or aggregate (or raise --memory)")
            batches.append(batch)
        return pa.Table.from_batches(batches, schema=reader.schema)
    finally:  # an unfinished result keeps DuckDB's connection busy (it could not even be closed)
        reader.close()
        relation.close()


def _judge(error: BaseException, con: duckdb.DuckDBPyConnection) -> None:
    """Raise the error of a query as what it says of the statement: refused, or failed (and
    anything else, such as a damaged store, as it is)."""
    if isinstance(error, duckdb.InterruptException):  # an interrupt that was neither the deadline nor Ctrl-C
        raise KeyboardInterrupt from None
    if isinstance(error, duckdb.PermissionException | duckdb.InvalidInputException):
        message = duckdb_message(error)
        if isinstance(error, duckdb.InvalidInputException) and "configuration has been locked" not in message \
                and "read-only mode" not in message:
            raise QueryFailed(message) from None
        raise QueryRefused(f"hhtool sql reads only the store's own tables and views; it cannot read or write "
                           f"files, other databases, settings or extensions ({message})") from None
    if isinstance(error, duckdb.OutOfMemoryException):
        raise QueryFailed(f"the query, or the result it keeps, needs more memory than its limit of "
                          f"{_mib(_memory_limit(con))} (add a LIMIT, aggregate, or raise --memory)") from None
    if isinstance(error, duckdb.ProgrammingError | duckdb.DataError | duckdb.NotSupportedError
                  | duckdb.ConstraintException | duckdb.TransactionException | duckdb.SequenceException):
        raise QueryFailed(duckdb_message(error)) from None
    raise error


def _batches(reader: pa.RecordBatchReader) -> Any:
    """The reader's batches, with an error raised while streaming (Arrow turns it into an OSError
    carrying DuckDB's text) given back its DuckDB class, so it is judged like one raised at once."""
    while True:
        try:
            batch = reader.read_next_batch()
        except StopIteration:
            return
        except OSError as error:
            raise _as_duckdb_error(error) from None
        yield batch


_KINDS: dict[str, type[duckdb.Error]] = {
    "INTERRUPT": duckdb.InterruptException,
    "Out of Memory": duckdb.OutOfMemoryException,
    "IO": duckdb.IOException,
    "Permission": duckdb.PermissionException,
    "Invalid Input": duckdb.InvalidInputException,
    "Conversion": duckdb.ConversionException,
    "Out of Range": duckdb.OutOfRangeException,
}


def _as_duckdb_error(error: OSError) -> BaseException:
    match = _DUCKDB_KIND.match(str(error))
    kind = _KINDS.get(match.group("kind")) if match else None
    return kind(str(error)) if kind else error


def _memory_limit(con: duckdb.DuckDBPyConnection) -> int:
    rows = con.execute("SELECT value FROM duckdb_settings() WHERE name = 'memory_limit'").fetchall()
    try:
        return memory_size(str(rows[0][0]).replace(" ", "")) if rows else 1 << 30
    except ValueError:
        return 1 << 30


def _mib(size: int) -> str:
    return f"{size / 2**20:,.0f} MiB"


__all__ = ["BoxLayout", "QueryFailed", "QueryRefused", "check_statement",
           "confinement", "open_confined", "render_query", "result_bound", "run_query"]
