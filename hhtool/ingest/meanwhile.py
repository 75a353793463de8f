"""Hands another import stored while this one read, parsed and replayed them.

An import looks up which hands of a chunk are stored already (``FileWriter.copies_of``), then lets
go of the store while it reads and parses on (the import "lets go of the database between batches"),
so another import, of the same file or of one sharing hands with it, may store some of them before
this one writes its batch: its insert would break the hands' key and end the import (exit 3). So the
writer looks again right before it writes, on the connection that writes the batch, which no other
process can write through until the commit (:func:`~hhtool.store.stored_copies.copies_stored_meanwhile`).
The hands found there are left out of the batch and counted as the first look would have counted
them: *stored before* where the stored copy lies at this very place of this file (the same file
imported twice at once; the file's totals are then those of one import), else *duplicates*, their
text compared like any second copy. Both imports finish, and found = stored + duplicates + skipped +
failed + incomplete holds in both summaries.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

import pyarrow as pa
import pyarrow.compute as pc

from hhtool.store.stored_copies import CopyAt, copies_stored_meanwhile, without_hands

if TYPE_CHECKING:
    from hhtool.ingest.accounting import FileReport
    from hhtool.store import Store


def left_out(store: Store, tables: dict[str, pa.Table], report: FileReport | None, tail_ids: list[str | None],
             candidates: list[CopyAt], completing: Collection[str] = ()) -> dict[str, pa.Table]:
    """A file's batch less the hands stored meanwhile, counted in ``report`` (and in the batch's
    ``files`` row, whose tail items are the hands ``tail_ids``); those whose stored copy differs
    join the ``candidates`` to compare (compared when the file's last chunk comes after). The hands
    ``completing`` a cut copy the batch's transaction removes first (:mod:`hhtool.ingest.provisional`) are
    this import's to store, not another's."""
    stored = copies_stored_meanwhile(store, tables.get("hands"))
    for hand_id in completing:
        stored.pop(hand_id, None)
    if not stored:
        return tables
    hands = tables["hands"]
    chosen = hands.filter(pc.is_in(hands["hand_id"], value_set=pa.array(sorted(stored), pa.string())))
    own: set[str] = set()
    others: list[str] = []
    for row in chosen.select(["site", "hand_id", "file", "first_line", "last_line", "raw_sha256", "origin_site"]).to_pylist():
        copy = stored[row["hand_id"]]
        if (copy.file, copy.first_line) == (row["file"], row["first_line"]):
            own.add(row["hand_id"])
        else:
            others.append(row["hand_id"])
        if copy.sha256 != row["raw_sha256"] or copy.site != row["site"]:
            candidates.append(CopyAt(row["site"], row["hand_id"], row["file"], row["first_line"], row["last_line"],
                                     row["raw_sha256"], row["origin_site"]))
    if report is not None:
        report.stored -= len(stored)
        report.hands_found -= len(own)
        report.already_stored += len(own)
        report.duplicates += len(others)
        report.keep_duplicate_ids(others)
    files = tables.get("files")
    if others and files is not None and files.num_rows:
        tables = {**tables, "files": _recounted(files, set(others), tail_ids, report)}
    return without_hands(tables, set(stored))


def _recounted(files: pa.Table, duplicates: set[str], tail_ids: list[str | None], report: FileReport | None) -> pa.Table:
    """The file's row with ``duplicates`` (hands it counted as stored) counted as duplicates."""
    row = files.to_pylist()[0]  # (one file's row)
    for totals in (row, report.totals if report is not None else None):
        if totals is not None:
            totals["stored"] -= len(duplicates)
            totals["duplicates"] += len(duplicates)
    ids = [*tail_ids, *[None] * (len(row["tail"]) - len(tail_ids))]
    row["tail"] = ["duplicates" if kind == "stored" and hand_id in duplicates else kind
                   for kind, hand_id in zip(row["tail"], ids, strict=False)]
    return pa.Table.from_pylist([row], schema=files.schema)
