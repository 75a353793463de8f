"""The queries of `hhtool violations` (:mod:`hhtool.reports.violations` decides what is summed and recounts
the money a hand misawarded): the stored violations of the hands a filter selects, each hand's under its
own rule profile, and their sums per code, site, player, day or hand.

Money stays an integer in the smallest unit beside the hand's ``currency`` and ``unit``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from hhtool.store.filters import player_condition

if TYPE_CHECKING:
    import polars as pl

    from hhtool.store import Store
    from hhtool.store.filters import HandFilter

_BASE = """
    SELECT v.*, h.started_utc AS started_at, h.currency, h.unit
    FROM violations v JOIN hands h ON v.site = h.site AND v.hand_id = h.hand_id AND v.profile = h.rules_profile
    WHERE {where}
"""
# Money misawarded in a hand from its stored pot awards: what the site paid players beyond what the rules
# award them (paying one player's $0.18 to another is $0.18, not $0.36 with both sides summed). The report
# counts a hand with a wrong uncalled return or award again by the replay's own settlement, returns
# included. A pot paid short to nobody is no money moved: POT_TOTAL reports it.
_AT_STAKE = """
    SELECT r.site, r.hand_id, CAST(sum(greatest(r.site_amount - r.rules_amount, 0)) AS BIGINT) AS misawarded
    FROM rule_awards r JOIN hands h ON r.site = h.site AND r.hand_id = h.hand_id AND r.profile = h.rules_profile
    GROUP BY ALL
"""
#: the breakdowns of :func:`violations_by`: the column each groups by, and its name in the rows
BREAKDOWNS = {"code": ("code", "code"), "site": ("site", "site"), "player": ("coalesce(player, '(hand)')", "player"),
              "date": ("CAST(timezone(?, timezone('UTC', started_at)) AS DATE)", "day")}  # (?: the user's zone)


def violation_conditions(hand_filter: HandFilter, code: str | None, player: str | None) -> tuple[str, list[Any]]:
    """The hands chosen, and of their violations those of ``code`` (its stored value) and by ``player`` (a name,
    or an alias: every site name it groups)."""
    where, params = hand_filter.sql()
    if code:
        where += " AND v.code = ?"
        params.append(code)
    if player:
        who, who_params = player_condition((player,), "h.site", "v.player")  # (v: the view, or keyed by hk)
        where += f" AND {who}"
        params.extend(who_params)
    return where, params


def stored_profiles(store: Store, keys: Sequence[tuple[str, str]]) -> dict[tuple[str, str], str]:
    """The rule profile each of these stored hands (site, hand id) was replayed under at import."""
    wanted = [f"{site}:{hand_id}" for site, hand_id in keys]
    rows = store.run("SELECT site, hand_id, rules_profile FROM hands h "
                     "WHERE list_contains(?, h.site || ':' || h.hand_id)", [wanted])
    return {(str(site), str(hand_id)): str(profile) for site, hand_id, profile in rows if profile is not None}


def violations_of_hands(store: Store, where: str, params: list[Any]) -> pl.DataFrame:
    """The violations ``where`` (:func:`violation_conditions`) chooses, in the order of their hands' lines."""
    return store.frame(f"SELECT site, hand_id, code, street, player, expected, actual, message, file, line "
                       f"FROM ({_BASE.format(where=where)}) ORDER BY site, line", params)


def violations_per_hand(store: Store, where: str, params: list[Any]) -> pl.DataFrame:
    """Per hand with a violation ``where`` chooses: its start (the UTC instant), how many, their codes, the money
    misawarded by its stored awards (0: none), its currency and unit; the most violations first, then the most money."""
    return store.frame(f"""
        SELECT b.site, b.hand_id, any_value(b.started_at) AS started_at, count(*) AS violations,
               string_agg(DISTINCT b.code, ',' ORDER BY b.code) AS codes,
               coalesce(any_value(s.misawarded), 0) AS misawarded, any_value(b.currency) AS currency,
               any_value(b.unit) AS unit
        FROM ({_BASE.format(where=where)}) b LEFT JOIN ({_AT_STAKE}) s ON b.site = s.site AND b.hand_id = s.hand_id
        GROUP BY b.site, b.hand_id
        ORDER BY violations DESC, misawarded DESC, b.site, b.hand_id""", params)


def violations_by(store: Store, by: str, where: str, params: list[Any], limit: int | None = None,
                  zone: str = "UTC") -> pl.DataFrame:
    """The violations ``where`` chooses counted per value of the breakdown ``by`` (:data:`BREAKDOWNS`), with the
    hands they are in; the most first, the first ``limit`` rows when given; a day is one of ``zone``."""
    key, name = BREAKDOWNS[by]
    params = [zone, *params] if "?" in key else params
    sql = f"""
        SELECT {key} AS {name}, count(*) AS violations, count(DISTINCT site || ':' || hand_id) AS hands
        FROM ({_BASE.format(where=where)}) GROUP BY 1 ORDER BY violations DESC, 1"""
    if limit:
        sql += f" LIMIT {int(limit)}"
    return store.frame(sql, params)
