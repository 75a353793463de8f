"""Every way the unseen cards can complete a stud spot, and each completed hand's values.

``deal_values(known, dead)``: player i holds ``known[i]`` (2 to 7 cards) and draws the rest of his
seven from the unseen deck (52 cards minus every known and dead card). Exact: every distinct
completion counted once (the order of a player's own cards does not matter; players draw in turn
without replacement, so every row is equally likely). Sampled: ``samples`` completions drawn
uniformly with a seeded generator.

Deck exhaustion (rules R17, online practice): when the players still to be dealt need more cards
than the unseen deck holds, their last (7th-street) card is one common card that each of them uses;
the cards before it must still fit, or the spot is impossible.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from math import comb, prod
from typing import TYPE_CHECKING

from hhtool.equity.fast_eval import CARD_COUNT, HAND_SIZE, card_index, card_of, hand_values
from hhtool.model import Card

if TYPE_CHECKING:
    import numpy

__all__ = ["DEFAULT_BUDGET", "MAX_DEALS", "DealValues", "SpotError", "deal_count", "deal_values"]

#: exact when the distinct completions are at most this many (a few seconds of CPU at most)
DEFAULT_BUDGET = 3_000_000
#: the most deals held at once, counted or sampled (each keeps its cards and values: ~25 bytes a player)
MAX_DEALS = 12_000_000


class SpotError(ValueError):
    """A spot that cannot be dealt: a card twice, too few or too many cards, too many players."""


@dataclass(frozen=True)
class DealValues:
    """Per deal (row) and player (column): the completed hand's high and low values."""

    high: numpy.ndarray  # int64, shape (deals, players): larger is better; equal values tie
    low: numpy.ndarray  # int64, shape (deals, players): larger is better; 0 = no qualifying low
    exact: bool  # True: every distinct completion counted once (all equally likely)
    deals: int  # rows
    #: int8 card indices, shape (deals, players, 7): each player's seven cards in each deal
    hands: numpy.ndarray | None = field(default=None, repr=False, compare=False)

    def cards_of(self, rows: Sequence[int]) -> list[list[tuple[Card, ...]]]:
        """Each player's seven cards in each of ``rows`` (his known cards first, then those drawn)."""
        if self.hands is None:
            raise ValueError("these deal values keep no cards")
        return [[tuple(card_of(int(index)) for index in player) for player in self.hands[row]] for row in rows]


@dataclass(frozen=True)
class _Plan:
    """How the unseen cards are dealt: each player draws ``draws[i]`` cards of his own; with a
    common card, the players in ``common`` also use one more card shared by them all."""

    known: tuple[tuple[int, ...], ...]
    unseen: tuple[int, ...]
    draws: tuple[int, ...]
    common: tuple[bool, ...]

    @property
    def has_common(self) -> bool:
        return any(self.common)

    def deal_count(self) -> int:
        left = len(self.unseen)
        counts = []
        for draw in (*self.draws, *((1,) if self.has_common else ())):
            counts.append(comb(left, draw))
            left -= draw
        return prod(counts)


def _plan(known: Sequence[Sequence[Card]], dead: Sequence[Card]) -> _Plan:
    if len(known) < 2:
        raise SpotError(f"need at least 2 players, got {len(known)}")
    seen: dict[int, str] = {}

    def note(card: Card, whose: str) -> int:
        try:
            index = card_index(card)
        except (AttributeError, ValueError, TypeError):
            raise SpotError(f"not a card: {card!r} ({whose})") from None
        if not 0 <= index < CARD_COUNT:
            raise SpotError(f"not a card: {card!r} ({whose})")
        if index in seen:
            raise SpotError(f"{card} is given twice ({seen[index]} and {whose})")
        seen[index] = whose
        return index

    hands: list[tuple[int, ...]] = []
    for number, cards in enumerate(known, start=1):
        if not 2 <= len(cards) <= HAND_SIZE:
            raise SpotError(f"player {number} has {len(cards)} card{'' if len(cards) == 1 else 's'}: give 2 to 7")
        hands.append(tuple(note(card, f"player {number}") for card in cards))
    for card in dead:
        note(card, "dead")
    unseen = tuple(index for index in range(CARD_COUNT) if index not in seen)
    needs = [HAND_SIZE - len(hand) for hand in hands]
    if sum(needs) <= len(unseen):
        return _Plan(tuple(hands), unseen, tuple(needs), (False,) * len(hands))
    # R17: the 7th-street card becomes one common card for those still to receive it
    own = [max(need - 1, 0) for need in needs]
    if sum(own) + 1 > len(unseen):
        raise SpotError(f"{len(hands)} players need {sum(needs)} more cards but only {len(unseen)} are unseen: "
                        "more players than the deck can serve")
    return _Plan(tuple(hands), unseen, tuple(own), tuple(need > 0 for need in needs))


def deal_count(known: Sequence[Sequence[Card]], dead: Sequence[Card] = ()) -> int:
    """How many distinct completions the spot has (what an exact count evaluates)."""
    return _plan(known, dead).deal_count()


@dataclass
class _Drawn:
    """Cards drawn so far: ``taken[i]`` (rows, draws[i]) per drawer, ``left`` (rows, n) the rest."""

    taken: list[numpy.ndarray]
    left: numpy.ndarray


def _enumerate(plan: _Plan) -> list[numpy.ndarray]:
    """Every distinct completion: per drawer (the players, then the common card), (deals, draws)."""
    import numpy as np

    drawn = _Drawn([], np.array([plan.unseen], dtype=np.int8))
    draws = (*plan.draws, *((1,) if plan.has_common else ()))
    for number, draw in enumerate(draws):
        width = drawn.left.shape[1]
        picks = np.array(list(combinations(range(width), draw)), dtype=np.intp).reshape(comb(width, draw), draw)
        rows = len(drawn.left)
        taken = drawn.left[:, picks].reshape(rows * len(picks), draw)
        earlier = [np.repeat(block, len(picks), axis=0) for block in drawn.taken]
        if number + 1 < len(draws):
            keep = np.ones((len(picks), width), dtype=bool)
            keep[np.arange(len(picks))[:, None], picks] = False
            rest = np.nonzero(keep)[1].reshape(len(picks), width - draw)
            left = drawn.left[:, rest].reshape(rows * len(picks), width - draw)
        else:
            left = drawn.left[:0, :0]
        drawn = _Drawn([*earlier, taken], left)
    return drawn.taken


def _sample(plan: _Plan, samples: int, seed: int) -> list[numpy.ndarray]:
    """``samples`` uniform completions: a random order of the unseen deck per row, dealt in turn."""
    import numpy as np

    generator = np.random.default_rng(seed)
    unseen = np.array(plan.unseen, dtype=np.int8)
    draws = (*plan.draws, *((1,) if plan.has_common else ()))
    order = generator.random((samples, len(unseen))).argsort(axis=1)[:, : sum(draws)]
    dealt = unseen[order]
    blocks, start = [], 0
    for draw in draws:
        blocks.append(dealt[:, start : start + draw])
        start += draw
    return blocks


def deal_values(known: Sequence[Sequence[Card]], dead: Sequence[Card] = (), *,
                exact: bool | None = None, samples: int = 20_000, seed: int = 0,
                budget: int = DEFAULT_BUDGET) -> DealValues:
    """known[i]: player i's known cards (2..7); the rest of his seven drawn from the unseen deck.

    ``exact``: True counts every completion, False samples ``samples`` of them with ``seed``,
    None counts them all when they are at most ``budget``. SpotError for a spot that cannot be dealt.
    """
    import numpy as np

    plan = _plan(known, dead)
    if exact is None:
        exact = plan.deal_count() <= budget
    if not exact and not 1 <= samples <= MAX_DEALS:
        raise SpotError(f"samples must be 1 to {MAX_DEALS:,}, got {samples:,}")
    if seed < 0:
        raise SpotError(f"the seed must be 0 or more, got {seed}")
    if exact and plan.deal_count() > MAX_DEALS:
        raise SpotError(f"this spot has {plan.deal_count():,} deals, more than the {MAX_DEALS:,} an exact count "
                        "can hold: sample it instead")
    blocks = _enumerate(plan) if exact else _sample(plan, samples, seed)
    rows = len(blocks[0])
    common = blocks[-1] if plan.has_common else None
    hands = np.empty((rows, len(plan.known), HAND_SIZE), dtype=np.int8)
    for player, (cards, draw) in enumerate(zip(plan.known, plan.draws, strict=True)):
        hands[:, player, : len(cards)] = cards
        hands[:, player, len(cards) : len(cards) + draw] = blocks[player]
        if plan.common[player] and common is not None:
            hands[:, player, HAND_SIZE - 1 :] = common
    high = np.empty((rows, len(plan.known)), dtype=np.int64)
    low = np.empty((rows, len(plan.known)), dtype=np.int64)
    direct = []
    for player, cards in enumerate(plan.known):
        looked_up = None if plan.common[player] else _values_by_draw(cards, plan.unseen, blocks[player], exact)
        if looked_up is None:
            direct.append(player)
        else:
            high[:, player], low[:, player] = looked_up
    if direct:
        high[:, direct], low[:, direct] = hand_values(hands[:, direct])
    return DealValues(high=high, low=low, exact=exact, deals=rows, hands=hands)


def _values_by_draw(known: tuple[int, ...], unseen: tuple[int, ...], drawn: numpy.ndarray,
                    ordered: bool) -> tuple[numpy.ndarray, numpy.ndarray] | None:
    """A player's (high, low) in each row, looked up by the cards he drew, when he can draw fewer
    distinct sets than there are rows (heads-up on 5th street: 630 hands judged for 353,430 deals);
    None when judging each row's hand is cheaper. ``ordered``: each row's cards are in increasing
    order already (an enumeration deals them so)."""
    import numpy as np

    width, draw = len(unseen), drawn.shape[1]
    if comb(width, draw) > len(drawn):
        return None
    # each draw's number in the combinatorial number system: sum of C(position_j, j + 1) over its
    # cards' positions in the unseen deck, in increasing order
    weights = np.array([[comb(position, place + 1) for place in range(max(draw, 1))] for position in range(width)],
                       dtype=np.int64)
    picks = np.array(list(combinations(range(width), draw)), dtype=np.intp).reshape(comb(width, draw), draw)
    every = np.empty((len(picks), HAND_SIZE), dtype=np.int8)
    every[:, : len(known)] = known
    every[:, len(known) :] = np.array(unseen, dtype=np.int8)[picks]
    table_high, table_low = np.empty((2, len(picks)), dtype=np.int64)
    numbers = weights[picks, np.arange(draw)].sum(axis=1)
    table_high[numbers], table_low[numbers] = hand_values(every)
    position = np.zeros(CARD_COUNT, dtype=np.intp)
    position[list(unseen)] = np.arange(width)
    positions = position[drawn] if ordered else np.sort(position[drawn], axis=1)
    row_numbers = np.zeros(len(drawn), dtype=np.int64)
    for place in range(draw):
        row_numbers += weights[positions[:, place], place]
    return table_high[row_numbers], table_low[row_numbers]
