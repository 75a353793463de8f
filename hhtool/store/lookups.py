"""Single values read from the stored hands for the service's commands and pages: how many hands
are stored, the span of their times, the hero with the most hands, a currency's unit.

The hands chosen come from the caller as SQL on ``hands h`` (the one ``HandFilter``): the store
decides neither which hands nor what is asked of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hhtool.store import Store


def hands_count(store: Store) -> int:
    """How many hands the store holds."""
    return int(store.run("SELECT count(*) FROM hands")[0][0])


def dated_span(store: Store) -> tuple[datetime, datetime] | None:
    """The first and last dated hand's times (None: no dated hand)."""
    first, last = store.run("SELECT min(started_at), max(started_at) FROM hands")[0]
    return None if first is None else (first, last)


def most_played_hero(store: Store, where: str, params: Sequence[Any]) -> str | None:
    """The hero of the most hands ``where`` selects (ties: the first name), None when none has one."""
    found = store.run(f"SELECT h.hero FROM hands h WHERE h.hero IS NOT NULL AND {where} "
                      "GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1", list(params))
    return str(found[0][0]) if found else None


def smallest_unit(store: Store, currency: str) -> int | None:
    """The smallest money unit of the hands played in ``currency`` (None: no such hand)."""
    found = store.run("SELECT min(unit) FROM hands WHERE currency = ?", [currency])[0][0]
    return None if found is None else int(found)
