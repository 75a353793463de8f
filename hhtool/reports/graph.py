"""Cumulative winnings against hands played or against time: total, showdown, non-showdown and all-in
EV lines (the all-in EV line: the total with each all-in hand's net replaced by its EV net, docs/allin-ev.md).

The series comes from the player's facts (:mod:`hhtool.store.player_facts_cache`) in hand order (start
time, then file and line); money stays in integer smallest units until it is drawn, and big bets
are each hand's net over its own big bet, divided only when drawn. PNG is drawn by matplotlib (Agg
backend, imported only when a PNG is asked for); HTML is a page with no script and no external
reference: an inline SVG chart written here with a point per hand (up to MAX_REPLAYS of them, evenly
spread, and the last) whose tooltip names the hand (hover) and which opens that hand's replay
(click): the dispute report's web page of the hand, with its replayer, written for each point in
the folder beside the page (``winnings.html`` → ``winnings.hands/``; move the two together). The
hand-by-hand table links each of those hands to its replay too, and gives every hand's `hhtool
show` command.

>>> series = pl.DataFrame({"net": [5, -2, 10], "went_sd": [1, 0, 0]})
>>> cumulative(series).select("total", "showdown", "non_showdown").rows()
[(5, 5, 0), (3, 5, -2), (13, 5, 8)]
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import polars as pl

from hhtool.money import currency_symbol, format_money, site_amount
from hhtool.reports.choices import Axis, Unit
from hhtool.reports.filters import HandFilter
from hhtool.store import Store
from hhtool.store.player_facts_cache import selected_facts

WIDTH, HEIGHT = 960, 440  # SVG user units
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 70, 20, 40, 50
MAX_SVG_POINTS = 2000
MAX_TABLE_ROWS = 5000
#: hands with a point on the chart, each with its replay page (a page is ~40 KB and ~15 ms to make)
MAX_REPLAYS = 400
#: the width of a tick label's character in SVG user units (11 px sans-serif, digits and dashes)
TICK_CHAR_WIDTH = 6.7
LINES = (("total", "Total", "#1f4e9c"), ("showdown", "Showdown", "#2e8b57"), ("non_showdown", "Non-showdown", "#c0392b"),
         ("allin_ev", "All-in EV", "#8e44ad"))


class GraphError(ValueError):
    """The graph cannot be drawn as asked (no such player, several currencies, …)."""


def heroes(store: Store, hand_filter: HandFilter) -> list[str]:
    where, params = hand_filter.sql()
    rows = store.run(f"SELECT DISTINCT h.hero FROM hands h WHERE h.hero IS NOT NULL AND {where} ORDER BY 1", params)
    return [str(row[0]) for row in rows]


def winnings_series(store: Store, hand_filter: HandFilter, player: str, currency: str | None = None) -> pl.DataFrame:
    """The player's hands in order with net won and whether he went to showdown, plus the running
    totals. Raises GraphError when he has no hands, or hands in several currencies and none chosen."""
    selected = replace(hand_filter, players=(player,))
    condition, condition_params = ("h.currency = ?", (currency,)) if currency is not None else ("TRUE", ())
    with selected_facts(store, selected, condition, condition_params) as (facts, params):
        frame = store.frame(
            f"""SELECT site, hand_id, started_at, currency, unit, big_bet, net, went_sd, ev_net_milli FROM ({facts}) f
                ORDER BY started_at NULLS LAST, file, first_line, site, hand_id""", params)
    if frame.is_empty():
        raise GraphError(f"no hands of {player!r} match")
    currencies = sorted(set(frame["currency"].to_list()))
    if len(currencies) > 1:
        raise GraphError(f"{player!r} played in several currencies ({', '.join(currencies)}): choose one with --currency")
    return cumulative(frame)


def cumulative(frame: pl.DataFrame) -> pl.DataFrame:
    """Running totals in smallest units, hand number from 1; the all-in EV's is summed exactly in
    thousandths (``ev_net_milli``; the net where it is missing) and each running total rounded once."""
    showdown = pl.col("net") * pl.col("went_sd")
    if "ev_net_milli" not in frame.columns:
        frame = frame.with_columns((pl.col("net") * 1000).alias("ev_net_milli"))
    return frame.with_columns(
        pl.int_range(1, frame.height + 1).alias("hand_number"),
        pl.col("net").cum_sum().alias("total"),
        showdown.cum_sum().alias("showdown"),
        (pl.col("net") - showdown).cum_sum().alias("non_showdown"),
        ((pl.col("ev_net_milli").cum_sum() + 500) // 1000).alias("allin_ev"),
    )


@dataclass(frozen=True)
class Drawing:
    """What is drawn: the series (money in smallest units), in money or big bets, against hand
    number or date, and how many of the player's hands it leaves out (no date, no big bet)."""

    series: pl.DataFrame
    player: str
    unit: Unit = Unit.money
    axis: Axis = Axis.hands
    left_out: int = 0
    _running: dict[str, list[float]] = field(default_factory=dict, compare=False, repr=False)

    @property
    def money_unit(self) -> int:
        return int(self.series["unit"][0])

    @property
    def currency(self) -> str:
        return str(self.series["currency"][0])

    def values(self, column: str) -> list[float]:
        """The running ``column`` as drawn: smallest units, or big bets summed hand by hand."""
        if column not in self._running:
            self._running[column] = self._drawn_values(column)
        return self._running[column]

    def _drawn_values(self, column: str) -> list[float]:
        if self.unit is Unit.money:
            return [float(value) for value in self.series[column].to_list()]
        nets, showdowns = self.series["net"].to_list(), self.series["went_sd"].to_list()
        evs = self.series["ev_net_milli"].to_list()
        running, drawn = 0.0, []
        for net, went_sd, ev, big_bet in zip(nets, showdowns, evs, self.series["big_bet"].to_list(), strict=True):
            part = {"total": net, "showdown": net * went_sd, "non_showdown": net - net * went_sd,
                    "allin_ev": ev / 1000}[column]
            running += part / big_bet
            drawn.append(running)
        return drawn

    def label(self, value: float) -> str:
        """A y value as a person reads it: ``-$300``, ``$0.50``, ``-20 BB``."""
        if self.unit is Unit.bb:
            return f"{_plain(value)} BB"
        return site_amount(round(value), self.money_unit, currency_symbol(self.currency), symbol_first=True)

    @property
    def y_title(self) -> str:
        return "won (big bets)" if self.unit is Unit.bb else f"won ({self.currency})"

    @property
    def x_title(self) -> str:
        return "date" if self.axis is Axis.date else "hands played"

    def money_total(self) -> str:
        return f"{format_money(int(self.series['total'][-1]), self.money_unit)} {self.currency}"

    def title(self) -> str:
        """The total in the graph's unit; in big bets the money beside it, as the totals table has both."""
        total = self.money_total()
        if self.unit is Unit.bb:
            total = f"{self.values('total')[-1]:+.2f} big bets ({total})"
        return f"Winnings of {self.player}: {total} over {self.series.height} hands"


def _plain(value: float) -> str:
    text = f"{value:.6f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def drawing(store: Store, hand_filter: HandFilter, player: str, currency: str | None = None,
            unit: Unit = Unit.money, axis: Axis = Axis.hands) -> Drawing:
    """The player's series as asked; hands without a date (by date) or a known big bet (in big bets)
    are left out and counted. GraphError when none is left."""
    series = winnings_series(store, hand_filter, player, currency)
    kept = series
    if axis is Axis.date:
        kept = kept.filter(pl.col("started_at").is_not_null())
    if unit is Unit.bb:
        kept = kept.filter(pl.col("big_bet").is_not_null() & (pl.col("big_bet") > 0))
    if kept.is_empty():
        need = " and ".join(w for w, on in (("a date", axis is Axis.date), ("a known big bet", unit is Unit.bb)) if on)
        raise GraphError(f"none of the {series.height} hands of {player!r} has {need}")
    if kept.height != series.height:
        kept = cumulative(kept.drop("hand_number", "total", "showdown", "non_showdown", "allin_ev"))
    return Drawing(kept, player, unit, axis, series.height - kept.height)


def nice_ticks(low: float, high: float, count: int = 6, min_step: float = 0.0) -> list[float]:
    """Round ticks (1, 2 or 5 times a power of ten apart) covering ``low``..``high``, about ``count``.

    >>> nice_ticks(-29929, 66324)
    [-40000.0, -20000.0, 0.0, 20000.0, 40000.0, 60000.0, 80000.0]
    >>> nice_ticks(0, 121, min_step=1)
    [0.0, 50.0, 100.0, 150.0]
    """
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


def _date_label(tick: datetime, ticks: list[datetime]) -> str:
    """As fine as the ticks' spacing: ``2016``, ``2016-09``, ``2016-09-21``, ``09-21 14:00``."""
    step = ticks[1] - ticks[0] if len(ticks) > 1 else timedelta(days=1)
    if step < timedelta(days=1):
        return tick.strftime("%m-%d %H:%M")
    if step < timedelta(days=28):
        return tick.strftime("%Y-%m-%d")
    return tick.strftime("%Y" if step >= timedelta(days=365) else "%Y-%m")


def _x_values(drawn: Drawing) -> list[float]:
    """Hand numbers, or start times as seconds."""
    if drawn.axis is Axis.hands:
        return [float(n) for n in drawn.series["hand_number"].to_list()]
    return [_seconds(started) for started in drawn.series["started_at"].to_list()]


_EPOCH = datetime(1970, 1, 1)


def _seconds(moment: datetime) -> float:
    return (moment.replace(tzinfo=None) - _EPOCH).total_seconds()


def write_png(drawn: Drawing, path: Path) -> None:
    """Draw with matplotlib's Agg backend (no display needed)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    series = drawn.series
    if drawn.axis is Axis.date:
        xs: list[Any] = [series["started_at"][0], *series["started_at"].to_list()]
    else:
        xs = [0, *series["hand_number"].to_list()]
    figure, axes = plt.subplots(figsize=(10, 5.5), dpi=100)
    try:
        for column, label, color in LINES:  # the EV line dashed: where no all-in moved it, it lies on the total
            axes.plot(xs, [0.0, *drawn.values(column)], label=label, color=color, linewidth=1.6,
                      linestyle="--" if column == "allin_ev" else "-")
        axes.axhline(0, color="#888888", linewidth=0.8)
        axes.set_xlabel(drawn.x_title)
        axes.set_ylabel(drawn.y_title)
        axes.set_title(drawn.title())
        if drawn.axis is Axis.hands:
            axes.xaxis.set_major_locator(MaxNLocator(integer=True, steps=[1, 2, 5, 10]))
        else:
            figure.autofmt_xdate()
        axes.yaxis.set_major_locator(MaxNLocator(steps=[1, 2, 5, 10], integer=drawn.unit is Unit.money))
        axes.yaxis.set_major_formatter(FuncFormatter(lambda value, _: drawn.label(value)))
        axes.grid(True, alpha=0.3)
        axes.legend(loc="best")
        figure.tight_layout()
        figure.savefig(path, format="png", metadata={"Software": None})
    finally:
        plt.close(figure)


def _picked(n: int, limit: int) -> list[int]:
    """Every k-th index (k so that at most about ``limit`` remain) and the last one."""
    stride = max(1, -(-n // limit))
    picked = [*range(0, n, stride)]
    if picked[-1] != n - 1:
        picked.append(n - 1)
    return picked


def _point_title(drawn: Drawing, index: int) -> str:
    series = drawn.series
    started = series["started_at"][index]
    net = int(series["net"][index])
    amount = (format_money(net, drawn.money_unit, drawn.currency) if drawn.unit is Unit.money
              else f"{_plain(round(net / int(series['big_bet'][index]), 4))} BB")
    when = "" if started is None else f" · {started:%Y-%m-%d %H:%M}"
    return (f"hand {series['hand_number'][index]}: {series['site'][index]} #{series['hand_id'][index]}{when} · "
            f"net {amount} · total {drawn.label(drawn.values('total')[index])}")


def svg_chart(drawn: Drawing, replays: dict[int, str] | None = None) -> str:
    """The three lines as inline SVG, and a point on the total line for each hand of ``replays``
    (index → its replay page; tooltip: the hand; click: its replay), else for each hand drawn
    (click: its table row); long series are thinned to MAX_SVG_POINTS points per line (every k-th
    hand and the last one), the table keeps the numbers."""
    n = drawn.series.height
    picked = _picked(n, MAX_SVG_POINTS)
    xs_all = _x_values(drawn)
    first_x = xs_all[0] if drawn.axis is Axis.date else 0.0
    xs = [first_x, *(xs_all[i] for i in picked)]
    values = {column: [0.0, *(drawn.values(column)[i] for i in picked)] for column, _, _ in LINES}
    y_ticks = nice_ticks(min(0, *(min(v) for v in values.values())), max(0, *(max(v) for v in values.values())),
                         min_step=1.0 if drawn.unit is Unit.money else 0.0)
    low, high = y_ticks[0], y_ticks[-1]
    if drawn.axis is Axis.hands:
        x_ticks = nice_ticks(0, n, min_step=1.0)
        x_labels = [str(round(tick)) for tick in x_ticks]
    else:
        start = drawn.series["started_at"][0].replace(tzinfo=None)
        end = drawn.series["started_at"][-1].replace(tzinfo=None)
        moments = date_ticks(start, end)
        x_ticks = [_seconds(moment) for moment in moments]
        x_labels = [_date_label(moment, moments) for moment in moments]
    x_low, x_high = min(x_ticks[0], xs[0]), max(x_ticks[-1], xs[-1])
    if x_high == x_low:
        x_high = x_low + 1
    if high == low:
        high = low + 1
    # room on the right for half the last tick's label, centred on the plot's right edge (it was cut off)
    right = max(MARGIN_RIGHT, math.ceil(len(x_labels[-1]) * TICK_CHAR_WIDTH / 2) + 6)
    plot_w = WIDTH - MARGIN_LEFT - right
    plot_h = HEIGHT - MARGIN_TOP - MARGIN_BOTTOM

    def x_of(x: float) -> float:
        return MARGIN_LEFT + plot_w * (x - x_low) / (x_high - x_low)

    def y_of(amount: float) -> float:
        return MARGIN_TOP + plot_h * (high - amount) / (high - low)

    title = html.escape(drawn.title())
    parts = [f'<svg width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{title}">',
             f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
             f'<text x="{WIDTH / 2:.0f}" y="24" text-anchor="middle" font-size="16">{title}</text>']
    for amount in y_ticks:
        y = y_of(amount)
        parts.append(f'<line x1="{MARGIN_LEFT}" y1="{y:.1f}" x2="{WIDTH - right}" y2="{y:.1f}" stroke="#e4e4e4"/>')
        parts.append(f'<text class="ytick" x="{MARGIN_LEFT - 6}" y="{y + 4:.1f}" text-anchor="end" font-size="11">'
                     f'{html.escape(drawn.label(amount))}</text>')
    for tick, label in zip(x_ticks, x_labels, strict=True):
        parts.append(f'<text class="xtick" x="{x_of(tick):.1f}" y="{HEIGHT - MARGIN_BOTTOM + 16}" text-anchor="middle" '
                     f'font-size="11">{html.escape(label)}</text>')
    parts.append(f'<line x1="{MARGIN_LEFT}" y1="{y_of(0):.1f}" x2="{WIDTH - right}" y2="{y_of(0):.1f}" stroke="#888"/>')
    parts.append(f'<text x="{MARGIN_LEFT + plot_w / 2:.0f}" y="{HEIGHT - 10}" text-anchor="middle" font-size="12">'
                 f'{drawn.x_title}</text>')
    parts.append(f'<text x="14" y="{MARGIN_TOP + plot_h / 2:.0f}" text-anchor="middle" font-size="12" '
                 f'transform="rotate(-90 14 {MARGIN_TOP + plot_h / 2:.0f})">{html.escape(drawn.y_title)}</text>')
    for index, (column, label, color) in enumerate(LINES):
        points = " ".join(f"{x_of(x):.1f},{y_of(v):.1f}" for x, v in zip(xs, values[column], strict=True))
        dashes = ' stroke-dasharray="6 4"' if column == "allin_ev" else ""  # on the total where no all-in moved it
        parts.append(f'<polyline fill="none" stroke="{color}" stroke-width="1.6"{dashes} points="{points}"/>')
        legend_y = MARGIN_TOP + 14 + 16 * index
        parts.append(f'<line x1="{MARGIN_LEFT + 10}" y1="{legend_y - 4}" x2="{MARGIN_LEFT + 30}" y2="{legend_y - 4}" '
                     f'stroke="{color}" stroke-width="2"/>')
        parts.append(f'<text x="{MARGIN_LEFT + 36}" y="{legend_y}" font-size="12">{label}</text>')
    total_color = LINES[0][2]
    totals = drawn.values("total")
    for i in sorted(replays) if replays is not None else picked:
        href = html.escape(replays[i]) if replays is not None else f"#hand-{i + 1}"
        parts.append(f'<a href="{href}"><circle class="hand" cx="{x_of(xs_all[i]):.1f}" cy="{y_of(totals[i]):.1f}" '
                     f'r="3" fill="{total_color}"><title>{html.escape(_point_title(drawn, i))}</title></circle></a>')
    parts.append("</svg>")
    return "\n".join(parts)


def show_command(site: str, hand_id: str) -> str:
    """The command that replays the hand (quoted when the id needs it)."""
    import shlex

    return f"hhtool show {shlex.quote(hand_id)} --site {shlex.quote(site)}"


def html_page(drawn: Drawing, replays: dict[int, str] | None = None) -> str:
    """A page with no script: the SVG chart, the final totals and the hand-by-hand table (thinned
    to MAX_TABLE_ROWS rows, always keeping the last hand and every hand the chart has a point for,
    when longer); each row has the `hhtool show` command of its hand, and the link to its replay
    page where ``replays`` (index → page) has one."""
    series = drawn.series
    unit = drawn.money_unit
    n = series.height
    rows = sorted({*_picked(n, MAX_TABLE_ROWS), *_picked(n, MAX_SVG_POINTS), *(replays or {})})
    money = {column: series[column].to_list() for column in ("net", "total", "showdown", "non_showdown")}
    in_bb = drawn.unit is Unit.bb
    bb_total = drawn.values("total") if in_bb else []
    body = []
    for i in rows:
        started = series["started_at"][i]
        cells = [i + 1, "" if started is None else started, series["site"][i], series["hand_id"][i],
                 *(format_money(int(money[column][i]), unit) for column in ("net", "total", "showdown", "non_showdown"))]
        if in_bb:
            cells.append(_plain(round(bb_total[i], 2)))
        cells.append(show_command(series["site"][i], series["hand_id"][i]))
        replay = (replays or {}).get(i)
        link = f'<td><a href="{html.escape(replay)}">replay</a></td>' if replay else "<td></td>"
        body.append(f'<tr id="hand-{i + 1}">' + "".join(f"<td>{html.escape(str(value))}</td>" for value in cells)
                    + link + "</tr>")
    note = "" if len(rows) == n else f"<p>{len(rows)} of the {n} hands are listed (evenly spread, and the last one).</p>"
    if drawn.left_out:
        why = " and ".join(w for w, on in (("a date", drawn.axis is Axis.date), ("a known big bet", in_bb)) if on)
        note += f"<p>{drawn.left_out} hands without {why} are left out.</p>"
    title = html.escape(drawn.title())
    currency = html.escape(drawn.currency)
    summary = "".join(
        f"<tr><th>{label}</th><td>{format_money(int(series[column][-1]), unit)}</td>"
        + (f"<td>{_plain(round(drawn.values(column)[-1], 2))}</td>" if in_bb else "") + "</tr>"
        for column, label, _ in LINES)
    totals_head = f"<tr><th></th><th>{currency}</th>" + ("<th>big bets</th>" if in_bb else "") + "</tr>"
    why = ("<p>Big bets: each hand's net over that hand's own big bet, summed (the stakes may change from hand "
           "to hand), so they are not the money total over one big bet.</p>" if in_bb else "")
    bb_header = "<th>total BB</th>" if in_bb else ""
    clicks = ("click it to open the hand's replay (the pages in the folder beside this one)" if replays is not None
              else "click it to go to the hand's row, whose command replays it")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>body{{font-family:sans-serif;margin:24px}} table{{border-collapse:collapse}}
td,th{{padding:2px 8px;text-align:right;border-bottom:1px solid #ddd}} td:last-child{{font-family:monospace;text-align:left}}
circle.hand{{opacity:0.25;cursor:pointer}} circle.hand:hover{{opacity:1;r:6px}} tr:target{{background:#ffe9a8}}</style>
</head><body>
<h1>{title}</h1>
<p>Hover a point for its hand; {clicks}.</p>
{svg_chart(drawn, replays)}
<h2>Totals</h2>
<table>{totals_head}{summary}<tr><th>Hands</th><td>{n}</td></tr></table>{why}
<h2>Hand by hand</h2>
{note}<table>
<tr><th>#</th><th>started</th><th>site</th><th>hand</th><th>net</th><th>total</th><th>showdown</th><th>non-showdown</th>{bb_header}<th>command</th><th>replay</th></tr>
{chr(10).join(body)}
</table>
</body></html>
"""


def replay_folder(path: Path) -> Path:
    """Where the replay pages of a graph page go: ``winnings.html`` → ``winnings.hands``."""
    return path.with_name(f"{path.stem}.hands")


def write_replays(store: Store, drawn: Drawing, folder: Path) -> dict[int, str]:
    """The dispute page (its replayer first among its parts) of each hand the chart has a point for
    (MAX_REPLAYS, evenly spread, and the last), in ``folder``; index → its path from the graph page."""
    from hhtool.replay.profiles import profile_for
    from hhtool.reports.dispute.build import build_report
    from hhtool.reports.dispute.html import render_html
    from hhtool.reports.dispute.pages import page_name
    from hhtool.reports.dispute.stored import stored_facts
    from hhtool.store.load import load_hands

    series = drawn.series
    picked = _picked(series.height, MAX_REPLAYS)
    wanted = {(str(series["site"][i]), str(series["hand_id"][i])): i for i in picked}
    folder.mkdir(parents=True, exist_ok=True)
    taken: set[str] = set()
    pages: dict[int, str] = {}
    keys = [f"{site}\x00{hand_id}" for site, hand_id in wanted]
    for hand in load_hands(store, "list_contains(?, h.site || chr(0) || h.hand_id)", [keys]):
        index = wanted.get((hand.site, hand.hand_id))
        if index is None or index in pages:
            continue
        chosen = profile_for(hand, None)
        name = page_name(hand.site, hand.hand_id, taken)
        (folder / name).write_text(render_html(build_report(hand, chosen, stored_facts(store, hand, chosen.name))),
                                   encoding="utf-8")
        pages[index] = f"{folder.name}/{name}"
    return pages


def write_graph(drawn: Drawing, path: Path, store: Store | None = None) -> int:
    """PNG or HTML, by the file's suffix; with ``store``, an HTML page's replays beside it
    (:func:`write_replays`). The number of replay pages written."""
    suffix = path.suffix.lower()
    if suffix == ".png":
        write_png(drawn, path)
        return 0
    if suffix not in (".html", ".htm"):
        raise GraphError(f"--out must end in .png or .html, not {path.name!r}")
    replays = write_replays(store, drawn, replay_folder(path)) if store is not None else None
    path.write_text(html_page(drawn, replays), encoding="utf-8")
    return len(replays or {})
