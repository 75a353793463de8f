"""The reports over stored hands: per-player statistics (`stats`, definitions in docs/stats.md) and
the cumulative winnings graph (`graph`), both on the stored facts (refreshed first when missing)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import polars as pl

from hhtool.reports.graph import Axis, GraphError, Unit, drawing, write_graph
from hhtool.reports.stats import Breakdown, player_stats
from hhtool.reports.stats_view import TerminalChoice, UnknownColumn, opposite_sign_notes, ordered, terminal_view
from hhtool.service.errors import UsageError
from hhtool.service.filters import require_matches
from hhtool.service.out_files import prepare_out_file
from hhtool.service.stats_cache import report_store
from hhtool.service.stores import Database
from hhtool.service.times import in_user_zone
from hhtool.store.filters import HandFilter
from hhtool.store.graph_queries import heroes

GRAPH_SUFFIXES = (".svg", ".html", ".htm")


def stats(database: Database, hand_filter: HandFilter, by: Breakdown | None = None, min_hands: int = 0,
          terminal: TerminalChoice | None = None, sort: str | None = None, limit: int | None = None) -> pl.DataFrame:
    """One row per player and currency (per ``by`` group) with every statistic, sorted by the column
    ``sort`` names and cut to ``limit`` rows; with ``terminal``, the view the terminal shows (the
    default columns, the chosen ones, or every statistic). UsageError for an unknown column."""
    return stats_and_notes(database, hand_filter, by, min_hands, terminal, sort, limit)[0]


def stats_and_notes(database: Database, hand_filter: HandFilter, by: Breakdown | None = None, min_hands: int = 0,
                    terminal: TerminalChoice | None = None, sort: str | None = None,
                    limit: int | None = None) -> tuple[pl.DataFrame, list[str]]:
    """:func:`stats`, and the lines that explain its rows' net and bb/100 of opposite signs
    (:func:`~hhtool.reports.stats_view.opposite_sign_notes`), for a reader of the table."""
    with report_store(database) as store:
        require_matches(store, hand_filter)
        frame = player_stats(store, hand_filter, by=by, min_hands=min_hands)
    try:
        frame = ordered(frame, sort, limit)
        notes = opposite_sign_notes(frame, by)
        return (terminal_view(frame, by, terminal) if terminal is not None else frame), notes
    except UnknownColumn as error:
        raise UsageError(str(error)) from None


@dataclass(frozen=True)
class Graphed:
    """Whose winnings were drawn, over how many hands, and how many of the player's hands were left
    out (without a date for a graph by date, without a known big bet for one in big bets)."""

    player: str
    hands: int
    left_out: int = 0
    replays: int = 0  # replay pages written beside an HTML page (in its .hands folder)


def graph(database: Database, hand_filter: HandFilter, path: Path, player: str | None = None,
          currency: str | None = None, unit: Unit = Unit.money, axis: Axis = Axis.hands) -> Graphed:
    """Draw the player's cumulative winnings (total, showdown, non-showdown) to ``path`` (SVG or HTML,
    by its suffix), in money or big bets, against hands played or dates; without a player, the hero
    when the hands have exactly one."""
    if path.suffix.lower() not in GRAPH_SUFFIXES:
        # PNG was matplotlib's, a second way to draw the chart; the SVG is the same image, sharp at every size
        dropped = " (no more PNG: an .svg opens in any browser)" if path.suffix.lower() == ".png" else ""
        raise UsageError(f"--out must end in .svg or .html, not {path.name!r}{dropped}")
    with report_store(database) as store:
        require_matches(store, hand_filter, player)
        if player is None:
            found = heroes(store, hand_filter)
            if len(found) != 1:
                which = f"the hands have several heroes ({', '.join(found[:5])})" if found else "no hero is recorded"
                raise UsageError(f"--player is required: {which}")
            player = found[0]
        try:
            drawn = drawing(store, hand_filter, player, currency.upper() if currency else None, unit, axis)
        except GraphError as error:
            raise UsageError(str(error)) from error
        drawn = replace(drawn, series=in_user_zone(drawn.series))  # (ordered by UTC instant, labelled in the user's zone)
        replays = write_graph(drawn, prepare_out_file(path), store)  # (an HTML page's replays: from the store)
    return Graphed(player, drawn.series.height, drawn.left_out, replays)


__all__ = ["Axis", "Breakdown", "Graphed", "TerminalChoice", "Unit", "graph", "stats"]
