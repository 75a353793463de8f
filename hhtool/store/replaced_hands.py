"""The statements that remove a stored hand and all that was stored for it, for the transaction that
stores the hand replacing it: the cut copy of a growing file's last hand, which the grown file completes
(:mod:`hhtool.ingest.provisional` decides that it is one). Its rows go from every per-hand table and its
forced bets from the cross-hand pass's counts (:mod:`hhtool.store.forced_bet_votes`); its
stats facts with it: its sums (daily and door: every table of ``player_facts_cache.SUMMED``) are added
negated to their keys' rows (:mod:`hhtool.store.sums`: a key stays one row), and its facts rows and
covered mark are deleted."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hhtool.store.facts_storage import ROWS_TABLE
from hhtool.store.forced_bet_votes import forget_statements
from hhtool.store.player_facts import counted_columns
from hhtool.store.player_facts_cache import COVERED_TABLE, FACTS_TABLE, SUMMED, UNSUMMED_TABLE, daily_sums_sql
from hhtool.store.schema import HAND_TABLES, REPLAY_TABLES
from hhtool.store.spec import BY_NAME
from hhtool.store.sums import sums_added

if TYPE_CHECKING:
    from hhtool.store import Store

Statement = tuple[str, list[Any]]

#: the summed columns of the facts' sums (``daily_sums_sql``): negated to take a hand's facts out
_SUMMED = ("hands", "net", "net_showdown", "big_bets", "big_bets_known", "rake_paid", "ev_net_milli", "ev_big_bets")


def forget_hand(store: Store, site: str, hand_id: str) -> list[Statement]:
    """Statements removing a stored hand and all that was stored for it (its rows in every per-hand
    table, its stats facts), to run in the transaction that stores the hand that replaces it."""
    key = "hk IN (SELECT hk FROM hands WHERE site = ? AND hand_id = ?)"
    # its forced bets out of the cross-hand pass's counts, read from its rows before they go
    statements: list[Statement] = forget_statements(store, site, hand_id)
    statements += [(f"DELETE FROM {BY_NAME[name].stored} WHERE {key}", [site, hand_id])
                   for name in (*HAND_TABLES, *REPLAY_TABLES)]
    cache = [ROWS_TABLE, *SUMMED, COVERED_TABLE, UNSUMMED_TABLE]
    present = {row[0] for row in store.run(
        "SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main' AND database_name = current_database() "
        f"AND table_name IN ({', '.join('?' for _ in cache)})", cache)}
    negated = ", ".join(f"-{name} AS {name}" for name in (*_SUMMED, *counted_columns()))
    # (through the view, which joins the hand: it is deleted from ``hands`` last; a hand not summed yet has
    # nothing in the sums to take out)
    own = f"SELECT * FROM {FACTS_TABLE} WHERE site = ? AND hand_id = ?"
    if UNSUMMED_TABLE in present:
        own += f" AND hk NOT IN (SELECT hk FROM {UNSUMMED_TABLE})"
    for table, keys in SUMMED.items():
        if {ROWS_TABLE, table} <= present:  # (a store whose facts were never computed has none to undo)
            # added to the stored row of each key (hhtool.store.sums), never appended: a key stays one row
            statements.append((f"CREATE OR REPLACE TEMP TABLE forgotten_sums AS SELECT * REPLACE ({negated}) "
                               f"FROM ({daily_sums_sql(own, keys)})", [site, hand_id]))
            statements += [(sql, []) for sql in sums_added(store, table, keys, "forgotten_sums")]
            statements.append(("DROP TABLE forgotten_sums", []))
    if ROWS_TABLE in present:
        statements.append((f"DELETE FROM {ROWS_TABLE} WHERE {key}", [site, hand_id]))
    for table in (COVERED_TABLE, UNSUMMED_TABLE):
        if table in present:
            statements.append((f"DELETE FROM {table} WHERE {key}", [site, hand_id]))
    statements.append(("DELETE FROM hands WHERE site = ? AND hand_id = ?", [site, hand_id]))
    return statements


__all__ = ["forget_hand"]
