"""Reading the dates in hand headers: :func:`parse_datetime` tries strptime formats in turn, with a
compiled-regex path for all-numeric formats (strptime consults the locale on every call, which cost
more than the rest of a hand's header). Imports nothing of ours.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from functools import cache


def parse_datetime(text: str, formats: Sequence[str]) -> datetime | None:
    """The first of ``formats`` that reads ``text``, as :meth:`datetime.strptime` would; None when
    none does. All-numeric formats take a compiled-regex path (strptime consults the locale on
    every call, which cost more than the rest of a hand's header).

    >>> parse_datetime("2021/03/04 5:06:07", ["%Y/%m/%d %H:%M:%S"])
    datetime.datetime(2021, 3, 4, 5, 6, 7)
    >>> parse_datetime("2021 March 04 05:06:07", ["%Y %B %d %H:%M:%S"]).month
    3
    >>> parse_datetime("2021/02/30 05:06:07", ["%Y/%m/%d %H:%M:%S"]) is None
    True
    """
    body = text.strip()
    for fmt in formats:
        numeric = _numeric_format(fmt)
        try:
            if numeric is None:
                return datetime.strptime(body, fmt)
            match = numeric.match(body)  # strptime's own test: a match from the start, then nothing left
            if match is not None and match.end() == len(body):
                year, month, day, hour, minute, second = (int(part) for part in match.groups())  # _DATE_ORDER
                return datetime(year, month, day, hour, minute, second)
        except ValueError:
            continue
    return None


def stated_datetime(text: str, formats: Sequence[str]) -> tuple[datetime | None, str | None]:
    """What a history states as its date: (the datetime, None) as :func:`parse_datetime` reads it, or
    (None, why not) for text that is no date (2026/02/30, 25:61:61, 0000/00/00) or not in the site's
    form (a five-digit year). Such a date is never read another way (a year cut to four digits, a
    day moved to the next month): the hand keeps no date, and the caller notes why.

    >>> stated_datetime("2026/02/30 10:22:38", ["%Y/%m/%d %H:%M:%S"])
    (None, "not a date: '2026/02/30 10:22:38' (day is out of range for month); the hand is kept without one")
    >>> stated_datetime("12026/11/29 10:22:38", ["%Y/%m/%d %H:%M:%S"])[1]
    "not a date: '12026/11/29 10:22:38' (a year of 5 digits); the hand is kept without one"
    >>> stated_datetime("2026 February 30 10:22:38", ["%Y %B %d %H:%M:%S"])[1]
    "not a date: '2026 February 30 10:22:38' (day is out of range for month); the hand is kept without one"
    >>> stated_datetime("20260230102238", ["%Y%m%d%H%M%S"])[1]
    "not a date: '20260230102238' (day is out of range for month); the hand is kept without one"
    """
    value = parse_datetime(text, formats)
    if value is not None:
        return value, None
    return None, f"not a date: {text.strip()!r} ({_why_not_a_date(text)}); the hand is kept without one"


def _why_not_a_date(text: str) -> str:
    """Why numbers in the order year, month, day, hour, minute[, second] make no date (a month may be
    named, in English, and the numbers may be run together as yyyymmddHHMMSS); for another layout,
    that it is not the site's."""
    text = _MONTH_NAME.sub(lambda name: f" {_MONTHS.index(name.group(0)[:3].lower()) + 1} ", text)
    numbers = re.findall(r"\d+", text)
    if re.fullmatch(r"\s*\d{14}\s*", text):
        numbers = [numbers[0][start:start + width] for start, width in ((0, 4), (4, 2), (6, 2), (8, 2), (10, 2), (12, 2))]
    if not re.fullmatch(r"[\d\s/:.-]*", text) or len(numbers) not in (5, 6):
        return "not in the form the site writes"
    if len(numbers[0]) != 4:
        return f"a year of {len(numbers[0])} digits"
    try:
        datetime(*(int(number) for number in numbers))  # type: ignore[arg-type]  # five or six of them
    except (ValueError, OverflowError) as error:
        return str(error)
    return "not in the form the site writes"


_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
#: a month's English name or its first three letters
_MONTH_NAME = re.compile(r"\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
                         r"sep(?:tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b", re.IGNORECASE)

#: strptime's own patterns for the numeric directives (1 or 2 digits, except the year)
_NUMERIC_DIRECTIVES = {
    "%Y": r"(\d{4})", "%m": r"(1[0-2]|0[1-9]|[1-9])", "%d": r"(3[01]|[12]\d|0[1-9]|[1-9]| [1-9])",
    "%H": r"(2[0-3]|[0-1]\d|\d)", "%M": r"([0-5]\d|\d)", "%S": r"(6[0-1]|[0-5]\d|\d)",
}
_DATE_ORDER = ("%Y", "%m", "%d", "%H", "%M", "%S")


@cache
def _numeric_format(fmt: str) -> re.Pattern[str] | None:
    """A regex for a format made only of %Y %m %d %H %M %S (each once, in that order) and
    literals, its groups in datetime's argument order; None for any other format."""
    directives = re.findall(r"%.", fmt)
    if tuple(directives) != _DATE_ORDER:
        return None
    pattern = ""
    for piece in re.split(r"(%.)", fmt):
        if piece in _NUMERIC_DIRECTIVES:
            pattern += _NUMERIC_DIRECTIVES[piece]
        else:  # strptime lets any run of whitespace stand for a blank in the format
            pattern += r"\s+".join(re.escape(part) for part in re.split(r"\s+", piece))
    return re.compile(pattern, re.IGNORECASE)
