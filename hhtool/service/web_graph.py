"""The graph page of `hhtool serve`: a player's running winnings (total, showdown, non-showdown) as
points a page draws into an SVG, each point naming the hand it ends on, so that a click opens it.

The series is the one `hhtool graph` draws (:func:`hhtool.reports.graph.drawing`); a long one is
thinned to at most :data:`MAX_POINTS` points, always keeping the first and the last hand.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from hhtool.reports.choices import Axis, Unit
from hhtool.reports.filters import HandFilter
from hhtool.reports.graph import GraphError, drawing, heroes
from hhtool.service.errors import UsageError
from hhtool.service.facts import report_store
from hhtool.service.filters import require_matches
from hhtool.service.stores import Database

#: points drawn at most (a screen is not wider than this)
MAX_POINTS = 1500
LINES = ("total", "showdown", "non_showdown")


@dataclass(frozen=True)
class Point:
    """One point: the hand (its number in the series, its site and id, its date) and the three totals."""

    number: int
    site: str
    hand_id: str
    started_at: datetime | None
    total: float
    showdown: float
    non_showdown: float
    total_text: str


@dataclass(frozen=True)
class GraphData:
    player: str
    hands: int
    left_out: int
    unit: Unit
    axis: Axis
    title: str
    y_title: str
    x_title: str
    points: list[Point]
    players: list[str]  # whom the store's hands name as hero: the page offers them
    currencies: list[str]  # the player's, most hands first
    currency: str


def _thinned(count: int, limit: int) -> list[int]:
    if count <= limit:
        return list(range(count))
    step = (count - 1) / (limit - 1)
    return sorted({round(index * step) for index in range(limit)} | {count - 1})


def graph_points(database: Database, hand_filter: HandFilter, player: str | None = None, currency: str | None = None,
                 unit: Unit = Unit.money, axis: Axis = Axis.hands) -> tuple[GraphData, list[tuple[float, str]]]:
    """The player's series as points (without a player: the hands' one hero), and the y axis's ticks
    as (value, label); without a player, the hero of the most hands. UsageError when it cannot be
    drawn as asked. Without ``currency``, in the one the
    player has most hands in."""
    from hhtool.reports.graph import nice_ticks

    with report_store(database) as store:
        require_matches(store, hand_filter, player)
        found = heroes(store, hand_filter)
        if player is None:
            if not found:
                raise UsageError("choose a player: no hero is recorded in the hands the filters select")
            where, params = hand_filter.sql()
            player = str(store.run(f"SELECT h.hero FROM hands h WHERE h.hero IS NOT NULL AND {where} "
                                   "GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1", params)[0][0])
        where, params = replace(hand_filter, players=(player,)).sql()
        currencies = [str(row[0]) for row in store.run(
            f"SELECT h.currency FROM hands h WHERE {where} GROUP BY 1 ORDER BY count(*) DESC, 1", params)]
        if currency is None and currencies:  # the currency he played most in; the page offers the others
            currency = currencies[0]
        try:
            drawn = drawing(store, hand_filter, player, currency.upper() if currency else None, unit, axis)
        except GraphError as error:
            raise UsageError(str(error)) from error
    series = drawn.series
    values = {line: drawn.values(line) for line in LINES}
    sites, ids, dates = series["site"].to_list(), series["hand_id"].to_list(), series["started_at"].to_list()
    points = [Point(index + 1, str(sites[index]), str(ids[index]), dates[index], values["total"][index],
                    values["showdown"][index], values["non_showdown"][index], drawn.label(values["total"][index]))
              for index in _thinned(series.height, MAX_POINTS)]
    every = [value for line in LINES for value in values[line]] + [0.0]
    ticks = [(tick, drawn.label(tick)) for tick in nice_ticks(min(every), max(every))]
    data = GraphData(player, series.height, drawn.left_out, unit, axis, drawn.title(), drawn.y_title, drawn.x_title,
                     points, found, currencies, drawn.currency)
    return data, ticks


__all__ = ["LINES", "MAX_POINTS", "Axis", "GraphData", "Point", "Unit", "graph_points"]
