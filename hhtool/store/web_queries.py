"""The queries of what the pages of `hhtool serve` read that no command reads the same way (the service,
:mod:`hhtool.service.web_lists`, checks the request and opens the store): the hands list paged by
its key (never OFFSET: the next page starts after the last row shown, so a page costs the same deep in a
million hands as at the top), the hand before and after one in that list, and the graph's points with
the hand each stands for. Money leaves here spelled (:func:`hhtool.money.format_money`) beside its
integer amount; the pages only place it.

The list's order is the CLI's default (newest first), made total by the hand key: ``started_utc DESC
NULLS LAST, hk DESC`` (the UTC instant; a row shows it in the user's zone). A page's cursor is the last
row's ``(started_utc, hk)`` as text.

Over a million hands a page must not sort them all, nor join them all to their players: a page is
looked for in a range of start times first (:class:`Pace`: about four pages' worth at the list's
average pace, from the cursor), widened until it holds the page. The rows outside a range all come
later in the order, so the first rows inside it are the page. Hands are stored about in time order
(an import appends them), so DuckDB reads only the row groups of the range. A player's rows are his
``results`` rows, joined to their hand by its key; their count comes from the stored facts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, timedelta, tzinfo
from typing import Any

from hhtool.clock import instant_of
from hhtool.money import format_money
from hhtool.store import Store
from hhtool.store.filters import HandFilter, player_condition
from hhtool.store.hand_queries import ListChoice
from hhtool.store.player_facts_cache import FACTS_TABLE, needs_refresh, summed_facts

#: rows a page of the hands list shows
PAGE_ROWS = 50
#: the sort key of a hand without a date: after every dated one (newest first)
_NO_DATE_TIME = datetime(1, 1, 1)
_NO_DATE = "TIMESTAMP '0001-01-01 00:00:00'"
_KEY_TIME = f"coalesce(h.started_utc, {_NO_DATE})"  # the UTC instant: every site's hands on one clock
#: a player's showdown in a hand, from his row of the stored facts ``{f}``: won, lost or none
_SHOWDOWN = "CASE WHEN {f}.went_sd = 1 THEN CASE WHEN {f}.collected > 0 THEN 'won' ELSE 'lost' END END"
#: the narrowest time range a page is first looked for in, and how much wider each next one is
_SMALLEST_WINDOW = timedelta(minutes=10)
_WIDER = 16


@dataclass(frozen=True)
class Window:
    """A range of hand times (either end open): where a page's rows are looked for first."""

    since: datetime | None = None
    upto: datetime | None = None

    def sql(self, column: str) -> tuple[str, list[Any]]:
        """The condition on a time ``column`` (an undated hand is in an unbounded range only)."""
        parts, params = [], []
        for op, bound in ((">=", self.since), ("<=", self.upto)):
            if bound is not None:
                parts.append(f"{column} {op} ?")
                params.append(bound)
        return " AND ".join(parts) or "TRUE", params


@dataclass(frozen=True)
class Cursor:
    """Where a page of the list starts: after (or, going back, before) this row's key."""

    started: datetime
    key: int
    player: str = ""

    def text(self) -> str:
        return f"{self.started.isoformat()}~{self.key}" + (f"~{self.player}" if self.player else "")

    @classmethod
    def parse(cls, text: str) -> Cursor:
        parts = text.split("~", 2)
        try:
            return cls(datetime.fromisoformat(parts[0]), int(parts[1]), parts[2] if len(parts) > 2 else "")
        except (ValueError, IndexError):
            raise ValueError(f"not a place in the hands list: {text!r}") from None


@dataclass(frozen=True)
class HandRow:
    """One row of the list: a hand, or with players asked for, a hand and one of them."""

    site: str
    hand_id: str
    started_at: datetime | None
    table: str | None
    stakes: str
    players: int
    pot: str
    verdict: str
    cursor: str
    player: str | None = None
    net: str | None = None
    net_amount: int | None = None
    showdown: str | None = None
    cards: str | None = None


@dataclass(frozen=True)
class HandsPage:
    rows: list[HandRow]
    total: int
    after: str | None = None  # the cursor of the next page, None on the last
    before: str | None = None  # the cursor of the previous page, None on the first
    with_player: bool = False
    tags: tuple[str, ...] = field(default=())


def _stakes(small: int | None, big: int | None, unit: int) -> str:
    if small is None or big is None:
        return ""
    return f"{format_money(small, unit)}/{format_money(big, unit)}"


def _choice_sql(choice: ListChoice, verdict: str, with_player: bool, window: Window) -> tuple[str, list[Any]]:
    """The list's own filters on the inner query's columns (``verdict``: the caller's verdict SQL on
    ``hands h``, ``showdown``, the pot)."""
    parts: list[str] = []
    params: list[Any] = []
    if choice.verdict is not None:
        parts.append(f"({verdict}) = ?")
        params.append(str(choice.verdict))
    if choice.showdown is not None:
        if not with_player:  # (the service says so to the user first)
            raise ValueError("showdown is a player's: a list with players only")
        # the player's row of the stored facts (the hands' own times bound it as they bound the hands)
        bounded, bounded_params = window.sql("pf.started_at")
        parts.append(f"EXISTS (SELECT 1 FROM {FACTS_TABLE} pf WHERE {bounded} AND pf.site = h.site AND pf.hand_id = h.hand_id "
                     f"AND pf.player = r.player AND ({_SHOWDOWN.format(f='pf')}) = ?)")
        params.extend([*bounded_params, str(choice.showdown)])
    pot = "(SELECT coalesce(sum(r2.contributed), 0) FROM keyed.results r2 WHERE r2.hk = h.hk)"
    if choice.min_pot is not None:
        parts.append(f"{pot} >= CAST(? AS DECIMAL(38,6)) * h.unit")
        params.append(str(choice.min_pot))
    if choice.max_pot is not None:
        parts.append(f"{pot} <= CAST(? AS DECIMAL(38,6)) * h.unit")
        params.append(str(choice.max_pot))
    return " AND ".join(parts) or "TRUE", params


@dataclass(frozen=True)
class Sitting:
    """One session's hands: its table, from its first hand's time to its last's (both included), as the
    sessions page shows them: wall times of ``zone`` (the user's)."""

    table: str | None
    start: datetime
    end: datetime
    zone: tzinfo = UTC

    def sql(self) -> tuple[str, list[Any]]:
        table = "h.table_name IS NOT DISTINCT FROM ?"
        zone = self.zone
        return (f"{table} AND h.started_utc BETWEEN ? AND ?",
                [self.table, instant_of(self.start, zone), instant_of(self.end, zone)])


def _base(hand_filter: HandFilter, choice: ListChoice, verdict: str, sitting: Sitting | None = None,
          window: Window | None = None) -> tuple[str, list[Any], bool]:
    """The rows of the list (before their order), those of ``window`` only: the hand's columns (its
    stored verdict: the page's rows are judged after, :func:`_rows`), and with players each one's
    ``results`` row (a player dealt in: his net), joined by the hand key."""
    window = window or Window()
    with_player = bool(hand_filter.players)
    where, params = replace(hand_filter, players=()).sql()
    bounded, bounded_params = window.sql("h.started_utc")
    where, params = f"{where} AND {bounded}", [*params, *bounded_params]
    if sitting is not None:
        condition, condition_params = sitting.sql()
        where, params = f"{where} AND {condition}", [*params, *condition_params]
    own, own_params = _choice_sql(choice, verdict, with_player, window)
    columns = (f"h.hk, h.site, h.hand_id, h.started_utc AS started_at, {_KEY_TIME} AS key_time, h.table_name, "
               "h.currency, h.unit, h.small_bet, h.big_bet, h.players, h.verdict")
    if not with_player:
        return (f"SELECT {columns}, '' AS player FROM hands h WHERE {where} AND {own}",
                [*params, *own_params], False)
    who, who_params = player_condition(hand_filter.players, "h.site", "r.player")
    sql = (f"SELECT {columns}, r.player, r.net FROM hands h JOIN keyed.results r ON r.hk = h.hk "
           f"WHERE {where} AND {who} AND {own}")
    return sql, [*params, *who_params, *own_params], True


def _after(cursor: Cursor, newer: bool) -> tuple[str, list[Any]]:
    """Rows after ``cursor`` in the list's order (older), or before it (``newer``)."""
    op = ">" if newer else "<"
    condition = (f"(l.key_time {op} ? OR (l.key_time = ? AND (l.hk {op} ? OR (l.hk = ? AND l.player {op} ?))))")
    return condition, [cursor.started, cursor.started, cursor.key, cursor.key, cursor.player]


def _order(newer: bool) -> str:
    direction = "" if newer else " DESC"
    return f"l.key_time{direction}, l.hk{direction}, l.player{direction}"


def _span(store: Store) -> tuple[datetime, datetime] | None:
    """The first and last dated hand's times (None: no dated hand)."""
    first, last = store.run("SELECT min(started_utc), max(started_utc) FROM hands")[0]
    return None if first is None else (first, last)


@dataclass(frozen=True)
class Pace:
    """What the first range a page is looked for in is sized by: the store's dated span and how many
    rows the list has in all (or an estimate: the hands stored)."""

    span: tuple[datetime, datetime] | None
    rows: int

    @classmethod
    def of(cls, store: Store, rows: int | None = None) -> Pace:
        if rows is None:
            rows = int(store.run("SELECT count(*) FROM hands")[0][0])
        return cls(_span(store), rows)

    def windows(self, cursor: Cursor | None, newer: bool, limit: int) -> Iterator[Window]:
        """The time ranges a page is looked for in, each 16 times the last, the last one unbounded: the
        first holds about four times ``limit`` of the list's rows at their average pace, from the
        cursor (the top without one) towards the page's side."""
        if self.span is None or self.rows <= limit or (cursor is not None and cursor.started <= _NO_DATE_TIME):
            yield Window()  # (few rows, no dated hand, or among the undated ones: bounds have no use)
            return
        first, last = self.span
        step = max((last - first) * (4 * limit) / self.rows, _SMALLEST_WINDOW)
        anchor = cursor.started if cursor is not None else last
        while (anchor + step <= last) if newer else (anchor - step >= first):
            yield Window(upto=anchor + step) if newer else Window(since=anchor - step)
            step *= _WIDER
        yield Window()


def _rows(store: Store, make: Callable[[Window], tuple[str, list[Any]]], pace: Pace, cursor: Cursor | None,
          newer: bool, limit: int, with_player: bool, verdict: str | None) -> list[dict[str, Any]]:
    """The first ``limit`` rows after (or before) ``cursor``: looked for in a bounded time range first,
    widened until it holds ``limit`` rows (or no longer bounded): the rows outside it all come later
    in the order, so those it holds are the first of the whole list. Then the page's rows only are
    judged (their verdict) and given their pot and, with players, the player's cards and showdown
    (``verdict``, the caller's verdict SQL on ``hands h``; None: none of these, for a link to the row)."""
    condition, condition_params = _after(cursor, newer) if cursor is not None else ("TRUE", [])
    rows: list[dict[str, Any]] = []
    if not pace.rows:
        return []
    for window in pace.windows(cursor, newer, limit):
        base, params = make(window)
        result = store.con.execute(f"SELECT * FROM ({base}) l WHERE {condition} ORDER BY {_order(newer)} LIMIT {int(limit)}",
                                   [*params, *condition_params])
        names = [d[0] for d in result.description]
        rows = [dict(zip(names, row, strict=True)) for row in result.fetchall()]
        if len(rows) >= limit:
            break
    if verdict is not None:
        _judged(store, rows, with_player, verdict)
    else:
        for row in rows:
            row["verdict"], row["pot"] = "", 0
    return list(reversed(rows)) if newer else rows


def _judged(store: Store, rows: list[dict[str, Any]], with_player: bool, verdict: str) -> None:
    """The verdict, pot and (with players) cards and showdown of the page's rows, looked up by their
    hand keys (a semi-join on a few keys: DuckDB skips the row groups without them)."""
    if not rows:
        return
    keys = sorted({int(row["hk"]) for row in rows})
    keyed = "IN (SELECT unnest(?::BIGINT[]))"
    verdicts = dict(store.run(f"SELECT h.hk, {verdict} FROM hands h WHERE h.hk {keyed}", [keys]))
    pots = dict(store.run(f"SELECT hk, CAST(sum(contributed) AS BIGINT) FROM keyed.results WHERE hk {keyed} GROUP BY hk",
                          [keys]))
    for row in rows:
        row["verdict"], row["pot"] = verdicts[row["hk"]], pots.get(row["hk"], 0)
    if not with_player:
        return
    players = sorted({str(row["player"]) for row in rows})
    cards = {(hk, player): text for hk, player, text in store.run(
        f"SELECT hk, player, string_agg(coalesce(card, '??'), ' ' ORDER BY seq) FROM keyed.cards WHERE hk {keyed} "
        "AND player IN (SELECT unnest(?::VARCHAR[])) GROUP BY ALL", [keys, players])}
    times = [row["started_at"] for row in rows if row["started_at"] is not None]
    bounded = "pf.started_at IS NULL OR pf.started_at BETWEEN ? AND ?" if times else "pf.started_at IS NULL"
    showdowns = {(site, hand_id, player): shown for site, hand_id, player, shown in store.run(
        f"SELECT pf.site, pf.hand_id, pf.player, {_SHOWDOWN.format(f='pf')} FROM {FACTS_TABLE} pf WHERE ({bounded}) "
        "AND pf.hand_id IN (SELECT unnest(?::VARCHAR[])) AND pf.player IN (SELECT unnest(?::VARCHAR[]))",
        [*([min(times), max(times)] if times else []), sorted({str(row["hand_id"]) for row in rows}), players])}
    for row in rows:
        row["cards"] = cards.get((row["hk"], row["player"]))
        row["showdown"] = showdowns.get((row["site"], row["hand_id"], row["player"]))


def _hand_row(row: dict[str, Any]) -> HandRow:
    unit, currency = int(row["unit"]), str(row["currency"])
    net = row.get("net")
    return HandRow(
        site=str(row["site"]), hand_id=str(row["hand_id"]), started_at=row["started_at"],
        table=row["table_name"],
        stakes=_stakes(row["small_bet"], row["big_bet"], unit), players=int(row["players"]),
        pot=format_money(int(row["pot"]), unit, currency), verdict=str(row["verdict"]),
        cursor=Cursor(row["key_time"], int(row["hk"]), str(row["player"] or "")).text(),
        player=row["player"] or None, net=None if net is None else format_money(int(net), unit, currency),
        net_amount=None if net is None else int(net), showdown=row.get("showdown"), cards=row.get("cards"))


def _total(store: Store, hand_filter: HandFilter, choice: ListChoice, verdict: str, sitting: Sitting | None) -> int:
    """How many rows the list has. A player's rows are counted in the stored facts (one row per player
    dealt in, with the hand columns the filters read) when they cover every hand and nothing but the
    showdown is asked of the rows: no join of a million hands."""
    base, params, with_player = _base(hand_filter, choice, verdict, sitting)
    plain = choice.verdict is None and choice.min_pot is None and choice.max_pot is None and sitting is None
    if with_player and plain and not needs_refresh(store):
        where, where_params = hand_filter.facts_sql()
        if choice.showdown is not None:
            where, where_params = f"{where} AND ({_SHOWDOWN.format(f='h')}) = ?", [*where_params, str(choice.showdown)]
        return int(store.run(f"SELECT count(*) FROM {FACTS_TABLE} h WHERE {where}", where_params)[0][0])
    return int(store.run(f"SELECT count(*) FROM ({base}) l", params)[0][0])


def hands_page(store: Store, hand_filter: HandFilter, chosen: ListChoice, verdict: str, *, cursor: Cursor | None,
               newer: bool, limit: int = PAGE_ROWS, sitting: Sitting | None = None) -> HandsPage:
    """A page of the hands list, newest first: the first (no ``cursor``), the one after ``cursor``, or
    (``newer``) the one before it; with how many rows match in all. ``verdict``: the verdict SQL on
    ``hands h``."""
    with_player = bool(hand_filter.players)

    def make(window: Window) -> tuple[str, list[Any]]:
        base, params, _ = _base(hand_filter, chosen, verdict, sitting, window)
        return base, params

    total = _total(store, hand_filter, chosen, verdict, sitting)
    found = _rows(store, make, Pace.of(store, total), cursor, newer, limit + 1, with_player, verdict)
    if newer:
        more_before = len(found) > limit
        found = found[-limit:] if more_before else found
        more_after = True
    else:
        more_after = len(found) > limit
        found = found[:limit]
        more_before = cursor is not None
    rows = [_hand_row(row) for row in found]
    return HandsPage(rows, total, after=rows[-1].cursor if rows and more_after else None,
                     before=rows[0].cursor if rows and more_before else None, with_player=with_player)


@dataclass(frozen=True)
class Neighbours:
    """The hands before and after one in the list it was opened from (None at either end)."""

    newer: HandRow | None
    older: HandRow | None
    cursor: str | None  # the hand's own place in the list


def neighbours(store: Store, hand_filter: HandFilter, chosen: ListChoice, verdict: str, site: str, hand_id: str,
               player: str | None = None, sitting: Sitting | None = None, started_at: datetime | None = None) -> Neighbours:
    """The rows on either side of the hand (``site``, ``hand_id``; with players, ``player``'s row):
    the hand found by its key, then one row each way, looked for as a page is (:func:`_rows`), as
    links (no verdict, pot nor cards). ``started_at``, the hand's time if known, finds it without
    reading every hand's id (the hands are stored about in time order: DuckDB skips the others)."""
    with_player = bool(hand_filter.players)

    def make(window: Window) -> tuple[str, list[Any]]:
        base, params, _ = _base(hand_filter, chosen, verdict, sitting, window)
        return base, params

    where, params = "h.site = ? AND h.hand_id = ?", [site, hand_id]
    # (started_at: the history's own time, as the hand's report states it; the list's window: its UTC instant)
    hand = store.run(f"SELECT h.hk, {_KEY_TIME}, h.started_utc FROM hands h WHERE h.started_at = ? AND {where}",
                     [started_at, *params]) if started_at is not None else []
    hand = hand or store.run(f"SELECT h.hk, {_KEY_TIME}, h.started_utc FROM hands h WHERE {where}", params)
    if not hand:
        return Neighbours(None, None, None)
    key, key_time, started = hand[0]
    base, params = make(Window(started, started) if started is not None else Window())
    found = store.run(f"SELECT l.player FROM ({base}) l WHERE l.hk = ? ORDER BY (l.player = ?) DESC LIMIT 1",
                      [*params, key, player or ""])
    if not found:  # (not in the list)
        return Neighbours(None, None, None)
    cursor = Cursor(key_time, int(key), str(found[0][0] or ""))
    pace = Pace.of(store)
    newer = _rows(store, make, pace, cursor, True, 1, with_player, None)
    older = _rows(store, make, pace, cursor, False, 1, with_player, None)
    return Neighbours(_hand_row(newer[0]) if newer else None, _hand_row(older[0]) if older else None, cursor.text())


def recent_start(store: Store, hand_filter: HandFilter, hands: int) -> date | None:
    """The first of the latest days that hold at least ``hands`` rows of the filter's players (or of
    every player when none is named) in the stored daily sums; None when all of them are fewer. A page
    that lists what is computed from every hand (sessions) reads those days only: over a million hands
    the sessions of all of them take seconds."""
    with summed_facts(store, hand_filter, ("started_at",)) as (sums, params):
        rows = store.run(f"SELECT started_at, sum(hands) FROM ({sums}) s WHERE started_at IS NOT NULL GROUP BY 1 "
                         "ORDER BY 1 DESC", params)
    counted = 0
    for day, count in rows:
        counted += int(count)
        if counted >= hands:
            return day.date() if isinstance(day, datetime) else day
    return None


__all__ = ["PAGE_ROWS", "Cursor", "HandRow", "HandsPage", "Neighbours", "Sitting", "Window", "hands_page", "neighbours",
           "recent_start"]
