"""Violation summaries across the store (`hhtool violations`), computed in DuckDB.

Findings are those of each hand's own rule profile (the one it was replayed under at import).
Money stays an integer in the smallest unit beside the hand's ``currency`` and ``unit``;
:func:`terminal_view` spells it in the currency for a person.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from hhtool.money import format_money
from hhtool.replay.codes import Code
from hhtool.reports.filters import HandFilter, player_condition
from hhtool.store import Store

_BASE = """
    SELECT v.*, h.started_at, h.currency, h.unit
    FROM violations v JOIN hands h ON v.site = h.site AND v.hand_id = h.hand_id AND v.profile = h.rules_profile
    WHERE {where}
"""
# Money misawarded in a hand, each amount counted once, as the dispute report counts it
# (hhtool.reports.dispute.settlement.misawarded_total): what the site paid players beyond what the rules
# award them (paying one player's $0.18 to another is $0.18, not $0.36 with both sides summed), plus the
# uncalled bets it returned short (R10) that no overpaid player received. Per player: ``award`` his
# award row, site minus rules; ``returned`` the uncalled bet returned to him, site minus rules, where
# the audit found it wrong (UNCALLED_BET); ``own_in_award`` the rules' return inside his award row
# where the site pays returns with its awards (an ``uncalled_in_awards`` profile, the first parameter,
# and no return line). The rules' return is R10 as the replay applies it: on each street, the part of
# the highest total (antes apart) nobody else matched. A pot paid short to nobody is no player's own
# money moved: POT_TOTAL reports it.
_AT_STAKE = f"""
    WITH awarded AS (
        SELECT r.site, r.hand_id, r.player, r.site_amount - r.rules_amount AS award
        FROM rule_awards r JOIN hands h ON r.site = h.site AND r.hand_id = h.hand_id AND r.profile = h.rules_profile
    ), judged AS (
        SELECT DISTINCT v.site, v.hand_id, v.player
        FROM violations v JOIN hands h ON v.site = h.site AND v.hand_id = h.hand_id AND v.profile = h.rules_profile
        WHERE v.code = '{Code.UNCALLED_BET}' AND v.player IS NOT NULL
    ), inside AS (
        SELECT DISTINCT a.site, a.hand_id
        FROM awarded a JOIN hands h ON a.site = h.site AND a.hand_id = h.hand_id
        WHERE a.award < 0 AND list_contains(?, h.rules_profile)
          AND NOT EXISTS (SELECT 1 FROM returns x WHERE x.site = h.site AND x.hand_id = h.hand_id)
    ), street_put AS (
        SELECT a.site, a.hand_id, a.street, a.player, sum(a.amount) AS put
        FROM actions a JOIN (SELECT site, hand_id FROM judged UNION SELECT site, hand_id FROM inside) k
          ON a.site = k.site AND a.hand_id = k.hand_id
        WHERE a.kind <> 'ante'
        GROUP BY ALL
    ), ranked AS (
        SELECT *, row_number() OVER w AS place, lead(put) OVER w AS next_put
        FROM street_put WINDOW w AS (PARTITION BY site, hand_id, street ORDER BY put DESC)
    ), rules_returned AS (
        SELECT site, hand_id, player, sum(put - coalesce(next_put, 0)) AS amount
        FROM ranked WHERE place = 1 AND put > coalesce(next_put, 0)
        GROUP BY ALL
    ), site_returned AS (
        SELECT x.site, x.hand_id, x.player, sum(x.amount) AS amount
        FROM returns x JOIN judged j ON x.site = j.site AND x.hand_id = j.hand_id AND x.player = j.player
        GROUP BY ALL
    ), players AS (
        SELECT site, hand_id, player FROM awarded UNION SELECT site, hand_id, player FROM judged
    ), per_player AS (
        SELECT p.site, p.hand_id, coalesce(a.award, 0) AS award,
               CASE WHEN j.player IS NULL THEN 0 ELSE coalesce(s.amount, 0) - coalesce(rr.amount, 0) END AS returned,
               CASE WHEN i.hand_id IS NULL THEN 0 ELSE coalesce(rr.amount, 0) END AS own_in_award
        FROM players p
        LEFT JOIN awarded a ON a.site = p.site AND a.hand_id = p.hand_id AND a.player = p.player
        LEFT JOIN judged j ON j.site = p.site AND j.hand_id = p.hand_id AND j.player = p.player
        LEFT JOIN site_returned s ON s.site = p.site AND s.hand_id = p.hand_id AND s.player = p.player
        LEFT JOIN rules_returned rr ON rr.site = p.site AND rr.hand_id = p.hand_id AND rr.player = p.player
        LEFT JOIN inside i ON i.site = p.site AND i.hand_id = p.hand_id
    ), shares AS (
        SELECT site, hand_id, award + returned AS total,
               least(greatest(-(award + returned), 0), greatest(-returned, 0) + own_in_award) AS own_short
        FROM per_player
    ), sums AS (
        SELECT site, hand_id, sum(greatest(total, 0)) AS over, sum(own_short) AS own_short,
               sum(greatest(-total, 0)) - sum(own_short) AS pot_short
        FROM shares GROUP BY ALL
    )
    SELECT site, hand_id, CAST(over + greatest(0, own_short - greatest(0, over - pot_short)) AS BIGINT) AS misawarded
    FROM sums
"""


def _returns_in_awards() -> list[str]:
    """The built-in profiles under which a site pays the uncalled bets with its awards."""
    from hhtool.replay.profiles import PROFILES

    return sorted(name for name, profile in PROFILES.items() if profile.uncalled_in_awards)


def violation_conditions(hand_filter: HandFilter, code: Code | None, player: str | None) -> tuple[str, list[Any]]:
    """The hands chosen, and of their violations those of ``code`` and by ``player``."""
    where, params = hand_filter.sql()
    if code:
        where += " AND v.code = ?"
        params.append(code.value)
    if player:  # a name, or an alias: every site name it groups
        who, who_params = player_condition((player,), "h.site", "v.player")  # (v: the view, or keyed by hk)
        where += f" AND {who}"
        params.extend(who_params)
    return where, params


def violation_summary(store: Store, by: str, hand_filter: HandFilter, code: Code | None = None,
                      player: str | None = None, limit: int | None = None) -> pl.DataFrame:
    """One breakdown of the violations: counts per code, site, player, date, or the worst hands;
    a filter naming one hand drills down into its violations."""
    where, params = violation_conditions(hand_filter, code, player)
    base = _BASE.format(where=where)
    if hand_filter.hand_id is not None:  # drill down: the violations of that hand, in the order of its lines
        return store.frame(f"SELECT site, hand_id, code, street, player, expected, actual, message, file, line "
                           f"FROM ({base}) ORDER BY site, line", params)
    if by == "hand":
        sql = f"""
            SELECT b.site, b.hand_id, any_value(b.started_at) AS started_at, count(*) AS violations,
                   string_agg(DISTINCT b.code, ',' ORDER BY b.code) AS codes,
                   coalesce(any_value(s.misawarded), 0) AS misawarded, any_value(b.currency) AS currency,
                   any_value(b.unit) AS unit
            FROM ({base}) b LEFT JOIN ({_AT_STAKE}) s ON b.site = s.site AND b.hand_id = s.hand_id
            GROUP BY b.site, b.hand_id
            ORDER BY violations DESC, misawarded DESC, b.site, b.hand_id"""
        params = [*params, _returns_in_awards()]
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


def terminal_view(frame: pl.DataFrame) -> pl.DataFrame:
    """What the terminal shows: ``misawarded`` in its hand's currency (``$0.18``) in place of the
    smallest units, ``currency`` and ``unit``; a frame without money as it is."""
    if "misawarded" not in frame.columns:
        return frame
    spelled = [format_money(int(amount), int(unit), currency)
               for amount, unit, currency in frame.select("misawarded", "unit", "currency").iter_rows()]
    return frame.with_columns(pl.Series("misawarded", spelled, dtype=pl.Utf8)).drop("currency", "unit")
