"""The last hand of a growing file: stored as read, replaced when the grown file completes it.

A poker client appends a hand line by line, so an import (or a ``--watch`` pass) may read a file
while its last hand is half written. Cut inside a line, that hand is *incomplete* (kept raw, never
stored). Cut at a line boundary inside its summary, it still reads as a whole hand (the summary
only restates the hand), and it is stored: the import cannot tell it from a finished file whose
last hand has no blank line after it, which real exports are. That stored copy is *provisional*:
it is the hand at the files row's ``resume_line``, the one the file's next import reads again when
the file has grown.

That read finds the stored copy at the very place of the very file it reads, and the import only
resumes a file whose bytes up to the size it had then still hash as they did: the stored copy's
text is the start of what the file holds there now. A copy that is longer now was cut off while
written: the completed hand replaces it, in the transaction that stores the completed one (so a
kill leaves one or the other). It is not a duplicate, not "stored before" and never a
conflicting copy. Its stats facts go with it: the cut copy's sums (daily and door: every table of
``player_facts_cache.SUMMED``) are added negated to their keys' rows (hhtool.store.sums: a key stays one
row), and its facts rows and covered mark are deleted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hhtool.store.player_facts import counted_columns
from hhtool.store.player_facts_cache import COVERED_TABLE, FACTS_TABLE, SUMMED, daily_sums_sql
from hhtool.store.schema import HAND_TABLES, REPLAY_TABLES
from hhtool.store.spec import BY_NAME
from hhtool.store.stored_copies import CopyAt
from hhtool.store.sums import sums_added

if TYPE_CHECKING:
    from hhtool.store import Store

Statement = tuple[str, list[Any]]

#: the summed columns of the facts' sums (``daily_sums_sql``): negated to take a hand's facts out
_SUMMED = ("hands", "net", "net_showdown", "big_bets", "big_bets_known", "rake_paid", "ev_net_milli", "ev_big_bets")


def completes(stored: CopyAt, site: str, file: str, first_line: int, last_line: int, sha256: str) -> bool:
    """Whether the copy just read at (file, first_line) completes ``stored``, a copy of the same hand
    read from the same place of the same file by an earlier import of it, before it grew (the caller
    knows it grew: only then is the place's old text known to be the start of the new one)."""
    return (stored.site == site and (stored.file, stored.first_line) == (file, first_line)
            and stored.sha256 != sha256 and stored.last_line <= last_line)


def forget_hand(store: Store, site: str, hand_id: str) -> list[Statement]:
    """Statements removing a stored hand and all that was stored for it (its rows in every per-hand
    table, its stats facts), to run in the transaction that stores the hand that replaces it."""
    key = "hk IN (SELECT hk FROM hands WHERE site = ? AND hand_id = ?)"
    statements: list[Statement] = [(f"DELETE FROM {BY_NAME[name].stored} WHERE {key}", [site, hand_id])
                                   for name in (*HAND_TABLES, *REPLAY_TABLES)]
    cache = [FACTS_TABLE, *SUMMED, COVERED_TABLE]
    present = {row[0] for row in store.run(
        "SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main' AND database_name = current_database() "
        f"AND table_name IN ({', '.join('?' for _ in cache)})", cache)}
    negated = ", ".join(f"-{name} AS {name}" for name in (*_SUMMED, *counted_columns()))
    own = f"SELECT * FROM {FACTS_TABLE} WHERE site = ? AND hand_id = ?"
    for table, keys in SUMMED.items():
        if {FACTS_TABLE, table} <= present:  # (a store whose facts were never computed has none to undo)
            # added to the stored row of each key (hhtool.store.sums), never appended: a key stays one row
            statements.append((f"CREATE OR REPLACE TEMP TABLE forgotten_sums AS SELECT * REPLACE ({negated}) "
                               f"FROM ({daily_sums_sql(own, keys)})", [site, hand_id]))
            statements += [(sql, []) for sql in sums_added(store, table, keys, "forgotten_sums")]
            statements.append(("DROP TABLE forgotten_sums", []))
    if FACTS_TABLE in present:
        statements.append((f"DELETE FROM {FACTS_TABLE} WHERE site = ? AND hand_id = ?", [site, hand_id]))
    if COVERED_TABLE in present:
        statements.append((f"DELETE FROM {COVERED_TABLE} WHERE {key}", [site, hand_id]))
    statements.append(("DELETE FROM hands WHERE site = ? AND hand_id = ?", [site, hand_id]))
    return statements
