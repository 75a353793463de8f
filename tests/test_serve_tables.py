"""The table view (/tables, #35 item 3) through HTTP on the samples: each recent table's seats with the
players table's rates (the same numbers `hhtool stats` gives), greyed with their counts at 25 hands or
fewer, a note marker where the player has notes, a refused minutes value said on the page, a hostile
name shown as text; and a server without --watch holds the store only while a page reads it."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.service.stores import Database
from tests.serve_helpers import HOSTILE, build_store, hostile_history

#: the samples' newest table and hand (PokerStars, 2026-11-29 11:52 ET), and two of its players
TABLE, NEWEST_HAND = "Alcyone IV", "250010000119"
FEW, MANY = "denny501", "Hero"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_store(tmp_path_factory.mktemp("serve-tables"))


@pytest.fixture(scope="module")
def served(store: Path) -> Iterator[tuple[Any, Any]]:
    starlette_testclient = pytest.importorskip("starlette.testclient")
    from hhtool.service.serving import HeldStore
    from hhtool.web.app import create_app

    held = HeldStore(Database(str(store)))
    try:
        with starlette_testclient.TestClient(create_app(held, {"testserver"}, token="t0ken")) as client:
            yield client, held
    finally:
        held.close()


def _row(page: str, player: str) -> str:
    match = re.search(rf'<tr class="[^"]*" data-player="{re.escape(html.escape(player))}">(.*?)</tr>', page, re.S)
    assert match, f"no row of {player}"
    return match.group(1)


def test_the_newest_table_shows_its_seats_with_the_stats_reports_rates(served: tuple[Any, Any], store: Path) -> None:
    client, _ = served
    page = client.get("/tables").text
    assert f"<h2>{TABLE} " in page and f">{NEWEST_HAND}</a>" in page
    result = CliRunner().invoke(app, ["stats", "--db", str(store), "--player", FEW, "--site", "pokerstars",
                                      "--format", "json"])
    assert result.exit_code == 0, result.output
    expected = json.loads(result.output)
    expected = expected[0] if isinstance(expected, list) else expected["rows"][0]
    cells = [re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r'<td class="num[^"]*"[^>]*>(.*?)</td>',
                                                                  _row(page, FEW), re.S)]  # (the text, as read)
    assert cells[1] == str(expected["hands"])
    vpip = f"{expected['vpip'] * 100:.1f}% {expected['vpip_count']}/{expected['vpip_opportunities']}"
    wtsd = f"{expected['wtsd'] * 100:.1f}% {expected['wtsd_count']}/{expected['wtsd_opportunities']}"
    assert cells[2] == vpip and cells[6] == wtsd, cells


def test_a_player_of_25_hands_or_fewer_is_greyed_with_counts_and_the_others_are_not(served: tuple[Any, Any]) -> None:
    client, _ = served
    page = client.get("/tables").text
    few, many = _row(page, FEW), _row(page, MANY)
    assert few.count('class="num few"') == 5 and "<small>" in few
    assert "few" not in many and "<small>" not in many and '<span class="badge">you</span>' in many


def test_a_note_marker_shows_on_the_noted_player_only(served: tuple[Any, Any], store: Path) -> None:
    client, _ = served
    assert "note-mark" not in _row(client.get("/tables").text, FEW)
    result = CliRunner().invoke(app, ["note", "--db", str(store), "--player", FEW, "calls down light"])
    assert result.exit_code == 0, result.output
    page = client.get("/tables").text
    assert 'title="1 note">✎ 1</a>' in _row(page, FEW) and "note-mark" not in _row(page, MANY)


@pytest.mark.parametrize("minutes", ["0", "1441", "abc", "²", "-5", "1e3"])
def test_a_minutes_value_out_of_range_is_a_400_with_the_reason(served: tuple[Any, Any], minutes: str) -> None:
    client, _ = served
    answer = client.get("/tables", params={"minutes": minutes})
    assert answer.status_code == 400
    assert "minutes must be a whole number from 1 to 1,440" in answer.text and 'name="minutes"' in answer.text


def test_a_hostile_name_is_text(tmp_path: Path) -> None:
    """A store of the one hand whose player has a hostile name: his table is the newest one."""
    starlette_testclient = pytest.importorskip("starlette.testclient")
    from hhtool.service.serving import HeldStore
    from hhtool.web.app import create_app

    first_hand = hostile_history().split("\nPokerStars ")[0]  # (not the 'Side' hand, which is newer)
    (tmp_path / "hostile.txt").write_text(first_hand, encoding="utf-8")
    db = tmp_path / "hostile.duckdb"
    result = CliRunner().invoke(app, ["import", str(tmp_path / "hostile.txt"), "--db", str(db), "-q"])
    assert result.exit_code in (0, 1), result.output
    held = HeldStore(Database(str(db)))
    try:
        with starlette_testclient.TestClient(create_app(held, {"testserver"}, token="t0ken")) as client:
            page = client.get("/tables").text
    finally:
        held.close()
    assert HOSTILE not in page and "<img" not in page
    assert f'data-player="{html.escape(HOSTILE)}"' in page and f">{html.escape(HOSTILE)}</a>" in page


def test_between_pages_the_server_holds_nothing_and_a_writer_opens_the_file(served: tuple[Any, Any], store: Path) -> None:
    """Without --watch a page's instance is closed when its request ends: a writer (another import,
    here one in this process) opens the file at once afterwards."""
    from hhtool.store import Store

    client, held = served
    assert client.get("/tables").status_code == 200
    assert not held.holds_file
    with Store(str(store), lock_timeout=0):
        pass
