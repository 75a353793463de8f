"""What every site module shares: the parser interface, grammar loading, money parsing
and a builder that turns a site's statements into an immutable :class:`~hhtool.model.Hand`.

A site module overrides only what differs (sqlglot-style): how to recognise its files, where
hands start, how to tell the game from the header, and (for line grammars, see
:mod:`hhtool.sites.kit.line_site`) how its grammar's lines map to the model. Imports point one way:
this module imports only the model (and Lark).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import lru_cache
from typing import ClassVar

from lark import Token
from lark.exceptions import UnexpectedInput

from hhtool.model import (
    CUT_LINE_MARK,
    Action,
    ActionKind,
    Award,
    Card,
    Deal,
    FailedHand,
    FailureKind,
    Half,
    Hand,
    Note,
    NoteTopic,
    ParseOutcome,
    RawHand,
    Seat,
    ShownHand,
    ShowStatus,
    SkippedHand,
    Source,
    Stakes,
    Street,
    UncalledReturn,
)
from hhtool.sites.kit.dates import parse_datetime as parse_datetime  # re-exported: the site modules import it from here
from hhtool.sites.kit.lines import LineGrammar as LineGrammar  # re-exported with load_grammar: where sites found them
from hhtool.sites.kit.lines import LineToken, describe_lark_error, lark_error_ends_early
from hhtool.sites.kit.lines import load_grammar as load_grammar
from hhtool.sites.kit.stray_bytes import lenient, noted, stray_prefix


class HandParseError(Exception):
    """A hand's text is not what the site's format allows. ``line`` is 1-based in the file."""

    def __init__(self, line: int, reason: str, kind: FailureKind = FailureKind.UNREADABLE) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason
        self.kind = kind


# ---------------------------------------------------------------- money and cards


#: an amount as sites print it: a sign, a currency symbol before or after, ASCII digits with optional
#: thousands separators (one kind, groups of three), a decimal point and an ISO code; nothing else, so
#: a stray letter ("$0.0O8") or a second number is an error, never silently dropped
_AMOUNT = re.compile(
    r"\s*(?P<sign>[+-])?\s*[$€£]?\s*(?P<sign_after>[+-])?"
    r"(?P<whole>[0-9]{1,3}(?P<sep>[,'\u00a0\u202f])[0-9]{3}(?:(?P=sep)[0-9]{3})*|[0-9]+)?"
    r"(?:\.(?P<fraction>[0-9]+))?\s*[$€£]?(?:\s*[A-Z]{3})?\s*"
)


def parse_money(text: str, unit: int, line: int = 0) -> int:
    try:
        return _money_cached(text, unit)
    except HandParseError as error:  # cached without the line: say where it happened
        raise HandParseError(line, error.reason) from None


@lru_cache(maxsize=8192)
def _money_cached(text: str, unit: int) -> int:
    return _parse_money(text, unit, 0)


def _parse_money(text: str, unit: int, line: int = 0) -> int:
    """Parse a money amount into integer smallest units; never via float.

    >>> parse_money("$1,725.59", 100), parse_money("114€", 100), parse_money("0.5", 100)
    (172559, 11400, 50)
    >>> parse_money("2,500", 1), parse_money("$390 USD", 100), parse_money("-$1", 100), parse_money("+2.50", 100)
    (2500, 39000, -100, 250)
    >>> parse_money("0.125", 100)
    Traceback (most recent call last):
    ...
    hhtool.sites.kit.base.HandParseError: line 0: amount '0.125' has more decimals than the unit allows
    >>> parse_money("$0.0O8", 100)
    Traceback (most recent call last):
    ...
    hhtool.sites.kit.base.HandParseError: line 0: not an amount: '$0.0O8'
    """
    match = _AMOUNT.fullmatch(text)
    if match is None or (match.group("whole") is None and match.group("fraction") is None) or (
            match.group("sign") and match.group("sign_after")):
        raise HandParseError(line, f"not an amount: {text!r}")
    whole = (match.group("whole") or "0")
    if match.group("sep"):
        whole = whole.replace(match.group("sep"), "")
    fraction = match.group("fraction") or ""
    digits = len(str(unit)) - 1
    fraction = fraction.rstrip("0") if len(fraction) > digits else fraction
    if len(fraction) > digits:
        raise HandParseError(line, f"amount {text!r} has more decimals than the unit allows")
    value = int(whole) * unit + int(fraction.ljust(digits, "0") or "0")
    return -value if "-" in (match.group("sign"), match.group("sign_after")) else value


#: the tokens that stand for a hidden card, unless a site names its own
HIDDEN_CARDS = ("X", "H", "-", "null", "", "??")


def parse_cards(text: str, hidden: Iterable[str] = HIDDEN_CARDS) -> tuple[Card | None, ...]:
    """Cards separated by blanks or commas; hidden-card tokens become ``None``.

    >>> parse_cards("Ah X 10d")
    (Card(rank=14, suit='h'), None, Card(rank=10, suit='d'))
    """
    if hidden is HIDDEN_CARDS:  # nearly every call: one dictionary look-up
        known = _CARDS_BY_TEXT.get(text)
        if known is not None:
            return known
        cards = _read_cards(text, HIDDEN_CARDS)
        if len(_CARDS_BY_TEXT) >= MAX_CARD_TEXTS:  # a bound on the spellings remembered
            _CARDS_BY_TEXT.clear()
        _CARDS_BY_TEXT[text] = cards
        return cards
    return _read_cards(text, hidden if isinstance(hidden, tuple) else tuple(hidden))


#: parse_cards results by text, for the default hidden tokens; cards are immutable, so they are shared
_CARDS_BY_TEXT: dict[str, tuple[Card | None, ...]] = {}
MAX_CARD_TEXTS = 65_536


def _read_cards(text: str, hidden: tuple[str, ...]) -> tuple[Card | None, ...]:
    body = text.strip()
    # a body without commas is cut at runs of blanks, as str.split cuts it (the same blanks as the regex's \s)
    parts = body.split() if body and "," not in body else re.split(r"[,\s]+", body)
    result: list[Card | None] = []
    for part in parts:
        if part in hidden:
            result.append(None)
        else:
            result.append(Card.parse(part))
    if result == [None] and body == "":
        return ()
    return tuple(result)


# ---------------------------------------------------------------- the builder

# enum members looked up once: in CPython 3.11 each ``Street.THIRD`` costs a class attribute look-up
# through the enum's metaclass (≈0.2 µs), several per line of a hand
_THIRD, _SEVENTH = Street.THIRD, Street.SEVENTH
_ANTE, _COMPLETE, _BET, _RAISE = ActionKind.ANTE, ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE
_WITHOUT_AMOUNT = (ActionKind.CHECK, ActionKind.FOLD)
_INCREASES = (ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE)  # ActionKind.is_aggressive


@dataclass
class HandBuilder:
    """Collects what a site's history says, line by line, and builds an immutable Hand.

    It keeps each player's chips put in on the current street so that a site stating
    only "raise to" or only "chips added" yields both numbers in the model.
    """

    site: str
    raw: RawHand
    unit: int = 100
    hand_id: str = ""
    seats: list[Seat] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    deals: list[Deal] = field(default_factory=list)
    uncalled: list[UncalledReturn] = field(default_factory=list)
    showdown: list[ShownHand] = field(default_factory=list)
    awards: list[Award] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    street: Street = Street.THIRD
    _street_totals: dict[str, int] = field(default_factory=dict)
    _seated: set[str] = field(default_factory=set)

    def money(self, text: str | None, line: int = 0) -> int:
        if text is None:
            raise HandParseError(line, "amount missing")
        return parse_money(text, self.unit, line)

    def line_of(self, token: Token | LineToken) -> int:
        """The file line of a token from a grammar run over ``raw.text``."""
        return self.raw.first_line + (token.line or 1) - 1

    def start_street(self, street: Street) -> None:
        self.street = street
        self._street_totals = {}

    def seat(self, seat: int, player: str, stack: int | None, sitting_out: bool = False, line: int = 0) -> None:
        if any(existing.player == player for existing in self.seats):
            raise HandParseError(line, f"player {player!r} is seated twice")
        self.seats.append(Seat(seat, player, stack, sitting_out, line))

    def ante(self, player: str, amount: int, all_in: bool = False, line: int = 0) -> None:
        self._require_seated(player, line)
        self.actions.append(Action(_THIRD, player, _ANTE, amount, amount, all_in, line))

    def deal(self, player: str, down: Sequence[Card | None], up: Sequence[Card | None], line: int = 0,
             street: Street | None = None) -> None:
        self._require_seated(player, line)
        self.deals.append(Deal(street or self.street, player, tuple(down), tuple(up), line))

    def deal_new_cards(self, player: str, cards: Sequence[Card | None], line: int = 0, street: Street | None = None) -> None:
        """Record the cards a street brings a player as stud deals them: on 3rd street the first two
        face down and the rest up; on later streets see :meth:`deal_up_or_down`."""
        if (street or self.street) is _THIRD:
            self.deal(player, cards[:2], cards[2:], line, street)
        else:
            self.deal_up_or_down(player, cards, line, street)

    def deal_up_or_down(self, player: str, cards: Sequence[Card | None], line: int = 0, street: Street | None = None) -> None:
        """Record cards dealt after the first three: face down on 7th street, face up before it."""
        if (street or self.street) is _SEVENTH:
            self.deal(player, cards, (), line, street)
        else:
            self.deal(player, (), cards, line, street)

    def put_in(self, player: str) -> int:
        """Chips the player has in on the current street so far."""
        return self._street_totals.get(player, 0)

    def act(self, player: str, kind: ActionKind, *, added: int | None = None, to: int | None = None,
            all_in: bool = False, line: int = 0) -> Action:
        """Record a betting action. Give ``added`` (chips put in by this action) or ``to``
        (the player's street total afterwards); the other is derived."""
        self._require_seated(player, line)
        before = self.put_in(player)
        if kind in _WITHOUT_AMOUNT:
            added, to = 0, before
        elif added is None and to is None:
            raise HandParseError(line, f"{kind.value} without an amount")
        elif added is None:
            assert to is not None
            added = to - before
        elif to is None:
            to = before + added
        if added < 0:
            raise HandParseError(line, f"{kind.value} to {to} is less than the {before} already put in")
        self._street_totals[player] = to
        action = Action(self.street, player, kind, added, to, all_in, line)
        self.actions.append(action)
        return action

    def increase(self, player: str, *, added: int | None = None, to: int | None = None,
                 all_in: bool = False, line: int = 0) -> Action:
        """Record a bet, raise or completion, whatever verb the site used: on 3rd street the
        first increase over the bring-in is the completion (PokerStars writes it "raises",
        KingsClub "bets"); on later streets the first increase is a bet, the rest raises."""
        street = self.street
        already_opened = False
        for action in self.actions:  # (ActionKind.is_aggressive, written out: this runs for every increase)
            if action.street is street and action.kind in _INCREASES:
                already_opened = True
                break
        opening = _COMPLETE if street is _THIRD else _BET
        kind = _RAISE if already_opened else opening
        return self.act(player, kind, added=added, to=to, all_in=all_in, line=line)

    def highest_bet(self) -> int:
        return max(self._street_totals.values(), default=0)

    def act_all_in(self, player: str, added: int, line: int = 0) -> Action:
        """Record chips put in all-in by a line that does not say whether they call or raise: more
        than the highest bet is an increase, the rest a call (a short one when below)."""
        if self.put_in(player) + added > self.highest_bet():
            return self.increase(player, added=added, all_in=True, line=line)
        return self.act(player, ActionKind.CALL, added=added, all_in=True, line=line)

    def return_uncalled(self, player: str, amount: int, line: int = 0, street: Street | None = None) -> None:
        """Record a bet handed back uncalled, on ``street`` (by default the current one)."""
        self._require_seated(player, line)
        self.uncalled.append(UncalledReturn(street or self.street, player, amount, line))

    def show(self, player: str, status: ShowStatus, cards: Sequence[Card | None] = (),
             high_text: str | None = None, low_text: str | None = None, line: int = 0) -> None:
        self._require_seated(player, line)
        self.showdown.append(ShownHand(player, status, tuple(cards), high_text, low_text, line))

    def reveal_mucked(self, player: str, cards: Sequence[Card | None], high_text: str | None = None,
                      low_text: str | None = None, line: int = 0) -> None:
        """Cards a player mucked, revealed later (in the summary): his showdown entry becomes MUCKED with
        them, keeping its descriptions unless new ones are given; without an entry, one is added."""
        for index, shown in enumerate(self.showdown):
            if shown.player == player:
                self.showdown[index] = ShownHand(player, ShowStatus.MUCKED, tuple(cards), high_text or shown.high_text,
                                                 low_text or shown.low_text, shown.line)
                return
        self.show(player, ShowStatus.MUCKED, cards, high_text, low_text, line)

    def award(self, player: str, amount: int, pot: int | None = 0, half: Half = Half.UNKNOWN, line: int = 0) -> None:
        self._require_seated(player, line)
        self.awards.append(Award(player, amount, pot, half, line))

    def label_awards_whole(self, only_unlabelled: bool = False) -> None:
        """The pot was not split (nobody contested it, or no low qualified): the awards are for the whole
        pot; with ``only_unlabelled``, those the site gave a half keep it."""
        self.awards[:] = [award if only_unlabelled and award.half is not Half.UNKNOWN else replace(award, half=Half.WHOLE)
                          for award in self.awards]

    def note(self, text: str, line: int | None = None, topic: NoteTopic | None = None) -> None:
        self.notes.append(Note(text, line, topic))

    def mark_sitting_out(self, player: str) -> None:
        """Record that a seated player sat this hand out."""
        for index, seat in enumerate(self.seats):
            if seat.player == player:
                self.seats[index] = replace(seat, sitting_out=True)
                return
        raise HandParseError(self.raw.first_line, f"player {player!r} is not seated in this hand")

    def _require_seated(self, player: str, line: int) -> None:
        if player in self._seated:
            return
        self._seated = {seat.player for seat in self.seats}  # seats may have been added or replaced
        if player not in self._seated:
            raise HandParseError(line, f"player {player!r} is not seated in this hand")

    def build(self, stakes: Stakes, **fields: object) -> Hand:
        if not self.hand_id:
            raise HandParseError(self.raw.first_line, "hand has no id")
        if not self.seats:
            raise HandParseError(self.raw.first_line, "hand has no seats")
        source = Source(self.raw.file, self.raw.first_line, self.raw.last_line, raw_hash(self.raw))
        check_number_ranges(self, stakes, fields)
        return Hand(
            site=self.site,
            hand_id=self.hand_id,
            source=source,
            stakes=stakes,
            seats=tuple(self.seats),
            actions=tuple(self.actions),
            deals=tuple(self.deals),
            uncalled=tuple(self.uncalled),
            showdown=tuple(self.showdown),
            awards=tuple(self.awards),
            notes=tuple(self.notes),
            **fields,  # type: ignore[arg-type]
        )


#: the largest amount (in smallest units) and count the store holds: BIGINT and INTEGER columns
MAX_AMOUNT = 2**63 - 1
MAX_COUNT = 2**31 - 1


def check_number_ranges(b: HandBuilder, stakes: Stakes, fields: dict[str, object]) -> None:
    """Refuse a hand whose numbers the store cannot hold, with the line that states one: an amount
    (or the chips a hand moves in all) of 2^63 units or more, a seat, table size, dealer seat or pot
    number above 2^31 - 1. Such a hand fails on its own instead of the whole import failing at store time."""
    first = b.raw.first_line
    # every street total and return is bounded by the chips moved, so one sum covers the amounts
    moved = sum([abs(entry.amount) for entry in b.actions]) + sum([abs(entry.amount) for entry in b.uncalled]) + sum(
        [abs(entry.amount) for entry in b.awards])
    if moved > MAX_AMOUNT:
        raise HandParseError(first, f"the hand moves {moved} units in all, more than the store holds ({MAX_AMOUNT})")
    for seat in b.seats:
        if not 0 <= seat.seat <= MAX_COUNT:
            raise HandParseError(seat.line or first, f"seat number {seat.seat} is out of range (at most {MAX_COUNT})")
        if seat.stack is not None and not -MAX_AMOUNT <= seat.stack <= MAX_AMOUNT:
            raise HandParseError(seat.line or first,
                                 f"stack of {seat.player!r} {seat.stack} is out of range (at most {MAX_AMOUNT} units)")
    for award in b.awards:
        if award.pot is not None and not 0 <= award.pot <= MAX_COUNT:
            raise HandParseError(award.line or first, f"pot number {award.pot} is out of range (at most {MAX_COUNT})")
    counts = {"table size": stakes.table_size, "dealer seat": fields.get("dealer_seat")}
    amounts = {"ante": stakes.ante, "bring in": stakes.bring_in, "small bet": stakes.small_bet, "big bet": stakes.big_bet,
               "total pot": fields.get("total_pot"), "rake": fields.get("rake"), "fees": fields.get("fees")}
    for what, value in counts.items():
        if isinstance(value, int) and not 0 <= value <= MAX_COUNT:
            raise HandParseError(first, f"{what} {value} is out of range (at most {MAX_COUNT})")
    for what, value in amounts.items():
        if isinstance(value, int) and not -MAX_AMOUNT <= value <= MAX_AMOUNT:
            raise HandParseError(first, f"{what} {value} is out of range (at most {MAX_AMOUNT} units)")


def summary_rest(text: str, seat: str | None, player: str) -> str:
    """What a summary line ``Seat N: player …`` says after the player's name, so that a name holding
    the words searched for (" mucked [Ah]") is never read as them; the whole line if it is not so.

    >>> summary_rest("Seat 2: x mucked [Ah] mucked [2c 3c]", "2", "x mucked [Ah]")
    ' mucked [2c 3c]'
    """
    prefix = f"Seat {seat}: {player}"
    return text[len(prefix):] if text.startswith(prefix) else text


def raw_hash(raw: RawHand) -> str:
    return hashlib.sha256(raw.text.encode("utf-8")).hexdigest()


def mark_idle_seats(b: HandBuilder, note: bool = True) -> None:
    """A seated player who posts nothing, is dealt nothing and never acts sat the hand out
    (with ``note``, the hand says so)."""
    involved = {action.player for action in b.actions} | {deal.player for deal in b.deals}
    for seat in list(b.seats):
        if seat.player not in involved and not seat.sitting_out:
            b.mark_sitting_out(seat.player)
            if note:
                b.note(f"{seat.player} is seated but posts nothing and is dealt nothing: recorded as sitting out")


def uncalled_excess(actions: Sequence[Action]) -> tuple[str, int, Street] | None:
    """The part of the last bet nobody matched, for sites that print no uncalled-bet line: on the
    last street where chips went in, the top street total less the next one (antes are dead money
    and do not count).

    >>> from hhtool.model import Action, ActionKind as K, Street as S
    >>> uncalled_excess([Action(S.SEVENTH, "a", K.BET, 50, 50), Action(S.SEVENTH, "b", K.FOLD)])
    ('a', 50, <Street.SEVENTH: 7>)
    >>> uncalled_excess([Action(S.FIFTH, "a", K.BET, 50, 50), Action(S.FIFTH, "b", K.CALL, 20, 20, True)])
    ('a', 30, <Street.FIFTH: 5>)
    """
    totals: dict[Street, dict[str, int]] = {}
    for action in actions:
        if action.kind is ActionKind.ANTE or action.amount == 0:
            continue
        street_totals = totals.setdefault(action.street, {})
        street_totals[action.player] = street_totals.get(action.player, 0) + action.amount
    if not totals:
        return None
    last = max(totals)
    ranked = sorted(totals[last].items(), key=lambda item: item[1], reverse=True)
    top_player, top = ranked[0]
    second = ranked[1][1] if len(ranked) > 1 else 0
    return (top_player, top - second, last) if top > second else None


# ---------------------------------------------------------------- the site interface


class Splitting(Enum):
    """How a site's :meth:`SiteParser.split` reads a file, which says how the importer may feed it."""

    #: any run of a file's lines that begins at a hand start splits on its own: a file can be
    #: streamed, or cut into blocks at :meth:`SiteParser.hand_starts` and split in workers
    AT_HAND_STARTS = "at hand starts"
    #: the lines are read once, in order, holding one hand: a file can be streamed, not cut
    IN_ORDER = "in order"
    #: the splitter needs the whole file at once
    WHOLE_FILE = "whole file"


class SiteParser:
    """Base of every site module: the outer skeleton every format shares (sniff, split, parse a
    hand never raising, build). Subclasses set ``name`` and override what differs."""

    name: ClassVar[str] = ""
    #: how :meth:`split` reads a file (declared by a site that overrides it; the default split cuts at
    #: ``hand_start`` lines)
    splitting: ClassVar[Splitting] = Splitting.AT_HAND_STARTS
    #: regex matching the first line of a hand (text formats)
    hand_start: ClassVar[re.Pattern[str] | None] = None

    def sniff(self, head: Sequence[str]) -> bool:
        """True when these first non-blank lines of a file are in this site's format: by default,
        when one of the first five starts a hand."""
        if self.hand_start is None:
            raise NotImplementedError
        match = lenient(self.hand_start).match
        return any(match(line) for line in head[:5])

    def split(self, lines: Iterable[str], file: str, offset: int = 0) -> Iterator[RawHand]:
        """Cut a file's lines into hands, each with its true line numbers; ``offset`` is the file index
        of the first of ``lines`` (a run of a file). Every site's split has this signature.

        By default at lines matching ``hand_start``. Text before the first hand start becomes its
        own 'hand' so that the parser reports it instead of it vanishing. Reads the lines once, in
        order, so a file can be streamed through it, and a run beginning at a hand start splits alike."""
        assert self.hand_start is not None
        hand_start = lenient(self.hand_start)  # (a hand start behind a byte-order mark or NULs is one too)
        buffer: list[str] = []
        first = 0
        for index, line in enumerate(lines, offset):
            if hand_start.match(line):
                if buffer:
                    yield self._raw(buffer, 0, len(buffer), file, first)
                buffer, first = [line], index
            elif buffer:
                buffer.append(line)
            elif line.strip():
                buffer, first = [line], index
        if buffer:
            yield self._raw(buffer, 0, len(buffer), file, first)

    def holds_hand(self, lines: Iterable[str]) -> bool:
        """Whether a hand of this site starts in these lines (a whole file's): a file in which none
        does is not a hand history of this site, so its text is no failed or truncated hand. By default
        a ``hand_start`` line; a site whose hands start otherwise overrides it, and a site without
        ``hand_start`` that does not cannot tell (True: its split reports the text as before)."""
        if self.hand_start is None:
            return True
        match = lenient(self.hand_start).match
        return any(match(line) for line in lines)

    @property
    def splits_at_hand_starts(self) -> bool:
        """Whether any run of a file's lines beginning at a hand start splits on its own (a file can be
        cut into blocks at :meth:`hand_starts`)."""
        return self.splitting is Splitting.AT_HAND_STARTS

    @property
    def can_stream(self) -> bool:
        """Whether :meth:`split` can read a file as a stream, never holding it whole."""
        return self.splitting is not Splitting.WHOLE_FILE

    def hand_starts(self, lines: Sequence[str]) -> list[int]:
        """Indexes of the lines that begin a hand (where a file may be cut into independent runs),
        for sites that :attr:`splits_at_hand_starts`."""
        assert self.hand_start is not None
        match = lenient(self.hand_start).match
        return [index for index, line in enumerate(lines) if match(line)]

    @staticmethod
    def _raw(lines: Sequence[str], start: int, stop: int, file: str, offset: int = 0) -> RawHand:
        """Lines ``start:stop`` less trailing blanks; ``offset`` is the file index of lines[0]."""
        while stop > start and not lines[stop - 1].strip():
            stop -= 1
        return RawHand(file, offset + start + 1, tuple(lines[start:stop]))

    def line_formats(self) -> tuple[SiteParser, ...]:
        """The line-grammar parsers this site reads its hands with (see :mod:`hhtool.sites.kit.line_site`);
        none for the XML and PHH formats, which have no line grammar."""
        return ()

    def prepare(self, raws: Sequence[RawHand]) -> None:
        """Before :meth:`parse` reads each of a chunk's hands: each line format reads all their lines at once."""
        for line_format in self.line_formats():
            if line_format is not self:
                line_format.prepare(raws)

    def game_of(self, raw: RawHand) -> tuple[str | None, str, bool]:
        """(site hand id, the site's game name, whether it is Seven Card Stud Hi/Lo)."""
        raise NotImplementedError

    def parse_stud8(self, raw: RawHand) -> Hand:
        """Parse a hand already known to be Stud Hi/Lo. Raise HandParseError on bad text."""
        raise NotImplementedError

    def skipped(self, raw: RawHand, hand_id: str | None, game: str) -> SkippedHand:
        """A hand of another game, as it is skipped: its site, id and game; a site whose tournaments mix
        games adds what such a hand states of the tournament (its finish lines). Never raises."""
        return SkippedHand(self.name, hand_id, game, raw)

    def parse(self, raw: RawHand) -> ParseOutcome:
        """Parse one hand; never raises for bad input."""
        hand_id: str | None = None
        stray = stray_prefix(raw.lines[0]) if raw.lines else 0
        if stray:  # a byte-order mark or NULs before the first line (see hhtool.sites.kit.stray_bytes)
            first = raw.lines[0]
            kept = RawHand(raw.file, raw.first_line, (first[stray:], *raw.lines[1:]), raw.header, raw.header_line)
            return noted(self.parse(kept), first[:stray], raw.first_line)
        cut = _cut_line(raw)
        if cut is not None:  # the reader cut an over-long line: the hand cannot be read as written
            return FailedHand(self.name, None, cut[0], f"{self.name}: {cut[1]}", raw)
        try:
            hand_id, game, is_stud8 = self.game_of(raw)
            if not is_stud8:
                return self.skipped(raw, hand_id, game)
            return self.parse_stud8(raw)
        except HandParseError as parse_error:
            return FailedHand(self.name, hand_id, parse_error.line, f"{self.name}: {parse_error.reason}", raw, parse_error.kind)
        except UnexpectedInput as lark_error:
            line, reason = describe_lark_error(lark_error, raw)
            kind = FailureKind.ENDS_EARLY if lark_error_ends_early(lark_error) else FailureKind.UNREADABLE
            return FailedHand(self.name, hand_id, line, f"{self.name}: {reason}", raw, kind)
        except (ValueError, KeyError, IndexError) as bad_value:
            return FailedHand(self.name, hand_id, raw.first_line, f"{self.name}: {type(bad_value).__name__}: {bad_value}", raw)
        except Exception as fault:  # a fault in this parser must cost one hand, not the import
            return FailedHand(self.name, hand_id, raw.first_line,
                              f"{self.name}: internal error ({type(fault).__name__}: {fault}); please report this hand", raw)


def _cut_line(raw: RawHand) -> tuple[int, str] | None:
    """(file line, why) of a line of the hand, or of the file header it needs, that the reader cut."""
    if CUT_LINE_MARK not in raw.text and not any(CUT_LINE_MARK in line for line in raw.header):
        return None
    for first, lines in ((raw.header_line, raw.header), (raw.first_line, raw.lines)):
        for index, line in enumerate(lines):
            if CUT_LINE_MARK in line:
                return first + index, line[line.index(CUT_LINE_MARK) + len(CUT_LINE_MARK):]
    return None

