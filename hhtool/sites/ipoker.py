"""iPoker XML session histories (formats doc §11).

There is no Lark grammar for this site: a file is one ``<session>`` XML document, read
with a real XML parser (``defusedxml``, which refuses DTDs and entities) through
:mod:`hhtool.sites.kit.xmlsupport`. ``split()`` yields one hand per ``<game>`` element with
its true file lines; the session's ``<general>`` header (game, stakes, hero) travels
with each hand.

Quirks kept here:

* The file declares utf-8 but is cp1252 (``€`` is byte 0x80); the reader decodes it and
  the declaration is dropped before parsing.
* ``<currency>`` may contradict the amounts (``USD`` next to ``€0.05``): the amounts'
  symbol is trusted and the contradiction noted.
* Actions are not in document order: they are sorted by their ``no`` within a round.
  Codes: 0 fold, 3 call (chips added), 4 check, 5 bet (chips added), 6 raise by
  (the increase over the current bet), 7 all-in, 9 fold while sitting out, 15 ante,
  16 bring-in, 23 raise to (street total); 8 "no action" is ignored; 1/2 are blinds,
  which stud has not. All-in (7) is resolved by
  :func:`~hhtool.sites.kit.xmlsupport.record_all_in` (the stack says what the amount
  means; the amounts say call, bring-in or increase).
* Cards are suit first (``C10``, ``DK``), ``X`` hidden.
* No showdown, no hi/lo labels, no rake, no uncalled-bet line: each player's
  ``win`` total is recorded as one award (pot ``None``, ``Half.UNKNOWN``), and a win
  includes any uncalled bet handed back (recorded as won, like Winamax; no
  UncalledReturn). ``rake`` stays None (unknown); a note gives the amount the totals
  imply, Σ ``bet`` − Σ ``win``. Players
  still in at the end whose seven cards are all printed are recorded as shown.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache

from hhtool.model import ActionKind, Card, Half, Hand, RawHand, ShowStatus, Street, Structure
from hhtool.sites.kit.base import HandBuilder, HandParseError, parse_money
from hhtool.sites.kit.common_lines import CURRENCY_OF_SYMBOL, cards_dealt_on, stakes_from_forced_bets, stated_start
from hhtool.sites.kit.xmlsupport import LocatedTree, XmlSiteParser, attribute, chips_left, parse_xml, record_all_in

_SESSION_START = re.compile(r"<session\b")
_SESSION_END = re.compile(r"</session\s*>")
_GAMETYPE = re.compile(r"^(?P<game>.*?)\s+(?P<limit>NL|PL|FL|L)\s+(?P<small>\S+?)\s*/\s*(?P<big>\S+)$")
_STUD8 = re.compile(r"7 Card Stud Hi[- /]?Lo", re.I)
_SYMBOL_ORDER = "€$£"  # the order amounts are searched for a currency symbol
_COMMA_DECIMAL = re.compile(r"\d*,\d{1,2}")
_STRUCTURES = {"NL": Structure.NO_LIMIT, "PL": Structure.POT_LIMIT, "FL": Structure.FIXED_LIMIT, "L": Structure.FIXED_LIMIT}
_STREET_OF_ROUND = {2: Street.THIRD, 3: Street.FOURTH, 4: Street.FIFTH, 5: Street.SIXTH, 6: Street.SEVENTH}
_STREET_OF_CARDS = {
    "third street": Street.THIRD,
    "fourth street": Street.FOURTH,
    "fifth street": Street.FIFTH,
    "sixth street": Street.SIXTH,
    "seventh street": Street.SEVENTH,
    "river": Street.SEVENTH,
}
_GAME_GENERAL_TAGS = {"startdate", "players"}


@dataclass(frozen=True, slots=True)
class _Session:
    """What a session's ``<general>`` says about every game in it."""

    label: str  # the game without its stakes, e.g. "7 Card Stud Hi-Lo L"
    gametype: str  # the whole text, e.g. "7 Card Stud Hi-Lo L €0.05/€0.10"
    limit: str | None
    small: str | None
    big: str | None
    currency: str  # ISO code, "CHIPS" or "PLAY"
    unit: int
    currency_element: str | None
    table_name: str | None
    hero: str | None
    tournament_id: str | None


def _symbol_of(amount: str) -> str | None:
    return next((symbol for symbol in _SYMBOL_ORDER if symbol in amount), None)


@lru_cache(maxsize=16)
def _read_session(header: tuple[str, ...], header_line: int) -> _Session:
    if not header:
        raise HandParseError(header_line, "ipoker: no <session> header before this game")
    tree = parse_xml("\n".join(header) + "</session>", header_line)
    general = tree.root.find("general")
    if tree.root.tag != "session" or general is None:
        raise HandParseError(header_line, "ipoker: the session has no <general> header")

    def text_of(tag: str) -> str | None:
        element = general.find(tag)
        return element.text.strip() if element is not None and element.text else None

    gametype = text_of("gametype")
    if gametype is None:
        raise HandParseError(tree.line_of(general), "ipoker: the session header has no <gametype>")
    match = _GAMETYPE.match(gametype)
    label = match.group("game") + " " + match.group("limit") if match else gametype
    symbol = _symbol_of(gametype)
    tournament_id = text_of("tournamentcode")
    if symbol:
        currency, unit = CURRENCY_OF_SYMBOL[symbol], 100
    elif tournament_id:
        currency, unit = "CHIPS", 1
    elif (text_of("mode") or "real") != "real":
        currency, unit = "PLAY", 1
    else:
        currency, unit = (text_of("tablecurrency") or text_of("currency") or "CHIPS"), 100
    return _Session(
        label=label,
        gametype=gametype,
        limit=match.group("limit") if match else None,
        small=match.group("small") if match else None,
        big=match.group("big") if match else None,
        currency=currency,
        unit=unit,
        currency_element=text_of("currency"),
        table_name=text_of("tablename"),
        hero=text_of("nickname"),
        tournament_id=tournament_id,
    )


def _money(text: str, unit: int, line: int) -> int:
    """iPoker amounts: ``€0.05``, ``€1``, bare chips; some skins write ``0,05``."""
    body = text.strip()
    for symbol in _SYMBOL_ORDER:
        body = body.replace(symbol, "")
    if _COMMA_DECIMAL.fullmatch(body.replace(".", "")):
        body = body.replace(".", "").replace(",", ".")
    return parse_money(body, unit, line)


def _card(token: str, line: int) -> Card | None:
    """A suit-first card: ``C10`` → 10♣, ``DK`` → K♦, ``X`` → hidden."""
    if token.upper() == "X":
        return None
    try:
        return Card.parse(token[1:] + token[0])
    except ValueError:
        raise HandParseError(line, f"not a card: {token!r}") from None


class IPokerParser(XmlSiteParser):
    name = "ipoker"

    def sniff(self, head: Sequence[str]) -> bool:
        return any(_SESSION_START.search(line) and "sessioncode=" in line for line in head[:5])

    header_start = _SESSION_START
    id_attribute = "gamecode"
    ignorable = _SESSION_END

    def game_of(self, raw: RawHand) -> tuple[str | None, str, bool]:
        start = self.start_attributes(raw)
        session = self._session(raw)
        return start.get("gamecode"), session.label, bool(_STUD8.search(session.gametype))

    @staticmethod
    def _session(raw: RawHand) -> _Session:
        if raw.header_line == 0:  # not cut by split(), which looks for the session header
            raise HandParseError(raw.first_line, "ipoker: a <game> element needs its session header (use split())")
        return _read_session(raw.header, raw.header_line)

    def parse_stud8(self, raw: RawHand) -> Hand:
        tree = self.game_tree(raw)
        session = self._session(raw)
        game = tree.root
        line = tree.line_of(game)
        if session.small is None or session.big is None or session.limit is None:
            raise HandParseError(line, f"no stakes in the session's gametype: {session.gametype!r}")
        builder = HandBuilder(self.name, raw, unit=session.unit, hand_id=attribute(game, "gamecode", line))
        small_bet = _money(session.small, session.unit, line)
        big_bet = _money(session.big, session.unit, line)
        symbol = _symbol_of(session.gametype)
        if symbol and session.currency_element and session.currency_element != CURRENCY_OF_SYMBOL[symbol]:
            builder.note(f"the session's <currency> says {session.currency_element} but amounts are in {symbol}: "
                         f"trusting the amounts ({CURRENCY_OF_SYMBOL[symbol]})")

        players, started_at, dealer_seat = self._general(game, tree, builder)
        rounds = sorted(game.findall("round"), key=lambda element: self._round_no(element, tree))
        for child in game:
            if child.tag not in ("general", "round"):
                raise HandParseError(tree.line_of(child), f"unexpected <{child.tag}> in a game")
        self._check_action_order(rounds, tree)
        stacks = {name: stack for name, (stack, _, _, _) in players.items()}
        for round_element in rounds:
            self._round(round_element, tree, builder, stacks, small_bet)
        self._settle(players, builder)
        self._showdown(builder)

        stakes = stakes_from_forced_bets(  # small/big bet from the gametype; ante and bring-in as posted
            builder,
            small_bet=small_bet,
            big_bet=big_bet,
            currency=session.currency,
            structure=_STRUCTURES[session.limit],
            is_tournament=session.tournament_id is not None,
        )
        total_bet = sum(bet for _, _, _, bet in players.values())
        total_win = sum(win for _, _, win, _ in players.values())
        builder.note(f"no rake printed (rake left unknown): total bet {total_bet} - total won {total_win} "
                     f"= {total_bet - total_win} implied")
        return builder.build(
            stakes,
            started_at=started_at,
            table_name=session.table_name,
            tournament_id=session.tournament_id,
            hero=session.hero if session.hero in players else None,
            game_label=session.label,
            dealer_seat=dealer_seat,
        )

    # ------------------------------------------------------------ header of a game

    def _general(self, game: ElementTree.Element, tree: LocatedTree, b: HandBuilder
                 ) -> tuple[dict[str, tuple[int, int, int, int]], datetime | None, int | None]:
        """Seats from ``<players>``: name → (stack, line, win, bet); start time; dealer seat."""
        general = game.find("general")
        if general is None:
            raise HandParseError(tree.line_of(game), "game has no <general> section")
        for child in general:
            if child.tag not in _GAME_GENERAL_TAGS:
                raise HandParseError(tree.line_of(child), f"unexpected <{child.tag}> in a game's <general>")
        start = general.find("startdate")
        stated = (start.text.strip() or None) if start is not None and start.text is not None else None
        started_at, notes = stated_start(stated, ["%Y-%m-%d %H:%M:%S"], tree.line_of(start) if start is not None else None)
        b.notes.extend(notes)
        players_element = general.find("players")
        if players_element is None:
            raise HandParseError(tree.line_of(general), "game has no <players>")
        players: dict[str, tuple[int, int, int, int]] = {}
        dealer_seat: int | None = None
        acted = {action.get("player") for action in game.iter("action")} | {cards.get("player") for cards in game.iter("cards")}
        for player in players_element:
            line = tree.line_of(player)
            if player.tag != "player":
                raise HandParseError(line, f"unexpected <{player.tag}> in <players>")
            name = attribute(player, "name", line)
            seat = int(attribute(player, "seat", line))
            stack = _money(attribute(player, "chips", line), b.unit, line)
            win = _money(attribute(player, "win", line), b.unit, line)
            bet = _money(attribute(player, "bet", line), b.unit, line)
            # iPoker has no sitting-out flag: a seat with no cards and no action was not dealt in.
            b.seat(seat, name, stack, sitting_out=name not in acted, line=line)
            players[name] = (stack, line, win, bet)
            if player.get("dealer") == "1":
                dealer_seat = seat
        return players, started_at, dealer_seat

    @staticmethod
    def _round_no(element: ElementTree.Element, tree: LocatedTree) -> int:
        number = attribute(element, "no", tree.line_of(element))
        if not number.isdigit():
            raise HandParseError(tree.line_of(element), f"round number {number!r} is not a number")
        return int(number)

    @staticmethod
    def _check_action_order(rounds: list[ElementTree.Element], tree: LocatedTree) -> None:
        """Action numbers must be unique and rise from round to round, whatever the
        order they are written in inside a round."""
        seen: set[int] = set()
        last_round_max = -1
        for round_element in rounds:
            numbers = []
            for action in round_element.iter("action"):
                text = attribute(action, "no", tree.line_of(action))
                if not text.isdigit() or int(text) in seen:
                    raise HandParseError(tree.line_of(action), f"action number {text!r} is not a new number")
                seen.add(int(text))
                numbers.append(int(text))
            if numbers and min(numbers) < last_round_max:
                raise HandParseError(tree.line_of(round_element), "actions of this round are numbered before the last round's")
            last_round_max = max(numbers, default=last_round_max)

    # ------------------------------------------------------------ rounds

    def _round(self, round_element: ElementTree.Element, tree: LocatedTree, b: HandBuilder,
               stacks: dict[str, int], small_bet: int) -> None:
        number = self._round_no(round_element, tree)
        line = tree.line_of(round_element)
        for child in round_element:
            if child.tag not in ("action", "cards"):
                raise HandParseError(tree.line_of(child), f"unexpected <{child.tag}> in a round")
        actions = sorted(round_element.findall("action"), key=lambda action: int(action.get("no", "0")))
        if number == 0:  # antes
            for action in actions:
                self._ante_round_action(action, tree, b, stacks)
            if round_element.find("cards") is not None:
                raise HandParseError(line, "cards dealt in the ante round")
            return
        if number == 1:  # a round stud does not use
            if len(round_element):
                raise HandParseError(line, "round 1 should be empty in stud")
            return
        street = _STREET_OF_ROUND.get(number)
        if street is None:
            raise HandParseError(line, f"round {number} is not a stud street")
        b.start_street(street)
        for cards in round_element.findall("cards"):
            self._deal(cards, tree, b, street)
        for action in actions:
            self._action(action, tree, b, stacks, small_bet)

    def _ante_round_action(self, action: ElementTree.Element, tree: LocatedTree, b: HandBuilder,
                           stacks: dict[str, int]) -> None:
        line = tree.line_of(action)
        kind, player = attribute(action, "type", line), attribute(action, "player", line)
        if kind == "15":
            amount = _money(attribute(action, "sum", line), b.unit, line)
            b.ante(player, amount, amount == chips_left(b, player, stacks.get(player)), line)
        elif kind != "8":  # 8: no action this hand
            raise HandParseError(line, f"action type {kind} in the ante round")

    @staticmethod
    def _deal(cards: ElementTree.Element, tree: LocatedTree, b: HandBuilder, street: Street) -> None:
        line = tree.line_of(cards)
        player = attribute(cards, "player", line)
        kind = attribute(cards, "type", line)
        if _STREET_OF_CARDS.get(kind.lower()) is not street:
            raise HandParseError(line, f"cards of type {kind!r} in the {street.label}-street round")
        dealt = tuple(_card(token, line) for token in (cards.text or "").split())
        expected = cards_dealt_on(street)
        if len(dealt) != expected:
            raise HandParseError(line, f"{len(dealt)} cards dealt on {street.label} street, expected {expected}")
        b.deal_new_cards(player, dealt, line)

    def _action(self, action: ElementTree.Element, tree: LocatedTree, b: HandBuilder,
                stacks: dict[str, int], small_bet: int) -> None:
        line = tree.line_of(action)
        kind, player = attribute(action, "type", line), attribute(action, "player", line)
        amount = _money(attribute(action, "sum", line), b.unit, line)
        left = chips_left(b, player, stacks.get(player))
        if left is None:
            raise HandParseError(line, f"player {player!r} is not seated in this hand")
        if kind in ("0", "9"):
            b.act(player, ActionKind.FOLD, line=line)
            if kind == "9":
                b.note(f"{player} folded while sitting out", line)
        elif kind == "4":
            b.act(player, ActionKind.CHECK, line=line)
        elif kind == "3":
            b.act(player, ActionKind.CALL, added=amount, all_in=amount == left, line=line)
        elif kind == "16":
            b.act(player, ActionKind.BRING_IN, added=amount, all_in=amount == left, line=line)
        elif kind == "5":
            b.increase(player, added=amount, all_in=amount == left, line=line)
        elif kind == "23":
            b.increase(player, to=amount, all_in=amount - b.put_in(player) == left, line=line)
        elif kind == "6":
            to = b.highest_bet() + amount
            b.increase(player, to=to, all_in=to - b.put_in(player) == left, line=line)
        elif kind == "7":
            record_all_in(b, player, amount, left, small_bet, line)
        elif kind in ("1", "2"):
            raise HandParseError(line, f"blind (action type {kind}) in a stud game")
        elif kind != "8":
            raise HandParseError(line, f"unknown action type {kind!r}: {ElementTree.tostring(action, 'unicode')[:160]!r}")

    # ------------------------------------------------------------ results

    @staticmethod
    def _settle(players: dict[str, tuple[int, int, int, int]], b: HandBuilder) -> None:
        """Awards from the ``win`` totals; the ``bet`` totals check the actions read."""
        for name, (_, line, win, bet) in players.items():
            put_in = sum(action.amount for action in b.actions if action.player == name)
            if put_in != bet:
                b.note(f"{name}'s actions add up to {put_in} but the site's bet total is {bet}", line)
            if win > 0:
                b.award(name, win, pot=None, half=Half.UNKNOWN, line=line)
        if b.awards:
            b.note("iPoker states only each player's total win: which pot and which half (high/low) it is "
                   "for are unknown, and a win includes any uncalled bet handed back")

    @staticmethod
    def _showdown(b: HandBuilder) -> None:
        """iPoker prints no showdown; when two or more players are still in at the end,
        the cards it reveals for them in the deal records are their shown hands."""
        folded = {action.player for action in b.actions if action.kind is ActionKind.FOLD}
        live = [seat.player for seat in b.seats if seat.player not in folded and not seat.sitting_out]
        if len(live) < 2:
            return
        for player in live:
            cards = tuple(card for deal in b.deals if deal.player == player for card in (*deal.down, *deal.up))
            if len(cards) == 7 and None not in cards:
                b.show(player, ShowStatus.SHOWN, cards, line=max(deal.line for deal in b.deals if deal.player == player))
        if b.showdown:
            b.note("iPoker prints no showdown: the hands of players still in at the end are taken from their dealt cards")


PARSER = IPokerParser()
