"""The work item a chunk travels in to a worker (issue #37): a typed frozen value, not a tuple of
positional arguments, that pickles (the process pool) and runs to the same result as the call it names."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from hhtool.ingest.chunks import ChunkWork, LineBlock, process_chunk, run_chunk
from hhtool.sites import parser_for
from tests.test_parallel import numbered_hands

HANDS = numbered_hands(6)
TEXT = "\n\n\n".join(HANDS)


def block(text: str = TEXT) -> LineBlock:
    return LineBlock("a.txt", 0, tuple(text.split("\n")))


def test_a_work_item_is_frozen_and_survives_pickling() -> None:
    work = ChunkWork("pokerstars", block(), "pokerstars", replay=True, ends_file=True, starts_file=True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        work.site = "fulltilt"  # type: ignore[misc]
    again = pickle.loads(pickle.dumps(work))
    assert again == work and again is not work


@pytest.mark.parametrize("split", [False, True])
def test_running_a_pickled_work_item_gives_what_the_call_gives(split: bool) -> None:
    """A block of lines (the worker splits it) or hands split already: the same tables, counts and tail."""
    hands = list(parser_for("pokerstars").split(TEXT.split("\n"), "a.txt")) if split else block()
    work = pickle.loads(pickle.dumps(ChunkWork("pokerstars", hands, ends_file=True, starts_file=True)))
    got, want = run_chunk(work), process_chunk("pokerstars", hands, None, True, True, False, True, None)
    assert got.hand_ids == want.hand_ids and len(got.hand_ids) == len(HANDS)
    assert {name: table.to_pylist() for name, table in got.tables.items()} == \
           {name: table.to_pylist() for name, table in want.tables.items()}
    assert (got.found, got.tail, got.failures, got.incomplete) == (want.found, want.tail, want.failures, want.incomplete)


def test_each_field_reaches_the_worker_by_its_name() -> None:
    """A file cut inside its last hand's last line: the item saying it ends the file mid-line makes that
    hand incomplete, the same lines as a middle chunk make it a failure; the whole file holding no hand of
    the site is no hand history only when the item says it starts and ends the file."""
    cut = TEXT[: TEXT.rindex("\n", 0, len(TEXT) - 1) + 8]  # (the last hand stops 7 characters into its last line)
    last = ChunkWork("pokerstars", block(cut), ends_file=True, ends_mid_line=True)
    middle = ChunkWork("pokerstars", block(cut))
    assert len(run_chunk(last).incomplete) == 1 and not run_chunk(last).failures
    assert run_chunk(middle).failures and not run_chunk(middle).incomplete
    readme = block("just a note\nnothing here")
    assert run_chunk(ChunkWork("pokerstars", readme, ends_file=True, starts_file=True)).not_hand_history
    assert not run_chunk(ChunkWork("pokerstars", readme, ends_file=True)).not_hand_history
