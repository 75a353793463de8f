"""How the stored hands of each table and each level posted their forced bets, counted and kept in the
store (``forced_bet_votes``), so that the cross-hand pass (:mod:`hhtool.store.forced_bets`) reads a
table's counts instead of the posts of every hand stored there (#37: a batch cost what its tables held).

A row counts the hands of one table or level (by the keys below) that posted one forced bet alike: the
amounts of their posts of it that were not all-in, smallest first, and whether they posted it at all.
That is data, not a judgement: the replay alone turns a pattern into a vote
(:func:`hhtool.replay.forced_bets.vote_of_amounts`). The counts change in the transaction that changes
the hands: :meth:`hhtool.store.Store.write_tables` adds a batch's hands (:func:`add_hands`),
:func:`hhtool.store.replaced_hands.forget_hand` takes a replaced hand's out (:func:`forget_statements`),
and schema version 15 counted the hands stored before (:func:`count_all`); a killed import leaves
neither hands without their counts nor counts without their hands.

A table is (site, table name, small bet, big bet, currency, structure) for cash games and (site,
tournament id, small bet, big bet, currency, structure) in tournaments; a level the same without the
table name; the site of a converted history (a PHH file hhtool wrote) is the site that dealt it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from hhtool.store.spec import KEYED

if TYPE_CHECKING:
    import duckdb

    from hhtool.store import Store

#: the table of counts (schema version 15)
VOTES_TABLE = "forced_bet_votes"
#: its key columns: every other column (``hands``) is a count, added to the stored row of its key
VOTE_KEYS = ("scope", "place_key", "kind", "amounts", "posted")

DEALT_BY = "coalesce(h.origin_site, h.site)"
PLACE = "CASE WHEN h.is_tournament THEN h.tournament_id ELSE h.table_name END"
#: the table a hand was dealt at (JSON, so that no table name can pass for another table's key): NULL
#: when the history names neither table nor tournament
TABLE_KEY = f"""CASE WHEN {PLACE} IS NULL THEN NULL
    ELSE to_json(struct_pack(site := {DEALT_BY}, tournament := h.is_tournament, place := {PLACE},
                             small := h.small_bet, big := h.big_bet, currency := h.currency,
                             structure := h.structure))::VARCHAR END"""
#: its level: cash at these bets, or the tournament's level
LEVEL_KEY = f"""to_json(struct_pack(site := {DEALT_BY}, tournament := CASE WHEN h.is_tournament THEN
    coalesce(h.tournament_id, '') END, small := h.small_bet, big := h.big_bet, currency := h.currency,
    structure := h.structure))::VARCHAR"""

#: the forced bets of the hands ``{hands}`` (a query of their ``hk``) and, per post, whether it took the
#: whole stack (flagged all-in, or the player's posts so far reach his stack)
POSTS = f"""SELECT a.hk, a.player, a.kind, a.amount, a.line, a.seq, a.all_in AS flagged,
                   a.all_in OR (s.stack IS NOT NULL AND sum(a.amount) OVER (
                       PARTITION BY a.hk, a.player ORDER BY a.seq) >= s.stack) AS all_in
            FROM {KEYED}.actions a LEFT JOIN {KEYED}.seats s ON s.hk = a.hk AND s.player = a.player
            WHERE a.kind IN ('ante', 'bring_in') AND a.hk IN (SELECT hk FROM {{hands}})"""

#: how each hand of ``{voters}`` (rows with its ``hk`` and the columns ``{keys}`` names, which are kept)
#: posted each forced bet, out of ``{posts}``: the amounts of its posts that were not all-in (smallest
#: first) and whether it posted at all
PER_HAND = """SELECT v.hk, {keys}, b.kind,
                     coalesce(list(p.amount ORDER BY p.amount) FILTER (WHERE NOT p.all_in), []::BIGINT[]) AS amounts,
                     count(p.hk) > 0 AS posted
              FROM {voters} v CROSS JOIN (VALUES ('ante'), ('bring_in')) b(kind)
              LEFT JOIN ({posts}) p ON p.hk = v.hk AND p.kind = b.kind GROUP BY ALL"""

#: the counts of the hands ``{hands}`` (a query of their ``hk``), by table and by level, each ``{sign}``
_COUNTED = f"""WITH voters AS (SELECT h.hk, {TABLE_KEY} AS tkey, {LEVEL_KEY} AS lkey
                            FROM hands h WHERE h.hk IN (SELECT hk FROM {{hands}})),
    per_hand AS ({PER_HAND.format(voters="voters", keys="v.tkey, v.lkey", posts=POSTS.format(hands="voters"))})
    SELECT 'table' AS scope, tkey AS place_key, kind, amounts, posted, {{sign}} * count(*) AS hands
    FROM per_hand WHERE tkey IS NOT NULL GROUP BY ALL
    UNION ALL
    SELECT 'level' AS scope, lkey AS place_key, kind, amounts, posted, {{sign}} * count(*) AS hands
    FROM per_hand GROUP BY ALL"""

#: the scratch table a change of counts is made in before it is added to the stored ones
_CHANGE = "fbv_change"
#: the table counts of the batch :func:`add_hands` counted last (key, kind, amounts, posted, hands), kept in
#: its transaction for the cross-hand pass, which drops it (``hhtool.store.forced_bets.choose``: how the
#: batch alone posted, counted once rather than again from its posts)
ADDED = "fbv_added"


def counted_sql(hands: str, sign: int = 1) -> str:
    """A query of the counts (as :data:`VOTES_TABLE`'s rows) of the hands ``hands`` (a query of their
    ``hk``), multiplied by ``sign`` (-1: to take them out)."""
    return _COUNTED.format(hands=hands, sign=int(sign))


def _merged(store: Store) -> list[str]:
    """Statements adding the counts in :data:`_CHANGE` to the stored ones (one row a key kept), and
    dropping the keys no hand is counted under any more."""
    from hhtool.store.sums import sums_added

    return [*sums_added(store, VOTES_TABLE, VOTE_KEYS, _CHANGE),
            f"DELETE FROM {VOTES_TABLE} WHERE hands = 0", f"DROP TABLE {_CHANGE}"]


def add_hands(store: Store, first_hk: int) -> None:
    """Inside the transaction that has just inserted a batch of new hands (keys from ``first_hk`` on,
    :meth:`~hhtool.store.Store.write_tables`): count them in."""
    store.run(f"CREATE OR REPLACE TEMP TABLE {_CHANGE} AS "
              f"{counted_sql(f'(SELECT hk FROM hands WHERE hk >= {int(first_hk)})')}")
    store.run(f"CREATE OR REPLACE TEMP TABLE {ADDED} AS SELECT place_key AS k, kind, amounts, posted, hands "
              f"FROM {_CHANGE} WHERE scope = 'table'")
    for sql in _merged(store):
        store.run(sql)


def forget_statements(store: Store, site: str, hand_id: str) -> list[tuple[str, list[Any]]]:
    """Statements taking a stored hand's counts out, to run (in its replacement's transaction) before
    its rows are deleted (:func:`hhtool.store.replaced_hands.forget_hand`)."""
    own = "(SELECT hk FROM hands WHERE site = ? AND hand_id = ?)"
    return [(f"CREATE OR REPLACE TEMP TABLE {_CHANGE} AS {counted_sql(own, -1)}", [site, hand_id]),
            *((sql, []) for sql in _merged(store))]


def count_all(con: duckdb.DuckDBPyConnection) -> None:
    """Count every stored hand (schema version 15, in its migration's transaction: the table is empty)."""
    con.execute(f"INSERT INTO {VOTES_TABLE} BY NAME {counted_sql('(SELECT hk FROM hands)')}").fetchall()


def stored_counts(store: Store, scope: str, keys: Sequence[str]) -> list[tuple[str, str, list[int], bool, int]]:
    """The counts of these tables or levels (``scope``: table | level), by key: (key, kind, amounts, posted, hands)."""
    if not keys:
        return []
    return [(str(k), str(kind), list(amounts), bool(posted), int(hands)) for k, kind, amounts, posted, hands in store.run(
        f"SELECT place_key, kind, amounts, posted, hands FROM {VOTES_TABLE} "
        "WHERE scope = ? AND place_key IN (SELECT unnest(?::VARCHAR[]))", [scope, sorted(set(keys))])]


__all__ = ["ADDED", "DEALT_BY", "LEVEL_KEY", "PER_HAND", "PLACE", "POSTS", "TABLE_KEY", "VOTES_TABLE", "VOTE_KEYS", "add_hands",
           "count_all", "counted_sql", "forget_statements", "stored_counts"]
