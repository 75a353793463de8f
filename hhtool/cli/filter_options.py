"""The hand filter's options (--player, --site, --stakes, --from, --to, --game, --table-size), declared
once for every command that selects hands with them (`hands`, `sessions`, `stats`, `graph`,
`tournaments`).

A command takes one parameter, ``filters: HandFilterOptions = FILTERS``, and is decorated with
:func:`hand_filter_options` naming the options it offers; in its help they stand where that parameter
stands, in the order below. Typer reads a command's parameters from ``inspect.signature``: the decorator
gives the command a signature with the options in the parameter's place and hands the command the
values given to them as one :class:`HandFilterOptions`.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, Literal

import typer

from hhtool.cli.common import site_option
from hhtool.service.choices import Game

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


@dataclass(frozen=True)
class _Option:
    parameter: str  # the HandFilterOptions field (and the command parameter) its value goes to
    annotation: Any
    option: Any  # typer.Option(...)


#: each filter option, in the order every command's help lists them
_OPTIONS: dict[FilterName, _Option] = {
    "player": _Option("players", list[str] | None, typer.Option(
        None, "--player", help="Only this player, or alias (`hhtool alias`) (repeatable).")),
    "site": _Option("sites", list[str] | None, site_option("Only hands of this site (repeatable)")),
    "stakes": _Option("stakes", str | None, typer.Option(
        None, "--stakes", help="Small bet/big bet in currency units, e.g. 0.04/0.08.")),
    "from": _Option("date_from", str | None, typer.Option(
        None, "--from", help="First day, YYYY-MM-DD (hands' own timestamps).")),
    "to": _Option("date_to", str | None, typer.Option(None, "--to", help="Last day, YYYY-MM-DD, inclusive.")),
    "game": _Option("game", Game | None, typer.Option(None, "--game", help="cash or tournament.")),
    "table-size": _Option("table_size", int | None, typer.Option(
        None, "--table-size", help="Only tables of this many seats (e.g. 8).")),
}

#: the parameter a command names to receive the filter (its default: the command is decorated)
PARAMETER = "filters"
#: the default the ``filters`` parameter is declared with; the decorator replaces it
FILTERS: Any = None


def hand_filter_options(*offered: FilterName) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Give the decorated command the filter options ``offered`` (all of them when none is named), in
    place of its ``filters`` parameter, and call it with their values as one :class:`HandFilterOptions`."""
    chosen = [name for name in _OPTIONS if not offered or name in offered]
    unknown = set(offered) - set(_OPTIONS)
    if unknown:
        raise ValueError(f"no such filter option: {', '.join(sorted(unknown))}")

    def decorate(command: Callable[..., None]) -> Callable[..., None]:
        signature = inspect.signature(command, eval_str=True)  # (its annotations as objects, not text)
        own = list(signature.parameters.values())
        place = [parameter.name for parameter in own].index(PARAMETER)
        added = [inspect.Parameter(_OPTIONS[name].parameter, inspect.Parameter.KEYWORD_ONLY,
                                   default=_OPTIONS[name].option, annotation=_OPTIONS[name].annotation)
                 for name in chosen]
        taken = {parameter.name for parameter in own} & {parameter.name for parameter in added}
        if taken:
            raise ValueError(f"{command.__name__} has its own {', '.join(sorted(taken))}: the filter's clash")
        rest = [parameter.replace(kind=inspect.Parameter.KEYWORD_ONLY) for parameter in own]
        parameters = [*rest[:place], *added, *rest[place + 1:]]
        given_names = [parameter.name for parameter in added]

        @functools.wraps(command)
        def with_filters(**values: Any) -> None:
            given = {name: values.pop(name) for name in given_names}
            command(**values, **{PARAMETER: HandFilterOptions(**given)})

        annotations = {parameter.name: parameter.annotation for parameter in parameters}
        with_filters.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
        with_filters.__annotations__ = {**annotations, "return": signature.return_annotation}
        return with_filters

    return decorate
