"""The values the reports' options take, each defined once here and used by its report: a module of
plain enums and constants, so that the command line's help and option types cost no Polars or DuckDB."""

from __future__ import annotations

from enum import StrEnum


class Breakdown(StrEnum):
    """`stats --by`."""

    street = "street"
    stakes = "stakes"
    month = "month"
    door_card = "door-card"
    start = "start"  # the 3rd-street starting-hand groups (hhtool.reports.starting_hands)


class Unit(StrEnum):
    """`graph --unit`."""

    money = "money"
    bb = "bb"  # big bets


class Axis(StrEnum):
    """`graph --x`."""

    hands = "hands"
    date = "date"


class Verdict(StrEnum):
    """`hands --verdict`."""

    ok = "ok"
    violation = "violation"
    unverifiable = "unverifiable"
    not_replayed = "not-replayed"


class Showdown(StrEnum):
    """`hands --showdown`."""

    won = "won"  # went to showdown and collected something (a quarter counts): stats' W$SD
    lost = "lost"  # went to showdown and collected nothing


#: `sessions --gap`: a break of this long or longer ends a session
DEFAULT_GAP_MINUTES = 30

#: `violations --by`
BREAKDOWNS = ("code", "site", "player", "date", "hand")

#: `audit --explain --format`: the dispute report's formats
REPORT_FORMATS = ("text", "json", "html")
