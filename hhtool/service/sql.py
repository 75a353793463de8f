"""`hhtool sql "SELECT …"`: one read-only query over the store, confined (:mod:`hhtool.store.confined`):
no files, no other databases, no settings, stopped past its time or memory."""

from __future__ import annotations

import polars as pl

from hhtool.service.choices import DEFAULT_MEMORY, DEFAULT_TIMEOUT
from hhtool.service.errors import SettingError, UsageError
from hhtool.service.stores import Database
from hhtool.store.confined import (
    BoxLayout,
    QueryFailed,
    QueryRefused,
    confinement,
    render_query,
    run_query,
)


def run_sql(database: Database, query: str, timeout: float = DEFAULT_TIMEOUT, memory: str = DEFAULT_MEMORY) -> pl.DataFrame:
    """The result of ``query``; QueryRefused for a statement that is not a read, QueryFailed for one
    that failed or ran past ``timeout`` seconds or ``memory``; UsageError for a malformed ``memory``."""
    try:
        config = confinement(memory)
    except SettingError as error:
        raise UsageError(f"--memory: {error}") from None
    with database.open(read_only=True, config=config) as store:
        return run_query(store, query, timeout)


def sql_box(database: Database, query: str, layout: BoxLayout, timeout: float = DEFAULT_TIMEOUT,
            memory: str = DEFAULT_MEMORY) -> str:
    """The result of ``query`` drawn by DuckDB's box renderer to fit ``layout`` (the shell's view of
    a result: types, numbers right-aligned, wide results elided in the middle, a row count); the
    same refusals and failures as :func:`run_sql`."""
    try:
        config = confinement(memory)
    except SettingError as error:
        raise UsageError(f"--memory: {error}") from None
    with database.open(read_only=True, config=config) as store:
        return render_query(store, query, layout, timeout)


__all__ = ["DEFAULT_MEMORY", "DEFAULT_TIMEOUT", "BoxLayout", "QueryFailed", "QueryRefused", "run_sql", "sql_box"]
