"""Chips: nobody puts in more than he has, and a player marked all-in has nothing left
(checked where the history prints starting stacks)."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain

from hhtool.model import Hand
from hhtool.replay.checks.common import Finding, first_line_of, money, violation
from hhtool.replay.codes import Code
from hhtool.replay.profiles import RuleProfile
from hhtool.replay.result import Unverifiable
from hhtool.replay.timeline import ReplayState


def check_stacks(hand: Hand, state: ReplayState, profile: RuleProfile) -> Iterator[Finding]:
    unknown = [p for p in state.dealt_in if state.stacks.get(p) is None]
    if unknown:
        yield Unverifiable(Code.STACK, f"starting stack not printed for {', '.join(unknown)}", first_line_of(hand, unknown[0]))
    for step in chain(state.antes, *(rnd.steps for rnd in state.rounds)):
        chips = step.chips_before
        if chips is None:
            continue
        amount = step.action.amount
        if amount == chips or (amount < chips and not step.action.all_in):
            continue  # the usual case: within the stack, and marked all-in only when it takes all of it
        street = step.action.street
        if amount > chips:
            yield violation(hand, Code.STACK, street, step.player, f"at most {money(hand, chips)}", money(hand, amount),
                            f"{step.player} puts in {money(hand, amount)} with only {money(hand, chips)} left",
                            step.action.line)
        elif step.action.all_in and amount < chips:
            yield violation(hand, Code.STACK, street, step.player, f"all-in for {money(hand, chips)}", money(hand, amount),
                            f"{step.player} is marked all-in for {money(hand, amount)} but keeps {money(hand, chips - amount)}",
                            step.action.line)
