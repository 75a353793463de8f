"""Showdown hand evaluation for Stud Hi/Lo: best high five and best ace-to-five 8-or-better low.

Values are plain ints so callers can compare, sort and group hands cheaply:

* High: ``category << 20`` plus the five significant ranks packed four bits each, most significant
  first (pairs repeated, e.g. a full house packs 8,8,8,4,4; the wheel packs 5,4,3,2,1). Larger beats
  smaller; equal values are exact ties, suits never matter.
* Low: ``0xFFFFF`` minus the five distinct low ranks (ace = 1) packed highest first, so a larger value
  is a *better* low and A-2-3-4-5 is the largest.

Speed comes from tables filled on first use and then reused: the rank multiset of a hand (a sum of
3-bit counters, one per rank) maps to its best non-flush five; the rank bitmask of the flush suit maps
to its best flush or straight flush; the bitmask of distinct low ranks (256 entries, built at import)
maps to the best low. With at most seven cards a flush rules out quads and full houses, so a hand
with five or more cards of one suit is decided by the flush table alone.

>>> hand = best_high(cards("As Kd 7h 7c Ac 2s 3d"))
>>> hand.category, hand.describe(), " ".join(map(str, hand.cards))
('two pair', 'two pair, Aces and Sevens', 'As Ac 7h 7c Kd')
>>> best_high(cards("Ah 2d 3c 4s 5h Kd Kc")).describe()
'a straight, Ace to Five'
>>> best_high(cards("Ah 2d 3c 4s 5h 6d Kc")).value > best_high(cards("Ah 2d 3c 4s 5h Kd Kc")).value
True
>>> low = best_low(cards("7s 6d 5c 3h Ad 7c Kd"))
>>> low.describe(), low.ranks
('7,6,5,3,A', (7, 6, 5, 3, 1))
>>> best_low(cards("8s 8d 9c 3h Ad 2c Kd")) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hhtool.model import Card

__all__ = [
    "CATEGORIES",
    "HighHand",
    "LowHand",
    "best_hands",
    "best_high",
    "best_low",
    "cards",
    "describe_high",
    "high_value",
    "low_value",
]

# Category index = value >> 20.
CATEGORIES: tuple[str, ...] = (
    "high card",
    "one pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
)
HIGH_CARD, ONE_PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)

_RANK_NAMES = {
    1: "Ace", 2: "Deuce", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven", 8: "Eight",
    9: "Nine", 10: "Ten", 11: "Jack", 12: "Queen", 13: "King", 14: "Ace",
}  # fmt: skip
_RANK_PLURALS = {
    2: "Deuces", 3: "Threes", 4: "Fours", 5: "Fives", 6: "Sixes", 7: "Sevens", 8: "Eights",
    9: "Nines", 10: "Tens", 11: "Jacks", 12: "Queens", 13: "Kings", 14: "Aces",
}  # fmt: skip
_LOW_RANK_CHARS = {1: "A", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8"}
_SUIT_ORDER = {"c": 0, "d": 1, "h": 2, "s": 3}

# ---------------------------------------------------------------- value packing


def _pack(category: int, ranks: Sequence[int]) -> int:
    value = category
    for rank in ranks:
        value = (value << 4) | rank
    return value


def _ranks_of(value: int) -> tuple[int, int, int, int, int]:
    return ((value >> 16) & 15, (value >> 12) & 15, (value >> 8) & 15, (value >> 4) & 15, value & 15)


# ---------------------------------------------------------------- high tables

# Per-card contributions: a 3-bit counter per rank (ranks 2..14), a 3-bit counter per suit.
_RANK_UNIT: dict[int, int] = {rank: 1 << (3 * (rank - 2)) for rank in range(2, 15)}
_SUIT_UNIT: dict[str, int] = {suit: 1 << (3 * index) for suit, index in _SUIT_ORDER.items()}


def _flush_suit_of(suit_counts: int) -> str | None:
    for suit, index in _SUIT_ORDER.items():
        if (suit_counts >> (3 * index)) & 7 >= 5:
            return suit
    return None


# suit-counter sum -> the suit holding five or more cards (at most one can, with <= 7 cards)
_FLUSH_SUIT: tuple[str | None, ...] = tuple(_flush_suit_of(counts) for counts in range(1 << 12))


def _straight_top(rank_mask: int) -> int:
    """Top rank of the highest straight among the ranks of ``rank_mask`` (bit ``rank`` set for each
    rank present, 2..14; the ace plays low too), 0 if none: five consecutive set bits, found by
    and-ing the mask with itself shifted one to four places."""
    if rank_mask >> 14 & 1:
        rank_mask |= 2  # the ace as 1
    runs = rank_mask & rank_mask >> 1 & rank_mask >> 2 & rank_mask >> 3 & rank_mask >> 4
    return runs.bit_length() + 3 if runs else 0


def _straight_value(category: int, top: int) -> int:
    """The packed value of a straight (or straight flush) topped by ``top``: its five ranks counting
    down from ``top`` (the wheel: 5, 4, 3, 2 and the ace as 1)."""
    if top == 5:
        return (category << 20) | 0x54321
    return (category << 20) | (top * 0x11111 - 0x01234)


_RANKS_DOWN: tuple[int, ...] = tuple(range(14, 1, -1))


def _best_non_flush(rank_counts: int) -> int:
    """Best five (ignoring suits) for a rank multiset given as 3-bit counters (five to seven cards).

    The ranks are sorted into singles, pairs, trips and quads in one pass from the ace down, so each
    list is highest first; the packed value is then built with multiplications by repeated nibbles
    (``rank * 0x11100`` packs the rank three times, in the first three places)."""
    singles: list[int] = []
    pairs: list[int] = []
    trips: list[int] = []
    quads: list[int] = []
    mask = 0
    for rank in _RANKS_DOWN:
        count = rank_counts >> (3 * rank - 6) & 7
        if count:
            mask |= 1 << rank
            if count == 1:
                singles.append(rank)
            elif count == 2:
                pairs.append(rank)
            elif count == 3:
                trips.append(rank)
            else:
                quads.append(rank)
    if quads:
        first = quads[0]
        kicker = (mask & ~(1 << first)).bit_length() - 1  # the highest other rank, whatever its count
        return (QUADS << 20) | first * 0x11110 | kicker
    if trips and (len(trips) > 1 or pairs):
        first = trips[0]
        # the pair of the full house: the better of a second trips and the top pair
        second = trips[1] if len(trips) > 1 and (not pairs or trips[1] > pairs[0]) else pairs[0]
        return (FULL_HOUSE << 20) | first * 0x11100 | second * 0x11
    top = _straight_top(mask)
    if top:
        return _straight_value(STRAIGHT, top)
    if trips:  # no pair beside them (that would be a full house): two singles at least
        return (TRIPS << 20) | trips[0] * 0x11100 | singles[0] << 4 | singles[1]
    if len(pairs) >= 2:
        first, second = pairs[0], pairs[1]
        kicker = (mask & ~(1 << first) & ~(1 << second)).bit_length() - 1  # a third pair's rank may be it
        return (TWO_PAIR << 20) | first * 0x11000 | second * 0x110 | kicker
    if pairs:
        return (ONE_PAIR << 20) | pairs[0] * 0x11000 | singles[0] << 8 | singles[1] << 4 | singles[2]
    return (HIGH_CARD << 20) | singles[0] << 16 | singles[1] << 12 | singles[2] << 8 | singles[3] << 4 | singles[4]


def _best_flush(rank_mask: int) -> int:
    """Best five among the ranks of one suit (bit ``rank`` set for each), five or more of them."""
    top = _straight_top(rank_mask)
    if top:
        return _straight_value(STRAIGHT_FLUSH, top)
    present = [rank for rank in _RANKS_DOWN if rank_mask >> rank & 1]
    return _pack(FLUSH, present[:5])


# Filled on demand: a seven-card multiset table has ~49k entries and most programs need few of them.
_NON_FLUSH: dict[int, int] = {}
_FLUSH: dict[int, int] = {}


# ---------------------------------------------------------------- low table


def _low_entry(mask: int) -> int:
    """Low value for a bitmask of distinct low ranks (bit 0 = ace ... bit 7 = eight); -1 if none."""
    ranks = [rank for rank in range(1, 9) if mask >> (rank - 1) & 1][:5]
    if len(ranks) < 5:
        return -1
    return 0xFFFFF - _pack(0, ranks[::-1])


_LOW_BIT: dict[int, int] = {rank: 1 << (rank - 1) if rank <= 8 else 0 for rank in range(2, 14)} | {14: 1}
_LOW_TABLE: tuple[int, ...] = tuple(_low_entry(mask) for mask in range(256))


# ---------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class HighHand:
    """A high hand: ``value`` orders hands (larger wins, equal = exact tie); ``cards`` is the
    best five, most significant first (for the wheel the ace comes last).

    Compare hands by ``value``: ``==`` on the objects also compares the cards, so two hands that
    tie on value but differ in suits are not ``==``.
    """

    value: int
    category: str
    cards: tuple[Card, ...]

    @property
    def ranks(self) -> tuple[int, ...]:
        """The five ranks in significance order (ace = 1 in the wheel)."""
        return _ranks_of(self.value)

    def describe(self) -> str:
        """PokerStars-style wording.

        >>> [best_high(cards(text)).describe() for text in ("Ah Kc 9d 7s 2c", "9h 9c 8d 8s 2c", "8h 8c 8d 4s 4c")]
        ['high card Ace', 'two pair, Nines and Eights', 'a full house, Eights full of Fours']
        """
        return describe_high(self.value)


@dataclass(frozen=True, slots=True)
class LowHand:
    """An 8-or-better low: ``value`` larger = better low; ``ranks`` highest first, ace = 1.
    Compare lows by ``value`` (``==`` on the objects also compares the cards)."""

    value: int
    ranks: tuple[int, ...]
    cards: tuple[Card, ...]

    def describe(self) -> str:
        return ",".join(_LOW_RANK_CHARS[rank] for rank in self.ranks)


# The wording of each category: {top}/{tops} the first rank (singular/plural), {second_pair} the
# lower pair of two pair, {full_of} the pair of a full house, {bottom} a straight's lowest card.
_HIGH_WORDING = {
    HIGH_CARD: "high card {top}",
    ONE_PAIR: "a pair of {tops}",
    TWO_PAIR: "two pair, {tops} and {second_pair}",
    TRIPS: "three of a kind, {tops}",
    STRAIGHT: "a straight, {bottom} to {top}",
    FLUSH: "a flush, {top} high",
    FULL_HOUSE: "a full house, {tops} full of {full_of}",
    QUADS: "four of a kind, {tops}",
    STRAIGHT_FLUSH: "a straight flush, {bottom} to {top}",
}


def describe_high(value: int) -> str:
    """Wording for a high value (see :meth:`HighHand.describe`)."""
    category = value >> 20
    r1, _, r3, r4, r5 = _ranks_of(value)
    if category == STRAIGHT_FLUSH and r1 == 14:
        return "a Royal Flush"  # PokerStars' wording for the ace-high straight flush
    return _HIGH_WORDING[category].format(top=_RANK_NAMES[r1], tops=_RANK_PLURALS.get(r1, ""),
                                          second_pair=_RANK_PLURALS.get(r3, ""), full_of=_RANK_PLURALS.get(r4, ""),
                                          bottom=_RANK_NAMES.get(r5, ""))


# ---------------------------------------------------------------- card selection

# A hand's cards as one int: bit ``rank * 4 + suit index`` (c, d, h, s = 0..3) per card, so the
# cards of one rank are a 4-bit nibble. The chosen five are read from tables keyed by that nibble.
_CANONICAL_CARD: dict[int, Card] = {
    rank * 4 + index: Card(rank, suit) for rank in range(2, 15) for suit, index in _SUIT_ORDER.items()
}
_SUIT_SPREAD: dict[str, int] = {
    suit: sum(1 << (rank * 4 + index) for rank in range(2, 15)) for suit, index in _SUIT_ORDER.items()
}


def _top_cards(rank: int, nibble: int, count: int) -> tuple[Card, ...]:
    """``count`` cards of ``rank`` among the suits in ``nibble``, higher suit (s > h > d > c) first."""
    indexes = [index for index in (3, 2, 1, 0) if nibble >> index & 1][:count]
    return tuple(_CANONICAL_CARD[rank * 4 + index] for index in indexes)


# index (rank << 7) | (nibble << 3) | count
_GROUP_CARDS: list[tuple[Card, ...]] = [()] * (15 << 7)
for _rank in range(2, 15):
    for _nibble in range(16):
        for _count in range(5):
            _GROUP_CARDS[(_rank << 7) | (_nibble << 3) | _count] = _top_cards(_rank, _nibble, _count)

# value -> ((rank * 4, (rank << 7) | count), ...) for each distinct rank of the five, in order
_HIGH_GROUPS: dict[int, tuple[tuple[int, int], ...]] = {}
_LOW_GROUPS: dict[int, tuple[tuple[int, int], ...]] = {}


def _groups_of(ranks: Sequence[int]) -> tuple[tuple[int, int], ...]:
    counted: list[list[int]] = []
    for low_or_high_rank in ranks:
        rank = 14 if low_or_high_rank == 1 else low_or_high_rank
        if counted and counted[-1][0] == rank:
            counted[-1][1] += 1
        else:
            counted.append([rank, 1])
    return tuple((rank * 4, (rank << 7) | count) for rank, count in counted)


def _select(groups: tuple[tuple[int, int], ...], held: int) -> tuple[Card, ...]:
    chosen: tuple[Card, ...] = ()
    for shift, base in groups:
        chosen += _GROUP_CARDS[base | ((held >> shift) & 15) << 3]
    return chosen


# ---------------------------------------------------------------- evaluation


def _bad_cards(hand: Sequence[object], reason: str) -> ValueError:
    return ValueError(f"{reason}: {' '.join(map(str, hand))}")


def _counters(hand: Sequence[Card]) -> tuple[int, int, int]:
    """(rank counters, suit counters, held-card bits) for 5..7 distinct known cards; ValueError otherwise."""
    if not 5 <= len(hand) <= 7:
        raise ValueError(f"need 5 to 7 cards, got {len(hand)}")
    rank_counts = suit_counts = held = 0
    rank_unit, suit_unit, suit_order = _RANK_UNIT, _SUIT_UNIT, _SUIT_ORDER
    try:
        for card in hand:
            rank = card.rank
            suit = card.suit
            rank_counts += rank_unit[rank]
            suit_counts += suit_unit[suit]
            held |= 1 << (rank * 4 + suit_order[suit])
    except (AttributeError, KeyError, TypeError):
        raise _bad_cards(hand, "not 5 to 7 known cards") from None
    if held.bit_count() != len(hand):
        raise _bad_cards(hand, "duplicate cards")
    return rank_counts, suit_counts, held


def _value(hand: Sequence[Card], rank_counts: int, suit_counts: int) -> tuple[int, str | None]:
    flush_suit = _FLUSH_SUIT[suit_counts]
    if flush_suit is None:
        value = _NON_FLUSH.get(rank_counts)
        if value is None:
            value = _NON_FLUSH[rank_counts] = _best_non_flush(rank_counts)
        return value, None
    mask = 0
    for card in hand:
        if card.suit == flush_suit:
            mask |= 1 << card.rank
    value = _FLUSH.get(mask)
    if value is None:
        value = _FLUSH[mask] = _best_flush(mask)
    return value, flush_suit


def high_value(hand: Sequence[Card]) -> int:
    """Just the value of :func:`best_high` (cheaper: no card selection, no object)."""
    rank_counts, suit_counts, _ = _counters(hand)
    return _value(hand, rank_counts, suit_counts)[0]


def best_high(hand: Sequence[Card]) -> HighHand:
    """Best high five of 5 to 7 known, distinct cards (ValueError otherwise).

    Among cards of equal rank the five prefer the higher suit (s > h > d > c), so the result does
    not depend on the order of ``hand``; the cards returned are equal to, not always the same
    objects as, the cards given.
    """
    rank_counts, suit_counts, held = _counters(hand)
    value, flush_suit = _value(hand, rank_counts, suit_counts)
    if flush_suit is not None:
        held &= _SUIT_SPREAD[flush_suit]
    groups = _HIGH_GROUPS.get(value)
    if groups is None:
        groups = _HIGH_GROUPS[value] = _groups_of(_ranks_of(value))
    return HighHand(value, CATEGORIES[value >> 20], _select(groups, held))


def _low_scan(hand: Sequence[Card]) -> tuple[int, int]:
    """(low value or -1, held-card bits) for 5..7 known cards."""
    if not 5 <= len(hand) <= 7:
        raise ValueError(f"need 5 to 7 cards, got {len(hand)}")
    mask = held = 0
    low_bit, suit_order = _LOW_BIT, _SUIT_ORDER
    try:
        for card in hand:
            rank = card.rank
            mask |= low_bit[rank]
            held |= 1 << (rank * 4 + suit_order[card.suit])
    except (AttributeError, KeyError, TypeError):
        raise _bad_cards(hand, "not 5 to 7 known cards") from None
    if held.bit_count() != len(hand):
        raise _bad_cards(hand, "duplicate cards")
    return _LOW_TABLE[mask], held


def low_value(hand: Sequence[Card]) -> int | None:
    """Just the value of :func:`best_low`, or None when no 8-or-better low qualifies."""
    value = _low_scan(hand)[0]
    return None if value < 0 else value


def best_low(hand: Sequence[Card]) -> LowHand | None:
    """Best ace-to-five 8-or-better low of 5 to 7 known, distinct cards, or None when none qualifies.

    Cards are chosen as in :func:`best_high` (higher suit first among equal ranks).
    """
    value, held = _low_scan(hand)
    if value < 0:
        return None
    ranks = _ranks_of(0xFFFFF - value)
    groups = _LOW_GROUPS.get(value)
    if groups is None:
        groups = _LOW_GROUPS[value] = _groups_of(ranks)
    return LowHand(value, ranks, _select(groups, held))


_SUIT_INDEX_UNIT: dict[str, tuple[int, int]] = {suit: (index, _SUIT_UNIT[suit]) for suit, index in _SUIT_ORDER.items()}


def best_hands(hand: Sequence[Card]) -> tuple[HighHand, LowHand | None]:
    """``(best_high(hand), best_low(hand))`` in one pass over the cards (a showdown evaluates both):
    the same hands, and the same ValueError for what is not 5 to 7 known, distinct cards.

    >>> high, low = best_hands(cards("7s 6d 5c 3h Ad 7c Kd"))
    >>> (high, low) == (best_high(cards("7s 6d 5c 3h Ad 7c Kd")), best_low(cards("7s 6d 5c 3h Ad 7c Kd")))
    True
    """
    if not 5 <= len(hand) <= 7:
        raise ValueError(f"need 5 to 7 cards, got {len(hand)}")
    rank_counts = suit_counts = held = low_mask = 0
    rank_unit, low_bit, suit_index_unit = _RANK_UNIT, _LOW_BIT, _SUIT_INDEX_UNIT
    try:
        for card in hand:
            rank = card.rank
            index, unit = suit_index_unit[card.suit]
            rank_counts += rank_unit[rank]
            suit_counts += unit
            held |= 1 << (rank * 4 + index)
            low_mask |= low_bit[rank]
    except (AttributeError, KeyError, TypeError):
        raise _bad_cards(hand, "not 5 to 7 known cards") from None
    if held.bit_count() != len(hand):
        raise _bad_cards(hand, "duplicate cards")
    value, flush_suit = _value(hand, rank_counts, suit_counts)
    chosen = held & _SUIT_SPREAD[flush_suit] if flush_suit is not None else held
    groups = _HIGH_GROUPS.get(value)
    if groups is None:
        groups = _HIGH_GROUPS[value] = _groups_of(_ranks_of(value))
    high = HighHand(value, CATEGORIES[value >> 20], _select(groups, chosen))
    low_value = _LOW_TABLE[low_mask]
    if low_value < 0:
        return high, None
    ranks = _ranks_of(0xFFFFF - low_value)
    groups = _LOW_GROUPS.get(low_value)
    if groups is None:
        groups = _LOW_GROUPS[low_value] = _groups_of(ranks)
    return high, LowHand(low_value, ranks, _select(groups, held))


def cards(text: str) -> tuple[Card, ...]:
    """Parse space-separated cards, a convenience for tests and doctests: ``cards("Ah Kd")``."""
    return tuple(Card.parse(part) for part in text.split())


