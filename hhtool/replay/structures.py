"""The sites' forced-bet structures as their own public histories show them: the farthest tier a
hand's ante and bring-in are learnt from (:mod:`hhtool.replay.forced_bets`).

One TOML file per site in ``structures/`` (data, not code), one ``[[level]]`` per game level:
cash, or one tournament's level; currency, structure, small and big bet, ante and bring-in in the
smallest unit, and the evidence: the public files, hand ids, how many hands and their dates. A row
never judges the one hand it was learnt from (:meth:`StructureRow.independent_of`).

>>> row = structure_for(LevelKey("pokerstars", None, "USD", "fixed_limit", 4, 8))
>>> (row.ante, row.bring_in, row.hands >= 2)
(1, 2, True)
>>> structure_for(LevelKey("pokerstars", None, "USD", "fixed_limit", 3, 6)) is None
True
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from hhtool.model import Hand

FOLDER = Path(__file__).with_name("structures")


@dataclass(frozen=True, slots=True)
class LevelKey:
    """A game level of a site: cash (``tournament_id`` None) or one tournament's level, at the same
    currency, betting structure and bets."""

    site: str
    tournament_id: str | None
    currency: str
    structure: str
    small_bet: int | None
    big_bet: int | None


@dataclass(frozen=True, slots=True)
class StructureRow:
    """One level's forced bets as the cited histories show them (None: they never show it)."""

    key: LevelKey
    ante: int | None
    bring_in: int | None
    hands: int  # hands seen at the level
    hand_ids: tuple[str, ...]  # some of them (all of them when there are few)
    files: tuple[str, ...]  # where the histories are published
    dates: str  # first..last

    def independent_of(self, hand_id: str) -> bool:
        """Whether the row rests on at least one hand besides ``hand_id``: a hand is never judged by
        its own post alone."""
        return self.hands - (hand_id in self.hand_ids) >= 1

    @property
    def evidence(self) -> str:
        """The row's evidence in one line."""
        hands = f"{self.hands} hand{'s' if self.hands != 1 else ''}"
        ids = ", ".join(f"#{hand_id}" for hand_id in self.hand_ids[:3]) + (", …" if self.hands > 3 else "")
        return f"{hands} ({ids}) of {'; '.join(self.files)}, {self.dates}"


def level_of(hand: Hand) -> LevelKey:
    """The level a hand was dealt at (a converted history's: its origin site's)."""
    stakes = hand.stakes
    return LevelKey(hand.origin_site or hand.site, (hand.tournament_id or "") if stakes.is_tournament else None,
                    stakes.currency, stakes.structure.value, stakes.small_bet, stakes.big_bet)


def structure_for(key: LevelKey) -> StructureRow | None:
    """The structures table's row for a level; None where the site's file names none."""
    return _rows_of(key.site).get(key)


def site_name(site: str) -> str:
    """The site as findings name it: its structures file's ``site_name``, else its key.

    >>> site_name("pokerstars"), site_name("nosuchsite")
    ('PokerStars', 'nosuchsite')
    """
    return str(_file_of(site).get("site_name", site))


@cache
def _file_of(site: str) -> dict[str, object]:
    path = FOLDER / f"{site}.toml"
    if not site.isidentifier() or not path.is_file():
        return {}
    with path.open("rb") as handle:
        return tomllib.load(handle)


@cache
def _rows_of(site: str) -> dict[LevelKey, StructureRow]:
    path = FOLDER / f"{site}.toml"
    data: dict[str, Any] = dict(_file_of(site))
    rows: dict[LevelKey, StructureRow] = {}
    for level in data.get("level", []):
        tournament = level.get("tournament")
        key = LevelKey(site, None if tournament is None else str(tournament), level["currency"], level["structure"],
                       level["small_bet"], level["big_bet"])
        if key in rows:
            raise ValueError(f"{path.name}: two rows for {key}")
        rows[key] = StructureRow(key, level.get("ante"), level.get("bring_in"), level["hands"],
                                 tuple(str(h) for h in level["hand_ids"]), tuple(level["files"]), level["dates"])
    return rows


def sites_with_structures() -> tuple[str, ...]:
    return tuple(sorted(path.stem for path in FOLDER.glob("*.toml")))


