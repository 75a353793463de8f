"""Issue #25, the graph: its last date tick is not clipped, its title's total and its totals table
agree (in big bets, both the money and the big bets, and why they differ), and a click on a point
opens that hand's replay: the hand's web page (the dispute report's, with its replayer), written
for each point in the folder beside the graph page."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from tests.browser import NEEDS_CHROMIUM
from tests.test_graph import drawing_of
from tests.tracker_hands import EVENING, ann_steals

runner = CliRunner()


@pytest.fixture
def evening(tmp_path: Path) -> str:
    """Ann's evening (tests/tracker_hands.py) and a late hand with a hostile table name."""
    hands = [*EVENING, ann_steals(7010, "2024/03/01 21:40:00", "<b>Gamma</b>\u2028")]
    (tmp_path / "e.txt").write_text("\n\n".join(hands), encoding="utf-8")
    db = str(tmp_path / "e.duckdb")
    assert runner.invoke(app, ["import", str(tmp_path / "e.txt"), "--db", db]).exit_code == 0
    return db


def graph(db: str, out: Path, *args: str) -> str:
    result = runner.invoke(app, ["graph", "--db", db, "--player", "Ann", "--out", str(out), *args],
                           env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    return result.output


def test_every_point_links_its_hands_replay_page_written_beside_the_graph(evening: str, tmp_path: Path) -> None:
    out = tmp_path / "graphs" / "winnings.html"
    said = graph(evening, out)
    assert said == (f"wrote {out} (7 hands of Ann); 7 hand replays in {tmp_path / 'graphs' / 'winnings.hands'}/, "
                    "beside it\n")
    page = out.read_text(encoding="utf-8")
    assert not re.search(r"https?://|<script|<link|src=", page)  # the graph page stays script-free
    links = re.findall(r'<a href="([^"]+)" class="point"><circle[^>]*><title>([^<]*)</title>', drawing_of(page))
    assert len(links) == 7
    for href, title in links:
        hand_id = re.search(r"#(\d+)", html.unescape(title))
        assert href.startswith("winnings.hands/pokerstars-") and hand_id, (href, title)
        replay = (out.parent / href).read_text(encoding="utf-8")
        assert f"Hand PokerStars #{hand_id[1]}" in replay and 'id="felt"' in replay  # the replayer's table
    assert "<b>Gamma</b>" not in page and "<b>Gamma</b>" not in "".join(
        path.read_text(encoding="utf-8") for path in (out.parent / "winnings.hands").iterdir())


def test_in_big_bets_the_title_and_the_totals_table_agree_and_say_why(evening: str, tmp_path: Path) -> None:
    """It was "+1.12 BB" in the title and "0.09" alone in the table headed by the currency."""
    out = tmp_path / "bb.html"
    graph(evening, out, "--unit", "bb")
    page = out.read_text(encoding="utf-8")
    title = re.search(r"<h1>([^<]*)</h1>", page)
    assert title and title[1] == "Winnings of Ann: +1.12 big bets (0.09 USD) over 7 hands"
    assert "<tr><th></th><th>USD</th><th>big bets</th></tr><tr><th>Total</th><td>0.09</td><td>1.12</td></tr>" in page
    assert "so they are not the money total over one big bet" in page
    money = tmp_path / "money.html"
    graph(evening, money)
    text = money.read_text(encoding="utf-8")
    assert "<h1>Winnings of Ann: 0.09 USD over 7 hands</h1>" in text
    assert "<tr><th></th><th>USD</th></tr><tr><th>Total</th><td>0.09</td></tr>" in text


@pytest.mark.slow
@pytest.mark.parametrize("_", [pytest.param(None, marks=NEEDS_CHROMIUM)])
def test_in_chromium_the_last_date_tick_shows_whole_and_a_click_opens_the_replay(
        evening: str, tmp_path: Path, browser: Any, _: None) -> None:
    """The hour ticks of an evening ("03-01 22:00"): the last one ran 9 units past the chart's edge."""
    out = tmp_path / "date.html"
    graph(evening, out, "--x", "date")
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    refused: list[str] = []
    page.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file://")
               else (refused.append(route.request.url), route.abort()))
    page.goto(out.as_uri())
    width = page.eval_on_selector("svg.chart-wide", "svg => svg.viewBox.baseVal.width")  # (the drawing shown at 1100 px)
    ticks = page.eval_on_selector_all("svg.chart-wide text.xtick", "els => els.map(e => [e.textContent, e.getBBox().x, "
                                                    "e.getBBox().x + e.getBBox().width])")
    assert ticks[-1][0] == "03-01 22:00" and ticks[-1][2] <= width and ticks[0][1] >= 0, ticks
    title = page.eval_on_selector("svg.chart-wide circle.hand >> nth=-1", "c => c.textContent")
    assert "#7010" in title
    page.click("svg.chart-wide circle.hand >> nth=-1")  # the last point, drawn on top
    page.wait_for_load_state()
    assert page.url.endswith("/date.hands/pokerstars-7010.html"), page.url
    assert "PokerStars #7010" in page.title() and page.is_visible("#felt")
    page.keyboard.press("End")
    assert refused == []
    page.close()
