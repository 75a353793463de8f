"""Facts a history states a second time, read the same way wherever the wording is shared: the
per-pot amounts of a summary's total-pot line, the cumulative first bracket of a later deal line,
and the summary seat lines (``folded on the 4th Street``, ``showed [..] and won ($0.37) with ..``,
``mucked [..]``, ``collected ($x)``). The site module decides which of its lines these are; the
replay checks compare them with the first statement (:mod:`hhtool.replay.checks.claims`).

>>> from hhtool.model import RawHand
>>> b = HandBuilder("t", RawHand("f", 1, ("x",)))
>>> [(p.pot, p.amount) for p in stated_pots(" Main pot $0.41. Side pot $0.18.", b, 9, after_rake=True)]
[(0, 41), (1, 18)]
>>> [(r.fact.value, r.street, r.amount) for r in summary_restatements("folded on the 4th Street", "A", b, 3)]
[('folded', <Street.FOURTH: 4>, None)]
>>> [(r.fact.value, r.amount, r.text) for r in summary_restatements("showed [Ah 2c] and won ($0.37) with HI: a pair", "A", b, 3)]
[('showed', None, 'HI: a pair'), ('won', 37, None)]
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from hhtool.model import Card, Restated, Restatement, StatedPot, Street
from hhtool.sites.kit.base import HandBuilder, HandParseError, parse_cards

_POT_PART = re.compile(r"(Main|Side) pot(?:[- ]#?(\d+)|\((\d+)\))? ([^\s|]+?)\.?(?= |$)", re.I)
# position tags some sites print between the name and the verb: "(button) (small blind) collected"
_TAGS = re.compile(r"^(?:\((?:button|small blind|big blind|dealer|bring-in)\) *)+", re.I)
_STREET_WORDS = {"3rd": Street.THIRD, "third": Street.THIRD, "4th": Street.FOURTH, "fourth": Street.FOURTH,
                 "5th": Street.FIFTH, "fifth": Street.FIFTH, "6th": Street.SIXTH, "sixth": Street.SIXTH,
                 "7th": Street.SEVENTH, "seventh": Street.SEVENTH, "river": Street.SEVENTH}
_FOLDED_ON = re.compile(r"folded on (?:the )?(\w+)(?: (?:street|st\.?))?", re.I)
_FOLDED = re.compile(r"(?:folded\b|didn't bet \(folded\))", re.I)
_SHOWED = re.compile(r"showed \[([^\]]*)\]", re.I)
_MUCKED = re.compile(r"\bmucked(?: \[([^\]]*)\])?(?: - (.+))?", re.I)
# "won ($0.37)", "collected ($x)" (PokerStars, Full Tilt), "won 114€" (Winamax)
_WON = re.compile(r"\b(?:won|collected) (?:\(([^()\s]+)\)|([$€£]?\d[\d.,]*)€?(?=\s|$))", re.I)
_LOST = re.compile(r"\band lost\b", re.I)
_WITH = re.compile(r"\bwith (.+)$", re.I)


def stated_pots(text: str, b: HandBuilder, line: int, *, after_rake: bool) -> list[StatedPot]:
    """The pots of a total-pot line's middle part (``Main pot $0.41. Side pot-1 $0.18.``); side pots
    the site does not number are numbered in the order printed."""
    pots: list[StatedPot] = []
    side = 0
    for kind, number, bracketed, amount in _POT_PART.findall(text):
        if kind.lower() == "main":
            index = 0
        else:
            side += 1
            index = int(number or bracketed or side)
        pots.append(StatedPot(index, b.money(amount, line), after_rake, line))
    return pots


def restated_cards(b: HandBuilder, player: str, old_cards: str, line: int) -> list[Restatement]:
    """A later deal line's first bracket: the cards it says were dealt to the player before (on the
    builder's street). A bracket that cannot be read is noted, not a reason to lose the hand: the
    cards are taken from the lines that dealt them."""
    try:
        cards = parse_cards(old_cards)
    except ValueError:
        b.note(f"the repeated cards [{old_cards[:60]}] cannot be read", line)
        return []
    return [Restatement(Restated.CARDS, player, b.street, cards=cards, line=line)]


def summary_player(text: str, seat_number: int, seats: Sequence[tuple[int, str]]) -> tuple[str, str] | None:
    """(player, what follows his name) of a summary seat line ``Seat N: name ...``, the player found by
    his seat number, so that a name containing a verb ("Al folded") is not cut at it; None when the
    seat is not one of the hand's or the line does not carry that player's name."""
    for number, player in seats:
        if number == seat_number:
            prefix = f"Seat {seat_number}: {player}"
            start = text.find(prefix)
            if start < 0 or (len(text) > start + len(prefix) and text[start + len(prefix)] != " "):
                return None
            return player, _TAGS.sub("", text[start + len(prefix):].strip())
    return None


#: what a summary tail says, as its words read (cards and amounts still text): ("folded", street or None)
#: or ("showed", cards, description | None, won amounts, lost) / ("mucked", cards | None, description | None,
#: won amounts, lost) / ("", None, None, won amounts, lost)
TailWords = tuple[Any, ...]


@lru_cache(maxsize=8192)
def _tail_words(tail: str) -> TailWords:
    """The words of a summary tail (a pure function of the text, so a tail met again is not searched
    again: "folded on the 3rd Street (didn't bet)" recurs in nearly every hand)."""
    folded_on = _FOLDED_ON.match(tail)
    if folded_on is not None and folded_on.group(1).lower() in _STREET_WORDS:
        return ("folded", _STREET_WORDS[folded_on.group(1).lower()])
    if _FOLDED.match(tail):
        return ("folded", None)
    won = tuple(bracketed or bare for bracketed, bare in _WON.findall(tail))
    lost = not won and bool(_LOST.search(tail) or tail.lower().startswith("lost"))
    showed = _SHOWED.match(tail)
    if showed is not None:
        described = _WITH.search(tail)
        return ("showed", showed.group(1), described.group(1).strip() if described else None, won, lost)
    mucked = _MUCKED.search(tail)
    if mucked is not None:
        return ("mucked", mucked.group(1), (mucked.group(2) or "").strip() or None, won, lost)
    return ("", None, None, won, lost)


def summary_restatements(tail: str, player: str, b: HandBuilder, line: int) -> list[Restatement]:
    """What a summary seat line (the text after the player's name) says again about the player."""
    words = _tail_words(tail)
    if words[0] == "folded":
        return [Restatement(Restated.FOLDED, player, words[1], line=line)]
    kind, cards_text, text, won, lost = words
    found: list[Restatement] = []
    try:
        if kind == "showed":
            found.append(Restatement(Restated.SHOWED, player, cards=parse_cards(cards_text), text=text, line=line))
        elif kind == "mucked":
            cards: tuple[Card | None, ...] = parse_cards(cards_text) if cards_text is not None else ()
            found.append(Restatement(Restated.MUCKED, player, cards=cards, text=text, line=line))
    except ValueError:
        b.note(f"the summary's cards for {player} cannot be read", line)
    if won:
        try:
            found.append(Restatement(Restated.WON, player, amount=sum(b.money(a, line) for a in won), line=line))
        except HandParseError:  # recorded without an amount: the check says it cannot be compared
            b.note(f"the summary's amount for {player} cannot be read", line)
            found.append(Restatement(Restated.WON, player, amount=None, line=line))
    elif lost:
        found.append(Restatement(Restated.LOST, player, amount=0, line=line))
    return found
