"""The one :class:`HandFilter` every command selects hands with, built from command-line values.

The class and its SQL live in :mod:`hhtool.store.filters` (the reports select with it too); this
module reads the option texts into it and names a malformed one as a usage error.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import date, datetime
from difflib import get_close_matches

from hhtool.clock import zone_name
from hhtool.service.config import display_zone
from hhtool.service.errors import UsageError
from hhtool.store import Store, known, notes_and_tags
from hhtool.store.filters import Game, HandFilter, parse_stakes, tag_name


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
                date_to: str | None = None, game: Game | None = None, table_size: int | None = None,
                tags: Sequence[str] | str | None = None) -> HandFilter:
    """The hands matching every value given (a missing one: any); raises UsageError for a malformed one."""
    try:
        parsed_stakes = parse_stakes(stakes) if stakes else None
    except ValueError as error:
        raise UsageError(f"--stakes: {error}") from error
    try:
        parsed_tags = tuple(dict.fromkeys(tag_name(tag) for tag in _many(tags)))
    except ValueError as error:
        raise UsageError(f"--tag: {error}") from None
    return HandFilter(
        sites=tuple(site.lower() for site in _many(sites)), hand_id=hand_id, stakes=parsed_stakes,
        date_from=parse_day(date_from, "--from"), date_to=parse_day(date_to, "--to"), game=game,
        table_size=table_size, players=_many(players), tags=parsed_tags, zone=zone_name(display_zone()),
    )


def _many(values: Sequence[str] | str | None) -> tuple[str, ...]:
    """A repeatable option's values as given; a single option's value, where empty means not given."""
    if values is None:
        return ()
    if isinstance(values, str):
        return (values,) if values else ()
    return tuple(values)




class NothingMatched(UsageError):
    """A filter that selects no stored hand: the message names the value that matched nothing (with
    the close matches the store has), or says that the values together match nothing."""


class NoneTogether(NothingMatched):
    """Every value asked for is in the store, but no hand has them all (a day with no hand, a player
    never at that site): an empty answer, not a mistaken request; `hands` says "no hands match" with 0.
    ``why``: the reason without the words "no hand matches"."""

    def __init__(self, message: str, why: str | None = None) -> None:
        super().__init__(message)
        self.why = why or message


def require_matches(store: Store, chosen: HandFilter, player: str | None = None) -> None:
    """NothingMatched when a filter given selects no stored hand (no filter: every hand, even none);
    names the first value the store does not know (a site, a player or alias, a hand id) with close
    matches ("did you mean 'Hero'?"). ``player``: a command's own player option (the violations by him)."""
    if player is not None:
        chosen = replace(chosen, players=(*chosen.players, player))
    if chosen == HandFilter():
        return
    from hhtool.store.player_facts_cache import FACTS_TABLE, needs_refresh  # (not at start-up: it loads DuckDB)

    if chosen.players and not needs_refresh(store):
        # the players' rows in the stored facts (they carry the hand columns the filters read): no
        # join of the hands with their results, which costs a second over a million hands
        where, params = chosen.facts_sql()
        if known.any_row(store, FACTS_TABLE, where, params):
            return
    else:
        where, params = chosen.sql()
        if known.any_row(store, "hands", where, params):
            return
    if not known.has_hands(store):
        raise NothingMatched("the store holds no hands yet: run `hhtool import PATH` first")
    for what, values, names in (
        ("site", chosen.sites, known.sites),
        ("player", chosen.players, known.player_names),
        ("tag", chosen.tags, notes_and_tags.tags),
    ):
        if not values:
            continue
        stored = names(store)
        for value in values:
            if value not in stored:
                raise NothingMatched(f"no {what} {value!r} in the store{close_to(value, stored)}")
    if chosen.hand_id is not None and not known.hand_stored(store, chosen.hand_id):
        raise NothingMatched(f"no stored hand {chosen.hand_id!r}")
    raise NoneTogether("no stored hand matches the filters together (each value exists, but not in one hand)",
                       "each value exists, but not in one hand together")


def close_to(value: str, known: list[str]) -> str:
    """``; did you mean 'Hero'?``: the names of the store a letter's case or a typo away, if any."""
    same_but_case = [name for name in known if name.casefold() == value.casefold()]
    close = same_but_case or get_close_matches(value, known, n=3, cutoff=0.6)
    return f"; did you mean {' or '.join(repr(name) for name in close)}?" if close else ""


__all__ = ["Game", "HandFilter", "NoneTogether", "NothingMatched", "close_to", "hand_filter", "parse_day", "require_matches"]
