"""Site parsers: one module per site, each exposing ``PARSER`` (a :class:`SiteParser`).

Modules are discovered, not listed, so adding a site touches no other file.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Sequence
from functools import cache
from itertools import islice

from hhtool.sites.base import SiteParser

_NOT_SITES = {"base"}


@cache
def all_parsers() -> tuple[SiteParser, ...]:
    parsers: list[SiteParser] = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name in _NOT_SITES or info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        parser = getattr(module, "PARSER", None)
        if isinstance(parser, SiteParser):
            parsers.append(parser)
    return tuple(parsers)


def site_names() -> tuple[str, ...]:
    return tuple(parser.name for parser in all_parsers())


def parser_for(name: str) -> SiteParser:
    for parser in all_parsers():
        if parser.name == name.lower():
            return parser
    raise KeyError(f"unknown site {name!r}; known: {', '.join(site_names())}")


def detect(lines: Sequence[str]) -> SiteParser | None:
    """The site whose format these lines are in, judged from the content alone: from the first
    40 lines that are not blank, however many blank lines come first."""
    head = list(islice((line for line in lines if line.strip()), 40))
    for parser in all_parsers():
        if parser.sniff(head):
            return parser
    return None
