"""Playing policies for the simulator: who folds, calls, bets and raises.

A policy sees only what a real player would (his own cards, the other players' upcards, the
price) and answers with a :class:`Move`. The dealer turns the move into a legal action; the policy
never has to know the betting rules. The default policy is deliberately simple: a rough hand
strength for high and for low, per-player looseness and aggression, and some noise, which is
enough to produce multiway pots, raise wars up to the cap, folds on every street, all-ins of short
stacks and showdowns.

>>> from hhtool.model import Card
>>> strength([Card.parse(text) for text in ("Ah", "2d", "3c")]) > strength([Card.parse(text) for text in ("Kh", "9d", "4c")])
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from hhtool.model import Card


class Move(StrEnum):
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    RAISE = "raise"  # bet, complete or raise, whichever the situation makes it
    BRING_IN = "bring_in"  # the bring-in player posts the bring-in rather than completing


@dataclass(frozen=True, slots=True)
class Situation:
    """What a player knows when it is his turn."""

    street: int
    cards: tuple[Card, ...]  # his own cards, down and up
    opponents_paired: int  # other live players showing an open pair
    to_call: int  # chips needed to match the current bet (0: he may check)
    pot: int  # chips in the middle including this street's bets
    can_raise: bool  # a bet/complete/raise is legal and affordable (possibly all-in for less)
    bets_made: int  # completions/bets/raises so far this street
    is_bring_in: bool  # the bring-in choice: post the bring-in or complete
    stack: int  # chips behind


@dataclass(frozen=True, slots=True)
class Style:
    """A player's temperament for one hand (drawn by the dealer)."""

    looseness: float  # 0 tight .. 1 loose: how weak a hand still calls
    aggression: float  # 0 passive .. 1 aggressive: how often a good hand raises


def strength(cards: Sequence[Card]) -> float:
    """A rough 0..1 value of a stud/8 holding: the better of its high and its low prospects.

    Cheap on purpose (it runs for every decision): pairs and trips for high, distinct small
    ranks for low; straights and flushes count only as a bonus for three or more to one suit.
    """
    counts = [0] * 15
    suits = {"c": 0, "d": 0, "h": 0, "s": 0}
    low_mask = 0
    for card in cards:
        rank = card.rank
        counts[rank] += 1
        suits[card.suit] += 1
        if rank <= 8 or rank == 14:
            low_mask |= 1 << (1 if rank == 14 else rank)
    top_count = max(counts)
    pairs = [rank for rank in range(14, 1, -1) if counts[rank] >= 2]
    if top_count >= 3:
        high = 0.8 + 0.05 * (top_count - 3) + (0.1 if len(pairs) > 1 else 0.0)
    elif len(pairs) > 1:
        high = 0.6 + pairs[0] / 100
    elif pairs:
        high = 0.3 + pairs[0] / 40
    else:
        high = max(card.rank for card in cards) / 40
    flush_draw = max(suits.values())
    if flush_draw >= 5:
        high = max(high, 0.85)
    elif flush_draw >= 3 and len(cards) <= 5:
        high += 0.08
    seen = len(cards)
    needed = min(5, seen)
    low_ranks = [rank for rank in range(1, 9) if low_mask >> rank & 1]
    low = 0.0
    if len(low_ranks) >= needed:
        low = 0.55 + 0.05 * (8 - low_ranks[needed - 1])
    elif seen < 7 and len(low_ranks) >= needed - 1:
        low = 0.35 + 0.03 * (8 - (low_ranks[-1] if low_ranks else 8))
    return min(1.0, max(high, low))


class Policy:
    """Interface: choose a move for a situation."""

    def style(self, rng: random.Random) -> Style:
        return Style(looseness=rng.uniform(0.2, 0.9), aggression=rng.uniform(0.1, 0.8))

    def decide(self, situation: Situation, style: Style, rng: random.Random) -> Move:
        raise NotImplementedError


class SimplePolicy(Policy):
    """Fold, call, complete, bet or raise by hand strength, temperament and noise."""

    def decide(self, situation: Situation, style: Style, rng: random.Random) -> Move:
        # Other players' open pairs make a hand less attractive.
        value = strength(situation.cards) + rng.uniform(-0.2, 0.2) - 0.08 * situation.opponents_paired
        raise_bar = 0.95 - 0.45 * style.aggression + 0.08 * situation.bets_made
        if situation.is_bring_in:
            return Move.RAISE if situation.can_raise and value > raise_bar + 0.1 else Move.BRING_IN
        if situation.to_call == 0:
            if situation.can_raise and value > raise_bar:
                return Move.RAISE
            if situation.street > 3 and rng.random() < 0.004:
                return Move.FOLD  # online clients accept a fold when no bet is faced
            return Move.CHECK
        # Price: how much of the pot the call costs; a cheap call needs less.
        price = situation.to_call / max(1, situation.pot + situation.to_call)
        call_bar = 0.55 - 0.45 * style.looseness + 0.6 * price + 0.02 * (situation.street - 3)
        if situation.to_call >= situation.stack:
            call_bar += 0.1  # calling all-in asks a little more
        if value < call_bar:
            return Move.FOLD
        if situation.can_raise and value > raise_bar:
            return Move.RAISE
        return Move.CALL


class CallDownPolicy(Policy):
    """Everyone posts the bring-in, calls every bet and checks otherwise: every dealt player
    reaches 7th street (with eight players the deck runs out: the community card case)."""

    def decide(self, situation: Situation, style: Style, rng: random.Random) -> Move:
        if situation.is_bring_in:
            return Move.BRING_IN
        return Move.CHECK if situation.to_call == 0 else Move.CALL


class RaiseWarPolicy(SimplePolicy):
    """Raises whenever it may: every betting round reaches the cap (used to test the cap)."""

    def decide(self, situation: Situation, style: Style, rng: random.Random) -> Move:
        if situation.can_raise:
            return Move.RAISE
        if situation.is_bring_in:
            return Move.BRING_IN
        return Move.CHECK if situation.to_call == 0 else Move.CALL


POLICIES: dict[str, type[Policy]] = {
    "simple": SimplePolicy,
    "calldown": CallDownPolicy,
    "raisewar": RaiseWarPolicy,
}
