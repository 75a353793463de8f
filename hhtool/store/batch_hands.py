"""The hands of an import's batch, as the cross-hand pass selects them inside the batch's transaction:
their keys (``hands.hk``) held in a temporary table for as long as the pass runs
(:func:`hhtool.ingest.cross_hand.judge_batch` decides what is judged; this module holds the statements)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hhtool.store import Store


@contextmanager
def batch_hands(store: Store, hks: Sequence[int]) -> Iterator[str]:
    """The condition on ``hands h`` choosing the hands ``hks``, valid inside the block (their keys are
    held in a temporary table until its end, whatever happened in it)."""
    store.run("CREATE OR REPLACE TEMP TABLE jb_batch AS SELECT unnest(?::BIGINT[]) AS hk", [list(hks)])
    try:
        yield "h.hk IN (SELECT hk FROM jb_batch)"
    finally:
        store.run("DROP TABLE IF EXISTS jb_batch")


__all__ = ["batch_hands"]
