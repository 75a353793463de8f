"""When the report facts (:mod:`hhtool.store.player_facts_cache`) are computed and stored before a report
that finds hands without them, so that `stats` and `graph` read stored facts instead of computing
them on every run. (An import writes the facts of each transaction's hands with them, and those of
any hand left without at its end: :func:`hhtool.ingest.loader.import_sources`, ``store_facts``.)"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import duckdb

from hhtool.service.stores import Database
from hhtool.store import Store
from hhtool.store.player_facts_cache import needs_refresh, refresh_facts

#: how long a report waits to write the facts cache before computing the missing facts on the fly
REFRESH_LOCK_TIMEOUT = 1.0


@contextmanager
def report_store(database: Database) -> Iterator[Store]:
    """The store for a report, opened read-only, or for writing when hands lack cached facts: those
    are computed and stored first (:func:`refresh_facts`). When it cannot be written (a read-only
    file, another process reading it), the report computes the missing facts on the fly instead."""
    with database.open(read_only=True) as store:
        if not needs_refresh(store):
            yield store
            return
    try:
        writable = Store(database.path, lock_timeout=REFRESH_LOCK_TIMEOUT)
    except (RuntimeError, duckdb.Error, OSError):  # locked, read-only, or a newer schema
        with database.open(read_only=True) as store:
            yield store
        return
    with writable:
        if database.on_facts_refresh is not None:
            database.on_facts_refresh()
        refresh_facts(writable)
        yield writable
