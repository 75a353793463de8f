"""`hhtool serve` over plain HTTP (Starlette's TestClient on the app, and the command itself): every page
answers on the samples, filters and keyset paging, hostile names and notes escaped, and the guards of
the writes (this process's token, the same origin) and of the Host header."""

from __future__ import annotations

import html
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from hhtool.cli import app as cli_app
from hhtool.service.stores import Database
from tests.serve_helpers import HOSTILE, HOSTILE_HAND, app_client, build_store, free_port

starlette_testclient = pytest.importorskip("starlette.testclient", reason="httpx is not installed (pip install httpx)")

ORIGIN = "http://testserver"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_store(tmp_path_factory.mktemp("serve-http"))


@pytest.fixture(scope="module")
def client(store: Path) -> Iterator[Any]:
    with app_client(store) as test_client:
        yield test_client


@pytest.mark.slow
@pytest.mark.parametrize(("path", "expected"), [
    ("/stats", "Hero"), ("/stats?by=month", "Month"), ("/stats?by=street", "Street"), ("/stats?by=door-card", "Door"),
    ("/stats?by=start", "Start</a></th>"),
    ("/player?player=Hero", "Notes on Hero"), ("/hands", "newest first"), ("/hands?player=Hero&verdict=ok", "Hero"),
    ("/sessions", "Sessions"), ("/graph", "Winnings of Hero"), ("/graph?unit=bb&x=date", "BB"),
    ("/audit", "Audit"), ("/audit?by=hand", "Audit"), ("/problems", "Problems"),
    ("/hand/pokerstars/900000000001", "Replay"), ("/hand/pokerstars/900000000001/dispute", "dispute report"),
])
def test_every_page_answers(client: Any, path: str, expected: str) -> None:
    response = client.get(path)
    assert response.status_code == 200, response.text[:500]
    assert expected in response.text
    assert "Content-Security-Policy" in response.headers


def test_the_hand_page_lists_each_street_in_the_historys_order(client: Any) -> None:
    """The antes before the deal they precede, as the dispute page has them (the page had its own
    table, deals first)."""
    streets = client.get("/hand/pokerstars/900000000001").text.split('id="streets"', 1)[1]
    assert "posts the ante" in streets and streets.index("posts the ante") < streets.index("dealt")


def test_a_bad_filter_is_said_on_the_page(client: Any) -> None:
    response = client.get("/hands?from=yesterday")
    assert response.status_code == 400
    assert "--from wants a date as YYYY-MM-DD, not &#39;yesterday&#39;" in response.text
    unknown = client.get("/stats?player=Heroo")
    assert unknown.status_code == 400 and "did you mean &#39;Hero&#39;" in unknown.text


def _hands(text: str) -> list[str]:
    return re.findall(r'<tr class="link-row" data-href="/hand/([^"?]+)', text)


def test_the_hands_list_pages_by_key(client: Any) -> None:
    first = client.get("/hands")
    older = re.search(r'rel="next" href="/hands\?([^"]+)"', first.text)
    assert older is not None and "after=" in older.group(1)
    second = client.get("/hands?" + html.unescape(older.group(1)))
    assert len(_hands(first.text)) == 50 and _hands(second.text)
    assert not set(_hands(first.text)) & set(_hands(second.text))
    newer = re.search(r'rel="prev" href="/hands\?([^"]+)"', second.text)
    assert newer is not None
    assert _hands(client.get("/hands?" + html.unescape(newer.group(1))).text) == _hands(first.text)
    assert client.get("/hands?after=nonsense").status_code == 400


def test_a_hostile_name_is_text_on_every_page(client: Any) -> None:
    escaped = html.escape(HOSTILE, quote=True)
    for path in ("/stats", f"/hand/pokerstars/{HOSTILE_HAND}", f"/hands?player={urllib.request.quote(HOSTILE)}",
                 f"/player?player={urllib.request.quote(HOSTILE)}"):
        page = client.get(path).text
        assert HOSTILE not in page, path
        assert "<img src=x" not in page, path
        assert escaped in page or escaped.replace("&#x27;", "&#39;") in page, path


def _post(client: Any, path: str, data: dict[str, str], **headers: str) -> Any:
    return client.post(path, data=data, headers={"Origin": ORIGIN, **headers}, follow_redirects=False)


def test_a_note_needs_the_token_and_the_same_origin(client: Any) -> None:
    path = "/hand/pokerstars/900000000001/note"
    note = {"text": "<script>alert(2)</script> a note", "token": "t0ken", "back": "/hand/pokerstars/900000000001"}
    assert _post(client, path, {**note, "token": "wrong"}).status_code == 403
    assert _post(client, path, {k: v for k, v in note.items() if k != "token"}).status_code == 403
    assert _post(client, path, note, Origin="http://evil.example").status_code == 403
    assert client.post(path, data=note, follow_redirects=False).status_code == 403  # no Origin, no Referer
    assert "alert(2)" not in client.get("/hand/pokerstars/900000000001").text
    written = _post(client, path, note)
    assert written.status_code == 303 and written.headers["location"] == "/hand/pokerstars/900000000001"
    page = client.get("/hand/pokerstars/900000000001").text
    assert "&lt;script&gt;alert(2)&lt;/script&gt; a note" in page and "<script>alert(2)" not in page


def test_a_write_goes_back_only_to_this_server(client: Any) -> None:
    note = {"text": "x", "token": "t0ken", "back": "//evil.example/"}
    written = _post(client, "/hand/pokerstars/900000000001/note", note)
    assert written.status_code == 303 and written.headers["location"] == "/hand/pokerstars/900000000001"


def test_tags_filter_the_hands_list(client: Any) -> None:
    tagged = _post(client, "/hand/pokerstars/900000000001/tag", {"tag": "Side-Pot", "token": "t0ken"})
    assert tagged.status_code == 303
    listed = client.get("/hands?tag=side-pot").text
    assert _hands(listed) == ["pokerstars/900000000001"]
    assert "#side-pot" in client.get("/hand/pokerstars/900000000001").text
    bad = _post(client, "/hand/pokerstars/900000000001/tag", {"tag": "two words", "token": "t0ken"})
    assert bad.status_code == 400 and "a tag is lower-case letters" in bad.text
    assert _post(client, "/hand/pokerstars/900000000001/untag", {"tag": "side-pot", "token": "t0ken"}).status_code == 303
    assert client.get("/hands?tag=side-pot").status_code in (200, 400)
    assert _hands(client.get("/hands?tag=side-pot").text) == []


def test_a_player_note_shows_on_his_page(client: Any) -> None:
    written = _post(client, "/player/note", {"player": "Hero", "text": "plays 3rd street tight", "token": "t0ken",
                                             "back": "/player?player=Hero"})
    assert written.status_code == 303
    assert "plays 3rd street tight" in client.get("/player?player=Hero").text


def test_another_host_header_is_refused(client: Any) -> None:
    response = client.get("/hands", headers={"Host": "attacker.example"})
    assert response.status_code == 421


def test_the_newest_hand_mark(client: Any) -> None:
    mark = client.get("/api/latest").json()
    assert mark["hands"] > 100 and mark["key"] >= 0


def test_folders_without_watch_are_refused() -> None:
    result = CliRunner().invoke(cli_app, ["serve", "some-folder", "--db", ":memory:"])
    assert result.exit_code == 2
    assert "folders are for --watch" in result.output


def test_another_address_warns_that_the_network_can_read_the_store(store: Path) -> None:
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "hhtool", "serve", "--db", str(store), "--host", "127.0.0.2",
                                "--port", str(port)], stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.2:{port}/hands", timeout=2) as response:
                    assert response.status == 200
                    break
            except OSError:  # (not listening yet, or a read timed out on a loaded machine: ask again)
                assert process.poll() is None and time.monotonic() < deadline
                time.sleep(0.2)
    finally:
        process.terminate()
        _, stderr = process.communicate(timeout=20)
    assert "warning: listening on 127.0.0.2: anyone who can reach this machine" in stderr
    assert "Traceback" not in stderr


@pytest.mark.slow
@pytest.mark.parametrize("players", [(), ("Hero",)])
def test_paging_by_key_in_time_ranges_walks_the_whole_list(store: Path, players: tuple[str, ...]) -> None:
    """Pages are looked for in a time range first, widened until it holds a page (a million hands are
    never sorted for 50 rows): pages of 3 rows, forwards then back, give every row once in the list's
    order, and a hand's neighbours are its rows' neighbours."""
    import duckdb

    from hhtool.service.web_lists import hands_page, neighbours
    from hhtool.store.filters import HandFilter

    database = Database(str(store))
    chosen = HandFilter(players=players)
    join = "JOIN keyed.results r ON r.hk = h.hk AND r.player = 'Hero'" if players else ""
    with duckdb.connect(str(store), read_only=True) as con:
        expected = [(str(site), str(hand_id)) for site, hand_id in con.execute(
            f"SELECT h.site, h.hand_id FROM hands h {join} "
            "ORDER BY coalesce(h.started_utc, TIMESTAMP '0001-01-01') DESC, h.hk DESC").fetchall()]  # (one clock)
    assert len(expected) > 20
    walked: list[tuple[str, str]] = []
    pages = [hands_page(database, chosen, limit=3)]
    while pages[-1].after is not None:
        pages.append(hands_page(database, chosen, after=pages[-1].after, limit=3))
    walked = [(row.site, row.hand_id) for page in pages for row in page.rows]
    assert walked == expected
    assert all(page.total == len(expected) for page in pages)
    back = [pages[-1]]
    while back[-1].before is not None:
        back.append(hands_page(database, chosen, before=back[-1].before, limit=3))
    assert [(row.site, row.hand_id) for page in reversed(back) for row in page.rows] == expected
    for index in (0, 1, len(expected) // 2, len(expected) - 1):
        around = neighbours(database, chosen, None, *expected[index], player=players[0] if players else None)
        assert (around.newer.site, around.newer.hand_id) == expected[index - 1] if index else around.newer is None
        older = expected[index + 1] if index + 1 < len(expected) else None
        assert ((around.older.site, around.older.hand_id) if around.older else None) == older


@pytest.mark.parametrize(("unit", "axis"), [("money", "hands"), ("bb", "date")])
def test_a_long_series_is_summed_per_span_with_the_totals_of_its_hands(client: Any, store: Path,
                                                                       monkeypatch: pytest.MonkeyPatch, unit: str,
                                                                       axis: str) -> None:
    """Over PER_HAND_LIMIT hands, the graph is summed in SQL per span of time: each point is the
    per-hand series' totals at that span's last hand, and its link opens that hand."""
    from hhtool.service import web_graph
    from hhtool.service.choices import Axis, Unit
    from hhtool.store.filters import HandFilter

    database = Database(str(store))
    per_hand, _ = web_graph.graph_points(database, HandFilter(), "Hero", None, Unit(unit), Axis(axis))
    monkeypatch.setattr(web_graph, "PER_HAND_LIMIT", 0)
    summed, _ = web_graph.graph_points(database, HandFilter(), "Hero", None, Unit(unit), Axis(axis))
    assert per_hand.hands == summed.hands and per_hand.left_out == summed.left_out
    assert 1 < len(summed.points) < len(per_hand.points)
    for point in summed.points:
        same = per_hand.points[point.number - 1]
        assert (point.total, point.showdown) == pytest.approx((same.total, same.showdown))
        assert point.started_at == same.started_at
    page = client.get(f"/graph?player=Hero&unit={unit}&x={axis}").text
    wide, narrow = (re.search(rf'<svg id="{name}".*?</svg>', page, re.S) for name in ("chart", "chart-narrow"))
    assert wide and narrow  # the one chart definition at both sizes; the style sheet shows the one that fits
    links = [html.unescape(link) for link in re.findall(r'<a href="(/graph/hand\?[^"]+)" class="point">', wide.group(0))]
    assert len(links) == len(summed.points)
    narrow_links = [html.unescape(link) for link in re.findall(r'<a href="(/graph/hand\?[^"]+)" class="point">',
                                                               narrow.group(0))]
    assert set(narrow_links) <= set(links) and narrow_links[-1] == links[-1]
    last = client.get(links[-1], follow_redirects=False)
    assert last.status_code == 303
    assert last.headers["location"] == f"/hand/{per_hand.points[-1].site}/{per_hand.points[-1].hand_id}"
    assert client.get("/graph/hand?player=Hero&currency=USD&at=2001-01-01T00:00:00").status_code == 404
    assert client.get("/graph/hand?player=Hero&currency=USD&at=noon").status_code == 400


def test_the_sessions_page_reads_the_latest_days_unless_dates_are_asked(client: Any,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Sessions come from every hand read in order (seconds over a million): without dates, the page
    reads the latest days holding RECENT_HANDS hands, says so, and lists sessions of those days only."""
    from hhtool.service import web_lists

    every = client.get("/sessions?player=Hero").text
    assert 'id="since"' not in every  # (the samples hold fewer hands than RECENT_HANDS)
    monkeypatch.setattr(web_lists, "RECENT_HANDS", 5)
    recent = client.get("/sessions?player=Hero").text
    since = re.search(r'id="since">Since (\d{4}-\d\d-\d\d):', recent)
    assert since is not None
    starts = re.findall(r'<td class="nowrap">(\d{4}-\d\d-\d\d) ', recent)
    assert starts and all(start >= since.group(1) for start in starts)
    assert len(starts) < len(re.findall(r'<td class="nowrap">(\d{4}-\d\d-\d\d) ', every))
    assert 'id="since"' not in client.get("/sessions?player=Hero&from=2000-01-01").text
    until = client.get(f"/sessions?player=Hero&to={since.group(1)}").text  # the latest days up to To
    assert 'id="since"' in until and all(start <= since.group(1) for start in
                                        re.findall(r'<td class="nowrap">(\d{4}-\d\d-\d\d) ', until))
