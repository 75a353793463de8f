"""The hand model: hhtool's one intermediate representation of a Stud Hi/Lo hand.

Every site parser produces these values and everything downstream (replay, store,
reports) consumes only them. The model records what the site *said*; deciding what the
rules *require* is the replay engine's job. It imports nothing else from hhtool.

All money is an ``int`` in the hand's smallest unit (cents for real money, chips in
tournaments and play money); see :attr:`Stakes.unit`.

Every value here is **immutable by convention**: once a site's builder has made a :class:`Hand`,
nothing changes it or any value it holds (a changed copy is made with ``dataclasses.replace``).
Only :class:`Card` is a frozen dataclass (one value per spelling is shared by :meth:`Card.parse`);
the records are slotted dataclasses that are not frozen, because a frozen one costs a
``object.__setattr__`` call per field to build (an action: ≈1,000 against ≈340 ns, benchmarks/bench_model.py) and the site
modules build several per line. They compare and hash by value as frozen ones do
(``unsafe_hash``), so they stay usable in sets and as keys. ``tests/test_model_immutable.py``
checks that replaying, tabulating and reporting every sample hand leaves it as it was built.

>>> Card.parse("Ah")
Card(rank=14, suit='h')
>>> str(Card.parse("10d"))
'Td'
>>> Street.FIFTH.is_big_bet
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from enum import IntEnum, StrEnum

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"  # also the bring-in tie-break order: clubs < diamonds < hearts < spades


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """A playing card. ``rank`` is 2..14 (ace = 14); ``suit`` is one of ``c d h s``.

    >>> Card.parse("Tc") < Card.parse("Td") < Card.parse("Jc")
    True
    >>> Card.parse("1x")
    Traceback (most recent call last):
    ...
    ValueError: not a card: '1x'
    """

    rank: int
    suit: str

    @staticmethod
    def parse(text: str) -> Card:
        """Parse ``Ah``, ``Td`` or ``10d`` (rank first, case-insensitive suit). Cards are
        immutable, so each spelling is parsed once and the value shared."""
        card = _CARDS_BY_TEXT.get(text)
        if card is None:
            card = Card._parse(text)
            if len(_CARDS_BY_TEXT) < 4096:  # spellings are few; this bounds odd whitespace variants
                _CARDS_BY_TEXT[text] = card
        return card

    @staticmethod
    def _parse(text: str) -> Card:
        body = text.strip()
        if len(body) == 3 and body.startswith("10"):
            body = "T" + body[2]
        if len(body) != 2:
            raise ValueError(f"not a card: {text!r}")
        rank_index = RANK_CHARS.find(body[0].upper())
        suit = body[1].lower()
        if rank_index < 0 or suit not in SUIT_CHARS:
            raise ValueError(f"not a card: {text!r}")
        return Card(rank_index + 2, suit)

    @property
    def rank_char(self) -> str:
        return RANK_CHARS[self.rank - 2]

    @property
    def low_rank(self) -> int:
        """Rank for ace-to-five low: ace counts 1.

        >>> Card.parse("As").low_rank, Card.parse("8c").low_rank
        (1, 8)
        """
        return 1 if self.rank == 14 else self.rank

    @property
    def bring_in_key(self) -> tuple[int, int]:
        """Order for choosing the bring-in: rank with ace high, then suit c<d<h<s."""
        return (self.rank, SUIT_CHARS.index(self.suit))

    def __str__(self) -> str:
        return self.rank_char + self.suit


#: Card.parse results by spelling
_CARDS_BY_TEXT: dict[str, Card] = {}


def cards_text(cards: tuple[Card | None, ...]) -> str:
    """Render cards with ``??`` for unknown ones.

    >>> cards_text((Card.parse("Ah"), None))
    'Ah ??'
    """
    return " ".join("??" if card is None else str(card) for card in cards)


class Street(IntEnum):
    """Betting rounds, numbered as players call them."""

    THIRD = 3
    FOURTH = 4
    FIFTH = 5
    SIXTH = 6
    SEVENTH = 7

    @property
    def is_big_bet(self) -> bool:
        """5th, 6th and 7th street use the big bet."""
        return self >= Street.FIFTH

    @property
    def label(self) -> str:
        return {3: "3rd", 4: "4th", 5: "5th", 6: "6th", 7: "7th"}[int(self)]


class ActionKind(StrEnum):
    ANTE = "ante"
    BRING_IN = "bring_in"
    COMPLETE = "complete"
    BET = "bet"
    RAISE = "raise"
    CALL = "call"
    CHECK = "check"
    FOLD = "fold"

    @property
    def is_aggressive(self) -> bool:
        return self in (ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE)


class Structure(StrEnum):
    FIXED_LIMIT = "fixed_limit"
    POT_LIMIT = "pot_limit"
    NO_LIMIT = "no_limit"


class Half(StrEnum):
    """Which part of a pot an award is for, as the site labelled it."""

    HIGH = "high"
    LOW = "low"
    WHOLE = "whole"  # the site says the winner took the pot undivided
    UNKNOWN = "unknown"  # the site does not say


class ShowStatus(StrEnum):
    SHOWN = "shown"  # cards turned up at showdown
    MUCKED = "mucked"  # mucked; cards revealed only if the site printed them
    NOT_SHOWN = "not_shown"  # "doesn't show hand": won without showing, or left silently


@dataclass(slots=True, unsafe_hash=True)
class Source:
    """Where a hand came from: file, 1-based inclusive line span, sha256 of its raw text."""

    file: str
    first_line: int
    last_line: int
    sha256: str


class StakeSource(StrEnum):
    """Where a stakes value came from."""

    HEADER = "header"  # the history states it (header, table line, game description)
    POSTED = "posted"  # taken from this hand's own forced bets: a claim to judge, not a fact
    USER = "user"  # the desk's own structures file (--structures, or the config file's structures key)
    CONTEXT = "context"  # what the other hands at the same table and stakes agree on
    SITE = "site"  # what the same site's other tables at the same game, structure, currency and bets agree on
    STRUCTURE = "structure"  # the site's structures table shipped with hhtool (rows citing public histories)
    INFERRED = "inferred"  # worked out from the hand's forced bets and betting (bet sizes not stated)


@dataclass(slots=True, unsafe_hash=True)
class Stakes:
    """Table stakes. ``None`` means the history does not say and it could not be derived.

    In no-limit and pot-limit games ``small_bet`` is the minimum bet (the smallest opening bet
    and raise) and ``big_bet`` is None unless the site states one. Each ``*_source`` says where
    the value came from; ``bets_source`` covers ``small_bet`` and ``big_bet``."""

    ante: int | None
    bring_in: int | None
    small_bet: int | None
    big_bet: int | None
    currency: str  # ISO code ("USD", "EUR") or "CHIPS" / "PLAY"
    unit: int = 100  # smallest units per currency unit: 100 for cents, 1 for chips
    structure: Structure = Structure.FIXED_LIMIT
    is_tournament: bool = False
    table_size: int | None = None
    ante_source: StakeSource = StakeSource.HEADER
    bring_in_source: StakeSource = StakeSource.HEADER
    bets_source: StakeSource = StakeSource.HEADER

    @property
    def provenance(self) -> str:
        """Where each value came from, in a few words.

        >>> Stakes(1, 2, 4, 8, "USD", bring_in_source=StakeSource.CONTEXT).provenance
        'ante: header, bring-in: table context, bets: header'
        """
        words = {StakeSource.HEADER: "header", StakeSource.POSTED: "own post", StakeSource.CONTEXT: "table context",
                 StakeSource.SITE: "site's other tables", StakeSource.STRUCTURE: "site structure",
                 StakeSource.USER: "your structures file",
                 StakeSource.INFERRED: "inferred"}
        return ", ".join(f"{name}: {words[source]}" for name, source in
                         (("ante", self.ante_source), ("bring-in", self.bring_in_source), ("bets", self.bets_source)))


@dataclass(slots=True, unsafe_hash=True)
class Seat:
    seat: int
    player: str
    stack: int | None  # starting stack; None when the site does not print it
    sitting_out: bool = False
    line: int = 0


@dataclass(slots=True, unsafe_hash=True)
class Deal:
    """Cards one player received on one street. ``None`` is a card the history hides."""

    street: Street
    player: str
    down: tuple[Card | None, ...]
    up: tuple[Card | None, ...]
    line: int = 0


@dataclass(slots=True, unsafe_hash=True)
class Action:
    """One action. ``amount`` is the chips this action put in; ``to_amount`` is the
    player's total for the street after it (for antes: the ante itself)."""

    street: Street
    player: str
    kind: ActionKind
    amount: int = 0
    to_amount: int = 0
    all_in: bool = False
    line: int = 0


@dataclass(slots=True, unsafe_hash=True)
class UncalledReturn:
    street: Street
    player: str
    amount: int
    line: int = 0


@dataclass(slots=True, unsafe_hash=True)
class ShownHand:
    """A player's cards at (or after) showdown, in dealing order when the site gives it."""

    player: str
    status: ShowStatus
    cards: tuple[Card | None, ...] = ()
    high_text: str | None = None  # the site's own description, e.g. "a flush, Queen high"
    low_text: str | None = None
    line: int = 0


@dataclass(slots=True, unsafe_hash=True)
class Award:
    """Money a player collected, as the site printed it.

    ``pot`` is 0 for the main pot (or the only pot), N for side pot N, ``None`` when the
    site does not say which pot."""

    player: str
    amount: int
    pot: int | None = 0
    half: Half = Half.UNKNOWN
    line: int = 0


@dataclass(slots=True, unsafe_hash=True)
class StatedPot:
    """One pot's amount as the site's summary states it (``Main pot $0.41. Side pot $0.18.``).

    ``pot`` is 0 for the main pot, N for side pot N; ``after_rake`` says whether the site states
    what the pot held once the rake was taken (PokerStars) or before (Full Tilt, OnGame)."""

    pot: int
    amount: int
    after_rake: bool
    line: int = 0


class Restated(StrEnum):
    """Kinds of fact a history states a second time (checked against the first statement)."""

    CARDS = "cards"  # a later deal line repeats the cards dealt before: "Dealt to X [5c 8d] [Qs]"
    FOLDED = "folded"  # summary: "folded on the 4th Street" (street)
    SHOWED = "showed"  # summary: "showed [..]" (cards; text = the description it repeats)
    MUCKED = "mucked"  # summary: "mucked [..]" or "mucked" (cards when printed)
    WON = "won"  # summary: "won ($0.37)" / "collected ($x)" (amount: every pot and half together)
    LOST = "lost"  # summary: "showed [..] and lost": collected nothing
    NET = "net"  # summary: the player's result, collected less put in ("+329", "net: -$0.05")
    STACK_AFTER = "stack_after"  # summary: the player's chips after the hand ("(2,054.59)")


@dataclass(slots=True, unsafe_hash=True)
class Restatement:
    """A fact the history states again (mostly in its summary), as it states it there.

    ``street`` is the street of a CARDS restatement (the deal line that repeats the earlier cards)
    or the street a FOLDED line names; ``cards`` are the repeated cards in the order printed
    (``None`` for a hidden one); ``text`` the site's hand description, where it repeats one."""

    fact: Restated
    player: str
    street: Street | None = None
    amount: int | None = None
    cards: tuple[Card | None, ...] = ()
    text: str | None = None
    line: int = 0


@dataclass(slots=True, unsafe_hash=True)
class BuyIn:
    """What entering the tournament cost, as the hand's header states it ("$10+$1", "$200+$50+$15 USD",
    "100+9", "50FPP", "Freeroll"). Amounts are in the smallest unit of ``currency`` (``unit`` of them
    make one): ``amount`` goes to the prize pool, ``fee`` to the site, ``bounty`` on the player's head
    (a knockout). ``currency``: an ISO code, ``PLAY`` (play money), ``FPP`` (PokerStars' player points),
    ``SC`` (StarsCoin); None for a freeroll (nothing paid).

    >>> BuyIn(1000, 100, currency="USD").total, BuyIn(0, currency=None).is_freeroll
    (1100, True)
    """

    amount: int
    fee: int = 0
    bounty: int = 0
    currency: str | None = "USD"
    unit: int = 100

    @property
    def total(self) -> int:
        return self.amount + self.fee + self.bounty

    @property
    def is_freeroll(self) -> bool:
        return self.total == 0


@dataclass(slots=True, unsafe_hash=True)
class Finish:
    """A player's finish in the tournament, as a line of the hand states it ("X finished the tournament in
    2nd place and received $12.34.", "X wins the tournament and receives $29.38 - congratulations!").
    ``place`` is None when the line names none; ``prize`` (in the smallest unit of ``currency``, ``unit``
    of them make one) None when it states none; ``currency`` None when the prize has no currency the
    hand tells (a bare number in a tournament whose buy-in the header does not state)."""

    player: str
    place: int | None = None
    prize: int | None = None
    currency: str | None = None
    unit: int = 100
    line: int = 0


class NoteTopic(StrEnum):
    """What a note is about, where other code acts on it: that code reads this value, never the text."""

    BETS_INFERRED = "bets_inferred"  # the header states no bets: the small and big bet inferred from the betting
    PRIVATE_TABLE = "private_table"  # a home game or private table: its forced bets are its host's, not the site's
    STRUCTURE_DIFFERS = "structure_differs"  # the forced bets judged by differ from a farther source's (set by the judging pass)
    BAD_DATE = "bad_date"  # the history states a date that is none (2026/02/30): kept without one, `hhtool problems` lists it


@dataclass(slots=True, unsafe_hash=True)
class Note:
    """Something the parser recorded about a hand (an ambiguity, the reading it chose), with the file
    line it is about; ``line`` is None when it is about the hand as a whole, ``topic`` None when no
    other code acts on it."""

    text: str
    line: int | None = None
    topic: NoteTopic | None = None


@dataclass(slots=True, unsafe_hash=True)
class Hand:
    site: str
    hand_id: str
    source: Source
    stakes: Stakes
    seats: tuple[Seat, ...]
    actions: tuple[Action, ...]
    deals: tuple[Deal, ...] = ()
    uncalled: tuple[UncalledReturn, ...] = ()
    showdown: tuple[ShownHand, ...] = ()
    awards: tuple[Award, ...] = ()
    started_at: datetime | None = None
    timezone: str | None = None
    table_name: str | None = None
    tournament_id: str | None = None
    hero: str | None = None
    game_label: str = ""  # the site's own name for the game, e.g. "7 Card Stud Hi/Lo Limit"
    total_pot: int | None = None  # as the site states it (after returns, before rake)
    rake: int | None = None
    fees: int = 0  # other deductions the site states (e.g. a jackpot fee)
    dealer_seat: int | None = None  # the seat the site calls dealer/button, if any
    community_card: Card | None = None  # 7th-street card shared when the deck runs out
    origin_site: str | None = None  # for a converted history (PHH written by hhtool): the site that dealt it
    stated_pots: tuple[StatedPot, ...] = ()  # per-pot amounts the summary states, main pot first
    restatements: tuple[Restatement, ...] = ()  # facts the history states twice (second statements)
    buy_in: BuyIn | None = None  # a tournament hand's buy-in, where its header states it
    finishes: tuple[Finish, ...] = ()  # the finishing places (and prizes) the hand states, in its order
    notes: tuple[Note, ...] = field(default_factory=tuple)  # ambiguities the parser recorded

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(seat.player for seat in self.seats)

    def seat_of(self, player: str) -> Seat:
        for seat in self.seats:
            if seat.player == player:
                return seat
        raise KeyError(player)

    @property
    def position_order(self) -> tuple[str, ...]:
        """Players in dealing order: clockwise from the dealer's left, or by ascending seat
        when the site names no dealer (PokerStars and Full Tilt deal that way)."""
        ordered = sorted(self.seats, key=lambda seat: seat.seat)
        if self.dealer_seat is not None:
            after = [seat for seat in ordered if seat.seat > self.dealer_seat]
            before = [seat for seat in ordered if seat.seat <= self.dealer_seat]
            ordered = after + before
        return tuple(seat.player for seat in ordered)

    def collected_by(self, player: str) -> int:
        return sum(award.amount for award in self.awards if award.player == player)

    def contributed_by(self, player: str) -> int:
        """Chips the player put in, less what was returned uncalled."""
        put_in = sum(action.amount for action in self.actions if action.player == player)
        returned = sum(ret.amount for ret in self.uncalled if ret.player == player)
        return put_in - returned

    def net_won(self, player: str) -> int:
        return self.collected_by(player) - self.contributed_by(player)


@dataclass(slots=True, unsafe_hash=True)
class RawHand:
    """One hand's text as the splitter found it, before parsing."""

    file: str
    first_line: int  # 1-based line number of ``lines[0]`` in the file
    lines: tuple[str, ...]
    # file-level context the hand needs to be parsed again (the XML session header of iPoker and
    # Merge): its lines and the file line of the first; header_line is 0 when no header was looked for
    header: tuple[str, ...] = ()
    header_line: int = 0

    @property
    def last_line(self) -> int:
        return self.first_line + len(self.lines) - 1

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


@dataclass(slots=True, unsafe_hash=True)
class SkippedHand:
    """A hand of another game (Hold'em, Razz, Stud high…): counted, not stored as stud/8. A hand of a
    tournament that mixes games keeps what it states of the tournament: its id and the finishes its
    lines state (an 8-Game's last hand may be dealt as Omaha)."""

    site: str
    hand_id: str | None
    game: str
    raw: RawHand
    tournament_id: str | None = None
    finishes: tuple[Finish, ...] = ()


class FailureKind(StrEnum):
    """Why a run of a file's lines was not stored as a hand, as a value (not words to search)."""

    UNREADABLE = "unreadable"  # the text is not what the site's format allows
    ENDS_EARLY = "ends_early"  # the hand stops before it is complete (a truncated hand)
    STRAY_TEXT = "stray_text"  # lines after a complete hand that belong to no hand (a note, a footer)
    UNKNOWN_FORMAT = "unknown_format"  # no site recognised the file
    DAMAGED = "damaged"  # a damaged archive: its bytes after the damage could not be read


@dataclass(slots=True, unsafe_hash=True)
class FailedHand:
    """A hand that could not be read. Kept with its raw text so nothing is lost."""

    site: str | None
    hand_id: str | None
    line: int  # the file line the parser stopped at
    reason: str
    raw: RawHand
    kind: FailureKind = FailureKind.UNREADABLE


ParseOutcome = Hand | SkippedHand | FailedHand

_LINE_BREAKS = re.compile(r"\r\n|\r|\n")


def text_lines(text: str) -> list[str]:
    """``text``'s lines, broken at \\r, \\n and \\r\\n only, as the reader breaks a file: ``str.splitlines``
    also breaks at U+2028, U+2029, U+0085 and a few controls, which a player's name may hold.

    >>> text_lines("Seat 1: A\u2028B ($5)\\r\\nSeat 2: C ($4)\\n")
    ['Seat 1: A\u2028B ($5)', 'Seat 2: C ($4)']
    """
    lines = _LINE_BREAKS.split(text)
    return lines[:-1] if lines and not lines[-1] else lines  # no empty line after a final break (as splitlines)


#: put by the reader after the kept start of a line longer than its bound, followed by why; a hand
#: holding such a line fails with that reason (a private-use character: no site writes it)
CUT_LINE_MARK = "\ue000 hhtool: "


def hand_identity(site: str, hand_id: str, origin_site: str | None) -> tuple[str, str]:
    """The (site, hand id) a hand was dealt as: a converted hand's origin, else its own key.

    >>> hand_identity("phh", "pokerstars:200", "pokerstars"), hand_identity("pokerstars", "200", None)
    (('pokerstars', '200'), ('pokerstars', '200'))
    """
    if origin_site and hand_id.startswith(origin_site + ":"):
        return origin_site, hand_id[len(origin_site) + 1:]
    return site, hand_id
