"""PokerStars text histories (cash, tournament, home game, mixed-game tables).

Quirks kept here: completion is written "raises X to Y" (or "bets" by the bring-in player),
the header carries small/big bet but not ante or bring-in, collect lines do not say which
half they are for, mucked cards appear only in the summary.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lark import Token

from hhtool.model import Card, Half, Hand, RawHand, Restated, ShowStatus, Street
from hhtool.sites.base import HandBuilder, HandParseError, SiteParser, load_grammar, parse_cards, parse_datetime, tokens_in_order
from hhtool.sites.common_lines import (
    CURRENCY_OF_SYMBOL,
    HandFacts,
    community_card,
    header_match,
    pot_number,
    record_common_line,
    stakes_from_forced_bets,
    structure_named,
)
from hhtool.sites.restated import restated_cards, stated_pots, summary_player, summary_restatements

_HAND_START = re.compile(r"PokerStars (?:Home Game )?(?:Game|Hand) #\d+:")
_HAND_ID = re.compile(r"#(\d+):")
_TOURNAMENT = re.compile(r"Tournament #(\d+)", re.I)
_MIXED_GAME = re.compile(r"\(([A-Za-z0-9' /-]+?(?:Limit|No Limit|Pot Limit))[,)]", re.I)
_PLAIN_GAME = re.compile(r"((?:[A-Za-z0-9'/-]+ )+?(?:Pot Limit|No Limit|Limit))\b", re.I)
_BUY_IN = re.compile(r"^(?:\{[^}]*\} )?(?:Tournament #\d+, )?(?:\S*\+\S* (?:[A-Z]{3} )?)?", re.I)
# read tolerantly: spaces around the slash ("$2.50 / $5"), thousands separators, a code after the amounts
_STAKES = re.compile(r"([$€£]?\d(?:[\d.,]*\d)?) ?/ ?([$€£]?\d(?:[\d.,]*\d)?)(?: ([A-Z]{3}))?\)")
# times with or without seconds; the ET time may follow the local one in brackets
_LOCAL_TIME = re.compile(r"(\d{4}/\d{1,2}/\d{1,2} \d{1,2}:\d{2}(?::\d{2})?) ?([A-Z]{2,4})?")
_ET_TIME = re.compile(r"\[(\d{4}/\d{1,2}/\d{1,2} \d{1,2}:\d{2}(?::\d{2})?) ([A-Z]{2,4})\]")
_TIME_FORMATS = ("%Y/%m/%d %H:%M:%S", "%Y/%m/%d %H:%M")
_STUD8 = re.compile(r"7 Card Stud Hi/Lo", re.I)


def _game_label(header: str) -> str:
    after_colon = header.split(":", 1)[1].strip() if ":" in header else header
    mixed = _MIXED_GAME.search(after_colon)
    if mixed:
        return mixed.group(1).strip()
    plain = _PLAIN_GAME.search(_BUY_IN.sub("", after_colon, count=1))
    return plain.group(1).strip() if plain else after_colon.split(" - ")[0].strip()


#: terminals read here; every other one is a common line (hhtool.sites.common_lines)
_OWN_LINES = frozenset({"TABLE", "SEAT", "RIVER_MARKER", "DEALT", "COMPLETES", "RAISES", "COLLECTED", "NO_LOW",
                        "SHOWDOWN_MARKER", "TOTAL_POT", "BOARD", "SUMMARY_SEAT", "SUMMARY_MARKER"})


class PokerStarsParser(SiteParser):
    name = "pokerstars"
    hand_start = _HAND_START

    def game_of(self, raw: RawHand) -> tuple[str | None, str, bool]:
        header_match(raw, _HAND_START, "a PokerStars hand header")
        header = raw.lines[0]
        hand_id = _HAND_ID.search(header)
        label = _game_label(header)
        if "Hand cancelled" in map(str.strip, raw.lines):
            return (hand_id.group(1) if hand_id else None), f"{label} (hand cancelled)", False
        return (hand_id.group(1) if hand_id else None), label, bool(_STUD8.search(header))

    def parse_stud8(self, raw: RawHand) -> Hand:
        grammar = load_grammar("pokerstars")
        tree = grammar.parse(raw.text)
        header = raw.lines[0]
        stakes_match = _STAKES.search(header)
        tournament = _TOURNAMENT.search(header)
        if stakes_match is None and tournament is None:
            raise HandParseError(raw.first_line, f"no stakes in header: {header[:160]!r}")
        # a tournament header may state only "Limit": the bets are then inferred from the betting
        symbol = stakes_match.group(1)[0] if stakes_match and not stakes_match.group(1)[0].isdigit() else ""
        play_money = "(Play Money)" in raw.lines[1]
        if tournament or play_money or stakes_match is None or not (symbol or stakes_match.group(3)):
            currency, unit = ("PLAY" if play_money else "CHIPS"), 1
        else:
            currency, unit = (stakes_match.group(3) or CURRENCY_OF_SYMBOL[symbol]), 100

        builder = HandBuilder(self.name, raw, unit=unit, hand_id=_HAND_ID.search(header).group(1))  # type: ignore[union-attr]
        state = _StarsState()
        for token in tokens_in_order(tree):
            self._handle(token, grammar.fields(token), builder, state)

        label = _game_label(header)
        stakes = stakes_from_forced_bets(  # small/big bet from the header; ante and bring-in as posted
            builder,
            small_bet=builder.money(stakes_match.group(1), raw.first_line) if stakes_match else None,
            big_bet=builder.money(stakes_match.group(2), raw.first_line) if stakes_match else None,
            currency=currency,
            structure=structure_named(label),
            is_tournament=tournament is not None,
            table_size=state.table_size,
        )
        et_time = _ET_TIME.search(header)
        local_time = _LOCAL_TIME.search(header)
        when = et_time or local_time
        return builder.build(
            stakes,
            started_at=parse_datetime(when.group(1), _TIME_FORMATS) if when else None,
            timezone=when.group(2) if when else None,
            tournament_id=tournament.group(1) if tournament else None,
            game_label=label,
            **state.hand_fields(),
        )

    def _handle(self, token: Token, fields: tuple[str | None, ...], b: HandBuilder, state: _StarsState) -> None:
        kind = token.type
        line = b.line_of(token)
        if kind not in _OWN_LINES:  # most lines: actions and deals the common reader knows
            record_common_line(b, kind, fields, line)
        elif kind == "DEALT":  # the most frequent of this module's own lines
            self._dealt(fields, b, state, line)
        elif kind == "TABLE":
            state.table_name, state.table_size = fields[0], int(fields[1] or 0) or None
        elif kind == "SEAT":
            seat_no, player, stack, status = fields
            b.seat(int(seat_no or 0), player or "", b.money(stack, line), bool(status and "sitting out" in status), line)
        elif kind == "RIVER_MARKER":
            b.start_street(Street.SEVENTH)
            if fields[0]:
                state.community_card = Card.parse(fields[0])
        elif kind == "COMPLETES":
            b.increase(fields[0] or "", to=b.money(fields[1], line), all_in=bool(fields[2]), line=line)
        elif kind == "RAISES":
            b.increase(fields[0] or "", to=b.money(fields[2], line), all_in=bool(fields[3]), line=line)
        elif kind == "COLLECTED":
            player, amount, pot_name, side_no = fields
            b.award(player or "", b.money(amount, line), pot_number(pot_name, side_no), Half.UNKNOWN, line)
        elif kind == "NO_LOW":
            state.no_low = True
        elif kind == "SHOWDOWN_MARKER":
            state.showdown = True
        elif kind == "TOTAL_POT":
            state.total_pot, state.rake = b.money(fields[0], line), b.money(fields[2], line)
            # "Main pot $0.41. Side pot $0.18." is what each pot held after the rake
            state.stated_pots = stated_pots(fields[1] or "", b, line, after_rake=True)
        elif kind == "BOARD":
            state.community_card = community_card(parse_cards(fields[0] or "")) or state.community_card
        elif kind == "SUMMARY_SEAT":
            self._summary_seat(token.value, fields, b, state, line)
        elif kind == "SUMMARY_MARKER":
            self._label_halves(b, state)

    @staticmethod
    def _dealt(fields: tuple[str | None, ...], b: HandBuilder, state: _StarsState, line: int) -> None:
        player, second = fields[0] or "", fields[2]
        if second is not None and b.street is not Street.THIRD:
            # "[old cards] [new card]": the first bracket repeats the cards dealt before, a claim read apart
            state.restatements.extend(restated_cards(b, player, fields[1] or "", line))
            b.deal_up_or_down(player, parse_cards(second), line)
            return
        first = parse_cards(fields[1] or "")
        if b.street is Street.THIRD and second is None:
            if len(first) == 3:  # the hero sees his own two down cards
                state.hero = player
                b.deal(player, first[:2], first[2:], line)
            elif len(first) == 1:
                b.deal(player, (None, None), first, line)
            else:
                raise HandParseError(line, f"3rd-street deal of {len(first)} cards")
            return
        b.deal_up_or_down(player, parse_cards(second) if second is not None else first, line)

    @staticmethod
    def _summary_seat(text: str, fields: tuple[str | None, ...], b: HandBuilder, state: _StarsState, line: int) -> None:
        found = summary_player(text, int(fields[0] or 0), [(seat.seat, seat.player) for seat in b.seats])
        player, tail = found if found is not None else (fields[1] or "", text.split(f"{fields[1]} ", 1)[-1])
        restated = summary_restatements(tail, player, b, line)
        state.restatements.extend(restated)
        for fact in restated:
            shown = [s for s in b.showdown if s.player == player]
            # mucked cards are revealed only here; a hand the showdown says was shown keeps that
            # statement, so that the claims check can set the two side by side
            if fact.fact is Restated.MUCKED and fact.cards and not any(s.status is ShowStatus.SHOWN for s in shown):
                b.reveal_mucked(player, fact.cards, line=line)

    @staticmethod
    def _label_halves(b: HandBuilder, state: _StarsState) -> None:
        """Stars does not label halves; it does say when nobody had a low, and a pot nobody
        contested is not split."""
        if state.no_low or not state.showdown:
            b.label_awards_whole()


@dataclass
class _StarsState(HandFacts):
    no_low: bool = False
    showdown: bool = False
PARSER = PokerStarsParser()
