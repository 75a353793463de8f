"""Glue between the importer and the replay engine: which rule profile replays which hand."""

from __future__ import annotations

from collections.abc import Callable

from hhtool.model import Hand
from hhtool.replay import ReplayResult, Verdict, load_profile, profile_for, replay
from hhtool.replay.codes import Code
from hhtool.replay.result import Unverifiable
from hhtool.replay.user_structures import load_structures

Replayer = Callable[[Hand], tuple[ReplayResult, str]]


def make_replayer(rules: str | None, structures: str | None = None) -> Replayer:
    """A function replaying each hand under ``rules`` (a profile name or TOML file), or under
    the hand's site profile when ``rules`` is None; ``structures``: the user's structures file (its
    path: a worker process reads it again), whose rake schedules judge the rake."""
    fixed = load_profile(rules) if rules else None  # read a TOML file once, not per hand
    desk = load_structures(structures) if structures else None

    def replay_hand(hand: Hand) -> tuple[ReplayResult, str]:
        chosen = profile_for(hand, fixed, desk)
        try:
            return replay(hand, chosen), chosen.name
        except Exception as error:  # a fault in one hand's replay must not stop the import
            reason = f"internal error while replaying ({type(error).__name__}: {error}); please report this hand"
            return ReplayResult(Verdict.UNVERIFIABLE, (), (Unverifiable(Code.REPLAY, reason),), (), ()), chosen.name

    return replay_hand
