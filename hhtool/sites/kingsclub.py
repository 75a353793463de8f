"""KingsClub text histories (Seven Card Stud Hi-Lo, as exported in 2020-2022).

Quirks kept here:

* The January 2021 export prints the 3rd-street deal and betting before any street marker and
  labels each later street one too low (``*** 3RD STREET ***`` introduces 4th street, no 7th
  marker); the 2022 export labels them right. The style is told per hand from whether a deal
  precedes the first marker, and streets are counted by deal rounds, the labels only checked.
* Every amount is the player's total for the street: ``calls 40`` after a bring-in of 10 puts
  in 30 more, ``raises to 625``; the completion is written ``bets 40``.
* No uncalled-bet line: a bet nobody matched silently goes back, which only the summary's net
  result (``Seat 1: Player0 (2,054.59) +329``) shows. The return is derived from the bets and
  kept when the net result confirms it; a disagreement becomes a note.
* No HI/LO labels anywhere (awards are :attr:`Half.UNKNOWN` unless nobody else was left), no
  total pot, and ``wins pot (659)`` lines come after the summary. The ``Rake`` line is left out
  when no rake was taken; the net results, which add up to minus the rake, give it then.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from lark import Token

from hhtool.model import ActionKind, FailureKind, Half, Hand, RawHand, Restated, Restatement, Street
from hhtool.sites.base import HandBuilder, HandParseError, SiteParser, load_grammar, parse_cards, parse_datetime, tokens_in_order
from hhtool.sites.common_lines import (
    HandFacts,
    StreetsByDeals,
    cards_dealt_on,
    header_match,
    record_common_line,
    stakes_from_forced_bets,
    structure_named,
)

_HAND_START = re.compile(r"#\d+: (?:No Limit|Pot Limit|Limit) ")
# read tolerantly: spaces around the slash, a dollar sign, thousands separators; times with or without seconds
_HEADER = re.compile(r"#(\d+): (No Limit|Pot Limit|Limit) (.+?) - \$?(\d(?:[\d.,]*\d)?) ?/ ?\$?(\d(?:[\d.,]*\d)?)$")
_DATE = re.compile(r"\d{4}-\d{1,2}-\d{1,2} \d{1,2}:\d{2}(?::\d{2})?$")
_TOURNAMENT_TABLE = re.compile(r"T(\d+) \[\d+\]")
_STUD8_GAME = "Seven Card Stud Hi-Lo"
_ACTIONS = {"BRINGS_IN", "BETS", "RAISES", "CALLS", "CHECKS", "FOLDS"}


@dataclass
class _KingsState(HandFacts):
    started_at: str | None = None
    streets: StreetsByDeals = field(default_factory=StreetsByDeals)  # 2021 labels are shifted, 2022 ones true
    in_deal_round: bool = False
    folded: set[str] = field(default_factory=set)
    summary_net: dict[str, tuple[int, int]] = field(default_factory=dict)  # player -> (net, line)


class KingsClubParser(SiteParser):
    name = "kingsclub"
    hand_start = _HAND_START

    def sniff(self, head: Sequence[str]) -> bool:
        return len(head) >= 2 and bool(_HEADER.match(head[0])) and bool(_DATE.match(head[1]))

    def game_of(self, raw: RawHand) -> tuple[str | None, str, bool]:
        header = header_match(raw, _HEADER, "a KingsClub hand header")
        structure, game = header.group(2), header.group(3)
        label = f"{structure} {game}"
        if "Hand cancelled" in map(str.strip, raw.lines):
            return header.group(1), f"{label} (hand cancelled)", False
        return header.group(1), label, game == _STUD8_GAME

    def parse_stud8(self, raw: RawHand) -> Hand:
        grammar = load_grammar("kingsclub")
        tree = grammar.parse(raw.text)
        header = _HEADER.match(raw.lines[0])
        assert header is not None  # game_of accepted it
        table_line = raw.lines[2] if len(raw.lines) > 2 else ""
        tournament = _TOURNAMENT_TABLE.search(table_line)
        unit = 1 if tournament else 100
        builder = HandBuilder(self.name, raw, unit=unit, hand_id=header.group(1))
        state = _KingsState()
        for token in tokens_in_order(tree):
            self._handle(token, grammar.fields(token), builder, state)

        self._check_complete(builder, state)
        self._settle_unmatched_bets(builder, state)
        self._settle_rake(builder, state)
        if len({seat.player for seat in builder.seats} - state.folded) == 1:
            builder.label_awards_whole()  # a pot nobody contested is not split
        stakes = stakes_from_forced_bets(  # small/big bet from the header; ante and bring-in as posted
            builder,
            small_bet=builder.money(header.group(4), raw.first_line),
            big_bet=builder.money(header.group(5), raw.first_line),
            currency="CHIPS" if tournament else "USD",
            structure=structure_named(header.group(2)),
            is_tournament=tournament is not None,
            table_size=state.table_size,
        )
        return builder.build(
            stakes,
            started_at=parse_datetime(state.started_at or "", ["%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M"]),
            tournament_id=tournament.group(1) if tournament else None,
            game_label=f"{header.group(2)} {header.group(3)}",
            **state.hand_fields(),
        )

    # ------------------------------------------------------------ token handling

    def _handle(self, token: Token, fields: tuple[str | None, ...], b: HandBuilder, state: _KingsState) -> None:
        kind = token.type
        line = b.line_of(token)
        if kind != "DEALT":
            state.in_deal_round = False
        if kind == "DATE":
            state.started_at = fields[0]
        elif kind == "TABLE":
            state.table_name = fields[0]
            state.table_size = int(fields[1]) if fields[1] else None
            state.dealer_seat = int(fields[2]) if fields[2] else None
        elif kind == "STREET_MARKER":
            self._marker(int(fields[0] or 0), b, state, line)
        elif kind == "DEALT":
            self._dealt(fields[0] or "", fields[1] or "", b, state, line)
        elif kind in _ACTIONS:  # amounts are street totals, not the common lines' chips added
            self._action(kind, fields, b, state, line)
        elif kind == "SUMMARY_SEAT":
            player, net = fields[1] or "", b.money(fields[3], line)
            state.summary_net[player] = (net, line)
            # "Seat 1: Player0 (2,054.59) +329": chips after the hand and the net result, restated
            state.restatements.append(Restatement(Restated.NET, player, amount=net, line=line))
            state.restatements.append(Restatement(Restated.STACK_AFTER, player, amount=b.money(fields[2], line), line=line))
        elif kind == "RAKE":
            state.rake = b.money(fields[0], line)
        elif kind == "WINS":
            self._wins(fields, b, line)
        else:
            record_common_line(b, kind, fields, line)

    @staticmethod
    def _marker(label: int, b: HandBuilder, state: _KingsState, line: int) -> None:
        number = state.streets.marker_number(label)
        if not Street.THIRD <= number <= Street.SEVENTH:
            raise HandParseError(line, f"street marker {label} does not fit this hand's streets")
        state.streets.announce(Street(number), line)

    @staticmethod
    def _dealt(player: str, cards_text: str, b: HandBuilder, state: _KingsState, line: int) -> None:
        if not state.in_deal_round:
            state.in_deal_round = True
            state.streets.start_round(b, line)
        cards = parse_cards(cards_text, hidden=("X",))
        if len(cards) != cards_dealt_on(b.street):
            raise HandParseError(line, f"{b.street.label}-street deal of {len(cards)} cards: {cards_text!r}")
        if b.street is Street.THIRD and cards[0] is not None:
            state.hero = player
        b.deal_new_cards(player, cards, line)

    @staticmethod
    def _action(kind: str, fields: tuple[str | None, ...], b: HandBuilder, state: _KingsState, line: int) -> None:
        player = fields[0] or ""
        announced = state.streets.marker_street
        if announced is not None:
            raise HandParseError(line, f"action after the {announced.label}-street marker but before its deal")
        if kind == "CHECKS":
            b.act(player, ActionKind.CHECK, line=line)
            return
        if kind == "FOLDS":
            b.act(player, ActionKind.FOLD, line=line)
            state.folded.add(player)
            return
        amount, all_in = b.money(fields[1], line), bool(fields[2])
        if kind == "BRINGS_IN":
            b.act(player, ActionKind.BRING_IN, added=amount, all_in=all_in, line=line)
        elif kind == "CALLS":
            b.act(player, ActionKind.CALL, to=amount, all_in=all_in, line=line)
        else:  # BETS and RAISES state the street total
            b.increase(player, to=amount, all_in=all_in, line=line)

    @staticmethod
    def _wins(fields: tuple[str | None, ...], b: HandBuilder, line: int) -> None:
        player, pot_amount, side_no, side_amount, from_amount, from_side = fields
        amount = pot_amount or side_amount or from_amount
        side = side_no or from_side
        b.award(player or "", b.money(amount, line), int(side) if side else 0, Half.UNKNOWN, line)

    # ------------------------------------------------------------ whole-hand checks

    @staticmethod
    def _check_complete(b: HandBuilder, state: _KingsState) -> None:
        last = b.raw.last_line
        seated = [seat.player for seat in b.seats]
        missing = [player for player in seated if player not in state.summary_net]
        if missing:
            raise HandParseError(last, f"hand ends early (truncated or incomplete hand): no summary line for {missing[0]!r}",
                                 FailureKind.ENDS_EARLY)
        if not b.awards:
            raise HandParseError(last, "hand ends early (truncated or incomplete hand): nobody wins the pot",
                                 FailureKind.ENDS_EARLY)
        state.streets.check_dealt()

    @staticmethod
    def _settle_unmatched_bets(b: HandBuilder, state: _KingsState) -> None:
        """Return the part of each street's top bet nobody matched (KingsClub prints no line
        for it); the summary's net results are restatements the RESTATED check compares."""
        stated_returns = {(ret.street, ret.player) for ret in b.uncalled}
        for street in Street:
            totals: dict[str, int] = {}
            last_line: dict[str, int] = {}
            for action in b.actions:
                if action.street is street and action.kind is not ActionKind.ANTE and action.amount:
                    totals[action.player] = max(totals.get(action.player, 0), action.to_amount)
                    last_line[action.player] = action.line
            if not totals:
                continue
            ranked = sorted(totals.items(), key=lambda item: item[1], reverse=True)
            top_player, top = ranked[0]
            second = ranked[1][1] if len(ranked) > 1 else 0
            if top > second and (street, top_player) not in stated_returns:
                b.return_uncalled(top_player, top - second, last_line[top_player], street)
        contributed = _contributions(b)
        for player, (_net, line) in state.summary_net.items():
            if player not in contributed:
                raise HandParseError(line, f"summary names {player!r}, who is not seated in this hand")


    @staticmethod
    def _settle_rake(b: HandBuilder, state: _KingsState) -> None:
        """The net results add up to minus the rake. KingsClub prints no "Rake" line when it took
        none (every such hand seen reconciles with zero), so the nets give the rake then."""
        implied = -sum(net for net, _ in state.summary_net.values())
        if state.rake is None:
            state.rake = implied
            if implied:
                b.note(f"no Rake line, but the summary's net results imply a rake of {implied}")
        elif state.rake != implied:
            b.note(f"Rake {state.rake} but the summary's net results imply {implied}")


def _contributions(b: HandBuilder) -> dict[str, int]:
    totals = {seat.player: 0 for seat in b.seats}
    for action in b.actions:
        totals[action.player] += action.amount
    for ret in b.uncalled:
        totals[ret.player] -= ret.amount
    return totals


PARSER = KingsClubParser()
