"""Relations a rulebook profile asserts about the table's forced bets, checked only under that
profile: 888poker's rules page (S000) has the bring-in at half the small bet (``bring_in_fraction``).
Online tables set the bring-in as their own parameter (R4: b/S from 0.2 to 0.5), so no site profile
asserts one."""

from __future__ import annotations

from collections.abc import Iterator

from hhtool.model import ActionKind, Hand, Street
from hhtool.replay.checks.common import Finding, money, violation
from hhtool.replay.codes import Code
from hhtool.replay.profiles import RuleProfile
from hhtool.replay.result import Unverifiable
from hhtool.replay.timeline import THIRD, ReplayState


def check_bring_in_fraction(hand: Hand, state: ReplayState, profile: RuleProfile) -> Iterator[Finding]:
    if profile.bring_in_fraction is None:
        return
    numerator, denominator = profile.bring_in_fraction
    small = hand.stakes.small_bet
    third = state.round_of(THIRD)
    posted = next((step for step in third.steps if step.action.kind is ActionKind.BRING_IN), None) if third else None
    bring_in = hand.stakes.bring_in
    line = hand.source.first_line
    if posted is not None:
        line = posted.action.line
        if bring_in is None and not posted.all_in_after:
            bring_in = posted.action.amount  # a full bring-in post shows the table's amount
    if small is None or bring_in is None:
        if posted is not None:
            yield Unverifiable(Code.BRING_IN_AMOUNT, f"the table's small bet or bring-in is not stated, so {profile.name}'s "
                                                  f"bring-in of {numerator}/{denominator} of the small bet cannot be checked")
        return
    # an exact fraction, or the nearest unit either side of it when the small bet does not divide
    low, remainder = divmod(small * numerator, denominator)
    allowed = {low} if remainder == 0 else {low, low + 1}
    if bring_in in allowed:
        return
    wanted = " or ".join(money(hand, amount) for amount in sorted(allowed))
    yield violation(hand, Code.BRING_IN_AMOUNT, Street.THIRD, posted.player if posted else None, wanted,
                    money(hand, bring_in),
                    f"the table's bring-in is {money(hand, bring_in)}; {profile.name}'s rules have it at "
                    f"{numerator}/{denominator} of the {money(hand, small)} small bet ({wanted})", line)
