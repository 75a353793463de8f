"""Winamax text histories (cash tables, play money, tournaments).

Quirks kept here:

* the header gives ante/small bet/big bet (``5€/25€/50€``); the bring-in is read from the hand;
* there is no "Uncalled bet" line: an unmatched bet stays inside the collected amounts and inside
  "Total pot", which is also net of rake. The collects are recorded as printed (no
  UncalledReturn) with a note; ``total_pot`` is stored before rake as the model defines it;
* an uncontested Stud/8 pot is printed as ``pot(HI)`` + ``pot(LO)``; halves are recorded as labelled;
* a raise by the player who posted the bring-in prints a "to" amount that leaves the bring-in out
  (``raises -6.10€ to 18.90€`` for a real total of 28.90€): the next call decides, see ``_raise_total``.

>>> PARSER.sniff(["Winamax Poker - CashGame - HandId: #1-2-3 - 7-Card Stud Hi/Lo fixed limit (5€/25€/50€) - x"])
True
>>> _is_stud8("7-Card Stud Hi/Lo"), _is_stud8("7-Card Stud"), _is_stud8("Razz")
(True, False, False)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from hhtool.model import ActionKind, Card, RawHand, ShownHand, ShowStatus, Stakes, Street
from hhtool.money import site_amount
from hhtool.sites.kit.base import (
    HandBuilder,
    HandParseError,
    mark_idle_seats,
    parse_cards,
    uncalled_excess,
)
from hhtool.sites.kit.common_lines import (
    STREET_MARKERS,
    header_match,
    level_called_next,
    stakes_from_forced_bets,
    stated_start,
    structure_named,
)
from hhtool.sites.kit.line_rules import LineTable
from hhtool.sites.kit.line_site import LineSiteParser
from hhtool.sites.kit.lines import LineToken
from hhtool.sites.kit.restated import restated_cards, summary_player, summary_restatements
from hhtool.sites.kit.stated import StatedHand

_HAND_START = re.compile(r"Winamax Poker - ")
_HEADER = re.compile(
    r"Winamax Poker - (?P<kind>CashGame|Go Fast \"[^\"]*\"|Tournament \"(?P<tournament>[^\"]*)\"[^\n]*?) - "
    r"HandId: #(?P<hand_id>[\d-]+) - (?P<game>.+?) (?P<limit>fixed limit|pot limit|no limit) "
    r"\((?P<stakes>[^)]*)\) - (?P<when>\d+/\d+/\d+ \d+:\d+(?::\d+)?)(?![\d:])(?: (?P<tz>[A-Z]+))?"
)
_STUD8 = re.compile(r"^(?:7-?card stud hi/?lo|7stud ?(?:hi/?lo|8))$", re.I)
_TOURNAMENT_TABLE = re.compile(r"\((\d+)\)#\d+")
# a call of a raise is looked for up to the next increase or the end of the street
_CALL_SEARCH_ENDS = frozenset({*STREET_MARKERS, "BETS", "RAISES", "BRINGS_IN", "SHOWDOWN_MARKER", "SUMMARY_MARKER"})


def _is_stud8(game: str) -> bool:
    return bool(_STUD8.match(game.strip()))


@dataclass
class _WinamaxFacts(StatedHand):
    symbol: str = ""
    stakes_text: str = ""  # "5€/25€/50€": ante/small/big bet, or small/big bet
    collected_total: int | None = None  # "Total pot": after rake, uncalled bet included
    bring_in_by: dict[str, int] = field(default_factory=dict)  # this street's bring-in, by player


# BOARD is read by nothing, as before (the contract test found it unread): the community card, if any,
# is not taken from the summary here
_LINES = LineTable[_WinamaxFacts](order_only=("HEADER", "ANTE_MARKER", "SHOWDOWN_MARKER", "SUMMARY_MARKER", "BOARD"))


@_LINES.on("THIRD_MARKER", "FOURTH_MARKER", "FIFTH_MARKER", "SIXTH_MARKER", "SEVENTH_MARKER")
def _street(b: HandBuilder, facts: _WinamaxFacts, token: LineToken) -> None:
    b.start_street(STREET_MARKERS[token.type])
    facts.bring_in_by = {}


@_LINES.on("BRINGS_IN", reads=("player", "amount", "all_in"))
def _brings_in(b: HandBuilder, facts: _WinamaxFacts, token: LineToken) -> None:
    player, line = token["player"] or "", token.number
    amount = b.money(token["amount"], line)
    b.act(player, ActionKind.BRING_IN, added=amount, all_in=bool(token["all_in"]), line=line)
    facts.bring_in_by[player] = amount


@_LINES.on("RAISES", reads=("player", "to", "all_in"))
def _raises(b: HandBuilder, facts: _WinamaxFacts, token: LineToken) -> None:
    player, line = token["player"] or "", token.number
    total = _raise_total(token, b, facts, player, b.money(token["to"], line))
    b.increase(player, to=total, all_in=bool(token["all_in"]), line=line)


@_LINES.on("SUMMARY_SEAT", reads=("seat",))
def _summary_seat(b: HandBuilder, facts: _WinamaxFacts, token: LineToken) -> None:
    # "won 114€" is printed once per half, "showed [..] and lost with HI : .." / "and won .. with LO : .."
    found = summary_player(token.value, int(token["seat"] or 0), [(seat.seat, seat.player) for seat in b.seats])
    if found is not None:
        facts.restatements.extend(summary_restatements(found[1], found[0], b, token.number))


@_LINES.on("TOTAL_POT", reads=("total", "rake"))
def _total_pot(b: HandBuilder, facts: _WinamaxFacts, token: LineToken) -> None:
    """Winamax's "Total pot" is what was collected: after the rake, an uncalled bet included."""
    rake = token["rake"]
    facts.collected_total = b.money(token["total"], token.number)
    facts.rake = b.money(rake, token.number) if rake is not None else 0


def _raise_total(token: LineToken, b: HandBuilder, facts: _WinamaxFacts, player: str, stated_to: int) -> int:
    """The raiser's street total. Winamax leaves the bring-in out of the "to" of the player who
    posted it; the first later call of the same level settles which reading is right, and without
    one the bring-in is added (the only behaviour seen in real files)."""
    bring_in = facts.bring_in_by.get(player)
    if not bring_in:
        return stated_to
    line = token.number
    called = level_called_next(facts.tokens, token.index, b, player, _CALL_SEARCH_ENDS)
    with_bring_in = stated_to + bring_in
    unit, symbol = b.unit, facts.symbol
    if called is None:
        b.note(
            f"Winamax's 'to {site_amount(stated_to, unit, symbol)}' leaves out {player}'s "
            f"{site_amount(bring_in, unit, symbol)} bring-in; recorded as a raise to "
            f"{site_amount(with_bring_in, unit, symbol)} (no call confirms it)",
            line,
        )
        return with_bring_in
    if called != stated_to:
        reading = "the stated amount plus the bring-in" if called == with_bring_in else "neither reading"
        b.note(
            f"{player} 'raises to {site_amount(stated_to, unit, symbol)}' after posting the "
            f"{site_amount(bring_in, unit, symbol)} bring-in; the next call matches "
            f"{site_amount(called, unit, symbol)} ({reading}), recorded as the raise total",
            line,
        )
    return called


@_LINES.on("DEALT", reads=("player", "cards", "new"))
def _dealt(b: HandBuilder, facts: _WinamaxFacts, token: LineToken) -> None:
    player, first_text, second_text, line = token["player"] or "", token["cards"] or "", token["new"], token.number
    if b.street is Street.THIRD:
        first = parse_cards(first_text)
        down: tuple[Card | None, ...]
        up: tuple[Card | None, ...]
        if second_text is None and len(first) == 3:
            down, up = first[:2], first[2:]
        elif second_text is not None and len(first) == 2:
            down, up = first, parse_cards(second_text)
        else:
            raise HandParseError(line, f"winamax: 3rd-street deal of {first_text!r} not understood")
        if all(card is not None for card in down):
            facts.hero = player
        b.deal(player, down, up, line)
        return
    if second_text is None:
        raise HandParseError(line, f"winamax: {b.street.label}-street deal without a new card")
    # the first bracket repeats the cards dealt to the player before (X for a hidden one)
    facts.restatements.extend(restated_cards(b, player, first_text, line))
    b.deal_up_or_down(player, parse_cards(second_text), line)


@_LINES.on("SHOWS", reads=("player", "cards", "hand"))
def _shows(b: HandBuilder, facts: _WinamaxFacts, token: LineToken) -> None:
    """A hi/lo showdown prints one line per half ("(HI : ...)", "(LO : ...)"): merge them."""
    player, cards_text, description, line = token["player"] or "", token["cards"] or "", token["hand"], token.number
    cards = parse_cards(cards_text)
    high_text = low_text = None
    if description is not None:
        label, _, rest = description.partition(" : ")
        if label == "LO":
            low_text = rest
        elif label == "HI":
            high_text = rest
        else:
            high_text = description
    for position, shown in enumerate(b.showdown):
        if shown.player == player:
            b.showdown[position] = ShownHand(
                player, ShowStatus.SHOWN, shown.cards or cards,
                shown.high_text or high_text, shown.low_text or low_text, shown.line,
            )
            return
    b.show(player, ShowStatus.SHOWN, cards, high_text, low_text, line)


class WinamaxParser(LineSiteParser[_WinamaxFacts]):
    name = "winamax"
    hand_start = _HAND_START
    grammar_name = "winamax"
    lines = _LINES

    def sniff(self, head: Sequence[str]) -> bool:
        return any(_HAND_START.match(line) and "HandId: #" in line for line in head[:5])

    def game_of(self, raw: RawHand) -> tuple[str | None, str, bool]:
        match = header_match(raw, _HEADER, "a Winamax hand header", width=160)
        return match["hand_id"], f"{match['game']} {match['limit']}", _is_stud8(match["game"])

    def read_header(self, raw: RawHand) -> _WinamaxFacts:
        header = _HEADER.match(raw.lines[0])
        assert header is not None  # game_of checked it
        tournament = header["kind"].startswith("Tournament")
        play_money = "(play money)" in (raw.lines[1] if len(raw.lines) > 1 else "")
        currency, unit = ("CHIPS", 1) if tournament else ("PLAY", 100) if play_money else ("EUR", 100)
        started_at, notes = stated_start(header["when"], ["%Y/%m/%d %H:%M:%S", "%Y/%m/%d %H:%M"], raw.first_line)
        return _WinamaxFacts(
            hand_id=header["hand_id"],
            unit=unit,
            currency=currency,
            structure=structure_named(header["limit"]),
            is_tournament=tournament,
            game_label=f"{header['game']} {header['limit']}",
            started_at=started_at,
            notes=notes,
            timezone=header["tz"],
            symbol="€" if "€" in header["stakes"] else "",
            stakes_text=header["stakes"],
        )

    def finish(self, b: HandBuilder, facts: _WinamaxFacts) -> None:
        mark_idle_seats(b)
        excess = uncalled_excess(b.actions)
        if excess is not None:
            player, amount, street = excess
            b.note(
                f"Winamax prints no uncalled-bet line: the {site_amount(amount, b.unit, facts.symbol)} that nobody "
                f"matched ({player}, {street.label} street) is inside the collected amounts, recorded as printed"
            )
        tournament_id = _TOURNAMENT_TABLE.search(facts.table_name or "") if facts.is_tournament else None
        facts.tournament_id = tournament_id.group(1) if tournament_id else None

    def stakes(self, b: HandBuilder, facts: _WinamaxFacts) -> Stakes:
        """Ante/small/big bet from the header (or small/big bet alone); the bring-in as posted."""
        parts = [b.money(part, b.raw.first_line) for part in facts.stakes_text.split("/")]
        if len(parts) == 3:
            header_ante, small_bet, big_bet = parts
        elif len(parts) == 2:
            header_ante, (small_bet, big_bet) = None, parts
        else:
            raise HandParseError(b.raw.first_line, f"winamax: stakes not understood: {facts.stakes_text!r}")
        stakes = stakes_from_forced_bets(b, small_bet=small_bet, big_bet=big_bet, currency=facts.currency,
                                         structure=facts.structure, is_tournament=facts.is_tournament,
                                         table_size=facts.table_size, ante=header_ante)
        if facts.collected_total is not None:
            facts.total_pot = facts.collected_total + (facts.rake or 0)
            b.note(
                f"Winamax 'Total pot {site_amount(facts.collected_total, b.unit, facts.symbol)}' is net of rake; "
                f"total_pot is stored before rake ({site_amount(facts.total_pot, b.unit, facts.symbol)})"
            )
        return stakes


PARSER = WinamaxParser()
