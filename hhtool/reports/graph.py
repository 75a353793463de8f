"""Cumulative winnings against hands played: total, showdown and non-showdown lines.

The series comes from the player's facts (:mod:`hhtool.reports.facts_table`) in hand order (start
time, then file and line); money stays in integer smallest units until it is drawn. PNG is drawn by
matplotlib (Agg backend, imported only when a PNG is asked for); HTML is one self-contained page: an
inline SVG chart written here (no script, no external reference) and the data as a table.

>>> series = pl.DataFrame({"net": [5, -2, 10], "went_sd": [1, 0, 0]})
>>> cumulative(series).select("total", "showdown", "non_showdown").rows()
[(5, 5, 0), (3, 5, -2), (13, 5, 8)]
"""

from __future__ import annotations

import html
from dataclasses import replace
from pathlib import Path

import polars as pl

from hhtool.money import format_money
from hhtool.reports.facts_table import selected_facts
from hhtool.reports.filters import HandFilter
from hhtool.store import Store

WIDTH, HEIGHT = 960, 440  # SVG user units
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 70, 20, 40, 50
MAX_SVG_POINTS = 2000
MAX_TABLE_ROWS = 5000
LINES = (("total", "Total", "#1f4e9c"), ("showdown", "Showdown", "#2e8b57"), ("non_showdown", "Non-showdown", "#c0392b"))


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
            f"""SELECT site, hand_id, started_at, currency, unit, net, went_sd FROM ({facts}) f
                ORDER BY started_at NULLS LAST, file, first_line, site, hand_id""", params)
    if frame.is_empty():
        raise GraphError(f"no hands of {player!r} match")
    currencies = sorted(set(frame["currency"].to_list()))
    if len(currencies) > 1:
        raise GraphError(f"{player!r} played in several currencies ({', '.join(currencies)}): choose one with --currency")
    return cumulative(frame)


def cumulative(frame: pl.DataFrame) -> pl.DataFrame:
    """Running totals in smallest units, hand number from 1."""
    showdown = pl.col("net") * pl.col("went_sd")
    return frame.with_columns(
        pl.int_range(1, frame.height + 1).alias("hand_number"),
        pl.col("net").cum_sum().alias("total"),
        showdown.cum_sum().alias("showdown"),
        (pl.col("net") - showdown).cum_sum().alias("non_showdown"),
    )


def _title(player: str, series: pl.DataFrame) -> str:
    currency = series["currency"][0]
    total = format_money(int(series["total"][-1]), int(series["unit"][0]))
    return f"Winnings of {player}: {total} {currency} over {series.height} hands"


def write_png(series: pl.DataFrame, player: str, path: Path) -> None:
    """Draw with matplotlib's Agg backend (no display needed)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt
    from matplotlib.ticker import MaxNLocator

    unit = int(series["unit"][0])
    hands = [0, *series["hand_number"].to_list()]
    figure, axes = plt.subplots(figsize=(10, 5.5), dpi=100)
    try:
        for column, label, color in LINES:
            values = [0.0, *(value / unit for value in series[column].to_list())]
            axes.plot(hands, values, label=label, color=color, linewidth=1.6)
        axes.axhline(0, color="#888888", linewidth=0.8)
        axes.set_xlabel("hands played")
        axes.set_ylabel(f"won ({series['currency'][0]})")
        axes.set_title(_title(player, series))
        axes.xaxis.set_major_locator(MaxNLocator(integer=True))
        axes.grid(True, alpha=0.3)
        axes.legend(loc="best")
        figure.tight_layout()
        figure.savefig(path, format="png", metadata={"Software": None})
    finally:
        plt.close(figure)


def _ticks(low: float, high: float, count: int = 5) -> list[float]:
    if high <= low:
        return [low]
    step = (high - low) / (count - 1)
    return [low + step * index for index in range(count)]


def svg_chart(series: pl.DataFrame, player: str) -> str:
    """The three lines as inline SVG; long series are thinned to MAX_SVG_POINTS points per line
    (every k-th hand and the last one), the table keeps the numbers."""
    unit = int(series["unit"][0])
    n = series.height
    stride = max(1, -(-n // MAX_SVG_POINTS))
    picked = [*range(0, n, stride)]
    if picked[-1] != n - 1:
        picked.append(n - 1)
    values = {column: [0, *(int(series[column][i]) for i in picked)] for column, _, _ in LINES}
    xs = [0, *(i + 1 for i in picked)]
    low = min(0, *(min(v) for v in values.values()))
    high = max(0, *(max(v) for v in values.values()))
    if high == low:
        high = low + unit
    plot_w = WIDTH - MARGIN_LEFT - MARGIN_RIGHT
    plot_h = HEIGHT - MARGIN_TOP - MARGIN_BOTTOM

    def x_of(hand: float) -> float:
        return MARGIN_LEFT + plot_w * hand / max(n, 1)

    def y_of(amount: float) -> float:
        return MARGIN_TOP + plot_h * (high - amount) / (high - low)

    parts = [f'<svg width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
             f'aria-label="{html.escape(_title(player, series))}">',
             f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
             f'<text x="{WIDTH / 2:.0f}" y="24" text-anchor="middle" font-size="16">{html.escape(_title(player, series))}</text>']
    for amount in _ticks(low, high):
        y = y_of(amount)
        parts.append(f'<line x1="{MARGIN_LEFT}" y1="{y:.1f}" x2="{WIDTH - MARGIN_RIGHT}" y2="{y:.1f}" stroke="#e4e4e4"/>')
        parts.append(f'<text x="{MARGIN_LEFT - 6}" y="{y + 4:.1f}" text-anchor="end" font-size="11">'
                     f'{format_money(round(amount), unit)}</text>')
    for hand in _ticks(0, n):
        x = x_of(hand)
        parts.append(f'<text x="{x:.1f}" y="{HEIGHT - MARGIN_BOTTOM + 16}" text-anchor="middle" font-size="11">'
                     f'{round(hand)}</text>')
    parts.append(f'<line x1="{MARGIN_LEFT}" y1="{y_of(0):.1f}" x2="{WIDTH - MARGIN_RIGHT}" y2="{y_of(0):.1f}" stroke="#888"/>')
    parts.append(f'<text x="{MARGIN_LEFT + plot_w / 2:.0f}" y="{HEIGHT - 10}" text-anchor="middle" font-size="12">'
                 'hands played</text>')
    for index, (column, label, color) in enumerate(LINES):
        points = " ".join(f"{x_of(x):.1f},{y_of(v):.1f}" for x, v in zip(xs, values[column], strict=True))
        parts.append(f'<polyline fill="none" stroke="{color}" stroke-width="1.6" points="{points}"/>')
        legend_y = MARGIN_TOP + 14 + 16 * index
        parts.append(f'<line x1="{MARGIN_LEFT + 10}" y1="{legend_y - 4}" x2="{MARGIN_LEFT + 30}" y2="{legend_y - 4}" '
                     f'stroke="{color}" stroke-width="2"/>')
        parts.append(f'<text x="{MARGIN_LEFT + 36}" y="{legend_y}" font-size="12">{label}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def html_page(series: pl.DataFrame, player: str) -> str:
    """A self-contained page: the SVG chart, the final totals and the hand-by-hand table (thinned
    to MAX_TABLE_ROWS rows, always keeping the last hand, when longer)."""
    unit = int(series["unit"][0])
    n = series.height
    stride = max(1, -(-n // MAX_TABLE_ROWS))
    rows = [*range(0, n, stride)]
    if rows[-1] != n - 1:
        rows.append(n - 1)
    money = {column: series[column].to_list() for column in ("net", "total", "showdown", "non_showdown")}
    body = []
    for i in rows:
        started = series["started_at"][i]
        body.append(
            "<tr>" + "".join(f"<td>{html.escape(str(value))}</td>" for value in (
                i + 1, "" if started is None else started, series["site"][i], series["hand_id"][i],
                *(format_money(int(money[column][i]), unit) for column in ("net", "total", "showdown", "non_showdown")),
            )) + "</tr>"
        )
    note = "" if stride == 1 else f"<p>Every {stride}th hand is listed (and the last one) of {n}.</p>"
    title = html.escape(_title(player, series))
    summary = "".join(
        f"<tr><th>{label}</th><td>{format_money(int(series[column][-1]), unit)}</td></tr>" for column, label, _ in LINES
    )
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>body{{font-family:sans-serif;margin:24px}} table{{border-collapse:collapse}}
td,th{{padding:2px 8px;text-align:right;border-bottom:1px solid #ddd}}</style>
</head><body>
<h1>{title}</h1>
{svg_chart(series, player)}
<h2>Totals ({html.escape(str(series["currency"][0]))})</h2>
<table>{summary}<tr><th>Hands</th><td>{n}</td></tr></table>
<h2>Hand by hand</h2>
{note}<table>
<tr><th>#</th><th>started</th><th>site</th><th>hand</th><th>net</th><th>total</th><th>showdown</th><th>non-showdown</th></tr>
{chr(10).join(body)}
</table>
</body></html>
"""


def write_graph(series: pl.DataFrame, player: str, path: Path) -> None:
    """PNG or HTML, by the file's suffix."""
    suffix = path.suffix.lower()
    if suffix == ".png":
        write_png(series, player, path)
    elif suffix in (".html", ".htm"):
        path.write_text(html_page(series, player), encoding="utf-8")
    else:
        raise GraphError(f"--out must end in .png or .html, not {path.name!r}")
