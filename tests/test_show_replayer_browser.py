"""`hhtool show --format html` in a real browser (headless Chromium from Debian's package, driven by
Playwright), offline: the replayer stepped with the keyboard and the buttons, every player's whole
board on each street with the down cards marked, the hero's 7th-street card down, a hostile name's
escape shown as "?", two replayers embedded in one page stepping apart, screenshots at phone and
desktop widths."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser import NEEDS_CHROMIUM
from tests.test_dispute_report_browser import Offline, seat_cards
from tests.test_show_replayer import HOSTILE, PARTY, runner, stored
from tests.test_site_pokerstars import SPLIT_HAND

pytestmark = [pytest.mark.slow, *NEEDS_CHROMIUM]  # (Chromium: the slow set, CI's)


def show_page(tmp_path: Path, db: str, hand_id: str, *args: str) -> Path:
    out = tmp_path / f"{hand_id}.html"
    result = runner.invoke(app_(), ["show", hand_id, "--db", db, "--format", "html", "--out", str(out), *args])
    assert result.exit_code == 0, result.output
    return out


def faces(page: Any, player: str) -> list[str]:
    selector = f'#felt .seat[data-player="{player}"] .card'
    return [str(face) for face in page.eval_on_selector_all(selector, "cards => cards.map(c => c.dataset.face || c.className)")]


def step_to(page: Any, words: str, key: str = "ArrowRight") -> None:
    for _ in range(200):
        if page.inner_text("#step-words") == words:
            return
        page.keyboard.press(key)
    raise AssertionError(f"no step says {words!r}")


def test_each_street_shows_every_board_stepped_by_keyboard_and_buttons(browser: Any, tmp_path: Path) -> None:
    out = show_page(tmp_path, stored(tmp_path, SPLIT_HAND), "35874576282")
    offline = Offline(browser, 1280)
    page = offline.open(out)
    assert page.inner_text("h1") == "Hand PokerStars #35874576282 — replay"
    assert seat_cards(page, "Hero") == []  # the antes, before the deal
    step_to(page, "3rd street: the cards are dealt")
    assert seat_cards(page, "u.pressure") == ["??", "??", "Td"] and seat_cards(page, "Hero") == ["7c", "3s", "5h"]
    assert faces(page, "Hero") == ["down", "down", "up"]
    while page.inner_text("#step-words") != "4th street: the cards are dealt":
        page.click("#next")  # the buttons step as the keys do
    assert seat_cards(page, "u.pressure") == ["??", "??", "Td", "2c"]  # the whole board: why u.pressure's Td 2c…
    assert seat_cards(page, "gashpor") == ["??", "??", "4h", "8d"]
    assert seat_cards(page, "Hero") == ["7c", "3s", "5h", "Qc"]  # …acts after Hero's Qc
    page.click("#next")
    assert page.inner_text("#step-words") == "Hero checks" and page.is_visible('#felt .seat.actor[data-player="Hero"]')
    page.click("#prev")
    assert page.inner_text("#step-words") == "4th street: the cards are dealt"
    step_to(page, "7th street: the cards are dealt")
    # PokerStars prints no 7th-street line for an opponent: his down card is there, hidden
    assert seat_cards(page, "gashpor") == ["??", "??", "4h", "8d", "6s", "3c", "??"]
    assert faces(page, "gashpor") == ["card back", "card back", "up", "up", "up", "up", "card back"]
    assert "folded" in (page.get_attribute('#felt .seat[data-player="Hero"]', "class") or "")
    page.keyboard.press("End")
    assert page.get_attribute("#felt", "data-showdown") == "yes" and page.is_disabled("#next")
    assert seat_cards(page, "gashpor") == ["2d", "5c", "4h", "8d", "6s", "3c", "Jh"]
    page.keyboard.press("Home")
    assert page.get_attribute("#felt", "data-step") == "0" and page.is_disabled("#prev")
    assert page.inner_text("#result").count("\n") >= 3 and "$0.37" in page.inner_text("#result")
    offline.close()


def test_the_heros_seventh_street_card_is_down_and_hidden_boards_hold_cards(browser: Any, tmp_path: Path) -> None:
    out = show_page(tmp_path, stored(tmp_path, source=PARTY), "11612330015")
    offline = Offline(browser, 1280)
    page = offline.open(out)
    step_to(page, "7th street: the cards are dealt")
    assert seat_cards(page, "Hero") == ["4h", "6c", "5h", "7s", "Ad", "8h", "9c"]
    assert faces(page, "Hero") == ["down", "down", "up", "up", "up", "up", "down"]
    # PartyPoker prints no opponent's cards: his seat holds cards all the same, the up ones unknown
    assert faces(page, "Cranmore") == ["card back", "card back"] + ["card unknown"] * 4 + ["card back"]
    page.click("#end")
    assert seat_cards(page, "Cranmore") == ["Qc", "Qd", "Kc", "Kd", "9s", "2h", "9h"]
    offline.close()
    hidden = Offline(browser, 1280)
    page = hidden.open(show_page(tmp_path, stored(tmp_path, source=PARTY), "11612330015", "--hide-hole"))
    step_to(page, "7th street: the cards are dealt")
    assert seat_cards(page, "Hero") == ["??", "??", "5h", "7s", "Ad", "8h", "??"]
    hidden.close()


def test_a_hostile_names_escape_shows_as_a_question_mark(browser: Any, tmp_path: Path) -> None:
    db = stored(tmp_path, SPLIT_HAND.replace("gashpor", HOSTILE))
    offline = Offline(browser, 1280)
    page = offline.open(show_page(tmp_path, db, "35874576282"))
    step_to(page, "3rd street: the cards are dealt")
    page.click("#next")
    names = page.eval_on_selector_all("#felt .seat .name", "names => names.map(n => n.textContent)")
    hostile = next(name for name in names if "gash" in name)
    assert hostile.startswith("?[31mgash[b]por[/b]<script>x</script>?") and "\x1b" not in hostile
    assert page.inner_text("#step-words").startswith("?[31mgash[b]por[/b]<script>x</script>?")
    assert "\x1b" not in page.inner_text("#step-words") and offline.dialogs == []
    offline.close()
    # the dispute page's replayer is the same one
    report = tmp_path / "dispute.html"
    explained = runner.invoke(app_(), ["audit", "--db", db, "--explain", "35874576282", "--format", "html",
                                       "--out", str(report)])
    assert explained.exit_code == 0, explained.output
    desk = Offline(browser, 1280)
    page = desk.open(report)
    names = page.eval_on_selector_all("#felt .seat .name", "names => names.map(n => n.textContent)")
    assert any(name.startswith("?[31mgash") for name in names) and not any("\x1b" in name for name in names)
    desk.close()


def test_two_replayers_embedded_in_one_page_step_apart(browser: Any, tmp_path: Path) -> None:
    from hhtool.reports.dispute.replayer import replayer_fragment
    from hhtool.reports.dispute.replayer_assets import REPLAYER_CSS, REPLAYER_JS
    from hhtool.service.judging import explain_stored
    from hhtool.service.stores import Database

    db = stored(tmp_path, SPLIT_HAND)
    with Database(db).open(read_only=True) as store:
        report = explain_stored(store, "35874576282", None, None)
    page_file = tmp_path / "two.html"
    page_file.write_text(f"<!DOCTYPE html><html><head><meta charset='utf-8'><style>{REPLAYER_CSS}</style></head><body>"
                         f"<input id='filter'>{replayer_fragment(report)}{replayer_fragment(report, True)}"
                         f"<script>{REPLAYER_JS}</script></body></html>")
    offline = Offline(browser, 1280)
    page = offline.open(page_file)
    steps = "els => els.map(e => e.dataset.step)"
    assert page.eval_on_selector_all(".felt", steps) == ["0", "0"]
    page.click("#filter")
    page.keyboard.press("ArrowRight")  # typing in a field steps nothing
    assert page.eval_on_selector_all(".felt", steps) == ["0", "0"]
    page.click(".replayer >> nth=1 >> .next")
    page.keyboard.press("ArrowRight")  # the replayer with the focus steps
    assert page.eval_on_selector_all(".felt", steps) == ["0", "2"]
    offline.close()


@pytest.mark.slow
def test_screenshots_at_phone_and_desktop_widths(browser: Any, tmp_path: Path) -> None:
    out = show_page(tmp_path, stored(tmp_path, source=PARTY), "11612330015")
    for width in (390, 1280):
        offline = Offline(browser, width)
        page = offline.open(out)
        step_to(page, "7th street: the cards are dealt")
        assert page.evaluate("document.documentElement.scrollWidth") <= width  # nothing wider than the screen
        shot = tmp_path / f"show-{width}.png"
        page.screenshot(path=str(shot), full_page=True)
        assert shot.stat().st_size > 10_000
        offline.close()


def app_() -> Any:
    from hhtool.cli import app

    return app
