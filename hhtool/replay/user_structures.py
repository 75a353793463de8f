"""The desk's own structures file (``--structures FILE.toml``, or ``structures = "FILE"`` in the config
file): per site, the levels' forced bets and the rake schedules, as the desk that runs the tables
knows them. It ranks right after the history's own header (:class:`~hhtool.model.StakeSource` ``user``):
with it, a forced bet no history states is checked, not assumed. The format is in ``docs/structures.md``.

The levels are keyed as the shipped structures tables key theirs (:class:`~hhtool.replay.structures.LevelKey`:
currency, structure, small and big bet, a tournament's id) and read by the same validation
(:func:`~hhtool.replay.structures.level_fields`). Every error is one line naming the file and the key path.

>>> desk = parse_structures({"sites": {"pokerstars": {"levels": [{"currency": "USD", "small_bet": "$0.04",
...     "big_bet": "$0.08", "ante": "$0.01", "bring_in": 2}]}}}, "desk.toml")
>>> desk.level(LevelKey("pokerstars", None, "USD", "fixed_limit", 4, 8)).ante
1
>>> parse_structures({"sites": {"nosuch": {}}}, "desk.toml")
Traceback (most recent call last):
...
hhtool.replay.user_structures.StructuresError: desk.toml: sites.nosuch: unknown site (the sites are ...)
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from hhtool.replay.structures import KNOWN_SITES, LevelKey, LevelSpec, StructureError, level_fields, shown, whole_amount


class StructuresError(StructureError):
    """The structures file cannot be used as written: one line naming the file and the key path."""


@dataclass(frozen=True, slots=True)
class RakeSchedule:
    """How a site rakes a cash pot: ``percent`` of the pot, rounded down to the smallest unit, at most
    ``cap`` (None: no cap); a pot below ``min_pot`` is not raked; ``no_drop_third`` (the stud form of
    "no flop, no drop"): a hand that ends on third street is not raked. ``levels`` (empty: every level
    of the site) restrict it to bets ``small_bet/big_bet`` in one currency."""

    name: str  # the key path it was read from, for findings: "sites.pokerstars.rake[0]"
    percent: Fraction
    cap: int | None
    min_pot: int
    no_drop_third: bool
    currency: str | None
    small_bet: int | None
    big_bet: int | None

    def applies_to(self, key: LevelKey) -> bool:
        return ((self.currency is None or self.currency == key.currency)
                and (self.small_bet is None or self.small_bet == key.small_bet)
                and (self.big_bet is None or self.big_bet == key.big_bet))

    def expected(self, pot: int, ended_on_third: bool) -> int:
        """The rake of a pot of ``pot`` units: percent rounded down, then the cap.

        >>> RakeSchedule("r", Fraction(5), 300, 0, False, None, None, None).expected(1999, False)
        99
        >>> RakeSchedule("r", Fraction(5), 300, 100, True, None, None, None).expected(99, False)
        0
        """
        if pot < self.min_pot or (self.no_drop_third and ended_on_third):
            return 0
        rake = pot * self.percent.numerator // (100 * self.percent.denominator)
        return rake if self.cap is None else min(rake, self.cap)


@dataclass(frozen=True)
class UserStructures:
    """What the desk's file says, by site: levels' forced bets and rake schedules."""

    path: str  # as the user named it, for findings: "the structures file desk.toml"
    levels: dict[LevelKey, LevelSpec]
    rakes: dict[str, tuple[RakeSchedule, ...]]

    def level(self, key: LevelKey) -> LevelSpec | None:
        return self.levels.get(key)

    def rake_for(self, key: LevelKey) -> RakeSchedule | None:
        """The first schedule of the site that applies to the level (None for a tournament: it takes no rake)."""
        if key.tournament_id is not None:
            return None
        return next((rake for rake in self.rakes.get(key.site, ()) if rake.applies_to(key)), None)

    @property
    def words(self) -> str:
        return f"the structures file {shown(Path(self.path).name)}"


SITE_KEYS = ("levels", "rake")
RAKE_KEYS = ("percent", "cap", "min_pot", "no_drop_third", "currency", "small_bet", "big_bet")


def load_structures(path: str) -> UserStructures:
    """Read and validate the file at ``path``; :class:`StructuresError` with one line otherwise."""
    name = shown(Path(path).name)
    try:
        data = tomllib.loads(Path(path).expanduser().read_bytes().decode("utf-8"))
    except FileNotFoundError:
        raise StructuresError(f"{name}: no such structures file ({shown(path)})") from None
    except IsADirectoryError:
        raise StructuresError(f"{name}: is a folder, not a structures file") from None
    except tomllib.TOMLDecodeError as error:
        raise StructuresError(f"{name}: not valid TOML: {error}") from None
    except UnicodeDecodeError:
        raise StructuresError(f"{name}: not UTF-8 text") from None
    except OSError as error:
        raise StructuresError(f"{name}: cannot be read: {error.strerror or error}") from None
    return parse_structures(data, str(Path(path).expanduser().resolve()))


def parse_structures(data: dict[str, Any], path: str) -> UserStructures:
    name = shown(Path(path).name)
    _only(data, ("sites",), name, "")
    sites = data.get("sites", {})
    if not isinstance(sites, dict):
        raise StructuresError(f"{name}: sites: wants a table of sites like [sites.pokerstars]")
    levels: dict[LevelKey, LevelSpec] = {}
    rakes: dict[str, tuple[RakeSchedule, ...]] = {}
    for site, table in sites.items():
        where = f"sites.{shown(site)}"
        if site not in KNOWN_SITES:
            raise StructuresError(f"{name}: {where}: unknown site (the sites are {', '.join(KNOWN_SITES)})")
        if not isinstance(table, dict):
            raise StructuresError(f"{name}: {where}: wants a table with levels and rake")
        _only(table, SITE_KEYS, name, where)
        for index, level in enumerate(_listed(table.get("levels", []), name, f"{where}.levels")):
            spec = level_fields(level, site, f"{name}: {where}.levels[{index}]", evidence=False, error=StructuresError)
            if spec.key in levels:
                raise StructuresError(f"{name}: {where}.levels[{index}]: a second row for the same level")
            levels[spec.key] = spec
        rakes[site] = tuple(_rake(rake, name, f"{where}.rake[{index}]")
                            for index, rake in enumerate(_listed(table.get("rake", []), name, f"{where}.rake")))
    return UserStructures(path, levels, rakes)


def _listed(value: Any, name: str, where: str) -> list[dict[str, Any]]:
    if isinstance(value, dict):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise StructuresError(f"{name}: {where}: wants tables like [[{where}]]")
    return value


def _only(table: dict[str, Any], keys: tuple[str, ...], name: str, where: str) -> None:
    for key in table:
        if key not in keys:
            at = f"{where}.{shown(key)}" if where else shown(key)
            raise StructuresError(f"{name}: {at}: unknown key (the keys here are {', '.join(keys)})")


def _rake(table: dict[str, Any], name: str, where: str) -> RakeSchedule:
    _only(table, RAKE_KEYS, name, where)
    if "percent" not in table:
        raise StructuresError(f"{name}: {where}.percent: missing (the share of the pot raked, like 5 or 4.5)")
    percent = table["percent"]
    if isinstance(percent, bool) or not isinstance(percent, int | float) or not 0 <= percent <= 100:
        raise StructuresError(f"{name}: {where}.percent: wants a number from 0 to 100 like 5 or 4.5, not {percent!r}")
    currency = table.get("currency")
    if currency is not None and not isinstance(currency, str):
        raise StructuresError(f"{name}: {where}.currency: wants a currency code like \"USD\", not {currency!r}")
    no_drop = table.get("no_drop_third", False)
    if not isinstance(no_drop, bool):
        raise StructuresError(f"{name}: {where}.no_drop_third: wants true or false, not {no_drop!r}")

    def amount(key: str) -> int | None:
        value = table.get(key)
        return None if value is None else whole_amount(value, f"{name}: {where}.{key}", StructuresError)

    # the percent as the decimal the user wrote, never a binary float's expansion
    return RakeSchedule(where, Fraction(str(percent)), amount("cap"), amount("min_pot") or 0, no_drop, currency,
                        amount("small_bet"), amount("big_bet"))


__all__ = ["RakeSchedule", "StructuresError", "UserStructures", "load_structures", "parse_structures"]
