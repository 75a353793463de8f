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

from hhtool.model import ActionKind, Award, Half, RawHand, Restated, Restatement, ShowStatus, Stakes, Street
from hhtool.sites.kit.base import HandBuilder, HandParseError, parse_cards
from hhtool.sites.kit.common_lines import (
    COMMON_LINES,
    cards_dealt_on,
    header_match,
    stakes_from_forced_bets,
    stated_start,
    structure_named,
    total_pot_line,
)
from hhtool.sites.kit.line_rules import LineTable
from hhtool.sites.kit.line_site import LineSiteParser
from hhtool.sites.kit.lines import LineToken
from hhtool.sites.kit.restated import summary_restatements
from hhtool.sites.kit.stated import StatedHand, StatedStakes

_HAND_START = re.compile(r"(?:Ignition|Bovada|Bodog(?:\.com|\.eu| UK| Canada|88)?) Hand #C?(\d+):? ")
_TABLE = re.compile(r"\b(?:TBL|Zone Poker ID)#(\S+)")
_GAME = re.compile(r"\b(7CARD HiLo|7CARD_HL|7CARD|HOLDEM|OMAHA HiLo|OMAHA_HL|OMAHA|[A-Z0-9_]+(?: HiLo)?)(?:ZonePoker)?\b")
_LIMIT = re.compile(r"\b(Fixed Limit|No Limit|Pot Limit)\b")
_TOURNAMENT = re.compile(r"\bTournament #(?:M-)?(\d+)")
_LEVEL_STAKES = re.compile(r"Level \d+ \(?([$]?)(\d(?:[\d.,]*\d)?) ?/ ?[$]?(\d(?:[\d.,]*\d)?)")
_TIME_FORMATS = ("%Y-%m-%d %H:%M:%S", "%Y-%m-%d-%H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d-%H:%M")
# each run of digits taken whole (never a year's last four digits of "12014"): a date that is none is told, not moved
_WHEN = re.compile(r" - (\d+-\d+-\d+[ -]\d+:\d+(?::\d+)?)(?![\d:])")
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


@dataclass
class _BovadaFacts(StatedHand):
    summary_halves: dict[str, list[tuple[Half, int]]] = field(default_factory=dict)
    deals_to: dict[str, int] = field(default_factory=dict)


_LINES = LineTable[_BovadaFacts](order_only=("HEADER", "HOLE_MARKER", "SUMMARY_MARKER"))
_LINES.add("BRING_IN", COMMON_LINES["BRINGS_IN"])
_LINES.add("TOTAL_POT", total_pot_line(unstated_rake=None))  # no rake stated: unknown


@_LINES.on("SEAT", reads=("player", "me", "stack"))
def _seat(b: HandBuilder, facts: _BovadaFacts, token: LineToken) -> None:
    """Players are named by their seat ("Seat+3"); the hero's is marked "[ME]"."""
    player = token["player"] or ""
    b.seat(int(player.split("+")[1]), player, b.money(token["stack"], token.number), line=token.number)
    if token["me"]:
        facts.hero = player


@_LINES.on("DEALT", reads=("player", "cards"))
def _dealt(b: HandBuilder, facts: _BovadaFacts, token: LineToken) -> None:
    """A player's n-th deal is street n+2; older exports have no later street markers, so a
    deal past the current street opens the next one."""
    player, line = token["player"] or "", token.number
    cards = parse_cards(token["cards"] or "")
    dealt_before = facts.deals_to.get(player, 0)
    if dealt_before >= 5:
        raise HandParseError(line, f"{player} is dealt an eighth card")
    street = Street(Street.THIRD + dealt_before)
    if street > b.street:
        b.start_street(street)
    elif street < b.street:
        raise HandParseError(line, f"{player} is dealt his {street.label}-street card on {b.street.label} street")
    facts.deals_to[player] = dealt_before + 1
    if len(cards) != cards_dealt_on(b.street):
        raise HandParseError(line, f"{b.street.label}-street deal of {len(cards)} cards")
    b.deal_new_cards(player, cards, line)


@_LINES.on("RAISES", "ALL_IN_RAISE", reads=("player", "amount", "to"))
def _raises(b: HandBuilder, facts: _BovadaFacts, token: LineToken) -> None:
    line, stated_to = token.number, token["to"]
    player, first = token["player"] or "", b.money(token["amount"], line)
    if stated_to is None:  # older exports print only the street total
        to = first
    else:
        to = b.money(stated_to, line)
        if b.put_in(player) + first != to:
            b.note(f"raise adds {first} but goes from {b.put_in(player)} to {to}; the total is kept", line)
    b.increase(player, to=to, all_in=token.type == "ALL_IN_RAISE", line=line)


@_LINES.on("ALL_IN", reads=("player", "amount"))
def _all_in(b: HandBuilder, facts: _BovadaFacts, token: LineToken) -> None:
    b.act_all_in(token["player"] or "", b.money(token["amount"], token.number), token.number)


@_LINES.on(*_SHOW_STATUS, reads=("player", "cards", "hand"))
def _shows(b: HandBuilder, facts: _BovadaFacts, token: LineToken) -> None:
    cards = parse_cards(" ".join(_distinct_cards(token["cards"] or "")))
    b.show(token["player"] or "", _SHOW_STATUS[token.type], cards, token["hand"] or None, line=token.number)


@_LINES.on("RESULT", reads=("player", "side", "amount"))
def _result(b: HandBuilder, facts: _BovadaFacts, token: LineToken) -> None:
    b.award(token["player"] or "", b.money(token["amount"], token.number), 1 if token["side"] else 0, Half.UNKNOWN,
            token.number)


@_LINES.on("SUMMARY_SEAT", reads=("seat", "rest"))
def _summary_seat(b: HandBuilder, facts: _BovadaFacts, token: LineToken) -> None:
    seat_no, body, line = int(token["seat"] or 0), token["rest"] or "", token.number
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
        facts.summary_halves[player] = labels
        # what the summary says he won, both halves and every pot together, restated
        facts.restatements.append(Restatement(Restated.WON, player, amount=sum(amount for _, amount in labels), line=line))
    facts.restatements.extend(summary_restatements(body.strip(), player, b, line))  # "Folded on the RIVER"


class BovadaParser(LineSiteParser[_BovadaFacts]):
    name = "bovada"
    hand_start = _HAND_START
    grammar_name = "bovada"
    lines = _LINES

    def game_of(self, raw: RawHand) -> tuple[str | None, str, bool]:
        start = header_match(raw, _HAND_START, "a Bovada hand header")
        token, label = _game(raw.lines[0])
        return start.group(1), label, token in _STUD8_GAMES

    def read_header(self, raw: RawHand) -> _BovadaFacts:
        header = raw.lines[0]
        tournament = _TOURNAMENT.search(header)
        start = _HAND_START.match(header)
        limit = _LIMIT.search(header)
        when = _WHEN.search(header)
        table = _TABLE.search(header)
        level = _LEVEL_STAKES.search(header)
        started_at, notes = stated_start(when.group(1) if when else None, _TIME_FORMATS, raw.first_line)
        return _BovadaFacts(
            hand_id=start.group(1) if start else "",
            unit=1 if tournament else 100,
            currency="CHIPS" if tournament else "USD",
            structure=structure_named(limit.group(1) if limit else ""),
            is_tournament=tournament is not None,
            tournament_id=tournament.group(1) if tournament else None,
            game_label=_game(header)[1],
            started_at=started_at,
            notes=notes,
            timezone=None,  # Bovada does not say which zone its times are in
            stated=StatedStakes(raw.first_line, *(level.group(2, 3) if level else ())),
            table_name=table.group(1).rstrip(",") if table else None,
        )

    def finish(self, b: HandBuilder, facts: _BovadaFacts) -> None:
        self._label_halves(b, facts)

    def stakes(self, b: HandBuilder, facts: _BovadaFacts) -> Stakes:
        stated = facts.stated
        if stated.big_bet is not None and b.money(stated.big_bet, stated.line) > 0:  # stud levels print "(0/0)"
            return super().stakes(b, facts)
        small_bet, big_bet = self._bets_seen(b)
        stakes = stakes_from_forced_bets(b, small_bet=small_bet, big_bet=big_bet, currency=facts.currency,
                                         structure=facts.structure, is_tournament=facts.is_tournament)
        # after the bring-in note, as the hand has always listed them
        b.note("Bovada prints no stakes: small and big bet are read from the first completion and big-street bet")
        return stakes

    @staticmethod
    def _label_halves(b: HandBuilder, facts: _BovadaFacts) -> None:
        """Give each "Hand result" the half the summary names for it. The summary gives a player's
        HI and LO amounts; a result matches one of them, or several results (main and side pot)
        add up to one; a single result that is HI + LO becomes two awards, one per half."""
        labelled: list[Award] = []
        for player in dict.fromkeys(a.player for a in b.awards):
            results = [a for a in b.awards if a.player == player]
            halves = {half: amount for half, amount in facts.summary_halves.get(player, [])}
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


PARSER = BovadaParser()
