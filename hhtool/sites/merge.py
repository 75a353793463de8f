"""Merge / Carbon XML-fragment histories (formats doc §10).

There is no Lark grammar for this site: a file is a ``<description/>`` element followed
by ``<game>`` elements with no root, read with a real XML parser (``defusedxml``, which
refuses DTDs and entities) through :mod:`hhtool.sites.kit.xmlsupport`, which wraps
fragments in a synthetic root. ``split()`` yields one hand per ``<game>`` with its true
file lines; the ``<description/>`` (stakes) travels with each hand.

Quirks kept here:

* The game is ``gametype`` or, at mixed tables (HORSE), ``multigametype``: 43 (cash)
  and 45 (tournament) are Stud Hi/Lo; everything else is skipped.
* Events name players by **seat number** (0-based), except CHAT (a nickname, ignored
  with the other noise events). Amounts: BET, CALL and ALL_IN are chips added;
  COMPLETE and RAISE are the street total (RAISE before 2010-09-08 was chips added,
  as fpdb reads that format). ALL_IN is resolved by
  :func:`~hhtool.sites.kit.xmlsupport.record_all_in`.
* Cards are comma separated and cumulative (``null`` or empty = hidden), repeated each
  round for the hero even after a fold; only new cards become deals.
* Winners carry ``pottype`` h/l/n (high, low, undivided) and ``potnumber``; an uncalled
  bet is a pseudo-winner ``uncalled="true"`` and is recorded as an UncalledReturn.
  Pot numbers of real winners are renumbered 0, 1, … in order (the pseudo-winner takes
  a number too).
* ``dealtin="false"`` is a seat sitting out; ``players dealer="N"`` is the dealer seat.
* Older exports print no pseudo-winner: the winner's amount includes the returned uncalled
  bet. Such a hand keeps the stated amounts and gets a note (:data:`UNCALLED_INSIDE_AWARDS_NOTE`).
* No rake is printed: ``rake`` stays None (unknown) and a note gives the implied
  amount, contributions − returns − awards.
* The description's ``stakes`` names the limit and states two amounts (``Limit $0.25/$0.50``:
  small and big bet, the ante and bring-in taken as posted), three (``No Limit
  ($0.01/$0.02/$0.10)``: ante, bring-in and minimum bet, all stated), or none (a mixed-game
  tournament's ``stakes="Limit"``: fixed-limit bets are inferred from the betting, other limits
  leave the minimum bet unknown). Tournament chips are whole chips (``CHIPS``, unit 1) even where
  a balance is printed ``$1000.00``.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Sequence
from datetime import datetime
from functools import lru_cache

from hhtool.model import ActionKind, Card, Half, Hand, RawHand, ShownHand, ShowStatus, Stakes, Street
from hhtool.money import site_amount
from hhtool.sites.kit.base import (
    HandBuilder,
    HandParseError,
    parse_money,
    uncalled_excess,
)
from hhtool.sites.kit.common_lines import CURRENCY_OF_SYMBOL, stakes_from_forced_bets, stated_start, structure_named
from hhtool.sites.kit.xmlsupport import LocatedTree, XmlSiteParser, attribute, chips_left, parse_xml, record_all_in

_DESCRIPTION = re.compile(r"<description\b")
#: how a hand says it is of the older export whose awards include the returned uncalled bet
UNCALLED_INSIDE_AWARDS_NOTE = "older Merge export without an uncalled-bet pseudo-winner"
_STAMP = re.compile(r"\d{14}")  # yyyymmddHHMMSS
_GAME_ID_LINE = re.compile(r'<game id="\d+-\d+" starttime=')
_AMOUNT = r"[$€£]?\d(?:[\d.,]*\d)?"
#: the description's stakes: the limit, then two amounts, three, or none at all (then nothing may follow)
_STAKES = re.compile(
    r"^(?P<limit>No Limit|Pot Limit|Half Pot Limit|Limit)\s*(?:Level \d+ Blinds\s*)?"
    rf"(?:\(?(?P<first>{_AMOUNT}) ?/ ?(?P<second>{_AMOUNT})(?: ?/ ?(?P<third>{_AMOUNT}))?\)?|\s*$)"
)
_STUD8_CODES = {"43", "45"}
_TOURNAMENT_CODES = {"45"}
_GAME_NAMES = {
    "1": "Holdem", "2": "Holdem", "9": "Holdem", "23": "Holdem", "4": "Omaha", "34": "Omaha H/L8", "35": "Omaha H/L8",
    "37": "Omaha H/L8", "38": "7-Stud", "39": "7-Stud", "41": "7-Stud", "42": "7-Stud", "43": "7-Stud H/L8",
    "45": "7-Stud H/L8", "46": "Razz", "47": "Razz", "49": "Razz",
}
_STREET_OF_ROUND = {
    "BLINDS": Street.THIRD,
    "BRING_IN": Street.THIRD,
    "THIRD_STREET": Street.THIRD,
    "FOURTH_STREET": Street.FOURTH,
    "FIFTH_STREET": Street.FIFTH,
    "SIXTH_STREET": Street.SIXTH,
    "SEVENTH_STREET": Street.SEVENTH,
}
_END_ROUNDS = {"SHOWDOWN", "END_OF_FOLDED_GAME", "END_OF_GAME"}
_NOISE_EVENTS = {"CHAT", "DISCONNECTED", "RECONNECTED", "LEAVE", "PLAYER_OUT", "SIT_IN"}
_HALVES = {"h": Half.HIGH, "l": Half.LOW, "n": Half.WHOLE}
_OLD_RAISE_FORMAT_UNTIL = datetime(2010, 9, 8)
_HIDDEN = {"", "null"}


@lru_cache(maxsize=16)
def _description(header: tuple[str, ...], header_line: int) -> dict[str, str]:
    """The attributes of the file's ``<description/>`` (empty when there is none)."""
    if not header:
        return {}
    tree = parse_xml("\n".join(header), header_line, fragment=True)
    element = tree.root.find("description")
    return dict(element.attrib) if element is not None else {}


def _header_of(raw: RawHand) -> dict[str, str]:
    return _description(raw.header, raw.header_line)


def _card(token: str, line: int) -> Card | None:
    if token.strip() in _HIDDEN:
        return None
    try:
        return Card.parse(token)
    except ValueError:
        raise HandParseError(line, f"not a card: {token!r}") from None


class MergeParser(XmlSiteParser):
    name = "merge"

    def sniff(self, head: Sequence[str]) -> bool:
        first = head[0].lstrip() if head else ""
        if first.startswith("<description ") and "stakes=" in first:
            return True
        return any(_GAME_ID_LINE.search(line) for line in head[:3])

    header_start = _DESCRIPTION
    id_attribute = "id"

    def game_of(self, raw: RawHand) -> tuple[str | None, str, bool]:
        start = self.start_attributes(raw)
        code = start.get("multigametype") or start.get("gametype") or ""
        kind = _header_of(raw).get("type", "")
        name = _GAME_NAMES.get(code, f"gametype {code}")
        label = name if not kind or kind == name else f"{kind} ({name})"
        if 'type="GAME_CANCELLED"' in raw.text:
            return start.get("id"), f"{label} (hand cancelled)", False
        return start.get("id"), label, code in _STUD8_CODES

    def parse_stud8(self, raw: RawHand) -> Hand:
        tree = self.game_tree(raw)
        _, label, _ = self.game_of(raw)
        game = tree.root
        line = tree.line_of(game)
        if game.tag != "game":
            raise HandParseError(line, f"expected <game>, found <{game.tag}>")
        description = _header_of(raw)
        stakes_text = description.get("stakes") or game.get("stakes")
        stakes_match = _STAKES.match(stakes_text or "")
        if stakes_match is None:
            raise HandParseError(line, f"no stakes for this game (description stakes={stakes_text!r})")
        code = game.get("multigametype") or game.get("gametype") or ""
        is_tournament = code in _TOURNAMENT_CODES or "Tournament" in description.get("type", "")
        play_money = game.get("realmoney") == "false"
        amount_texts = [text for text in stakes_match.group("first", "second", "third") if text is not None]
        symbol = next((s for s in CURRENCY_OF_SYMBOL if amount_texts and s in amount_texts[0]), None)
        if is_tournament or play_money:
            currency, unit = ("CHIPS" if is_tournament else "PLAY"), 1
        else:
            currency, unit = CURRENCY_OF_SYMBOL[symbol or "$"], 100  # Merge's real-money tables were in US dollars
        builder = HandBuilder(self.name, raw, unit=unit, hand_id=attribute(game, "id", line))
        stated = [parse_money(text, unit, line) for text in amount_texts]
        minimum_bet = stated[-1] if len(stated) == 3 else stated[0] if stated else None
        # a stamp of other than 14 digits is none (strptime would read "2024030220150" as 2024-03-02 20:15:00)
        stamp = game.get("starttime") or None
        started_at, notes = stated_start(stamp, ["%Y%m%d%H%M%S"] if stamp is None or _STAMP.fullmatch(stamp) else [], line)
        builder.notes.extend(notes)

        seats, stacks, dealer_seat = self._players(game, tree, builder)
        state = _MergeState(seats, stacks, minimum_bet, started_at)
        for child in game:
            if child.tag != "players" and child.tag != "round":
                raise HandParseError(tree.line_of(child), f"unexpected <{child.tag}> in a game")
        for round_element in game.findall("round"):
            self._round(round_element, tree, builder, state)
        self._winners(state, builder)

        structure = structure_named(stakes_match.group("limit"))  # "Half Pot Limit" is pot limit
        table_size = int(game.get("seats", "0")) or None
        if len(stated) == 3:  # ante / bring-in / minimum bet, all stated (no big bet is)
            ante, bring_in, _ = stated
            stakes = Stakes(ante=ante, bring_in=bring_in, small_bet=minimum_bet, big_bet=None, currency=currency,
                            unit=unit, structure=structure, is_tournament=is_tournament, table_size=table_size)
        else:  # small/big bet from the description, else inferred; ante and bring-in as posted
            small_bet, big_bet = (stated[0], stated[1]) if stated else (None, None)
            stakes = stakes_from_forced_bets(builder, small_bet=small_bet, big_bet=big_bet, currency=currency,
                                             structure=structure, is_tournament=is_tournament, table_size=table_size)
        contributed = sum(action.amount for action in builder.actions) - sum(ret.amount for ret in builder.uncalled)
        awarded = sum(award.amount for award in builder.awards)
        self._note_uncalled_inside_awards(builder, contributed, awarded)
        builder.note(f"no rake printed (rake left unknown): contributions {contributed} - awards {awarded} "
                     f"= {contributed - awarded} implied")
        data = game.get("data", "").split("|")
        return builder.build(
            stakes,
            started_at=started_at,
            table_name=data[1].strip() if len(data) > 1 else None,
            tournament_id=data[2].split("-")[0] if is_tournament and len(data) > 2 else None,
            hero=state.hero,
            game_label=label,
            dealer_seat=dealer_seat,
            community_card=state.community_card,
        )

    @staticmethod
    def _note_uncalled_inside_awards(b: HandBuilder, contributed: int, awarded: int) -> None:
        """Older Merge exports print no ``uncalled="true"`` pseudo-winner: the winner's amount holds the bet
        nobody matched. Told (and noted, as the site's accounting rule) when the awards exceed what the pot
        held without that bet, which no rake can explain; the amounts stay as the site stated them."""
        excess = None if b.uncalled else uncalled_excess(b.actions)
        if excess is None:
            return
        player, amount, street = excess
        if awarded > contributed - amount and any(award.player == player for award in b.awards):
            b.note(f"{UNCALLED_INSIDE_AWARDS_NOTE}: the {site_amount(amount, b.unit)} nobody matched "
                   f"({player}, {street.label} street) is inside the awarded amounts, recorded as stated")

    # ------------------------------------------------------------ players

    @staticmethod
    def _players(game: ElementTree.Element, tree: LocatedTree, b: HandBuilder
                 ) -> tuple[dict[str, str], dict[str, int], int | None]:
        """Seat number → nickname, nickname → starting stack, the dealer seat."""
        players = game.find("players")
        if players is None:
            raise HandParseError(tree.line_of(game), "game has no <players>")
        seats: dict[str, str] = {}
        stacks: dict[str, int] = {}
        for player in players:
            line = tree.line_of(player)
            if player.tag != "player":
                raise HandParseError(line, f"unexpected <{player.tag}> in <players>")
            seat = attribute(player, "seat", line)
            name = attribute(player, "nickname", line)
            stack = parse_money(attribute(player, "balance", line), b.unit, line)
            b.seat(int(seat), name, stack, sitting_out=player.get("dealtin") == "false", line=line)
            seats[seat] = name
            stacks[name] = stack
        dealer = players.get("dealer")
        return seats, stacks, int(dealer) if dealer and dealer.isdigit() else None

    # ------------------------------------------------------------ rounds

    def _round(self, round_element: ElementTree.Element, tree: LocatedTree, b: HandBuilder, state: _MergeState) -> None:
        round_id = attribute(round_element, "id", tree.line_of(round_element))
        street = _STREET_OF_ROUND.get(round_id)
        if street is None and round_id not in _END_ROUNDS:
            raise HandParseError(tree.line_of(round_element), f"unknown round {round_id!r}")
        if street is not None and street is not b.street:
            b.start_street(street)
        for child in round_element:
            line = tree.line_of(child)
            if child.tag == "event":
                self._event(child, line, round_id, b, state)
            elif child.tag == "cards":
                self._cards(child, line, street, b, state)
            elif child.tag == "winner":
                state.winners.append((child, line))
            else:
                raise HandParseError(line, f"unexpected <{child.tag}> in round {round_id}")

    def _event(self, event: ElementTree.Element, line: int, round_id: str, b: HandBuilder, state: _MergeState) -> None:
        kind = attribute(event, "type", line)
        if kind in _NOISE_EVENTS:
            return
        player = state.player(attribute(event, "player", line), line)
        amount_text = event.get("amount")
        amount = parse_money(amount_text, b.unit, line) if amount_text is not None else None
        left = chips_left(b, player, state.stacks[player])
        assert left is not None
        if kind in ("ANTE", "BRING_IN", "COMPLETE", "BET", "RAISE", "CALL", "ALL_IN") and amount is None:
            raise HandParseError(line, f"{kind} without an amount")
        if kind == "ANTE":
            assert amount is not None
            b.ante(player, amount, amount == left, line)
        elif kind == "BRING_IN":
            b.act(player, ActionKind.BRING_IN, added=amount, all_in=amount == left, line=line)
        elif kind == "CALL":
            b.act(player, ActionKind.CALL, added=amount, all_in=amount == left, line=line)
        elif kind == "BET":
            b.increase(player, added=amount, all_in=amount == left, line=line)
        elif kind == "COMPLETE":
            assert amount is not None
            b.increase(player, to=amount, all_in=amount - b.put_in(player) == left, line=line)
        elif kind == "RAISE":
            assert amount is not None
            if state.started_at is not None and state.started_at < _OLD_RAISE_FORMAT_UNTIL:
                b.note("RAISE read as chips added (format before 2010-09-08)", line)
                b.increase(player, added=amount, all_in=amount == left, line=line)
            else:
                b.increase(player, to=amount, all_in=amount - b.put_in(player) == left, line=line)
        elif kind == "ALL_IN":
            assert amount is not None
            record_all_in(b, player, amount, left, state.small_bet, line)
        elif kind == "CHECK":
            b.act(player, ActionKind.CHECK, line=line)
        elif kind == "FOLD":
            b.act(player, ActionKind.FOLD, line=line)
        elif kind == "SIT_OUT":
            self._sit_out(player, line, b)
        elif kind in ("SHOW", "MUCK"):
            status = ShowStatus.SHOWN if kind == "SHOW" else ShowStatus.MUCKED
            state.show_events[player] = (ShowStatus.NOT_SHOWN if round_id == "END_OF_FOLDED_GAME" else status, line)
        else:
            raise HandParseError(line, f"unknown event type {kind!r}: {ElementTree.tostring(event, 'unicode')[:160]!r}")

    @staticmethod
    def _sit_out(player: str, line: int, b: HandBuilder) -> None:
        """Sitting out during a hand folds a player who is still in it."""
        in_hand = any(action.player == player for action in b.actions)
        folded = any(action.player == player and action.kind is ActionKind.FOLD for action in b.actions)
        if in_hand and not folded:
            b.act(player, ActionKind.FOLD, line=line)
            b.note(f"{player} sat out during the hand (recorded as a fold)", line)

    def _cards(self, cards: ElementTree.Element, line: int, street: Street | None, b: HandBuilder, state: _MergeState) -> None:
        kind = attribute(cards, "type", line)
        text = attribute(cards, "cards", line)
        if kind == "COMMUNITY":
            state.community_card = _card(text.split(",")[-1], line)
            return
        player = state.player(attribute(cards, "player", line), line)
        listed = tuple(_card(token, line) for token in text.split(","))
        if kind in ("SHOWN", "MUCKED"):
            status = ShowStatus.SHOWN if kind == "SHOWN" else ShowStatus.MUCKED
            b.show(player, status, listed, line=line)
            return
        if kind not in ("HOLE", "DRAW_DRAWN_CARDS"):
            raise HandParseError(line, f"unknown cards type {kind!r}")
        if street is None:
            raise HandParseError(line, f"{kind} cards after the last street")
        if kind == "HOLE":
            state.hero = player
        seen = state.cards_seen.get(player, 0)
        if len(listed) == seen:  # the same cards again (the hero's, after a fold)
            return
        if len(listed) != int(street) or seen != int(street) - (3 if street is Street.THIRD else 1):
            raise HandParseError(line, f"{player} shows {len(listed)} cards on {street.label} street after {seen}")
        state.cards_seen[player] = len(listed)
        b.deal_new_cards(player, listed[seen:], line, street)

    # ------------------------------------------------------------ results

    @staticmethod
    def _winners(state: _MergeState, b: HandBuilder) -> None:
        shown_players = {shown.player for shown in b.showdown}
        for player, (status, line) in state.show_events.items():
            if player not in shown_players:
                b.show(player, status, line=line)
        real_pots = sorted({int(w.get("potnumber", "1")) for w, _ in state.winners if w.get("uncalled") != "true"})
        texts: dict[str, dict[Half, str]] = {}
        for winner, line in state.winners:
            player = state.player(attribute(winner, "player", line), line)
            amount = parse_money(attribute(winner, "amount", line), b.unit, line)
            if winner.get("uncalled") == "true":
                b.return_uncalled(player, amount, line)
                continue
            pottype = attribute(winner, "pottype", line)
            if pottype not in _HALVES:
                raise HandParseError(line, f"unknown pottype {pottype!r}")
            b.award(player, amount, real_pots.index(int(winner.get("potnumber", "1"))), _HALVES[pottype], line)
            if winner.get("hand"):
                texts.setdefault(player, {})[_HALVES[pottype]] = winner.get("hand", "")
        for index, shown in enumerate(b.showdown):
            if shown.player in texts:
                described = texts[shown.player]
                high = described.get(Half.HIGH) or described.get(Half.WHOLE)
                b.showdown[index] = ShownHand(shown.player, shown.status, shown.cards, high, described.get(Half.LOW),
                                              shown.line)


class _MergeState:
    """What the round loop learns beyond the builder's lists."""

    def __init__(self, seats: dict[str, str], stacks: dict[str, int], small_bet: int | None,
                 started_at: datetime | None) -> None:
        self.seats = seats
        self.stacks = stacks
        self.small_bet = small_bet
        self.started_at = started_at
        self.hero: str | None = None
        self.community_card: Card | None = None
        self.cards_seen: dict[str, int] = {}
        self.show_events: dict[str, tuple[ShowStatus, int]] = {}
        self.winners: list[tuple[ElementTree.Element, int]] = []

    def player(self, seat: str, line: int) -> str:
        try:
            return self.seats[seat]
        except KeyError:
            raise HandParseError(line, f"no player in seat {seat}") from None


PARSER = MergeParser()
