"""Which hands a command looks at: site, hand id, stakes, dates, game, table size, the user's tags
(and the players asked for).

A player asked for is a name as histories write it (any site), or a person: an alias of the
``aliases`` table grouping several site names (``hhtool alias``). A name that is both an alias and
a player's name means the alias (the user made it on purpose); names match exactly, as the sites
write them (their case too).

A filter becomes a SQL condition on the ``hands`` table (alias ``h``) with positional parameters,
so every command (stats, graph, audit, violations, show, export) selects hands the same way.
``--from``/``--to`` are days in the user's zone (``zone``, an IANA name; set by the service from the
config's ``timezone``): compared with each hand's UTC instant (``hands.started_utc``, :mod:`hhtool.clock`),
so two sites' hands are on one clock.

>>> where, params = HandFilter(sites=("pokerstars",), stakes=parse_stakes("$0.04/$0.08")).sql()
>>> where
'h.site IN (?) AND h.small_bet = CAST(? AS DECIMAL(18,4)) * h.unit AND h.big_bet = CAST(? AS DECIMAL(18,4)) * h.unit'
>>> params
['pokerstars', '0.04', '0.08']
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import date, datetime, time, timedelta
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from typing import Any

from hhtool.clock import instant_of, user_zone
from hhtool.store.aliases import ALIASES
from hhtool.store.notes_and_tags import HAND_TAGS


class Game(StrEnum):
    cash = "cash"
    tournament = "tournament"


_STAKES = re.compile(r"^\s*[^\d.]*([\d.,]+)\s*[A-Z]{0,3}\s*/\s*[^\d.]*([\d.,]+)\s*[A-Z]{0,3}\s*$")


def parse_stakes(text: str) -> tuple[Decimal, Decimal]:
    """``0.04/0.08`` (small bet / big bet in currency units; ``$`` and ``€`` allowed).

    >>> parse_stakes("€10/€20")
    (Decimal('10'), Decimal('20'))
    >>> parse_stakes("cheap")
    Traceback (most recent call last):
    ...
    ValueError: stakes must look like 0.04/0.08 (small bet/big bet), not 'cheap'
    """
    match = _STAKES.match(text)
    try:
        if match is None:
            raise InvalidOperation
        small, big = (Decimal(part.replace(",", "")) for part in match.groups())
    except InvalidOperation:
        raise ValueError(f"stakes must look like 0.04/0.08 (small bet/big bet), not {text!r}") from None
    return small, big


@dataclass(frozen=True)
class HandFilter:
    """Hand-level conditions; an empty field means "any". ``date_to`` is inclusive. Sites are
    stored lower-case: give them so (:func:`hhtool.service.filters.hand_filter` does)."""

    sites: tuple[str, ...] = ()
    stakes: tuple[Decimal, Decimal] | None = None
    date_from: date | None = None
    date_to: date | None = None
    game: Game | None = None
    table_size: int | None = None
    players: tuple[str, ...] = field(default=())  # hands where at least one of them played
    hand_id: str | None = None  # the site's id of one hand (one per site that has it)
    tags: tuple[str, ...] = ()  # hands that carry every one of these tags (``hhtool tag``), as stored: lower-case
    #: the zone ``date_from``/``date_to`` are days of (not a selection of its own: equal filters select the same
    #: hands whatever the zone of an empty date range, and a filter with no date asks for nothing)
    zone: str = field(default="UTC", compare=False)

    def day_start(self, day: date) -> datetime:
        """The UTC instant (naive) the day ``day`` starts at in the filter's zone."""
        return instant_of(datetime.combine(day, time.min), user_zone(self.zone))

    def sql(self, time_column: str = "h.started_utc") -> tuple[str, list[Any]]:
        """A condition on ``hands h`` and its parameters (``TRUE`` when nothing is asked); ``time_column``:
        the hand's UTC instant."""
        parts: list[str] = []
        params: list[Any] = []
        if self.sites:
            parts.append(f"h.site IN ({', '.join('?' for _ in self.sites)})")
            params.extend(self.sites)
        if self.hand_id is not None:
            parts.append("h.hand_id = ?")
            params.append(self.hand_id)
        if self.stakes is not None:
            # exact: the bets are whole smallest units, the asked stakes a decimal in currency units
            parts.append("h.small_bet = CAST(? AS DECIMAL(18,4)) * h.unit AND h.big_bet = CAST(? AS DECIMAL(18,4)) * h.unit")
            params.extend(str(value) for value in self.stakes)
        if self.date_from is not None:
            parts.append(f"{time_column} >= ?")
            params.append(self.day_start(self.date_from))
        if self.date_to is not None and self.date_to < date.max:  # (to the last day there is: no bound)
            parts.append(f"{time_column} < ?")
            params.append(self.day_start(self.date_to + timedelta(days=1)))
        if self.game is not None:
            parts.append("h.is_tournament" if self.game is Game.tournament else "NOT h.is_tournament")
        if self.table_size is not None:
            parts.append("h.table_size = ?")
            params.append(self.table_size)
        if self.players:
            who, who_params = player_condition(self.players, "h.site", "pr.player")
            parts.append(f"EXISTS (SELECT 1 FROM keyed.results pr WHERE pr.hk = h.hk AND {who})")
            params.extend(who_params)
        if self.tags:
            for tag in self.tags:
                parts.append(f"EXISTS (SELECT 1 FROM {HAND_TAGS} ht WHERE ht.site = h.site AND ht.hand_id = h.hand_id "
                             "AND ht.tag = ?)")
                params.append(tag)
        return (" AND ".join(parts) or "TRUE"), params

    def facts_sql(self) -> tuple[str, list[Any]]:
        """The same selection as a condition on the stored facts (``player_facts h``: one row per
        player and hand, carrying the hand's columns). The players asked for become the rows kept:
        a player with facts in a hand had a seat in it, so a ``results`` row, which is all that
        :meth:`sql` asks of the hand."""
        where, params = replace(self, players=()).sql("h.started_at")  # (the facts' started_at: the UTC instant)
        if self.players:
            who, who_params = player_condition(self.players, "h.site", "h.player")
            where += f" AND {who}"
            params.extend(who_params)
        return where, params

    def person_label(self, site: str, player: str) -> tuple[str, list[Any]]:
        """A SQL value naming whose row a (site, player) row is, for reports grouped by player: the
        alias grouping it when the filter asks for that alias or for no player at all, else the
        player's own name (the name a player is asked by keeps its own row). A player outside every
        alias whose name is an alias's is told apart as ``name (site)``, so that his hands never
        join the person's row."""
        asked = "TRUE"
        params: list[Any] = []
        if self.players:
            asked = f"a.person IN ({', '.join('?' for _ in self.players)})"
            params.extend(self.players)
        label = (f"coalesce((SELECT min(a.person) FROM {ALIASES} a WHERE a.site = {site} AND a.player = {player} "
                 f"AND {asked}), CASE WHEN {player} IN (SELECT person FROM {ALIASES}) "
                 f"THEN {player} || ' (' || {site} || ')' ELSE {player} END)")
        return label, params


#: the longest tag, and what one is made of
TAG_LENGTH = 40
_TAG = re.compile(rf"[a-z0-9_-]{{1,{TAG_LENGTH}}}")


def tag_name(text: str) -> str:
    """A tag as stored: lower-case letters, digits, ``_`` and ``-``, at most 40 (case and a leading
    ``#`` are forgiven); ValueError for anything else.

    >>> tag_name("#Bluff-Catch")
    'bluff-catch'
    >>> tag_name("big pot")
    Traceback (most recent call last):
    ...
    ValueError: a tag is lower-case letters, digits, '_' and '-' (at most 40), not 'big pot'
    """
    tag = text.strip().removeprefix("#").lower()
    if not _TAG.fullmatch(tag):
        raise ValueError(f"a tag is lower-case letters, digits, '_' and '-' (at most {TAG_LENGTH}), not {text!r}")
    return tag


def player_condition(names: tuple[str, ...], site: str, player: str) -> tuple[str, list[Any]]:
    """A SQL condition on the columns ``site`` and ``player`` of a row: it is one of ``names``,
    each an alias (every site name it groups) or, when no alias has that name, a player of that name
    on any site.

    >>> player_condition(("Tom",), "r.site", "r.player")[0]  # doctest: +NORMALIZE_WHITESPACE
    '((r.player IN (?) AND r.player NOT IN (SELECT person FROM aliases)) OR EXISTS (SELECT 1 FROM aliases a
    WHERE a.person IN (?) AND a.site = r.site AND a.player = r.player))'
    """
    marks = ", ".join("?" for _ in names)
    sql = (f"(({player} IN ({marks}) AND {player} NOT IN (SELECT person FROM {ALIASES})) OR EXISTS (SELECT 1 FROM "
           f"{ALIASES} a WHERE a.person IN ({marks}) AND a.site = {site} AND a.player = {player}))")
    return sql, [*names, *names]
