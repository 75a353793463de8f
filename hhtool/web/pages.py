"""The list pages: players (stats), a player, hands, sessions, graph, audit and problems. Each reads its
query string (:mod:`.forms`), asks the service on a worker thread (a page never blocks the server's
loop) and renders its template; a value the service refuses is shown on the page, with the form."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response

from hhtool.service.choices import Axis, Breakdown, ProblemKind, Showdown, Unit, Verdict
from hhtool.service.errors import UsageError
from hhtool.service.numbers import GAP_MINUTES, LIMIT, MIN_HANDS
from hhtool.service.serving import ServedDatabase
from hhtool.web import forms
from hhtool.web.app import Served
from hhtool.web.stat_help import STAT_COLUMNS, STAT_HELP, rate_text

Work = Callable[[ServedDatabase], dict[str, Any]]


async def render(served: Served, request: Request, template: str, work: Work, **fixed: Any) -> Response:
    """The page ``template`` with what ``work`` read (on a worker thread); a UsageError is said on it."""
    from hhtool.service.errors import StoreError

    def run() -> tuple[dict[str, Any], str | None, int]:
        try:
            with served.held.reading() as database:
                return work(database), None, 200
        except UsageError as error:
            return {}, str(error), 400
        except StoreError as error:
            return {}, str(error), 503

    values, error, status = await run_in_threadpool(run)
    return served.page(request, template, status, error=error, query=request.query_params,
                       form=forms.values(request.query_params), kept=forms.kept, **fixed, **values)


async def home(served: Served, request: Request) -> Response:
    return RedirectResponse("/hands", status_code=303)


# ------------------------------------------------------------------ players


def _stats_rows(frame: Any, keys: Sequence[str]) -> list[dict[str, Any]]:
    from hhtool.service.web_lists import money_text

    rows = []
    for record in frame.iter_rows(named=True):
        row: dict[str, Any] = {}
        for key in keys:
            value = record.get(key)
            if key in ("net_won", "net_won_showdown", "net_won_non_showdown", "rake_paid", "ev_net_won",
                       "luck") and value is not None:
                row[key] = (money_text(int(value), int(record["unit"]), record["currency"]), value)
            elif f"{key}_opportunities" in record:
                row[key] = (rate_text(value), -1 if value is None else value,
                            f"{record.get(f'{key}_count', 0)}/{record.get(f'{key}_opportunities', 0)}")
            elif key in ("bb_per_100", "ev_bb_per_100"):
                row[key] = ("-" if value is None else f"{value:.2f}", -1e18 if value is None else value)
            else:
                row[key] = ("" if value is None else str(value), value)
        row["_player"] = record["player"]
        rows.append(row)
    return rows


async def stats(served: Served, request: Request) -> Response:
    from hhtool.service.reports import stats as player_stats

    query = request.query_params
    by_text = forms.text(query, "by") or "player"
    sort = forms.text(query, "sort")

    def work(database: ServedDatabase) -> dict[str, Any]:
        by = forms.choice(query, "by", Breakdown) if by_text != "player" else None
        chosen = forms.the_filter(query)
        frame = player_stats(database, chosen, by=by, min_hands=forms.number(query, "min_hands", MIN_HANDS) or 0,
                             sort=sort, limit=forms.number(query, "limit", LIMIT) or 500)
        group = {Breakdown.stakes: "stakes", Breakdown.month: "month", Breakdown.door_card: "door_card",
                 Breakdown.street: "street", Breakdown.start: "start"}.get(by) if by else None
        keys = ["player"] + ([group] if group else [])
        if not frame.is_empty() and frame["currency"].n_unique() > 1:
            keys.append("currency")
        shown = [key for key in (STAT_COLUMNS["street"] if by is Breakdown.street else STAT_COLUMNS["player"])
                 if key in frame.columns and key not in keys]
        keys += shown
        return {"keys": keys, "rows": _stats_rows(frame, keys), "count": frame.height}

    return await render(served, request, "stats.html", work, by=by_text, help=STAT_HELP,
                        tabs=["player", *[str(b) for b in Breakdown]], sort=sort)


async def player(served: Served, request: Request) -> Response:
    from hhtool.service.notes import notes_for
    from hhtool.service.reports import stats as player_stats
    from hhtool.web.stat_help import every_rate

    query = request.query_params
    name = forms.text(query, "player")
    if name is None:
        return RedirectResponse("/stats", status_code=303)
    #: the players table's rate columns (same keys, same definitions), led with on his page
    rate_keys = [key for key in STAT_COLUMNS["player"] if key not in STAT_COLUMNS["volume"]]

    def work(database: ServedDatabase) -> dict[str, Any]:
        chosen = forms.the_filter(query)
        frame = player_stats(database, chosen)
        rows = [record for record in frame.iter_rows(named=True) if record["player"] == name] or list(
            frame.iter_rows(named=True))[:1]
        blocks = []
        for record in rows:
            own = frame.filter(frame["currency"] == record["currency"]).filter(frame["player"] == record["player"])
            blocks.append({"currency": record["currency"], "rates": _stats_rows(own, rate_keys)[0],
                           "volume": _stats_rows(own, STAT_COLUMNS["volume"])[0], "every": every_rate(record)})
        return {"blocks": blocks, "notes": notes_for(database, "player", name)}

    return await render(served, request, "player.html", work, name=name, help=STAT_HELP, rate_keys=rate_keys)


async def against(served: Served, request: Request) -> Response:
    """A player against one opponent: the hands both played, each one's net in them; without an
    opponent, his opponents by hands together, to choose one (read only when asked: over a million
    hands they cost more than the rest of his page)."""
    from hhtool.service.opponents import against as hands_against
    from hhtool.service.opponents import opponents_of
    from hhtool.web.hand import hand_url

    query = request.query_params
    name, opponent = forms.text(query, "player"), forms.text(query, "opponent")
    if name is None:
        return RedirectResponse("/stats", status_code=303)

    def work(database: ServedDatabase) -> dict[str, Any]:
        if opponent is None:
            return {"opponents": opponents_of(database, forms.the_filter(query), name)}
        return {"against": hands_against(database, forms.the_filter(query), name, opponent)}

    return await render(served, request, "against.html", work, name=name, opponent=opponent, hand_url=hand_url,
                        player_keys=PLAYER_KEYS)


#: a player page's keys in the query string (the player and the filter's), kept by its links
PLAYER_KEYS = forms.FILTER_KEYS


# ------------------------------------------------------------------ hands


def hand_choice_of(query: Any) -> Any:
    from hhtool.service.hands import hand_choice

    return hand_choice(forms.choice(query, "verdict", Verdict), forms.choice(query, "showdown", Showdown),
                       forms.text(query, "min_pot"), forms.text(query, "max_pot"))


def sitting_of(query: Any) -> Any:
    from hhtool.service.web_lists import sitting

    start, end = forms.text(query, "start"), forms.text(query, "end")
    if start is None or end is None:
        return None
    try:
        return sitting(forms.text(query, "table"), datetime.fromisoformat(start), datetime.fromisoformat(end))
    except ValueError:
        raise UsageError(f"start and end want times as YYYY-MM-DDTHH:MM:SS, not {start!r} and {end!r}") from None


#: the hands list's own keys in the query string, kept by its links (beside the filter's)
LIST_KEYS = (*forms.FILTER_KEYS, "verdict", "showdown", "min_pot", "max_pot", "table", "start", "end")


async def hands(served: Served, request: Request) -> Response:
    from hhtool.service.notes import all_tags
    from hhtool.service.web_lists import hands_page

    query = request.query_params

    def work(database: ServedDatabase) -> dict[str, Any]:
        tags = all_tags(database)
        page = hands_page(database, forms.the_filter(query), hand_choice_of(query), after=forms.text(query, "after"),
                          before=forms.text(query, "before"), sitting=sitting_of(query))
        return {"page": page, "tags": tags}

    return await render(served, request, "hands.html", work, list_query=forms.kept(query, LIST_KEYS),
                        list_keys=LIST_KEYS, verdicts=[str(v) for v in Verdict], showdowns=[str(s) for s in Showdown])


# ------------------------------------------------------------------ sessions


async def sessions(served: Served, request: Request) -> Response:
    from hhtool.service.sessions import sessions as player_sessions
    from hhtool.service.web_lists import money_text

    query = request.query_params
    sort = forms.text(query, "sort")

    def work(database: ServedDatabase) -> dict[str, Any]:
        from dataclasses import replace

        from hhtool.service.web_lists import RECENT_HANDS, recent_start

        chosen = forms.the_filter(query)
        since = None
        if chosen.date_from is None:  # the latest days only (up to To, if asked), unless From is asked
            since = recent_start(database, chosen, RECENT_HANDS)
            chosen = replace(chosen, date_from=since) if since is not None else chosen
        report = player_sessions(database, chosen, forms.number(query, "gap", GAP_MINUTES) or 30, sort=sort,
                                 limit=forms.number(query, "limit", LIMIT) or 200)
        rows = []
        for record in report.listed.frame.iter_rows(named=True):
            start, end = record["start"], record["end"]
            hands_query = forms.kept(query, ("game", "stakes", "tag"), player=record["player"], site=record["site"],
                                     table=record["table"] or None, start=start.isoformat(), end=end.isoformat())
            rows.append({**record, "net": money_text(int(record["net_won"]), int(record["unit"]), record["currency"]),
                         "length": f"{record['duration_seconds'] // 3600}:{record['duration_seconds'] // 60 % 60:02d}",
                         "hands_link": f"/hands?{hands_query}"})
        return {"rows": rows, "total": report.listed.total, "undated": report.undated, "since": since,
                "recent": RECENT_HANDS}

    return await render(served, request, "sessions.html", work, sort=sort)


# ------------------------------------------------------------------ graph


async def graph(served: Served, request: Request) -> Response:
    from hhtool.service.web_graph import graph_points
    from hhtool.web.chart import chart

    query = request.query_params

    def work(database: ServedDatabase) -> dict[str, Any]:
        unit = forms.choice(query, "unit", Unit) or Unit.money
        axis = forms.choice(query, "x", Axis) or Axis.hands
        chosen = forms.the_filter(query)
        player_name = chosen.players[0] if chosen.players else None
        from dataclasses import replace

        data, ticks = graph_points(database, replace(chosen, players=()), player_name, forms.text(query, "currency"),
                                   unit, axis)
        point_query = forms.kept(query, GRAPH_KEYS, player=data.player, currency=data.currency, unit=str(unit), x=str(axis))
        return {"data": data, "svg": chart(data, ticks, point_query)}

    return await render(served, request, "graph.html", work, unit=forms.text(query, "unit") or "money",
                        axis=forms.text(query, "x") or "hands")


#: the graph's keys in the query string that a point's link keeps (to find its hand: :func:`graph_hand`)
GRAPH_KEYS = (*forms.FILTER_KEYS, "currency", "unit", "x")


async def graph_hand(served: Served, request: Request) -> Response:
    """A point of a long series (a span's sums) → the replay of the span's last hand."""
    from hhtool.service.web_graph import last_hand
    from hhtool.web.hand import hand_url

    query = request.query_params

    def find() -> tuple[str | None, str, int]:
        from dataclasses import replace

        from hhtool.service.errors import StoreError

        player_name, currency, at = forms.text(query, "player"), forms.text(query, "currency"), forms.text(query, "at")
        if player_name is None or currency is None:
            return None, "a graph point's hand needs its player and currency", 400
        try:
            when = datetime.fromisoformat(at) if at else None
        except ValueError:
            return None, f"at wants a time as YYYY-MM-DDTHH:MM:SS, not {at!r}", 400
        try:
            with served.held.reading() as database:
                site, hand_id = last_hand(database, replace(forms.the_filter(query), players=()), player_name, currency,
                                          forms.choice(query, "unit", Unit) or Unit.money,
                                          forms.choice(query, "x", Axis) or Axis.hands, when)
            return hand_url(site, hand_id), "", 303
        except UsageError as error:  # (none found, or a filter's value unknown)
            return None, str(error), 404
        except StoreError as error:
            return None, str(error), 503

    to, error, status = await run_in_threadpool(find)
    if to is None:
        return PlainTextResponse(f"no hand for this point: {error}", status_code=status)
    return RedirectResponse(to, status_code=status)


# ------------------------------------------------------------------ audit and problems


async def audit(served: Served, request: Request) -> Response:
    from hhtool.service.choices import BREAKDOWNS, finding_code
    from hhtool.service.verdicts import violation_breakdowns

    query = request.query_params
    by = forms.text(query, "by") or "code"

    def work(database: ServedDatabase) -> dict[str, Any]:
        code_text = forms.text(query, "code")
        try:
            code = finding_code(code_text) if code_text else None
        except ValueError as error:
            raise UsageError(str(error)) from None
        chosen = forms.the_filter(query)
        found = violation_breakdowns(database, [by], chosen, code, forms.text(query, "by_player"),
                                     limit=forms.number(query, "limit", LIMIT) or 200, for_terminal=True)
        frame = found[0].frame if found else None
        columns = list(frame.columns) if frame is not None else []
        rows = [dict(zip(columns, row, strict=True)) for row in frame.iter_rows()] if frame is not None else []
        return {"columns": columns, "rows": rows}

    return await render(served, request, "audit.html", work, by=by, breakdowns=[b for b in BREAKDOWNS])


async def problems(served: Served, request: Request) -> Response:
    from hhtool.service.problems import problems as stored_problems

    query = request.query_params

    def work(database: ServedDatabase) -> dict[str, Any]:
        kind = forms.choice(query, "kind", ProblemKind) or ProblemKind.all
        found = stored_problems(database, kind, forms.many(query, "site"), forms.text(query, "file"),
                                forms.text(query, "code"), limit=forms.number(query, "limit", LIMIT) or 200)
        sections = [("Import errors", found.errors, found.errors_total),
                    ("Unverifiable checks", found.unverifiable, found.unverifiable_total),
                    ("Defects", found.defects, found.defects_total)]
        return {"sections": [(title, list(frame.iter_rows(named=True)), total) for title, frame, total in sections],
                "found_any": any(total for _, _, total in sections)}

    return await render(served, request, "problems.html", work, kinds=[str(k) for k in ProblemKind])


ROUTES = (("/", home, ["GET"]), ("/stats", stats, ["GET"]), ("/player", player, ["GET"]),
          ("/player/against", against, ["GET"]), ("/hands", hands, ["GET"]), ("/sessions", sessions, ["GET"]),
          ("/graph", graph, ["GET"]), ("/graph/hand", graph_hand, ["GET"]),
          ("/audit", audit, ["GET"]), ("/problems", problems, ["GET"]))
