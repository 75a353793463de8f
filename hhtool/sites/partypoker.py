"""PartyPoker text histories.

Quirks kept here: every bracketed amount is the chips the action adds ("raises [$17 USD]" after a
$3 bring-in is a raise to $20); only the hero's cards are printed, so opponents get no Deal records;
"Seat 0 is the button" names the dealer; the low is shown on its own malformed line
("Player1 shows8,5,3,2,A  for low."); only the low half is labelled ("wins Lo ($x)"); there is no
summary, no rake, no total pot and no uncalled-bet line (a win includes any bet nobody called).

>>> PARSER.sniff(["Game #11480841734 starts.", "#Game No : 11480841734"])
True
>>> _game_label("$10/$20 USD FL 7 Card Stud Hi-Lo - Monday, February 27, 09:51:26 EST 2012")
'7 Card Stud Hi-Lo'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace

from lark import Token

from hhtool.model import ActionKind, Half, Hand, RawHand, ShownHand, ShowStatus, Structure
from hhtool.sites.base import HandBuilder, HandParseError, SiteParser, load_grammar, parse_cards, parse_datetime, tokens_in_order
from hhtool.sites.common_lines import (
    CURRENCY_OF_SYMBOL,
    HandFacts,
    cards_dealt_on,
    pot_number,
    record_common_line,
    stakes_from_forced_bets,
)

_GAME_STARTS = re.compile(r"Game #(\d+) starts\.$")
_GAME_NO = re.compile(r"#Game No : (\d+)$")
_HISTORY_FOR = re.compile(r"\*{5} Hand History [Ff]or Game (\d+) \*{5}$")
_PREAMBLE = (_GAME_STARTS, _GAME_NO, _HISTORY_FOR)
_HEADER_SPLIT = re.compile(r"^(?P<game>.+?) - (?P<when>[^-]+)$")
# read tolerantly: spaces around the slash, thousands separators, $/€/£, a code after the amounts
_CASH_STAKES = re.compile(
    r"^(?P<symbol>[$€£]?)(?P<small>\d(?:[\d.,]*\d)?) ?/ ?[$€£]?(?P<big>\d(?:[\d.,]*\d)?)(?: (?P<iso>[A-Z]{3}))?\b"
)
_LIMIT_WORD = re.compile(r"^(?:FL|NL|PL|Limit|fastforward)\s+")
_GAME_NAMES = re.compile(r"(7 Card Stud Hi-Lo|7 Card Stud|Texas Hold'em|Double Hold'em|Omaha Hi-Lo|Omaha(?: Hi)?)")
_WHEN = re.compile(
    r"(?:[A-Za-z]+, )?(?P<month>[A-Za-z]+) (?P<day>\d{1,2}), (?P<time>\d{1,2}:\d{2}(?::\d{2})?) (?P<tz>[A-Z]+) (?P<year>\d{4})"
)
_TOURNEY_STAKES = re.compile(r"(?:Blinds|Stakes)(?:-Antes)?\(([\d.,]+) ?/ ?([\d.,]+)")


def _preamble_id(line: str) -> str | None:
    for pattern in _PREAMBLE:
        match = pattern.match(line.strip())
        if match:
            return match.group(1)
    return None


def _header_line(raw: RawHand) -> tuple[int, str]:
    """Index and text of the game header: the first line after the preamble."""
    seen_preamble = False
    for index, line in enumerate(raw.lines):
        if _preamble_id(line) is not None:
            seen_preamble = True
        elif seen_preamble and " - " in line:
            return index, line
    raise HandParseError(raw.first_line, f"no PartyPoker game header in this hand: {raw.lines[0][:120]!r}")


def _game_label(header: str) -> str:
    before_date = header.rsplit(" - ", 1)[0]
    known = _GAME_NAMES.search(before_date)
    if known:
        return known.group(1)
    rest = _CASH_STAKES.sub("", before_date).strip()
    return _LIMIT_WORD.sub("", rest).strip() or before_date


def _structure(header: str) -> Structure:
    if re.search(r"\bNL\b|No Limit", header):
        return Structure.NO_LIMIT
    if re.search(r"\bPL\b|Pot Limit", header):
        return Structure.POT_LIMIT
    return Structure.FIXED_LIMIT


class PartyPokerParser(SiteParser):
    name = "partypoker"
    hand_start = _GAME_STARTS

    def sniff(self, head: Sequence[str]) -> bool:
        return any(_preamble_id(line) is not None for line in head[:5])

    split_streams = True

    def split(self, lines: Iterable[str], file: str) -> Iterator[RawHand]:
        """A hand starts at the first of its preamble lines ("Game #N starts.", "#Game No : N",
        "***** Hand History for Game N *****"); exports differ in which of them they keep.
        Reads the lines once, holding one hand (a file can be streamed through it)."""
        hand: list[str] = []
        first = 0
        body_seen = False
        for index, line in enumerate(lines):
            if _preamble_id(line) is not None:
                if not hand or body_seen:
                    if hand:
                        yield self._raw(hand, 0, len(hand), file, first)
                    hand, first, body_seen = [line], index, False
                else:
                    hand.append(line)
            elif line.strip():
                if not hand:
                    first = index  # text before the first hand is reported, not dropped
                hand.append(line)
                body_seen = True
            elif hand:
                hand.append(line)
        if hand:
            yield self._raw(hand, 0, len(hand), file, first)

    def game_of(self, raw: RawHand) -> tuple[str | None, str, bool]:
        hand_id = next((found for found in map(_preamble_id, raw.lines) if found), None)
        if hand_id is None:
            raise HandParseError(raw.first_line, f"not a PartyPoker hand: {raw.lines[0][:120]!r}")
        _, header = _header_line(raw)
        label = _game_label(header)
        if any(line.strip() == "Table Closed" for line in raw.lines):
            return hand_id, f"{label} (table closed, hand cancelled)", False
        return hand_id, label, label == "7 Card Stud Hi-Lo"

    def parse_stud8(self, raw: RawHand) -> Hand:
        grammar = load_grammar("partypoker")
        tree = grammar.parse(raw.text)
        header_index, header = _header_line(raw)
        header_line = raw.first_line + header_index
        parts = _HEADER_SPLIT.match(header)
        if parts is None:
            raise HandParseError(header_line, f"PartyPoker header not understood: {header[:160]!r}")
        tournament = "Trny" in raw.text or "Tourney" in header
        cash = _CASH_STAKES.match(parts.group("game"))
        play_money = any("(Play Money)" in line for line in raw.lines[header_index:header_index + 3])
        if tournament or play_money:
            currency, unit = ("PLAY" if play_money else "CHIPS"), 1
        elif cash is not None and (cash.group("symbol") or cash.group("iso")):
            currency, unit = (cash.group("iso") or CURRENCY_OF_SYMBOL[cash.group("symbol")]), 100
        else:
            raise HandParseError(header_line, f"no stakes in PartyPoker header: {header[:160]!r}")

        hand_id = _preamble_id(next(line for line in raw.lines if _preamble_id(line)))
        builder = HandBuilder(self.name, raw, unit=unit, hand_id=hand_id or "")
        state = _PartyState()
        for token in tokens_in_order(tree):
            self._handle(token, grammar.fields(token), builder, state)
        self._mark_all_ins(builder)
        self._label_halves(builder, state)

        small_bet = big_bet = None
        if cash is not None and not tournament:
            small_bet, big_bet = builder.money(cash.group("small"), header_line), builder.money(cash.group("big"), header_line)
        elif state.tourney_stakes is not None:
            small_bet, big_bet = (builder.money(amount, header_line) for amount in state.tourney_stakes)
        stakes = stakes_from_forced_bets(  # bets from the header; ante and bring-in as posted
            builder,
            small_bet=small_bet,
            big_bet=big_bet,
            currency=currency,
            structure=_structure(parts.group("game")),
            is_tournament=tournament,
            table_size=state.table_size,
        )
        last_street = [a for a in builder.actions if a.street is builder.street and a.kind is not ActionKind.ANTE]
        top = max((a.to_amount for a in last_street), default=0)
        if sum(1 for a in last_street if a.to_amount == top and a.kind is not ActionKind.FOLD) == 1 and top > 0:
            builder.note("PartyPoker prints no uncalled-bet return: the winner's amount includes the bet nobody called")
        when = _WHEN.search(parts.group("when"))
        started_at = None
        if when:
            stamp = f"{when.group('year')} {when.group('month')} {when.group('day')} {when.group('time')}"
            started_at = parse_datetime(stamp, ["%Y %B %d %H:%M:%S", "%Y %b %d %H:%M:%S", "%Y %B %d %H:%M", "%Y %b %d %H:%M"])
        return builder.build(
            stakes,
            started_at=started_at,
            timezone=when.group("tz") if when else None,
            tournament_id=state.tournament_id,
            game_label=_game_label(header),
            **state.hand_fields(),
        )

    def _handle(self, token: Token, fields: tuple[str | None, ...], b: HandBuilder, state: _PartyState) -> None:
        kind = token.type
        line = b.line_of(token)
        if kind == "TABLE":
            state.table_name = " ".join((fields[0] or "").split())
        elif kind == "BUTTON":
            state.dealer_seat = int(fields[0] or 0)
        elif kind == "PLAYER_COUNT":
            state.table_size = int(fields[1]) if fields[1] else None
        elif kind == "TRNY":
            state.tournament_id = fields[0]
        elif kind == "TOURNEY_STAKES":
            state.tourney_stakes = (fields[0] or "", fields[1] or "")
        elif kind == "DEALT":
            self._dealt(fields, b, state, line)
        elif kind == "BRING_INS":
            record_common_line(b, "BRINGS_IN", fields, line)
        elif kind in ("COMPLETES", "RAISES"):  # chips added, like bets
            b.increase(fields[0] or "", added=b.money(fields[1], line), line=line)
        elif kind == "ALL_IN":  # "is all-In [$x]" adds chips without saying whether they call or raise
            b.act_all_in(fields[0] or "", b.money(fields[1], line), line)
        elif kind == "ALL_IN_FLAG":
            self._flag_all_in(fields[0] or "", b, line)
        elif kind == "SHOWS":
            player, verb, cards, description = fields
            status = ShowStatus.SHOWN if verb == "shows" else ShowStatus.MUCKED
            b.show(player or "", status, parse_cards(cards or ""), description or None, line=line)
        elif kind == "SHOWS_LOW":
            self._low_line(fields[0] or "", fields[1] or "", b, line)
        elif kind == "WINS":
            player, lo, lo_amount, amount, pot_name, side_no, _with = fields
            half = Half.LOW if lo else Half.UNKNOWN
            b.award(player or "", b.money(lo_amount if lo else amount, line), pot_number(pot_name, side_no), half, line)
        elif kind == "NO_LOW":
            state.no_low = True
        else:
            record_common_line(b, kind, fields, line)

    @staticmethod
    def _dealt(fields: tuple[str | None, ...], b: HandBuilder, state: _PartyState, line: int) -> None:
        player, cards = fields[0] or "", parse_cards(fields[1] or "")
        state.hero = player
        if len(cards) != cards_dealt_on(b.street):
            raise HandParseError(line, f"{b.street.label}-street deal of {len(cards)} cards")
        b.deal_new_cards(player, cards, line)

    @staticmethod
    def _flag_all_in(player: str, b: HandBuilder, line: int) -> None:
        """"Player2 is all-In." marks the player's last action (or ante) as all-in."""
        for index in range(len(b.actions) - 1, -1, -1):
            if b.actions[index].player == player:
                b.actions[index] = replace(b.actions[index], all_in=True)
                return
        raise HandParseError(line, f"{player!r} is all-in before putting anything in")

    @staticmethod
    def _mark_all_ins(b: HandBuilder) -> None:
        """Where "is all-In." stands relative to the action is not fixed, so also mark the action
        that puts a player's whole stack in."""
        put_in: dict[str, int] = {}
        for index, action in enumerate(b.actions):
            put_in[action.player] = put_in.get(action.player, 0) + action.amount
            stack = next(seat.stack for seat in b.seats if seat.player == action.player)
            if action.amount > 0 and put_in[action.player] == stack and not action.all_in:
                b.actions[index] = replace(action, all_in=True)

    @staticmethod
    def _low_line(player: str, low: str, b: HandBuilder, line: int) -> None:
        for index, shown in enumerate(b.showdown):
            if shown.player == player:
                b.showdown[index] = ShownHand(player, shown.status, shown.cards, shown.high_text, low, shown.line)
                return
        raise HandParseError(line, f"low shown by {player!r} before his cards")

    @staticmethod
    def _label_halves(b: HandBuilder, state: _PartyState) -> None:
        """Party labels only the low half. Beside a low award of the same pot the others are the
        high half; with "no qualifying low" or nobody left to contest it the pot was not split."""
        low_pots = {a.pot for a in b.awards if a.half is Half.LOW}
        folded = {a.player for a in b.actions if a.kind is ActionKind.FOLD}
        contested = len({a.player for a in b.actions} - folded) > 1
        for index, award in enumerate(b.awards):
            if award.half is not Half.UNKNOWN:
                continue
            if award.pot in low_pots:
                b.awards[index] = replace(award, half=Half.HIGH)
            elif state.no_low or not contested:
                b.awards[index] = replace(award, half=Half.WHOLE)


@dataclass
class _PartyState(HandFacts):
    tournament_id: str | None = None
    tourney_stakes: tuple[str, str] | None = None
    no_low: bool = False


PARSER = PartyPokerParser()
