"""The stats facts as the store keeps them: each player-hand's own columns in ``player_facts_rows``, the
hand's columns added by the view ``player_facts``.

The facts query (:mod:`hhtool.store.player_facts`) gives one row per player dealt in and hand: the hand's
columns (site, stakes, times, file …), the player's (net, door card, streets …) and ≈ 110 counts. Stored
as it is, every player row repeated its hand's columns and kept each 0/1 count as a 4-byte integer: the
table was the store's largest (223 of ≈ 1,000 bytes a hand), and appending a batch's rows while the
import's workers ran cost the importing process ≈ 150–200 MiB at each commit (#37). So the table keeps
only what is the player's own, each count in the smallest type that holds it (one byte for a 0/1 count),
and ``player_facts`` is a view that joins the hand's columns from ``hands`` and gives every column its
name, type and order in the facts query: every reader (reports, ``hhtool sql``, exports) reads the same
rows as before. A test holds the view equal to the facts query on every column of every row.
"""

from __future__ import annotations

from functools import cache

from hhtool.store.player_facts import FACTS_TABLE, HAND_FACT_COLUMNS, HAND_SOURCE, counts_in_query_order, per_big_bet

#: the stored rows: the player-hand's own columns (the view :data:`FACTS_TABLE` adds the hand's)
ROWS_TABLE = "player_facts_rows"

#: the player-hand's own columns before the counts, with their stored types (the facts query's: BIGINT,
#: VARCHAR; INTEGER there for ``went_sd`` (0/1) and the streets (3 to 7, or NULL))
_OWN = (("hk", "BIGINT"), ("player", "VARCHAR"), ("door_card", "VARCHAR"), ("third_cards", "VARCHAR"),
        ("start", "VARCHAR"), ("net", "BIGINT"), ("collected", "BIGINT"), ("rake_paid", "BIGINT"),
        ("went_sd", "UTINYINT"), ("fold_street", "UTINYINT"), ("last_street", "UTINYINT"),
        ("ev_net_milli", "BIGINT"))
#: the columns the view casts back to the facts query's INTEGER
_NARROWED = ("went_sd", "fold_street", "last_street")


def _count_type(name: str) -> str:
    """A count's stored type: every count is a 0/1 (a ``max``, a ``CASE``, a boolean) but the aggression
    ones, which count a street's actions (no bound but the hand's length): those keep INTEGER."""
    return "INTEGER" if name.startswith("aggression_") else "UTINYINT"


@cache
def stored_columns() -> tuple[tuple[str, str], ...]:
    """The stored table's columns and DuckDB types, in order.

    >>> stored_columns()[:2], dict(stored_columns())["vpip__n"], dict(stored_columns())["aggression_3__n"]
    ((('hk', 'BIGINT'), ('player', 'VARCHAR')), 'UTINYINT', 'INTEGER')
    """
    return (*_OWN, *((name, _count_type(name)) for name in counts_in_query_order()))


def rows_table_ddl() -> str:
    """The stored table's ``CREATE TABLE``."""
    columns = ", ".join(f"{name} {kind}{' NOT NULL' if name in ('hk', 'player') else ''}"
                        for name, kind in stored_columns())
    return f"CREATE TABLE IF NOT EXISTS {ROWS_TABLE} ({columns})"


def stored_rows_sql(facts: str) -> str:
    """The rows of the facts query ``facts`` as stored (their own columns, in the stored types)."""
    return f"SELECT {', '.join(f'CAST({name} AS {kind}) AS {name}' for name, kind in stored_columns())} FROM ({facts})"


def facts_view_sql(rows: str = ROWS_TABLE, hands: str = "hands") -> str:
    """The facts rows, every column named, typed and ordered as the facts query gives it, of the stored
    rows ``rows`` and their hands in ``hands`` (the store's tables, or a batch's about to be written)."""
    front = [f"CAST(f.{name} AS INTEGER) AS {name}" if name in _NARROWED else f"f.{name}"
             for name, _ in _OWN[2:-1]]  # (door_card … last_street, in the query's order)
    front += [f"{per_big_bet('f.net')} AS big_bets", "f.ev_net_milli",
              f"{per_big_bet('f.ev_net_milli', 1000)} AS ev_big_bets"]
    counts = [f"CAST(f.{name} AS INTEGER) AS {name}" for name in counts_in_query_order()]
    return (f"SELECT {HAND_FACT_COLUMNS}, {', '.join(front)}, {', '.join(counts)} "
            f"FROM {rows} f JOIN (SELECT {HAND_SOURCE} FROM {hands} h) fh ON fh.hk = f.hk")


def view_ddl() -> str:
    """The view ``player_facts``'s ``CREATE VIEW``."""
    return f"CREATE OR REPLACE VIEW {FACTS_TABLE} AS {facts_view_sql()}"


__all__ = ["FACTS_TABLE", "ROWS_TABLE", "facts_view_sql", "rows_table_ddl", "stored_columns", "stored_rows_sql",
           "view_ddl"]
