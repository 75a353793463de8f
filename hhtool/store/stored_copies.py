"""Finding the stored copy of a hand, under its own key or its origin's (a converted PHH hand)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from hhtool.store.tables import arrow_schema

if TYPE_CHECKING:
    from hhtool.store import Store

#: per table, the columns that identify a row: a re-run of an interrupted import does not add it again
NEW_ONLY: dict[str, tuple[str, ...]] = {
    "import_errors": ("file", "first_line", "line", "raw_sha256", "reason"),
    "skipped_hands": ("file", "first_line", "hand_id", "game"),
    "copy_conflicts": ("site", "hand_id", "second_file", "second_first_line", "second_sha256"),
    # (two imports of one file at once: the one to commit last finds the other's row; an import that
    # reads a file again another way deletes its row first, in its first transaction)
    "files": ("path", "sha256", "reading"),
}

CONFLICT_SCHEMA = arrow_schema("copy_conflicts")


@dataclass(frozen=True, slots=True)
class CopyAt:
    """Where one copy of a hand lies: the stored copy, or a second copy of a hand already kept (a
    duplicate; ``origin_site`` for a converted history)."""

    site: str
    hand_id: str
    file: str
    first_line: int
    last_line: int
    sha256: str
    origin_site: str | None = None


def stored_copies(store: Store, probes: Sequence[tuple[str, str, str]]) -> dict[str, CopyAt]:
    """For (hand id as imported, site dealt, hand id dealt) probes, the stored copy of each hand
    already there: stored under that key, or as a converted hand naming it as its origin."""
    if not probes:
        return {}
    table = pa.table({"probe": [p[0] for p in probes], "isite": [p[1] for p in probes], "iid": [p[2] for p in probes]})
    store.con.register("probe_copies", table)
    try:  # first which hands are there (cheap: two columns), then where they lie, only for those
        matched = store.run("SELECT p.probe, h.site, h.hand_id FROM hands h JOIN probe_copies p ON h.hand_id = p.iid "
                            "WHERE h.site = p.isite")
        if store.run("SELECT 1 FROM hands WHERE origin_site IS NOT NULL LIMIT 1"):  # converted copies: few, if any
            matched = store.run(
                """SELECT p.probe, h.site, h.hand_id FROM (SELECT * FROM hands WHERE origin_site IS NOT NULL) h
                   JOIN probe_copies p ON h.hand_id = p.isite || ':' || p.iid WHERE h.origin_site = p.isite""") + matched
    finally:
        store.con.unregister("probe_copies")
    if not matched:
        return {}
    keys = pa.table({"probe": [m[0] for m in matched], "site": [m[1] for m in matched], "hand_id": [m[2] for m in matched],
                     "rank": list(range(len(matched)))})
    store.con.register("matched_copies", keys)
    try:
        rows = store.run("""SELECT m.probe, h.site, h.hand_id, h.file, h.first_line, h.last_line, h.raw_sha256
                            FROM hands h JOIN matched_copies m ON h.hand_id = m.hand_id AND h.site = m.site
                            ORDER BY m.rank""")
    finally:
        store.con.unregister("matched_copies")
    found: dict[str, CopyAt] = {}
    for probe, site, hand_id, file, first_line, last_line, sha256 in rows:  # the own key wins: it comes last
        found[probe] = CopyAt(site, hand_id, file, int(first_line), int(last_line), sha256)
    return found


def conflict_table(rows: list[dict[str, Any]]) -> pa.Table:
    return pa.table({field.name: pa.array([row[field.name] for row in rows], field.type) for field in CONFLICT_SCHEMA})


def copies_stored_meanwhile(store: Store, hands: pa.Table | None) -> dict[str, CopyAt]:
    """The stored copy of each hand of a batch's ``hands`` rows that is already in the store: those
    another process stored after this one looked (:func:`stored_copies`) and let go of the store.
    Asked on the connection that then writes the batch, it cannot miss one: no other process
    writes the file while this one holds it."""
    if hands is None or not hands.num_rows:
        return {}
    from hhtool.model import hand_identity

    columns = [hands[name].to_pylist() for name in ("site", "hand_id", "origin_site")]
    probes = [(hand_id, *hand_identity(site, hand_id, origin)) for site, hand_id, origin in zip(*columns, strict=True)]
    return stored_copies(store, probes)


def without_hands(tables: dict[str, pa.Table], hand_ids: set[str]) -> dict[str, pa.Table]:
    """A batch's ``tables`` less every row of the hands ``hand_ids`` (by their ``hk``)."""
    import pyarrow.compute as pc

    hands = tables["hands"]
    dropped = hands.filter(pc.is_in(hands["hand_id"], value_set=pa.array(sorted(hand_ids), pa.string())))["hk"]
    keys = dropped.combine_chunks()
    return {name: table.filter(pc.invert(pc.is_in(table["hk"], value_set=keys))) if "hk" in table.column_names
            else table for name, table in tables.items()}
