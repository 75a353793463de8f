"""The table view (/tables) in headless Chromium beside `hhtool serve --watch` (#35, items 2 and 3): a
simulated file written into the watched folder puts its table, with the seats of its newest hand, on
the open page within one poll (2 s) of the hand being stored, and the top bar and the server's terminal
say what was imported. Screenshots at 1280 and 390 px go to $HHTOOL_SHOTS when it names a folder."""

from __future__ import annotations

import json
import os
import re
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from tests.browser import NEEDS_CHROMIUM, browser  # noqa: F401  (the fixture)
from tests.serve_helpers import running_server

pytestmark = [pytest.mark.slow, *NEEDS_CHROMIUM]

#: how often the table view polls (static/tables.js), and what a redraw may take on a loaded machine
POLL, REDRAW = 2.0, 2.5


def _simulate(path: Path, hands: int, seed: int) -> None:
    result = CliRunner().invoke(app, ["simulate", "--hands", str(hands), "--seed", str(seed), "--out", str(path), "-q"])
    assert result.exit_code == 0, result.output


def _last_hand(path: Path) -> tuple[str, list[str]]:
    """The table and the seated players of the file's last hand."""
    last = path.read_text(encoding="utf-8").split("PokerStars Hand #")[-1]
    table = re.search(r"^Table '([^']+)'", last, re.M)
    assert table
    return table.group(1), re.findall(r"^Seat \d+: (.+?) \(\$[\d.]+ in chips\)", last, re.M)


def _mark(base: str) -> int:
    with urllib.request.urlopen(f"{base}/api/latest", timeout=10) as answer:
        return int(json.loads(answer.read())["hands"])


@pytest.fixture()
def watched_server(tmp_path: Path) -> Iterator[tuple[str, Any, Path, Path]]:
    """`serve --watch` on a store of 120 simulated hands; its base URL, process, folder and the next file."""
    db, folder, staged = tmp_path / "live.duckdb", tmp_path / "watched", tmp_path / "next.txt"
    folder.mkdir()
    _simulate(tmp_path / "first.txt", 120, 61)
    _simulate(staged, 3, 62)  # a day later, at another table
    result = CliRunner().invoke(app, ["import", str(tmp_path / "first.txt"), "--db", str(db), "-q"])
    assert result.exit_code == 0, result.output
    _, players = _last_hand(staged)
    result = CliRunner().invoke(app, ["note", "--db", str(db), "--player", players[-1], "bluffs the river"])
    assert result.exit_code == 0, result.output
    with running_server(db, "--watch", str(folder), "--interval", "0.3") as (base, process):
        yield base, process, folder, staged


def test_a_new_hands_table_and_seats_show_within_one_poll(browser: Any, watched_server: tuple[str, Any, Path, Path],  # noqa: F811
                                                         tmp_path: Path) -> None:
    base, process, folder, staged = watched_server
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{base}/tables")
    assert page.locator("section.hud-table").count() == 1
    assert page.locator("#import-status").inner_text() == "importing: nothing new yet"
    table, players = _last_hand(staged)
    before = _mark(base)
    (folder / "next.txt").write_bytes(staged.read_bytes())
    written = time.monotonic()
    stored = shown = None
    selector = f'section.hud-table[data-table="pokerstars/{table}"]'
    while time.monotonic() - written < 60 and shown is None:
        if stored is None and _mark(base) > before:
            stored = time.monotonic()
        if page.locator(selector).count():
            shown = time.monotonic()
        page.wait_for_timeout(100)
    assert stored is not None and shown is not None, "the new table never showed"
    print(f"\nstored {stored - written:.2f} s after the file was written; shown {shown - stored:.2f} s after it was stored")
    assert shown - stored <= POLL + REDRAW
    section = page.locator(selector)
    assert section.locator("tbody tr").count() == len(players)
    for player in players:
        assert section.locator(f'tr[data-player="{player}"]').count() == 1, player
    assert section.locator(f'tr[data-player="{players[-1]}"] .note-mark').inner_text() == "✎ 1"
    page.wait_for_timeout(int(POLL * 1000) + 500)  # the top bar: refreshed by the next poll
    assert re.fullmatch(r"imported 3 hands from next\.txt at \d\d:\d\d", page.locator("#import-status").inner_text())
    shots = os.environ.get("HHTOOL_SHOTS")
    if shots:
        page.screenshot(path=str(Path(shots) / "tables-1280.png"), full_page=True)
        narrow = browser.new_page(viewport={"width": 390, "height": 844})
        narrow.goto(f"{base}/tables?minutes=1440")
        narrow.screenshot(path=str(Path(shots) / "tables-390.png"), full_page=True)
        narrow.close()
    page.close()
    assert not errors, errors
    process.terminate()
    process.wait(timeout=20)
    assert process.stderr is not None
    said = process.stderr.read()
    assert re.search(r"^imported 3 hands from next\.txt at \d\d:\d\d$", said, re.M), said
