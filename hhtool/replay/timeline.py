"""What the replay engine records as it walks a hand (:mod:`hhtool.replay.engine`): a :class:`Step`
per action with the betting situation it met, a :class:`Round` per betting round with how it ended,
and the :class:`ReplayState` the checks read. Kept apart from the walk so that the checks, the
hidden-card search and the reports depend on what is recorded, not on how it is computed."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from hhtool.model import Action, Card, Deal, Street
from hhtool.replay.pots import Settlement

STREETS = (Street.THIRD, Street.FOURTH, Street.FIFTH, Street.SIXTH, Street.SEVENTH)
# enum members as module constants: reading Street.THIRD through the class measured 572 ns against 50 ns
# for a global on 3.11 (3.12: 114 / 12 ns, 3.13: 152 / 71 ns; timeit, min of 7): worth it on each version
THIRD, FOURTH, FIFTH, SIXTH, SEVENTH = STREETS


# Steps and rounds are read dozens of times per action by the checks: slotted dataclasses, whose
# fields the interpreter reads fastest (a named tuple's field: 95 ns against 9 ns on 3.11, 127 / 30 ns
# on 3.12, 107 / 69 ns on 3.13), not frozen: a frozen one calls object.__setattr__ per field when
# built (two fields: 2.1 µs against 0.9 µs on 3.11, 3.4 / 1.0 µs on 3.12, 3.0 / 1.0 µs on 3.13).
# Read-only by convention.


@dataclass(slots=True, eq=False)
class Step:
    """One action and the situation it met. ``*_before`` values are just before the action."""

    index: int  # position in hand.actions
    action: Action
    player: str  # action.player
    due: str | None  # whom the clockwise order made due; None at a round's first action or when nobody was
    round_over: bool  # the round was already complete (or everyone else had folded) when it came
    level_before: int  # the street total every player must match
    put_in_before: int  # this player's street total
    full_level_before: int  # street total set by the last full bet/raise; 0 if none (3rd: bring-in only)
    opened_before: bool  # some player had increased the bet this street (the bring-in does not count)
    bets_before: int  # completions/bets/raises counted towards the cap
    big_increment_before: bool  # 4th-street double bet: a big-bet-sized bet or raise has been made
    last_increment_before: int  # size of the last full increase (no-limit / pot-limit minimum raise)
    may_raise: bool  # the betting was open to this player (not closed by a short all-in)
    chips_before: int | None  # chips behind; None when the stack is not printed
    pot_before: int  # all chips put in so far, antes and this street's bets included
    live_before: tuple[str, ...]  # dealt in and not folded, position order
    active_before: tuple[str, ...]  # live and not all-in
    increase: bool  # the action raised the street's bet
    full: bool  # the increase counted as a full bet/raise and reopened the betting
    counted: bool  # the increase counted towards the cap
    all_in_after: bool
    to: int  # the player's street total after the action (put_in_before + action.amount)


@dataclass(slots=True, eq=False)
class Round:
    """One betting round as walked."""

    street: Street
    deals: tuple[Deal, ...]
    steps: tuple[Step, ...]
    live_at_start: tuple[str, ...]
    active_at_start: tuple[str, ...]
    increment: int | None  # fixed-limit bet size of the street (None if the stakes do not say)
    double_bet_allowed: bool  # R6 variant: an open pair on 4th street allows the big bet
    put_in: Mapping[str, int]  # street totals at the end
    level: int
    pending: tuple[str, ...]  # active players who still had to act or match when the round ended
    uncalled: tuple[str, int] | None  # (player, amount) the rules return at the end of the round
    live_at_end: tuple[str, ...]
    active_at_end: tuple[str, ...]
    last_line: int  # the last line of the round (last action, else last deal)


@dataclass(slots=True)  # read-only by convention: a frozen dataclass costs a setattr call per field to build
class ReplayState:
    order: tuple[str, ...]  # every seated player, position order
    dealt_in: tuple[str, ...]
    sat_out: Mapping[str, int]  # anted, got the ante back, never dealt in: player -> ante returned
    stacks: Mapping[str, int | None]
    antes: tuple[Step, ...]
    rounds: tuple[Round, ...]
    folded: Mapping[str, Street]  # player -> street he folded on
    all_in: frozenset[str]
    spent: Mapping[str, int]  # chips put in, antes included, before returns
    returns: Mapping[str, int]  # uncalled chips the rules return
    live_at_end: tuple[str, ...]
    upcards: Mapping[str, Mapping[Street, tuple[Card | None, ...]]]
    downcards: Mapping[str, tuple[Card | None, ...]]
    # a live player's seven (or six + common) known cards, None when some are hidden; only the players
    # live at the end when two or more are (nobody else's cards decide a pot)
    hole_cards: Mapping[str, tuple[Card, ...] | None]
    settlement: Settlement  # the pots as the rules settle them
    # results several checks derive from this state, computed once (e.g. the award table)
    memo: dict[str, object] = field(default_factory=dict, compare=False, repr=False)

    @property
    def contributions(self) -> dict[str, int]:
        return {player: self.spent[player] - self.returns.get(player, 0) for player in self.dealt_in}

    def round_of(self, street: Street) -> Round | None:
        for rnd in self.rounds:
            if rnd.street is street:
                return rnd
        return None

    def board(self, player: str, through: Street) -> tuple[Card | None, ...]:
        """A player's upcards dealt on 3rd..``through`` street."""
        cards: list[Card | None] = []
        for street, dealt in self.upcards.get(player, {}).items():
            if street <= through:
                cards.extend(dealt)
        return tuple(cards)


def blank_step() -> Step:
    """A Step whose fields the caller then sets one by one, by name (reading an unset field raises
    AttributeError; tests/test_replay_engine.py checks that every step has all of them).

    Why not ``Step(index=..., ...)``: CPython compiles a call with more than 15 keyword arguments
    (twice their count over its stack guideline of 30) into building a dict and unpacking it, and
    Step has 22 fields. Per step built (benchmarks/bench_engine.py's micro-measurement, min of 5):

    ==========  ==========  =======  =============
    Python      positional  keyword  field by field
    ==========  ==========  =======  =============
    3.11.7      0.97 µs     4.16 µs  0.49 µs
    3.12.1      1.39 µs     4.76 µs  0.91 µs
    3.13.0      1.54 µs     4.98 µs  1.00 µs
    ==========  ==========  =======  =============

    With keyword arguments the walk of 10,000 simulated hands (≈ 23 steps each) went from 98 to
    160 µs per hand on 3.11 (replay() 251 → 301 µs); field by field it is faster than positional on
    every version."""
    return _new_object(Step)


#: Step's own __new__, bound once
_new_object = Step.__new__
