"""The dispute report as one typed value: what every renderer (text, JSON, HTML) draws from.

Money is carried as :class:`Money` (an integer in the hand's smallest unit plus the text a person
reads); cards as their short text (``"Kd"``, ``None`` for a card the history hides)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Money:
    amount: int  # smallest units (cents, chips)
    text: str  # as a person reads it: "$0.63"


@dataclass(frozen=True, slots=True)
class Cited:
    """A line of the history the report cites."""

    file: str
    line: int


@dataclass(frozen=True, slots=True)
class AssumptionView:
    """A parameter the judgement adopted from the hand's own postings, where no source states it."""

    kind: str  # "ante", "bring_in", "rake"
    value: Money
    words: str  # "ante $0.05, as all 6 players dealt in posted it; the history does not state the level's ante"
    cited: Cited | None  # the postings' first line; None: the whole hand (the rake)


@dataclass(frozen=True, slots=True)
class DealView:
    player: str
    down: tuple[str | None, ...]
    up: tuple[str | None, ...]
    line: int


@dataclass(frozen=True, slots=True)
class ActionView:
    """One action (or an uncalled bet returned) with the pot after it."""

    street: int
    player: str
    words: str  # "completes to $10.00", "checks", "gets $2.00 back uncalled"
    amount: Money  # chips put in (negative for a return)
    pot_after: Money
    all_in: bool
    line: int


@dataclass(frozen=True, slots=True)
class StreetView:
    street: int
    label: str  # "3rd street"
    deals: tuple[DealView, ...]
    actions: tuple[ActionView, ...]
    pot_after: Money


def in_history_order(street: StreetView) -> tuple[DealView | ActionView, ...]:
    """The street's deals and actions in the order of the history: the antes posted before the cards
    are dealt first, then the deals, then the rest (a line-less action stays after the deals)."""
    first_deal = min((deal.line for deal in street.deals if deal.line), default=0)
    before = [action for action in street.actions if first_deal and action.line and action.line < first_deal]
    return (*before, *street.deals, *(action for action in street.actions if action not in before))


@dataclass(frozen=True, slots=True)
class PlayerView:
    seat: int
    player: str
    stack: Money | None
    cards: tuple[str | None, ...]  # every card dealt to him, in dealing order (None = hidden)
    put_in: Money  # after returned uncalled bets
    status: str  # "folded on 4th street", "all-in", "showed", "mucked", "in to the end"


@dataclass(frozen=True, slots=True)
class FiveView:
    """A best five: its words and its cards (most significant first)."""

    words: str
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ContenderView:
    player: str
    seven: tuple[str | None, ...]
    high: FiveView | None
    low: FiveView | None
    standing: str  # "" when he contends; else why he cannot win ("mucked", "cards not shown")


@dataclass(frozen=True, slots=True)
class ShareView:
    player: str
    amount: Money


@dataclass(frozen=True, slots=True)
class HalfView:
    name: str  # "high", "low" or "whole"
    amount: Money
    winners: tuple[ShareView, ...]
    winning_cards: tuple[tuple[str, tuple[str, ...]], ...]  # (player, the five that won this half)


@dataclass(frozen=True, slots=True)
class PotView:
    index: int  # 0 main pot, N side pot N
    name: str  # "main pot", "side pot 1"
    amount: Money  # before rake
    rake: Money
    net: Money
    eligible: tuple[str, ...]
    contenders: tuple[ContenderView, ...]
    halves: tuple[HalfView, ...]  # () when the rules cannot decide the pot
    odd_units: tuple[str, ...]  # who gets odd units and why, in words
    decided: bool
    site_paid: tuple[ShareView, ...] | None  # what the site says it paid from this pot; None if it does not say


@dataclass(frozen=True, slots=True)
class AwardRow:
    player: str
    rules: Money
    site: Money
    difference: Money  # site minus rules: positive = the site paid him too much
    words: str  # "paid $0.63 too much", "paid $0.63 too little", "correct"


@dataclass(frozen=True, slots=True)
class MisawardRow:
    """One player's part of the money the settlement moved otherwise than the rules (each signed,
    site minus rules): his award (every pot; the uncalled bet inside it where the site pays it with
    the award) and the uncalled bet the site returned to him apart from the award."""

    player: str
    award: Money
    returned: Money
    total: Money  # award + returned: positive = the site paid him too much, negative = too little


@dataclass(frozen=True, slots=True)
class RuleRef:
    rule: str  # the rules document's rule number, e.g. "R14"
    title: str  # its title there, e.g. "Pot splitting and odd chips"


@dataclass(frozen=True, slots=True)
class Finding:
    """A departure from the rules (``violation``) or a check the history did not allow (``unverifiable``)."""

    kind: str  # "violation" or "unverifiable"
    topic: str  # what was checked, in words: "the award of each pot"
    rules: tuple[RuleRef, ...]
    message: str
    street: int | None
    player: str | None
    expected: str
    actual: str
    cited: Cited | None
    parameters: tuple[tuple[str, str], ...]  # the profile's parameters that decide this finding


@dataclass(frozen=True, slots=True)
class ContextNote:
    """A forced bet the hand was judged with that came from the other hands at its table."""

    what: str  # "ante", "bring-in"
    amount: Money | None
    source: str  # "stated by the site", "the other hands at the table", "the hand's own post"
    detail: str


@dataclass(frozen=True, slots=True)
class CopySide:
    """One stored copy of a disputed hand: where it lies, its digest, and its lines."""

    file: str
    first_line: int
    last_line: int
    sha256: str
    site: str
    hand_id: str
    lines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CopyView:
    """Two copies of the hand (the one stored first, the other) and how they differ."""

    stored: CopySide
    other: CopySide
    kind: str
    difference: str


@dataclass(frozen=True, slots=True)
class ProfileView:
    """The rule profile a hand is judged under, and who chose it."""

    name: str
    chosen_by: str  # "the user (--rules)" or "the site that dealt the hand"
    source: str
    parameters: tuple[tuple[str, str], ...]  # the parameters that mattered for this hand
    # of those, the site practices learnt from the site's histories: (parameter, how many hands show it)
    learnt_from: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class Report:
    site: str
    hand_id: str
    game: str
    table: str | None
    started_at: str | None
    stakes: str
    stakes_source: str
    source: Cited  # the hand's first line
    last_line: int
    profile: ProfileView
    verdict: str  # "ok", "violation", "unverifiable"
    headline: tuple[str, ...]  # the verdict in one or two plain sentences
    # money the site paid to the wrong players or kept, wherever in the settlement (pots, uncalled bets
    # returned), each amount counted once; see :func:`.settlement.misawarded_total`
    misawarded: Money
    misawarded_by_player: tuple[MisawardRow, ...]  # the players the settlement paid otherwise than the rules
    streets: tuple[StreetView, ...]
    players: tuple[PlayerView, ...]
    pots: tuple[PotView, ...]
    rake: Money
    rake_words: str
    awards: tuple[AwardRow, ...]
    # the uncalled bets returned per player, the rules beside the site, where the site returns them apart
    # from its awards (() where its awards hold them: ``uncalled_in_awards`` and no return line)
    returns: tuple[AwardRow, ...]
    findings: tuple[Finding, ...]
    context: tuple[ContextNote, ...]
    copies: tuple[CopyView, ...]
    # the parameters of the rules the judgement adopted from the hand's own postings (no source states them)
    assumptions: tuple[AssumptionView, ...] = ()
    # the hand's money: smallest units per currency unit and the currency (what a sum the report does not
    # carry, a stack after an action, is spelled with: :func:`hhtool.money.format_at_table`)
    unit: int = 1
    currency: str | None = None


@dataclass(frozen=True, slots=True)
class HalfChance:
    """What a mucked hand would have done in one half of a pot, against the hands that were shown."""

    pot: str  # "main pot"
    half: str  # "high" or "low"
    outcome: str  # "would have won", "would have tied", "would have lost"
    against: str  # the best shown hand of that half in words ("three of a kind, Kings (Big)"), "" where none


@dataclass(frozen=True, slots=True)
class MuckedHand:
    """A player's mucked cards, evaluated for the copy addressed to him: his best high and low (None:
    no 8-or-better low) and, in each pot he could win, whether either would have won or tied a half."""

    player: str
    cards: tuple[str, ...]
    high: FiveView | None
    low: FiveView | None
    chances: tuple[HalfChance, ...]
