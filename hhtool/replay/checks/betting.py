"""Legal actions (R5, R9, R11: ILLEGAL_ACTION) and legal amounts (R5, R6, R11 and the no-limit /
pot-limit minimums: BET_SIZE), one action at a time from the situation the engine recorded."""

from __future__ import annotations

from collections.abc import Iterator

from hhtool.model import ActionKind, Hand, NoteTopic, StakeSource, Street, Structure
from hhtool.replay.checks.bring_in import designated_bring_in, first_to_act
from hhtool.replay.checks.common import Finding, money, street_name, violation
from hhtool.replay.codes import Code
from hhtool.replay.profiles import RuleProfile
from hhtool.replay.result import Unverifiable, Violation
from hhtool.replay.timeline import THIRD, ReplayState, Round, Step

# enum members as module constants: reading Street.THIRD through the class costs several times a global
_BRING_IN, _CHECK, _FOLD, _CALL = ActionKind.BRING_IN, ActionKind.CHECK, ActionKind.FOLD, ActionKind.CALL


def _illegal(hand: Hand, step: Step, expected: str, actual: str, message: str) -> Violation:
    return violation(hand, Code.ILLEGAL_ACTION, step.action.street, step.player, expected, actual, message, step.action.line)


def _opening_may_fold(state: ReplayState, profile: RuleProfile) -> bool:
    """R4: only when the bring-in player is all-in from the ante may the first actor fold."""
    designated, _ = designated_bring_in(state, profile)
    return designated is not None and first_to_act(state, designated) != designated


_BETS = frozenset((ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE))


def check_actions(hand: Hand, state: ReplayState, profile: RuleProfile) -> Iterator[Finding]:
    call_kind, fold_kind, check_kind = _CALL, _FOLD, _CHECK
    for rnd in state.rounds:
        third = rnd.street is THIRD
        for number, step in enumerate(rnd.steps):
            # the usual legal action by a player still in the betting is passed here (what _action_legality
            # finds nothing in: a call, bet or raise the betting was open to, a fold facing a bet, a check
            # facing none after 3rd street); everything else is judged in full below
            if step.player in step.active_before:
                kind = step.action.kind
                facing = step.level_before > step.put_in_before
                if kind in _BETS or (kind is call_kind and facing):
                    if step.may_raise or not step.increase:
                        continue
                elif kind is fold_kind:
                    if facing:
                        continue
                elif kind is check_kind and not facing and not third:
                    continue
            found = _action_legality(hand, state, profile, rnd, number, step)
            if found is not None:
                yield found


def _action_legality(
    hand: Hand, state: ReplayState, profile: RuleProfile, rnd: Round, number: int, step: Step,
) -> Violation | None:
    """The one violation an action can make here, if any. The words are built only for a violation:
    this runs for every action of every hand."""
    action, player, street = step.action, step.player, rnd.street
    kind = action.kind
    if player not in step.live_before:
        folded = state.folded.get(player)
        why = f"after folding on {street_name(folded)}" if folded is not None else "although not in the hand"
        return _illegal(hand, step, "no action", kind.value, f"{player} acts on {street_name(street)} {why}")
    if player not in step.active_before:
        return _illegal(hand, step, "no action", kind.value, f"{player} acts on {street_name(street)} although already all-in")
    facing = step.level_before - step.put_in_before
    unopened_third = street is THIRD and step.level_before == 0 and not step.opened_before
    if kind is _BRING_IN:
        if not unopened_third:
            return _illegal(hand, step, "call, raise or fold", "bring-in",
                            f"{player} posts a bring-in after the 3rd-street betting has started")
        return None
    if kind is _CHECK:
        if street is THIRD:
            return _illegal(hand, step, "call, raise or fold", "check", f"{player} checks on 3rd street, where nobody may check")
        if facing > 0:
            return _illegal(hand, step, "call, raise or fold", "check",
                            f"{player} checks facing a bet of {money(hand, facing)} on {street_name(street)}")
        return None
    if kind is _FOLD:
        if unopened_third and number == 0 and not _opening_may_fold(state, profile):
            return _illegal(hand, step, "bring in or complete", "fold", f"{player} folds instead of bringing in")
        if facing <= 0 and not unopened_third and not profile.allow_fold_unfaced:
            return _illegal(hand, step, "check", "fold", f"{player} folds on {street_name(street)} with no bet to face")
        return None
    if kind is _CALL and facing <= 0:
        return _illegal(hand, step, "check or bet", "call", f"{player} calls on {street_name(street)} with nothing to call")
    if step.increase and not step.may_raise:
        return _illegal(hand, step, "call or fold", "raise",
                        f"{player} re-raises on {street_name(street)}, but the short all-in since his last action did not "
                        "reopen the betting")
    return None


def _targets(hand: Hand, rnd: Round, step: Step, profile: RuleProfile) -> tuple[int, ...] | None:
    """Fixed limit: the street totals a completion, bet or raise may go to (R5, R6, R11)."""
    small, big, increment = hand.stakes.small_bet, hand.stakes.big_bet, rnd.increment
    if small is None or increment is None:
        return None
    if rnd.double_bet_allowed and big is None:
        return None  # the double bet of an open pair is the big bet, which is not known
    if rnd.street is THIRD and not step.opened_before:
        return (small,)  # while only the bring-in is in, the one increase is the completion to S
    base = step.full_level_before if profile.raise_after_short_allin == "complete_to_full" else step.level_before
    if rnd.double_bet_allowed and big is not None:
        return (base + big,) if step.big_increment_before else (base + small, base + big)
    return (base + increment,)


_NO_AMOUNT = frozenset((ActionKind.BRING_IN, ActionKind.CHECK, ActionKind.FOLD))


def check_sizes(hand: Hand, state: ReplayState, profile: RuleProfile) -> Iterator[Finding]:
    fixed = hand.stakes.structure is Structure.FIXED_LIMIT
    reported_unknown = False
    call_kind = _CALL
    for rnd in state.rounds:
        for step in rnd.steps:
            kind = step.action.kind
            if kind in _NO_AMOUNT or step.player not in step.active_before:
                continue
            increase = step.increase
            if increase and not step.may_raise:
                continue  # a raise that was not allowed at all is an illegal action, whatever its size
            if kind is call_kind or (step.all_in_after and not increase):
                if not increase:  # the usual exact call (or all-in for less) passes here, the rest in _call_size
                    facing = step.level_before - step.put_in_before
                    chips, amount = step.chips_before, step.action.amount
                    if facing <= 0 or (chips is not None and amount > chips):
                        continue
                    due = facing if chips is None or facing <= chips else chips
                    if amount == due or (amount < facing and step.all_in_after):
                        continue
                found = _call_size(hand, rnd, step)
                if found is not None:
                    yield found
            elif not increase:
                yield violation(hand, Code.BET_SIZE, rnd.street, step.player, f"more than {money(hand, step.level_before)}",
                                money(hand, step.to), f"{step.player}'s {kind.value} to {money(hand, step.to)} does not "
                                f"exceed the bet of {money(hand, step.level_before)}", step.action.line)
            elif fixed:
                targets = _targets(hand, rnd, step, profile)
                if targets is not None:
                    if step.to in targets:
                        continue  # the usual exact bet or raise
                    found = _fixed_size(hand, rnd, step, targets)
                    if found is not None:
                        yield found
                elif not reported_unknown:
                    reported_unknown = True
                    yield Unverifiable(Code.BET_SIZE, _unknown_bets(hand), step.action.line)
            else:
                for finding in _open_size(hand, rnd, step):
                    if isinstance(finding, Violation):
                        yield finding
                    elif not reported_unknown:
                        reported_unknown = True
                        yield finding


def _call_size(hand: Hand, rnd: Round, step: Step) -> Violation | None:
    facing = step.level_before - step.put_in_before
    amount = step.action.amount
    chips = step.chips_before
    if facing <= 0 or (chips is not None and amount > chips):
        return None  # more than the stack is the stack check's finding
    due = facing if chips is None else min(facing, chips)
    if step.increase:
        return violation(hand, Code.BET_SIZE, rnd.street, step.player, money(hand, due), money(hand, amount),
                         f"{step.player}'s call of {money(hand, amount)} puts in more than the {money(hand, facing)} to call",
                         step.action.line)
    if amount != due and not (amount < facing and step.all_in_after):
        return violation(hand, Code.BET_SIZE, rnd.street, step.player, money(hand, due), money(hand, amount),
                         f"{step.player} calls {money(hand, amount)} facing {money(hand, facing)} without being all-in",
                         step.action.line)
    return None


def _fixed_size(hand: Hand, rnd: Round, step: Step, targets: tuple[int, ...]) -> Violation | None:
    to = step.to
    if to in targets or (to < min(targets) and step.all_in_after):
        return None
    completing = rnd.street is Street.THIRD and not step.opened_before
    what = "completes" if completing else "bets" if step.level_before == 0 else "raises"
    expected = " or ".join(money(hand, t) for t in targets)
    return violation(hand, Code.BET_SIZE, rnd.street, step.player, expected, money(hand, to),
                     f"{step.player} {what} to {money(hand, to)} on {street_name(rnd.street)}; the limit allows {expected}",
                     step.action.line)


def _unknown_bets(hand: Hand) -> str:
    """Why the fixed bet sizes cannot be judged: not stated, or inferred only ambiguously."""
    if hand.stakes.bets_source is StakeSource.INFERRED:
        why = next((f"; {note.text}" for note in hand.notes if note.topic is NoteTopic.BETS_INFERRED), "")
        return "the header states no small or big bet and the betting does not settle them" + why
    return "the small or big bet of the table is not stated"


def _open_size(hand: Hand, rnd: Round, step: Step) -> Iterator[Finding]:
    """No-limit / pot-limit (Robert's Rules, big-bet section): every bet is at least the minimum
    bet (the stakes' small bet) and every raise at least the last full bet or raise of the round,
    unless all-in; there is no completion, so the first bet over the bring-in is a full bet of at
    least the minimum. Pot limit also caps the total at the bet to call plus the pot after the call.
    Without a stated minimum bet an opening bet cannot be judged; a raise still can, against the
    round's last full increase."""
    small = hand.stakes.small_bet
    to = step.to
    opening = (rnd.street is Street.THIRD and not step.opened_before) or step.level_before == 0
    if small is None and (opening or not step.last_increment_before):
        yield Unverifiable(Code.BET_SIZE, "the minimum bet of the table is not stated", step.action.line)
        minimum = None
    elif opening:
        minimum = small
    else:
        minimum = step.level_before + max(step.last_increment_before, small or 0)
    if minimum is not None and to < minimum and not step.all_in_after:
        yield violation(hand, Code.BET_SIZE, rnd.street, step.player, f"at least {money(hand, minimum)}", money(hand, to),
                        f"{step.player} goes to {money(hand, to)} on {street_name(rnd.street)}, below the minimum "
                        f"{money(hand, minimum)}", step.action.line)
    if hand.stakes.structure is Structure.POT_LIMIT:
        facing = step.level_before - step.put_in_before
        maximum = step.level_before + step.pot_before + facing
        if to > maximum:
            yield violation(hand, Code.BET_SIZE, rnd.street, step.player, f"at most {money(hand, maximum)}", money(hand, to),
                            f"{step.player} goes to {money(hand, to)}, more than the pot allows ({money(hand, maximum)})",
                            step.action.line)
