"""When the report facts (:mod:`hhtool.reports.facts_table`) are computed and stored: alongside a
long import, at its end, and before a report that finds hands without them, so that `stats` and
`graph` read stored facts instead of computing them on every run."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import duckdb

from hhtool.reports import facts_table
from hhtool.reports.facts_table import needs_refresh, refresh_facts
from hhtool.service.stores import Database
from hhtool.store import Store

#: how long a report waits to write the facts cache before computing the missing facts on the fly
REFRESH_LOCK_TIMEOUT = 1.0


class FactsAlongside:
    """Refreshes the stats facts every FACTS_EVERY stored hands during an import, so that the work
    overlaps the workers' parsing instead of trailing the import (and a long import leaves little)."""

    FACTS_EVERY = 20_000

    def __init__(self, store: Store, every: int = FACTS_EVERY) -> None:
        self.store, self.every, self.unrefreshed = store, every, 0

    def __call__(self, hands: int) -> None:
        self.unrefreshed += hands
        if self.unrefreshed >= self.every:
            facts_table.refresh_facts(self.store)
            self.unrefreshed = 0


def after_import(store: Store) -> None:
    """Store the reports' facts of the new hands now, so `stats` and `graph` have nothing left to compute."""
    facts_table.refresh_facts(store)


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
