"""A long winnings series summed in SQL, per span of time, for a graph of at most a screen's points.

The series of :mod:`hhtool.reports.graph` has a row per hand: over a million hands it is a million
rows sorted, sent to Python and thinned there. Here the player's facts are summed in DuckDB per
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

from dataclasses import dataclass, replace
from datetime import datetime

from hhtool.reports.choices import Axis, Unit
from hhtool.reports.filters import HandFilter
from hhtool.store import Store
from hhtool.store.player_facts_cache import selected_facts, summed_facts

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


def hands_per_currency(store: Store, hand_filter: HandFilter, player: str) -> dict[str, int]:
    """The player's hands in each currency (most first), from the daily sums."""
    with summed_facts(store, replace(hand_filter, players=(player,)), ("currency",)) as (sums, params):
        rows = store.run(f"SELECT currency, sum(hands) FROM ({sums}) s GROUP BY 1 ORDER BY 2 DESC, 1", params)
    return {str(currency): int(count) for currency, count in rows}


def bucket_width(store: Store, hand_filter: HandFilter, player: str, currency: str, most: int) -> int:
    """The narrowest width (seconds) whose buckets of the player's dated hands are at most ``most``."""
    with summed_facts(store, replace(hand_filter, players=(player,)), ("started_at", "currency")) as (sums, params):
        days = store.run(f"SELECT epoch(date_trunc('day', started_at)), sum(hands) FROM ({sums}) s WHERE currency = ? "
                         "AND started_at IS NOT NULL GROUP BY 1", [*params, currency])
    for width in WIDTHS:
        if width < DAY:
            count = sum(min(int(hands), DAY // width) for _, hands in days)
        else:
            count = len({int(day) // width for day, _ in days})
        if count <= most:
            return width
    return WIDTHS[-1]


def _drawn(unit: Unit, axis: Axis) -> str:
    """The condition on a facts row ``h`` that its hand is drawn: with a date when drawn by date, with a
    known big bet when in big bets (as :func:`hhtool.reports.graph.drawing` keeps them)."""
    kept = ["TRUE"]
    if axis is Axis.date:
        kept.append("h.started_at IS NOT NULL")
    if unit is Unit.bb:
        kept.append("h.big_bet IS NOT NULL AND h.big_bet > 0")
    return " AND ".join(kept)


def bucketed(store: Store, hand_filter: HandFilter, player: str, currency: str, unit: Unit, axis: Axis,
             width: int) -> list[Bucket]:
    """The points of the player's series in ``currency``, a bucket each, in order, of the hands drawn."""
    selected = replace(hand_filter, players=(player,))
    per_hand = ("CAST(net AS DOUBLE) / big_bet", "CAST(net * went_sd AS DOUBLE) / big_bet",
                "CAST(ev_net_milli AS DOUBLE) / 1000 / big_bet") if unit is Unit.bb else (
        "net", "net * went_sd", "ev_net_milli")  # money: thousandths summed as integers, divided once
    sql = f"""
        WITH b AS (SELECT CAST(epoch(started_at) AS BIGINT) // {int(width)} AS bucket, count(*) AS hands,
                          sum({per_hand[0]}) AS won, sum({per_hand[1]}) AS won_sd, sum({per_hand[2]}) AS won_ev,
                          max(started_at) AS started_at
                   FROM ({{facts}}) f GROUP BY 1)
        SELECT sum(hands) OVER w, started_at, sum(won) OVER w, sum(won_sd) OVER w, sum(won_ev) OVER w
        FROM b WINDOW w AS (ORDER BY bucket NULLS LAST ROWS UNBOUNDED PRECEDING) ORDER BY bucket NULLS LAST"""
    with selected_facts(store, selected, f"h.currency = ? AND {_drawn(unit, axis)}", (currency,)) as (facts, params):
        rows = store.run(sql.replace("{facts}", facts), params)
    ev_scale = 1 if unit is Unit.bb else 1000
    return [Bucket(int(number), started, float(total), float(showdown), float(total) - float(showdown),
                   float(won_ev) / ev_scale) for number, started, total, showdown, won_ev in rows]


def last_hand_at(store: Store, hand_filter: HandFilter, player: str, currency: str, unit: Unit, axis: Axis,
                 started_at: datetime | None) -> tuple[str, str] | None:
    """The (site, hand_id) of the last hand drawn that started at ``started_at`` (None: of the hands
    without a date), in the series' order: a bucket's last hand."""
    at, at_params = ("h.started_at = ?", (started_at,)) if started_at is not None else ("h.started_at IS NULL", ())
    condition = f"h.currency = ? AND {at} AND {_drawn(unit, axis)}"
    with selected_facts(store, replace(hand_filter, players=(player,)), condition, (currency, *at_params)) as (facts, params):
        rows = store.run(f"SELECT site, hand_id FROM ({facts}) f ORDER BY file DESC, first_line DESC, site DESC, "
                         "hand_id DESC LIMIT 1", params)
    return (str(rows[0][0]), str(rows[0][1])) if rows else None


__all__ = ["WIDTHS", "Bucket", "bucket_width", "bucketed", "hands_per_currency", "last_hand_at"]
