"""Several statements written as one: all of them, or (an error, a Ctrl-C) none."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hhtool.store import Store


def in_one_transaction(store: Store, statements: Sequence[tuple[str, Sequence[Any]]]) -> int:
    """Run ``statements`` (SQL and its parameters) in one transaction; the rows they returned in all
    (a statement ``... RETURNING`` returns those it touched). None given: nothing is run."""
    if not statements:
        return 0
    returned = 0
    store.run("BEGIN TRANSACTION")
    try:
        for sql, params in statements:
            returned += len(store.run(sql, params))
        store.run("COMMIT")
    except BaseException:
        store.rollback()
        raise
    return returned


__all__ = ["in_one_transaction"]
