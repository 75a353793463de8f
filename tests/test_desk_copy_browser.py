"""Issue #25, the dispute desk, in a real browser (headless Chromium, as tests/test_dispute_report_browser.py
drives it): the player's copy reads at phone and desktop widths (the answer first, the rules in plain
words, nothing wider than the screen, the hole cards nobody showed drawn face down to the showdown),
and the report index keeps each date on one line on a phone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser import NEEDS_CHROMIUM
from tests.desk_copy_helpers import HIDDEN_HAND, hidden_hand_store
from tests.dispute_helpers import explain, imported, misawarded, runner, side_pot_hand
from tests.test_dispute_report_browser import Offline, seat_cards
from tests.test_show import OVERBET

pytestmark = [pytest.mark.slow, *NEEDS_CHROMIUM]  # (Chromium: the slow set, CI's)


def test_the_player_copy_at_phone_and_desktop_widths(browser: Any, tmp_path: Path) -> None:
    db, history = imported(tmp_path, misawarded(side_pot_hand()))
    out = tmp_path / "copy.html"
    explain(db, "200", "--for", "player", "--format", "html", "--out", str(out))
    for width in (390, 1280):
        offline = Offline(browser, width)
        page = offline.open(out)
        first = page.eval_on_selector("main section", "section => section.innerText")
        assert "The site paid the $9.00 high half of the main pot to Shorty" in first
        titles = page.eval_on_selector_all("#rules dt", "titles => titles.map(t => t.innerText)")
        assert titles == ["Side pots", "Showdown hands", "Pot splitting and odd chips", "Showdown order and mucking"]
        assert page.eval_on_selector("#rules dt", "t => getComputedStyle(t).fontWeight") in ("600", "700")
        body = page.inner_text("main")
        assert str(history) not in body and "R12" not in body and "odd_unit" not in body and "Line" not in body
        page.keyboard.press("End")
        assert page.get_attribute("#felt", "data-showdown") == "yes"
        assert page.evaluate("document.documentElement.scrollWidth") <= width  # nothing wider than the screen
        shot = tmp_path / f"copy-{width}.png"
        page.screenshot(path=str(shot), full_page=True)
        assert shot.stat().st_size > 10_000
        offline.close()


def test_the_player_copy_keeps_unshown_hole_cards_face_down(browser: Any, tmp_path: Path) -> None:
    db = hidden_hand_store(tmp_path)
    out = tmp_path / "copy.html"
    explain(db, HIDDEN_HAND, "--for", "player", "--format", "html", "--out", str(out))
    offline = Offline(browser, 390)
    page = offline.open(out)
    page.click("#end")
    assert seat_cards(page, "Hero") == ["??", "??", "5h", "Qc"]  # he folded on 4th street, never showing
    assert seat_cards(page, "gashpor") == ["2d", "5c", "4h", "8d", "6s", "3c", "Jh"]
    assert page.is_visible("#hidden-note")
    offline.close()


@pytest.mark.slow
def test_the_index_keeps_each_date_on_one_line_on_a_phone(browser: Any, tmp_path: Path) -> None:
    db, _ = imported(tmp_path, "\n\n\n".join([misawarded(side_pot_hand()), OVERBET]))
    desk = tmp_path / "desk"
    assert runner.invoke(_app(), ["audit", "--db", db, "--report", str(desk)]).exit_code == 1
    offline = Offline(browser, 390)
    page = offline.open(desk / "index.html")
    lines = page.eval_on_selector_all(
        "#index tbody td.date",
        "cells => cells.map(c => { const r = document.createRange(); r.selectNodeContents(c); "
        "return new Set(Array.from(r.getClientRects()).map(x => Math.round(x.top))).size; })")
    assert lines == [1, 1], lines
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # the table scrolls in its box
    offline.close()


def _app() -> Any:
    from hhtool.cli import app

    return app
