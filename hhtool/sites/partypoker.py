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

from hhtool.model import ActionKind, Half, RawHand, ShownHand, ShowStatus, Stakes, Structure
from hhtool.sites.kit.base import HandBuilder, HandParseError, Splitting, parse_cards
from hhtool.sites.kit.common_lines import COMMON_LINES, CURRENCY_OF_SYMBOL, cards_dealt_on, pot_number, stated_start
from hhtool.sites.kit.line_rules import LineTable
from hhtool.sites.kit.line_site import LineSiteParser
from hhtool.sites.kit.lines import LineToken
from hhtool.sites.kit.stated import StatedHand, StatedStakes
from hhtool.sites.kit.stray_bytes import STRAY_CHARACTERS

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
    r"(?:[A-Za-z]+, )?(?P<month>[A-Za-z]+) (?P<day>\d+), (?P<time>\d+:\d+(?::\d+)?) (?P<tz>[A-Z]+) (?P<year>\d+)(?!\d)"
)
_TOURNEY_STAKES = re.compile(r"(?:Blinds|Stakes)(?:-Antes)?\(([\d.,]+) ?/ ?([\d.,]+)")


def _preamble_id(line: str) -> str | None:
    """The hand id a preamble line names (behind a byte-order mark or NULs too: two exports put
    together; the parse removes them and says so, see hhtool.sites.kit.stray_bytes)."""
    for pattern in _PREAMBLE:
        match = pattern.match(line.strip().lstrip(STRAY_CHARACTERS))
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


@dataclass
class _PartyFacts(StatedHand):
    tourney_stakes: tuple[str, str] | None = None
    no_low: bool = False
    cash_bets: bool = False  # the header's small/big bet are the stakes (a cash table)


_LINES = LineTable[_PartyFacts](order_only=("GAME_STARTS", "GAME_NO", "HISTORY_FOR", "HEADER", "OPENS"))
_LINES.add("BRING_INS", COMMON_LINES["BRINGS_IN"])


@_LINES.on("TABLE", reads=("table",))
def _table(b: HandBuilder, facts: _PartyFacts, token: LineToken) -> None:
    facts.table_name = " ".join((token["table"] or "").split())


@_LINES.on("TRNY", reads=("tournament",))
def _trny(b: HandBuilder, facts: _PartyFacts, token: LineToken) -> None:
    facts.tournament_id = token["tournament"]


@_LINES.on("TOURNEY_STAKES", reads=("small_bet", "big_bet"))
def _tourney_stakes(b: HandBuilder, facts: _PartyFacts, token: LineToken) -> None:
    facts.tourney_stakes = (token["small_bet"] or "", token["big_bet"] or "")


@_LINES.on("DEALT", reads=("player", "cards"))
def _dealt(b: HandBuilder, facts: _PartyFacts, token: LineToken) -> None:
    player, cards, line = token["player"] or "", parse_cards(token["cards"] or ""), token.number
    facts.hero = player
    if len(cards) != cards_dealt_on(b.street):
        raise HandParseError(line, f"{b.street.label}-street deal of {len(cards)} cards")
    b.deal_new_cards(player, cards, line)


@_LINES.on("ALL_IN", reads=("player", "amount"))
def _all_in(b: HandBuilder, facts: _PartyFacts, token: LineToken) -> None:
    # "is all-In [$x]" adds chips without saying whether they call or raise
    b.act_all_in(token["player"] or "", b.money(token["amount"], token.number), token.number)


@_LINES.on("ALL_IN_FLAG", reads=("player",))
def _flag_all_in(b: HandBuilder, facts: _PartyFacts, token: LineToken) -> None:
    """"Player2 is all-In." marks the player's last action (or ante) as all-in."""
    player = token["player"] or ""
    for index in range(len(b.actions) - 1, -1, -1):
        if b.actions[index].player == player:
            b.actions[index] = replace(b.actions[index], all_in=True)
            return
    raise HandParseError(token.number, f"{player!r} is all-in before putting anything in")


@_LINES.on("SHOWS", reads=("player", "verb", "cards", "hand"))
def _shows(b: HandBuilder, facts: _PartyFacts, token: LineToken) -> None:
    status = ShowStatus.SHOWN if token["verb"] == "shows" else ShowStatus.MUCKED
    b.show(token["player"] or "", status, parse_cards(token["cards"] or ""), token["hand"] or None, line=token.number)


@_LINES.on("SHOWS_LOW", reads=("player", "low"))
def _low_line(b: HandBuilder, facts: _PartyFacts, token: LineToken) -> None:
    player, low = token["player"] or "", token["low"] or ""
    for index, shown in enumerate(b.showdown):
        if shown.player == player:
            b.showdown[index] = ShownHand(player, shown.status, shown.cards, shown.high_text, low, shown.line)
            return
    raise HandParseError(token.number, f"low shown by {player!r} before his cards")


@_LINES.on("WINS", reads=("player", "lo", "lo_amount", "amount", "pot", "side"))
def _wins(b: HandBuilder, facts: _PartyFacts, token: LineToken) -> None:
    lo = token["lo"]
    half = Half.LOW if lo else Half.UNKNOWN
    b.award(token["player"] or "", b.money(token["lo_amount"] if lo else token["amount"], token.number),
            pot_number(token["pot"], token["side"]), half, token.number)


@_LINES.on("NO_LOW")
def _no_low(b: HandBuilder, facts: _PartyFacts, token: LineToken) -> None:
    facts.no_low = True


class PartyPokerParser(LineSiteParser[_PartyFacts]):
    name = "partypoker"
    hand_start = _GAME_STARTS
    grammar_name = "partypoker"
    lines = _LINES
    splitting = Splitting.IN_ORDER  # a hand starts at the first of several preamble lines

    def sniff(self, head: Sequence[str]) -> bool:
        return any(_preamble_id(line) is not None for line in head[:5])

    def holds_hand(self, lines: Iterable[str]) -> bool:
        return any(_preamble_id(line) is not None for line in lines)  # any of the three preambles

    def split(self, lines: Iterable[str], file: str, offset: int = 0) -> Iterator[RawHand]:
        """A hand starts at the first of its preamble lines ("Game #N starts.", "#Game No : N",
        "***** Hand History for Game N *****"); exports differ in which of them they keep.
        Reads the lines once, holding one hand (a file can be streamed through it)."""
        hand: list[str] = []
        first = 0
        body_seen = False
        for index, line in enumerate(lines, offset):
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

    def read_header(self, raw: RawHand) -> _PartyFacts:
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
        when = _WHEN.search(parts.group("when"))
        stamp = f"{when.group('year')} {when.group('month')} {when.group('day')} {when.group('time')}" if when else None
        started_at, notes = stated_start(stamp, ["%Y %B %d %H:%M:%S", "%Y %b %d %H:%M:%S", "%Y %B %d %H:%M", "%Y %b %d %H:%M"],
                                         header_line)
        hand_id = _preamble_id(next(line for line in raw.lines if _preamble_id(line)))
        cash_bets = cash is not None and not tournament
        return _PartyFacts(
            hand_id=hand_id or "",
            unit=unit,
            currency=currency,
            structure=_structure(parts.group("game")),
            is_tournament=tournament,
            game_label=_game_label(header),
            started_at=started_at,
            notes=notes,
            timezone=when.group("tz") if when else None,
            stated=StatedStakes(header_line, *(cash.group("small", "big") if cash is not None and cash_bets else ())),
            cash_bets=cash_bets,
        )

    def finish(self, b: HandBuilder, facts: _PartyFacts) -> None:
        self._mark_all_ins(b)
        self._label_halves(b, facts)
        if not facts.cash_bets and facts.tourney_stakes is not None:  # a tournament's bets are on a line of their own
            facts.stated = replace(facts.stated, small_bet=facts.tourney_stakes[0], big_bet=facts.tourney_stakes[1])

    def stakes(self, b: HandBuilder, facts: _PartyFacts) -> Stakes:
        stakes = super().stakes(b, facts)  # bets from the header; ante and bring-in as posted
        last_street = [a for a in b.actions if a.street is b.street and a.kind is not ActionKind.ANTE]
        top = max((a.to_amount for a in last_street), default=0)
        if sum(1 for a in last_street if a.to_amount == top and a.kind is not ActionKind.FOLD) == 1 and top > 0:
            b.note("PartyPoker prints no uncalled-bet return: the winner's amount includes the bet nobody called")
        return stakes

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
    def _label_halves(b: HandBuilder, facts: _PartyFacts) -> None:
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
            elif facts.no_low or not contested:
                b.awards[index] = replace(award, half=Half.WHOLE)


PARSER = PartyPokerParser()
