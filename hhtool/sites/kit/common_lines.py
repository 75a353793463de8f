"""What several site modules read alike, beyond :mod:`hhtool.sites.kit.base`'s builder.

Only logic that is the same wherever it appears lives here; a site's quirks stay in its module.
Most grammars give the same terminal names to lines that mean the same thing with the same
named capture groups (``BETS``: ``player``, ``amount``, ``all_in``): :data:`COMMON_LINES` reads those
by name, and a site's table declares only its own lines.
Imports point one way: this module imports only the model and the sites' ``base``, ``dates``, ``facts``, ``lines``,
``line_rules``, ``restated`` and ``stakes``.

>>> cards_dealt_on(Street.THIRD), cards_dealt_on(Street.SEVENTH)
(3, 1)
>>> structure_named("7 Card Stud Hi/Lo Pot Limit"), structure_named("Limit Stud H/L")
(<Structure.POT_LIMIT: 'pot_limit'>, <Structure.FIXED_LIMIT: 'fixed_limit'>)
>>> pot_number("main pot", None), pot_number("side pot", None), pot_number("Side pot", "2"), pot_number(None, None)
(0, 1, 2, 0)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from hhtool.model import ActionKind, Card, Half, Note, NoteTopic, RawHand, ShowStatus, Stakes, StakeSource, Street, Structure
from hhtool.sites.kit.base import HandBuilder, HandParseError, parse_cards
from hhtool.sites.kit.dates import stated_datetime
from hhtool.sites.kit.line_rules import LineRule, named
from hhtool.sites.kit.lines import LineToken
from hhtool.sites.kit.restated import restated_cards, stated_pots
from hhtool.sites.kit.stakes import derive_stakes_from_forced_bets, infer_bets_from_betting
from hhtool.sites.kit.stated import StatedHand

#: ISO code of a currency symbol in the amounts
CURRENCY_OF_SYMBOL = {"$": "USD", "€": "EUR", "£": "GBP"}

def stated_start(text: str | None, formats: Sequence[str], line: int | None) -> tuple[datetime | None, list[Note]]:
    """The start a hand states in ``text`` (None: it states none), read as :func:`stated_datetime`
    reads it; a stated date that is none is no start and a BAD_DATE note at ``line``, never read
    another way."""
    if text is None:
        return None, []
    started_at, problem = stated_datetime(text, formats)
    return started_at, ([] if problem is None else [Note(problem, line, NoteTopic.BAD_DATE)])


def first_stated_start(stated: Sequence[tuple[str, str | None]], formats: Sequence[str],
                       line: int | None) -> tuple[datetime | None, str | None, list[Note]]:
    """The first of the starts a header states (text, zone) that is a date, with its zone (a header
    giving ET and the local time: the local one where ET's is no date); each one before it that is
    no date is a BAD_DATE note at ``line`` (:func:`stated_start`)."""
    notes: list[Note] = []
    for text, zone in stated:
        started_at, more = stated_start(text, formats, line)
        if started_at is not None:
            return started_at, zone, notes
        notes += more
    return None, None, notes


#: street markers, by the terminal names the grammars give them
STREET_MARKERS = {
    "THIRD_MARKER": Street.THIRD,
    "FOURTH_MARKER": Street.FOURTH,
    "FIFTH_MARKER": Street.FIFTH,
    "SIXTH_MARKER": Street.SIXTH,
    "SEVENTH_MARKER": Street.SEVENTH,
    "RIVER_MARKER": Street.SEVENTH,
}


def _street(b: HandBuilder, facts: object, token: LineToken) -> None:
    b.start_street(STREET_MARKERS[token.type])


def _seat(b: HandBuilder, facts: object, token: LineToken) -> None:
    line = token.number
    b.seat(int(token["seat"] or 0), token["player"] or "", b.money(token["stack"], line),
           bool(token.get("sitting_out")), line)


def _ante(b: HandBuilder, facts: object, token: LineToken) -> None:
    line = token.number
    b.ante(token["player"] or "", b.money(token["amount"], line), bool(token.get("all_in")), line)


def _adds(kind: ActionKind) -> Callable[[HandBuilder, object, LineToken], None]:
    def read(b: HandBuilder, facts: object, token: LineToken) -> None:
        line = token.number
        b.act(token["player"] or "", kind, added=b.money(token["amount"], line), all_in=bool(token.get("all_in")),
              line=line)
    return read


def _bets(b: HandBuilder, facts: object, token: LineToken) -> None:
    line = token.number
    b.increase(token["player"] or "", added=b.money(token["amount"], line), all_in=bool(token.get("all_in")), line=line)


def read_increase(b: HandBuilder, facts: object, token: LineToken) -> None:
    """A raise or a completion: to the street total its ``to`` group states, else by the chips its
    ``added`` group states (a grammar may have both, ``to`` optional: "Raises 2 [to 4]");
    all-in where its ``all_in`` group matched."""
    line, to = token.number, token.get("to")
    if to is not None:
        b.increase(token["player"] or "", to=b.money(to, line), all_in=bool(token.get("all_in")), line=line)
    else:
        b.increase(token["player"] or "", added=b.money(token.get("added"), line), all_in=bool(token.get("all_in")),
                   line=line)


def _passive(kind: ActionKind) -> Callable[[HandBuilder, object, LineToken], None]:
    def read(b: HandBuilder, facts: object, token: LineToken) -> None:
        b.act(token["player"] or "", kind, line=token.number)
    return read


def _uncalled(b: HandBuilder, facts: object, token: LineToken) -> None:
    b.return_uncalled(token["player"] or "", b.money(token["amount"], token.number), token.number)


def _shows(b: HandBuilder, facts: object, token: LineToken) -> None:
    b.show(token["player"] or "", ShowStatus.SHOWN, parse_cards(token["cards"] or ""), token.get("high") or None,
           token.get("low") or None, token.number)


def _button(b: HandBuilder, facts: StatedHand, token: LineToken) -> None:
    facts.dealer_seat = int(token["seat"] or 0)


def _player_count(b: HandBuilder, facts: StatedHand, token: LineToken) -> None:
    seats = token["seats"]
    facts.table_size = int(seats) if seats else None


def _board(b: HandBuilder, facts: StatedHand, token: LineToken) -> None:
    facts.community_card = community_card(parse_cards(token["cards"] or "")) or facts.community_card


def _not_shown(status: ShowStatus) -> Callable[[HandBuilder, object, LineToken], None]:
    def read(b: HandBuilder, facts: object, token: LineToken) -> None:
        b.show(token["player"] or "", status, line=token.number)
    return read


def read_table(b: HandBuilder, facts: StatedHand, token: LineToken) -> None:
    """The table line: its name (``table``), and where the grammar has them its size (``seats``,
    "6-max") and the dealer's seat (``button``)."""
    facts.table_name = token["table"]
    if token.has("seats"):
        facts.table_size = int(token["seats"] or 0) or None
    if token.has("button"):
        button = token["button"]
        facts.dealer_seat = int(button) if button else None


#: the half a collect line names ("(HI)", "(LO)"); any other collect is of the whole pot or unsaid
_HALF_NAMED = {"HI": Half.HIGH, "LO": Half.LOW}


def read_collected(b: HandBuilder, facts: object, token: LineToken) -> None:
    """A player collects ``amount`` from the pot ``pot`` ("pot", "main pot", "side pot") numbered
    ``side``, of the half ``half`` where the line names one (HI, LO), else a half unknown."""
    b.award(token["player"] or "", b.money(token["amount"], token.number), pot_number(token["pot"], token.get("side")),
            _HALF_NAMED.get(token.get("half") or "", Half.UNKNOWN), token.number)


def total_pot_reader(*, pots_after_rake: bool | None = None,
                     unstated_rake: int | None = 0) -> Callable[[HandBuilder, StatedHand, LineToken], None]:
    """The reader of a summary's total pot line: the ``total``, the ``rake`` (``unstated_rake`` where the
    line states none) and, where the grammar has a ``pots`` group, the pots it lists ("Main pot $0.41.
    Side pot $0.18."), each what it held after the rake or before it (``pots_after_rake``)."""
    def read(b: HandBuilder, facts: StatedHand, token: LineToken) -> None:
        line, rake = token.number, token.get("rake")
        facts.total_pot = b.money(token["total"], line)
        facts.rake = b.money(rake, line) if rake else unstated_rake
        if pots_after_rake is not None:
            facts.stated_pots = stated_pots(token["pots"] or "", b, line, after_rake=pots_after_rake)
    return read


def total_pot_line(*, pots_after_rake: bool | None = None, unstated_rake: int | None = 0) -> LineRule:
    """:func:`total_pot_reader`'s rule (a grammar with pots has a ``pots`` group)."""
    return named(total_pot_reader(pots_after_rake=pots_after_rake, unstated_rake=unstated_rake),
                 ("total",) if pots_after_rake is None else ("total", "pots"), ("rake", "pots"))


_THIRD = Street.THIRD  # looked up once (an enum member's look-up is not free, and every deal line asks)


def read_dealt_old_new(b: HandBuilder, facts: StatedHand, token: LineToken) -> None:
    """A deal line written "Dealt to P [cards]" and, after 3rd street, "[cards dealt before] [new card]"
    (PokerStars, Winning's ACR export): 3rd street's one bracket is the hero's three cards or another's
    upcard (:func:`deal_third_street`); a later street's first bracket repeats the cards dealt before,
    a claim read apart (``facts.restatements``), the second is the new card."""
    player, cards, new, line = token["player"] or "", token["cards"] or "", token["new"], token.number
    third = b.street is _THIRD
    if new is None and third:
        deal_third_street(b, facts, player, parse_cards(cards), line)
        return
    if new is not None and not third:
        facts.restatements.extend(restated_cards(b, player, cards, line))
    b.deal_up_or_down(player, parse_cards(new if new is not None else cards), line)


#: the lines most grammars name alike, with the same meaning and the same named groups (a group the rule
#: may do without is one a grammar may leave out: the line then never says it):
#:
#: * street markers (:data:`STREET_MARKERS`) start their street;
#: * ``SEAT``: ``seat``, ``player``, ``stack`` [, ``sitting_out``];
#: * ``ANTE``: ``player``, ``amount`` [, ``all_in``];
#: * ``BRINGS_IN``, ``BETS``, ``CALLS``: ``player``, ``amount`` (the chips the action adds) [, ``all_in``];
#:   a bet is whatever increase :meth:`HandBuilder.increase` makes of it;
#: * ``COMPLETES``, ``RAISES``: ``player``, ``to`` (the street total) or ``added`` (the chips added), or
#:   both, ``to`` taken where it matched [, ``all_in``] (:func:`read_increase`);
#: * ``CHECKS``, ``FOLDS``: ``player``;
#: * ``UNCALLED``: ``amount``, ``player`` it is returned to;
#: * ``SHOWS``: ``player``, ``cards`` [, ``high``, ``low``: the hands' descriptions];
#: * ``MUCKS``, ``DOES_NOT_SHOW`` (or ``DOESNT_SHOW``): ``player``;
#: * ``COLLECTED``: ``player``, ``amount``, ``pot`` [, ``side``, ``half``] (:func:`read_collected`);
#: * ``TABLE``: ``table`` [, ``seats``, ``button``] (:func:`read_table`);
#: * ``BUTTON``: the dealer's ``seat``;
#: * ``PLAYER_COUNT``: ``players`` in the hand, ``seats`` at the table;
#: * ``BOARD``: the summary's board (``cards``), whose one known card is the community card
#:   (:func:`community_card`).
#:
#: A site's own rule for one of these terminals takes its place; the total pot and a deal line, which
#: the sites write differently, have readers here that a site declares (:func:`total_pot_line`,
#: :func:`read_dealt_old_new`).
COMMON_LINES: dict[str, LineRule] = {
    **{marker: LineRule(_street) for marker in STREET_MARKERS},
    "SEAT": named(_seat, ("seat", "player", "stack"), ("sitting_out",)),
    "ANTE": named(_ante, ("player", "amount"), ("all_in",)),
    "BRINGS_IN": named(_adds(ActionKind.BRING_IN), ("player", "amount"), ("all_in",)),
    "CALLS": named(_adds(ActionKind.CALL), ("player", "amount"), ("all_in",)),
    "BETS": named(_bets, ("player", "amount"), ("all_in",)),
    "COMPLETES": named(read_increase, ("player",), ("all_in", "to", "added"), ("to", "added")),
    "RAISES": named(read_increase, ("player",), ("all_in", "to", "added"), ("to", "added")),
    "CHECKS": named(_passive(ActionKind.CHECK), ("player",)),
    "FOLDS": named(_passive(ActionKind.FOLD), ("player",)),
    "UNCALLED": named(_uncalled, ("amount", "player")),
    "SHOWS": named(_shows, ("player", "cards"), ("high", "low")),
    "MUCKS": named(_not_shown(ShowStatus.MUCKED), ("player",)),
    "DOES_NOT_SHOW": named(_not_shown(ShowStatus.NOT_SHOWN), ("player",)),
    "DOESNT_SHOW": named(_not_shown(ShowStatus.NOT_SHOWN), ("player",)),
    "COLLECTED": named(read_collected, ("player", "amount", "pot"), ("side", "half")),
    "TABLE": named(read_table, ("table",), ("seats", "button")),
    "BUTTON": named(_button, ("seat",)),
    "PLAYER_COUNT": named(_player_count, ("players", "seats")),
    "BOARD": named(_board, ("cards",)),
}


def community_card(board: tuple[Card | None, ...]) -> Card | None:
    """The card of a summary board that shows one known card: the 7th-street card dealt face up to
    everyone when the deck runs short."""
    return board[0] if len(board) == 1 and board[0] is not None else None


def level_called_next(tokens: list[LineToken], index: int, b: HandBuilder, raiser: str,
                      stop: frozenset[str]) -> int | None:
    """The street total the next caller (not all-in) reaches after the raise at ``tokens[index]``,
    or None when nobody calls it before a token in ``stop`` (the next increase, the end of the
    street) or the end of the hand. ``CALLS`` names the groups ``player``, ``amount`` [, ``all_in``]."""
    for token in tokens[index + 1:]:
        if token.type in stop:
            return None
        if token.type == "CALLS":
            caller = token["player"]
            if caller != raiser and not token.get("all_in"):
                return b.put_in(caller or "") + b.money(token["amount"], token.number)
    return None


def cards_dealt_on(street: Street) -> int:
    """How many cards a street brings each player: three on 3rd street, then one."""
    return 3 if street is Street.THIRD else 1


def deal_third_street(b: HandBuilder, facts: StatedHand, player: str, cards: tuple[Card | None, ...], line: int) -> None:
    """A 3rd-street "Dealt to" line with one bracket: three cards are the hero's own (two down, then
    the upcard; the line names the hero), one is another player's upcard."""
    if len(cards) == 3:  # the hero sees his own two down cards
        facts.hero = player
        b.deal(player, cards[:2], cards[2:], line)
    elif len(cards) == 1:
        b.deal(player, (None, None), cards, line)
    else:
        raise HandParseError(line, f"3rd-street deal of {len(cards)} cards")


def structure_named(text: str) -> Structure:
    """The betting structure a header's words name ("No Limit", "pot limit", "Half Pot Limit"…);
    any other limit is fixed."""
    lowered = text.lower()
    if "no limit" in lowered:
        return Structure.NO_LIMIT
    if "pot limit" in lowered:
        return Structure.POT_LIMIT
    return Structure.FIXED_LIMIT


def pot_number(name: str | None, side_number: str | None) -> int:
    """The model's pot number for a pot a collect line names: 0 for the pot or main pot, N for
    side pot N; a side pot without a number is side pot 1."""
    return int(side_number or 1) if name and name.lower().startswith("side") else 0


def stakes_from_forced_bets(b: HandBuilder, *, small_bet: int | None, big_bet: int | None, currency: str,
                            structure: Structure, is_tournament: bool, table_size: int | None = None,
                            ante: int | None = None) -> Stakes:
    """Stakes for a site whose header gives the bets but not every forced bet. The bring-in, and
    the ante unless the header's ``ante`` is given, are taken as the hand posts them (source
    ``posted``: the table context judges them, not the hand). A fixed-limit header that states
    neither bet (some tournament exports say only "Limit") gets them inferred from the betting
    (source ``inferred``, ``None`` where ambiguous, with a note why). A hand where nobody posts a
    bring-in gets a note that its amount is unknown."""
    posted_ante, bring_in = derive_stakes_from_forced_bets(b.actions)
    if bring_in is None:
        b.note("no bring-in was posted: the bring-in amount is unknown")
    bets_source = StakeSource.HEADER
    if small_bet is None and big_bet is None and structure is Structure.FIXED_LIMIT:
        inferred = infer_bets_from_betting(b.actions, bring_in, b.unit)
        small_bet, big_bet, bets_source = inferred.small_bet, inferred.big_bet, StakeSource.INFERRED
        b.note("the header states no bets: small/big bet inferred from the betting"
               + (f" ({'; '.join(inferred.problems)})" if inferred.problems else ""), topic=NoteTopic.BETS_INFERRED)
    return Stakes(
        ante=posted_ante if ante is None else ante,
        bring_in=bring_in,
        small_bet=small_bet,
        big_bet=big_bet,
        currency=currency,
        unit=b.unit,
        structure=structure,
        is_tournament=is_tournament,
        table_size=table_size,
        ante_source=StakeSource.POSTED if ante is None else StakeSource.HEADER,
        bring_in_source=StakeSource.POSTED,
        bets_source=bets_source,
    )


def header_match(raw: RawHand, pattern: re.Pattern[str], what: str, width: int = 120) -> re.Match[str]:
    """``pattern`` matched at the start of the hand's first line, or a parse error saying the line
    (its first ``width`` characters) is not ``what``."""
    match = pattern.match(raw.lines[0])
    if match is None:
        raise HandParseError(raw.first_line, f"not {what}: {raw.lines[0][:width]!r}")
    return match


@dataclass
class StreetsByDeals:
    """Streets counted by deal rounds, for exports whose street markers may be labelled one too low
    (KingsClub's 2021 export, Winning's old one). The first marker tells the style: a deal before
    it means shifted labels. Each marker is then only checked against the deal round that follows."""

    deal_rounds: int = 0
    marker_street: Street | None = None  # announced by the last marker, not dealt yet
    marker_line: int = 0
    label_offset: int | None = None  # 1 for labels one too low, 0 for true ones

    def marker_number(self, label: int) -> int:
        """The street number a marker labelled ``label`` stands for in this hand's style."""
        if self.label_offset is None:
            self.label_offset = 1 if self.deal_rounds else 0
        return label + self.label_offset

    def announce(self, street: Street, line: int) -> None:
        self.marker_street, self.marker_line = street, line

    def start_round(self, b: HandBuilder, line: int) -> None:
        """A deal round begins: it opens the next street, which an announced marker must name."""
        self.deal_rounds += 1
        if self.deal_rounds > 5:
            raise HandParseError(line, "more than five deal rounds in a stud hand")
        street = Street(Street.THIRD + self.deal_rounds - 1)
        if self.marker_street is not None and self.marker_street is not street:
            raise HandParseError(
                self.marker_line,
                f"street marker says {self.marker_street.label} street but the deals make it {street.label}",
            )
        self.marker_street = None
        b.start_street(street)

    def check_dealt(self) -> None:
        """At the end of the hand: no marker may be left without its deal."""
        if self.marker_street is not None:
            raise HandParseError(self.marker_line, f"{self.marker_street.label}-street marker without a deal")
