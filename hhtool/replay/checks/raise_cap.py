"""R8: one bet plus ``max_raises`` raises per round (the bring-in is not counted; on 3rd street the
completion is the bet), lifted heads-up as the profile says."""

from __future__ import annotations

from collections.abc import Iterator

from hhtool.model import Hand, Structure
from hhtool.replay.checks.common import Finding, money, street_name, violation
from hhtool.replay.codes import Code
from hhtool.replay.profiles import RuleProfile
from hhtool.replay.timeline import ReplayState, Round


def _uncapped_from(rnd: Round, cap: int, profile: RuleProfile) -> int | None:
    """Index of the first step from which the cap no longer applies (None: capped throughout)."""
    if profile.cap_applies_when == "always":
        return None
    if profile.heads_up_uncap == "round_start":
        return 0 if len(rnd.active_at_start) <= 2 else None
    for number, step in enumerate(rnd.steps):  # any_time: from the moment two are left, unless already capped
        if len(step.active_before) <= 2:
            return number if step.bets_before < cap else None
    return None


def check_raise_cap(hand: Hand, state: ReplayState, profile: RuleProfile) -> Iterator[Finding]:
    if profile.max_raises is None or hand.stakes.structure is not Structure.FIXED_LIMIT:
        return
    cap = 1 + profile.max_raises
    for rnd in state.rounds:
        uncapped = _uncapped_from(rnd, cap, profile)
        for number, step in enumerate(rnd.steps):
            if not step.increase or step.bets_before < cap or (uncapped is not None and number >= uncapped):
                continue
            yield violation(hand, Code.RAISE_CAP, rnd.street, step.player, "call or fold", f"raise to {money(hand, step.to)}",
                            f"{step.player} raises on {street_name(rnd.street)} after the betting was capped at {cap} bets",
                            step.action.line)
