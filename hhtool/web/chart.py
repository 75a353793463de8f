"""The graph page's chart: the service's points as the one chart definition's series
(:mod:`hhtool.reports.chart`, as `hhtool graph` draws its files), at both sizes; each point of the total
links to its hand's replay, titled with the hand and the total."""

from __future__ import annotations

from datetime import datetime
from urllib.parse import quote

from markupsafe import Markup

from hhtool.reports.chart import Line, Mark, Series, both_sizes, seconds_of
from hhtool.service.choices import Axis
from hhtool.service.web_graph import GraphData, Point

#: (series, label, CSS class, colour), as `hhtool graph` draws them
SERIES = (("total", "Total", "line-total", "#1f4e9c"), ("showdown", "Showdown", "line-sd", "#2e8b57"),
          ("non_showdown", "Non-showdown", "line-nsd", "#c0392b"), ("allin_ev", "All-in EV", "line-ev", "#8e44ad"))


def _x_value(data: GraphData, point: Point) -> float:
    if data.axis is Axis.date and point.started_at is not None:
        return seconds_of(point.started_at)
    return float(point.number)


def _href(point: Point, point_query: str) -> str:
    """A point's link: its hand's replay; a point of a long series (no hand named: a span's sums) asks
    the server for the span's last hand (``/graph/hand``, with the graph's query and the point's time)."""
    if point.hand_id:
        return f"/hand/{quote(point.site, safe='')}/{quote(point.hand_id, safe='')}"
    at = quote(point.started_at.isoformat(), safe="") if point.started_at is not None else ""
    return f"/graph/hand?{point_query}{'&' if point_query else ''}at={at}"


def series_of(data: GraphData, ticks: list[tuple[float, str]], point_query: str = "") -> Series:
    lines = [Line(label, css, color, [float(getattr(p, name)) for p in data.points], dashed=name == "allin_ev")
             for name, label, css, color in SERIES]
    marks = []
    for index, point in enumerate(data.points):
        when = f", {point.started_at:%Y-%m-%d %H:%M}" if isinstance(point.started_at, datetime) else ""
        which = f": {point.site} #{point.hand_id}" if point.hand_id else ""
        marks.append(Mark(index, f"hand {point.number:,}{which}{when}; total {point.total_text}", _href(point, point_query)))
    return Series(data.title, data.x_title, data.y_title, [_x_value(data, p) for p in data.points], lines, ticks,
                  by_date=data.axis is Axis.date, marks=marks)


def chart(data: GraphData, ticks: list[tuple[float, str]], point_query: str = "") -> Markup:
    """The chart at both sizes (``#chart`` and ``#chart-narrow``; the style sheet shows the one that fits)."""
    return both_sizes(series_of(data, ticks, point_query), "chart")
