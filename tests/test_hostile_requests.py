"""Issue #34, items 2, 5 and 8, through the app (Starlette's TestClient, and the ASGI app called with a
body of our own chunks):

- a number no one expects in any numeric key of any page (``limit``, ``min_hands``, ``table_size``,
  ``gap``, ``min_pot``, ``max_pot``: superscripts, Arabic-Indic digits, huge, negative, 1e23, 5,000
  nines, NaN, …) is a 400 with the page's form and the one-line reason, never a 5xx;
- a note keeps what was typed in the store, and every page shows its control characters (NUL, ESC,
  a bidirectional override) as the terminal does, as "?", never raw;
- a write's body is bounded before it is read: a Content-Length past the bound is refused before a
  byte is read, a body without one is read only up to the bound.
"""

from __future__ import annotations

import asyncio
import html
from collections.abc import Iterator
from typing import Any

import pytest

from hhtool.service.serving import HeldStore
from hhtool.service.stores import Database
from hhtool.web.hand import MAX_FORM_BYTES
from tests.serve_helpers import build_store

starlette_testclient = pytest.importorskip("starlette.testclient", reason="httpx is not installed (pip install httpx)")

ORIGIN = "http://testserver"
HAND = "/hand/pokerstars/900000000001"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, HeldStore, Any]]:
    """The test client, the held store under it, and the app itself."""
    from hhtool.web.app import create_app

    held = HeldStore(Database(str(build_store(tmp_path_factory.mktemp("hostile-requests")))))
    app = create_app(held, {"testserver"}, token="t0ken")
    try:
        with starlette_testclient.TestClient(app, raise_server_exceptions=False) as client:
            yield client, held, app
    finally:
        held.close()


# ------------------------------------------------------------------ item 2: numbers no one expects

#: (page, key, the reason's start) for every numeric key of every page the issue names
NUMERIC_KEYS = [
    ("/stats", "limit", "limit wants a whole number from 1 to 1,000,000"),
    ("/sessions", "limit", "limit wants a whole number from 1 to 1,000,000"),
    ("/audit", "limit", "limit wants a whole number from 1 to 1,000,000"),
    ("/problems", "limit", "limit wants a whole number from 1 to 1,000,000"),
    ("/stats", "min_hands", "min_hands wants a whole number from 0 to 1,000,000,000"),
    ("/stats", "table_size", "table_size wants a whole number from 2 to 10"),
    ("/hands", "table_size", "table_size wants a whole number from 2 to 10"),
    ("/sessions", "table_size", "table_size wants a whole number from 2 to 10"),
    ("/audit", "table_size", "table_size wants a whole number from 2 to 10"),
    ("/graph", "table_size", "table_size wants a whole number from 2 to 10"),
    ("/sessions", "gap", "gap wants a whole number from 1 to 525,600"),
    ("/hands", "min_pot", "--min-pot wants an amount"),
    ("/hands", "max_pot", "--max-pot wants an amount"),
]
#: values no whole number (nor amount) key accepts
ODD_VALUES = ["²", "٣", "٣٠", "1²", "99999999999999999999999", "9" * 5000, "9" * 40, "9" * 42, "-1", "-0.5", "1e23",
              "NaN", "nan", "inf", "-inf", "0x10", "1_000", "+5", "½", "\x00", "\x1b[31m", "1\u202e2", "9" * 24 + "0",
              "１２"]  # (the last: fullwidth digits)


@pytest.mark.slow
@pytest.mark.parametrize(("path", "key", "reason"), NUMERIC_KEYS, ids=[f"{p[1:]}-{k}" for p, k, _ in NUMERIC_KEYS])
@pytest.mark.parametrize("value", ODD_VALUES, ids=[f"v{n}" for n in range(len(ODD_VALUES))])
def test_an_odd_number_is_a_400_with_the_form_and_the_reason(served: tuple[Any, HeldStore, Any], path: str, key: str,
                                                            reason: str, value: str) -> None:
    client = served[0]
    response = client.get(path, params={key: value})
    assert response.status_code == 400, (response.status_code, response.text[-800:])
    page = html.unescape(response.text)
    assert reason in page, page[-1500:]
    assert '<form method="get"' in response.text  # the page's form, to put it right
    error = page.split('<p class="error" role="alert">', 1)[1].split("</p>", 1)[0]
    assert "\n" not in error and len(error) < 200, error  # one line, the value cut when long


@pytest.mark.parametrize(("path", "key", "value"), [
    ("/stats", "limit", " 7 "), ("/stats", "limit", ""), ("/stats", "limit", "   "), ("/stats", "min_hands", "0"),
    ("/stats", "limit", "1000000"), ("/stats", "table_size", "8"), ("/sessions", "gap", "525600"),
    ("/sessions", "limit", "007"), ("/problems", "limit", "1"), ("/audit", "limit", "3"), ("/hands", "min_pot", "1,000"),
    ("/hands", "max_pot", "$1000000000000"), ("/hands", "min_pot", "0.000001"),
])
def test_a_number_in_its_bounds_is_read(served: tuple[Any, HeldStore, Any], path: str, key: str, value: str) -> None:
    response = served[0].get(path, params={key: value})
    assert response.status_code == 200, response.text[-800:]


def test_every_bound_is_refused_one_past_it(served: tuple[Any, HeldStore, Any]) -> None:
    client = served[0]
    for path, key, value in [("/stats", "limit", "1000001"), ("/stats", "limit", "0"), ("/stats", "table_size", "1"),
                             ("/stats", "table_size", "11"), ("/sessions", "gap", "0"), ("/sessions", "gap", "525601"),
                             ("/stats", "min_hands", "1000000001"), ("/hands", "max_pot", "1000000000000.01")]:
        assert client.get(path, params={key: value}).status_code == 400, (path, key, value)


# ------------------------------------------------------------------ item 5: notes with control characters

TYPED = "a\x00b\x1b[2Jc\u202ed\x07e\r\nsecond line"


def _post(client: Any, path: str, data: dict[str, str]) -> Any:
    return client.post(path, data=data, headers={"Origin": ORIGIN}, follow_redirects=False)


def test_a_note_is_stored_as_typed_and_shown_with_its_controls_visible(served: tuple[Any, HeldStore, Any]) -> None:
    from hhtool.service.notes import notes_for

    client, held, _ = served
    assert _post(client, f"{HAND}/note", {"text": TYPED, "token": "t0ken", "back": HAND}).status_code == 303
    assert _post(client, "/player/note", {"player": "Hero", "text": TYPED, "token": "t0ken",
                                          "back": "/player?player=Hero"}).status_code == 303
    with held.reading() as database:
        stored = [note.text for note in notes_for(database, "hand", "900000000001", "pokerstars")]
    assert TYPED.replace("\r\n", "\n") in stored or TYPED in stored  # (what the form sent, as typed)
    for page in (client.get(HAND).text, client.get("/player?player=Hero").text):
        for raw in ("\x00", "\x1b", "\u202e", "\x07", "\r"):
            assert raw not in page, repr(raw)
        assert "a?b?[2Jc?d?e\nsecond line" in page


# ------------------------------------------------------------------ item 8: a write's body, bounded before it is read


def test_a_body_past_the_bound_is_refused(served: tuple[Any, HeldStore, Any]) -> None:
    client = served[0]
    big = {"text": "x" * (MAX_FORM_BYTES + 1), "token": "t0ken", "back": HAND}
    declared = _post(client, f"{HAND}/note", big)
    assert declared.status_code == 413 and "too long" in declared.text

    def chunks() -> Iterator[bytes]:  # (a generator: sent chunked, with no Content-Length)
        yield b"token=t0ken&text="
        for _ in range(MAX_FORM_BYTES // 4096 + 2):
            yield b"x" * 4096

    chunked = client.post(f"{HAND}/note", content=chunks(), follow_redirects=False,
                          headers={"Origin": ORIGIN, "Content-Type": "application/x-www-form-urlencoded"})
    assert chunked.status_code == 413 and "too long" in chunked.text
    assert "x" * 100 not in client.get(HAND).text  # nothing written


def _asgi_post(app: Any, chunks: int, chunk_size: int, declared: int | None) -> tuple[int, int]:
    """POST a note to ``app`` as ``chunks`` body messages of ``chunk_size`` bytes (with Content-Length
    ``declared``, or none); its status, and how many of the messages the app asked for."""
    pulled = 0
    statuses: list[int] = []

    async def receive() -> dict[str, Any]:
        nonlocal pulled
        if pulled < chunks:
            pulled += 1
            body = (b"token=t0ken&text=" if pulled == 1 else b"") + b"x" * chunk_size
            return {"type": "http.request", "body": body, "more_body": pulled < chunks}
        await asyncio.sleep(3600)  # (a client that has sent everything waits for the answer)
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            statuses.append(message["status"])

    headers = [(b"host", b"testserver"), (b"origin", ORIGIN.encode()),
               (b"content-type", b"application/x-www-form-urlencoded")]
    if declared is not None:
        headers.append((b"content-length", str(declared).encode()))
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": f"{HAND}/note", "raw_path": f"{HAND}/note".encode(), "root_path": "", "query_string": b"",
             "headers": headers, "client": ("127.0.0.1", 50000), "server": ("testserver", 80)}
    asyncio.run(asyncio.wait_for(app(scope, receive, send), timeout=60))
    return statuses[0], pulled


def test_a_declared_length_past_the_bound_is_refused_before_reading(served: tuple[Any, HeldStore, Any]) -> None:
    status, pulled = _asgi_post(served[2], chunks=1000, chunk_size=64 * 1024, declared=1000 * 64 * 1024 + 17)
    assert status == 413 and pulled == 0


def test_a_body_without_a_length_is_read_only_up_to_the_bound(served: tuple[Any, HeldStore, Any]) -> None:
    size = 16 * 1024
    status, pulled = _asgi_post(served[2], chunks=1000, chunk_size=size, declared=None)
    assert status == 413
    assert pulled <= MAX_FORM_BYTES // size + 1  # up to the first chunk past the bound, no more


def test_a_body_within_the_bound_is_written(served: tuple[Any, HeldStore, Any]) -> None:
    status, _ = _asgi_post(served[2], chunks=3, chunk_size=1000, declared=None)
    assert status == 303


@pytest.mark.parametrize("path", ["/stats", "/hands", "/sessions", "/graph", "/audit"])
def test_the_last_day_there_is_bounds_nothing(served: tuple[Any, HeldStore, Any], path: str) -> None:
    """``to=9999-12-31`` (found by the campaign: the day after it is no date, an OverflowError, 500)."""
    assert served[0].get(path, params={"to": "9999-12-31"}).status_code == 200


def test_a_note_number_no_one_expects_is_a_400_and_a_real_one_deletes(served: tuple[Any, HeldStore, Any]) -> None:
    """``/note/N/delete`` with 5,000 nines was int()'s ValueError: a 500 (found by the campaign)."""
    import re

    client = served[0]
    for number in ("9" * 5000, "99999999999999999999999", "9223372036854775808", "0", "٣", "1e3", "-1", "%1b"):
        refused = _post(client, f"/note/{number}/delete", {"token": "t0ken"})
        assert refused.status_code == 400 and "no note" in refused.text, (number[:30], refused.status_code)
    assert _post(client, f"{HAND}/note", {"text": "to delete", "token": "t0ken", "back": HAND}).status_code == 303
    page = client.get(HAND).text
    number = re.findall(r'<p class="note-text">to delete</p>.*?action="/note/(\d+)/delete"', page, flags=re.S)[0]
    assert _post(client, f"/note/{number}/delete", {"token": "t0ken", "back": HAND}).status_code == 303
    assert "to delete" not in client.get(HAND).text
