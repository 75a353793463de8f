"""The whole numbers a request may give (a limit, a number of hands, a table's seats, minutes), each kind
checked by one rule that the command line's options and the web pages' query strings share.

A number is ASCII digits only (``int`` also reads ``٣`` and ``1_000``, and ``str.isdigit`` passes ``²``
that ``int`` refuses), at most :data:`LONGEST` characters before it is read (``int`` refuses 4,300 digits,
slowly), and within its kind's bounds (the store's BIGINT and Polars' row counts end somewhere; so does
any sensible request). A value outside is a :class:`UsageError` saying the bounds.

Importing this module is cheap (the command line builds its options from it before any command runs).
"""

from __future__ import annotations

from dataclasses import dataclass

from hhtool.service.errors import UsageError

#: characters a number's text may have before it is read (a billion has 10 digits; leading zeros are kept)
LONGEST = 24


def quoted(text: str, longest: int = LONGEST) -> str:
    """``text`` as a message quotes it: escaped as Python spells a string (a control character as
    ``\\x1b``, never raw), cut to ``longest`` characters with ``…`` after."""
    return repr(text) if len(text) <= longest else f"{text[:longest]!r}…"


@dataclass(frozen=True)
class WholeNumber:
    """A kind of whole number a request may give, from ``low`` to ``high`` (both included)."""

    low: int
    high: int

    @property
    def bounds(self) -> str:
        """``from 1 to 1,000,000``, as help and messages say them."""
        return f"from {self.low:,} to {self.high:,}"

    def read(self, text: str) -> int | None:
        """The number ``text`` spells (spaces around it ignored), or None when it is not ASCII digits
        within the bounds."""
        given = text.strip()
        if len(given) <= LONGEST and given.isascii() and given.isdigit():
            value = int(given)
            if self.low <= value <= self.high:
                return value
        return None

    def refusal(self, text: str) -> str:
        """What is wrong with ``text``, after the name of what it was given to: ``wants a whole number
        from 1 to 1,000,000, not '1e23'``."""
        return f"wants a whole number {self.bounds}, not {quoted(text)}"

    def parse(self, text: str, name: str) -> int:
        """The number ``text`` spells; UsageError naming ``name`` (``limit`` on a page) otherwise."""
        value = self.read(text)
        if value is None:
            raise UsageError(f"{name} {self.refusal(text)}")
        return value


#: the largest pot bound (`hands --min-pot`, ``max_pot``), in currency units (chips in a tournament): far
#: above any pot, and times any hand's smallest units per currency unit still within the store's DECIMAL(38,6)
MOST_MONEY = 10**12


def amount_text(text: str, name: str) -> str:
    """``text`` without the spaces around it, if it is short enough to be read as an amount (a
    42-digit amount is past the store's DECIMAL(38,6)); UsageError naming ``name`` otherwise."""
    if len(text.strip()) > LONGEST:
        raise UsageError(f"{name} {amount_refusal(text)}")
    return text.strip()


def amount_refusal(text: str) -> str:
    """What is wrong with an amount ``text``, after the name of what it was given to."""
    return f"wants an amount in currency units from 0 to {MOST_MONEY:,}, not {quoted(text)}"


#: rows a list shows (`stats`, `problems`, `violations --top`, `sql --max-rows`, every page's ``limit``)
LIMIT = WholeNumber(1, 1_000_000)
#: rows `hands` and `sessions` list: 0 is all of them
LIMIT_OR_ALL = WholeNumber(0, 1_000_000)
#: `stats --min-hands`: the fewest hands a player listed has
MIN_HANDS = WholeNumber(0, 1_000_000_000)
#: a table's seats (`--table-size`): Seven Card Stud seats 2 to 8; some sites' tables have up to 10
TABLE_SIZE = WholeNumber(2, 10)
#: `sessions --gap`, minutes: up to a year
GAP_MINUTES = WholeNumber(1, 525_600)
#: a note's number (`/note/N/delete`): the store's BIGINT
NOTE_ID = WholeNumber(1, 2**63 - 1)
#: `simulate --hands`: a hundred million is some 30 GB of history, and hours
SIMULATED_HANDS = WholeNumber(1, 100_000_000)

__all__ = ["GAP_MINUTES", "LIMIT", "LIMIT_OR_ALL", "LONGEST", "MIN_HANDS", "MOST_MONEY", "NOTE_ID", "SIMULATED_HANDS",
           "TABLE_SIZE", "WholeNumber", "amount_refusal", "amount_text", "quoted"]
