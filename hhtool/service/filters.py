"""The one :class:`HandFilter` every command selects hands with, built from command-line values.

The class and its SQL live in :mod:`hhtool.reports.filters` (the reports select with it too); this
module reads the option texts into it and names a malformed one as a usage error.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime

from hhtool.reports.filters import Game, HandFilter, parse_stakes
from hhtool.service.errors import UsageError


def parse_day(text: str | None, option: str) -> date | None:
    """``YYYY-MM-DD`` given to ``option`` (e.g. ``--from``), or None when the option was not given."""
    if text is None:
        return None
    try:
        return datetime.strptime(text, "%Y-%m-%d").date()
    except ValueError:
        raise UsageError(f"{option} wants a date as YYYY-MM-DD, not {text!r}") from None


def hand_filter(*, sites: Sequence[str] | str | None = None, hand_id: str | None = None,
                players: Sequence[str] | str | None = None, stakes: str | None = None, date_from: str | None = None,
                date_to: str | None = None, game: Game | None = None, table_size: int | None = None) -> HandFilter:
    """The hands matching every value given (a missing one: any); raises UsageError for a malformed one."""
    try:
        parsed_stakes = parse_stakes(stakes) if stakes else None
    except ValueError as error:
        raise UsageError(f"--stakes: {error}") from error
    return HandFilter(
        sites=tuple(site.lower() for site in _many(sites)), hand_id=hand_id, stakes=parsed_stakes,
        date_from=parse_day(date_from, "--from"), date_to=parse_day(date_to, "--to"), game=game,
        table_size=table_size, players=_many(players),
    )


def _many(values: Sequence[str] | str | None) -> tuple[str, ...]:
    """A repeatable option's values as given; a single option's value, where empty means not given."""
    if values is None:
        return ()
    if isinstance(values, str):
        return (values,) if values else ()
    return tuple(values)


__all__ = ["Game", "HandFilter", "hand_filter", "parse_day"]
