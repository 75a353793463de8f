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
# Money misawarded in a hand from its stored pot awards: what the site paid players beyond what the rules
# award them (paying one player's $0.18 to another is $0.18, not $0.36 with both sides summed). A hand
# with a wrong uncalled return or award (UNCALLED_BET, POT_AWARD) is counted again by the replay's own settlement
# (:func:`misawarded_with_returns`), where the money returned short counts too: one source, R10 as the
# replay applies it. A pot paid short to nobody is no money moved: POT_TOTAL reports it.
_AT_STAKE = """
    SELECT r.site, r.hand_id, CAST(sum(greatest(r.site_amount - r.rules_amount, 0)) AS BIGINT) AS misawarded
    FROM rule_awards r JOIN hands h ON r.site = h.site AND r.hand_id = h.hand_id AND r.profile = h.rules_profile
    GROUP BY ALL
"""


def misawarded_with_returns(store: Store, keys: list[tuple[str, str]]) -> dict[tuple[str, str], int]:
    """The money misawarded in each of these stored hands as the dispute report counts it, returns
    included (:func:`hhtool.reports.dispute.settlement.misawarded_total`), under each hand's own profile."""
    if not keys:
        return {}
    from hhtool.replay import judged, profile_for
    from hhtool.replay.profiles import PROFILES, ChosenProfile
    from hhtool.reports.dispute.settlement import differences_of, misawarded_total
    from hhtool.store.load import load_hands

    wanted = [f"{site}:{hand_id}" for site, hand_id in keys]
    profiles = dict(store.run("SELECT site || ':' || hand_id, rules_profile FROM hands h "
                              "WHERE list_contains(?, h.site || ':' || h.hand_id)", [wanted]))
    found: dict[tuple[str, str], int] = {}
    for hand in load_hands(store, "list_contains(?, h.site || ':' || h.hand_id)", [wanted]):
        stored = profiles.get(f"{hand.site}:{hand.hand_id}")
        chosen = ChosenProfile(PROFILES[stored], False) if stored in PROFILES else profile_for(hand)
        state, result = judged(hand, chosen)
        wrong = {v.player for v in result.violations if v.code == Code.UNCALLED_BET and v.player}
        found[(hand.site, hand.hand_id)] = misawarded_total(differences_of(hand, state, chosen.profile, result.awards,
                                                                           wrong))
    return found


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
        frame = store.frame(sql, params)
        # (a site paying returns with its awards shows a short return as an award paid short: POT_AWARD)
        returned = frame.filter(pl.col("codes").str.contains(f"{Code.UNCALLED_BET.value}|{Code.POT_AWARD.value}"))
        again = misawarded_with_returns(store, list(zip(returned["site"], returned["hand_id"], strict=True)))
        if again:
            amounts = [again.get((site, hand_id), amount)
                       for site, hand_id, amount in frame.select("site", "hand_id", "misawarded").iter_rows()]
            frame = frame.with_columns(pl.Series("misawarded", amounts, dtype=frame.schema["misawarded"]))
            frame = frame.sort(["violations", "misawarded", "site", "hand_id"], descending=[True, True, False, False])
        return frame.head(limit) if limit else frame
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
    smallest units, ``currency`` and ``unit``, and the start to the minute; a frame without them as it is."""
    if "started_at" in frame.columns and frame.schema["started_at"].is_temporal():  # to the minute, as `hands`
        frame = frame.with_columns(pl.col("started_at").dt.strftime("%Y-%m-%d %H:%M"))
    if "misawarded" not in frame.columns:
        return frame
    spelled = [format_money(int(amount), int(unit), currency)
               for amount, unit, currency in frame.select("misawarded", "unit", "currency").iter_rows()]
    return frame.with_columns(pl.Series("misawarded", spelled, dtype=pl.Utf8)).drop("currency", "unit")
