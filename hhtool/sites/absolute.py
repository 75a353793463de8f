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

from lark import Token

from hhtool.model import Award, Card, Half, Hand, RawHand, Restated, Restatement, ShowStatus, Street
from hhtool.sites.base import (
    HandBuilder,
    HandParseError,
    LineGrammar,
    SiteParser,
    load_grammar,
    mark_idle_seats,
    parse_cards,
    parse_datetime,
    tokens_in_order,
)
from hhtool.sites.common_lines import (
    CURRENCY_OF_SYMBOL,
    HandFacts,
    community_card,
    pot_number,
    record_common_line,
    stakes_from_forced_bets,
    structure_named,
)
from hhtool.sites.restated import summary_restatements

_HAND_START = re.compile(r"Stage #C?\d+:")
_HEADER = re.compile(
    r"Stage #(?P<hand_id>C?\d+):\s+(?:Tourney ID (?P<tournament>\d+)\s+)?(?P<game>.+?)\s+"
    r"(?P<limit>Normal|No Limit|Pot Limit|Limit|NORMAL|NO LIMIT|POT LIMIT|LIMIT)\s+"
    r"(?P<stakes>[$€£]?\d(?:[\d.,]*\d)?(?: ?/ ?[$€£]?\d(?:[\d.,]*\d)?)?)(?: [A-Z]{3})?"
    r"(?:, (?P<ante>[$€£]?\d(?:[\d.,]*\d)?) ante)?\s+(?:\([^)]*\)\s+)?-\s+"
    r"(?P<when>\d{4}-\d{1,2}-\d{1,2} \d{1,2}:\d{2}(?::\d{2})?)(?:\.\d+)?(?:\s+\((?P<tz>[A-Z]+)\))?"
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
class _AbsoluteState(HandFacts):
    holdings: dict[str, tuple[Card | None, ...]] = field(default_factory=dict)
    results: dict[str, _SummaryResult] = field(default_factory=dict)


class AbsoluteParser(SiteParser):
    name = "absolute"
    hand_start = _HAND_START

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

    def parse_stud8(self, raw: RawHand) -> Hand:
        grammar = load_grammar("absolute")
        tree = grammar.parse(raw.text)
        header = _header(raw.lines[0])
        hand_id, label, _ = self.game_of(raw)
        stated = header["stakes"] or ""
        symbol = next((s for s in "$€£" if s in stated), None)
        tournament = header["tournament"] is not None or symbol is None
        currency, unit = ("CHIPS", 1) if tournament or symbol is None else (CURRENCY_OF_SYMBOL[symbol], 100)
        builder = HandBuilder(self.name, raw, unit=unit, hand_id=hand_id or "")
        state = _AbsoluteState()
        for token in tokens_in_order(tree):
            self._handle(token, grammar, builder, state)
        mark_idle_seats(builder)
        _label_halves(builder, state)

        amounts = [builder.money(part, raw.first_line) for part in stated.split("/")]
        small_bet, big_bet = (amounts[0], amounts[1]) if len(amounts) == 2 else (None, None)
        stakes = stakes_from_forced_bets(  # small/big bet from the header; ante and bring-in as posted
            builder,
            small_bet=small_bet,
            big_bet=big_bet,
            currency=currency,
            structure=structure_named(header["limit"] or ""),  # "Normal" is fixed limit
            is_tournament=tournament,
            ante=builder.money(header["ante"], raw.first_line) if header["ante"] else None,
        )  # Absolute does not print the table size
        return builder.build(
            stakes,
            started_at=parse_datetime(header["when"] or "", ["%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M"]),
            timezone=header["tz"],
            tournament_id=header["tournament"],
            game_label=label,
            **state.hand_fields(),
        )

    def _handle(self, token: Token, grammar: LineGrammar, b: HandBuilder, state: _AbsoluteState) -> None:
        kind = token.type
        fields = grammar.fields(token)
        line = b.line_of(token)
        if kind == "TABLE":
            state.table_name = fields[0]
            state.dealer_seat = int(fields[2]) if fields[2] else None
        elif kind == "POCKET":
            self._pocket(fields[0] or "", fields[1] or "", b, state, line)
        elif kind == "COMPLETES":
            b.increase(fields[0] or "", to=b.money(fields[1], line), line=line)
        elif kind in ("RAISES", "ALL_IN_RAISE"):
            player, put_in, total = fields
            all_in = kind == "ALL_IN_RAISE"
            if total is not None:
                b.increase(player or "", to=b.money(total, line), all_in=all_in, line=line)
            else:
                b.increase(player or "", added=b.money(put_in, line), all_in=all_in, line=line)
        elif kind == "ALL_IN":
            b.act_all_in(fields[0] or "", b.money(fields[1], line), line)
        elif kind == "RETURNED":
            b.return_uncalled(fields[0] or "", b.money(fields[1], line), line)
        elif kind == "SHOWS":
            player, cards, description = fields
            b.show(player or "", ShowStatus.SHOWN, parse_cards(cards or "", _HIDDEN), description, None, line)
        elif kind == "MUCKS":
            b.show(fields[0] or "", ShowStatus.MUCKED, parse_cards(fields[1] or "", _HIDDEN) if fields[1] else (), line=line)
        elif kind == "COLLECTS":
            player, amount, pot_name, side_no = fields
            b.award(player or "", b.money(amount, line), pot_number(pot_name, side_no), Half.UNKNOWN, line)
        elif kind == "TOTAL_POT":
            state.total_pot = b.money(fields[0], line)
            state.rake = b.money(fields[1], line) if fields[1] is not None else 0
        elif kind == "BOARD":
            state.community_card = community_card(parse_cards(fields[0] or "", _HIDDEN)) or state.community_card
        elif kind == "SUMMARY_SEAT":
            self._summary_seat(int(fields[0] or 0), fields[1] or "", b, state, line)
        else:
            record_common_line(b, kind, fields, line)

    @staticmethod
    def _pocket(player: str, text: str, b: HandBuilder, state: _AbsoluteState, line: int) -> None:
        """Turn a cumulative holding into this street's deal: the cards beyond the last holding."""
        holding = parse_cards(text, _HIDDEN)
        before = state.holdings.get(player, ())
        if len(holding) < len(before):
            raise HandParseError(line, f"absolute: {player}'s holding {text!r} has fewer cards than before")
        if before and b.street is not Street.THIRD:
            # the holding repeats the cards dealt before: a claim the RESTATED check compares with them
            state.restatements.append(Restatement(Restated.CARDS, player, b.street, cards=holding[:len(before)], line=line))
        # the first statement of a card stands; a hidden one the repeat reveals is learnt
        state.holdings[player] = tuple(old or new for old, new in zip(before, holding, strict=False)) + holding[len(before):]
        new_cards = holding[len(before):]
        if not new_cards:  # a folded hero keeps being shown his cards: nothing is dealt
            return
        if b.street is Street.THIRD:
            if len(new_cards) != 3:
                raise HandParseError(line, f"absolute: 3rd-street holding of {len(new_cards)} cards")
            if new_cards[0] is not None and new_cards[1] is not None:
                state.hero = player
        elif len(new_cards) != 1:
            raise HandParseError(line, f"absolute: {len(new_cards)} new cards on {b.street.label} street")
        b.deal_new_cards(player, new_cards, line)

    @staticmethod
    def _summary_seat(seat_no: int, text: str, b: HandBuilder, state: _AbsoluteState, line: int) -> None:
        player = next((seat.player for seat in b.seats if seat.seat == seat_no), None)
        if player is None or not text.startswith(player):
            raise HandParseError(line, f"absolute: summary seat {seat_no} does not name its player: {text[:120]!r}")
        rest = _SEAT_TAGS.sub("", text[len(player):], count=1)
        total, high, low = _WON_TOTAL.search(rest), _HIGH_WON.search(rest), _LOW_WON.search(rest)
        state.restatements.extend(summary_restatements(rest.strip(), player, b, line))  # "Folded on the 5TH STREET"
        if total is not None:
            state.restatements.append(Restatement(Restated.WON, player, amount=b.money(total.group(1), line), line=line))
        described = _DESCRIBED.search(rest)
        if described is not None:  # "with One pair, aces [3d 5d 6s Ah 8c Jc As - P:As,B:Ah,...]"
            try:
                cards = parse_cards(described.group(2), _HIDDEN)
            except ValueError:  # a restatement that cannot be read: the show line stands
                b.note(f"the summary's cards for {player} cannot be read", line)
            else:
                state.restatements.append(Restatement(Restated.SHOWED, player, cards=cards, text=described.group(1),
                                                      line=line))
        if total or high or low:
            state.results[player] = _SummaryResult(
                b.money(total.group(1), line) if total else None,
                b.money(high.group(1), line) if high else None,
                b.money(low.group(1), line) if low else None,
                line,
            )


def _label_halves(b: HandBuilder, state: _AbsoluteState) -> None:
    """Label each collect with the half the summary names. A player taking both halves of a single
    pot with one collect line gets two awards (high, low) so the halves stay as labelled."""
    labelled: list[Award] = []
    for player in dict.fromkeys(award.player for award in b.awards):
        awards = [award for award in b.awards if award.player == player]
        result = state.results.get(player)
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
