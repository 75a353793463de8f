"""The replay engine's own record: every step is complete, whichever way it was built; and what a hand
with violations reuses when it is replayed under other readings (the walk, the findings of untouched checks)."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path
from unittest.mock import patch

from hhtool.model import Hand
from hhtool.replay import PROFILES, RuleProfile, _Rereading, judged, profile_for, profile_for_site
from hhtool.replay.engine import WALK_FIELDS, walk, walks_alike
from hhtool.replay.timeline import Step
from tests.replay_helpers import build_hand

REPO = Path(__file__).resolve().parents[1]

HAND = build_hand('''
seats A=100 B=100 C=5
stakes ante=1 bring=2 small=4 big=8
antes
3rd A [?? ??] 2c, B [?? ??] 5s, C [?? ??] 9d
A bring 2
B complete 4
C call 4 allin
A fold
street 4th
4th B 7h, C 8h
B check
''')


def test_every_step_has_every_field() -> None:
    """Steps are built field by field (see timeline.blank_step): a forgotten field would raise here."""
    state = walk(HAND, profile_for_site("pokerstars"))
    steps = [*state.antes, *(step for rnd in state.rounds for step in rnd.steps)]
    assert len(steps) == len(HAND.actions)
    names = [field.name for field in dataclasses.fields(Step)]
    for step in steps:
        for name in names:
            getattr(step, name)


def test_steps_record_the_betting() -> None:
    state = walk(HAND, profile_for_site("pokerstars"))
    third = state.rounds[0].steps
    assert [s.level_before for s in third] == [0, 2, 4, 4]
    assert [s.bets_before for s in third] == [0, 0, 1, 1]
    assert third[2].chips_before == 4 and third[2].all_in_after
    assert third[3].live_before == ("A", "B", "C") and third[3].active_before == ("A", "B")
    assert state.rounds[1].steps[0].round_over is False and state.rounds[1].pending == ()


class _Recording:
    """A profile that notes every field read from it."""

    def __init__(self, profile: RuleProfile) -> None:
        self.profile, self.read = profile, set[str]()

    def __getattr__(self, name: str) -> object:
        self.read.add(name)
        return getattr(self.profile, name)


def _sample_hands() -> list[Hand]:
    sys.path.insert(0, str(REPO / "benchmarks"))
    from compare_replay import hands_of

    return [hand for path in sorted((REPO / "sample_histories").rglob("*")) if path.is_file() for hand in hands_of(path)]


def test_the_walk_reads_only_its_fields() -> None:
    """judged() reuses the walk for a reading of an unsettled rule that differs from the site's profile
    in no field of WALK_FIELDS: every field a walk reads must be among them (each built-in profile
    over every sample hand)."""
    hands = _sample_hands()
    assert len(hands) > 100
    read: set[str] = set()
    for profile in PROFILES.values():
        for hand in hands:
            recording = _Recording(profile)
            walk(hand, recording)  # type: ignore[arg-type]
            read |= recording.read
    assert read <= set(WALK_FIELDS), read - set(WALK_FIELDS)
    assert {"reopen_threshold", "first_dealt_seat", "rake_allocation"} <= read  # the recording sees the reads


def test_walks_alike() -> None:
    site = profile_for_site("pokerstars")
    other_tie = "suit" if site.opener_tie == "position" else "position"
    assert walks_alike(site, dataclasses.replace(site, opener_tie=other_tie))  # a check's rule, not the walk's
    other_threshold = "full" if site.reopen_threshold == "half" else "half"
    assert not walks_alike(site, dataclasses.replace(site, reopen_threshold=other_threshold))
    assert not walks_alike(site, dataclasses.replace(site, odd_unit_tied_half="position"
                                                     if site.odd_unit_tied_half != "position" else "best_card_suit"))


def test_other_readings_give_what_a_fresh_replay_gives() -> None:
    """Under the site's profile a violation that another reading clears is unverifiable: the same
    results whether the walk and the findings of the checks a reading does not touch are reused or
    everything is replayed (every sample hand; walks_alike patched to say no: nothing reused)."""
    hands = _sample_hands()
    for hand in hands:
        chosen = profile_for(hand, None)
        _, result = judged(hand, chosen)
        with patch("hhtool.replay.walks_alike", lambda one, other: one is other):
            _, fresh = judged(hand, chosen)
        assert result == fresh


def test_each_check_notes_the_fields_it_reads() -> None:
    """The findings a check keeps under another reading are those of a check that read none of the
    fields the reading changes: the opener check reads the opener rules, the ante check none of them."""
    hand = next(h for h in _sample_hands() if len(walk(h, profile_for(h, None).profile).rounds) >= 2)
    chosen = profile_for(hand, None)
    state, result = judged(hand, chosen)
    rereading = _Rereading(hand, state, chosen.profile, result)
    other = dataclasses.replace(chosen.profile, opener_tie="suit" if chosen.profile.opener_tie == "position" else "position")
    rereading.replayed_under(other)
    assert rereading.recorded is not None
    read = {check.__name__: fields for check, _, fields in rereading.recorded}
    assert "opener_tie" in read["check_order"]
    assert "opener_tie" not in read["check_antes"]


def test_a_check_finds_the_same_through_a_recording_profile() -> None:
    """What _Rereading keeps is what each check found through its own recording profile: the same
    findings as with the profile itself (the checks share cached work through the walk's memo, keyed
    by the profile's fields, not its identity), over every sample hand under its site's profile and
    two built-in ones."""
    from hhtool.replay import _Recording
    from hhtool.replay.checks import CHECKS

    for hand in _sample_hands():
        for profile in (profile_for(hand, None).profile, PROFILES["robert"], PROFILES["pokerkit"]):
            state = walk(hand, profile)
            plain = [list(check(hand, state, profile)) for check in CHECKS]
            state = walk(hand, profile)
            recorded = [list(check(hand, state, _Recording(profile))) for check in CHECKS]  # type: ignore[arg-type]
            assert recorded == plain, hand.hand_id
