"""The dispute report's web page in a real browser (headless Chromium from Debian's package, driven
by Playwright): opened offline with every request that is not the file itself refused, the verdict,
every pot and the award table present, the replayer stepped to the showdown with the keyboard and
the winning cards marked, screenshots at phone and desktop widths."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser import NEEDS_CHROMIUM
from tests.dispute_helpers import FILE_MARK, GOLDEN, explain, imported, misawarded, runner, side_pot_hand

pytestmark = [pytest.mark.slow, *NEEDS_CHROMIUM]  # (Chromium: the slow set, CI's)


class Offline:
    """A page that may load only file:// URLs; every other request is refused and recorded."""

    def __init__(self, browser: Any, width: int) -> None:
        self.page = browser.new_page(viewport={"width": width, "height": 900})
        self.left: list[str] = []
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.page.route("**/*", self._route)
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("dialog", self._dialog)

    def _dialog(self, dialog: Any) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def _route(self, route: Any) -> None:
        url = route.request.url
        if url.startswith("file://"):
            route.continue_()
        else:
            self.left.append(url)
            route.abort()

    def open(self, path: Path) -> Any:
        self.page.goto(path.as_uri())
        return self.page

    def close(self) -> None:
        self.page.close()
        assert self.left == [], f"requests left the file: {self.left}"
        assert self.errors == [], self.errors


def html_report(tmp_path: Path, text: str) -> tuple[Path, Path]:
    db, history = imported(tmp_path, text)
    out = tmp_path / "report.html"
    explain(db, "200", "--format", "html", "--out", str(out))
    return out, history


def seat_cards(page: Any, player: str, mark: str = "") -> list[str]:
    selector = f'#felt .seat[data-player="{player}"] .card{mark}'
    return [str(card) for card in page.eval_on_selector_all(selector, "cards => cards.map(c => c.dataset.card || '??')")]


def to_showdown(page: Any) -> int:
    presses = 0
    while page.get_attribute("#felt", "data-showdown") != "yes":
        page.keyboard.press("ArrowRight")
        presses += 1
        assert presses < 200, "the replayer never reached the showdown"
    return presses


def test_golden_page_of_a_split_pot_with_a_side_pot(browser: Any, tmp_path: Path) -> None:
    out, history = html_report(tmp_path, side_pot_hand())
    assert out.read_text().replace(str(history), FILE_MARK) == (GOLDEN / "dispute_split_side_pot.html").read_text()
    offline = Offline(browser, 1280)
    page = offline.open(out)
    assert page.inner_text("#verdict").startswith("The site's award is correct under the rules of PokerStars")
    assert page.inner_text("#pot-0 h3") == "Main pot: $18.00"
    assert page.inner_text("#pot-1 h3") == "Side pot 1: $30.00"
    awards = page.eval_on_selector_all("#awards tr", "rows => rows.map(r => r.innerText.split('\\t').slice(0, 4))")
    assert awards[1:] == [["Big", "$24.00", "$24.00", "$0.00"], ["Bigger", "$24.00", "$24.00", "$0.00"]]
    assert page.get_attribute("#felt", "data-step") == "0"
    assert seat_cards(page, "Shorty") == []  # before the deal
    presses = to_showdown(page)
    assert presses == int(page.get_attribute("#felt", "data-step") or 0) and presses > 10
    assert seat_cards(page, "Bigger") == ["Ah", "6d", "Qs", "4d", "5d", "Ac", "3d"]
    assert seat_cards(page, "Shorty") == ["4c", "Qh", "2c", "9h", "3c", "Jd", "Th"]
    assert sorted(seat_cards(page, "Big", ".won-high")) == sorted(["Ks", "Kh", "Kd", "9d", "8c"])
    assert sorted(seat_cards(page, "Bigger", ".won-low")) == sorted(["6d", "5d", "4d", "3d", "Ah"])
    assert seat_cards(page, "Shorty", ".won-high") == [] and seat_cards(page, "Bigger", ".won-high") == []
    assert "main pot high: Big" in page.inner_text("#step-words")
    page.keyboard.press("ArrowLeft")
    assert page.get_attribute("#felt", "data-showdown") == "no"
    # down cards stay hidden; PokerStars prints no 7th-street line for the other players' down card, dealt all the same
    assert seat_cards(page, "Big") == ["??", "??", "Kd", "Kh", "7s", "2s", "??"]
    page.click("#next")
    assert page.get_attribute("#felt", "data-showdown") == "yes"
    offline.close()


def test_screenshots_at_phone_and_desktop_widths(browser: Any, tmp_path: Path) -> None:
    out, _ = html_report(tmp_path, misawarded(side_pot_hand()))
    for width in (390, 1280):
        offline = Offline(browser, width)
        page = offline.open(out)
        assert page.inner_text("#verdict").startswith("The site paid the $9.00 high half of the main pot to Shorty")
        page.keyboard.press("End")
        assert page.evaluate("document.documentElement.scrollWidth") <= width  # nothing wider than the screen
        shot = tmp_path / f"report-{width}.png"
        page.screenshot(path=str(shot), full_page=True)
        assert shot.stat().st_size > 10_000
        offline.close()
    printed = Offline(browser, 1280)
    page = printed.open(out)
    page.emulate_media(media="print")
    assert page.is_hidden(".controls") and page.is_visible("#awards")
    printed.close()


def test_a_hostile_name_renders_as_text(browser: Any, tmp_path: Path) -> None:
    name = "<script>alert(1)</script><img src=x onerror=alert(2)>"
    out, _ = html_report(tmp_path, misawarded(side_pot_hand()).replace("Shorty", name))
    offline = Offline(browser, 1280)
    page = offline.open(out)
    page.keyboard.press("End")
    assert name in page.inner_text("#verdict") and name in page.inner_text("#felt")
    assert page.eval_on_selector_all("img", "images => images.length") == 0
    assert offline.dialogs == []
    offline.close()


@pytest.mark.slow
def test_the_index_sorts_by_money_misawarded(browser: Any, tmp_path: Path) -> None:
    low = side_pot_hand().replace("Hand #200", "Hand #202").replace(
        "Bigger collected $15 from side pot", "Big collected $15 from side pot")
    db, _ = imported(tmp_path, misawarded(side_pot_hand()) + "\n\n\n" + low + "\n")
    desk = tmp_path / "desk"
    assert runner.invoke(app_(), ["audit", "--db", db, "--report", str(desk)]).exit_code == 1
    offline = Offline(browser, 1280)
    page = offline.open(desk / "index.html")
    first_column = "rows => rows.map(r => r.cells[0].innerText)"
    assert page.eval_on_selector_all("#index tbody tr", first_column) == ["$15.00", "$9.00"]
    page.click("#index th >> nth=0")
    assert page.eval_on_selector_all("#index tbody tr", first_column) == ["$9.00", "$15.00"]
    page.click("#index tbody a >> nth=0")
    assert page.inner_text("#verdict").startswith("The site paid the $9.00 high half")
    offline.close()


def app_() -> Any:
    from hhtool.cli import app

    return app
