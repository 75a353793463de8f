"""Violation summaries across the store (`hhtool violations`), computed in DuckDB.

Findings are those of each hand's own rule profile (the one it was replayed under at import).
"""

from __future__ import annotations

from typing import Any

import polars as pl

from hhtool.replay.codes import Code
from hhtool.reports.filters import HandFilter
from hhtool.store import Store

BREAKDOWNS = ("code", "site", "player", "date", "hand")

_BASE = """
    SELECT v.*, h.started_at, h.currency, h.unit
    FROM violations v JOIN hands h ON v.site = h.site AND v.hand_id = h.hand_id AND v.profile = h.rules_profile
    WHERE {where}
"""
# Money at stake in a hand: what the site paid differently from what the rules award, summed over players.
_AT_STAKE = """
    SELECT r.site, r.hand_id, CAST(sum(abs(r.site_amount - r.rules_amount)) AS BIGINT) AS misawarded
    FROM rule_awards r JOIN hands h ON r.site = h.site AND r.hand_id = h.hand_id AND r.profile = h.rules_profile
    GROUP BY ALL
"""


def _conditions(hand_filter: HandFilter, code: Code | None, player: str | None) -> tuple[str, list[Any]]:
    """The hands chosen, and of their violations those of ``code`` and by ``player``."""
    where, params = hand_filter.sql()
    for column, value in (("v.code", code.value if code else None), ("v.player", player)):
        if value:
            where += f" AND {column} = ?"
            params.append(value)
    return where, params


def violation_summary(store: Store, by: str, hand_filter: HandFilter, code: Code | None = None,
                      player: str | None = None, limit: int | None = None) -> pl.DataFrame:
    """One breakdown of the violations: counts per code, site, player, date, or the worst hands;
    a filter naming one hand drills down into its violations."""
    where, params = _conditions(hand_filter, code, player)
    base = _BASE.format(where=where)
    if hand_filter.hand_id is not None:  # drill down: the violations of that hand, in the order of its lines
        return store.frame(f"SELECT site, hand_id, code, street, player, expected, actual, message, file, line "
                           f"FROM ({base}) ORDER BY site, line", params)
    if by == "hand":
        sql = f"""
            SELECT b.site, b.hand_id, any_value(b.started_at) AS started_at, count(*) AS violations,
                   string_agg(DISTINCT b.code, ',' ORDER BY b.code) AS codes,
                   coalesce(any_value(s.misawarded), 0) AS misawarded, any_value(b.currency) AS currency
            FROM ({base}) b LEFT JOIN ({_AT_STAKE}) s ON b.site = s.site AND b.hand_id = s.hand_id
            GROUP BY b.site, b.hand_id
            ORDER BY violations DESC, misawarded DESC, b.site, b.hand_id"""
    else:
        key = {"code": "code", "site": "site", "player": "coalesce(player, '(hand)')",
               "date": "CAST(started_at AS DATE)"}[by]
        name = "day" if by == "date" else by
        sql = f"""
            SELECT {key} AS {name}, count(*) AS violations, count(DISTINCT site || ':' || hand_id) AS hands
            FROM ({base}) GROUP BY 1 ORDER BY violations DESC, 1"""
    if limit:
        sql += f" LIMIT {int(limit)}"
    return store.frame(sql, params)
