"""The graph page of `hhtool serve`: a player's running winnings (total, showdown, non-showdown) as
points a page draws into an SVG, each point naming the hand it ends on, so that a click opens it.

The series is the one `hhtool graph` draws (:func:`hhtool.reports.graph.drawing`), a point per hand,
thinned to at most :data:`MAX_POINTS` points (always keeping the first and the last hand). Over
:data:`PER_HAND_LIMIT` hands it is summed in SQL instead (:mod:`hhtool.reports.graph_buckets`): a point
per span of time (the narrowest span giving at most :data:`MAX_POINTS`), each the exact totals after
that span's last hand, which it names; a million hands are never sorted nor sent to Python.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from hhtool.money import format_money
from hhtool.reports.choices import Axis, Unit
from hhtool.reports.graph import GraphError, drawing
from hhtool.service.errors import UsageError
from hhtool.service.filters import require_matches
from hhtool.service.stats_cache import report_store
from hhtool.service.stores import Database
from hhtool.store import Store
from hhtool.store.filters import HandFilter
from hhtool.store.graph_queries import heroes
from hhtool.store.lookups import most_played_hero, smallest_unit

#: points drawn at most (a screen is not wider than this)
MAX_POINTS = 1500
#: the most hands drawn from the series a hand at a time; more are summed per span of time in SQL
PER_HAND_LIMIT = 20_000
LINES = ("total", "showdown", "non_showdown", "allin_ev")


@dataclass(frozen=True)
class Point:
    """One point: the hand (its number in the series, its site and id, its date) and the four totals."""

    number: int
    site: str
    hand_id: str
    started_at: datetime | None
    total: float
    showdown: float
    non_showdown: float
    total_text: str
    allin_ev: float  # the total with each all-in hand's net replaced by its EV net


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
    from hhtool.store.graph_queries import hands_per_currency

    with report_store(database) as store:
        require_matches(store, hand_filter, player)
        found = heroes(store, hand_filter)
        if player is None:
            if not found:
                raise UsageError("choose a player: no hero is recorded in the hands the filters select")
            where, params = hand_filter.sql()
            player = most_played_hero(store, where, params) or found[0]
        per_currency = hands_per_currency(store, hand_filter, player)
        currencies = list(per_currency)  # the currency he played most in first; the page offers the others
        if currency is None and currencies:
            currency = currencies[0]
        chosen = currency.upper() if currency else None
        if chosen is not None and per_currency.get(chosen, 0) > PER_HAND_LIMIT:
            return _summed(store, hand_filter, player, chosen, per_currency[chosen], unit, axis, found, currencies)
        try:
            drawn = drawing(store, hand_filter, player, chosen, unit, axis)
        except GraphError as error:
            raise UsageError(str(error)) from error
    series = drawn.series
    values = {line: drawn.values(line) for line in LINES}
    sites, ids, dates = series["site"].to_list(), series["hand_id"].to_list(), series["started_at"].to_list()
    points = [Point(index + 1, str(sites[index]), str(ids[index]), dates[index], values["total"][index],
                    values["showdown"][index], values["non_showdown"][index], drawn.label(values["total"][index]),
                    values["allin_ev"][index])
              for index in _thinned(series.height, MAX_POINTS)]
    every = [value for line in LINES for value in values[line]] + [0.0]
    ticks = [(tick, drawn.label(tick)) for tick in nice_ticks(min(every), max(every))]
    data = GraphData(player, series.height, drawn.left_out, unit, axis, drawn.title(), drawn.y_title, drawn.x_title,
                     points, found, currencies, drawn.currency)
    return data, ticks


def _summed(store: Store, hand_filter: HandFilter, player: str, currency: str, hands: int, unit: Unit, axis: Axis,
            found: list[str], currencies: list[str]) -> tuple[GraphData, list[tuple[float, str]]]:
    """The graph of a long series: a point per span of time, summed in SQL (module docstring)."""
    import polars as pl

    from hhtool.reports.graph import Drawing, nice_ticks
    from hhtool.reports.graph_buckets import bucket_width, bucketed

    width = bucket_width(store, hand_filter, player, currency, MAX_POINTS)
    buckets = bucketed(store, hand_filter, player, currency, unit, axis, width)
    if not buckets:
        need = " and ".join(w for w, on in (("a date", axis is Axis.date), ("a known big bet", unit is Unit.bb)) if on)
        raise UsageError(f"none of the {hands} hands of {player!r} has {need}")
    labels = Drawing(pl.DataFrame({"unit": [smallest_unit(store, currency) or 1], "currency": [currency]}), player, unit, axis)
    kept = [buckets[index] for index in _thinned(len(buckets), MAX_POINTS)]
    points = [Point(b.number, "", "", b.started_at, b.total, b.showdown, b.non_showdown, labels.label(b.total),
                    b.allin_ev) for b in kept]  # (no site nor id: a point's hand is looked up when it is clicked, last_hand)
    every = [value for b in buckets for value in (b.total, b.showdown, b.non_showdown, b.allin_ev)] + [0.0]
    ticks = [(tick, labels.label(tick)) for tick in nice_ticks(min(every), max(every))]
    drawn = buckets[-1].number
    final = buckets[-1].total  # (worded as the per-hand graph's title words it)
    total = f"{final:+.2f} BB" if unit is Unit.bb else f"{format_money(int(final), labels.money_unit)} {currency}"
    data = GraphData(player, drawn, hands - drawn, unit, axis, f"Winnings of {player}: {total} over {drawn:,} hands "
                     f"(a point per {_span_words(width)})", labels.y_title, labels.x_title, points, found, currencies,
                     currency)
    return data, ticks


def last_hand(database: Database, hand_filter: HandFilter, player: str, currency: str, unit: Unit, axis: Axis,
              started_at: datetime | None) -> tuple[str, str]:
    """The hand a point of a long series ends on: the player's last drawn hand started at ``started_at``
    (None: without a date). UsageError when there is none (the store changed since the page was drawn)."""
    from hhtool.reports.graph_buckets import last_hand_at

    with report_store(database) as store:
        found = last_hand_at(store, hand_filter, player, currency.upper(), unit, axis, started_at)
    if found is None:
        raise UsageError(f"no hand of {player!r} started at {started_at or 'an unknown time'}")
    return found


def _span_words(seconds: int) -> str:
    for size, word in ((365 * 86_400, "year"), (30 * 86_400, "30 days"), (7 * 86_400, "week"), (86_400, "day"),
                       (3600, "hour"), (60, "minute")):
        if seconds % size == 0:
            count = seconds // size
            return word if count == 1 else f"{count} {word}s"
    return f"{seconds} s"


__all__ = ["LINES", "MAX_POINTS", "PER_HAND_LIMIT", "Axis", "GraphData", "Point", "Unit", "graph_points", "last_hand"]
