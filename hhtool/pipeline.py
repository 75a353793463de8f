"""Glue between the importer and the replay engine: which rule profile replays which hand."""

from __future__ import annotations

from typing import Any

from hhtool.model import Hand


def make_replayer(rules: str | None):  # -> Replayer | None
    """A function replaying each hand under ``rules`` (a profile name or TOML file), or under
    the hand's site profile when ``rules`` is None."""
    try:
        from hhtool.replay import load_profile, profile_for_site, replay
    except ImportError:  # the replay engine is not part of this build yet
        return None
    fixed = load_profile(rules) if rules else None

    def replay_hand(hand: Hand) -> tuple[Any, str]:
        profile = fixed or profile_for_site(hand.site)
        return replay(hand, profile), profile.name

    return replay_hand
