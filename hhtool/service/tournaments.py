"""`hhtool tournaments`: the tournaments of the players asked for, or of the hands' heroes, with the
buy-in, the finish and the chips won in each (:mod:`hhtool.reports.tournaments`)."""

from __future__ import annotations

import polars as pl

from hhtool.reports.filters import HandFilter
from hhtool.reports.tournaments import OPTIONAL_HEADERS, UNCUT_HEADERS, terminal_view, tournaments_frame, tournaments_sql
from hhtool.service.filters import require_matches
from hhtool.service.stats_cache import report_store
from hhtool.service.stores import Database
from hhtool.store.player_facts_cache import selected_facts


def tournaments(database: Database, hand_filter: HandFilter, *, terminal: bool = False) -> pl.DataFrame:
    """One row per tournament and player (none named: each hand's hero), newest first; with
    ``terminal``, the columns the terminal shows (no row: no tournament hand of theirs matches).
    NothingMatched (a UsageError) when the filters select no hand at all."""
    whose = "TRUE" if hand_filter.players else "f.player = h.hero"
    with report_store(database) as store:
        require_matches(store, hand_filter)
        with selected_facts(store, hand_filter) as (facts, params):
            rows = store.run(tournaments_sql(facts, whose), params)
    frame = tournaments_frame(rows)
    if frame.is_empty():
        return frame
    return terminal_view(frame, frame["player"].n_unique() > 1, frame["site"].n_unique() > 1) if terminal else frame


__all__ = ["OPTIONAL_HEADERS", "UNCUT_HEADERS", "tournaments"]
