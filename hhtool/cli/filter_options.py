"""The hand filter's options (--player, --site, --stakes, --from, --to, --game, --table-size), declared
once for every command that selects hands with them (`hands`, `sessions`, `stats`, `graph`,
`tournaments`).

A command takes one parameter, ``filters: HandFilterOptions = FILTERS``, and is decorated with
:func:`hand_filter_options` naming the options it offers; in its help they stand where that parameter
stands, in the order below, and the command gets what was given to them as one
:class:`HandFilterOptions` (:mod:`hhtool.cli.option_group`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, Literal

import typer

from hhtool.cli.common import number_option, site_option
from hhtool.cli.option_group import GROUP, Command, GroupOption, option_group
from hhtool.service.choices import Game
from hhtool.service.numbers import TABLE_SIZE

if TYPE_CHECKING:
    from hhtool.service.filters import HandFilter

FilterName = Literal["player", "site", "stakes", "from", "to", "game", "table-size"]


@dataclass(frozen=True)
class HandFilterOptions:
    """The values given to a command's filter options (None where it was not given or is not offered)."""

    players: list[str] | None = None
    sites: list[str] | None = None
    stakes: str | None = None
    date_from: str | None = None
    date_to: str | None = None
    game: Game | None = None
    table_size: int | None = None

    def hand_filter(self, **more: Any) -> HandFilter:
        """The :class:`HandFilter` of these values and ``more`` (e.g. ``tags``); a malformed value is a
        usage error (:func:`hhtool.service.filters.hand_filter`)."""
        from hhtool.service.filters import hand_filter  # (the store loads: when the command runs)

        given = {field.name: getattr(self, field.name) for field in fields(self)}
        return hand_filter(**given, **more)


#: each filter option, in the order every command's help lists them
_OPTIONS: dict[FilterName, GroupOption] = {
    "player": GroupOption("players", list[str] | None, typer.Option(
        None, "--player", help="Only this player, or alias (`hhtool alias`) (repeatable).")),
    "site": GroupOption("sites", list[str] | None, site_option("Only hands of this site (repeatable)")),
    "stakes": GroupOption("stakes", str | None, typer.Option(
        None, "--stakes", help="Small bet/big bet in currency units, e.g. 0.04/0.08.")),
    "from": GroupOption("date_from", str | None, typer.Option(
        None, "--from", help="First day, YYYY-MM-DD, in your zone (config timezone, default the machine's); "
        "every site's hands on one clock.")),
    "to": GroupOption("date_to", str | None, typer.Option(None, "--to", help="Last day, YYYY-MM-DD, inclusive.")),
    "game": GroupOption("game", Game | None, typer.Option(None, "--game", help="cash or tournament.")),
    "table-size": GroupOption("table_size", int | None, number_option(
        TABLE_SIZE, None, "--table-size", help="Only tables of this many seats, e.g. 8")),
}

#: the default a command's ``filters`` parameter is declared with (:func:`hand_filter_options` fills it)
FILTERS = GROUP


def hand_filter_options(*offered: FilterName) -> Callable[[Command], Command]:
    """Give the decorated command the filter options ``offered`` (all of them when none is named), in
    place of its ``filters`` parameter, and call it with their values as one :class:`HandFilterOptions`."""
    unknown = set(offered) - set(_OPTIONS)
    if unknown:
        raise ValueError(f"no such filter option: {', '.join(sorted(unknown))}")
    chosen = [option for name, option in _OPTIONS.items() if not offered or name in offered]
    return option_group("filters", chosen, HandFilterOptions)
