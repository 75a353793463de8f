"""The queries of `hhtool sessions` (:mod:`hhtool.reports.sessions` makes the sessions of their rows):
the played hands of the stored facts, and where a session ends, split in SQL over spans of the gap.

A session's rows come back as plain dicts (:func:`sessions_columns` names their keys), from the store
(:func:`session_rows`) or from hands given in memory (:func:`sessions_in_memory`): one definition.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from hhtool.store.player_facts_cache import selected_facts

if TYPE_CHECKING:
    from hhtool.store import Store
    from hhtool.store.filters import HandFilter

#: the columns of the played hands :func:`sessions_sql` reads: one row per player and hand (``file`` and
#: ``first_line`` order hands of one time as the histories do; ``started_at`` NULL: a hand without a time)
PLAYED_COLUMNS = ("player", "site", "table_name", "tournament_id", "currency", "unit", "started_at", "net", "big_bet",
                  "file", "first_line")
_KEYS = ("player", "currency", "unit")
_TABLE_KEYS = ("player", "site", "table_name", "tournament_id", "currency", "unit")
#: the microseconds from 0001-01-01 to 1970-01-01: added to a time's epoch, it is never negative
_EPOCH_YEAR_ONE = 62_135_596_800 * 1_000_000


def played_sql(facts: str, *, heroes_only: bool) -> str:
    """The played hands (:data:`PLAYED_COLUMNS`) of the stored facts' query ``facts``: every player's
    rows, or (``heroes_only``) each hand's hero's only."""
    whose = "f.player = f.hero" if heroes_only else "TRUE"
    return f"SELECT {', '.join(PLAYED_COLUMNS)} FROM ({facts}) f WHERE {whose}"  # (the hand's columns are the facts')


def sessions_sql(played: str, gap_minutes: int, *, by_table: bool = False) -> str:
    """The sessions of the hands of the query ``played`` (:data:`PLAYED_COLUMNS`): the one definition
    of where a session ends. Sittings are each player's hands in one money (``by_table``: at one
    table), a new one starting where the time from one hand to the next reaches ``gap_minutes``.

    The hands are first summed per span of ``gap_minutes`` (and per site, table, tournament and big
    bet): two hands of one span are less than the gap apart, so a session can only end between
    spans, where the first hand of a span comes the gap or more after the last hand of the one
    before. The windows run over those few spans, never over every hand.

    One row per session, its hands' players first seen first and then oldest first: ``played`` and
    ``dated`` (how many rows ``played`` has, and with a time: the same on every row), the keys,
    ``start``, ``end`` and ``parts``: per site, table, tournament and big bet, in the order first
    played, ``hands`` and ``net``. A single row with no session (its keys NULL) when no hand has a time."""
    keys = _TABLE_KEYS if by_table else _KEYS
    listed = ", ".join(keys)
    width = gap_minutes * 60_000_000
    offset = -(-_EPOCH_YEAR_ONE // width) * width  # a whole number of spans: the spans stay aligned
    same = " AND ".join(f"n.{key} IS NOT DISTINCT FROM b.{key}" for key in keys)
    return f"""
WITH b AS (  -- the hands summed per span of the gap (NULL: no time) and per part of a session
    SELECT player, site, table_name, tournament_id, currency, unit, big_bet,
           (epoch_us(started_at) + {offset}) // {width} AS span,
           min(started_at) AS first_time, max(started_at) AS last_time,
           min(struct_pack(t := started_at, f := file, l := first_line)) AS first_seen,
           count(*) AS hands, sum(net) AS net
    FROM ({played}) p GROUP BY ALL
),
counted AS (SELECT sum(hands) AS played, coalesce(sum(hands) FILTER (WHERE span IS NOT NULL), 0) AS dated FROM b),
edges AS (  -- a span starts a session when its first hand comes the gap or more after the last one before
    SELECT {listed}, span,
           coalesce(epoch_us(min(first_time)) - epoch_us(lag(max(last_time)) OVER spans) >= {width}, TRUE) AS starts
    FROM b WHERE span IS NOT NULL GROUP BY {listed}, span
    WINDOW spans AS (PARTITION BY {listed} ORDER BY span)
),
numbered AS (
    SELECT {listed}, span, sum(CAST(starts AS INTEGER)) OVER (PARTITION BY {listed} ORDER BY span
                                                              ROWS UNBOUNDED PRECEDING) AS session
    FROM edges
),
parts AS (
    SELECT {", ".join(f"b.{key}" for key in keys)}, n.session, b.site, b.table_name, b.tournament_id, b.big_bet,
           min(b.first_seen) AS first_seen, min(b.first_time) AS first_time, max(b.last_time) AS last_time,
           CAST(sum(b.hands) AS BIGINT) AS hands, CAST(sum(b.net) AS BIGINT) AS net
    FROM b JOIN numbered n ON {same} AND n.span = b.span
    GROUP BY ALL
),
found AS (
    SELECT {listed}, session, min(first_time) AS start, max(last_time) AS "end",
           min(min(first_seen)) OVER (PARTITION BY {listed}) AS keys_seen,
           list(struct_pack(site := site, table_name := table_name, tournament_id := tournament_id, big_bet := big_bet,
                            hands := hands, net := net) ORDER BY first_seen) AS parts
    FROM parts GROUP BY {listed}, session
)
SELECT c.played, c.dated, s.* EXCLUDE (keys_seen)
FROM counted c LEFT JOIN found s ON TRUE
ORDER BY s.keys_seen, {", ".join(f"s.{key}" for key in keys)}, s.session"""


def sessions_columns(*, by_table: bool = False) -> tuple[str, ...]:
    """The names of :func:`sessions_sql`'s columns, in order."""
    return ("played", "dated", *(_TABLE_KEYS if by_table else _KEYS), "session", "start", "end", "parts")


def session_rows(store: Store, hand_filter: HandFilter, gap_minutes: int, *, by_table: bool,
                 heroes_only: bool) -> list[dict[str, Any]]:
    """The rows of :func:`sessions_sql` (keyed by :func:`sessions_columns`) over the stored facts of the hands
    ``hand_filter`` selects: every player's hands, or (``heroes_only``) each hand's hero's."""
    names = sessions_columns(by_table=by_table)
    with selected_facts(store, hand_filter) as (facts, params):
        played = played_sql(facts, heroes_only=heroes_only)
        return [dict(zip(names, row, strict=True))
                for row in store.run(sessions_sql(played, gap_minutes, by_table=by_table), params)]


def sessions_in_memory(columns: Mapping[str, Sequence[Any]], gap_minutes: int, *,
                       by_table: bool = False) -> list[dict[str, Any]]:
    """The rows of :func:`sessions_sql` over played hands given as ``columns`` (every one of
    :data:`PLAYED_COLUMNS` but ``file`` and ``first_line``: their order stands for those), run by an
    in-memory DuckDB."""
    import duckdb
    import pyarrow as pa

    count = len(columns["player"])
    types = {"unit": pa.int64(), "net": pa.int64(), "big_bet": pa.int64(), "started_at": pa.timestamp("us")}
    table = pa.table({**{name: pa.array(list(values), types.get(name, pa.string())) for name, values in columns.items()},
                      "file": pa.array([""] * count, pa.string()),
                      "first_line": pa.array(range(count), pa.int64())})
    with duckdb.connect(":memory:") as con:
        con.register("played", table)
        rows = con.execute(sessions_sql("SELECT * FROM played", gap_minutes, by_table=by_table)).fetchall()
    names = sessions_columns(by_table=by_table)
    return [dict(zip(names, row, strict=True)) for row in rows]
