"""Which hands a command looks at: site, hand id, stakes, dates, game, table size (and the players
asked for).

A filter becomes a SQL condition on the ``hands`` table (alias ``h``) with positional parameters,
so every command (stats, graph, audit, violations, show, export) selects hands the same way.

>>> where, params = HandFilter(sites=("pokerstars",), stakes=parse_stakes("$0.04/$0.08")).sql()
>>> where
'h.site IN (?) AND h.small_bet = CAST(? AS DECIMAL(18,4)) * h.unit AND h.big_bet = CAST(? AS DECIMAL(18,4)) * h.unit'
>>> params
['pokerstars', '0.04', '0.08']
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from typing import Any


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

    def sql(self) -> tuple[str, list[Any]]:
        """A condition on ``hands h`` and its parameters (``TRUE`` when nothing is asked)."""
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
            parts.append("h.started_at >= ?")
            params.append(self.date_from)
        if self.date_to is not None:
            parts.append("h.started_at < ?")
            params.append(self.date_to + timedelta(days=1))
        if self.game is not None:
            parts.append("h.is_tournament" if self.game is Game.tournament else "NOT h.is_tournament")
        if self.table_size is not None:
            parts.append("h.table_size = ?")
            params.append(self.table_size)
        if self.players:
            marks = ", ".join("?" for _ in self.players)
            parts.append(
                f"EXISTS (SELECT 1 FROM results pr WHERE pr.site = h.site AND pr.hand_id = h.hand_id AND pr.player IN ({marks}))"
            )
            params.extend(self.players)
        return (" AND ".join(parts) or "TRUE"), params

    def facts_sql(self) -> tuple[str, list[Any]]:
        """The same selection as a condition on the stored facts (``player_facts h``: one row per
        player and hand, carrying the hand's columns). The players asked for become the rows kept:
        a player with facts in a hand had a seat in it, so a ``results`` row, which is all that
        :meth:`sql` asks of the hand."""
        where, params = replace(self, players=()).sql()
        if self.players:
            where += f" AND h.player IN ({', '.join('?' for _ in self.players)})"
            params.extend(self.players)
        return where, params
