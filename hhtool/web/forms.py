"""The query string of a page read into the service's values: the hand filter every page shares
(the CLI's options under the same names: ``player``, ``site``, ``stakes``, ``from``, ``to``, ``game``,
``table_size``, ``tag``) and each page's own. A malformed value is a UsageError, shown on the page."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import TypeVar
from urllib.parse import urlencode

from starlette.datastructures import QueryParams

from hhtool.service.choices import Game
from hhtool.service.errors import UsageError
from hhtool.service.filters import HandFilter, hand_filter
from hhtool.service.numbers import TABLE_SIZE, WholeNumber, quoted

#: the filter's keys in the query string, in the order the form shows them
FILTER_KEYS = ("player", "site", "stakes", "from", "to", "game", "table_size", "tag")

E = TypeVar("E", bound=StrEnum)


def text(query: QueryParams, key: str) -> str | None:
    value = query.get(key, "").strip()
    return value or None


def many(query: QueryParams, key: str) -> list[str]:
    return [value.strip() for value in query.getlist(key) if value.strip()]


def choice(query: QueryParams, key: str, kind: type[E]) -> E | None:
    value = text(query, key)
    if value is None:
        return None
    try:
        return kind(value)
    except ValueError:
        raise UsageError(f"{key} must be one of {', '.join(str(v) for v in kind)}, not {quoted(value)}") from None


def number(query: QueryParams, key: str, kind: WholeNumber) -> int | None:
    """The whole number given to ``key`` (None: not given), read and bounded by the rule of its ``kind``
    that the command line's option uses too."""
    value = text(query, key)
    return None if value is None else kind.parse(value, key)


def the_filter(query: QueryParams) -> HandFilter:
    """The hands the query string selects (the CLI's filter options, by the same names)."""
    return hand_filter(players=many(query, "player"), sites=many(query, "site"), stakes=text(query, "stakes"),
                       date_from=text(query, "from"), date_to=text(query, "to"), game=choice(query, "game", Game),
                       table_size=number(query, "table_size", TABLE_SIZE), tags=many(query, "tag"))


def kept(query: QueryParams, keys: tuple[str, ...] = FILTER_KEYS, **changed: str | None) -> str:
    """The query string of ``keys`` as given (empty values dropped), with ``changed`` set (None: dropped)."""
    pairs = [(key, value) for key, value in query.multi_items() if key in keys and key not in changed and value.strip()]
    pairs += [(key, value) for key, value in changed.items() if value]
    return urlencode(pairs)


def values(query: QueryParams) -> Mapping[str, str]:
    """The first value of each key, for the form's fields."""
    return {key: query.get(key, "") for key in query}
