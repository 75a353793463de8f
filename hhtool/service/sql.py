"""`hhtool sql "SELECT …"`: one read-only query over the store, confined (:mod:`hhtool.store.confined`):
no files, no other databases, no settings, stopped past its time or memory."""

from __future__ import annotations

import polars as pl

from hhtool.service.errors import SettingError, UsageError
from hhtool.service.stores import Database
from hhtool.store.confined import DEFAULT_MEMORY, DEFAULT_TIMEOUT, QueryFailed, QueryRefused, confinement, run_query


def run_sql(database: Database, query: str, timeout: float = DEFAULT_TIMEOUT, memory: str = DEFAULT_MEMORY) -> pl.DataFrame:
    """The result of ``query``; QueryRefused for a statement that is not a read, QueryFailed for one
    that failed or ran past ``timeout`` seconds or ``memory``; UsageError for a malformed ``memory``."""
    try:
        config = confinement(memory)
    except SettingError as error:
        raise UsageError(f"--memory: {error}") from None
    with database.open(read_only=True, config=config) as store:
        return run_query(store, query, timeout)


__all__ = ["DEFAULT_MEMORY", "DEFAULT_TIMEOUT", "QueryFailed", "QueryRefused", "run_sql"]
