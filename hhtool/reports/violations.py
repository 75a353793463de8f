"""Violation summaries across the store (`hhtool violations`), summed in DuckDB
(:mod:`hhtool.store.violation_queries`); the money a hand with a wrong return or award misawarded is
counted again by the replay's own settlement (:func:`misawarded_with_returns`).

Findings are those of each hand's own rule profile (the one it was replayed under at import).
Money stays an integer in the smallest unit beside the hand's ``currency`` and ``unit``;
:func:`terminal_view` spells it in the currency for a person.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from hhtool.money import format_money
from hhtool.replay.codes import Code
from hhtool.store import Store
from hhtool.store.filters import HandFilter
from hhtool.store.violation_queries import stored_profiles, violations_by, violations_of_hands, violations_per_hand
from hhtool.store.violation_queries import violation_conditions as stored_conditions


def misawarded_with_returns(store: Store, keys: list[tuple[str, str]]) -> dict[tuple[str, str], int]:
    """The money misawarded in each of these stored hands as the dispute report counts it, returns
    included (:func:`hhtool.reports.dispute.settlement.misawarded_total`), under each hand's own profile."""
    if not keys:
        return {}
    from hhtool.replay import judged, profile_for
    from hhtool.replay.profiles import PROFILES, ChosenProfile
    from hhtool.reports.dispute.settlement import differences_of, misawarded_total
    from hhtool.store.load import load_hands_by_key

    profiles = stored_profiles(store, keys)
    found: dict[tuple[str, str], int] = {}
    for hand in load_hands_by_key(store, keys):
        stored = profiles.get((hand.site, hand.hand_id))
        chosen = ChosenProfile(PROFILES[stored], False) if stored in PROFILES else profile_for(hand)
        state, result = judged(hand, chosen)
        wrong = {v.player for v in result.violations if v.code == Code.UNCALLED_BET and v.player}
        found[(hand.site, hand.hand_id)] = misawarded_total(differences_of(hand, state, chosen.profile, result.awards,
                                                                           wrong))
    return found


def violation_conditions(hand_filter: HandFilter, code: Code | None, player: str | None) -> tuple[str, list[Any]]:
    """The hands chosen, and of their violations those of ``code`` and by ``player``
    (:func:`hhtool.store.violation_queries.violation_conditions`)."""
    return stored_conditions(hand_filter, code.value if code else None, player)


def violation_summary(store: Store, by: str, hand_filter: HandFilter, code: Code | None = None,
                      player: str | None = None, limit: int | None = None) -> pl.DataFrame:
    """One breakdown of the violations: counts per code, site, player, date, or the worst hands;
    a filter naming one hand drills down into its violations."""
    where, params = violation_conditions(hand_filter, code, player)
    if hand_filter.hand_id is not None:  # drill down: the violations of that hand, in the order of its lines
        return violations_of_hands(store, where, params)
    if by == "hand":
        frame = violations_per_hand(store, where, params)
        # (a site paying returns with its awards shows a short return as an award paid short: POT_AWARD)
        returned = frame.filter(pl.col("codes").str.contains(f"{Code.UNCALLED_BET.value}|{Code.POT_AWARD.value}"))
        again = misawarded_with_returns(store, list(zip(returned["site"], returned["hand_id"], strict=True)))
        if again:
            amounts = [again.get((site, hand_id), amount)
                       for site, hand_id, amount in frame.select("site", "hand_id", "misawarded").iter_rows()]
            frame = frame.with_columns(pl.Series("misawarded", amounts, dtype=frame.schema["misawarded"]))
            frame = frame.sort(["violations", "misawarded", "site", "hand_id"], descending=[True, True, False, False])
        return frame.head(limit) if limit else frame
    return violations_by(store, by, where, params, limit, hand_filter.zone)


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
