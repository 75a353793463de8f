"""What the pages of `hhtool serve` read that no command reads the same way: the hands list paged by
its key (never OFFSET: the next page starts after the last row shown, so a page costs the same deep in a
million hands as at the top), the hand before and after one in that list, and the graph's points with
the hand each stands for. Money leaves here spelled (:func:`hhtool.money.format_money`) beside its
integer amount; the pages only place it.

The list's order is the CLI's default (newest first), made total by the hand key: ``started_at DESC
NULLS LAST, hk DESC``. A page's cursor is the last row's ``(started_at, hk)`` as text.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from hhtool.money import format_money
from hhtool.reports.filters import HandFilter, player_condition
from hhtool.reports.hand_list import HandChoice
from hhtool.service.errors import UsageError
from hhtool.service.filters import require_matches
from hhtool.service.hands import VERDICT_SQL
from hhtool.service.stores import Database
from hhtool.store import Store

#: rows a page of the hands list shows
PAGE_ROWS = 50
#: the sort key of a hand without a date: after every dated one (newest first)
_NO_DATE = "TIMESTAMP '0001-01-01 00:00:00'"
_KEY_TIME = f"coalesce(h.started_at, {_NO_DATE})"
_POT = ("(SELECT CAST(coalesce(sum(r.contributed), 0) AS BIGINT) FROM keyed.results r WHERE r.hk = l.hk)")
_CARDS = ("(SELECT string_agg(coalesce(c.card, '??'), ' ' ORDER BY c.seq) FROM keyed.cards c "
          "WHERE c.hk = l.hk AND c.player = l.player)")


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
            raise UsageError(f"not a place in the hands list: {text!r}") from None


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


def _choice_sql(choice: HandChoice, with_player: bool) -> tuple[str, list[Any]]:
    """The list's own filters on the inner query's columns (``verdict``, ``showdown``, the pot)."""
    parts: list[str] = []
    params: list[Any] = []
    if choice.verdict is not None:
        parts.append(f"({VERDICT_SQL}) = ?")
        params.append(str(choice.verdict))
    if choice.showdown is not None:
        if not with_player:
            raise UsageError("showdown is a player's: choose a player too (whose showdown)")
        parts.append("(CASE WHEN pf.went_sd = 1 THEN CASE WHEN pf.collected > 0 THEN 'won' ELSE 'lost' END END) = ?")
        params.append(str(choice.showdown))
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
    """One session's hands: its table, from its first hand's time to its last's (both included)."""

    table: str | None
    start: datetime
    end: datetime

    def sql(self) -> tuple[str, list[Any]]:
        table = "h.table_name IS NOT DISTINCT FROM ?"
        return f"{table} AND h.started_at BETWEEN ? AND ?", [self.table, self.start, self.end]


def money_text(amount: int, unit: int, currency: str | None = None) -> str:
    """An amount as the pages show it (the one formatting of :mod:`hhtool.money`)."""
    return format_money(amount, unit, currency)


def _base(hand_filter: HandFilter, choice: HandChoice, sitting: Sitting | None = None) -> tuple[str, list[Any], bool]:
    """The rows of the list (before their order): the hand's columns, and with players each one's
    row of the stored facts (a player dealt in: his net, his showdown)."""
    with_player = bool(hand_filter.players)
    where, params = hand_filter.sql()
    if sitting is not None:
        condition, condition_params = sitting.sql()
        where, params = f"{where} AND {condition}", [*params, *condition_params]
    own, own_params = _choice_sql(choice, with_player)
    columns = (f"h.hk, h.site, h.hand_id, h.started_at, {_KEY_TIME} AS key_time, h.table_name, h.currency, h.unit, "
               f"h.small_bet, h.big_bet, h.players, {VERDICT_SQL} AS verdict")
    if not with_player:
        return (f"SELECT {columns}, '' AS player FROM hands h WHERE {where} AND {own}",
                [*params, *own_params], False)
    who, who_params = player_condition(hand_filter.players, "h.site", "pf.player")
    sql = (f"SELECT {columns}, pf.player, pf.net, CASE WHEN pf.went_sd = 1 THEN CASE WHEN pf.collected > 0 THEN 'won' "
           "ELSE 'lost' END END AS showdown FROM hands h "
           "JOIN player_facts pf ON pf.site = h.site AND pf.hand_id = h.hand_id "
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


def _rows(store: Store, base: str, params: list[Any], cursor: Cursor | None, newer: bool, limit: int) -> list[dict[str, Any]]:
    condition, condition_params = _after(cursor, newer) if cursor is not None else ("TRUE", [])
    # the pot and cards of the page's rows only: picked first, then looked up (not for every matching row)
    sql = (f"SELECT l.*, {_POT} AS pot, {_CARDS} AS cards FROM (SELECT * FROM ({base}) l WHERE {condition} "
           f"ORDER BY {_order(newer)} LIMIT {int(limit)}) l ORDER BY {_order(newer)}")
    cursor_result = store.con.execute(sql, [*params, *condition_params])
    names = [d[0] for d in cursor_result.description]
    rows = [dict(zip(names, row, strict=True)) for row in cursor_result.fetchall()]
    return list(reversed(rows)) if newer else rows


def _hand_row(row: dict[str, Any]) -> HandRow:
    unit, currency = int(row["unit"]), str(row["currency"])
    net = row.get("net")
    return HandRow(
        site=str(row["site"]), hand_id=str(row["hand_id"]), started_at=row["started_at"], table=row["table_name"],
        stakes=_stakes(row["small_bet"], row["big_bet"], unit), players=int(row["players"]),
        pot=format_money(int(row["pot"]), unit, currency), verdict=str(row["verdict"]),
        cursor=Cursor(row["key_time"], int(row["hk"]), str(row["player"] or "")).text(),
        player=row["player"] or None, net=None if net is None else format_money(int(net), unit, currency),
        net_amount=None if net is None else int(net), showdown=row.get("showdown"), cards=row.get("cards"))


def hands_page(database: Database, hand_filter: HandFilter, choice: HandChoice | None = None, *,
               after: str | None = None, before: str | None = None, limit: int = PAGE_ROWS,
               sitting: Sitting | None = None) -> HandsPage:
    """A page of the hands list, newest first: the first, the one after the cursor ``after``, or the
    one before ``before``; with how many rows match in all. NothingMatched (a UsageError) when a
    filter's value is unknown to the store."""
    choice = choice or HandChoice()
    base, params, with_player = _base(hand_filter, choice, sitting)
    newer = before is not None and after is None
    cursor = Cursor.parse(before if newer else after) if (after or before) else None  # type: ignore[arg-type]
    with database.open(read_only=True) as store:
        require_matches(store, hand_filter)
        total = int(store.run(f"SELECT count(*) FROM ({base}) l", params)[0][0])
        found = _rows(store, base, params, cursor, newer, limit + 1)
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


def neighbours(database: Database, hand_filter: HandFilter, choice: HandChoice | None, site: str, hand_id: str,
               player: str | None = None, sitting: Sitting | None = None) -> Neighbours:
    """The rows on either side of the hand (``site``, ``hand_id``; with players, ``player``'s row)."""
    choice = choice or HandChoice()
    base, params, _ = _base(hand_filter, choice, sitting)
    with database.open(read_only=True) as store:
        found = store.run(f"SELECT l.key_time, l.hk, l.player FROM ({base}) l WHERE l.site = ? AND l.hand_id = ? "
                          "ORDER BY (l.player = ?) DESC LIMIT 1", [*params, site, hand_id, player or ""])
        if not found:
            return Neighbours(None, None, None)
        cursor = Cursor(found[0][0], int(found[0][1]), str(found[0][2] or ""))
        newer = _rows(store, base, params, cursor, True, 1)
        older = _rows(store, base, params, cursor, False, 1)
    return Neighbours(_hand_row(newer[0]) if newer else None, _hand_row(older[0]) if older else None, cursor.text())


def list_filter(hand_filter: HandFilter, player: str | None) -> HandFilter:
    """The filter with one player's rows (the list a hand was opened from, by that player)."""
    return replace(hand_filter, players=(player,)) if player else hand_filter


__all__ = ["PAGE_ROWS", "Cursor", "HandRow", "HandsPage", "Neighbours", "Sitting", "hands_page", "list_filter", "money_text",
           "neighbours"]
