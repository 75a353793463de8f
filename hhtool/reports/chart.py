"""The one chart definition: a series (x values, lines of y values, the y axis's ticks and units, the
points that link to a hand) becomes an SVG drawing, for `hhtool graph`'s files (``.svg``, ``.html``) and
`hhtool serve`'s graph page alike. :func:`layout` works out every position and label (numbers only);
the template ``chart.svg`` draws them (auto-escaped, through :mod:`.templating`).

Text stays readable whatever the page's width: a chart is laid out for a size (:data:`WIDE`, 960 user
units, and :data:`NARROW`, 360, which a phone's 390 px shows about 1:1); the left margin fits the
longest y label, the right one half the last x label, and the x axis gets as many round ticks as fit
without their labels touching (fewer on the narrow size). A page holds both and its style sheet shows
the one that fits (``.chart-wide`` / ``.chart-narrow``).

>>> nice_ticks(-29929, 66324)
[-40000.0, -20000.0, 0.0, 20000.0, 40000.0, 60000.0, 80000.0]
>>> nice_ticks(0, 121, min_step=1)
[0.0, 50.0, 100.0, 150.0]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from markupsafe import Markup

from hhtool.reports.templating import fragment, render

#: the width of a label's character at the charts' 12 px sans-serif (digits, signs and dashes), in user units
CHAR_WIDTH = 7.0
#: the least room between two x labels
LABEL_GAP = 14.0
#: the least room between two y ticks
ROW_HEIGHT = 18.0
_EPOCH = datetime(1970, 1, 1)


@dataclass(frozen=True)
class Line:
    """One line of the chart: its values (one per x), its name in the legend, its CSS class and colour."""

    label: str
    css: str
    color: str
    values: Sequence[float]
    dashed: bool = False


@dataclass(frozen=True)
class Mark:
    """A point drawn on the first line at ``index`` that names its hand (``title``) and opens ``href``."""

    index: int
    title: str
    href: str | None = None


@dataclass(frozen=True)
class Series:
    """What a chart shows: ``xs`` are hand numbers or, ``by_date``, instants as seconds (:func:`seconds_of`);
    ``y_ticks`` the y axis's round values with their labels (the unit's own words: ``-$300``, ``-20 BB``)."""

    title: str
    x_title: str
    y_title: str
    xs: Sequence[float]
    lines: Sequence[Line]
    y_ticks: Sequence[tuple[float, str]]
    by_date: bool = False
    marks: Sequence[Mark] = ()


@dataclass(frozen=True)
class Size:
    name: str
    width: int
    height: int
    max_points: int  # per line (a longer line keeps every k-th point and the last)
    max_marks: int


WIDE = Size("wide", 960, 420, 2000, 2000)
NARROW = Size("narrow", 360, 320, 600, 200)


@dataclass(frozen=True)
class Tick:
    at: float
    label: str


@dataclass(frozen=True)
class LegendKey:
    x: float
    y: float
    label: str
    css: str
    color: str
    dashed: bool


@dataclass(frozen=True)
class Dot:
    x: float
    y: float
    title: str
    href: str | None


@dataclass(frozen=True)
class Chart:
    """A series laid out for a size: every position in user units, every label as text."""

    size: Size
    title: str
    x_title: str
    y_title: str
    left: float
    right: float  # the plot's right edge
    top: float
    bottom: float  # the plot's bottom edge
    zero: float
    x_ticks: list[Tick]
    y_ticks: list[Tick]
    lines: list[tuple[Line, str]]  # (line, its points "x,y x,y …")
    legend: list[LegendKey]
    dots: list[Dot]
    standalone: bool

    @property
    def width(self) -> int:
        return self.size.width

    @property
    def height(self) -> int:
        return self.size.height


def nice_ticks(low: float, high: float, count: int = 6, min_step: float = 0.0) -> list[float]:
    """Round ticks (1, 2 or 5 times a power of ten apart) covering ``low``..``high``, about ``count``."""
    if high <= low:
        high = low + max(min_step, 1.0)
    raw = max((high - low) / max(count - 1, 1), min_step)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first, last = math.floor(low / step), math.ceil(high / step)
    return [float(round(index * step, 10)) for index in range(first, last + 1)]


_HOUR, _DAY = 3600, 86400
_DATE_STEPS = (_HOUR, 2 * _HOUR, 3 * _HOUR, 6 * _HOUR, 12 * _HOUR, _DAY, 2 * _DAY, 7 * _DAY, 14 * _DAY)


def date_ticks(low: datetime, high: datetime, count: int = 6) -> list[datetime]:
    """Round instants covering ``low``..``high``: whole hours or days, or first days of a month
    (every 1, 3 or 6 months, or years) for long spans."""
    span = max((high - low).total_seconds(), 1.0)
    step = next((s for s in _DATE_STEPS if span / s <= count), None)
    if step is not None:
        start = low.replace(minute=0, second=0, microsecond=0)
        if step >= _DAY:
            start = start.replace(hour=0)
        ticks = [start]
        while ticks[-1] < high:
            ticks.append(ticks[-1] + timedelta(seconds=step))
        return ticks
    months = next((m for m in (1, 3, 6, 12, 24, 60) if span / (m * 30 * _DAY) <= count), 120)
    index = (low.year * 12 + low.month - 1) // months * months
    month_ticks = []
    while True:
        tick = datetime(index // 12, index % 12 + 1, 1)
        month_ticks.append(tick)
        if tick >= high:
            return month_ticks
        index += months


def date_label(tick: datetime, ticks: list[datetime]) -> str:
    """As fine as the ticks' spacing: ``2016``, ``2016-09``, ``2016-09-21``, ``09-21 14:00``."""
    step = ticks[1] - ticks[0] if len(ticks) > 1 else timedelta(days=1)
    if step < timedelta(days=1):
        return tick.strftime("%m-%d %H:%M")
    if step < timedelta(days=28):
        return tick.strftime("%Y-%m-%d")
    return tick.strftime("%Y" if step >= timedelta(days=365) else "%Y-%m")


def seconds_of(moment: datetime) -> float:
    """An instant as the date axis's x: seconds since 1970 of its wall-clock time (its zone label aside)."""
    return (moment.replace(tzinfo=None) - _EPOCH).total_seconds()


def _moment(seconds: float) -> datetime:
    return _EPOCH + timedelta(seconds=seconds)


def picked(n: int, limit: int) -> list[int]:
    """Every k-th index of ``n`` (k so that at most about ``limit`` remain) and the last one."""
    if n == 0:
        return []
    stride = max(1, -(-n // limit))
    chosen = [*range(0, n, stride)]
    if chosen[-1] != n - 1:
        chosen.append(n - 1)
    return chosen


def _text_width(label: str) -> float:
    return len(label) * CHAR_WIDTH


def _x_ticks(series: Series, room: float) -> list[Tick]:
    """As many round x ticks as fit in ``room`` with their labels apart (at least two)."""
    low, high = min(series.xs), max(series.xs)
    ticks: list[Tick] = []
    for count in range(8, 1, -1):
        if series.by_date:
            moments = date_ticks(_moment(low), _moment(high), count)
            ticks = [Tick(seconds_of(m), date_label(m, moments)) for m in moments]
        else:
            ticks = [Tick(v, f"{round(v):,}") for v in nice_ticks(low, high, count, min_step=1.0)]
        widest = max(_text_width(tick.label) for tick in ticks)
        span = (max(ticks[-1].at, high) - min(ticks[0].at, low)) or 1.0
        step = room * (ticks[1].at - ticks[0].at) / span if len(ticks) > 1 else room
        if step >= widest + LABEL_GAP:
            break
    return ticks


def layout(series: Series, size: Size = WIDE, standalone: bool = False) -> Chart:
    """Every position of ``series`` drawn at ``size``; ``standalone`` (a file of its own): the title inside."""
    y_ticks = list(series.y_ticks)
    # the left margin fits the longest y label, and the rotated y title beside it
    left = 24 + max([_text_width(label) for _, label in y_ticks] or [0.0]) + 8
    legend: list[LegendKey] = []
    top = 30.0 if standalone else 8.0
    x_cursor, row = left, 0
    for line in series.lines:
        room = 26 + _text_width(line.label) + 14
        if x_cursor + room > size.width - 8 and x_cursor > left:
            x_cursor, row = left, row + 1
        legend.append(LegendKey(x_cursor, top + 10 + 18 * row, line.label, line.css, line.color, line.dashed))
        x_cursor += room
    top += 18 * (row + 1) + 8
    bottom = size.height - 44.0
    # the right margin: half the last x label overhangs the plot's right edge (estimated on the widest plot)
    probe = _x_ticks(series, size.width - left - 16)
    right = size.width - max(16.0, _text_width(probe[-1].label) / 2 + 6)
    x_ticks = _x_ticks(series, right - left)
    values = [v for line in series.lines for v in line.values]
    low_y = min([0.0, *values, *(v for v, _ in y_ticks)])
    high_y = max([0.0, *values, *(v for v, _ in y_ticks)])
    if high_y == low_y:
        high_y = low_y + 1
    while len(y_ticks) > 3 and (bottom - top) / (len(y_ticks) - 1) < ROW_HEIGHT:
        zero_at = next((i for i, (v, _) in enumerate(y_ticks) if v == 0), 0)
        y_ticks = [tick for i, tick in enumerate(y_ticks) if (i - zero_at) % 2 == 0]  # every other, keeping 0
    low_x = min(x_ticks[0].at, min(series.xs))
    high_x = max(x_ticks[-1].at, max(series.xs))
    span_x = (high_x - low_x) or 1.0

    def x_of(x: float) -> float:
        return round(left + (right - left) * (x - low_x) / span_x, 1)

    def y_of(y: float) -> float:
        return round(top + (bottom - top) * (high_y - y) / (high_y - low_y), 1)

    kept = picked(len(series.xs), size.max_points)
    lines = [(line, " ".join(f"{x_of(series.xs[i])},{y_of(line.values[i])}" for i in kept)) for line in series.lines]
    marks = series.marks
    if len(marks) > size.max_marks:
        marks = [marks[i] for i in picked(len(marks), size.max_marks)]
    first = series.lines[0].values if series.lines else [0.0] * len(series.xs)
    dots = [Dot(x_of(series.xs[m.index]), y_of(first[m.index]), m.title, m.href) for m in marks]
    return Chart(size, series.title, series.x_title, series.y_title, left, right, top, bottom, y_of(0.0),
                 [Tick(x_of(t.at), t.label) for t in x_ticks], [Tick(y_of(v), label) for v, label in y_ticks],
                 lines, legend, dots, standalone)


def svg(series: Series, size: Size = WIDE, element_id: str = "", standalone: bool = False) -> Markup:
    """The chart as an ``<svg>`` element (``standalone``: a file of its own, with its namespace and title)."""
    return fragment("chart.svg", chart=layout(series, size, standalone), element_id=element_id)


def svg_file(series: Series) -> str:
    """The chart as an SVG file of its own (the wide size, its title inside)."""
    return render("chart_file.svg", chart=layout(series, WIDE, standalone=True), element_id="")


def both_sizes(series: Series, element_id: str = "chart") -> Markup:
    """The wide drawing (``element_id``) and the narrow one (``element_id``-narrow), for a page whose
    style sheet shows the one that fits its width."""
    return fragment("chart_pair.html", wide=layout(series, WIDE), narrow=layout(series, NARROW), element_id=element_id)


__all__ = ["NARROW", "WIDE", "Chart", "Line", "Mark", "Series", "Size", "both_sizes", "date_label", "date_ticks",
           "layout", "nice_ticks", "picked", "seconds_of", "svg", "svg_file"]
