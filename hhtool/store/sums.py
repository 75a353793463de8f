"""Tables of sums kept one row per key, added to inside the transaction that brings new rows.

A table of sums (the stats facts' daily sums, :mod:`hhtool.store.player_facts_cache`) stays right only if
each key has one row: appending a batch's sums and merging them later leaves the key twice for as
long as the merge has not run, and for good when the process stops in between (a kill, a full
disk). :func:`sums_added` therefore gives the statements that add a batch's rows to the stored ones
of the same key within the caller's transaction: the batch and its sums commit together, and
no reader ever sees a key twice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hhtool.store import Store

#: the temporary table holding the stored rows of the keys a batch touches, while their sums replace them
_ADDED = "added_sums"


def sums_added(store: Store, table: str, keys: tuple[str, ...], source: str) -> list[str]:
    """Statements adding the rows of ``source`` (a table or view of the same columns, one row per key) to
    ``table``: a key already stored gets one row holding both sums (every column but the ``keys`` summed, of
    its own type); a new key is inserted. Run them inside one transaction."""
    columns = store.run("SELECT column_name, data_type FROM duckdb_columns() WHERE table_name = ? "
                        "AND database_name = current_database() AND schema_name = 'main' ORDER BY column_index",
                        [table])
    values = [(str(name), str(kind)) for name, kind in columns if name not in keys]
    match = " AND ".join(f"t.{key} IS NOT DISTINCT FROM s.{key}" for key in keys)
    sums = ", ".join(f"CAST(sum({name}) AS {kind}) AS {name}" for name, kind in values)
    # only the keys already stored are summed (few: a batch's keys are mostly new); the new keys' rows go in
    # as they come. Grouping every row of the batch again held DuckDB's states of ≈ 120 sums per key: ≈ 30-90
    # MiB more a table of sums for 10,000 hands' sums (measured in the importing process, #37)
    return [
        f"CREATE OR REPLACE TEMP TABLE {_ADDED} AS SELECT * FROM {table} t WHERE EXISTS (SELECT 1 FROM {source} s "
        f"WHERE {match})",
        f"DELETE FROM {table} t WHERE EXISTS (SELECT 1 FROM {_ADDED} s WHERE {match})",
        f"INSERT INTO {table} BY NAME SELECT * FROM {source} t WHERE NOT EXISTS (SELECT 1 FROM {_ADDED} s "
        f"WHERE {match})",
        f"INSERT INTO {table} BY NAME SELECT {', '.join(keys)}, {sums} FROM (SELECT * FROM {_ADDED} "
        f"UNION ALL BY NAME SELECT * FROM {source} t WHERE EXISTS (SELECT 1 FROM {_ADDED} s WHERE {match})) "
        "GROUP BY ALL",
        f"DROP TABLE {_ADDED}",
    ]


def split_keys(store: Store, table: str, keys: tuple[str, ...]) -> bool:
    """Whether some key of ``table`` has more than one row (sums appended and not merged: an import
    of an older hhtool stopped before its merge)."""
    listed = ", ".join(keys)
    rows = store.run(f"SELECT (SELECT count(*) FROM {table}) > (SELECT count(*) FROM (SELECT DISTINCT {listed} "
                     f"FROM {table}))")
    return bool(rows[0][0])
