"""`hhtool tournaments`: the tournaments of the players asked for, or of the hands' heroes, with the
buy-in, the finish and the chips won in each (:mod:`hhtool.reports.tournaments`)."""

from __future__ import annotations

import polars as pl

from hhtool.reports.tournaments import (
    OPTIONAL_HEADERS,
    UNCUT_HEADERS,
    terminal_view,
    totals_lines,
    tournaments_frame,
)
from hhtool.service.filters import require_matches
from hhtool.service.stats_cache import report_store
from hhtool.service.stores import Database
from hhtool.service.times import in_user_zone
from hhtool.store.filters import HandFilter
from hhtool.store.tournament_queries import tournament_rows


def tournaments(database: Database, hand_filter: HandFilter, *, terminal: bool = False) -> pl.DataFrame:
    """One row per tournament and player (none named: each hand's hero), newest first; with
    ``terminal``, the columns the terminal shows (no row: no tournament hand of theirs matches).
    NothingMatched (a UsageError) when the filters select no hand at all."""
    return tournaments_and_totals(database, hand_filter, terminal=terminal)[0]


def tournaments_and_totals(database: Database, hand_filter: HandFilter, *,
                           terminal: bool = False) -> tuple[pl.DataFrame, list[str]]:
    """:func:`tournaments`, and their totals per buy-in currency as sentences (profit, ROI, in the
    money; what is unknown said so: :func:`~hhtool.reports.tournaments.totals_lines`)."""
    with report_store(database) as store:
        require_matches(store, hand_filter)
        rows = tournament_rows(store, hand_filter, heroes_only=not hand_filter.players)
    frame = in_user_zone(tournaments_frame(rows), "first_hand", "last_hand")  # (UTC instants, ordered before)
    if frame.is_empty():
        return frame, []
    totals = totals_lines(frame)
    if terminal:
        return terminal_view(frame, frame["player"].n_unique() > 1, frame["site"].n_unique() > 1), totals
    return frame, totals


__all__ = ["OPTIONAL_HEADERS", "UNCUT_HEADERS", "tournaments", "tournaments_and_totals"]
