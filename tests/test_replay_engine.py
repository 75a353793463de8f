"""The replay engine's own record: every step is complete, whichever way it was built."""

from __future__ import annotations

import dataclasses

from hhtool.replay import profile_for_site
from hhtool.replay.engine import walk
from hhtool.replay.timeline import Step
from tests.replay_helpers import build_hand

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
