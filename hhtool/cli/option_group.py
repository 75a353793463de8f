"""A group of options declared once and offered by several commands: the hand filter's
(:mod:`hhtool.cli.filter_options`), a list's sort, limit, columns and output (:mod:`hhtool.cli.listing`).

A command declares one parameter for the group, e.g. ``filters: HandFilterOptions = GROUP``, and is
decorated with :func:`option_group`; its help lists the group's options where that parameter stands.
Typer reads a command's parameters from ``inspect.signature``: the decorator gives the command a
signature with the group's options in the parameter's place, and calls it with one value made of what
was given to them.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

#: the default a group's parameter is declared with (the decorator puts the group's value in its place)
GROUP: Any = None


@dataclass(frozen=True)
class GroupOption:
    """One option of a group: the parameter its value goes to, its type, and its ``typer.Option``."""

    parameter: str
    annotation: Any
    option: Any


Command = Callable[..., None]


def option_group(parameter: str, options: Sequence[GroupOption],
                 value: Callable[..., Any]) -> Callable[[Command], Command]:
    """Put ``options`` in the place of the command's parameter named ``parameter``, and call the command
    with ``value(**given)`` there, ``given`` the options' values by their parameter names."""

    def decorate(command: Command) -> Command:
        signature = inspect.signature(command, eval_str=True)  # (its annotations as objects, not text)
        own = list(signature.parameters.values())
        place = [declared.name for declared in own].index(parameter)
        added = [inspect.Parameter(option.parameter, inspect.Parameter.KEYWORD_ONLY, default=option.option,
                                   annotation=option.annotation) for option in options]
        taken = {declared.name for declared in own} & {option.parameter for option in options}
        if taken:
            raise ValueError(f"{command.__name__} has its own {', '.join(sorted(taken))}: the group's clash")
        keyword = [declared.replace(kind=inspect.Parameter.KEYWORD_ONLY) for declared in own]
        parameters = [*keyword[:place], *added, *keyword[place + 1:]]
        names = [option.parameter for option in options]

        @functools.wraps(command)
        def with_group(**values: Any) -> None:
            given = {name: values.pop(name) for name in names}
            command(**values, **{parameter: value(**given)})

        with_group.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
        with_group.__annotations__ = {**{declared.name: declared.annotation for declared in parameters},
                                      "return": signature.return_annotation}
        return with_group

    return decorate
