"""The hand pages: the replayer of one hand (the dispute report's replayer, the fragment of
:mod:`hhtool.reports.dispute.replayer`, drawn by the dispute page's own script), with its verdict,
the hands before and after it in the list it was opened from, its notes and tags; the dispute report
itself; and the only writes of the server besides the import: notes and tags (POST, same origin, with
the process's token: :mod:`.app`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from urllib.parse import parse_qs, quote

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response

from hhtool.service.errors import UsageError
from hhtool.service.numbers import NOTE_ID, quoted
from hhtool.service.serving import ServedDatabase
from hhtool.web import forms
from hhtool.web.app import REPORT_POLICY, Served, token_ok
from hhtool.web.pages import LIST_KEYS, hand_choice_of, render, sitting_of

#: the largest form a write accepts (a note is at most 10,000 characters)
MAX_FORM_BYTES = 128 * 1024


def hand_url(site: str, hand_id: str, query: str = "") -> str:
    return f"/hand/{quote(site, safe='')}/{quote(hand_id, safe='')}" + (f"?{query}" if query else "")


async def hand(served: Served, request: Request) -> Response:
    from hhtool.reports.dispute.html import streets_section
    from hhtool.reports.dispute.replayer import replayer_fragment
    from hhtool.service.audit import explain
    from hhtool.service.judging import allin_page_fragment
    from hhtool.service.notes import notes_for, tags_for
    from hhtool.service.web_lists import neighbours

    site, hand_id = request.path_params["site"], request.path_params["hand_id"]
    query = request.query_params
    list_query = forms.kept(query, LIST_KEYS)

    def work(database: ServedDatabase) -> dict[str, Any]:
        from hhtool.reports.dispute import Report

        # (the desk's report: the default form; judged with the structures file `serve` was given)
        report = explain(database, (), hand_id, site, None, desk=served.held.desk)
        assert isinstance(report, Report)
        chosen = forms.the_filter(query)
        around = neighbours(database, chosen, hand_choice_of(query), report.site, report.hand_id,
                            chosen.players[0] if len(chosen.players) == 1 else None, sitting_of(query),
                            _time(report.started_at))
        return {"report": report, "around": around,
                "replayer": replayer_fragment(report),  # (the dispute page's replayer: every value escaped there)
                "allin": allin_page_fragment(database, report.hand_id, report.site),  # (escaped there too)
                "streets": streets_section(report, with_lines=True),  # (the dispute page's table, in the history's order)
                "notes": notes_for(database, "hand", report.hand_id, report.site, stored=True),
                "tags": tags_for(database, report.hand_id, report.site, stored=True)}

    return await render(served, request, "hand.html", work, site=site, hand_id=hand_id, list_query=list_query,
                        hand_url=hand_url, copies=COPIES)


def _time(text: str | None) -> datetime | None:
    """The report's start time as a time (None when it has none, or not one the store compares)."""
    try:
        started = datetime.fromisoformat(text) if text else None
    except ValueError:
        return None
    return started if started is not None and started.tzinfo is None else None


#: the copies of a hand's report the page switches between (``audit --explain --for``)
COPIES = ("desk", "player")


async def dispute(served: Served, request: Request) -> Response:
    """The hand's report: the desk's copy, or (``for=player&player=NAME``) the copy addressed to one
    player of the hand, each as `audit --explain … --format html` writes it."""
    from hhtool.reports.dispute import render as render_report
    from hhtool.service.audit import explain

    site, hand_id = request.path_params["site"], request.path_params["hand_id"]
    form, player = forms.text(request.query_params, "for") or "desk", forms.text(request.query_params, "player")

    def work() -> tuple[str, int]:
        if form not in COPIES:
            return f"for={form!r}: choose {' or '.join(COPIES)}", 400
        if form == "player" and player is None:
            return "the player's copy is addressed to one player of the hand: choose him (player=NAME)", 400
        try:
            with served.held.reading() as database:
                report = explain(database, (), hand_id, site, None, form=form, player=player if form == "player" else None,
                                 desk=served.held.desk)
                return render_report(report, "html"), 200
        except UsageError as error:  # (no such hand; or for the player's copy, no such player in it)
            return str(error), 400 if form == "player" else 404

    body, status = await run_in_threadpool(work)
    if status != 200:
        return PlainTextResponse(body.replace("--player ", "player "), status_code=status)
    return HTMLResponse(body, headers={"Content-Security-Policy": REPORT_POLICY})


async def replayer_script(served: Served, request: Request) -> Response:
    from hhtool.reports.dispute.assets import JS

    return Response(JS, media_type="text/javascript")


async def replayer_style(served: Served, request: Request) -> Response:
    from hhtool.reports.dispute.assets import CSS

    return Response(CSS, media_type="text/css")


# ------------------------------------------------------------------ writes


async def _form(served: Served, request: Request) -> dict[str, str] | Response:
    """The posted form's fields (first value each), or the refusal: too long, or without this
    process's token."""
    body = await _bounded_body(request)
    if body is None:
        return PlainTextResponse(f"refused: the form is too long (at most {MAX_FORM_BYTES:,} bytes)", status_code=413)
    fields = {key: values[0] for key, values in parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True).items()}
    if not token_ok(served, fields.get("token") or request.headers.get("x-hhtool-token")):
        return PlainTextResponse("refused: the page's token is missing or stale (reload the page)", status_code=403)
    return fields


async def _bounded_body(request: Request) -> bytes | None:
    """The request's body, or None past :data:`MAX_FORM_BYTES`: a Content-Length above it is refused
    before a byte is read, and a body without one (chunked) is read a chunk at a time with a running
    count, stopping at the first chunk past the bound (never the whole of a hostile body in memory)."""
    declared = request.headers.get("content-length", "").strip()
    if declared and (len(declared) > 12 or not declared.isascii() or not declared.isdigit()
                     or int(declared) > MAX_FORM_BYTES):
        return None
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_FORM_BYTES:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


def _back(fields: dict[str, str], fallback: str) -> str:
    """Where to go after the write: the page it came from (a path of this server only)."""
    back = fields.get("back", "")
    return back if back.startswith("/") and not back.startswith("//") and "\\" not in back else fallback


async def _write(served: Served, request: Request, action: Any, fallback: str) -> Response:
    fields = await _form(served, request)
    if isinstance(fields, Response):
        return fields

    def run() -> str | None:
        try:
            with served.held.writing() as database:
                action(database, fields)
            return None
        except UsageError as error:
            return str(error)

    error = await run_in_threadpool(run)
    if error is not None:
        return PlainTextResponse(f"not written: {error}", status_code=400)
    return RedirectResponse(_back(fields, fallback), status_code=303)


async def add_hand_note(served: Served, request: Request) -> Response:
    from hhtool.service.notes import add_note

    site, hand_id = request.path_params["site"], request.path_params["hand_id"]
    return await _write(served, request, lambda db, f: add_note(db, "hand", hand_id, f.get("text", ""), site),
                        hand_url(site, hand_id))


async def add_hand_tag(served: Served, request: Request) -> Response:
    from hhtool.service.notes import add_tag

    site, hand_id = request.path_params["site"], request.path_params["hand_id"]
    return await _write(served, request, lambda db, f: add_tag(db, hand_id, f.get("tag", ""), site), hand_url(site, hand_id))


async def remove_hand_tag(served: Served, request: Request) -> Response:
    from hhtool.service.notes import remove_tag

    site, hand_id = request.path_params["site"], request.path_params["hand_id"]
    return await _write(served, request, lambda db, f: remove_tag(db, hand_id, f.get("tag", ""), site),
                        hand_url(site, hand_id))


async def add_player_note(served: Served, request: Request) -> Response:
    from hhtool.service.notes import add_note

    def action(database: ServedDatabase, fields: dict[str, str]) -> None:
        add_note(database, "player", fields.get("player", ""), fields.get("text", ""), fields.get("site") or None)

    return await _write(served, request, action, "/stats")


async def delete_a_note(served: Served, request: Request) -> Response:
    from hhtool.service.notes import delete_note

    def action(database: ServedDatabase, fields: dict[str, str]) -> None:
        given = request.path_params["note_id"]
        number = NOTE_ID.read(given)  # (5,000 digits were int()'s ValueError: a 500)
        if number is None or not delete_note(database, number):
            raise UsageError(f"no note {quoted(given)}")

    return await _write(served, request, action, "/hands")


ROUTES = (
    ("/hand/{site}/{hand_id}", hand, ["GET"]),
    ("/hand/{site}/{hand_id}/dispute", dispute, ["GET"]),
    ("/hand/{site}/{hand_id}/note", add_hand_note, ["POST"]),
    ("/hand/{site}/{hand_id}/tag", add_hand_tag, ["POST"]),
    ("/hand/{site}/{hand_id}/untag", remove_hand_tag, ["POST"]),
    ("/player/note", add_player_note, ["POST"]),
    ("/note/{note_id}/delete", delete_a_note, ["POST"]),
    ("/replayer.js", replayer_script, ["GET"]),
    ("/replayer.css", replayer_style, ["GET"]),
)
