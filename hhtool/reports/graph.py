"""Cumulative winnings against hands played or against time: total, showdown, non-showdown and all-in
EV lines (the all-in EV line: the total with each all-in hand's net replaced by its EV net, docs/allin-ev.md).

The series comes from the player's facts (:mod:`hhtool.store.graph_queries`) in hand order (start
time, then file and line); money stays in integer smallest units until it is drawn, and big bets
are each hand's net over its own big bet, divided only when drawn. The chart is drawn by the one chart
definition (:mod:`hhtool.reports.chart`, as `hhtool serve`'s graph page draws it): an SVG file, or an
HTML page with no script and no external reference (template ``graph/page.html``) holding the chart at
two sizes (the page shows the one that fits its width), with a point per hand (up to MAX_REPLAYS of
them, evenly spread, and the last) whose tooltip names the hand (hover) and which opens that hand's
replay (click): the dispute report's web page of the hand, with its replayer, written for each point in
the folder beside the page (``winnings.html`` → ``winnings.hands/``; move the two together). The
hand-by-hand table links each of those hands to its replay too, and gives every hand's `hhtool
show` command.

>>> series = pl.DataFrame({"net": [5, -2, 10], "went_sd": [1, 0, 0]})
>>> cumulative(series).select("total", "showdown", "non_showdown").rows()
[(5, 5, 0), (3, 5, -2), (13, 5, 8)]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from hhtool.money import currency_symbol, format_at_table, format_money, site_amount
from hhtool.reports.chart import Line, Mark, Series, nice_ticks, picked, seconds_of, svg_file
from hhtool.reports.chart import both_sizes as chart_at_both_sizes
from hhtool.reports.choices import Axis, Unit
from hhtool.reports.templating import render
from hhtool.store import Store
from hhtool.store.filters import HandFilter
from hhtool.store.graph_queries import winnings_rows

MAX_SVG_POINTS = 2000
MAX_TABLE_ROWS = 5000
#: hands with a point on the chart, each with its replay page (a page is ~40 KB and ~15 ms to make)
MAX_REPLAYS = 400
#: (column, legend, CSS class, colour): the web page's style sheet colours the classes the same
LINES = (("total", "Total", "line-total", "#1f4e9c"), ("showdown", "Showdown", "line-sd", "#2e8b57"),
         ("non_showdown", "Non-showdown", "line-nsd", "#c0392b"), ("allin_ev", "All-in EV", "line-ev", "#8e44ad"))


class GraphError(ValueError):
    """The graph cannot be drawn as asked (no such player, several currencies, …)."""


def winnings_series(store: Store, hand_filter: HandFilter, player: str, currency: str | None = None,
                    unit: Unit = Unit.money) -> pl.DataFrame:
    """The player's hands in order with net won and whether he went to showdown, plus the running
    totals (in money: of one currency). Raises GraphError when he has no hands, or, in money, hands in
    several currencies and none chosen (big bets have no currency: each hand counts in its own)."""
    frame = winnings_rows(store, hand_filter, player, currency)
    if frame.is_empty():
        raise GraphError(f"no hands of {player!r} match")
    currencies = sorted(set(frame["currency"].to_list()))
    if len(currencies) > 1 and unit is Unit.money:
        raise GraphError(f"{player!r} played in several currencies ({', '.join(currencies)}): choose one with "
                         "--currency, or draw big bets (--unit bb), which add up across currencies")
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
        """The currency of the money drawn (in big bets, the first hand's when there are several)."""
        return str(self.series["currency"][0])

    @property
    def currencies(self) -> list[tuple[str, int]]:
        """Each currency and its unit, in the order the hands first play it (big bets may mix them)."""
        pairs = zip(self.series["currency"].to_list(), self.series["unit"].to_list(), strict=True)
        return list(dict.fromkeys((str(currency), int(unit)) for currency, unit in pairs))

    @property
    def several_currencies(self) -> bool:
        return len(self.currencies) > 1

    def money_totals(self, column: str) -> list[str]:
        """The line ``column``'s final amount in each currency, as a person reads it (``$1.50``,
        ``411 chips``): money is summed per currency in its smallest units, never across currencies."""
        series = self.series
        went = pl.col("net") * pl.col("went_sd")
        part = {"total": pl.col("net"), "showdown": went, "non_showdown": pl.col("net") - went,
                "allin_ev": pl.col("ev_net_milli")}[column]
        sums = {(str(currency), int(money_unit)): int(amount) for currency, money_unit, amount
                in series.group_by("currency", "unit").agg(part.sum()).iter_rows()}
        texts = []
        for currency, money_unit in self.currencies:
            amount = sums[(currency, money_unit)]
            if column == "allin_ev":
                amount = (amount + 500) // 1000  # summed exactly in thousandths, rounded once (as cumulative)
            texts.append(format_at_table(amount, money_unit, currency))
        return texts

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
        if self.several_currencies:
            return ", ".join(self.money_totals("total"))
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
    series = winnings_series(store, hand_filter, player, currency, unit)
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


def _point_title(drawn: Drawing, index: int) -> str:
    series = drawn.series
    started = series["started_at"][index]
    net = int(series["net"][index])
    amount = (format_money(net, drawn.money_unit, drawn.currency) if drawn.unit is Unit.money
              else f"{_plain(round(net / int(series['big_bet'][index]), 4))} BB")
    when = "" if started is None else f" · {started:%Y-%m-%d %H:%M}"
    return (f"hand {series['hand_number'][index]}: {series['site'][index]} #{series['hand_id'][index]}{when} · "
            f"net {amount} · total {drawn.label(drawn.values('total')[index])}")


def chart_series(drawn: Drawing, replays: dict[int, str] | None = None) -> Series:
    """The drawing as the chart definition's series, from the origin (0, 0); a point on the total for each
    hand of ``replays`` (index → its replay page), else for each hand drawn (MAX_SVG_POINTS of them at most,
    evenly spread, and the last), linking to its table row."""
    n = drawn.series.height
    if drawn.axis is Axis.hands:
        xs = [float(x) for x in range(n + 1)]
    else:
        moments = [seconds_of(started) for started in drawn.series["started_at"].to_list()]
        xs = [moments[0], *moments]
    lines = [Line(label, css, color, [0.0, *drawn.values(column)], dashed=column == "allin_ev")
             for column, label, css, color in LINES]  # the EV line dashed: it lies on the total where no all-in moved it
    values = [v for line in lines for v in line.values]
    ticks = nice_ticks(min(values), max(values), min_step=1.0 if drawn.unit is Unit.money else 0.0)
    chosen = sorted(replays) if replays is not None else picked(n, MAX_SVG_POINTS)
    marks = [Mark(i + 1, _point_title(drawn, i), replays[i] if replays is not None else f"#hand-{i + 1}") for i in chosen]
    return Series(drawn.title(), drawn.x_title, drawn.y_title, xs, lines, [(t, drawn.label(t)) for t in ticks],
                  by_date=drawn.axis is Axis.date, marks=marks)


def show_command(site: str, hand_id: str) -> str:
    """The command that replays the hand (quoted when the id needs it)."""
    import shlex

    return f"hhtool show {shlex.quote(hand_id)} --site {shlex.quote(site)}"


def html_page(drawn: Drawing, replays: dict[int, str] | None = None) -> str:
    """A page with no script (template ``graph/page.html``): the chart, the final totals and the
    hand-by-hand table (thinned to MAX_TABLE_ROWS rows, always keeping the last hand and every hand the
    chart has a point for, when longer); each row has the `hhtool show` command of its hand, and the
    link to its replay page where ``replays`` (index → page) has one."""
    series = drawn.series
    unit = drawn.money_unit
    n = series.height
    listed = sorted({*picked(n, MAX_TABLE_ROWS), *picked(n, MAX_SVG_POINTS), *(replays or {})})
    mixed = drawn.several_currencies  # (in big bets only) money is per hand in its own currency, never summed
    running = () if mixed else ("total", "showdown", "non_showdown")
    money = {column: series[column].to_list() for column in ("net", *running)}
    currencies, units = series["currency"].to_list(), series["unit"].to_list()
    in_bb = drawn.unit is Unit.bb
    bb_total = drawn.values("total") if in_bb else []
    rows = []
    for i in listed:
        started = series["started_at"][i]
        net = (format_at_table(int(money["net"][i]), int(units[i]), str(currencies[i])) if mixed
               else format_money(int(money["net"][i]), unit))
        cells = [i + 1, "" if started is None else started, series["site"][i], series["hand_id"][i], net,
                 *(format_money(int(money[column][i]), unit) for column in running)]
        if in_bb:
            cells.append(_plain(round(bb_total[i], 2)))
        cells.append(show_command(series["site"][i], series["hand_id"][i]))
        rows.append((i + 1, [str(value) for value in cells], (replays or {}).get(i)))
    totals = [(label, ", ".join(drawn.money_totals(column)) if mixed else format_money(int(series[column][-1]), unit),
               _plain(round(drawn.values(column)[-1], 2)) if in_bb else None) for column, label, *_ in LINES]
    left_out_why = " and ".join(w for w, on in (("a date", drawn.axis is Axis.date), ("a known big bet", in_bb)) if on)
    return render("graph/page.html", title=drawn.title(), currency="money, per currency" if mixed else drawn.currency,
                  in_bb=in_bb, mixed=mixed, hands=n, rows=rows, money_columns=["net", *(c.replace("_", "-") for c in running)],
                  totals=totals, left_out=drawn.left_out, left_out_why=left_out_why, with_replays=replays is not None,
                  chart=chart_at_both_sizes(chart_series(drawn, replays)))


def svg_of(drawn: Drawing) -> str:
    """The chart alone as an SVG file (the wide size; an image viewer or a browser opens it)."""
    return svg_file(chart_series(drawn))


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
    from hhtool.store.load import load_hands_by_key

    series = drawn.series
    wanted = {(str(series["site"][i]), str(series["hand_id"][i])): i for i in picked(series.height, MAX_REPLAYS)}
    folder.mkdir(parents=True, exist_ok=True)
    taken: set[str] = set()
    pages: dict[int, str] = {}
    for hand in load_hands_by_key(store, wanted):
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
    """SVG or HTML, by the file's suffix; with ``store``, an HTML page's replays beside it
    (:func:`write_replays`). The number of replay pages written."""
    suffix = path.suffix.lower()
    if suffix == ".svg":
        path.write_text(svg_of(drawn), encoding="utf-8")
        return 0
    if suffix not in (".html", ".htm"):
        raise GraphError(f"--out must end in .svg or .html, not {path.name!r}")
    replays = write_replays(store, drawn, replay_folder(path)) if store is not None else None
    path.write_text(html_page(drawn, replays), encoding="utf-8")
    return len(replays or {})
