"""Bovada / Bodog / Ignition text histories.

Quirks kept here: players are anonymous seat tokens ("Seat+5"; the hero's lines say "Seat+5 [ME]",
recorded as player "Seat+5" and ``hero``); lines read "name : verb"; the header prints no stakes,
so ante and bring-in come from the posts and small/big bet from the first completion and big-street
bet; "Raises $7.50 to $10" is chips added then street total (the completion is "Raises $5 to $5");
every player's cards are revealed after the hand on the "Card dealt to a spot" lines, which are
deals, not a showdown; "Hand result" lines say nothing of halves, the summary labels them HI/LO.

>>> PARSER.sniff(["Bovada Hand #2844383701 TBL#7794710 7CARD HiLo Fixed Limit - 2014-04-06 19:50:19"])
True
>>> _distinct_cards("5s 5c 8h 7c 6c 2h 3h 5c 6c 7c")
('5s', '5c', '8h', '7c', '6c', '2h', '3h')
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from lark import Token

from hhtool.model import ActionKind, Award, Half, Hand, RawHand, Restated, Restatement, ShowStatus, Street
from hhtool.sites.base import HandBuilder, HandParseError, SiteParser, load_grammar, parse_cards, parse_datetime, tokens_in_order
from hhtool.sites.common_lines import (
    HandFacts,
    cards_dealt_on,
    header_match,
    record_common_line,
    stakes_from_forced_bets,
    structure_named,
)
from hhtool.sites.restated import summary_restatements

_HAND_START = re.compile(r"(?:Ignition|Bovada|Bodog(?:\.com|\.eu| UK| Canada|88)?) Hand #C?(\d+):? ")
_TABLE = re.compile(r"\b(?:TBL|Zone Poker ID)#(\S+)")
_GAME = re.compile(r"\b(7CARD HiLo|7CARD_HL|7CARD|HOLDEM|OMAHA HiLo|OMAHA_HL|OMAHA|[A-Z0-9_]+(?: HiLo)?)(?:ZonePoker)?\b")
_LIMIT = re.compile(r"\b(Fixed Limit|No Limit|Pot Limit)\b")
_TOURNAMENT = re.compile(r"\bTournament #(?:M-)?(\d+)")
_LEVEL_STAKES = re.compile(r"Level \d+ \(?([$]?)(\d(?:[\d.,]*\d)?) ?/ ?[$]?(\d(?:[\d.,]*\d)?)")
_TIME_FORMATS = ("%Y-%m-%d %H:%M:%S", "%Y-%m-%d-%H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d-%H:%M")
_WHEN = re.compile(r" - (\d{4}-\d{1,2}-\d{1,2}[ -]\d{1,2}:\d{2}(?::\d{2})?)")
_STUD8_GAMES = {"7CARD HiLo", "7CARD_HL"}
_SUMMARY_HI = re.compile(r"\bHI ([$]?\d[\d.,]*)")
_SUMMARY_LO = re.compile(r"\bLOW? ([$]?\d[\d.,]*)")
_SUMMARY_PLAIN = re.compile(r"^([$]?\d[\d.,]*)\b")
_SHOW_STATUS = {"SHOWDOWN": ShowStatus.SHOWN, "DOES_NOT_SHOW": ShowStatus.NOT_SHOWN, "MUCKS": ShowStatus.MUCKED}


def _distinct_cards(text: str) -> tuple[str, ...]:
    """The showdown line prints the best high five then the best low five: keep each card once."""
    return tuple(dict.fromkeys(text.split()))


def _game(header: str) -> tuple[str, str]:
    """(game token, the site's label with the limit) from a header."""
    after_id = _HAND_START.sub("", header, count=1)
    after_table = _TABLE.sub("", after_id, count=1).strip()
    game = _GAME.match(after_table)
    token = game.group(1) if game else after_table.split(" - ")[0]
    limit = _LIMIT.search(header)
    return token, f"{token} {limit.group(1)}" if limit else token


def _assign_halves(results: list[Award], halves: dict[Half, int]) -> list[Award] | None:
    """Label a player's results with the summary's halves; None when the amounts don't fit."""
    if len(results) == 1 and set(halves) == {Half.HIGH, Half.LOW} and results[0].amount == sum(halves.values()):
        return [replace(results[0], amount=amount, half=half) for half, amount in halves.items()]
    for chosen in range(1 << len(results)):  # which results make up each half (a player has few)
        by_half: dict[Half, list[Award]] = {}
        for index, result in enumerate(results):
            half = list(halves)[(chosen >> index) & 1] if len(halves) == 2 else next(iter(halves), None)
            if half is None:
                return None
            by_half.setdefault(half, []).append(result)
        if all(sum(a.amount for a in by_half.get(half, [])) == amount for half, amount in halves.items()):
            return [replace(result, half=half) for half, group in by_half.items() for result in group]
        if len(halves) < 2:
            break
    return None


class BovadaParser(SiteParser):
    name = "bovada"
    hand_start = _HAND_START

    def game_of(self, raw: RawHand) -> tuple[str | None, str, bool]:
        start = header_match(raw, _HAND_START, "a Bovada hand header")
        token, label = _game(raw.lines[0])
        return start.group(1), label, token in _STUD8_GAMES

    def parse_stud8(self, raw: RawHand) -> Hand:
        grammar = load_grammar("bovada")
        tree = grammar.parse(raw.text)
        header = raw.lines[0]
        tournament = _TOURNAMENT.search(header)
        currency, unit = ("CHIPS", 1) if tournament else ("USD", 100)
        start = _HAND_START.match(header)
        builder = HandBuilder(self.name, raw, unit=unit, hand_id=start.group(1) if start else "")
        state = _BovadaState()
        for token in tokens_in_order(tree):
            self._handle(token, grammar.fields(token), builder, state)
        self._label_halves(builder, state)

        level = _LEVEL_STAKES.search(header)
        no_stakes_note = None
        if level and builder.money(level.group(3)) > 0:  # stud levels print "(0/0)"
            small_bet, big_bet = builder.money(level.group(2)), builder.money(level.group(3))
        else:
            small_bet, big_bet = self._bets_seen(builder)
            no_stakes_note = "Bovada prints no stakes: small and big bet are read from the first completion and big-street bet"
        limit = _LIMIT.search(header)
        stakes = stakes_from_forced_bets(
            builder,
            small_bet=small_bet,
            big_bet=big_bet,
            currency=currency,
            structure=structure_named(limit.group(1) if limit else ""),
            is_tournament=tournament is not None,
        )
        if no_stakes_note:  # after the bring-in note, as the hand has always listed them
            builder.note(no_stakes_note)
        _, label = _game(header)
        when = _WHEN.search(header)
        table = _TABLE.search(header)
        state.table_name = table.group(1).rstrip(",") if table else None
        started_at = parse_datetime(when.group(1), _TIME_FORMATS) if when else None
        return builder.build(
            stakes,
            started_at=started_at,
            timezone=None,  # Bovada does not say which zone its times are in
            tournament_id=tournament.group(1) if tournament else None,
            game_label=label,
            **state.hand_fields(),
        )

    def _handle(self, token: Token, fields: tuple[str | None, ...], b: HandBuilder, state: _BovadaState) -> None:
        kind = token.type
        line = b.line_of(token)
        if kind == "SEAT":
            player, me, stack = fields[0] or "", fields[1], fields[2]
            b.seat(int(player.split("+")[1]), player, b.money(stack, line), line=line)
            if me:
                state.hero = player
        elif kind == "DEALT":
            self._dealt(fields[0] or "", fields[1] or "", b, state, line)
        elif kind == "BRING_IN":
            record_common_line(b, "BRINGS_IN", fields, line)
        elif kind in ("RAISES", "ALL_IN_RAISE"):
            player, first = fields[0] or "", b.money(fields[1], line)
            if fields[2] is None:  # older exports print only the street total
                to = first
            else:
                to = b.money(fields[2], line)
                if b.put_in(player) + first != to:
                    b.note(f"raise adds {first} but goes from {b.put_in(player)} to {to}; the total is kept", line)
            b.increase(player, to=to, all_in=kind == "ALL_IN_RAISE", line=line)
        elif kind == "ALL_IN":
            b.act_all_in(fields[0] or "", b.money(fields[1], line), line)
        elif kind == "UNCALLED":  # player first, then the amount
            b.return_uncalled(fields[0] or "", b.money(fields[1], line), line)
        elif kind in _SHOW_STATUS:
            cards = parse_cards(" ".join(_distinct_cards(fields[1] or "")))
            b.show(fields[0] or "", _SHOW_STATUS[kind], cards, fields[2] or None, line=line)
        elif kind == "RESULT":
            b.award(fields[0] or "", b.money(fields[2], line), 1 if fields[1] else 0, Half.UNKNOWN, line)
        elif kind == "TOTAL_POT":
            state.total_pot = b.money(fields[0], line)
            state.rake = b.money(fields[1], line) if fields[1] else None
        elif kind == "SUMMARY_SEAT":
            self._summary_seat(int(fields[0] or 0), fields[1] or "", b, state, line)
        else:
            record_common_line(b, kind, fields, line)

    @staticmethod
    def _dealt(player: str, text: str, b: HandBuilder, state: _BovadaState, line: int) -> None:
        """A player's n-th deal is street n+2; older exports have no later street markers, so a
        deal past the current street opens the next one."""
        cards = parse_cards(text)
        dealt_before = state.deals_to.get(player, 0)
        if dealt_before >= 5:
            raise HandParseError(line, f"{player} is dealt an eighth card")
        street = Street(Street.THIRD + dealt_before)
        if street > b.street:
            b.start_street(street)
        elif street < b.street:
            raise HandParseError(line, f"{player} is dealt his {street.label}-street card on {b.street.label} street")
        state.deals_to[player] = dealt_before + 1
        if len(cards) != cards_dealt_on(b.street):
            raise HandParseError(line, f"{b.street.label}-street deal of {len(cards)} cards")
        b.deal_new_cards(player, cards, line)

    @staticmethod
    def _summary_seat(seat_no: int, body: str, b: HandBuilder, state: _BovadaState, line: int) -> None:
        player = next((seat.player for seat in b.seats if seat.seat == seat_no), None)
        if player is None:
            raise HandParseError(line, f"summary names seat {seat_no}, which is not in the hand")
        labels: list[tuple[Half, int]] = []
        high, low = _SUMMARY_HI.search(body), _SUMMARY_LO.search(body)
        if high:
            labels.append((Half.HIGH, b.money(high.group(1), line)))
        if low:
            labels.append((Half.LOW, b.money(low.group(1), line)))
        plain = _SUMMARY_PLAIN.match(body)
        if not labels and plain:
            labels.append((Half.WHOLE, b.money(plain.group(1), line)))
        if labels:
            state.summary_halves[player] = labels
            # what the summary says he won, both halves and every pot together, restated
            state.restatements.append(Restatement(Restated.WON, player, amount=sum(amount for _, amount in labels), line=line))
        state.restatements.extend(summary_restatements(body.strip(), player, b, line))  # "Folded on the RIVER"

    @staticmethod
    def _label_halves(b: HandBuilder, state: _BovadaState) -> None:
        """Give each "Hand result" the half the summary names for it. The summary gives a player's
        HI and LO amounts; a result matches one of them, or several results (main and side pot)
        add up to one; a single result that is HI + LO becomes two awards, one per half."""
        labelled: list[Award] = []
        for player in dict.fromkeys(a.player for a in b.awards):
            results = [a for a in b.awards if a.player == player]
            halves = {half: amount for half, amount in state.summary_halves.get(player, [])}
            assigned = _assign_halves(results, halves)
            if assigned is None:
                b.note(f"{player}'s results do not match the summary's HI/LO amounts: half unknown")
                labelled += results
            else:
                labelled += assigned
        b.awards[:] = sorted(labelled, key=lambda award: award.line)

    @staticmethod
    def _bets_seen(b: HandBuilder) -> tuple[int | None, int | None]:
        """Small bet: the first full completion (3rd) or bet (4th); big bet: the first full bet on 5th-7th."""
        small = next((a.to_amount for a in b.actions if not a.all_in and (
            (a.street is Street.THIRD and a.kind is ActionKind.COMPLETE)
            or (a.street is Street.FOURTH and a.kind is ActionKind.BET))), None)
        big = next((a.amount for a in b.actions if not a.all_in and a.street.is_big_bet and a.kind is ActionKind.BET), None)
        return small, big


@dataclass
class _BovadaState(HandFacts):
    summary_halves: dict[str, list[tuple[Half, int]]] = field(default_factory=dict)
    deals_to: dict[str, int] = field(default_factory=dict)


PARSER = BovadaParser()
