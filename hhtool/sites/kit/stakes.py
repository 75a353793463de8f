"""Stakes a header does not state, from the hand itself: the ante and bring-in as posted (the
hand's own claim, judged later against its table's other hands) and, where a header states no
bets at all, the small and big bet inferred from the betting.

The functions read only a hand's actions, so any site module can use them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hhtool.model import Action, ActionKind
from hhtool.money import site_amount


def derive_stakes_from_forced_bets(actions: Sequence[Action]) -> tuple[int | None, int | None]:
    """Ante and bring-in as posted (the first post that is not all-in), for sites whose header
    omits them. They are this hand's claim (``StakeSource.POSTED``): the replay does not judge a
    post against them, the table context does."""
    ante = next((a.amount for a in actions if a.kind is ActionKind.ANTE and not a.all_in), None)
    bring_in = next((a.amount for a in actions if a.kind is ActionKind.BRING_IN and not a.all_in), None)
    return ante, bring_in


@dataclass(frozen=True, slots=True)
class InferredBets:
    """Fixed-limit small and big bet worked out from a hand's betting; ``None`` where the betting
    does not settle a value, and ``problems`` says why."""

    small_bet: int | None
    big_bet: int | None
    problems: tuple[str, ...] = ()


def infer_bets_from_betting(actions: Sequence[Action], bring_in: int | None, unit: int) -> InferredBets:
    """The small and big bet of a fixed-limit hand whose header does not state them.

    Evidence for the small bet: the 3rd-street completion total and the size of each later
    3rd-street raise; for the big bet: each bet and raise on 5th-7th street. All-in actions are
    left out (they may be short). A value is inferred only when its evidence all agrees; without
    3rd-street evidence the small bet is half the big bet (fixed-limit stud's 1:2). 4th-street
    increments may be either (the double bet on an open pair), so they only have to fit: each is
    the small or the big bet. The bring-in must be below the small bet. Anything else is
    ambiguous: ``None`` for both, with the reason in ``problems``."""
    small_seen: list[int] = []
    fourth_seen: list[int] = []
    big_seen: list[int] = []
    level: dict[int, int] = {}
    for action in actions:
        street = int(action.street)
        if action.kind is ActionKind.ANTE:
            continue
        before = level.get(street, 0)
        if action.kind in (ActionKind.BRING_IN, ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE):
            level[street] = max(before, action.to_amount)
        if action.all_in or action.kind not in (ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE):
            continue
        size = action.to_amount if action.kind is ActionKind.COMPLETE else action.to_amount - before
        if size <= 0:
            continue
        if street == 3:
            small_seen.append(size)
        elif street == 4:
            fourth_seen.append(size)
        else:
            big_seen.append(size)
    problems: list[str] = []

    def agreed(seen: list[int], what: str) -> int | None:
        values = sorted(set(seen))
        if len(values) == 1:
            return values[0]
        if values:
            amounts = ", ".join(site_amount(value, unit) for value in values)
            problems.append(f"the {what} is ambiguous: the betting shows increments of {amounts}")
        return None

    small = agreed(small_seen, "small bet on 3rd street")
    big = agreed(big_seen, "big bet on 5th-7th street")
    if small is None and big is not None and big % 2 == 0 and not small_seen:
        small = big // 2  # fixed-limit stud's big bet is twice the small bet
    if small is not None and big is not None and big != 2 * small:
        problems.append(f"the betting's small bet {site_amount(small, unit)} and big bet "
                        f"{site_amount(big, unit)} are not in the fixed-limit ratio 1:2")
        small = big = None
    odd_fourth = sorted({size for size in fourth_seen if small is None or size not in (small, 2 * small)})
    if odd_fourth:  # 4th street bets the small bet, or the big bet as the double bet on an open pair
        amounts = ", ".join(site_amount(size, unit) for size in odd_fourth)
        problems.append(f"4th-street increments of {amounts} do not settle the small bet")
        small = big = None
    if small is not None and bring_in is not None and bring_in >= small:
        problems.append(f"the bring-in {site_amount(bring_in, unit)} is not below the betting's small bet "
                        f"{site_amount(small, unit)}")
        small = big = None
    if not problems:
        problems += [f"the betting shows no {what}" for what, value in
                     (("completion or raise on 3rd street", small), ("bet on 5th-7th street", big)) if value is None]
    return InferredBets(small, big, tuple(problems))
