"""`hhtool sessions`: the sessions (:mod:`hhtool.reports.sessions`) of the players asked for, or of
the hands' heroes, in the hands the filters select; sorted, cut to a limit, with the count of all."""

from __future__ import annotations

from dataclasses import dataclass

from hhtool.reports.choices import DEFAULT_GAP_MINUTES
from hhtool.reports.listing import Listed, UnknownColumn, column_key, limit_for
from hhtool.reports.sessions import (
    ALIASES,
    KEYS,
    LABELS,
    OPTIONAL_COLUMNS,
    TEXT_KEYS,
    UNCUT_COLUMNS,
    found_sessions,
    ordered,
    sessions_frame,
    shown_keys,
    terminal_view,
)
from hhtool.reports.stats import TerminalChoice
from hhtool.service.config import display_zone
from hhtool.service.errors import UsageError
from hhtool.service.filters import require_matches
from hhtool.service.stats_cache import report_store
from hhtool.service.stores import Database
from hhtool.store.filters import HandFilter
from hhtool.store.session_queries import session_rows


@dataclass(frozen=True)
class SessionsReport:
    """The sessions listed, and how many of the players' hands are in none for want of a time."""

    listed: Listed
    undated: int = 0
    in_chips: int = 0  # of the sessions listed, those whose net is tournament chips


def sessions(database: Database, hand_filter: HandFilter, gap_minutes: int = DEFAULT_GAP_MINUTES, *,
             sort: str | None = None, descending: bool | None = None, limit: int | None = None,
             terminal: TerminalChoice | None = None, by_table: bool = False) -> SessionsReport:
    """The sessions of the players of ``hand_filter`` (none named: of each hand's hero): sittings, a
    break of ``gap_minutes`` or more with no hand at any table ending one (``by_table``: at each
    table, a break at that table); sorted by the column ``sort`` names (default: the
    start; numbers and dates largest first, text A to Z, unless ``descending`` says), the first
    ``limit``; with ``terminal``, the columns the terminal shows. NothingMatched (a UsageError) when
    the filters select no hand; UsageError for an unknown column, or no player to report on."""
    if gap_minutes < 1:
        raise UsageError(f"--gap wants a number of minutes of at least 1, not {gap_minutes}")
    try:
        sort_key = column_key(sort, KEYS, LABELS, "sessions", ALIASES) if sort else "start"
        chosen = [column_key(name, KEYS, LABELS, "sessions", ALIASES) for name in terminal.columns] if terminal else []
    except UnknownColumn as error:
        raise UsageError(str(error)) from None
    with report_store(database) as store:
        require_matches(store, hand_filter)
        rows = session_rows(store, hand_filter, gap_minutes, by_table=by_table, heroes_only=not hand_filter.players)
    counted, dated = int(rows[0]["played"] or 0), int(rows[0]["dated"] or 0)
    if not counted:
        if not hand_filter.players:
            raise UsageError("--player is required: the hands the filters select name no hero (whose sessions?)")
        raise UsageError("the players asked for were dealt into no hand the filters select")
    if not dated:
        raise UsageError(f"none of the {counted:,} hands the filters select states when it was played: "
                         "sessions need the hands' times")
    found = found_sessions(rows)
    if descending is None:
        descending = sort_key not in TEXT_KEYS
    found = ordered(found, sort_key, descending)
    kept = found[:limit] if limit else found
    zone = display_zone()  # sessions are found on the hands' UTC instants, shown in the user's zone
    frame = (sessions_frame(kept, zone) if terminal is None
             else terminal_view(kept, shown_keys(kept, chosen, terminal.all_columns), zone))
    return SessionsReport(Listed(frame, len(found)), undated=counted - dated,
                          in_chips=sum(1 for session in kept if session.in_chips))


__all__ = ["DEFAULT_GAP_MINUTES", "OPTIONAL_COLUMNS", "UNCUT_COLUMNS", "SessionsReport", "TerminalChoice",
           "limit_for", "sessions"]
