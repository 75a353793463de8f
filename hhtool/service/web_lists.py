"""What the pages of `hhtool serve` ask that no command asks the same way: a page of the hands list, a
hand's neighbours in it, the latest days the sessions page reads. This module checks the request
(a cursor that is none, a showdown without a player, filter values the store does not know) and opens
the store; the queries are :mod:`hhtool.store.web_queries` (paging by key in time ranges). Money leaves
spelled (:func:`hhtool.money.format_money`) beside its integer amount; the pages only place it.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime

from hhtool.money import format_money
from hhtool.reports.hand_list import HandChoice
from hhtool.service.config import display_zone
from hhtool.service.errors import UsageError
from hhtool.service.filters import require_matches
from hhtool.service.hands import VERDICT_SQL, list_choice
from hhtool.service.stores import Database
from hhtool.service.times import user_time
from hhtool.store import web_queries
from hhtool.store.filters import HandFilter
from hhtool.store.web_queries import PAGE_ROWS, Cursor, HandRow, HandsPage, Neighbours, Sitting

#: the hands the sessions page reads when no dates are asked: the latest days holding at least these
RECENT_HANDS = 5_000


def money_text(amount: int, unit: int, currency: str | None = None) -> str:
    """An amount as the pages show it (the one formatting of :mod:`hhtool.money`)."""
    return format_money(amount, unit, currency)


def _cursor(text: str) -> Cursor:
    try:
        return Cursor.parse(text)
    except ValueError as error:
        raise UsageError(str(error)) from None


def _checked(hand_filter: HandFilter, choice: HandChoice) -> None:
    if choice.showdown is not None and not hand_filter.players:
        raise UsageError("showdown is a player's: choose a player too (whose showdown)")


def hands_page(database: Database, hand_filter: HandFilter, choice: HandChoice | None = None, *,
               after: str | None = None, before: str | None = None, limit: int = PAGE_ROWS,
               sitting: Sitting | None = None) -> HandsPage:
    """A page of the hands list, newest first: the first, the one after the cursor ``after``, or the
    one before ``before``; with how many rows match in all. NothingMatched (a UsageError) when a
    filter's value is unknown to the store; UsageError for a cursor that is none, or a showdown asked
    without a player."""
    chosen = choice or HandChoice()
    newer = before is not None and after is None
    given = before if newer else after
    cursor = _cursor(given) if given else None
    with database.open(read_only=True) as store:
        require_matches(store, hand_filter)
        _checked(hand_filter, chosen)
        page = web_queries.hands_page(store, hand_filter, list_choice(chosen), VERDICT_SQL, cursor=cursor, newer=newer,
                                      limit=limit, sitting=sitting)
    return replace(page, rows=[_in_user_zone(row) for row in page.rows])


def neighbours(database: Database, hand_filter: HandFilter, choice: HandChoice | None, site: str, hand_id: str,
               player: str | None = None, sitting: Sitting | None = None, started_at: datetime | None = None) -> Neighbours:
    """The rows on either side of the hand (``site``, ``hand_id``; with players, ``player``'s row) in
    the list it was opened from, as links (:func:`hhtool.store.web_queries.neighbours`)."""
    chosen = choice or HandChoice()
    _checked(hand_filter, chosen)
    with database.open(read_only=True) as store:
        found = web_queries.neighbours(store, hand_filter, list_choice(chosen), VERDICT_SQL, site, hand_id, player,
                                       sitting, started_at)
    return replace(found, newer=found.newer and _in_user_zone(found.newer), older=found.older and _in_user_zone(found.older))


def _in_user_zone(row: HandRow) -> HandRow:
    """A row as the pages show it: its UTC instant (the store's) as a wall time of the user's zone."""
    return replace(row, started_at=user_time(row.started_at))


def sitting(table: str | None, start: datetime, end: datetime) -> Sitting:
    """One session's hands, its first and last times wall times of the user's zone (as the sessions page shows them)."""
    return Sitting(table, start, end, display_zone())


def recent_start(database: Database, hand_filter: HandFilter, hands: int = RECENT_HANDS) -> date | None:
    """The first of the latest days that hold at least ``hands`` rows of the filter's players (or of
    every player when none is named) in the stored daily sums; None when all of them are fewer. A page
    that lists what is computed from every hand (sessions) reads those days only: over a million hands
    the sessions of all of them take seconds."""
    with database.open(read_only=True) as store:
        return web_queries.recent_start(store, hand_filter, hands)


def list_filter(hand_filter: HandFilter, player: str | None) -> HandFilter:
    """The filter with one player's rows (the list a hand was opened from, by that player)."""
    return replace(hand_filter, players=(player,)) if player else hand_filter


__all__ = ["PAGE_ROWS", "RECENT_HANDS", "Cursor", "HandRow", "HandsPage", "Neighbours", "Sitting", "hands_page",
           "list_filter", "money_text", "neighbours", "recent_start"]
