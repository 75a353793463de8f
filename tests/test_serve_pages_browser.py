"""The pages a player lives in, in a real browser (headless Chromium from Debian's package, driven by
Playwright) at 1280 and 390 px: his page leads with his rates; an opponent chosen on it opens the
hands both played, and one of them its replayer; the replayer shows each stack and what is in front of
each player at every step, and a down card shown at the showdown keeps its dashed edge; the report's
switch opens the player's copy addressed to the player chosen. Nothing is wider than the screen.
``HHTOOL_SHOTS=DIR`` keeps a screenshot of the player page and the replayer at both widths there."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import NEEDS_CHROMIUM
from tests.serve_helpers import build_store, running_server
from tests.test_serve_browser import Tab

pytestmark = [pytest.mark.slow, *NEEDS_CHROMIUM]

WIDTHS = (1280, 390)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = build_store(tmp_path_factory.mktemp("serve-pages"))
    with running_server(db) as (base, _):
        yield base


def _shot(page: Any, name: str) -> None:
    folder = os.environ.get("HHTOOL_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / name), full_page=True)


def _fits(page: Any, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # the page never scrolls sideways


@pytest.mark.parametrize("width", WIDTHS)
def test_the_player_page_leads_with_his_rates_and_opens_an_opponent(browser: Any, server: str, width: int) -> None:
    tab = Tab(browser, server, width)
    page = tab.open("/player?player=Hero")
    tiles = page.locator("section.player-block").first.locator("li.rate")
    assert tiles.count() == 8
    assert tiles.first.locator(".rate-name").inner_text() == "VPIP"
    assert tiles.first.locator(".rate-value").inner_text().endswith("%")
    first_tile = tiles.first.bounding_box()
    money = page.locator("table.volume").first.bounding_box()
    assert first_tile["y"] < money["y"]  # the rates come first, above the money
    assert first_tile["x"] + first_tile["width"] <= width
    assert page.locator("details:has(summary:has-text('Every rate'))").first.get_attribute("open") is None
    _fits(page, width)
    _shot(page, f"player-{width}.png")
    page.fill("#opponents input[name=opponent]", "gashpor")
    page.click("#opponents button[type=submit]")
    page.wait_for_url("**/player/against?*opponent=gashpor*")
    assert page.locator("#definition").inner_text().startswith("The hands both were dealt in.")
    rows = page.locator("#against-hands tbody tr")
    assert rows.count() > 5
    _fits(page, width)
    for table in ("#against-sums", "#against-hands"):  # the last column on the screen, not scrolled out of it
        last = page.locator(f"{table} thead th").last.bounding_box()
        assert last["x"] + last["width"] <= width, table
    _shot(page, f"against-{width}.png")
    hand_id = rows.first.locator("td").first.locator("a").inner_text()
    rows.first.locator("td").nth(2).click()  # (a row, not its link)
    page.wait_for_url(f"**/hand/pokerstars/{hand_id}")
    assert page.locator("#felt .seat[data-player=gashpor]").count() == 1
    tab.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_the_replayer_shows_stacks_in_front_and_down_cards(browser: Any, server: str, width: int) -> None:
    tab = Tab(browser, server, width)
    page = tab.open("/hand/pokerstars/900000000001")
    seat = page.locator("#felt .seat[data-player=gashpor]")
    assert seat.locator(".stack").inner_text() == "Stack $1.50"  # (the first step: u.pressure's ante, not yet his)
    for _ in range(40):  # to "gashpor bets $0.04" on 4th street (the history's stacks and bets)
        if page.locator("#step-words").inner_text() == "gashpor bets $0.04":
            break
        page.click("#next")
    assert seat.locator(".stack").inner_text() == "Stack $1.41"
    assert seat.locator(".front").inner_text() == "In front $0.04"
    assert page.locator("#felt .seat[data-player=Hero] .front").count() == 0  # (Hero checked)
    _fits(page, width)
    _shot(page, f"replayer-{width}.png")
    page.click("#end")
    assert page.locator("#felt").get_attribute("data-showdown") == "yes"
    assert seat.locator(".won").inner_text() == "Wins $0.37" and seat.locator(".stack").inner_text() == "Stack $1.70"
    downs = seat.locator(".card.down")
    assert [downs.nth(i).get_attribute("data-card") for i in range(downs.count())] == ["2d", "5c", "Jh"]
    assert downs.first.evaluate("el => getComputedStyle(el).borderTopStyle") == "dashed"  # the down card's edge
    ups = seat.locator(".card:not(.down)")
    assert ups.count() == 4 and ups.first.evaluate("el => getComputedStyle(el).borderTopStyle") == "solid"
    _fits(page, width)
    _shot(page, f"replayer-showdown-{width}.png")
    tab.close()


def test_the_report_switch_opens_the_player_copy_for_the_player_chosen(browser: Any, server: str) -> None:
    tab = Tab(browser, server, 390)
    page = tab.open("/hand/pokerstars/900000000001")
    page.check("#report-switch input[value=player]")
    page.select_option("#report-switch select[name=player]", "gashpor")
    page.click("#open-report")
    page.wait_for_url("**/dispute?for=player&player=gashpor")
    assert "your dispute" in page.locator("h1").first.inner_text()
    assert "you won the high half" in page.locator("main").inner_text()
    _fits(page, 390)
    page.go_back()
    page.check("#report-switch input[value=desk]")
    page.click("#open-report")
    page.wait_for_url("**/dispute?for=desk*")
    assert "dispute report" in page.locator("h1").first.inner_text()
    tab.close()
