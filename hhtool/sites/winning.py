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
from dataclasses import dataclass, field, replace

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
from hhtool.sites.kit.base import HandBuilder, HandParseError, SiteParser, mark_idle_seats, parse_cards
from hhtool.sites.kit.common_lines import (
    COMMON_LINES,
    StreetsByDeals,
    cards_dealt_on,
    deal_third_street,
    header_match,
    stated_start,
    structure_named,
)
from hhtool.sites.kit.line_rules import LineTable
from hhtool.sites.kit.line_site import LineSiteParser
from hhtool.sites.kit.lines import LineToken
from hhtool.sites.kit.restated import restated_cards, summary_player, summary_restatements
from hhtool.sites.kit.stated import StatedHand, StatedStakes

_OLD_START = re.compile(r"Game started at: \d+/")  # a year of other than four digits is a bad date, told
_GAME_ID = re.compile(r"Game ID: (\d+) ([\d.,K]+)/([\d.,K]+) (.+?) \(([^()]+)\)(?: (\d+)-max)?$", re.ASCII)
_ACR_HEADER = re.compile(
    r"(?:Game )?Hand #(\d+) - (?:.*?Tournament #(\d+) - )?(.+?) ?\((Fixed Limit|Pot Limit|No Limit)\) ?- "
    r"(?:Level \S+ )?\(?(\$?)([\d.,]*\d) ?/ ?\$?([\d.,]*\d)(?:,? Ante \$?([\d.,]*\d))?\)? ?- "
    r"(\d+/\d+/\d+ \d+:\d+(?::\d+)?)(?: ([A-Z]{2,5}))?$",
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
class _WinningFacts(StatedHand):
    any_all_in: bool = False
    folded: set[str] = field(default_factory=set)
    # old format: streets counted by deal rounds, cards gathered per player until the round ends
    streets: StreetsByDeals = field(default_factory=StreetsByDeals)
    dealt: dict[str, list[tuple[Card | None, int]]] = field(default_factory=dict)
    # new format
    summary_wins: list[tuple[str, int, int]] = field(default_factory=list)  # (player, amount, line)
    at_showdown: bool = False  # past the SHOW DOWN marker: pot lines state the pots' final amounts


# ------------------------------------------------------------ shared


def _folds(b: HandBuilder, facts: _WinningFacts, token: LineToken) -> None:
    player = token["player"] or ""
    b.act(player, ActionKind.FOLD, line=token.number)
    facts.folded.add(player)


def _stated_pot(b: HandBuilder, facts: _WinningFacts, token: LineToken) -> None:
    """Pot, rake and jackpot fee as stated: the pot after rake and fee; total_pot is before them."""
    line, stated_rake, fee = token.number, token["rake"], token["fee"]
    stated = b.money(token["total"], line)
    rake = b.money(stated_rake, line) if stated_rake else 0  # tournaments state no rake
    facts.fees = b.money(fee, line) if fee else 0
    facts.rake, facts.total_pot = rake, stated + rake + facts.fees


class _WinningExport(LineSiteParser[_WinningFacts]):
    """What the two exports share: the site's name, and what they settle once an export's own
    last step (:meth:`settle`) is done."""

    name = "winning"

    def settle(self, b: HandBuilder, facts: _WinningFacts) -> None:
        """The export's own step once every line is read; by default nothing."""

    def finish(self, b: HandBuilder, facts: _WinningFacts) -> None:
        self.settle(b, facts)
        if not b.awards:
            raise HandParseError(b.raw.last_line, "hand ends early (truncated or incomplete hand): nobody collects the pot",
                                 FailureKind.ENDS_EARLY)
        if len({seat.player for seat in b.seats if not seat.sitting_out} - facts.folded) == 1:
            b.label_awards_whole()  # a pot nobody contested is not split


# ------------------------------------------------------------ old "Game started at:" export

_OLD_LINES = LineTable[_WinningFacts](order_only=("GAME_ID", "SUMMARY_MARKER", "GAME_ENDED"))
_OLD_LINES.on("FOLDS", reads=("player",))(_folds)
_OLD_LINES.on("POT", reads=("total", "rake", "fee"))(_stated_pot)


@_OLD_LINES.on("GAME_STARTED", reads=("year", "month", "day", "hour", "minute", "second"))
def _game_started(b: HandBuilder, facts: _WinningFacts, token: LineToken) -> None:
    # each run of digits whole, as stated
    stated = f"{token['year']}/{token['month']}/{token['day']} {token['hour']}:{token['minute']}:{token['second']}"
    facts.started_at, notes = stated_start(stated, ["%Y/%m/%d %H:%M:%S"], token.number)
    b.notes.extend(notes)


@_OLD_LINES.on("STREET_MARKER", reads=("street",))
def _old_marker(b: HandBuilder, facts: _WinningFacts, token: LineToken) -> None:
    number = facts.streets.marker_number(_OLD_MARKERS[token["street"] or ""])
    if number > Street.SEVENTH:
        raise HandParseError(token.number, f"street marker {token.value!r} does not fit this hand's streets")
    facts.streets.announce(Street(number), token.number)


@_OLD_LINES.on("CARD", reads=("player", "card"))
def _card(b: HandBuilder, facts: _WinningFacts, token: LineToken) -> None:
    _gather_card(b, facts, token, Card.parse(token["card"] or ""))


@_OLD_LINES.on("HIDDEN_CARD", reads=("player",))
def _hidden_card(b: HandBuilder, facts: _WinningFacts, token: LineToken) -> None:
    _gather_card(b, facts, token, None)


def _gather_card(b: HandBuilder, facts: _WinningFacts, token: LineToken, card: Card | None) -> None:
    """One card of a deal round (a line each): the round's cards are dealt at its last card."""
    if not facts.dealt:  # the first card of a deal round starts the next street
        facts.streets.start_round(b, token.number)
    facts.dealt.setdefault(token["player"] or "", []).append((card, token.number))
    following = facts.tokens[token.index + 1].type if token.index + 1 < len(facts.tokens) else None
    if following not in ("CARD", "HIDDEN_CARD"):
        _deal_round(b, facts)


def _deal_round(b: HandBuilder, facts: _WinningFacts) -> None:
    for player, dealt in facts.dealt.items():
        cards = tuple(card for card, _ in dealt)
        line = dealt[0][1]
        if len(cards) != cards_dealt_on(b.street):
            raise HandParseError(line, f"{player} receives {len(cards)} cards on {b.street.label} street")
        if b.street is Street.THIRD and cards[0] is not None and cards[1] is not None:
            facts.hero = player
        b.deal_new_cards(player, cards, line)
    facts.dealt = {}


@_OLD_LINES.on("ALL_IN", reads=("player", "amount"))
def _all_in(b: HandBuilder, facts: _WinningFacts, token: LineToken) -> None:
    player, amount_text = token["player"] or "", token["amount"]
    facts.any_all_in = True
    if amount_text is None:  # a disconnected player's whole remaining stack
        stack = b.seats[[seat.player for seat in b.seats].index(player)].stack or 0
        amount = stack - sum(a.amount for a in b.actions if a.player == player)
    else:
        amount = b.money(amount_text, token.number)
    b.act_all_in(player, amount, token.number)


@_OLD_LINES.on("MUCKS_CARDS", reads=("player",))
def _mucks_cards(b: HandBuilder, facts: _WinningFacts, token: LineToken) -> None:
    b.show(token["player"] or "", ShowStatus.MUCKED, line=token.number)


@_OLD_LINES.on("SUMMARY_PLAYER", reads=("player", "hand", "cards", "low", "mucks", "bets", "collects", "result_kind",
                                        "result"))
def _summary_player(b: HandBuilder, facts: _WinningFacts, token: LineToken) -> None:
    player, description, cards, low, mucks = token["player"] or "", token["hand"], token["cards"], token["low"], token["mucks"]
    bets, collects, line = token["bets"], token["collects"], token.number
    wins_or_loses, result = token["result_kind"], token["result"]
    amount = b.money(collects, line)
    # "Wins: 0.02" / "Loses: 0.15" restates his net result
    net = b.money(result, line) * (-1 if wins_or_loses == "Loses" else 1)
    facts.restatements.append(Restatement(Restated.NET, player, amount=net, line=line))
    if amount:
        b.award(player, amount, None if facts.any_all_in else 0, Half.UNKNOWN, line)
    already_shown = any(shown.player == player for shown in b.showdown)
    if cards is not None:
        b.show(player, ShowStatus.SHOWN, parse_cards(cards), description, low, line)
    elif mucks and not already_shown:
        b.show(player, ShowStatus.MUCKED, line=line)
    elif not mucks and not already_shown and player not in facts.folded and any(d.player == player for d in b.deals):
        b.show(player, ShowStatus.NOT_SHOWN, line=line)
    put_in = sum(a.amount for a in b.actions if a.player == player) - sum(
        r.amount for r in b.uncalled if r.player == player
    )
    if b.money(bets, line) != put_in:
        b.note(f"the summary's Bets {bets} for {player} but the actions put in {put_in}", line)


class _OldExport(_WinningExport):
    grammar_name = "winning"
    lines = _OLD_LINES

    def read_header(self, raw: RawHand) -> _WinningFacts:
        game_id = _GAME_ID.match(raw.lines[1])
        assert game_id is not None  # game_of accepted it
        table = game_id.group(4)
        play_money = table.startswith("PM ")
        return _WinningFacts(
            hand_id=game_id.group(1),
            unit=1 if play_money else 100,
            currency="PLAY" if play_money else "USD",
            structure=Structure.FIXED_LIMIT,
            game_label=game_id.group(5),
            # small/big bet from the header; ante and bring-in as posted
            stated=StatedStakes(raw.first_line + 1, _thousands(game_id.group(2)), _thousands(game_id.group(3))),
            table_name=table,
            table_size=int(game_id.group(6)) if game_id.group(6) else None,
        )

    def settle(self, b: HandBuilder, facts: _WinningFacts) -> None:
        # the old export says "sitting out" only in passing: a seat that posts nothing and gets no card sat out
        mark_idle_seats(b, note=False)
        facts.streets.check_dealt()


# ------------------------------------------------------------ newer "Hand #" export

_ACR_LINES = LineTable[_WinningFacts](order_only=("HEADER", "SUMMARY_MARKER"))
_ACR_LINES.on("FOLDS", reads=("player",))(_folds)
_ACR_LINES.on("TOTAL_POT", reads=("total", "rake", "fee"))(_stated_pot)


@_ACR_LINES.on("STREET_MARKER", reads=("street",))
def _acr_marker(b: HandBuilder, facts: _WinningFacts, token: LineToken) -> None:
    street = Street(int(token["street"] or ""))
    if street <= b.street and b.deals:
        raise HandParseError(token.number, f"{street.label}-street marker after {b.street.label} street")
    b.start_street(street)


@_ACR_LINES.on("DEALT", reads=("player", "cards", "new"))
def _dealt_acr(b: HandBuilder, facts: _WinningFacts, token: LineToken) -> None:
    player, first, second, line = token["player"] or "", token["cards"] or "", token["new"], token.number
    if b.street is Street.THIRD and second is None:
        deal_third_street(b, facts, player, parse_cards(first), line)
        return
    new_cards = parse_cards(second if second is not None else first)
    if len(new_cards) != 1:
        raise HandParseError(line, f"{b.street.label}-street deal of {len(new_cards)} new cards")
    if second is not None:  # the first bracket repeats the cards dealt to the player before
        facts.restatements.extend(restated_cards(b, player, first, line))
    b.deal_up_or_down(player, new_cards, line)


def _noting_all_in(terminal: str) -> None:
    """The common reader of ``terminal``, remembering whether the line is all-in."""
    rule = COMMON_LINES[terminal]
    read = rule.read
    assert read is not None

    def read_noting_all_in(b: HandBuilder, facts: _WinningFacts, token: LineToken) -> None:
        facts.any_all_in |= bool(token.get("all_in"))
        read(b, facts, token)
    _ACR_LINES.add(terminal, replace(rule, read=read_noting_all_in, may=rule.may | {"all_in"}))


for _terminal in ("ANTE", "BRINGS_IN", "BETS", "CALLS"):
    _noting_all_in(_terminal)


@_ACR_LINES.on("RAISES", reads=("player", "added", "to", "all_in"))
def _raises_acr(b: HandBuilder, facts: _WinningFacts, token: LineToken) -> None:
    player, added, to, line, all_in = token["player"], token["added"], token["to"], token.number, bool(token["all_in"])
    facts.any_all_in |= all_in
    action = b.increase(player or "", to=b.money(to, line), all_in=all_in, line=line)
    if action.amount != b.money(added, line):
        already = action.to_amount - action.amount
        b.note(f"raise of {added} to {to} but {player or ''} had {already} in", line)


@_ACR_LINES.on("SHOWDOWN_MARKER")
def _showdown(b: HandBuilder, facts: _WinningFacts, token: LineToken) -> None:
    facts.at_showdown = True


@_ACR_LINES.on("POT_STATUS", reads=("side", "amount"))
def _pot_status(b: HandBuilder, facts: _WinningFacts, token: LineToken) -> None:
    if facts.at_showdown:  # each pot after rake and fee, as the showdown settles it
        side = token["side"]
        pot = int(side) if side else 0
        facts.stated_pots.append(StatedPot(pot, b.money(token["amount"], token.number), True, token.number))


@_ACR_LINES.on("SUMMARY_SEAT", reads=("seat", "player", "verb", "rest"))
def _summary_seat_acr(b: HandBuilder, facts: _WinningFacts, token: LineToken) -> None:
    player, verb, rest, line = token["player"] or "", token["verb"], token["rest"] or "", token.number
    won = _WON.search(f" {verb}{rest}")
    if won and verb != "folded":
        facts.summary_wins.append((player, b.money(won.group(1), line), line))
    mucked = _MUCKED_CARDS.search(rest)
    if verb == "mucked" and mucked:
        b.reveal_mucked(player, parse_cards(mucked.group(1)), line=line)
    found = summary_player(token.value, int(token["seat"] or 0), [(seat.seat, seat.player) for seat in b.seats])
    if found is not None:
        facts.restatements.extend(summary_restatements(found[1], found[0], b, line))


class _AcrExport(_WinningExport):
    grammar_name = "winning_acr"
    lines = _ACR_LINES

    def read_header(self, raw: RawHand) -> _WinningFacts:
        header = _ACR_HEADER.match(raw.lines[0])
        assert header is not None  # game_of accepted it
        tournament = header.group(2)
        play_money = "(Play Money)" in (raw.lines[1] if len(raw.lines) > 1 else "")
        unit = 1 if tournament or play_money or not header.group(5) else 100
        started_at, notes = stated_start(header.group(9), ["%Y/%m/%d %H:%M:%S", "%Y/%m/%d %H:%M"], raw.first_line)
        return _WinningFacts(
            hand_id=header.group(1),
            unit=unit,
            currency="PLAY" if play_money else "CHIPS" if unit == 1 else "USD",
            structure=structure_named(header.group(4)),
            is_tournament=tournament is not None,
            tournament_id=tournament,
            game_label=f"{header.group(3)}({header.group(4)})",
            started_at=started_at,
            notes=notes,
            timezone=header.group(10),
            # small/big bet (and, in the 2026 header, the ante) from the header; the bring-in as posted
            stated=StatedStakes(raw.first_line, header.group(6), header.group(7), header.group(8)),
        )

    def settle(self, b: HandBuilder, facts: _WinningFacts) -> None:
        if not b.awards:  # a fold-out's winner is named only in the summary
            for player, amount, line in facts.summary_wins:
                b.award(player, amount, None if facts.any_all_in else 0, Half.UNKNOWN, line)


_OLD, _ACR = _OldExport(), _AcrExport()


class WinningParser(SiteParser):
    """Both exports under one site name: the hand's first line tells which one it is."""

    name = "winning"
    hand_start = _HAND_START

    def sniff(self, head: Sequence[str]) -> bool:
        if len(head) >= 2 and _OLD_START.match(head[0]) and _GAME_ID.match(head[1]):
            return True
        return bool(head) and bool(_ACR_HEADER.match(head[0]))

    def line_formats(self) -> tuple[SiteParser, ...]:
        return (_OLD, _ACR)

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
        return (_OLD if _OLD_START.match(raw.lines[0]) else _ACR).parse_stud8(raw)


PARSER = WinningParser()
