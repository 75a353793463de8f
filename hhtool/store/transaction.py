"""Several statements written as one: all of them, or (an error, a Ctrl-C) none."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hhtool.store import Store


@contextmanager
def transaction(store: Store) -> Iterator[Store]:
    """The statements run inside commit together at its end, or are undone when it ends by an error."""
    store.run("BEGIN TRANSACTION")
    try:
        yield store
        store.run("COMMIT")
    except BaseException:
        store.rollback()
        raise


def in_one_transaction(store: Store, statements: Sequence[tuple[str, Sequence[Any]]]) -> int:
    """Run ``statements`` (SQL and its parameters) in one transaction; the rows they returned in all
    (a statement ``... RETURNING`` returns those it touched). None given: nothing is run."""
    if not statements:
        return 0
    with transaction(store):
        return sum(len(store.run(sql, params)) for sql, params in statements)


__all__ = ["in_one_transaction", "transaction"]
