"""Bytes that are no text in front of a hand's first line: a byte-order mark or a run of NUL bytes.

Two exported files put together (``cat a.txt b.txt``, each starting with its UTF-8 byte-order mark)
leave the second file's mark in front of its first hand, where the reader, which drops a mark only
at the very start of a file, keeps it as U+FEFF; a client that crashed while writing may leave NUL
bytes before the next hand it writes. Either would hide the hand start, so the hand would be read as
stray text after the hand before it. :func:`lenient` lets the splitter see through them, and
:meth:`~hhtool.sites.kit.base.SiteParser.parse` reads the hand without them (:func:`stray_prefix`),
keeping it and saying so in a note on the hand (:func:`noted`), whose text the import reports
with the file's other notes. The hand's text (and its digest) is its own, without those bytes, so
the same hand in a clean file is the same copy.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from hhtool.model import Hand, Note, ParseOutcome

#: what may stand in front of a hand start: the byte-order mark (U+FEFF) and NUL
STRAY_CHARACTERS = "\ufeff\x00"
#: how a note about them begins (the importer finds the hands that carry one by it)
NOTE_PREFIX = "removed in front of this hand's first line: "


@lru_cache(maxsize=64)
def lenient(start: re.Pattern[str]) -> re.Pattern[str]:
    """``start`` (a site's hand start) matching after a run of stray characters too."""
    return re.compile(f"[{STRAY_CHARACTERS}]*(?:{start.pattern})", start.flags)


def stray_prefix(line: str) -> int:
    """How many stray characters ``line`` begins with.

    >>> stray_prefix("\\ufeffPokerStars Game #1:"), stray_prefix("\\x00\\x00\\x00Stage #1:"), stray_prefix("Seat 1")
    (1, 3, 0)
    """
    return len(line) - len(line.lstrip(STRAY_CHARACTERS))


def describe(stray: str) -> str:
    """What the stray characters were, for a note.

    >>> describe("\\ufeff"), describe("\\x00" * 12), describe("\\x00\\ufeff")
    ('a byte-order mark (U+FEFF)', '12 NUL bytes', 'a byte-order mark (U+FEFF) and 1 NUL byte')
    """
    marks, nuls = stray.count("\ufeff"), stray.count("\x00")
    parts = []
    if marks:
        parts.append("a byte-order mark (U+FEFF)" if marks == 1 else f"{marks} byte-order marks (U+FEFF)")
    if nuls:
        parts.append(f"{nuls} NUL byte{'s' if nuls > 1 else ''}")
    return " and ".join(parts)


def noted(outcome: ParseOutcome, stray: str, line: int) -> ParseOutcome:
    """A hand read without the stray characters in front of its first line (``line``), saying so."""
    if not isinstance(outcome, Hand):
        return outcome
    note = Note(f"{NOTE_PREFIX}{describe(stray)}, which is no text (the hand is read without it)", line)
    return replace(outcome, notes=(*outcome.notes, note))
