"""`hhtool graph`: cumulative winnings to SVG (read back and checked) and self-contained HTML, both drawn by the
one chart definition (hhtool.reports.chart)."""

from __future__ import annotations

import html
import re
from decimal import Decimal
from fractions import Fraction
from itertools import pairwise
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.model import ActionKind
from hhtool.money import format_money
from hhtool.reports.graph import GraphError, nice_ticks, winnings_series
from hhtool.store import Store
from hhtool.store.filters import HandFilter
from tests.inputs import copy_store
from tests.stats_hands import ALL_HANDS, load, parse
from tests.test_site_pokerstars import ALLIN_SIDE_POT, SPLIT_HAND

runner = CliRunner()


@pytest.fixture
def db(tmp_path: Path, stats_hands_store: Path) -> Path:
    return copy_store(stats_hands_store, tmp_path / "g.duckdb")


def expected_running_totals(player: str) -> tuple[list[int], list[int]]:
    """Running totals from the parsed hands (in their order: the hands' dates increase)."""
    total, showdown = [], []
    running = running_showdown = 0
    for text in ALL_HANDS:
        hand = parse(text)
        if player not in hand.players:
            continue
        running += hand.net_won(player)
        live = set(hand.players) - {a.player for a in hand.actions if a.kind is ActionKind.FOLD}
        at_showdown = player in live and len(live) >= 2
        running_showdown += hand.net_won(player) if at_showdown else 0
        total.append(running)
        showdown.append(running_showdown)
    return total, showdown


def test_series_runs_total_showdown_and_non_showdown(db: Path) -> None:
    with Store(str(db), read_only=True) as store:
        series = winnings_series(store, HandFilter(), "Bob")
    total, showdown = expected_running_totals("Bob")
    assert series["total"].to_list() == total
    assert series["showdown"].to_list() == showdown
    assert [t - s for t, s in zip(total, showdown, strict=True)] == series["non_showdown"].to_list()
    assert series["hand_number"].to_list() == list(range(1, len(total) + 1))


def drawing_of(page: str, size: str = "wide") -> str:
    """The page's chart at ``size`` (a page holds the wide and the narrow drawing)."""
    found = re.search(rf'<svg[^>]*class="chart-{size}".*?</svg>', page, re.S)
    assert found, size
    return found.group(0)


@pytest.mark.slow
def test_svg_file_is_drawn_with_the_four_lines(db: Path, tmp_path: Path) -> None:
    from defusedxml import ElementTree

    out = tmp_path / "winnings.svg"
    result = runner.invoke(app, ["graph", "--db", str(db), "--player", "Bob", "--out", str(out)], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    root = ElementTree.fromstring(out.read_bytes())  # a well-formed SVG file an image viewer opens
    svg = "{http://www.w3.org/2000/svg}"
    assert root.tag == f"{svg}svg" and (root.get("width"), root.get("height")) == ("960", "420")
    lines = root.findall(f"{svg}polyline")
    total, _ = expected_running_totals("Bob")
    assert [line.get("stroke") for line in lines] == ["#1f4e9c", "#2e8b57", "#c0392b", "#8e44ad"]
    assert all(len((line.get("points") or "").split()) == len(total) + 1 for line in lines)  # from the origin
    texts = ["".join(text.itertext()) for text in root.iter(f"{svg}text")]
    assert any(text.startswith("Winnings of Bob") for text in texts)
    assert [label for label in texts if label.startswith("$") or label.startswith("-$")]


def test_png_is_refused_with_the_way_to_svg(db: Path, tmp_path: Path) -> None:
    result = runner.invoke(app, ["graph", "--db", str(db), "--player", "Bob", "--out", str(tmp_path / "w.png")],
                           env={"COLUMNS": "80"})
    assert result.exit_code == 2
    assert ".svg" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "w.png").exists()


def test_html_is_self_contained_and_carries_the_data(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "winnings.html"
    result = runner.invoke(app, ["graph", "--db", str(db), "--player", "Ann", "--out", str(out)])
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    for size in ("wide", "narrow"):  # total, showdown, non-showdown, all-in EV; at each size
        assert drawing_of(page, size).count("<polyline") == 4
    assert not re.search(r"https?://|<script|<link|src=", page)
    total, _ = expected_running_totals("Ann")
    assert f"<th>Total</th><td>{format_money(total[-1], 100)}</td>" in page
    for text in ALL_HANDS:
        hand = parse(text)
        assert (f"<td>{hand.hand_id}</td>" in page) == ("Ann" in hand.players)


@pytest.mark.slow
def test_player_is_required_unless_one_hero_and_currencies_are_not_mixed(tmp_path: Path) -> None:
    path = tmp_path / "h.duckdb"
    with Store(str(path)) as store:
        load(store, tmp_path, SPLIT_HAND)  # Hero is the only hero
    out = tmp_path / "w.html"
    result = runner.invoke(app, ["graph", "--db", str(path), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "Winnings of Hero" in out.read_text(encoding="utf-8")
    with Store(str(path)) as store:
        more = tmp_path / "more"
        more.mkdir()
        load(store, more, ALLIN_SIDE_POT)  # no hero recorded there
    assert runner.invoke(app, ["graph", "--db", str(path), "--out", str(out), "--stakes", "10/20"]).exit_code == 2
    assert runner.invoke(app, ["graph", "--db", str(path), "--out", str(tmp_path / "w.gif"), "--player", "Hero"]).exit_code == 2
    with Store(str(path), read_only=True) as store, pytest.raises(GraphError):
        winnings_series(store, HandFilter(), "Nobody")


def _ticks(page: str, axis: str) -> list[str]:
    return [html.unescape(label) for label in re.findall(rf'class="{axis}tick"[^>]*>([^<]*)<', drawing_of(page))]


def _is_round_step(step: Decimal) -> bool:
    """1, 2 or 5 times a power of ten."""
    digits = step.normalize().as_tuple().digits
    return digits in ((1,), (2,), (5,))


def graphed(db: Path, tmp_path: Path, *args: str) -> str:
    out = tmp_path / "w.html"
    result = runner.invoke(app, ["graph", "--db", str(db), "--out", str(out), *args], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    return out.read_text(encoding="utf-8")


def test_money_ticks_are_round_amounts(db: Path, tmp_path: Path) -> None:
    page = graphed(db, tmp_path, "--player", "Bob")
    labels = _ticks(page, "y")
    assert labels and all(re.fullmatch(r"-?\$\d+(\.\d\d)?", label) for label in labels), labels
    values = [Decimal(label.replace("$", "")) for label in labels]
    steps = {b - a for a, b in pairwise(values)}
    assert len(steps) == 1 and _is_round_step(steps.pop()), values
    assert Decimal(0) in values
    total, _ = expected_running_totals("Bob")
    assert values[0] * 100 <= min(0, *total) and values[-1] * 100 >= max(0, *total)  # the ticks cover the line
    hands = [int(label) for label in _ticks(page, "x")]
    assert hands[0] == 0 and _is_round_step(Decimal(hands[1] - hands[0]))


def test_nice_ticks_round_the_old_range() -> None:
    # the range that was labelled -299.29, 181.98, 663.24
    ticks = nice_ticks(-29929, 66324)
    assert ticks[0] <= -29929 and ticks[-1] >= 66324 and 0 in ticks
    assert {b - a for a, b in pairwise(ticks)} == {20000}


def test_graph_in_big_bets(db: Path, tmp_path: Path) -> None:
    page = graphed(db, tmp_path, "--player", "Bob", "--unit", "bb")
    expected = sum(Fraction(parse(text).net_won("Bob"), parse(text).stakes.big_bet)
                   for text in ALL_HANDS if "Bob" in parse(text).players)
    shown = re.search(r"<tr><th>Total</th><td>[^<]*</td><td>([^<]*)</td></tr>", page)  # (money, then big bets)
    assert shown and abs(Decimal(shown.group(1)) - Decimal(expected.numerator) / expected.denominator) < Decimal("0.01")
    labels = _ticks(page, "y")
    assert labels and all(re.fullmatch(r"-?\d+(\.\d+)? BB", label) for label in labels), labels
    assert "won (big bets)" in page


def test_graph_by_date_and_points_that_name_their_hand(db: Path, tmp_path: Path) -> None:
    page = graphed(db, tmp_path, "--player", "Ann", "--x", "date")
    labels = _ticks(page, "x")
    assert labels == sorted(labels) and all(re.fullmatch(r"\d{4}(-\d\d){0,2}|\d\d-\d\d \d\d:\d\d", x) for x in labels)
    ann = [parse(text) for text in ALL_HANDS if "Ann" in parse(text).players]
    points = re.findall(r'<a href="(w\.hands/[^"]+)" class="point"><circle[^>]*><title>hand (\d+): ([^<]*)</title>',
                        drawing_of(page))
    assert len(points) == len(ann)
    for replay, number, title in points:
        row = re.search(rf'<tr id="hand-{number}">(.*?)</tr>', page)
        assert row, number  # the hand has its row, which links the same replay
        hand = ann[int(number) - 1]
        assert f"#{hand.hand_id}" in html.unescape(title) and f"{hand.started_at:%Y-%m-%d}" in title
        assert f"hhtool show {hand.hand_id} --site {hand.site}" in row.group(1) and f'href="{replay}"' in row.group(1)
        assert (tmp_path / replay).is_file()  # the point opens the hand's replay (#25: it went to the row)


@pytest.mark.slow
def test_svg_in_big_bets_by_date(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "w.svg"
    result = runner.invoke(app, ["graph", "--db", str(db), "--player", "Bob", "--unit", "bb", "--x", "date",
                                 "--out", str(out)])
    assert result.exit_code == 0, result.output
    labels = re.findall(r'class="ytick"[^>]*>([^<]*)<', out.read_text(encoding="utf-8"))
    assert labels and all(label.endswith(" BB") for label in labels)


def test_the_narrow_drawing_has_fewer_x_ticks_whose_labels_do_not_touch() -> None:
    """A week of hands by date: the wide drawing has its round ticks, the narrow one fewer, and at each
    size the labels (at the estimated width of their characters) neither touch nor leave the drawing."""
    from datetime import datetime, timedelta

    from hhtool.reports.chart import CHAR_WIDTH, NARROW, WIDE, Line, Series, layout, seconds_of

    start = datetime(2024, 3, 1, 9, 0)
    xs = [seconds_of(start + timedelta(minutes=37 * i)) for i in range(300)]
    values = [float((i * 7919) % 400 - 150) for i in range(300)]
    series = Series("t", "date", "won (USD)", xs, [Line("Total", "line-total", "#1f4e9c", values)],
                    [(-200.0, "-$2,000.00"), (0.0, "$0.00"), (200.0, "$2,000.00"), (400.0, "$4,000.00")], by_date=True)
    counts = {}
    for size in (WIDE, NARROW):
        chart = layout(series, size)
        ticks = chart.x_ticks
        counts[size.name] = len(ticks)
        spans = [(t.at - len(t.label) * CHAR_WIDTH / 2, t.at + len(t.label) * CHAR_WIDTH / 2) for t in ticks]
        assert all(a[1] < b[0] for a, b in pairwise(spans)), (size.name, ticks)
        assert spans[0][0] >= 0 and spans[-1][1] <= size.width, (size.name, ticks)
        assert min(len(label) for _, label in series.y_ticks) * CHAR_WIDTH <= chart.left - 6  # the y labels fit left
    assert 2 <= counts["narrow"] < counts["wide"]
