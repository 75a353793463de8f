"""`hhtool serve` in a real browser (headless Chromium from Debian's package, driven by Playwright): the
server started as a user starts it on the samples, each page opened, a filter applied, a hand clicked
into the replayer and stepped through its streets, a graph point clicked, a note added and seen after
a reload, a hand appearing on an open hands list while a watched file grows, and a hostile player
name shown as text. Every request the pages make stays on the server."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import NEEDS_CHROMIUM
from tests.serve_helpers import HOSTILE, HOSTILE_HAND, SIDE_POT, build_store, running_server

pytestmark = [pytest.mark.slow, *NEEDS_CHROMIUM]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = build_store(tmp_path_factory.mktemp("serve-browser"))
    with running_server(db) as (base, _):
        yield base


class Tab:
    """A page that may load only the server's own URLs; anything else is refused and recorded."""

    def __init__(self, browser: Any, base: str, width: int = 1280) -> None:
        self.base = base
        self.page = browser.new_page(viewport={"width": width, "height": 900})
        self.left: list[str] = []
        self.errors: list[str] = []
        self.page.route("**/*", self._route)
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("dialog", lambda dialog: (self.errors.append(f"dialog: {dialog.message}"), dialog.dismiss()))

    def _route(self, route: Any) -> None:
        if route.request.url.startswith(self.base):
            route.continue_()
        else:
            self.left.append(route.request.url)
            route.abort()

    def open(self, path: str) -> Any:
        self.page.goto(self.base + path)
        return self.page

    def close(self) -> None:
        self.page.close()
        assert not self.errors and not self.left, (self.errors, self.left)


def test_each_page_opens_and_a_filter_applies(browser: Any, server: str) -> None:
    tab = Tab(browser, server)
    for path, heading in (("/stats", "Players"), ("/hands", "Hands"), ("/sessions", "Sessions"), ("/graph", "Graph"),
                          ("/audit", "Audit: violations"), ("/problems", "Problems")):
        page = tab.open(path)
        assert page.locator("h1").first.inner_text() == heading
    page = tab.open("/hands")
    page.locator("details.filters summary").click()
    page.fill("input[name=player]", "Hero")
    page.select_option("select[name=verdict]", "ok")
    page.click("form.filter-form button[type=submit]")
    page.wait_for_url("**/hands?*player=Hero*")
    assert "verdict=ok" in page.url
    players = page.locator("#hands tbody tr td:nth-child(3)").all_inner_texts()
    assert players and set(players) == {"Hero"}
    page = tab.open("/stats")
    page.click("text=by month")
    page.wait_for_url("**/stats?by=month")
    assert page.locator("#stats thead th", has_text="Month").count() == 1
    page.locator("#stats tbody tr").first.locator("td").nth(3).click()  # a row, not its link: the player's page
    page.wait_for_url("**/player?*")
    tab.close()


def test_a_hand_opens_in_the_replayer_and_steps_through_its_streets(browser: Any, server: str) -> None:
    tab = Tab(browser, server)
    page = tab.open("/hands?player=Hero")
    first = page.locator("#hands tbody tr").nth(1)
    hand_id = first.locator("td").nth(1).locator("a").inner_text()
    first.locator("td").first.click()
    page.wait_for_url(f"**/hand/*/{hand_id}?*")
    assert page.locator("#felt .seat").count() >= 2
    assert page.locator("#step-count").inner_text().startswith("1 / ")
    labels = {page.locator("#step-count").inner_text().split("\u2014")[-1].strip()}
    page.locator("body").click()
    for _ in range(60):
        page.keyboard.press("ArrowRight")
        labels.add(page.locator("#step-count").inner_text().split("\u2014")[-1].strip())
    assert {"3rd street", "4th street", "showdown"} <= labels or {"3rd street", "4th street"} <= labels
    page.click("#prev")
    page.click("#end")
    assert page.locator("#felt").get_attribute("data-showdown") == "yes"
    older = page.locator("#older")
    assert older.count() == 1
    older.click()
    page.wait_for_url("**/hand/**")
    assert hand_id not in page.url
    tab.close()


def test_a_graph_point_opens_its_hand(browser: Any, server: str) -> None:
    tab = Tab(browser, server)
    page = tab.open("/graph?player=Hero")
    assert "Winnings of Hero" in page.locator("#graph-title").inner_text()
    point = page.locator("#chart a.point").nth(5)
    title = point.locator("title").text_content() or ""
    point.locator("circle").click(force=True)
    page.wait_for_url("**/hand/**")
    hand_id = title.split("#", 1)[1].split(",")[0].split(";")[0]
    assert hand_id in page.url
    tab.close()


def test_a_note_stays_after_a_reload(browser: Any, server: str) -> None:
    tab = Tab(browser, server)
    page = tab.open("/hand/pokerstars/900000000001")
    page.fill("#notes textarea[name=text]", "<b>check</b> the side pot again")
    page.click("#notes button[type=submit]:has-text('Add note')")
    page.wait_for_load_state()
    page.reload()
    notes = page.locator("#notes .note-text").all_inner_texts()
    assert "<b>check</b> the side pot again" in notes
    assert page.locator("#notes .note-text b").count() == 0
    tab.close()


def test_a_hostile_name_renders_as_text(browser: Any, server: str) -> None:
    tab = Tab(browser, server)
    page = tab.open(f"/hand/pokerstars/{HOSTILE_HAND}")
    assert page.locator("img").count() == 0
    assert HOSTILE in page.locator("#streets").inner_text()
    assert HOSTILE in page.locator("#felt").inner_text()
    page = tab.open("/stats")
    assert page.locator("#stats img").count() == 0
    assert HOSTILE in page.locator("#stats").inner_text()
    tab.close()


def test_a_hand_appears_while_a_watched_file_grows(browser: Any, tmp_path: Path) -> None:
    folder = tmp_path / "watched"
    folder.mkdir()
    hands = SIDE_POT.read_text(encoding="utf-8")
    growing = folder / "table.txt"
    growing.write_text(hands, encoding="utf-8")
    with running_server(tmp_path / "live.duckdb", "--watch", str(folder), "--interval", "0.3") as (base, _):
        tab = Tab(browser, base)
        page = tab.open("/hands")
        in_file = len(re.findall(r"^PokerStars (?:Hand|Game) #", hands, re.M))
        for _ in range(100):  # the first passes import the file: its last hand once the file stops growing
            if page.locator("#hands tbody tr").count() == in_file:
                break
            page.wait_for_timeout(200)
            page.reload()
        before = page.locator("#hands tbody tr").count()
        assert before == in_file
        page.wait_for_timeout(1000)  # (the page's first poll, 300 ms after drawing, takes the store's mark)
        first = hands.split("\n\n\n")[0] if "\n\n\n" in hands else hands
        second = first.replace("900000000001", "900000000099").replace("2009/11/26 10:25:13", "2030/01/01 10:29:13")
        with growing.open("a", encoding="utf-8") as out:
            out.write("\n\n\n" + second)
        page.wait_for_selector(f"#hands tbody tr >> nth={before}", timeout=20_000)  # no reload: the page polls
        assert "900000000099" in page.locator("#hands tbody tr").first.inner_text()
        assert page.locator("#hands tbody tr.fresh").count() == 1
        tab.close()
