"""R2: every dealt-in player posts the ante once, the full amount unless it takes his whole stack.

The ante is judged here when the history states it, or when the cross-hand pass
(:mod:`hhtool.replay.forced_bets`) has learnt it from the table, the site's other tables or the
site's structures table (sources ``context``, ``site``, ``structure``). Taken from the hand's own
posts (``posted``), a post would be judged against itself: only what the hand shows of itself is
judged then (every dealt-in player posts the same ante), and the amount is a placeholder finding,
which the cross-hand pass replaces with its judgement."""

from __future__ import annotations

from collections.abc import Iterator

from hhtool.model import Hand, StakeSource, Street
from hhtool.replay.checks.common import Finding, first_line_of, money, violation
from hhtool.replay.codes import Code
from hhtool.replay.forced_bets import ANTE_BY_CONTEXT, Post, in_hand_ante_findings
from hhtool.replay.profiles import RuleProfile
from hhtool.replay.result import Unverifiable
from hhtool.replay.timeline import ReplayState, Step

#: how a finding names a learnt ante's source
LEARNT_FROM = {StakeSource.CONTEXT: " the other hands at the table posted", StakeSource.SITE: " the site's other tables post",
               StakeSource.STRUCTURE: " by the site's structure for these stakes",
               StakeSource.USER: " by your structures file for these stakes"}

#: the finding of every hand whose ante is taken from its own posts: one value, shared (findings are immutable)
_BY_CONTEXT = Unverifiable(Code.ANTE, ANTE_BY_CONTEXT)


def check_antes(hand: Hand, state: ReplayState, profile: RuleProfile) -> Iterator[Finding]:
    if hand.stakes.ante_source is StakeSource.POSTED:
        if _all_alike(state):
            yield _BY_CONTEXT  # what in_hand_ante_findings finds nothing in
            return
        posts = [Post(step.player, step.action.amount, step.action.line, step.all_in_after) for step in state.antes]
        posters = {step.player for step in state.antes}
        unanted = [(player, first_line_of(hand, player)) for player in state.dealt_in if player not in posters]
        found = in_hand_ante_findings(posts, unanted, lambda amount: money(hand, amount))
        for player, expected, actual, message, line in found:
            yield violation(hand, Code.ANTE, Street.THIRD, player, expected, actual, message, line)
        if not found:
            yield _BY_CONTEXT
        return
    ante = hand.stakes.ante
    whose = LEARNT_FROM.get(hand.stakes.ante_source, "")
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


def _all_alike(state: ReplayState) -> bool:
    """Whether :func:`~hhtool.replay.forced_bets.in_hand_ante_findings` can find nothing, told in one
    pass without building its posts or looking up a line (the usual hand): every first ante posted
    in full is of one amount, and every dealt-in player anted, or that amount is nothing, or every
    first ante was all-in. Otherwise it is asked."""
    firsts: dict[str, bool] = {}  # player -> his first ante was posted in full
    amount: int | None = None
    for step in state.antes:
        player = step.player
        if player in firsts:
            continue
        full = firsts[player] = not step.all_in_after
        if full:
            if amount is None:
                amount = step.action.amount
            elif step.action.amount != amount:
                return False  # antes that differ: a finding
    if amount is None or amount <= 0:
        return True  # no full ante, or one of nothing: no finding
    return all(player in firsts for player in state.dealt_in)  # else one was dealt in without anting
