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

from lark import Token

from hhtool.model import ActionKind, Half, Hand, RawHand, ShownHand, ShowStatus, Stakes, Street
from hhtool.money import site_amount
from hhtool.sites.base import (
    HandBuilder,
    HandParseError,
    LineGrammar,
    SiteParser,
    load_grammar,
    mark_idle_seats,
    parse_cards,
    parse_datetime,
    tokens_in_order,
    uncalled_excess,
)
from hhtool.sites.common_lines import (
    STREET_MARKERS,
    HandFacts,
    header_match,
    level_called_next,
    pot_number,
    record_common_line,
    stakes_from_forced_bets,
    structure_named,
)
from hhtool.sites.restated import restated_cards, summary_player, summary_restatements

_HAND_START = re.compile(r"Winamax Poker - ")
_HEADER = re.compile(
    r"Winamax Poker - (?P<kind>CashGame|Go Fast \"[^\"]*\"|Tournament \"(?P<tournament>[^\"]*)\"[^\n]*?) - "
    r"HandId: #(?P<hand_id>[\d-]+) - (?P<game>.+?) (?P<limit>fixed limit|pot limit|no limit) "
    r"\((?P<stakes>[^)]*)\) - (?P<when>\d{4}/\d{1,2}/\d{1,2} \d{1,2}:\d{2}(?::\d{2})?)(?: (?P<tz>[A-Z]+))?"
)
_STUD8 = re.compile(r"^(?:7-?card stud hi/?lo|7stud ?(?:hi/?lo|8))$", re.I)
_TOURNAMENT_TABLE = re.compile(r"\((\d+)\)#\d+")
# a call of a raise is looked for up to the next increase or the end of the street
_CALL_SEARCH_ENDS = frozenset({*STREET_MARKERS, "BETS", "RAISES", "BRINGS_IN", "SHOWDOWN_MARKER", "SUMMARY_MARKER"})


def _is_stud8(game: str) -> bool:
    return bool(_STUD8.match(game.strip()))


@dataclass
class _WinamaxState(HandFacts):
    symbol: str = ""
    collected_total: int | None = None  # "Total pot": after rake, uncalled bet included
    bring_in_by: dict[str, int] = field(default_factory=dict)  # this street's bring-in, by player


class WinamaxParser(SiteParser):
    name = "winamax"
    hand_start = _HAND_START

    def sniff(self, head: Sequence[str]) -> bool:
        return any(_HAND_START.match(line) and "HandId: #" in line for line in head[:5])

    def game_of(self, raw: RawHand) -> tuple[str | None, str, bool]:
        match = header_match(raw, _HEADER, "a Winamax hand header", width=160)
        return match["hand_id"], f"{match['game']} {match['limit']}", _is_stud8(match["game"])

    def parse_stud8(self, raw: RawHand) -> Hand:
        grammar = load_grammar("winamax")
        tree = grammar.parse(raw.text)
        header = _HEADER.match(raw.lines[0])
        assert header is not None  # game_of checked it
        tournament = header["kind"].startswith("Tournament")
        play_money = "(play money)" in (raw.lines[1] if len(raw.lines) > 1 else "")
        currency, unit = ("CHIPS", 1) if tournament else ("PLAY", 100) if play_money else ("EUR", 100)
        builder = HandBuilder(self.name, raw, unit=unit, hand_id=header["hand_id"])
        state = _WinamaxState(symbol="€" if "€" in header["stakes"] else "")

        tokens = list(tokens_in_order(tree))
        for index in range(len(tokens)):
            self._handle(tokens, index, grammar, builder, state)

        mark_idle_seats(builder)
        excess = uncalled_excess(builder.actions)
        if excess is not None:
            player, amount, street = excess
            builder.note(
                f"Winamax prints no uncalled-bet line: the {site_amount(amount, unit, state.symbol)} that nobody "
                f"matched ({player}, {street.label} street) is inside the collected amounts, recorded as printed"
            )
        stakes = self._stakes(header["stakes"], header["limit"], builder, state, currency, tournament)
        if state.collected_total is not None:
            state.total_pot = state.collected_total + (state.rake or 0)
            builder.note(
                f"Winamax 'Total pot {site_amount(state.collected_total, unit, state.symbol)}' is net of rake; "
                f"total_pot is stored before rake ({site_amount(state.total_pot, unit, state.symbol)})"
            )
        tournament_id = _TOURNAMENT_TABLE.search(state.table_name or "") if tournament else None
        return builder.build(
            stakes,
            started_at=parse_datetime(header["when"], ["%Y/%m/%d %H:%M:%S", "%Y/%m/%d %H:%M"]),
            timezone=header["tz"],
            tournament_id=tournament_id.group(1) if tournament_id else None,
            game_label=f"{header['game']} {header['limit']}",
            **state.hand_fields(),
        )

    @staticmethod
    def _stakes(text: str, limit: str, b: HandBuilder, state: _WinamaxState, currency: str, tournament: bool) -> Stakes:
        parts = [b.money(part, b.raw.first_line) for part in text.split("/")]
        if len(parts) == 3:
            header_ante, small_bet, big_bet = parts
        elif len(parts) == 2:
            header_ante, (small_bet, big_bet) = None, parts
        else:
            raise HandParseError(b.raw.first_line, f"winamax: stakes not understood: {text!r}")
        return stakes_from_forced_bets(  # ante/small/big from the header; the bring-in as posted
            b,
            small_bet=small_bet,
            big_bet=big_bet,
            currency=currency,
            structure=structure_named(limit),
            is_tournament=tournament,
            table_size=state.table_size,
            ante=header_ante,
        )

    def _handle(self, tokens: list[Token], index: int, grammar: LineGrammar, b: HandBuilder,
                state: _WinamaxState) -> None:
        token = tokens[index]
        kind = token.type
        fields = grammar.fields(token)
        line = b.line_of(token)
        if kind == "TABLE":
            state.table_name, state.table_size = fields[0], int(fields[1] or 0) or None
            state.dealer_seat = int(fields[3]) if fields[3] is not None else None
        elif kind in STREET_MARKERS:
            b.start_street(STREET_MARKERS[kind])
            state.bring_in_by = {}
        elif kind == "DEALT":
            self._dealt(fields, b, state, line)
        elif kind == "BRINGS_IN":
            amount = b.money(fields[1], line)
            b.act(fields[0] or "", ActionKind.BRING_IN, added=amount, all_in=bool(fields[2]), line=line)
            state.bring_in_by[fields[0] or ""] = amount
        elif kind == "RAISES":
            player = fields[0] or ""
            total = self._raise_total(tokens, index, grammar, b, state, player, b.money(fields[2], line), line)
            b.increase(player, to=total, all_in=bool(fields[3]), line=line)
        elif kind == "COLLECTED":
            player, amount, pot_name, side_no, half = fields
            half_of = {"HI": Half.HIGH, "LO": Half.LOW}.get(half or "", Half.UNKNOWN)
            b.award(player or "", b.money(amount, line), pot_number(pot_name, side_no), half_of, line)
        elif kind == "SHOWS":
            self._shows(fields, b, line)
        elif kind == "SUMMARY_SEAT":
            # "won 114€" is printed once per half, "showed [..] and lost with HI : .." / "and won .. with LO : .."
            found = summary_player(token.value, int(fields[0] or 0), [(seat.seat, seat.player) for seat in b.seats])
            if found is not None:
                state.restatements.extend(summary_restatements(found[1], found[0], b, line))
        elif kind == "TOTAL_POT":
            state.collected_total = b.money(fields[0], line)
            state.rake = b.money(fields[1], line) if fields[1] is not None else 0
        else:
            record_common_line(b, kind, fields, line)

    @staticmethod
    def _raise_total(tokens: list[Token], index: int, grammar: LineGrammar, b: HandBuilder, state: _WinamaxState,
                     player: str, stated_to: int, line: int) -> int:
        """The raiser's street total. Winamax leaves the bring-in out of the "to" of the player who
        posted it; the first later call of the same level settles which reading is right, and without
        one the bring-in is added (the only behaviour seen in real files)."""
        bring_in = state.bring_in_by.get(player)
        if not bring_in:
            return stated_to
        called = level_called_next(tokens, index, grammar, b, player, _CALL_SEARCH_ENDS)
        with_bring_in = stated_to + bring_in
        unit, symbol = b.unit, state.symbol
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

    @staticmethod
    def _dealt(fields: tuple[str | None, ...], b: HandBuilder, state: _WinamaxState, line: int) -> None:
        player, first_text, second_text = fields[0] or "", fields[1] or "", fields[2]
        if b.street is Street.THIRD:
            first = parse_cards(first_text)
            if second_text is None and len(first) == 3:
                down, up = first[:2], first[2:]
            elif second_text is not None and len(first) == 2:
                down, up = first, parse_cards(second_text)
            else:
                raise HandParseError(line, f"winamax: 3rd-street deal of {first_text!r} not understood")
            if all(card is not None for card in down):
                state.hero = player
            b.deal(player, down, up, line)
            return
        if second_text is None:
            raise HandParseError(line, f"winamax: {b.street.label}-street deal without a new card")
        # the first bracket repeats the cards dealt to the player before (X for a hidden one)
        state.restatements.extend(restated_cards(b, player, first_text, line))
        b.deal_up_or_down(player, parse_cards(second_text), line)

    @staticmethod
    def _shows(fields: tuple[str | None, ...], b: HandBuilder, line: int) -> None:
        """A hi/lo showdown prints one line per half ("(HI : ...)", "(LO : ...)"): merge them."""
        player, cards_text, description = fields[0] or "", fields[1] or "", fields[2]
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


PARSER = WinamaxParser()
