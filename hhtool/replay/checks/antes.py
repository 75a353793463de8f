"""R2: every dealt-in player posts the ante once, the full amount unless it takes his whole stack.

The ante is judged here when the history states it, or when the store's table-context pass
(:mod:`hhtool.store.context`) has set it from the other hands at the table (source ``context``).
Taken from the hand's own posts (``posted``), a post would be judged against itself: the finding
is then a placeholder, which the table-context pass replaces with its judgement."""

from __future__ import annotations

from collections.abc import Iterator

from hhtool.model import Hand, StakeSource, Street
from hhtool.replay.checks.common import Finding, first_line_of, money, violation
from hhtool.replay.codes import Code
from hhtool.replay.profiles import RuleProfile
from hhtool.replay.result import Unverifiable
from hhtool.replay.timeline import ReplayState, Step

#: the finding of a hand whose ante the history does not state, until the table context judges it
ANTE_BY_CONTEXT = "the site does not state the ante and no table context is known for this hand"


def check_antes(hand: Hand, state: ReplayState, profile: RuleProfile) -> Iterator[Finding]:
    if hand.stakes.ante_source is StakeSource.POSTED:
        yield Unverifiable(Code.ANTE, ANTE_BY_CONTEXT)
        return
    ante = hand.stakes.ante
    whose = " the other hands at the table posted" if hand.stakes.ante_source is StakeSource.CONTEXT else ""
    posted: dict[str, list[Step]] = {}
    for step in state.antes:
        posted.setdefault(step.player, []).append(step)
    if ante is None:
        if state.antes:
            yield Unverifiable(Code.ANTE, "the table's ante is not stated")
        return
    for player in state.dealt_in:
        steps = posted.get(player, [])
        if not steps:
            if ante > 0:
                yield violation(hand, Code.ANTE, Street.THIRD, player, money(hand, ante), "none",
                                f"{player} was dealt in without posting the {money(hand, ante)} ante{whose}",
                                first_line_of(hand, player))
            continue
        for extra in steps[1:]:
            yield violation(hand, Code.ANTE, Street.THIRD, player, "one ante", "a second ante",
                            f"{player} posted the ante twice", extra.action.line)
        step = steps[0]
        amount = step.action.amount
        if amount == ante or (amount < ante and step.all_in_after):
            continue
        why = "more than the ante" if amount > ante else "less than the ante without being all-in"
        yield violation(hand, Code.ANTE, Street.THIRD, player, money(hand, ante), money(hand, amount),
                        f"{player} posted {money(hand, amount)}, {why} ({money(hand, ante)}{whose})", step.action.line)
