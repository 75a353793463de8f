"""A long winnings series summed in SQL, per span of time, for a graph of at most a screen's points.

The series of :mod:`hhtool.reports.graph` has a row per hand: over a million hands it is a million
rows sorted, sent to Python and thinned there. Here the player's facts are summed in DuckDB
(:mod:`hhtool.store.graph_queries`) per
*bucket*, a span of ``width`` seconds (the hands without a date in one last bucket, as the series
puts them last), with no sort of the hands: each bucket gives its hands, its net (total, at
showdown; in big bets, each hand's net over its own big bet), and its last start time. Running those
sums over the buckets gives the series' totals exactly after each bucket's last hand: a point of the
graph. Which hand that is (the last in the series' order, start time, file, line, site, id, of those
started at that time) is looked up when asked (:func:`last_hand_at`): finding it for every bucket
would cost more than the sums.

The width is the narrowest of :data:`WIDTHS` whose buckets are surely at most ``most``: a day with
``n`` hands makes at most ``min(n, day / width)`` of them (the days' counts come from the daily sums of
the facts cache, a few rows per day).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from hhtool.reports.choices import Axis, Unit
from hhtool.store import Store
from hhtool.store.filters import HandFilter
from hhtool.store.graph_queries import bucket_sums, dated_hands_per_day
from hhtool.store.graph_queries import last_hand_at as last_drawn_hand_at

#: bucket widths in seconds, narrowest first: a minute to a year
WIDTHS = (60, 300, 900, 3600, 4 * 3600, 86_400, 7 * 86_400, 30 * 86_400, 365 * 86_400)
DAY = 86_400


@dataclass(frozen=True)
class Bucket:
    """One point: the series' totals after the bucket's last hand (``number``: its place in the series;
    ``started_at``: its start, None for the bucket of the hands without a date)."""

    number: int
    started_at: datetime | None
    total: float
    showdown: float
    non_showdown: float
    allin_ev: float  # the total with each all-in hand's net replaced by its EV net (docs/allin-ev.md)


def bucket_width(store: Store, hand_filter: HandFilter, player: str, currency: str, most: int) -> int:
    """The narrowest width (seconds) whose buckets of the player's dated hands are at most ``most``."""
    days = dated_hands_per_day(store, hand_filter, player, currency)
    for width in WIDTHS:
        count = (sum(min(hands, DAY // width) for _, hands in days) if width < DAY
                 else len({day // width for day, _ in days}))
        if count <= most:
            return width
    return WIDTHS[-1]


def bucketed(store: Store, hand_filter: HandFilter, player: str, currency: str, unit: Unit, axis: Axis,
             width: int) -> list[Bucket]:
    """The points of the player's series in ``currency``, a bucket each, in order, of the hands drawn: with a
    date when drawn by date, with a known big bet when in big bets (as :func:`hhtool.reports.graph.drawing`
    keeps them)."""
    rows = bucket_sums(store, hand_filter, player, currency, width, dated=axis is Axis.date, in_big_bets=unit is Unit.bb)
    ev_scale = 1 if unit is Unit.bb else 1000
    return [Bucket(int(number), started, float(total), float(showdown), float(total) - float(showdown),
                   float(won_ev) / ev_scale) for number, started, total, showdown, won_ev in rows]


def last_hand_at(store: Store, hand_filter: HandFilter, player: str, currency: str, unit: Unit, axis: Axis,
                 started_at: datetime | None) -> tuple[str, str] | None:
    """The (site, hand_id) of the last hand drawn that started at ``started_at`` (None: of the hands
    without a date), in the series' order: a bucket's last hand."""
    return last_drawn_hand_at(store, hand_filter, player, currency, started_at, dated=axis is Axis.date,
                              in_big_bets=unit is Unit.bb)


__all__ = ["WIDTHS", "Bucket", "bucket_width", "bucketed", "last_hand_at"]
