"""Glue between the importer and the replay engine: which rule profile replays which hand."""

from __future__ import annotations

from collections.abc import Callable

from hhtool.model import Hand
from hhtool.replay import ReplayResult, Verdict, load_profile, profile_for_site, replay
from hhtool.replay.result import Unverifiable

Replayer = Callable[[Hand], tuple[ReplayResult, str]]


def make_replayer(rules: str | None) -> Replayer:
    """A function replaying each hand under ``rules`` (a profile name or TOML file), or under
    the hand's site profile when ``rules`` is None."""
    fixed = load_profile(rules) if rules else None

    def replay_hand(hand: Hand) -> tuple[ReplayResult, str]:
        # a converted history is judged by the practice of the site that dealt it
        profile = fixed or profile_for_site(hand.origin_site or hand.site)
        try:
            return replay(hand, profile), profile.name
        except Exception as error:  # a fault in one hand's replay must not stop the import
            reason = f"internal error while replaying ({type(error).__name__}: {error}); please report this hand"
            return ReplayResult(Verdict.UNVERIFIABLE, (), (Unverifiable("REPLAY", reason),), (), ()), profile.name

    return replay_hand
