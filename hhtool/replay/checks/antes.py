"""R2: every dealt-in player posts the ante once, the full amount unless it takes his whole stack."""

from __future__ import annotations

from collections.abc import Iterator

from hhtool.model import Hand, Street
from hhtool.replay.checks.common import Finding, first_line_of, money, violation
from hhtool.replay.engine import ReplayState, Step
from hhtool.replay.profiles import RuleProfile
from hhtool.replay.result import Unverifiable


def check_antes(hand: Hand, state: ReplayState, profile: RuleProfile) -> Iterator[Finding]:
    ante = hand.stakes.ante
    posted: dict[str, list[Step]] = {}
    for step in state.antes:
        posted.setdefault(step.player, []).append(step)
    if ante is None:
        if state.antes:
            yield Unverifiable("ANTE", "the table's ante is not stated")
        return
    for player in state.dealt_in:
        steps = posted.get(player, [])
        if not steps:
            if ante > 0:
                yield violation(hand, "ANTE", Street.THIRD, player, money(hand, ante), "none",
                                f"{player} was dealt in without posting the {money(hand, ante)} ante",
                                first_line_of(hand, player))
            continue
        for extra in steps[1:]:
            yield violation(hand, "ANTE", Street.THIRD, player, "one ante", "a second ante",
                            f"{player} posted the ante twice", extra.action.line)
        step = steps[0]
        amount = step.action.amount
        if amount == ante or (amount < ante and step.all_in_after):
            continue
        why = "more than the ante" if amount > ante else "less than the ante without being all-in"
        yield violation(hand, "ANTE", Street.THIRD, player, money(hand, ante), money(hand, amount),
                        f"{player} posted {money(hand, amount)}, {why} ({money(hand, ante)})", step.action.line)
