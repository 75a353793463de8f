"""The import's all-in EV step: each replayed hand's EV (hhtool.equity.allin) or why it has none.

Most hands hold no all-in: they are told apart by their actions alone (a flagged all-in, or a player
putting in his whole stack), without walking them again. Only the others are walked once more under
their profile (the replay keeps no walk), and the deal values (numpy) are loaded only when a spot
needs them.
"""

from __future__ import annotations

from functools import cache

from hhtool.equity.allin import AllInEv, Reason, allin_ev
from hhtool.model import Hand
from hhtool.replay import load_profile, profile_for, walk
from hhtool.replay.profiles import RuleProfile


def may_be_all_in(hand: Hand) -> bool:
    """Whether some player may have gone all-in: an action says so, or his chips in reach his stack."""
    put_in: dict[str, int] = {}
    for action in hand.actions:
        if action.all_in:
            return True
        put_in[action.player] = put_in.get(action.player, 0) + action.amount
    return any(seat.stack is not None and put_in.get(seat.player, 0) >= seat.stack for seat in hand.seats)


@cache
def _fixed(rules: str) -> RuleProfile:
    return load_profile(rules)  # a TOML file read once, not per hand


def allin_of(hand: Hand, replayed: object | None, rules: str | None) -> AllInEv | str | None:
    """The hand's all-in EV under the profile it was replayed under, or the reason it has none;
    None when it was not replayed."""
    if replayed is None:
        return None
    if not may_be_all_in(hand):
        return Reason.NO_ALL_IN
    profile = profile_for(hand, _fixed(rules) if rules else None).profile
    try:
        return allin_ev(hand, walk(hand, profile), profile)
    except Exception:  # a fault in one hand's EV must not stop the import; the hand says so
        return Reason.ERROR
