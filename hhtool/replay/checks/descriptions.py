"""Reading a site's hand description (``HI: a flush, Queen high; LO: 8,6,5,3,A``, ``two pair, Eights
and Threes, for high``, ``FULL_HOUSE EIGHT, FOUR``, ``Six High Straight``) and comparing it with the
best hands the cards make. Tolerant of wording (case, articles, plurals, underscores, word order of
"X high"), strict on content: the category, and every rank the description names, in the order
the category gives them significance.

>>> from hhtool.evaluation import cards
>>> seven = cards("4h 3d 5d Qd Jd 9d 6h")
>>> description_conflict(seven, "a flush, Queen high", None) is None
True
>>> description_conflict(seven, "a flush, King high", None)
('conflict', 'a flush, King high', 'a flush, Queen high')
>>> description_conflict(cards("7c 3s 5h Qc Kc 6d 4d"), "a straight, Three to Seven", "7,6,5,4,3") is None
True
>>> description_conflict(cards("7c 3s 5h Qc Kc 6d 4d"), None, "7,6,5,4,2")
('conflict', '7,6,5,4,2', 'a low of 7,6,5,4,3')
>>> description_conflict(seven, "something odd", None)
('unreadable', 'something odd', '')
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache

from hhtool.evaluation import (
    CATEGORIES,
    FLUSH,
    FULL_HOUSE,
    HIGH_CARD,
    ONE_PAIR,
    QUADS,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
    TWO_PAIR,
    HighHand,
    LowHand,
    best_high,
    best_low,
)
from hhtool.model import Card

_RANK_WORDS = {
    "ace": 14, "aces": 14, "king": 13, "kings": 13, "queen": 12, "queens": 12, "jack": 11, "jacks": 11,
    "ten": 10, "tens": 10, "nine": 9, "nines": 9, "eight": 8, "eights": 8, "seven": 7, "sevens": 7,
    "six": 6, "sixes": 6, "sixs": 6, "five": 5, "fives": 5, "four": 4, "fours": 4, "three": 3, "threes": 3,
    "two": 2, "twos": 2, "deuce": 2, "deuces": 2,
    "a": 14, "k": 13, "q": 12, "j": 11, "t": 10, "10": 10, "9": 9, "8": 8, "7": 7, "6": 6, "5": 5, "4": 4,
    "3": 3, "2": 2,
}  # fmt: skip
# category phrases, most specific first; each is removed from the text before its ranks are read
_CATEGORIES: tuple[tuple[re.Pattern[str], int], ...] = (
    (re.compile(r"\broyal flush\b"), STRAIGHT_FLUSH),
    (re.compile(r"\bstraight flush\b"), STRAIGHT_FLUSH),
    (re.compile(r"\bfour of a kind\b|\bquads\b"), QUADS),
    (re.compile(r"\bfull house\b|\bfull\b"), FULL_HOUSE),
    (re.compile(r"\bflush\b"), FLUSH),
    (re.compile(r"\bstraight\b"), STRAIGHT),
    (re.compile(r"\bthree of a kind\b|\btrips\b|\bset\b"), TRIPS),
    (re.compile(r"\btwo pairs?\b"), TWO_PAIR),
    (re.compile(r"\bone pair\b|\ba pair\b|\bpair\b"), ONE_PAIR),
    (re.compile(r"\bhigh card\b|\bno pair\b|\bhigh\b"), HIGH_CARD),
)
_NOISE = re.compile(r"\b(?:hi|high|lo|low|for|of|with|and|to|full|the|an?|kickers?|plus)\b|[:;,.()\[\]-]")
_LOW_SPLIT = re.compile(r"[;|]?\s*\b(?:lo|low)\b\s*[:-]\s*", re.I)
_LOW_RANKS = re.compile(r"\b(10|[1-9tjqka])\b", re.I)
_NO_LOW = re.compile(r"\bno\b", re.I)


@lru_cache(maxsize=4096)  # descriptions repeat from hand to hand ("two pair, Kings and Tens")
def read_high(text: str) -> tuple[int, tuple[int, ...]] | None:
    """(category, ranks named in order) of a high description; None when no category is named.

    >>> read_high("HI: two pair, Eights and Threes"), read_high("King Nine high"), read_high("FULL_HOUSE EIGHT, FOUR")
    ((2, (8, 3)), (0, (13, 9)), (6, (8, 4)))
    """
    # the best five some sites list after the words ("[Qh 9h 8s 7s 5s]", ACR) are not part of them
    lowered = " " + re.sub(r"\[[^\]]*\]", " ", text).lower().replace("_", " ") + " "
    lowered = re.sub(r"^\s*(?:hi|high)\s*[:-]\s*", " ", lowered)
    for pattern, category in _CATEGORIES:
        found = pattern.search(lowered)
        if found is None:
            continue
        rest = lowered[:found.start()] + " " + lowered[found.end():]
        if category == STRAIGHT_FLUSH and "royal" in found.group(0):
            return category, (14,)
        words = _NOISE.sub(" ", rest).split()
        ranks = tuple(_RANK_WORDS[word] for word in words if word in _RANK_WORDS)
        return category, ranks
    return None


def _significant(ranks: Sequence[int]) -> tuple[int, ...]:
    """The distinct ranks of a hand, most significant first (the packed ranks repeat pairs)."""
    distinct: list[int] = []
    for rank in ranks:
        if rank not in distinct:
            distinct.append(rank)
    return tuple(distinct)


def _high_agrees(category: int, ranks: tuple[int, ...], said: tuple[int, tuple[int, ...]]) -> bool:
    said_category, named = said
    if said_category != category:
        return False
    if category in (STRAIGHT, STRAIGHT_FLUSH):
        top, bottom = ranks[0], ranks[-1]
        ends = {top, bottom, 14 if bottom == 1 else bottom}
        return all(rank in ends for rank in named) and (len(named) != 1 or named[0] == top)
    order = _significant(ranks)
    return tuple(named) == order[:len(named)]


def description_conflict(cards: Sequence[Card], high_text: str | None, low_text: str | None,
                         best: tuple[HighHand, LowHand | None] | None = None) -> tuple[str, str, str] | None:
    """None when the descriptions agree with the cards (or say nothing); ``("conflict", said, what the
    cards make)`` or ``("unreadable", said, "")`` otherwise. A low given inside the high text after
    ``LO:`` / ``; low`` is read as the low. ``best``: the cards' best high and low, when already known."""
    if best is not None:
        high, low = best
        return _conflict_of_values(high.value, None if low is None else low.ranks, high_text, low_text)
    return _conflict(high_text, low_text, lambda: best_high(cards), lambda: best_low(cards))


@lru_cache(maxsize=8192)  # the answer depends only on the hands' values and the words, which repeat
def _conflict_of_values(high_value: int, low_ranks: tuple[int, ...] | None, high_text: str | None,
                        low_text: str | None) -> tuple[str, str, str] | None:
    """:func:`description_conflict` for a best high of ``high_value`` and a best low of ``low_ranks``
    (None: no qualifying low): what it reads of them (category, ranks, wording) follows from these."""
    high = HighHand(high_value, CATEGORIES[high_value >> 20], ())
    low = None if low_ranks is None else LowHand(0, low_ranks, ())
    return _conflict(high_text, low_text, lambda: high, lambda: low)


def _conflict(high_text: str | None, low_text: str | None, high_of: Callable[[], HighHand],
              low_of: Callable[[], LowHand | None]) -> tuple[str, str, str] | None:
    high_text, said_high, low_text, said_low = read_description(high_text, low_text)
    if high_text:
        if said_high is None:
            return "unreadable", high_text, ""
        high = high_of()
        if not _high_agrees(high.value >> 20, high.ranks, said_high):
            return "conflict", high_text, high.describe()
    if low_text:
        if said_low == "unreadable":
            return "unreadable", low_text, ""
        low = low_of()
        if said_low == "no low":
            return None if low is None else ("conflict", low_text, f"a low of {low.describe()}")
        if low is None:
            return "conflict", low_text, "no qualifying low"
        assert isinstance(said_low, tuple)
        # five ranks (listed in any order, Winning's old export repeats one) or the top ranks only
        # (Winamax: "High card : 7")
        if said_low != low.ranks[:len(said_low)]:
            return "conflict", low_text, f"a low of {low.describe()}"
    return None


@lru_cache(maxsize=4096)  # the same words come back hand after hand
def read_description(high_text: str | None, low_text: str | None) -> tuple[
        str | None, tuple[int, tuple[int, ...]] | None, str | None, tuple[int, ...] | str | None]:
    """(high text, what it says, low text, what it says) of a site's descriptions: the high as
    :func:`read_high` reads it (None: unreadable); the low as its ranks highest first, ``"no low"`` or
    ``"unreadable"``."""
    if high_text and low_text is None:
        parts = _LOW_SPLIT.split(high_text, maxsplit=1)
        if len(parts) == 2 and parts[0].strip():
            high_text, low_text = parts[0].strip(" ;|,"), parts[1]
        elif len(parts) == 2:
            high_text, low_text = None, parts[1]
    said_high = read_high(high_text) if high_text else None
    said_low: tuple[int, ...] | str | None = None
    if low_text:
        tokens = [1 if token.lower() in ("a", "1") else _RANK_WORDS[token.lower()] for token in _LOW_RANKS.findall(low_text)]
        named = tuple(sorted(set(tokens), reverse=True))
        if not tokens and _NO_LOW.search(low_text):
            said_low = "no low"
        elif len(named) > 5 or not named or (len(named) < 5 and len(tokens) != len(named)):
            said_low = "unreadable"
        else:
            said_low = named
    return high_text, said_high, low_text, said_low
