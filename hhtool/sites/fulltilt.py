"""Full Tilt Poker text histories (UTF-16LE files; cash, tournament and mixed-game tables).

Quirks kept here: "raises to" states the street total, "calls" the chips added, "completes it to"
the completion total; the header carries small/big bet and ante but not the bring-in; winners are
labelled by half and pot ("wins the low main pot", "wins the high side pot"); an uncontested winner
"mucks" without a showdown; mucked cards appear only in the summary.

>>> PARSER.sniff(["Full Tilt Poker Game #1: Table T - $1/$2 Ante $0.10 - Limit Stud H/L - 10:00:00 ET - 2011/04/07"])
True
>>> _showdown_texts("two pair, Eights and Threes, for high and 8,7,6,3,2, for low")
('two pair, Eights and Threes', '8,7,6,3,2')
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from hhtool.model import BuyIn, Half, Hand, Note, RawHand, ShowStatus, Stakes, StakeSource, Street
from hhtool.sites.kit.base import HandBuilder, HandParseError, parse_cards, summary_rest
from hhtool.sites.kit.common_lines import (
    CURRENCY_OF_SYMBOL,
    first_stated_start,
    header_match,
    structure_named,
    total_pot_reader,
)
from hhtool.sites.kit.line_rules import LineTable
from hhtool.sites.kit.line_site import LineSiteParser
from hhtool.sites.kit.lines import LineToken
from hhtool.sites.kit.restated import restated_cards, summary_player, summary_restatements
from hhtool.sites.kit.stated import StatedHand, StatedStakes
from hhtool.sites.kit.tournament import AMOUNT, CODE, stated_buy_in

_HAND_START = re.compile(r"(?:Full Tilt Poker|FullTiltPoker) Game #(\d+): ")
_HEADER = re.compile(
    r"(?:Full Tilt Poker|FullTiltPoker) Game #(?P<id>\d+): "
    r"(?:(?P<tourney>.+?) \((?P<tourney_id>\d+)\), )?"
    r"(?P<table>.+?) - "
    r"(?P<symbol>[$€£]?)(?P<small>\d(?:[\d.,]*\d)?) ?/ ?[$€£]?(?P<big>\d(?:[\d.,]*\d)?)(?: (?P<iso>[A-Z]{3}))?"
    r"(?:,? Ante [$€£]?(?P<ante>\d(?:[\d.,]*\d)?))? - "
    r"(?:[$€£]?[\d.,]+ Cap )?"
    r"(?P<game>.+?) - (?P<when>\d+:\d+.*)$"
)
_TABLE = re.compile(r"^(?:Table |Match )?(?P<name>.+?)(?: \((?P<attributes>[^)]*)\))?$")
_MAX_SEATS = re.compile(r"(\d+) max", re.ASCII)  # ASCII: int() would read other scripts' digits
# times with or without seconds; the ET time may follow the local one in brackets
# each run of digits taken whole (never a year's last four digits of "12011"): a date that is none is told, not moved
_ET_TIME = re.compile(r"\[(\d+:\d+(?::\d+)?) (ET) - (\d+/\d+/\d+)\]")
_LOCAL_TIME = re.compile(r"(?<![\d:])(\d+:\d+(?::\d+)?) ([A-Z]{2,4}) - (\d+/\d+/\d+)(?![\d/])")
_TIME_FORMATS = ("%Y/%m/%d %H:%M:%S", "%Y/%m/%d %H:%M")
_CANCELLED = re.compile(r"Hand #\d+ has been canceled", re.I)
_STUD8 = re.compile(r"\bStud (?:H/L|Hi/Lo)\b", re.I)
_SHOWDOWN_TEXT = re.compile(r"^(?P<high>.*?), for high(?: and (?P<low>.*?), for low)?$")
_SIDE_POTS = re.compile(r"Side pot(?:[- ]#?\d+)? ")
_HALF_OF = {"high": Half.HIGH, "low": Half.LOW, None: Half.WHOLE}
# a tournament's name may begin with its buy-in: "$2 + $0.25 Sit & Go", "$200 + $10 Heads Up Sit & Go"
# (others state none: "Big Game of the Week"); a bare number counts only with a "+" ("20 Player Sit & Go")
_STATED_BUY_IN = re.compile(rf"(?P<parts>{AMOUNT}(?: ?\+ ?{AMOUNT}){{0,2}})(?: (?P<code>{CODE}))?(?= )")


def _showdown_texts(description: str | None) -> tuple[str | None, str | None]:
    """Split FTP's "<high>, for high and <low>, for low" into the two descriptions."""
    if not description:
        return None, None
    match = _SHOWDOWN_TEXT.match(description)
    if match is None:
        return description, None
    return match.group("high"), match.group("low")


@dataclass
class _TiltFacts(StatedHand):
    showdown: bool = False
    side_pot_count: int = 0
    unnumbered_side_awards: list[int] = field(default_factory=list)


_LINES = LineTable[_TiltFacts](order_only=("HEADER", "IS_LOW", "NO_LOW", "SUMMARY_MARKER"))


@_LINES.on("ANTE_RETURNED", reads=("amount", "player"))
def _ante_returned(b: HandBuilder, facts: _TiltFacts, token: LineToken) -> None:
    # the site hands the ante back to a player who timed out: record it as returned
    player = token["player"]
    b.return_uncalled(player or "", b.money(token["amount"], token.number), token.number)
    b.note(f"ante returned to {player} (timed out, sat the hand out)")


@_LINES.on("DEALT", reads=("player", "cards", "new"))
def _dealt(b: HandBuilder, facts: _TiltFacts, token: LineToken) -> None:
    line, player, cards, second = token.number, token["player"] or "", token["cards"], token["new"]
    if b.street is Street.THIRD:
        first = parse_cards(cards or "")
        if second is not None and len(first) == 2:  # the hero sees his own two down cards
            facts.hero = player
            b.deal(player, first, parse_cards(second), line)
        elif second is None and len(first) == 1:
            b.deal(player, (None, None), first, line)
        else:
            raise HandParseError(line, f"3rd-street deal not understood: {cards!r} {second!r}")
        return
    if second is not None:  # "[old cards] [new card]": the first bracket repeats the cards dealt before
        facts.restatements.extend(restated_cards(b, player, cards or "", line))
    new_cards = parse_cards(second if second is not None else cards or "")
    if len(new_cards) != 1:
        raise HandParseError(line, f"{b.street.label}-street deal of {len(new_cards)} new cards")
    b.deal_up_or_down(player, new_cards, line)


@_LINES.on("SHOWDOWN_MARKER")
def _showdown(b: HandBuilder, facts: _TiltFacts, token: LineToken) -> None:
    facts.showdown = True


@_LINES.on("SHOWS", reads=("player", "cards", "hand"))
def _shows(b: HandBuilder, facts: _TiltFacts, token: LineToken) -> None:
    high, low = _showdown_texts(token["hand"])
    b.show(token["player"] or "", ShowStatus.SHOWN, parse_cards(token["cards"] or ""), high, low, token.number)


@_LINES.on("MUCKS", reads=("player", "cards"))
def _mucks(b: HandBuilder, facts: _TiltFacts, token: LineToken) -> None:
    # outside a showdown FTP says "mucks" of a winner nobody called: he won without showing
    status = ShowStatus.MUCKED if facts.showdown else ShowStatus.NOT_SHOWN
    b.show(token["player"] or "", status, parse_cards(token["cards"] or ""), line=token.number)


@_LINES.on("WINS", reads=("player", "half", "pot", "side", "amount"))
def _wins(b: HandBuilder, facts: _TiltFacts, token: LineToken) -> None:
    if token["pot"] == "side":
        side = token["side"]
        pot: int | None = int(side) if side else None  # numbered later from the summary
        if pot is None:
            facts.unnumbered_side_awards.append(len(b.awards))
    else:
        pot = 0
    b.award(token["player"] or "", b.money(token["amount"], token.number), pot, _HALF_OF[token["half"]], token.number)


#: "Main pot $85.10. Side pot $10." are the pots before the rake ($95.10 in all)
_read_total_pot = total_pot_reader(pots_after_rake=False)


@_LINES.on("TOTAL_POT", reads=("total", "pots", "rake"))
def _total_pot(b: HandBuilder, facts: _TiltFacts, token: LineToken) -> None:
    _read_total_pot(b, facts, token)
    facts.side_pot_count = len(_SIDE_POTS.findall(token["pots"] or ""))


@_LINES.on("SUMMARY_SEAT", reads=("seat", "player"))
def _summary_seat(b: HandBuilder, facts: _TiltFacts, token: LineToken) -> None:
    text, seat_no, line = token.value, token["seat"], token.number
    found = summary_player(text, int(seat_no or 0), [(seat.seat, seat.player) for seat in b.seats])
    player = found[0] if found is not None else token["player"] or ""
    if found is not None:
        facts.restatements.extend(summary_restatements(found[1], player, b, line))
    # read after the name, so that a name holding " mucked [..]" is not taken for cards
    rest = summary_rest(text, seat_no, player)
    mucked = re.search(r" mucked \[([^\]]*)\](?: - (?:HI: )?([^;]*?)(?:; LO: (.*))?)?$", rest)
    if mucked is not None and not any(s.player == player and s.status is ShowStatus.SHOWN for s in b.showdown):
        b.reveal_mucked(player, parse_cards(mucked.group(1)), mucked.group(2), mucked.group(3), line)


class FullTiltParser(LineSiteParser[_TiltFacts]):
    name = "fulltilt"
    hand_start = _HAND_START
    grammar_name = "fulltilt"
    lines = _LINES

    def game_of(self, raw: RawHand) -> tuple[str | None, str, bool]:
        start = header_match(raw, _HAND_START, "a Full Tilt hand header")
        header = raw.lines[0]
        match = _HEADER.match(header)
        if match is None:
            raise HandParseError(raw.first_line, f"Full Tilt header not understood: {header[:160]!r}")
        label = match.group("game").strip()
        if any(_CANCELLED.search(line) for line in raw.lines):
            return start.group(1), f"{label} (hand cancelled)", False
        return start.group(1), label, bool(_STUD8.search(label))

    def parse_stud8(self, raw: RawHand) -> Hand:
        match = _header(raw)
        if "(partial)" in match.group("when"):  # refused before its lines are read: they are incomplete
            raise HandParseError(raw.first_line, "hand is marked '(partial)': the history is incomplete")
        return super().parse_stud8(raw)

    def read_header(self, raw: RawHand) -> _TiltFacts:
        match = _header(raw)
        tournament_id = match.group("tourney_id")
        table_match = _TABLE.match(match.group("table"))
        table_name = table_match.group("name") if table_match else match.group("table")
        attributes = (table_match.group("attributes") or "") if table_match else ""
        play_money = "Play Chip" in match.group("table") or table_name.startswith("PC ")
        symbol, iso = match.group("symbol"), match.group("iso")
        if tournament_id or play_money or not (symbol or iso):
            currency, unit = ("PLAY" if play_money else "CHIPS"), 1
        else:
            currency, unit = iso or CURRENCY_OF_SYMBOL[symbol], 100
        max_seats = _MAX_SEATS.search(attributes)
        label = match.group("game").strip()
        when = match.group("when")
        stated = [(at.group(3) + " " + at.group(1), at.group(2)) for at in (_ET_TIME.search(when), _LOCAL_TIME.search(when))
                  if at]
        started_at, timezone, notes = first_stated_start(stated, _TIME_FORMATS, raw.first_line)
        return _TiltFacts(
            buy_in=_buy_in(match.group("tourney"), raw.first_line, notes) if tournament_id else None,
            hand_id=match.group("id"),
            unit=unit,
            currency=currency,
            structure=structure_named(label),
            is_tournament=tournament_id is not None,
            tournament_id=tournament_id,
            game_label=label,
            started_at=started_at,
            timezone=timezone,
            notes=notes,
            stated=StatedStakes(raw.first_line, match.group("small"), match.group("big")),
            table_name=table_name,
            table_size=int(max_seats.group(1)) if max_seats else (2 if "heads up" in attributes.lower() else None),
        )

    def finish(self, b: HandBuilder, facts: _TiltFacts) -> None:
        """FTP writes "side pot" without a number; with one side pot (summary) it is side pot 1."""
        if not facts.unnumbered_side_awards:
            return
        if facts.side_pot_count != 1:
            b.note("Full Tilt did not number the side pots: their awards are recorded with pot unknown")
            return
        for index in facts.unnumbered_side_awards:
            award = b.awards[index]
            b.awards[index] = type(award)(award.player, award.amount, 1, award.half, award.line)

    def stakes(self, b: HandBuilder, facts: _TiltFacts) -> Stakes:
        # bets from the header, the bring-in as posted; the ante is the header's (a statement the
        # replay judges, not the table context): a header without one leaves it unknown, whatever was posted
        stakes = super().stakes(b, facts)
        header_ante = _header(b.raw).group("ante")
        stated_ante = b.money(header_ante, b.raw.first_line) if header_ante else None
        return replace(stakes, ante=stated_ante,
                       ante_source=StakeSource.HEADER if stated_ante is not None else stakes.ante_source)


def _buy_in(name: str | None, line: int, notes: list[Note]) -> BuyIn | None:
    """The buy-in the tournament's name begins with, or None where it states none."""
    stated = _STATED_BUY_IN.match(name or "")
    if stated is None:
        return None
    parts, code = [part.strip() for part in stated.group("parts").split("+")], stated.group("code")
    if len(parts) == 1 and code is None and parts[0][0].isdigit():
        return None
    return stated_buy_in(parts, code, line, notes)


def _header(raw: RawHand) -> re.Match[str]:
    match = _HEADER.match(raw.lines[0])
    if match is None:
        raise HandParseError(raw.first_line, f"Full Tilt header not understood: {raw.lines[0][:160]!r}")
    return match


PARSER = FullTiltParser()
