"""The table view (/tables): a HUD in the browser. The page lists each table with a hand in the last
minutes and its seats with their rates (:mod:`hhtool.service.live_tables`); its script
(``static/tables.js``) polls the newest hand's mark and redraws the tables when the store changed."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from hhtool.service.errors import UsageError
from hhtool.service.serving import ServedDatabase
from hhtool.web.app import Served
from hhtool.web.pages import render
from hhtool.web.stat_help import STAT_HELP, rate_text

#: the rates' headers on a narrow screen, where five columns must fit beside the names
SHORT_HEADERS = {"vpip": "VPIP", "raise_3rd": "R3", "steal": "Stl", "aggression_5th": "Agg5", "wtsd": "WTSD"}


async def tables(served: Served, request: Request) -> Response:
    from hhtool.service.live_tables import RATES, SMALL_SAMPLE, minutes_asked, table_view

    text = request.query_params.get("minutes")

    def work(database: ServedDatabase) -> dict[str, Any]:
        return {"view": table_view(database, minutes_asked(text))}

    try:
        minutes = minutes_asked(text)
    except UsageError:
        minutes = None
    return await render(served, request, "tables.html", work, rates=RATES, help=STAT_HELP, short=SHORT_HEADERS,
                        rate_text=rate_text, small=SMALL_SAMPLE, minutes=minutes, minutes_text=text or "")


ROUTES = (("/tables", tables, ["GET"]),)

__all__ = ["ROUTES", "tables"]
