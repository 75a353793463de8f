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
    for index, level in enumerate(data.get("level", [])):
        spec = level_fields(level, site, f"{path.name}: level[{index}]", evidence=True)
        if spec.key in rows:
            raise StructureError(f"{path.name}: two rows for {spec.key}")
        rows[spec.key] = StructureRow(spec.key, spec.ante, spec.bring_in, level["hands"],
                                      tuple(str(h) for h in level["hand_ids"]), tuple(level["files"]), level["dates"])
    return rows


class StructureError(ValueError):
    """A structures table (shipped or the user's) that cannot be read as written: one line naming the key path."""


@dataclass(frozen=True, slots=True)
class LevelSpec:
    """One level's forced bets as a structures table states them (None: not stated)."""

    key: LevelKey
    ante: int | None
    bring_in: int | None


#: a level's keys; the shipped tables' rows add their evidence
LEVEL_KEYS = ("currency", "structure", "small_bet", "big_bet", "ante", "bring_in", "tournament")
EVIDENCE_KEYS = ("hands", "hand_ids", "files", "dates")
STRUCTURES = ("fixed_limit", "pot_limit", "no_limit")


def shown(text: object) -> str:
    """A name or key as an error line shows it: as written, or quoted with escapes when it holds a
    character that is not printable (a newline would split the one line)."""
    text = str(text)
    return text if text.isprintable() else repr(text)


def whole_amount(value: object, where: str, error: type[StructureError] = StructureError) -> int:
    """An amount in the smallest unit: a whole number as is (cents; chips), or money written as the
    site prints it, "$0.05" or "0.05" (two decimals at most: cents).

    >>> whole_amount(5, "x"), whole_amount("$0.05", "x"), whole_amount("€1.5", "x"), whole_amount("2", "x")
    (5, 5, 150, 200)
    >>> whole_amount(-1, "f: sites.s.levels[0].ante")
    Traceback (most recent call last):
    ...
    hhtool.replay.structures.StructureError: f: sites.s.levels[0].ante: wants a whole amount like "$0.05" or 5 (cents), not -1
    """
    wrong = error(f"{where}: wants a whole amount like \"$0.05\" or 5 (cents), not {value!r}")
    if isinstance(value, bool):
        raise wrong
    if isinstance(value, int):
        if value < 0:
            raise wrong
        return value
    if not isinstance(value, str):
        raise wrong
    text = value.strip().lstrip("$€£").replace(",", "")
    whole, _, cents = text.partition(".")
    if (not whole.isdigit() and not (whole == "" and cents)) or not (cents == "" or cents.isdigit()) or len(cents) > 2:
        raise wrong
    return int(whole or "0") * 100 + int(cents.ljust(2, "0") or "0")


def level_fields(level: object, site: str, where: str, *, evidence: bool,
                 error: type[StructureError] = StructureError) -> LevelSpec:
    """One ``[[level]]`` row read and checked: its key (currency, structure, bets, a tournament's id) and
    forced bets; ``where`` prefixes each error ("desk.toml: sites.pokerstars.levels[2]")."""
    if not isinstance(level, dict):
        raise error(f"{where}: wants a table of currency, small_bet, big_bet, ante, bring_in")
    known = LEVEL_KEYS + (EVIDENCE_KEYS if evidence else ())
    for key in level:
        if key not in known:
            raise error(f"{where}.{shown(key)}: unknown key (the keys of a level are {', '.join(known)})")
    for key in ("currency", "small_bet", "big_bet") + (EVIDENCE_KEYS if evidence else ()):
        if key not in level:
            raise error(f"{where}.{key}: missing")
    currency = level["currency"]
    if not isinstance(currency, str) or not currency.strip():
        raise error(f"{where}.currency: wants a currency code like \"USD\" (\"CHIPS\" in tournaments), not {currency!r}")
    structure = level.get("structure", "fixed_limit")
    if structure not in STRUCTURES:
        raise error(f"{where}.structure: wants one of {', '.join(STRUCTURES)}, not {structure!r}")
    tournament = level.get("tournament")
    if tournament is not None and not isinstance(tournament, str | int):
        raise error(f"{where}.tournament: wants the tournament's id like \"169962475\", not {tournament!r}")
    amounts = {key: None if level.get(key) is None else whole_amount(level[key], f"{where}.{key}", error)
               for key in ("small_bet", "big_bet", "ante", "bring_in")}
    small, big, bring_in = amounts["small_bet"], amounts["big_bet"], amounts["bring_in"]
    if small is not None and big is not None and big < small:
        raise error(f"{where}.big_bet: below the small bet")
    if bring_in is not None and small is not None and bring_in >= small:
        raise error(f"{where}.bring_in: wants an amount below the small bet ({small}), not {bring_in}")
    key = LevelKey(site, None if tournament is None else str(tournament), currency, structure, small, big)
    return LevelSpec(key, amounts["ante"], bring_in)


def sites_with_structures() -> tuple[str, ...]:
    return tuple(sorted(path.stem for path in FOLDER.glob("*.toml")))


#: the sites hhtool reads (each ships a structures table)
KNOWN_SITES = sites_with_structures()


