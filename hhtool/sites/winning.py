"""Winning Poker Network / Americas Cardroom text histories, both exports:

* the old one (``Game started at:`` … ``Game ended at:``, grammar ``winning.lark``): one line per
  dealt card (``received card: [6h]`` or ``received a card.``), tens written ``10``, amounts in
  parentheses are the chips an action adds, street markers shifted by one like old KingsClub
  (``*** Third street ***`` introduces 4th street; streets are counted by deal rounds), and a
  summary with one line per seat (``Bets: … Collects: …``, a leading ``*`` for winners) after
  ``Pot: 7.05. Rake 0.14. JP fee 0.06``;
* the newer Stars-like one (``Hand #… - 7Stud H/L(Fixed Limit) - $0.10/$0.20 - …``, grammar
  ``winning_acr.lark``): raises state the street total, calls and bets the chips added, collect
  lines name the pot (``from side pot-1``), a fold-out's winner appears only in the summary.

Both state the pot *after* rake and jackpot fee; :attr:`Hand.total_pot` is the pot before them
(stated pot + rake + fee) and the jackpot fee goes to :attr:`Hand.fees`. Neither labels halves.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from lark import Token

from hhtool.model import (
    ActionKind,
    Card,
    FailureKind,
    Half,
    Hand,
    RawHand,
    Restated,
    Restatement,
    ShowStatus,
    StatedPot,
    Street,
    Structure,
)
from hhtool.sites.base import (
    HandBuilder,
    HandParseError,
    SiteParser,
    load_grammar,
    mark_idle_seats,
    parse_cards,
    parse_datetime,
    tokens_in_order,
)
from hhtool.sites.common_lines import (
    HandFacts,
    StreetsByDeals,
    cards_dealt_on,
    header_match,
    pot_number,
    record_common_line,
    stakes_from_forced_bets,
    structure_named,
)
from hhtool.sites.restated import restated_cards, summary_player, summary_restatements

_OLD_START = re.compile(r"Game started at: \d{4}/")
_GAME_ID = re.compile(r"Game ID: (\d+) ([\d.,K]+)/([\d.,K]+) (.+?) \(([^()]+)\)(?: (\d+)-max)?$", re.ASCII)
_ACR_HEADER = re.compile(
    r"(?:Game )?Hand #(\d+) - (?:.*?Tournament #(\d+) - )?(.+?) ?\((Fixed Limit|Pot Limit|No Limit)\) ?- "
    r"(?:Level \S+ )?\(?(\$?)([\d.,]*\d) ?/ ?\$?([\d.,]*\d)(?:,? Ante \$?([\d.,]*\d))?\)? ?- "
    r"(\d{4}/\d{1,2}/\d{1,2} \d{1,2}:\d{2}(?::\d{2})?)(?: ([A-Z]{2,5}))?$",
    re.ASCII,  # int() and the date would read other scripts' digits
)
_HAND_START = re.compile(r"Game started at: |(?:Game )?Hand #\d+ - ")
_OLD_STUD8 = "Seven Cards Stud HiLow"
_ACR_STUD8 = "7Stud H/L"
_OLD_MARKERS = {"Third": 3, "Fourth": 4, "Fifth": 5, "Sixth": 6, "Seventh": 7}
_WON = re.compile(r" (?:won|collected) \$?([\d.,]+)")
_MUCKED_CARDS = re.compile(r"^ \[([^\]]*)\]")


def _thousands(text: str) -> str:
    """Expand the old export's thousands suffix (tournament stakes); other text is unchanged.

    >>> _thousands("1.5K"), _thousands("2K"), _thousands("0.40")
    ('1500', '2000', '0.40')
    """
    if not text.endswith("K"):
        return text
    whole, _, fraction = text[:-1].partition(".")
    return whole + (fraction + "000")[:3]


@dataclass
class _WinningState(HandFacts):
    fee: int = 0
    any_all_in: bool = False
    folded: set[str] = field(default_factory=set)
    # old format: streets counted by deal rounds, cards gathered per player until the round ends
    streets: StreetsByDeals = field(default_factory=StreetsByDeals)
    dealt: dict[str, list[tuple[Card | None, int]]] = field(default_factory=dict)
    # new format
    play_money: bool = False
    summary_wins: list[tuple[str, int, int]] = field(default_factory=list)  # (player, amount, line)
    at_showdown: bool = False  # past the SHOW DOWN marker: pot lines state the pots' final amounts


class WinningParser(SiteParser):
    name = "winning"
    hand_start = _HAND_START

    def sniff(self, head: Sequence[str]) -> bool:
        if len(head) >= 2 and _OLD_START.match(head[0]) and _GAME_ID.match(head[1]):
            return True
        return bool(head) and bool(_ACR_HEADER.match(head[0]))

    def game_of(self, raw: RawHand) -> tuple[str | None, str, bool]:
        first = raw.lines[0]
        if _OLD_START.match(first):
            game_id = _GAME_ID.match(raw.lines[1]) if len(raw.lines) > 1 else None
            if game_id is None:
                raise HandParseError(raw.first_line + 1, f"no 'Game ID:' line after the start: {raw.lines[1:2]!r}")
            return game_id.group(1), game_id.group(5), game_id.group(5) == _OLD_STUD8
        header = header_match(raw, _ACR_HEADER, "a Winning hand header")
        label = f"{header.group(3)}({header.group(4)})"
        return header.group(1), label, header.group(3).strip() == _ACR_STUD8

    def parse_stud8(self, raw: RawHand) -> Hand:
        if _OLD_START.match(raw.lines[0]):
            return self._parse_old(raw)
        return self._parse_acr(raw)

    # ------------------------------------------------------------ old "Game started at:" export

    def _parse_old(self, raw: RawHand) -> Hand:
        grammar = load_grammar("winning")
        tree = grammar.parse(raw.text)
        game_id = _GAME_ID.match(raw.lines[1])
        assert game_id is not None  # game_of accepted it
        table = game_id.group(4)
        play_money = table.startswith("PM ")
        builder = HandBuilder(self.name, raw, unit=1 if play_money else 100, hand_id=game_id.group(1))
        state = _WinningState(table_name=table, table_size=int(game_id.group(6)) if game_id.group(6) else None)
        started: datetime | None = None
        for token in tokens_in_order(tree):
            fields = grammar.fields(token)
            if token.type not in ("CARD", "HIDDEN_CARD"):
                self._flush_deals(builder, state)
            if token.type == "GAME_STARTED":
                started = datetime(*(int(part or 0) for part in fields))  # type: ignore[misc]
            else:
                self._handle_old(token, fields, builder, state)
        self._flush_deals(builder, state)
        # the old export says "sitting out" only in passing: a seat that posts nothing and gets no card sat out
        mark_idle_seats(builder, note=False)
        state.streets.check_dealt()
        self._finish(builder, state)
        stakes = stakes_from_forced_bets(  # small/big bet from the header; ante and bring-in as posted
            builder,
            small_bet=builder.money(_thousands(game_id.group(2))),
            big_bet=builder.money(_thousands(game_id.group(3))),
            currency="PLAY" if play_money else "USD",
            structure=Structure.FIXED_LIMIT,
            is_tournament=False,
            table_size=state.table_size,
        )
        return builder.build(stakes, started_at=started, game_label=game_id.group(5), fees=state.fee, **state.hand_fields())

    def _handle_old(self, token: Token, fields: tuple[str | None, ...], b: HandBuilder, state: _WinningState) -> None:
        kind = token.type
        line = b.line_of(token)
        player = (fields[0] or "") if fields else ""
        if kind == "BUTTON":
            state.dealer_seat = int(player)
        elif kind == "STREET_MARKER":
            number = state.streets.marker_number(_OLD_MARKERS[player])
            if number > Street.SEVENTH:
                raise HandParseError(line, f"street marker {token.value!r} does not fit this hand's streets")
            state.streets.announce(Street(number), line)
        elif kind in ("CARD", "HIDDEN_CARD"):
            self._card(player, Card.parse(fields[1] or "") if kind == "CARD" else None, b, state, line)
        elif kind == "RAISES":  # the chips added, like a bet
            record_common_line(b, "BETS", fields, line)
        elif kind == "ALL_IN":
            self._all_in(player, fields[1], b, state, line)
        elif kind == "FOLDS":
            b.act(player, ActionKind.FOLD, line=line)
            state.folded.add(player)
        elif kind == "MUCKS_CARDS":
            b.show(player, ShowStatus.MUCKED, line=line)
        elif kind == "POT":
            self._stated_pot(fields, b, state, line)
        elif kind == "SUMMARY_PLAYER":
            self._summary_player(fields, b, state, line)
        else:
            record_common_line(b, kind, fields, line)

    def _card(self, player: str, card: Card | None, b: HandBuilder, state: _WinningState, line: int) -> None:
        if not state.dealt:  # the first card of a deal round starts the next street
            state.streets.start_round(b, line)
        state.dealt.setdefault(player, []).append((card, line))

    @staticmethod
    def _flush_deals(b: HandBuilder, state: _WinningState) -> None:
        for player, dealt in state.dealt.items():
            cards = tuple(card for card, _ in dealt)
            line = dealt[0][1]
            if len(cards) != cards_dealt_on(b.street):
                raise HandParseError(line, f"{player} receives {len(cards)} cards on {b.street.label} street")
            if b.street is Street.THIRD and cards[0] is not None and cards[1] is not None:
                state.hero = player
            b.deal_new_cards(player, cards, line)
        state.dealt = {}

    @staticmethod
    def _all_in(player: str, amount_text: str | None, b: HandBuilder, state: _WinningState, line: int) -> None:
        state.any_all_in = True
        if amount_text is None:  # a disconnected player's whole remaining stack
            stack = b.seats[[seat.player for seat in b.seats].index(player)].stack or 0
            amount = stack - sum(a.amount for a in b.actions if a.player == player)
        else:
            amount = b.money(amount_text, line)
        b.act_all_in(player, amount, line)

    @staticmethod
    def _summary_player(fields: tuple[str | None, ...], b: HandBuilder, state: _WinningState, line: int) -> None:
        _star, player, description, cards, low, mucks, bets, collects, wins_or_loses, result = fields
        player = player or ""
        amount = b.money(collects, line)
        # "Wins: 0.02" / "Loses: 0.15" restates his net result
        net = b.money(result, line) * (-1 if wins_or_loses == "Loses" else 1)
        state.restatements.append(Restatement(Restated.NET, player, amount=net, line=line))
        if amount:
            b.award(player, amount, None if state.any_all_in else 0, Half.UNKNOWN, line)
        already_shown = any(shown.player == player for shown in b.showdown)
        if cards is not None:
            b.show(player, ShowStatus.SHOWN, parse_cards(cards), description, low, line)
        elif mucks and not already_shown:
            b.show(player, ShowStatus.MUCKED, line=line)
        elif not mucks and not already_shown and player not in state.folded and any(d.player == player for d in b.deals):
            b.show(player, ShowStatus.NOT_SHOWN, line=line)
        put_in = sum(a.amount for a in b.actions if a.player == player) - sum(
            r.amount for r in b.uncalled if r.player == player
        )
        if b.money(bets, line) != put_in:
            b.note(f"the summary's Bets {bets} for {player} but the actions put in {put_in}", line)

    # ------------------------------------------------------------ newer "Hand #" export

    def _parse_acr(self, raw: RawHand) -> Hand:
        grammar = load_grammar("winning_acr")
        tree = grammar.parse(raw.text)
        header = _ACR_HEADER.match(raw.lines[0])
        assert header is not None  # game_of accepted it
        tournament = header.group(2)
        play_money = "(Play Money)" in (raw.lines[1] if len(raw.lines) > 1 else "")
        unit = 1 if tournament or play_money or not header.group(5) else 100
        builder = HandBuilder(self.name, raw, unit=unit, hand_id=header.group(1))
        state = _WinningState()
        for token in tokens_in_order(tree):
            self._handle_acr(token, grammar.fields(token), builder, state)
        if not builder.awards:  # a fold-out's winner is named only in the summary
            for player, amount, line in state.summary_wins:
                builder.award(player, amount, None if state.any_all_in else 0, Half.UNKNOWN, line)
        self._finish(builder, state)
        currency = "PLAY" if play_money else "CHIPS" if unit == 1 else "USD"
        stakes = stakes_from_forced_bets(  # small/big bet from the header; ante and bring-in as posted
            builder,
            small_bet=builder.money(header.group(6), raw.first_line),
            big_bet=builder.money(header.group(7), raw.first_line),
            currency=currency,
            structure=structure_named(header.group(4)),
            is_tournament=tournament is not None,
            table_size=state.table_size,
            ante=builder.money(header.group(8), raw.first_line) if header.group(8) else None,  # the 2026 header states it
        )
        return builder.build(
            stakes,
            started_at=parse_datetime(header.group(9), ["%Y/%m/%d %H:%M:%S", "%Y/%m/%d %H:%M"]),
            timezone=header.group(10),
            tournament_id=tournament,
            game_label=f"{header.group(3)}({header.group(4)})",
            fees=state.fee,
            **state.hand_fields(),
        )

    def _handle_acr(self, token: Token, fields: tuple[str | None, ...], b: HandBuilder, state: _WinningState) -> None:
        kind = token.type
        line = b.line_of(token)
        player = (fields[0] or "") if fields else ""
        if kind == "TABLE":
            state.table_name, state.table_size = player, int(fields[1] or 0) or None
            state.dealer_seat = int(fields[3]) if fields[3] else None
        elif kind == "STREET_MARKER":
            street = Street(int(player))
            if street <= b.street and b.deals:
                raise HandParseError(line, f"{street.label}-street marker after {b.street.label} street")
            b.start_street(street)
        elif kind == "DEALT":
            self._dealt_acr(player, fields[1] or "", fields[2], b, state, line)
        elif kind in ("ANTE", "BRINGS_IN", "BETS", "CALLS"):
            state.any_all_in |= bool(fields[-1])  # the last group is the all-in marker
            record_common_line(b, kind, fields, line)
        elif kind == "RAISES":
            all_in = bool(fields[-1])
            state.any_all_in |= all_in
            action = b.increase(player, to=b.money(fields[2], line), all_in=all_in, line=line)
            if action.amount != b.money(fields[1], line):
                already = action.to_amount - action.amount
                b.note(f"raise of {fields[1]} to {fields[2]} but {player} had {already} in", line)
        elif kind == "FOLDS":
            b.act(player, ActionKind.FOLD, line=line)
            state.folded.add(player)
        elif kind == "COLLECTED":
            b.award(player, b.money(fields[1], line), pot_number(fields[2], fields[3]), Half.UNKNOWN, line)
        elif kind == "TOTAL_POT":
            self._stated_pot(fields, b, state, line)
        elif kind == "SHOWDOWN_MARKER":
            state.at_showdown = True
        elif kind == "POT_STATUS":
            if state.at_showdown:  # each pot after rake and fee, as the showdown settles it
                pot = int(fields[1]) if fields[1] else 0
                state.stated_pots.append(StatedPot(pot, b.money(fields[2], line), True, line))
        elif kind == "SUMMARY_SEAT":
            self._summary_seat_acr(fields, b, state, line)
            found = summary_player(token.value, int(fields[0] or 0), [(seat.seat, seat.player) for seat in b.seats])
            if found is not None:
                state.restatements.extend(summary_restatements(found[1], found[0], b, line))
        else:
            record_common_line(b, kind, fields, line)

    @staticmethod
    def _dealt_acr(player: str, first: str, second: str | None, b: HandBuilder, state: _WinningState, line: int) -> None:
        if b.street is Street.THIRD and second is None:
            cards = parse_cards(first)
            if len(cards) == 3:  # the hero sees his own two down cards
                state.hero = player
                b.deal(player, cards[:2], cards[2:], line)
            elif len(cards) == 1:
                b.deal(player, (None, None), cards, line)
            else:
                raise HandParseError(line, f"3rd-street deal of {len(cards)} cards")
            return
        new_cards = parse_cards(second if second is not None else first)
        if len(new_cards) != 1:
            raise HandParseError(line, f"{b.street.label}-street deal of {len(new_cards)} new cards")
        if second is not None:  # the first bracket repeats the cards dealt to the player before
            state.restatements.extend(restated_cards(b, player, first, line))
        b.deal_up_or_down(player, new_cards, line)

    @staticmethod
    def _summary_seat_acr(fields: tuple[str | None, ...], b: HandBuilder, state: _WinningState, line: int) -> None:
        _seat, player, verb, rest = fields
        player, rest = player or "", rest or ""
        won = _WON.search(f" {verb}{rest}")
        if won and verb != "folded":
            state.summary_wins.append((player, b.money(won.group(1), line), line))
        mucked = _MUCKED_CARDS.search(rest)
        if verb == "mucked" and mucked:
            b.reveal_mucked(player, parse_cards(mucked.group(1)), line=line)

    # ------------------------------------------------------------ shared

    @staticmethod
    def _stated_pot(fields: tuple[str | None, ...], b: HandBuilder, state: _WinningState, line: int) -> None:
        """Pot, rake and jackpot fee as stated: the pot after rake and fee; total_pot is before them."""
        stated = b.money(fields[0], line)
        rake = b.money(fields[1], line) if fields[1] else 0  # tournaments state no rake
        state.fee = b.money(fields[2], line) if fields[2] else 0
        state.rake, state.total_pot = rake, stated + rake + state.fee

    @staticmethod
    def _finish(b: HandBuilder, state: _WinningState) -> None:
        if not b.awards:
            raise HandParseError(b.raw.last_line, "hand ends early (truncated or incomplete hand): nobody collects the pot",
                                 FailureKind.ENDS_EARLY)
        if len({seat.player for seat in b.seats if not seat.sitting_out} - state.folded) == 1:
            b.label_awards_whole()  # a pot nobody contested is not split


PARSER = WinningParser()
