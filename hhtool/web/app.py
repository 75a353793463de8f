"""The app: its routes, the page renderer and the guards every request passes.

Guards: a request must name this server in its ``Host`` header (a page of another site that resolves
its own name to 127.0.0.1 cannot read the store: DNS rebinding); a write (POST) must come from a page
of this server (``Origin``, else ``Referer``, of this host) and carry the token this process made at
start, which only its own pages hold. Every page is sent with a Content-Security-Policy that loads
nothing but this server's own files.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from jinja2 import Environment
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from hhtool.reports.templating import environment
from hhtool.service.serving import HeldStore, latest_hand

STATIC = Path(__file__).resolve().parent / "static"
#: what a page may load: this server's files only (the dispute report, inline by design, has its own)
PAGE_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
               "form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
REPORT_POLICY = ("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; "
                 "frame-ancestors 'none'; base-uri 'none'")
NAV = (("stats", "Players"), ("tables", "Tables"),
       ("hands", "Hands"), ("sessions", "Sessions"), ("graph", "Graph"), ("audit", "Audit"),
       ("problems", "Problems"))


@dataclass
class Served:
    """What every handler needs: the held store, the templates, this process's token, the hosts it answers."""

    held: HeldStore
    hosts: set[str]
    token: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    templates: Environment = field(default_factory=environment)  # the one of every page (reports/templating.py)

    def page(self, request: Request, template: str, status: int = 200, **values: Any) -> HTMLResponse:
        body = self.templates.get_template(template).render(
            request=request, token=self.token, nav=NAV, path=request.url.path, store=self.held.path,
            watching=self.held.watched, imports=self.held.state.status()["text"] if self.held.watched else None,
            **values)
        return HTMLResponse(body, status_code=status, headers={"Content-Security-Policy": PAGE_POLICY})


def allowed_hosts(host: str, port: int) -> set[str]:
    """The Host headers this server answers to: its address and loopback's names, with the port."""
    names = {host, "127.0.0.1", "localhost", "[::1]"} if host in ("127.0.0.1", "localhost", "::1") else {host}
    if ":" in host and not host.startswith("["):
        names.add(f"[{host}]")
    return {f"{name}:{port}" for name in names} | ({name for name in names} if port == 80 else set())


class Guard:
    """The ASGI middleware of the guards (see the module's text) and the headers every answer gets."""

    def __init__(self, app: ASGIApp, served: Served) -> None:
        self.app, self.served = app, served

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {key.decode("latin-1").lower(): value.decode("latin-1") for key, value in scope["headers"]}
        host = headers.get("host", "")
        if host not in self.served.hosts:
            await PlainTextResponse(f"this server answers to {sorted(self.served.hosts)[0]} only", 421)(scope, receive, send)
            return
        if scope["method"] not in ("GET", "HEAD") and not _same_origin(headers, host):
            await PlainTextResponse("refused: a write must come from a page of this server", 403)(scope, receive, send)
            return

        async def send_with_headers(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                extra = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"same-origin"),
                         (b"x-frame-options", b"DENY"), (b"cache-control", b"no-store")]
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _same_origin(headers: dict[str, str], host: str) -> bool:
    origin = headers.get("origin")
    if origin is not None:
        return origin == f"http://{host}"
    referer = headers.get("referer")
    if referer is None:
        return False
    parts = urlsplit(referer)
    return parts.scheme == "http" and parts.netloc == host


def token_ok(served: Served, given: str | None) -> bool:
    return given is not None and secrets.compare_digest(given.encode(), served.token.encode())


Handler = Callable[[Served, Request], Awaitable[Response]]


def _bound(served: Served, handler: Handler) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        return await handler(served, request)
    return endpoint


def create_app(held: HeldStore, hosts: Iterable[str], token: str | None = None) -> Starlette:
    """The app over ``held``, answering to the Host headers ``hosts`` (:func:`allowed_hosts`)."""
    from hhtool.web import hand, pages, tables

    served = Served(held, set(hosts))
    if token is not None:
        served.token = token
    routes: list[BaseRoute] = [Route(path, _bound(served, handler), methods=methods)
                               for path, handler, methods in (*pages.ROUTES, *hand.ROUTES, *tables.ROUTES)]
    routes += [Route("/api/latest", _bound(served, latest), methods=["GET"]),
               Mount("/static", app=StaticFiles(directory=STATIC), name="static")]
    app = Starlette(routes=routes)
    app.state.served = served
    app.add_middleware(Guard, served=served)
    return app


async def latest(served: Served, request: Request) -> Response:
    """The newest hand's mark, polled by open pages (a few bytes), and with --watch what the import
    inside the server did (the top bar's status)."""
    from starlette.concurrency import run_in_threadpool

    def read() -> dict[str, Any]:
        with served.held.reading() as database:
            mark = {**latest_hand(database), "imported": served.held.state.stored}
        if served.held.watched:
            mark["import"] = served.held.state.status()
        return mark

    return JSONResponse(await run_in_threadpool(read))


__all__ = ["NAV", "PAGE_POLICY", "REPORT_POLICY", "Guard", "Served", "allowed_hosts", "create_app", "token_ok"]
