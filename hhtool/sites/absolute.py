"""Absolute Poker / UltimateBet text histories ("Stage #…").

Quirks kept here:

* ``name - Verb amount`` syntax; ranks may be written ``10``; ``H`` hides a card;
* cards come as cumulative holdings repeated on every street (``PLAYER1 - Pocket [H H Js 10d]``):
  each street's new cards are what was not there before (see :meth:`AbsoluteParser._pocket`), and a
  hero who folded keeps getting the same holding, which deals nothing;
* "Raises $45 to $60" states the total, "Raises $x" alone the chips put in; "All-In $x" is the
  chips put in, a call or a bet depending on what it reaches;
* collect lines do not say which half they are for; the summary does ("HI:($0.20)", "LO:($0.19)",
  "HI:lost"), and the halves are labelled from it (see :func:`_label_halves`);
* uncalled bets are printed ("PLAYER0 - returned ($30) : not called") when the site returns them.

>>> PARSER.sniff(["Stage #1300000000: Seven Card Hi/Lo  Normal $0.02/$0.04 - 2009-03-18 19:10:00 (ET)"])
True
>>> _header("Stage #C284520999: Holdem No Limit $4  - 2010-12-09 22:49:17 (ET)")["game"]
'Holdem'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from hhtool.model import Award, Card, Half, RawHand, Restated, Restatement, ShowStatus, Street
from hhtool.sites.kit.base import HandBuilder, HandParseError, mark_idle_seats, parse_cards
from hhtool.sites.kit.common_lines import (
    COMMON_LINES,
    CURRENCY_OF_SYMBOL,
    community_card,
    stated_start,
    structure_named,
    total_pot_line,
)
from hhtool.sites.kit.line_rules import LineTable
from hhtool.sites.kit.line_site import LineSiteParser
from hhtool.sites.kit.lines import LineToken
from hhtool.sites.kit.restated import summary_restatements
from hhtool.sites.kit.stated import StatedHand, StatedStakes

_HAND_START = re.compile(r"Stage #C?\d+:")
_HEADER = re.compile(
    r"Stage #(?P<hand_id>C?\d+):\s+(?:Tourney ID (?P<tournament>\d+)\s+)?(?P<game>.+?)\s+"
    r"(?P<limit>Normal|No Limit|Pot Limit|Limit|NORMAL|NO LIMIT|POT LIMIT|LIMIT)\s+"
    r"(?P<stakes>[$€£]?\d(?:[\d.,]*\d)?(?: ?/ ?[$€£]?\d(?:[\d.,]*\d)?)?)(?: [A-Z]{3})?"
    r"(?:, (?P<ante>[$€£]?\d(?:[\d.,]*\d)?) ante)?\s+(?:\([^)]*\)\s+)?-\s+"
    r"(?P<when>\d+-\d+-\d+ \d+:\d+(?::\d+)?)(?:\.\d+)?(?:\s+\((?P<tz>[A-Z]+)\))?"
)
_STUD8 = re.compile(r"^(?:Limit )?Seven Card Hi/?Lo\b", re.I)
_HIDDEN = ("H",)
_WON_TOTAL = re.compile(r"\b(?:won|collected) Total \(([$€]?\d[\d.,]*)\)")
_HIGH_WON = re.compile(r"\bHI:\(([$€]?\d[\d.,]*)\)")
_LOW_WON = re.compile(r"\bLO:\(([$€]?\d[\d.,]*)\)")
_DESCRIBED = re.compile(r"\bwith (.+?) \[([^\]\-]+?) - ")
_SEAT_TAGS = re.compile(r"^(?: \((?:dealer|small blind|big blind)\))*")


def _header(line: str) -> dict[str, str | None]:
    match = _HEADER.match(line)
    if match is None:
        raise HandParseError(0, f"absolute: header not understood: {line[:160]!r}")
    return match.groupdict()


@dataclass
class _SummaryResult:
    """What a summary seat line says the player won."""

    total: int | None = None
    high: int | None = None
    low: int | None = None
    line: int = 0


@dataclass
class _AbsoluteFacts(StatedHand):
    holdings: dict[str, tuple[Card | None, ...]] = field(default_factory=dict)
    results: dict[str, _SummaryResult] = field(default_factory=dict)


_LINES = LineTable[_AbsoluteFacts](order_only=("HEADER", "GAME_TYPE", "SHOWDOWN_MARKER", "SUMMARY_MARKER"))
_LINES.add("COLLECTS", COMMON_LINES["COLLECTED"])
_LINES.add("TOTAL_POT", total_pot_line())  # no rake stated: none taken


@_LINES.on("POCKET", reads=("player", "cards"))
def _pocket(b: HandBuilder, facts: _AbsoluteFacts, token: LineToken) -> None:
    """Turn a cumulative holding into this street's deal: the cards beyond the last holding."""
    player, text, line = token["player"] or "", token["cards"] or "", token.number
    holding = parse_cards(text, _HIDDEN)
    before = facts.holdings.get(player, ())
    if len(holding) < len(before):
        raise HandParseError(line, f"absolute: {player}'s holding {text!r} has fewer cards than before")
    if before and b.street is not Street.THIRD:
        # the holding repeats the cards dealt before: a claim the RESTATED check compares with them
        facts.restatements.append(Restatement(Restated.CARDS, player, b.street, cards=holding[:len(before)], line=line))
    # the first statement of a card stands; a hidden one the repeat reveals is learnt
    facts.holdings[player] = tuple(old or new for old, new in zip(before, holding, strict=False)) + holding[len(before):]
    new_cards = holding[len(before):]
    if not new_cards:  # a folded hero keeps being shown his cards: nothing is dealt
        return
    if b.street is Street.THIRD:
        if len(new_cards) != 3:
            raise HandParseError(line, f"absolute: 3rd-street holding of {len(new_cards)} cards")
        if new_cards[0] is not None and new_cards[1] is not None:
            facts.hero = player
    elif len(new_cards) != 1:
        raise HandParseError(line, f"absolute: {len(new_cards)} new cards on {b.street.label} street")
    b.deal_new_cards(player, new_cards, line)


@_LINES.on("ALL_IN_RAISE", reads=("player",), may=("added", "to"))
def _all_in_raise(b: HandBuilder, facts: _AbsoluteFacts, token: LineToken) -> None:
    """An all-in raise has its own words ("All-In(Raise) 2 to 4"), and no all-in group: read as a raise."""
    to, line = token["to"], token.number
    if to is not None:
        b.increase(token["player"] or "", to=b.money(to, line), all_in=True, line=line)
    else:
        b.increase(token["player"] or "", added=b.money(token["added"], line), all_in=True, line=line)


@_LINES.on("ALL_IN", reads=("player", "amount"))
def _all_in(b: HandBuilder, facts: _AbsoluteFacts, token: LineToken) -> None:
    b.act_all_in(token["player"] or "", b.money(token["amount"], token.number), token.number)


_LINES.add("RETURNED", COMMON_LINES["UNCALLED"])


@_LINES.on("SHOWS", reads=("player", "cards", "high"))
def _shows(b: HandBuilder, facts: _AbsoluteFacts, token: LineToken) -> None:
    b.show(token["player"] or "", ShowStatus.SHOWN, parse_cards(token["cards"] or "", _HIDDEN), token["high"], None,
           token.number)


@_LINES.on("MUCKS", reads=("player", "cards"))
def _mucks(b: HandBuilder, facts: _AbsoluteFacts, token: LineToken) -> None:
    cards_text = token["cards"]
    cards = parse_cards(cards_text, _HIDDEN) if cards_text else ()
    b.show(token["player"] or "", ShowStatus.MUCKED, cards, line=token.number)


@_LINES.on("BOARD", reads=("cards",))
def _board(b: HandBuilder, facts: _AbsoluteFacts, token: LineToken) -> None:
    facts.community_card = community_card(parse_cards(token["cards"] or "", _HIDDEN)) or facts.community_card


@_LINES.on("SUMMARY_SEAT", reads=("seat", "rest"))
def _summary_seat(b: HandBuilder, facts: _AbsoluteFacts, token: LineToken) -> None:
    seat_no, text, line = int(token["seat"] or 0), token["rest"] or "", token.number
    player = next((seat.player for seat in b.seats if seat.seat == seat_no), None)
    if player is None or not text.startswith(player):
        raise HandParseError(line, f"absolute: summary seat {seat_no} does not name its player: {text[:120]!r}")
    rest = _SEAT_TAGS.sub("", text[len(player):], count=1)
    total, high, low = _WON_TOTAL.search(rest), _HIGH_WON.search(rest), _LOW_WON.search(rest)
    facts.restatements.extend(summary_restatements(rest.strip(), player, b, line))  # "Folded on the 5TH STREET"
    if total is not None:
        facts.restatements.append(Restatement(Restated.WON, player, amount=b.money(total.group(1), line), line=line))
    described = _DESCRIBED.search(rest)
    if described is not None:  # "with One pair, aces [3d 5d 6s Ah 8c Jc As - P:As,B:Ah,...]"
        try:
            cards = parse_cards(described.group(2), _HIDDEN)
        except ValueError:  # a restatement that cannot be read: the show line stands
            b.note(f"the summary's cards for {player} cannot be read", line)
        else:
            facts.restatements.append(Restatement(Restated.SHOWED, player, cards=cards, text=described.group(1),
                                                  line=line))
    if total or high or low:
        facts.results[player] = _SummaryResult(
            b.money(total.group(1), line) if total else None,
            b.money(high.group(1), line) if high else None,
            b.money(low.group(1), line) if low else None,
            line,
        )


class AbsoluteParser(LineSiteParser[_AbsoluteFacts]):
    name = "absolute"
    hand_start = _HAND_START
    grammar_name = "absolute"
    lines = _LINES

    def game_of(self, raw: RawHand) -> tuple[str | None, str, bool]:
        try:
            header = _header(raw.lines[0])
        except HandParseError as error:
            raise HandParseError(raw.first_line, error.reason) from None
        game = header["game"] or ""
        if game.upper() == "HORSE":  # the hand's own game is on the next line
            game_type = next((line[len("Game Type: "):] for line in raw.lines[1:3] if line.startswith("Game Type: ")), "")
            game = game_type or game
        label = f"{game} {header['limit']}"
        return header["hand_id"], label, bool(_STUD8.match(game))

    def read_header(self, raw: RawHand) -> _AbsoluteFacts:
        header = _header(raw.lines[0])
        hand_id, label, _ = self.game_of(raw)
        stated = header["stakes"] or ""
        symbol = next((s for s in "$€£" if s in stated), None)
        tournament = header["tournament"] is not None or symbol is None
        currency, unit = ("CHIPS", 1) if tournament or symbol is None else (CURRENCY_OF_SYMBOL[symbol], 100)
        bets = stated.split("/")
        small_bet, big_bet = (bets[0], bets[1]) if len(bets) == 2 else (None, None)
        started_at, notes = stated_start(header["when"] or "", ["%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M"], raw.first_line)
        return _AbsoluteFacts(
            hand_id=hand_id or "",
            unit=unit,
            currency=currency,
            structure=structure_named(header["limit"] or ""),  # "Normal" is fixed limit
            is_tournament=tournament,
            tournament_id=header["tournament"],
            game_label=label,
            started_at=started_at,
            notes=notes,
            timezone=header["tz"],
            # small/big bet from the header, when it states two (and the ante, if it does); the bring-in as posted
            stated=StatedStakes(raw.first_line, small_bet, big_bet, header["ante"] or None),
        )  # Absolute does not print the table size

    def finish(self, b: HandBuilder, facts: _AbsoluteFacts) -> None:
        mark_idle_seats(b)
        _label_halves(b, facts)
        for amount in (_header(b.raw.lines[0])["stakes"] or "").split("/"):  # each must read, two bets or not
            b.money(amount, b.raw.first_line)


def _label_halves(b: HandBuilder, facts: _AbsoluteFacts) -> None:
    """Label each collect with the half the summary names. A player taking both halves of a single
    pot with one collect line gets two awards (high, low) so the halves stay as labelled."""
    labelled: list[Award] = []
    for player in dict.fromkeys(award.player for award in b.awards):
        awards = [award for award in b.awards if award.player == player]
        result = facts.results.get(player)
        collected = sum(award.amount for award in awards)
        if result is None:
            b.note(f"the summary says nothing of {player}'s collect")
            labelled += awards
            continue
        if result.total is not None and result.total != collected:
            b.note(f"the summary's total for {player} differs from the collect lines", result.line)
        if result.high is not None and result.low is not None and len(awards) == 1 and result.high + result.low == collected:
            only = awards[0]
            labelled += [Award(player, result.high, only.pot, Half.HIGH, only.line),
                         Award(player, result.low, only.pot, Half.LOW, only.line)]
        elif result.high is not None and result.low is None and result.high == collected:
            labelled += [Award(a.player, a.amount, a.pot, Half.HIGH, a.line) for a in awards]
        elif result.low is not None and result.high is None and result.low == collected:
            labelled += [Award(a.player, a.amount, a.pot, Half.LOW, a.line) for a in awards]
        else:
            b.note(f"the summary's halves for {player} cannot be matched to the collect lines", result.line)
            labelled += awards
    labelled.sort(key=lambda award: award.line)  # stable: back in the order of the collect lines
    b.awards[:] = labelled


PARSER = AbsoluteParser()
