"""OnGame text histories ("***** History for hand R5-… *****").

Quirks kept here:

* streets are a ``---`` line plus "Dealing pocket cards" / "Dealing 4th street" / … / "Dealing river";
  cards are comma separated, ``-`` hides a card; on the river only the hero's card is printed;
* "small bring in" is the bring-in; "big bring in" is the bring-in player opening for the small bet;
* raise lines are not trustworthy: ``Hero raises $1 to $1.37`` appears in a hand whose pot proves a
  raise to $1 (see :func:`_settle_raise`);
* there is no uncalled-bet line, and the summary's pot amounts leave the unmatched bet out; the
  return is derived when the pot total proves it (see :meth:`OnGameParser._derive_uncalled`);
* the summary lists the pots with winners and amounts after rake, the rake, and per seat the end
  stack, the net result and (for hands shown) the seven cards.

>>> PARSER.sniff(["***** History for hand R5-78227816-62 *****", "Start hand: Sat Aug 28 20:33:38 GMT+0300 2010"])
True
>>> _winners("Hero ($4.89)"), _winners("maac_5 ($1.37 High), sagi 34 ($1.36 Low)")
([('Hero', '$4.89', None)], [('maac_5', '$1.37', 'High'), ('sagi 34', '$1.36', 'Low')])
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from hhtool.model import ActionKind, Half, RawHand, Restated, Restatement, ShowStatus, StatedPot, Street
from hhtool.money import site_amount
from hhtool.sites.kit.base import (
    HandBuilder,
    HandParseError,
    mark_idle_seats,
    parse_cards,
    uncalled_excess,
)
from hhtool.sites.kit.common_lines import (
    COMMON_LINES,
    CURRENCY_OF_SYMBOL,
    STREET_MARKERS,
    cards_dealt_on,
    level_called_next,
    pot_number,
    stated_start,
    structure_named,
)
from hhtool.sites.kit.line_rules import LineTable
from hhtool.sites.kit.line_site import LineSiteParser
from hhtool.sites.kit.lines import LineToken
from hhtool.sites.kit.stated import StatedHand, StatedStakes

_HAND_START = re.compile(r"\*{5} History for hand [-A-Z\d]+")
_HAND_ID = re.compile(r"History for hand ([-A-Z\d]+)")
_TABLE_GAME = re.compile(
    r"\((?P<limit>NO_LIMIT|POT_LIMIT|LIMIT|No Limit|Pot Limit|Limit) (?P<game>[A-Z_]+) "
    r"(?P<small>[$€£]?\d(?:[\d.,]*\d)?) ?/ ?(?P<big>[$€£]?\d(?:[\d.,]*\d)?)(?: [A-Z]{3})?"
    r"(?:, ante: (?P<ante>[$€£]?\d(?:[\d.,]*\d)?))?(?:, (?P<money>(?!ante)[^)]*))?\)"
)
_TABLE_PREFIX = re.compile(r"Table: (?:\[SPEED\] )?")
_START_TIME = re.compile(
    r"\w{3} (?P<month>\w{3}) (?P<day>\d+) (?P<time>\d+:\d+(?::\d+)?) (?P<tz>\S+) (?P<year>\d+)(?!\d)"
)
_WINNER = re.compile(r"(.+?) \(([$€]?\d[\d.,]*)(?: (High|Low))?\)(?:, |$)")
_TOURNAMENT_ID = re.compile(r"\(TOURNAMENT:(?: \"[^\"]*\",)? ([-A-Z\d]+)")
# a call of a raise is looked for up to the next increase or the end of the street
_CALL_SEARCH_ENDS = frozenset({*STREET_MARKERS, "POCKET_MARKER", "BETS", "RAISES", "SEPARATOR", "SUMMARY_MARKER"})
_HALVES = {"High": Half.HIGH, "Low": Half.LOW}


def _winners(text: str) -> list[tuple[str, str, str | None]]:
    """Split "A ($1.37), B ($1.36 Low)" into (name, amount, tag) triples."""
    return [(m.group(1), m.group(2), m.group(3)) for m in _WINNER.finditer(text)]


@dataclass
class _OnGameFacts(StatedHand):
    """``total_pot`` is the sum of the summary's pot amounts (before rake, uncalled bets left out)."""

    symbol: str = "$"
    user: str | None = None
    pot_lines: list[int] = field(default_factory=list)
    nets: dict[str, tuple[int, int]] = field(default_factory=dict)  # player -> (net, summary line)
    summary_cards: dict[str, tuple[str, str | None, int]] = field(default_factory=dict)
    summary_lines: dict[str, int] = field(default_factory=dict)


def _printed(amount: int, b: HandBuilder, facts: _OnGameFacts) -> str:
    """An amount for a note, as OnGame prints it: ``$1.37``, ``-$1``, ``1500`` (chips)."""
    return site_amount(amount, b.unit, facts.symbol, symbol_first=True)


_LINES = LineTable[_OnGameFacts](order_only=("HISTORY_HEADER", "START_HAND", "TABLE", "SEPARATOR", "SUMMARY_MARKER"))
_LINES.add("PLAYERS_IN_ROUND", COMMON_LINES["PLAYER_COUNT"])


@_LINES.on("USER", reads=("user",))
def _user(b: HandBuilder, facts: _OnGameFacts, token: LineToken) -> None:
    facts.user = token["user"]


@_LINES.on("POCKET_MARKER")
def _pocket_marker(b: HandBuilder, facts: _OnGameFacts, token: LineToken) -> None:
    b.start_street(Street.THIRD)


@_LINES.on("DEALT", reads=("player", "cards"))
def _dealt(b: HandBuilder, facts: _OnGameFacts, token: LineToken) -> None:
    player, cards, line = token["player"] or "", parse_cards(token["cards"] or ""), token.number
    if len(cards) != cards_dealt_on(b.street):
        raise HandParseError(line, f"ongame: {b.street.label}-street deal of {len(cards)} cards")
    if b.street is Street.THIRD and cards[0] is not None and cards[1] is not None:
        facts.hero = player
    b.deal_new_cards(player, cards, line)


@_LINES.on("BRINGS_IN", reads=("player", "size", "amount", "all_in"))
def _brings_in(b: HandBuilder, facts: _OnGameFacts, token: LineToken) -> None:
    player, size, amount, all_in, line = token["player"], token["size"], token["amount"], token["all_in"], token.number
    if size == "big":  # the bring-in player opens for the full small bet
        b.increase(player or "", added=b.money(amount, line), all_in=bool(all_in), line=line)
    else:
        b.act(player or "", ActionKind.BRING_IN, added=b.money(amount, line), all_in=bool(all_in), line=line)


@_LINES.on("RAISES", reads=("player", "amount", "to", "all_in"))
def _raises(b: HandBuilder, facts: _OnGameFacts, token: LineToken) -> None:
    total = _settle_raise(token, b, facts)
    b.increase(token["player"] or "", to=total, all_in=bool(token["all_in"]), line=token.number)


@_LINES.on("POT_WON", reads=("pot", "side", "amount", "winners"))
def _pot_won(b: HandBuilder, facts: _OnGameFacts, token: LineToken) -> None:
    amount, winners_text, line = token["amount"], token["winners"], token.number
    pot = pot_number(token["pot"], token["side"])
    facts.total_pot = (facts.total_pot or 0) + b.money(amount, line)
    facts.stated_pots.append(StatedPot(pot, b.money(amount, line), False, line))  # before rake: "$5.14 won by ($4.89)"
    facts.pot_lines.append(line)
    winners = _winners(winners_text or "")
    if not winners or ", ".join(f"{n} ({a}{' ' + t if t else ''})" for n, a, t in winners) != winners_text:
        raise HandParseError(line, f"ongame: winners not understood: {winners_text!r}")
    for player, won, tag in winners:
        b.award(player, b.money(won, line), pot, _HALVES.get(tag or "", Half.UNKNOWN), line)


@_LINES.on("RAKE", reads=("rake",))
def _rake(b: HandBuilder, facts: _OnGameFacts, token: LineToken) -> None:
    facts.rake = b.money(token["rake"], token.number)


@_LINES.on("SUMMARY_SEAT", reads=("player", "stack", "sign", "net", "cards", "hand"))
def _summary_seat(b: HandBuilder, facts: _OnGameFacts, token: LineToken) -> None:
    player, stack_after, sign, net = token["player"], token["stack"], token["sign"], token["net"]
    cards, description, line = token["cards"], token["hand"], token.number
    facts.summary_lines[player or ""] = line
    if net is not None:
        facts.nets[player or ""] = (-b.money(net, line) if sign == "-" else b.money(net, line), line)
        # "Seat 1: Hero ($27.47), net: +$2.47": chips after the hand and the result, restated
        facts.restatements.append(Restatement(Restated.NET, player or "", amount=facts.nets[player or ""][0], line=line))
        facts.restatements.append(Restatement(Restated.STACK_AFTER, player or "", amount=b.money(stack_after, line),
                                              line=line))
    if cards is not None:
        facts.summary_cards[player or ""] = (cards, description, line)


@_LINES.on("END_MARKER", reads=("hand_id",))
def _end_marker(b: HandBuilder, facts: _OnGameFacts, token: LineToken) -> None:
    if token["hand_id"] != b.hand_id:
        raise HandParseError(token.number, f"ongame: end of hand {token['hand_id']} inside hand {b.hand_id}")


class OnGameParser(LineSiteParser[_OnGameFacts]):
    name = "ongame"
    hand_start = _HAND_START
    grammar_name = "ongame"
    lines = _LINES

    def game_of(self, raw: RawHand) -> tuple[str | None, str, bool]:
        header = raw.lines[0]
        hand_id = _HAND_ID.search(header)
        if not _HAND_START.match(header) or hand_id is None:
            raise HandParseError(raw.first_line, f"not an OnGame hand header: {header[:160]!r}")
        table = next((line for line in raw.lines[1:6] if line.startswith("Table: ")), None)
        game = _TABLE_GAME.search(table or "")
        if game is None:
            raise HandParseError(raw.first_line + 2, f"no game in the table line: {(table or '')[:160]!r}")
        label = f"{game['limit']} {game['game']}"
        return hand_id.group(1), label, game["game"] == "SEVEN_CARD_STUD_HI_LO"

    def read_header(self, raw: RawHand) -> _OnGameFacts:
        hand_id, label, _ = self.game_of(raw)
        table_index = next(index for index, line in enumerate(raw.lines) if line.startswith("Table: "))
        table_line, table_file_line = raw.lines[table_index], raw.first_line + table_index
        game = _TABLE_GAME.search(table_line)
        assert game is not None and hand_id is not None  # game_of checked both
        tournament = "(TOURNAMENT:" in raw.lines[0]
        money = (game["money"] or "").strip().lower()
        symbol = next((s for s in "$€£" if s in game["small"] + game["big"]), "")
        if tournament:
            currency, unit = "CHIPS", 1
        elif money == "play money":
            currency, unit = "PLAY", 100
        else:
            symbol = symbol or next((s for s in "$€£" if s in raw.text), "$")
            currency, unit = CURRENCY_OF_SYMBOL[symbol], 100
        started = _START_TIME.search(raw.lines[1]) if len(raw.lines) > 1 else None
        stated = f"{started['year']} {started['month']} {started['day']} {started['time']}" if started else None
        when, notes = stated_start(stated, ["%Y %b %d %H:%M:%S", "%Y %b %d %H:%M"], raw.first_line + 1)
        tournament_id = _TOURNAMENT_ID.search(raw.lines[0])
        return _OnGameFacts(
            hand_id=hand_id,
            unit=unit,
            currency=currency,
            structure=structure_named(game["limit"].replace("_", " ")),
            is_tournament=tournament,
            tournament_id=tournament_id.group(1) if tournament_id else None,
            game_label=label,
            started_at=when,
            notes=notes,
            timezone=started["tz"] if started else None,
            # ante/small/big bet from the table line; the bring-in as posted
            stated=StatedStakes(table_file_line, game["small"], game["big"], game["ante"] or None),
            table_name=_TABLE_PREFIX.sub("", table_line).split(" [", 1)[0],
            symbol=symbol,
        )

    def finish(self, b: HandBuilder, facts: _OnGameFacts) -> None:
        mark_idle_seats(b)
        self._derive_uncalled(b, facts)
        self._record_showdown(b, facts)
        self._check_nets(b, facts)
        facts.hero = facts.hero or (facts.user if facts.user in {s.player for s in b.seats} else None)

    @staticmethod
    def _derive_uncalled(b: HandBuilder, facts: _OnGameFacts) -> None:
        """OnGame prints no uncalled-bet line and its pot amounts leave the unmatched bet out; record
        the return when the stated pots prove it, and say so when they disagree otherwise."""
        if facts.total_pot is None:
            return
        put_in = sum(action.amount for action in b.actions)
        excess = uncalled_excess(b.actions)
        if excess is not None and put_in - excess[1] == facts.total_pot:
            player, amount, street = excess
            bet_line = max(a.line for a in b.actions if a.player == player and a.street is street)
            b.return_uncalled(player, amount, bet_line, street)
            pot_text = _printed(facts.total_pot, b, facts)
            b.note(
                f"OnGame prints no uncalled-bet line: {_printed(amount, b, facts)} returned to "
                f"{player} on {street.label} street, as the pot total {pot_text} shows"
            )
        elif put_in != facts.total_pot:
            b.note(
                f"the actions put {_printed(put_in, b, facts)} in, but the summary's pots total "
                f"{_printed(facts.total_pot, b, facts)}"
            )

    @staticmethod
    def _record_showdown(b: HandBuilder, facts: _OnGameFacts) -> None:
        """Cards in a summary seat line were shown; a player still in at a showdown without them mucked.
        A pot nobody contested is not split."""
        folded = {a.player for a in b.actions if a.kind is ActionKind.FOLD}
        live = [seat.player for seat in b.seats if seat.player not in folded]
        shown_already = {shown.player for shown in b.showdown}
        for player in live:
            if player in facts.summary_cards and player not in shown_already:
                cards, description, line = facts.summary_cards[player]
                b.show(player, ShowStatus.SHOWN, parse_cards(cards), description, None, line)
            elif player not in shown_already and len(live) > 1:
                b.show(player, ShowStatus.MUCKED, line=facts.summary_lines.get(player, 0))
        if len(live) == 1:
            b.label_awards_whole(only_unlabelled=True)

    @staticmethod
    def _check_nets(b: HandBuilder, facts: _OnGameFacts) -> None:
        """Every net result names a seated player; the net itself is a restatement the RESTATED check
        compares with the actions and awards."""
        for player, (_net, line) in facts.nets.items():
            if not any(seat.player == player for seat in b.seats):
                raise HandParseError(line, f"ongame: summary names {player!r}, who is not seated")


def _settle_raise(token: LineToken, b: HandBuilder, facts: _OnGameFacts) -> int:
    """The raiser's street total for "X raises A to B".

    OnGame's raise text can be wrong: R5-78227816-62 prints "Hero raises $1 to $1.37" over a $0.50 bet,
    yet the opponent then calls $0.50 and the pot ($5.14) and both nets prove a raise to $1 (the first
    number). The model records the amount the chips prove: the level the next caller (not all-in)
    reaches decides, and a note keeps what the site printed. Without such a call the stated "to" is
    kept (if the raise is not called, its size does not change the pot: the excess is returned)."""
    line, player, first_text, to_text = token.number, token["player"] or "", token["amount"], token["to"]
    first = b.money(first_text, line)
    stated = b.money(to_text, line) if to_text is not None else None
    called = level_called_next(facts.tokens, token.index, b, player, _CALL_SEARCH_ENDS)
    printed = f"'{player} raises {first_text}" + (f" to {to_text}'" if to_text else "'")
    if called is not None:
        if called != stated:
            how = "the first amount" if called == first else "neither amount"
            b.note(f"site printed {printed}; the next call reaches "
                   f"{_printed(called, b, facts)} ({how}), recorded as the raise total", line)
        return called
    if stated is None:
        b.note(f"site printed {printed} with no 'to' and nobody calls it; read as a raise to "
               f"{_printed(first, b, facts)}", line)
        return first
    if stated != first:
        b.note(f"site printed {printed}; no call confirms either amount, the stated 'to' is kept", line)
    return stated


PARSER = OnGameParser()
