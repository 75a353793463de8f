"""What the list commands (`hands`, `sessions`) share: a column named by its key or its terminal
label, the direction a column sorts in, and a list cut to its first rows with the count it was cut
from.

>>> column_key("Date", ("hand_id", "started_at"), {"hand_id": "id", "started_at": "date"}, "hands")
'started_at'
>>> column_key("dat", ("hand_id", "started_at"), {"hand_id": "id", "started_at": "date"}, "hands")
Traceback (most recent call last):
...
hhtool.reports.listing.UnknownColumn: no hands column 'dat' (did you mean 'date'?); the columns are id, date
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import polars as pl

#: rows a list shows on the terminal unless --limit says otherwise
DEFAULT_LIMIT = 50


class UnknownColumn(ValueError):
    """A --columns or --sort name that is no column of the list (the message lists close matches)."""


def column_key(name: str, keys: Sequence[str], labels: Mapping[str, str], what: str,
               aliases: Mapping[str, str] | None = None) -> str:
    """The key ``name`` (a key, its terminal label or another name ``aliases`` gives it, any case)
    names among ``keys``."""
    wanted = name.strip().lower()
    if aliases and wanted in aliases:
        return aliases[wanted]
    for key in keys:
        if wanted in (key.lower(), labels.get(key, key).lower()):
            return key
    names = [labels.get(key, key) for key in keys]
    close = difflib.get_close_matches(wanted, [*names, *keys], n=3)
    hint = f" (did you mean {', '.join(repr(c) for c in dict.fromkeys(close))}?)" if close else ""
    raise UnknownColumn(f"no {what} column {name!r}{hint}; the columns are {', '.join(names)}")


@dataclass(frozen=True)
class Listed:
    """The rows shown (``frame``) of the ``total`` rows that matched, and a note on their order the
    reader needs (money of several currencies: grouped by currency)."""

    frame: pl.DataFrame
    total: int
    order_note: str | None = None

    @property
    def cut(self) -> bool:
        return self.frame.height < self.total


def limit_for(limit: int | None, for_terminal: bool) -> int | None:
    """The rows to keep: ``limit`` as given (0: all of them); not given, :data:`DEFAULT_LIMIT` on the
    terminal and every row in a file or a pipe's csv or json."""
    if limit is None:
        return DEFAULT_LIMIT if for_terminal else None
    return None if limit == 0 else limit
