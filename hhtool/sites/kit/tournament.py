"""What several sites state alike about a tournament: its buy-in, as a header writes it ("$10+$1",
"$200+$50+$15 USD", "100+9", "50FPP", "Freeroll"), and the lines that say how a player finished
("X finished the tournament in 2nd place and received $12.34.", "X wins the tournament and receives
$29.38 - congratulations!").

Neither ever costs the hand: a buy-in or a finish line that cannot be read as a whole is kept as far
as it can be (or not at all), with a note saying what was not understood, and the hand is stored.
A site module finds the text (where its header writes the buy-in, which terminal of its grammar is
a finish line) and hands it here; a hand of another game of a mixed tournament, which is not stored,
keeps the finishes it states (:func:`finishes_in`). Imports point one way: this module imports only the model and the
sites' ``base``, ``common_lines``, ``facts``, ``line_rules`` and ``lines``.

>>> stated_buy_in(["$10", "$1"], None, 1, [])
BuyIn(amount=1000, fee=100, bounty=0, currency='USD', unit=100)
>>> stated_buy_in(["$200", "$50", "$15"], "USD", 1, [])  # PokerStars' knockouts: prize pool, bounty, fee
BuyIn(amount=20000, fee=1500, bounty=5000, currency='USD', unit=100)
>>> stated_buy_in(["100", "9"], None, 1, []), stated_buy_in(["50"], "FPP", 1, [])
(BuyIn(amount=100, fee=9, bounty=0, currency='PLAY', unit=1), BuyIn(amount=50, fee=0, bounty=0, currency='FPP', unit=1))
>>> finish_of("Hero", "wins the tournament", " and receives $29.38 - congratulations!", None, 7, [])
Finish(player='Hero', place=1, prize=2938, currency='USD', unit=100, line=7)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from hhtool.model import BuyIn, Finish, Note, RawHand
from hhtool.sites.kit.base import MAX_AMOUNT, MAX_COUNT, HandBuilder, HandParseError, parse_money
from hhtool.sites.kit.common_lines import CURRENCY_OF_SYMBOL
from hhtool.sites.kit.line_rules import named
from hhtool.sites.kit.lines import LINE_FLAGS, LineGrammar, LineMatcher, LineToken, candidate, match_naming_seated
from hhtool.sites.kit.stated import StatedHand

#: one part of a buy-in or a prize as sites write it: a currency symbol, digits (thousands separated by
#: commas), decimals
AMOUNT = r"[$€£]?\d[\d,]*(?:\.\d+)?"
#: the codes a buy-in or a prize may carry beside its amounts: money, then PokerStars' player points
#: and StarsCoin (amounts of those are kept in their own unit, never taken for money)
MONEY_CODES = ("USD", "EUR", "GBP", "CAD")
POINT_CODES = ("FPP", "SC")
CODE = "|".join((*MONEY_CODES, *POINT_CODES))

_FINISH_REST = re.compile(
    rf"(?: in (?P<place>\d+)(?:st|nd|rd|th) place)?"
    rf"(?:,? and receive[sd]? (?P<prize>{AMOUNT})(?: ?(?P<code>{CODE}))?)?"
    r"\.?(?: - congratulations!)?"
)
_PLACE = re.compile(r" in (\d+)(?:st|nd|rd|th) place\b", re.ASCII)


def _currency_and_unit(parts: Sequence[str], code: str | None) -> tuple[str | None, int]:
    """The currency and unit of amounts written as ``parts`` with ``code``: a symbol or a money code is
    money (cents); a point code or bare numbers (play money) are counted in whole units, or
    hundredths where a part has decimals. None: the parts name two currencies."""
    symbols = {part[0] for part in parts if part[:1] in CURRENCY_OF_SYMBOL}
    if len(symbols) > 1:
        return None, 0
    if symbols or code in MONEY_CODES:
        return (code if code in MONEY_CODES else CURRENCY_OF_SYMBOL[symbols.pop()]), 100
    return (code or "PLAY"), (100 if any("." in part for part in parts) else 1)


def _amount(text: str, unit: int) -> int | None:
    """``text`` (symbol stripped) in units, or None when it is no amount or more than the store holds."""
    try:
        value = parse_money(text.lstrip("$€£"), unit)
    except HandParseError:
        return None
    return value if 0 <= value <= MAX_AMOUNT else None


def stated_buy_in(parts: Sequence[str], code: str | None, line: int, notes: list[Note]) -> BuyIn | None:
    """The buy-in a header writes as ``parts`` ("$10", "$1") and an optional ``code`` ("USD", "FPP"): one
    part is the prize-pool part alone, two are it and the fee, three are it, the bounty and the fee (the
    order PokerStars writes a knockout's in). Bare numbers without a code are play money. None, with a
    note at ``line``, when the parts cannot be read as one buy-in."""
    written = "+".join(parts) + (f" {code}" if code else "")
    currency, unit = _currency_and_unit(parts, code)
    amounts = [_amount(part, unit) for part in parts] if currency is not None and 1 <= len(parts) <= 3 else [None]
    if any(amount is None for amount in amounts):
        notes.append(Note(f"the tournament's buy-in {written[:80]!r} is not understood: kept without one", line))
        return None
    values = [amount or 0 for amount in amounts]
    prize_pool, fee, bounty = values[0], (values[-1] if len(values) > 1 else 0), (values[1] if len(values) == 3 else 0)
    return BuyIn(prize_pool, fee, bounty, currency, unit)


FREEROLL = BuyIn(0, 0, 0, None, 1)


def finish_of(player: str, verb: str, rest: str, buy_in: BuyIn | None, line: int, notes: list[Note]) -> Finish:
    """What a finish line says of ``player``: ``verb`` is "wins the tournament" (first place) or "finished
    the tournament", ``rest`` the words after it. A prize without a currency of its own is in the buy-in's
    (play money's bare "200.00"). What the line says beyond the forms known is noted, never guessed:
    the place where it names one, no prize."""
    place: int | None = 1 if verb.startswith("wins") else None
    whole = _FINISH_REST.fullmatch(rest)
    if whole is None:
        named = _PLACE.search(rest)
        place = int(named.group(1)) if named else place
        notes.append(Note(f"a finish line not fully understood ({rest.strip()[:80]!r}): kept as "
                          + (f"place {place}" if place else "no place") + ", no prize", line))
        return Finish(player, _counted(place, line, notes), None, None, 100, line)
    if whole.group("place"):
        place = int(whole.group("place"))
    prize_text, code = whole.group("prize"), whole.group("code")
    if prize_text is None:
        return Finish(player, _counted(place, line, notes), None, None, 100, line)
    currency: str | None
    if prize_text[0] in CURRENCY_OF_SYMBOL or code:
        currency, unit = _currency_and_unit([prize_text], code)
    elif buy_in is not None and buy_in.currency is not None:
        currency, unit = buy_in.currency, buy_in.unit
    else:
        currency, unit = None, (100 if "." in prize_text else 1)
    prize = _amount(prize_text, unit) if unit else None
    if prize is None:
        notes.append(Note(f"the prize {prize_text[:40]!r} of a finish line is not understood: kept without it", line))
        currency, unit = None, 100
    return Finish(player, _counted(place, line, notes), prize, currency, unit, line)


def _counted(place: int | None, line: int, notes: list[Note]) -> int | None:
    if place is not None and not 1 <= place <= MAX_COUNT:
        notes.append(Note(f"a finishing place {place} out of range: kept without it", line))
        return None
    return place


def _read_finish(b: HandBuilder, facts: StatedHand, token: LineToken) -> None:
    facts.finishes.append(finish_of(token["player"] or "", token["verb"] or "", token["rest"] or "", facts.buy_in,
                                    token.number, b.notes))


#: the reader of a grammar's finish line, whose groups are the ``player``, the ``verb`` ("wins the tournament",
#: "finished the tournament") and the ``rest`` of the line; a site declares it for its own terminal
FINISH_LINE = named(_read_finish, ("player", "verb", "rest"))


#: the terminal of a finish line in the grammars that have one
FINISHED = "FINISHED"


def finishes_in(grammar: LineGrammar, raw: RawHand, buy_in: BuyIn | None) -> tuple[Finish, ...]:
    """The finishes the lines of a hand of another game state (a mixed tournament's hand hhtool does not
    store): each line that the grammar's finish line matches with a seated player's name in it (the
    names its ``SEAT`` lines give; a chat line quoting a finish names no one so), read as
    :func:`finish_of` reads it. What it does not understand is left out; nothing here raises."""
    terminals = {terminal.name: terminal.pattern.to_regexp() for terminal in grammar.lark.terminals}
    if FINISHED not in terminals or "SEAT" not in terminals:
        return ()
    seat = re.compile(terminals["SEAT"], LINE_FLAGS)
    names = sorted({found.groups()[grammar.seat_name_group] for line in raw.lines
                    if (found := seat.fullmatch(line.rstrip())) is not None}, key=len, reverse=True)
    finishes: list[Finish] = []
    wanted = LineMatcher([candidate(FINISHED, terminals[FINISHED])])
    for index, line in enumerate(raw.lines):
        if " the tournament" not in line:
            continue
        read = match_naming_seated(wanted, line.rstrip(), names, frozenset())
        if read is not None and len(read[1]) == 3:
            player, verb, rest = read[1]
            finishes.append(finish_of(player or "", verb or "", rest or "", buy_in, raw.first_line + index, []))
    return tuple(finishes)


def exported_tournament(buy_in: Any, finishes: Sequence[Any], line: int) -> dict[str, Any]:
    """The ``buy_in`` and ``finishes`` fields of a Hand from an hhtool PHH export's ``_hhtool_buy_in`` (a
    table of the BuyIn's fields, or nothing) and ``_hhtool_finishes`` (a table per Finish), at ``line``."""
    def optional(value: Any, kind: Any) -> Any:
        return None if value is None else kind(value)

    stated = None if not isinstance(buy_in, dict) else BuyIn(
        int(buy_in["amount"]), int(buy_in.get("fee", 0)), int(buy_in.get("bounty", 0)),
        optional(buy_in.get("currency"), str), int(buy_in.get("unit", 1)))
    return {"buy_in": stated, "finishes": tuple(
        Finish(str(f["player"]), optional(f.get("place"), int), optional(f.get("prize"), int),
               optional(f.get("currency"), str), int(f.get("unit", 100)), line) for f in finishes)}
