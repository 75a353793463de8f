"""The graph page's chart: an SVG drawn here from the service's points (no script needed): the three
running totals as lines, and each point of the total a link to its hand's replay, titled with the hand
and the total. Text is escaped by the template that places the SVG's parts (Markup of numbers only)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from urllib.parse import quote

from hhtool.service.choices import Axis
from hhtool.service.web_graph import GraphData, Point

WIDTH, HEIGHT = 960, 420
LEFT, RIGHT, TOP, BOTTOM = 76, 16, 16, 44
#: (series, label, CSS class)
SERIES = (("total", "Total", "line-total"), ("showdown", "Showdown", "line-sd"), ("non_showdown", "Non-showdown", "line-nsd"),
          ("allin_ev", "All-in EV", "line-ev"))


@dataclass(frozen=True)
class Dot:
    x: float
    y: float
    href: str
    title: str


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    lines: list[tuple[str, str, str]]  # (label, class, SVG path data)
    dots: list[Dot]
    y_ticks: list[tuple[float, str]]  # (y, label)
    x_ticks: list[tuple[float, str]]
    zero: float
    left: int
    right: int
    top: int
    bottom: int


def _x_value(data: GraphData, index: int) -> float:
    point = data.points[index]
    if data.axis is Axis.date and point.started_at is not None:
        return point.started_at.timestamp()
    return float(point.number)


def _href(point: Point, point_query: str) -> str:
    """A point's link: its hand's replay; a point of a long series (no hand named: a span's sums) asks
    the server for the span's last hand (``/graph/hand``, with the graph's query and the point's time)."""
    if point.hand_id:
        return f"/hand/{quote(point.site, safe='')}/{quote(point.hand_id, safe='')}"
    at = quote(point.started_at.isoformat(), safe="") if point.started_at is not None else ""
    return f"/graph/hand?{point_query}{'&' if point_query else ''}at={at}"


def chart(data: GraphData, ticks: list[tuple[float, str]], point_query: str = "") -> Chart:
    xs = [_x_value(data, i) for i in range(len(data.points))]
    low_x, high_x = min(xs), max(xs)
    span_x = (high_x - low_x) or 1.0
    values = [t[0] for t in ticks] + [getattr(p, name) for p in data.points for name, _, _ in SERIES]
    low_y, high_y = min(values), max(values)
    span_y = (high_y - low_y) or 1.0
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def px(x: float) -> float:
        return round(LEFT + (x - low_x) / span_x * plot_w, 1)

    def py(y: float) -> float:
        return round(TOP + (high_y - y) / span_y * plot_h, 1)

    lines = []
    for name, label, css in SERIES:
        path = " ".join(f"{'M' if i == 0 else 'L'}{px(x)},{py(getattr(p, name))}"
                        for i, (x, p) in enumerate(zip(xs, data.points, strict=True)))
        lines.append((label, css, path))
    dots = []
    for x, point in zip(xs, data.points, strict=True):
        when = f", {point.started_at:%Y-%m-%d %H:%M}" if isinstance(point.started_at, datetime) else ""
        which = f": {point.site} #{point.hand_id}" if point.hand_id else ""
        dots.append(Dot(px(x), py(point.total), _href(point, point_query),
                        f"hand {point.number:,}{which}{when}; total {point.total_text}"))
    x_ticks = []
    for step in range(6):
        x = low_x + span_x * step / 5
        label = datetime.fromtimestamp(x).strftime("%Y-%m-%d") if data.axis is Axis.date else f"{round(x):,}"
        x_ticks.append((px(x), label))
    return Chart(WIDTH, HEIGHT, lines, dots, [(py(v), text) for v, text in ticks], x_ticks, py(0.0), LEFT, RIGHT, TOP,
                 BOTTOM)
