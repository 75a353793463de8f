"""One pass over a hand's steps telling whether the step checks (legal actions, legal amounts, the
raise cap, the chips, the turn order after each round's first action) can find anything at all. Almost every hand is made
of usual steps only (a call of the bet faced, a full-size bet or raise the betting was open to, a
fold facing a bet, ...); for such a hand the replay skips those checks instead of walking the steps
four times to find nothing. A step this pass does not know as usual sends the hand through the
checks in full, which then find or clear it: the pass only ever says "nothing to find", so it may
be conservative, never lenient. Each condition below is the one under which its check passes a
step (betting.check_actions / check_sizes, raise_cap, stack, order): a change to one of those checks
changes this pass too (tests/test_replay_steps.py holds the two to the same findings)."""

from __future__ import annotations

from hhtool.model import ActionKind, Hand, Structure
from hhtool.replay.checks.betting import _targets
from hhtool.replay.profiles import RuleProfile
from hhtool.replay.timeline import THIRD, ReplayState

# module constants: reading a member through the enum class is slower (see timeline.THIRD)
_BRING_IN, _CHECK, _FOLD, _CALL = ActionKind.BRING_IN, ActionKind.CHECK, ActionKind.FOLD, ActionKind.CALL
_BETS = frozenset((ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE))
_FIXED_LIMIT = Structure.FIXED_LIMIT


def steps_all_usual(hand: Hand, state: ReplayState, profile: RuleProfile) -> bool:
    """Whether check_actions, check_sizes, check_raise_cap and check_stacks would find nothing in
    the hand, nor check_order in the turns after each round's first action (True), or may find
    something (False: run them all)."""
    stacks = state.stacks
    for player in state.dealt_in:
        if stacks.get(player) is None:
            return False  # check_stacks says the stack is not printed
    for step in state.antes:
        chips, amount = step.chips_before, step.action.amount
        if chips is not None and amount != chips and (amount > chips or step.action.all_in):
            return False
    fixed = hand.stakes.structure is _FIXED_LIMIT
    if not fixed:
        return False  # no-limit and pot-limit sizes are judged in full (rare in Stud Hi/Lo)
    cap = None if profile.max_raises is None else 1 + profile.max_raises
    for rnd in state.rounds:
        third = rnd.street is THIRD
        first = True
        for step in rnd.steps:
            if step.player not in step.active_before:
                return False  # acting while folded or all-in
            # the turn (check_order, after the round's first action): the round not over, and his turn
            if not first and (step.round_over or (step.due is not None and step.due != step.player)):
                return False
            first = False
            action = step.action
            kind, amount, chips = action.kind, action.amount, step.chips_before
            # the chips (check_stacks): within the stack, all-in only when it takes all of it
            if chips is not None and amount != chips and (amount > chips or action.all_in):
                return False
            increase = step.increase
            facing = step.level_before - step.put_in_before
            if kind in _BETS:
                # a legal increase (check_actions) of the right size (check_sizes) under the cap
                if not increase or not step.may_raise:
                    return False
                targets = _targets(hand, rnd, step, profile)
                if targets is None or step.to not in targets:
                    return False
                if cap is not None and step.bets_before >= cap:
                    return False
            elif kind is _CALL:
                # a call of the bet faced (check_actions), for exactly what is due or all-in for less (check_sizes)
                if increase or facing <= 0:
                    return False
                due = facing if chips is None or facing <= chips else chips
                if amount != due and not (amount < facing and step.all_in_after):
                    return False
            elif kind is _FOLD:
                if facing <= 0:
                    return False
            elif kind is _CHECK:
                if facing > 0 or third:
                    return False
            elif kind is _BRING_IN:
                if not third or step.level_before != 0 or step.opened_before:
                    return False
            else:
                return False
            if increase and kind not in _BETS:
                return False
    return True
