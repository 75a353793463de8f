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

from hhtool.model import ActionKind, FailureKind, Half, RawHand, Restated, Restatement, Street
from hhtool.sites.kit.base import HandBuilder, HandParseError, parse_cards
from hhtool.sites.kit.common_lines import StreetsByDeals, cards_dealt_on, header_match, stated_start, structure_named
from hhtool.sites.kit.line_rules import LineTable
from hhtool.sites.kit.line_site import LineSiteParser
from hhtool.sites.kit.lines import LineToken
from hhtool.sites.kit.stated import StatedHand, StatedStakes

_HAND_START = re.compile(r"#\d+: (?:No Limit|Pot Limit|Limit) ")
# read tolerantly: spaces around the slash, a dollar sign, thousands separators; times with or without seconds
_HEADER = re.compile(r"#(\d+): (No Limit|Pot Limit|Limit) (.+?) - \$?(\d(?:[\d.,]*\d)?) ?/ ?\$?(\d(?:[\d.,]*\d)?)$")
# each run of digits taken whole (never a year's last four digits of "12022"): a date that is none is told, not moved
_DATE = re.compile(r"\d+-\d+-\d+ \d+:\d+(?::\d+)?$")
_TOURNAMENT_TABLE = re.compile(r"T(\d+) \[\d+\]")
_STUD8_GAME = "Seven Card Stud Hi-Lo"


@dataclass
class _KingsFacts(StatedHand):
    streets: StreetsByDeals = field(default_factory=StreetsByDeals)  # 2021 labels are shifted, 2022 ones true
    folded: set[str] = field(default_factory=set)
    summary_net: dict[str, tuple[int, int]] = field(default_factory=dict)  # player -> (net, line)


_LINES = LineTable[_KingsFacts](order_only=("HEADER", "SUMMARY_MARKER"))


@_LINES.on("DATE", reads=("date",))
def _date(b: HandBuilder, facts: _KingsFacts, token: LineToken) -> None:
    facts.started_at, notes = stated_start(token["date"] or "", ["%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M"], token.number)
    b.notes.extend(notes)


@_LINES.on("STREET_MARKER", reads=("street",))
def _marker(b: HandBuilder, facts: _KingsFacts, token: LineToken) -> None:
    label = int(token["street"] or 0)
    number = facts.streets.marker_number(label)
    if not Street.THIRD <= number <= Street.SEVENTH:
        raise HandParseError(token.number, f"street marker {label} does not fit this hand's streets")
    facts.streets.announce(Street(number), token.number)


@_LINES.on("DEALT", reads=("player", "cards"))
def _dealt(b: HandBuilder, facts: _KingsFacts, token: LineToken) -> None:
    player, cards_text, line = token["player"] or "", token["cards"] or "", token.number
    if token.index == 0 or facts.tokens[token.index - 1].type != "DEALT":  # the first deal of a round
        facts.streets.start_round(b, line)
    cards = parse_cards(cards_text, hidden=("X",))
    if len(cards) != cards_dealt_on(b.street):
        raise HandParseError(line, f"{b.street.label}-street deal of {len(cards)} cards: {cards_text!r}")
    if b.street is Street.THIRD and cards[0] is not None:
        facts.hero = player
    b.deal_new_cards(player, cards, line)


def _check_dealt_first(facts: _KingsFacts, line: int) -> None:
    announced = facts.streets.marker_street
    if announced is not None:
        raise HandParseError(line, f"action after the {announced.label}-street marker but before its deal")


@_LINES.on("CHECKS", "FOLDS", reads=("player",))
def _passive(b: HandBuilder, facts: _KingsFacts, token: LineToken) -> None:
    player, line = token["player"] or "", token.number
    _check_dealt_first(facts, line)
    if token.type == "CHECKS":
        b.act(player, ActionKind.CHECK, line=line)
    else:
        b.act(player, ActionKind.FOLD, line=line)
        facts.folded.add(player)


@_LINES.on("BRINGS_IN", "BETS", "CALLS", reads=("player", "amount", "all_in"), may=("to",))
@_LINES.on("RAISES", reads=("player", "to", "all_in"), may=("amount",))
def _betting(b: HandBuilder, facts: _KingsFacts, token: LineToken) -> None:
    """An action with an amount: the street total, not the common lines' chips added."""
    player, line, kind = token["player"], token.number, token.type
    _check_dealt_first(facts, line)
    amount, all_in = b.money(token["to"] if kind == "RAISES" else token["amount"], line), bool(token["all_in"])
    if kind == "BRINGS_IN":
        b.act(player or "", ActionKind.BRING_IN, added=amount, all_in=all_in, line=line)
    elif kind == "CALLS":
        b.act(player or "", ActionKind.CALL, to=amount, all_in=all_in, line=line)
    else:  # BETS and RAISES state the street total
        b.increase(player or "", to=amount, all_in=all_in, line=line)


@_LINES.on("SUMMARY_SEAT", reads=("player", "stack", "net"))
def _summary_seat(b: HandBuilder, facts: _KingsFacts, token: LineToken) -> None:
    line = token.number
    player, net = token["player"] or "", b.money(token["net"], line)
    facts.summary_net[player] = (net, line)
    # "Seat 1: Player0 (2,054.59) +329": chips after the hand and the net result, restated
    facts.restatements.append(Restatement(Restated.NET, player, amount=net, line=line))
    facts.restatements.append(Restatement(Restated.STACK_AFTER, player, amount=b.money(token["stack"], line), line=line))


@_LINES.on("RAKE", reads=("rake",))
def _rake(b: HandBuilder, facts: _KingsFacts, token: LineToken) -> None:
    facts.rake = b.money(token["rake"], token.number)


@_LINES.on("WINS", reads=("player", "pot_amount", "side", "side_amount", "from_amount", "from_side"))
def _wins(b: HandBuilder, facts: _KingsFacts, token: LineToken) -> None:
    """"P wins pot (5)", "P wins side pot 1 (5)" or "P wins (5) from side pot 1"."""
    amount = token["pot_amount"] or token["side_amount"] or token["from_amount"]
    side = token["side"] or token["from_side"]
    b.award(token["player"] or "", b.money(amount, token.number), int(side) if side else 0, Half.UNKNOWN, token.number)


class KingsClubParser(LineSiteParser[_KingsFacts]):
    name = "kingsclub"
    hand_start = _HAND_START
    grammar_name = "kingsclub"
    lines = _LINES

    def sniff(self, head: Sequence[str]) -> bool:
        return len(head) >= 2 and bool(_HEADER.match(head[0])) and bool(_DATE.match(head[1]))

    def game_of(self, raw: RawHand) -> tuple[str | None, str, bool]:
        header = header_match(raw, _HEADER, "a KingsClub hand header")
        structure, game = header.group(2), header.group(3)
        label = f"{structure} {game}"
        if "Hand cancelled" in map(str.strip, raw.lines):
            return header.group(1), f"{label} (hand cancelled)", False
        return header.group(1), label, game == _STUD8_GAME

    def read_header(self, raw: RawHand) -> _KingsFacts:
        header = _HEADER.match(raw.lines[0])
        assert header is not None  # game_of accepted it
        table_line = raw.lines[2] if len(raw.lines) > 2 else ""
        tournament = _TOURNAMENT_TABLE.search(table_line)
        return _KingsFacts(
            hand_id=header.group(1),
            unit=1 if tournament else 100,
            currency="CHIPS" if tournament else "USD",
            structure=structure_named(header.group(2)),
            is_tournament=tournament is not None,
            tournament_id=tournament.group(1) if tournament else None,
            game_label=f"{header.group(2)} {header.group(3)}",
            # small/big bet from the header; ante and bring-in as posted
            stated=StatedStakes(raw.first_line, header.group(4), header.group(5)),
        )

    def finish(self, b: HandBuilder, facts: _KingsFacts) -> None:
        self._check_complete(b, facts)
        self._settle_unmatched_bets(b, facts)
        self._settle_rake(b, facts)
        if len({seat.player for seat in b.seats} - facts.folded) == 1:
            b.label_awards_whole()  # a pot nobody contested is not split

    # ------------------------------------------------------------ whole-hand checks

    @staticmethod
    def _check_complete(b: HandBuilder, facts: _KingsFacts) -> None:
        last = b.raw.last_line
        seated = [seat.player for seat in b.seats]
        missing = [player for player in seated if player not in facts.summary_net]
        if missing:
            raise HandParseError(last, f"hand ends early (truncated or incomplete hand): no summary line for {missing[0]!r}",
                                 FailureKind.ENDS_EARLY)
        if not b.awards:
            raise HandParseError(last, "hand ends early (truncated or incomplete hand): nobody wins the pot",
                                 FailureKind.ENDS_EARLY)
        facts.streets.check_dealt()

    @staticmethod
    def _settle_unmatched_bets(b: HandBuilder, facts: _KingsFacts) -> None:
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
        for player, (_net, line) in facts.summary_net.items():
            if player not in contributed:
                raise HandParseError(line, f"summary names {player!r}, who is not seated in this hand")


    @staticmethod
    def _settle_rake(b: HandBuilder, facts: _KingsFacts) -> None:
        """The net results add up to minus the rake. KingsClub prints no "Rake" line when it took
        none (every such hand seen reconciles with zero), so the nets give the rake then."""
        implied = -sum(net for net, _ in facts.summary_net.values())
        if facts.rake is None:
            facts.rake = implied
            if implied:
                b.note(f"no Rake line, but the summary's net results imply a rake of {implied}")
        elif facts.rake != implied:
            b.note(f"Rake {facts.rake} but the summary's net results imply {implied}")


def _contributions(b: HandBuilder) -> dict[str, int]:
    totals = {seat.player: 0 for seat in b.seats}
    for action in b.actions:
        totals[action.player] += action.amount
    for ret in b.uncalled:
        totals[ret.player] -= ret.amount
    return totals


PARSER = KingsClubParser()
