"""Site parsers: one module per site, each exposing ``PARSER`` (a :class:`SiteParser`) whose name is
the module's name.

Site modules are discovered, not listed, so adding a site touches no other file; what helps them
(the line grammar driver, the shared readers) lives in the sub-package :mod:`hhtool.sites.kit`, so a
site is a module of this package (not a sub-package) and nothing lists which is which.
:func:`site_names` reads the package's module names only, importing no parser (nor Lark), so the
command line can list the sites in its help at no cost; :func:`all_parsers` imports them and checks
that each site module has its parser, named after it.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Sequence
from functools import cache
from itertools import islice
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hhtool.sites.kit.base import SiteParser


@cache
def site_names() -> tuple[str, ...]:
    """The sites hhtool reads, by name (each one's module), without importing their parsers."""
    return tuple(sorted(info.name for info in pkgutil.iter_modules(__path__)
                        if not info.ispkg and not info.name.startswith("_")))


@cache
def all_parsers() -> tuple[SiteParser, ...]:
    from hhtool.sites.kit.base import SiteParser

    parsers: list[SiteParser] = []
    for name in site_names():
        parser = getattr(importlib.import_module(f"{__name__}.{name}"), "PARSER", None)
        if not isinstance(parser, SiteParser) or parser.name != name:
            raise TypeError(f"hhtool.sites.{name} is not a site (a PARSER named {name!r}); "
                            "a module that helps the sites belongs in hhtool/sites/kit/")
        parsers.append(parser)
    return tuple(parsers)


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
