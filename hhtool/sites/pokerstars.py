"""PokerStars text histories (cash, tournament, home game, mixed-game tables).

Quirks kept here: completion is written "raises X to Y" (or "bets" by the bring-in player),
the header carries small/big bet but not ante or bring-in, collect lines do not say which
half they are for, mucked cards appear only in the summary.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from hhtool.model import BuyIn, Card, Note, NoteTopic, RawHand, Restated, ShowStatus, Street
from hhtool.sites.kit.base import HandBuilder, HandParseError
from hhtool.sites.kit.common_lines import (
    CURRENCY_OF_SYMBOL,
    first_stated_start,
    header_match,
    read_dealt_old_new,
    read_table,
    structure_named,
    total_pot_line,
)
from hhtool.sites.kit.line_rules import LineTable, named
from hhtool.sites.kit.line_site import LineSiteParser
from hhtool.sites.kit.lines import LineToken
from hhtool.sites.kit.restated import summary_player, summary_restatements
from hhtool.sites.kit.stated import StatedHand, StatedStakes
from hhtool.sites.kit.tournament import AMOUNT, CODE, FINISH_LINE, FREEROLL, stated_buy_in

_HAND_START = re.compile(r"PokerStars (?:Home Game )?(?:Game|Hand) #\d+:")
_HAND_ID = re.compile(r"#(\d+):")
_TOURNAMENT = re.compile(r"Tournament #(\d+)", re.I)
_MIXED_GAME = re.compile(r"\(([A-Za-z0-9' /-]+?(?:Limit|No Limit|Pot Limit))[,)]", re.I)
_PLAIN_GAME = re.compile(r"((?:[A-Za-z0-9'/-]+ )+?(?:Pot Limit|No Limit|Limit))\b", re.I)
_BUY_IN = re.compile(r"^(?:\{[^}]*\} )?(?:Tournament #\d+, )?(?:\S*\+\S* (?:[A-Z]{3} )?)?", re.I)
# read tolerantly: spaces around the slash ("$2.50 / $5"), thousands separators, a code after the amounts
_STAKES = re.compile(r"([$€£]?\d(?:[\d.,]*\d)?) ?/ ?([$€£]?\d(?:[\d.,]*\d)?)(?: ([A-Z]{3}))?\)")
# times with or without seconds; the ET time may follow the local one in brackets. Any run of digits is
# taken whole (never a year's last four digits of "12026"), so that a date that is none is told, not moved
_LOCAL_TIME = re.compile(r"(?<![\d/])(\d+/\d+/\d+ \d+:\d+(?::\d+)?)(?![\d:]) ?([A-Z]{2,4})?")
_ET_TIME = re.compile(r"\[(\d+/\d+/\d+ \d+:\d+(?::\d+)?) ([A-Z]{2,4})\]")
_TIME_FORMATS = ("%Y/%m/%d %H:%M:%S", "%Y/%m/%d %H:%M")
_STUD8 = re.compile(r"7 Card Stud Hi/Lo", re.I)
# the buy-in after the tournament's number: "$10+$1", "$0.98+$0.12 USD", "$200+$50+$15 USD" (a knockout),
# "100+9" (play money), "50FPP", "250 SC", "Freeroll"; none at all in some (a shootout's later rounds)
_STATED_BUY_IN = re.compile(rf"(?i:Tournament) #\d+, (?:(?P<free>Freeroll)\b|(?P<parts>{AMOUNT}(?:\+{AMOUNT}){{0,2}})"
                            rf"(?: ?(?P<code>{CODE})\b)?(?= ))")


def _stakes_in(header: str) -> re.Match[str] | None:
    """``_STAKES.search(header)``, started where a match can first begin: a match holds exactly one "/",
    with the first amount (currency signs, digits, points, commas) and at most one blank before it, so
    none begins before that run in front of the header's first "/". (From the start, the search would
    try the long run of the hand number's digits from each digit.)"""
    slash = header.find("/")
    if slash < 0:
        return None
    start = slash
    if start and header[start - 1] == " ":
        start -= 1
    while start and (header[start - 1] in "$€£.," or header[start - 1].isdigit()):
        start -= 1
    return _STAKES.search(header, start)


@lru_cache(maxsize=4)  # game_of and read_header read the same header one after the other
def _game_label(header: str) -> str:
    after_colon = header.split(":", 1)[1].strip() if ":" in header else header
    mixed = _MIXED_GAME.search(after_colon)
    if mixed:
        return mixed.group(1).strip()
    plain = _PLAIN_GAME.search(_BUY_IN.sub("", after_colon, count=1))
    return plain.group(1).strip() if plain else after_colon.split(" - ")[0].strip()


@dataclass
class _StarsFacts(StatedHand):
    no_low: bool = False
    showdown: bool = False
    home_game: bool = False  # "PokerStars Home Game Hand #…": the club's host sets the structure


_LINES = LineTable[_StarsFacts](order_only=("HEADER", "CAPPED", "DOUBLE_BET"))
_LINES.add("FINISHED", FINISH_LINE)


_LINES.add("TOTAL_POT", total_pot_line(pots_after_rake=True))  # "Main pot $0.41. Side pot $0.18.": after the rake
_LINES.add("DEALT", named(read_dealt_old_new, ("player", "cards", "new")))


@_LINES.on("TABLE", reads=("table", "seats"))
def _table(b: HandBuilder, facts: _StarsFacts, token: LineToken) -> None:
    read_table(b, facts, token)
    if facts.home_game:
        b.note("a PokerStars home game: its forced bets are its host's, learnt from its own hands only",
               token.number - 1, NoteTopic.PRIVATE_TABLE)  # (the header, just above)


@_LINES.on("RIVER_MARKER", may=("card",))
def _river(b: HandBuilder, facts: _StarsFacts, token: LineToken) -> None:
    b.start_street(Street.SEVENTH)
    card = token["card"]
    if card:
        facts.community_card = Card.parse(card)


@_LINES.on("NO_LOW")
def _no_low(b: HandBuilder, facts: _StarsFacts, token: LineToken) -> None:
    facts.no_low = True


@_LINES.on("SHOWDOWN_MARKER")
def _showdown(b: HandBuilder, facts: _StarsFacts, token: LineToken) -> None:
    facts.showdown = True


@_LINES.on("SUMMARY_SEAT", reads=("seat", "player"))
def _summary_seat(b: HandBuilder, facts: _StarsFacts, token: LineToken) -> None:
    text, line, named_player = token.value, token.number, token["player"]
    found = summary_player(text, int(token["seat"] or 0), [(seat.seat, seat.player) for seat in b.seats])
    player, tail = found if found is not None else (named_player or "", text.split(f"{named_player} ", 1)[-1])
    restated = summary_restatements(tail, player, b, line)
    facts.restatements.extend(restated)
    for fact in restated:
        shown = [s for s in b.showdown if s.player == player]
        # mucked cards are revealed only here; a hand the showdown says was shown keeps that
        # statement, so that the claims check can set the two side by side
        if fact.fact is Restated.MUCKED and fact.cards and not any(s.status is ShowStatus.SHOWN for s in shown):
            b.reveal_mucked(player, fact.cards, line=line)


@_LINES.on("SUMMARY_MARKER")
def _label_halves(b: HandBuilder, facts: _StarsFacts, token: LineToken) -> None:
    """Stars does not label halves; it does say when nobody had a low, and a pot nobody
    contested is not split."""
    if facts.no_low or not facts.showdown:
        b.label_awards_whole()


class PokerStarsParser(LineSiteParser[_StarsFacts]):
    name = "pokerstars"
    hand_start = _HAND_START
    grammar_name = "pokerstars"
    lines = _LINES

    def game_of(self, raw: RawHand) -> tuple[str | None, str, bool]:
        header_match(raw, _HAND_START, "a PokerStars hand header")
        header = raw.lines[0]
        hand_id = _HAND_ID.search(header)
        label = _game_label(header)
        if "Hand cancelled" in raw.text and "Hand cancelled" in map(str.strip, raw.lines):
            return (hand_id.group(1) if hand_id else None), f"{label} (hand cancelled)", False
        return (hand_id.group(1) if hand_id else None), label, bool(_STUD8.search(header))

    def read_header(self, raw: RawHand) -> _StarsFacts:
        header = raw.lines[0]
        stakes_match = _stakes_in(header)
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
        label = _game_label(header)
        stated = [(when.group(1), when.group(2)) for when in (_ET_TIME.search(header), _LOCAL_TIME.search(header)) if when]
        started_at, timezone, notes = first_stated_start(stated, _TIME_FORMATS, raw.first_line)
        buy_in = _buy_in(header, raw.first_line, notes) if tournament else None
        return _StarsFacts(
            buy_in=buy_in,
            hand_id=_HAND_ID.search(header).group(1),  # type: ignore[union-attr]  # game_of found it
            unit=unit,
            currency=currency,
            structure=structure_named(label),
            is_tournament=tournament is not None,
            tournament_id=tournament.group(1) if tournament else None,
            game_label=label,
            started_at=started_at,
            timezone=timezone,
            notes=notes,
            # small/big bet from the header; ante and bring-in as posted
            stated=StatedStakes(raw.first_line, *(stakes_match.group(1, 2) if stakes_match else (None, None))),
            home_game="PokerStars Home Game " in header[:24],
        )


def _buy_in(header: str, line: int, notes: list[Note]) -> BuyIn | None:
    """The buy-in a tournament header states, or None where it states none. Bare numbers count only with
    a "+" or a code ("100+9", "50FPP"): a lone number is the start of the game's name ("7 Card Stud")."""
    stated = _STATED_BUY_IN.search(header)
    if stated is None:
        return None
    if stated.group("free"):
        return FREEROLL
    parts, code = stated.group("parts").split("+"), stated.group("code")
    if len(parts) == 1 and code is None and parts[0][0].isdigit():
        return None
    return stated_buy_in(parts, code, line, notes)


PARSER = PokerStarsParser()
