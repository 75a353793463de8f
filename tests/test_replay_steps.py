"""The one pass over a hand's steps (hhtool.replay.checks.steps) that lets a hand of usual steps skip
the step checks: wherever it says "usual", each skipped check finds nothing and the opener check
finds what the whole turn-order check finds; it says so for most clean hands, and not for hands
whose steps break a rule, whose findings the replay then still makes."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest

from hhtool.ingest.reader import read_file
from hhtool.model import Hand
from hhtool.replay import PROFILES, RuleProfile, profile_for, result_of
from hhtool.replay.checks import STEP_CHECKS, steps_all_usual
from hhtool.replay.checks.order import check_opener, check_order
from hhtool.replay.engine import walk
from hhtool.simulate import generate_hands
from hhtool.simulate.dealer import TableConfig
from hhtool.simulate.policy import CallDownPolicy, SimplePolicy
from hhtool.sites import detect
from tests.conftest import SAMPLES
from tests.replay_helpers import build_hand, edit


def sample_hands() -> list[Hand]:
    warnings.simplefilter("ignore")
    hands = []
    for path in sorted(SAMPLES.rglob("*")):
        if not path.is_file() or path.suffix in (".md", ".json"):
            continue
        decoded = read_file(path)
        parser = detect([line for line in decoded.lines[:400] if line.strip()][:40])
        if parser is not None:
            hands += [hand for raw in parser.split(decoded.lines, str(path)) if isinstance(hand := parser.parse(raw), Hand)]
    return hands


def faulty_hands(count: int = 300) -> list[Hand]:
    """Simulated hands (``count`` of each policy), half of them breaking one rule each (every kind of fault in turn)."""
    return [simulated.hand for seed, policy in ((21, SimplePolicy()), (22, CallDownPolicy()))
            for simulated in generate_hands(TableConfig(seed=seed), policy, count, 0.5)]


def profiles_of(hand: Hand, every: bool) -> Iterator[RuleProfile]:
    """The hand's site profile, and with ``every`` each built-in one."""
    yield profile_for(hand, None).profile
    if every:
        yield from PROFILES.values()


def usual_and_not(hands: list[Hand], every_profile: bool = False) -> tuple[int, int, int]:
    """(walks whose steps the pass called usual, those it did not, those of these where a skipped check
    finds something), every "usual" it said checked: the skipped checks find nothing there."""
    usual = other = found = 0
    for hand in hands:
        for profile in profiles_of(hand, every_profile):
            state = walk(hand, profile)
            skipped_find = any(list(check(hand, state, profile)) for check in STEP_CHECKS) or (
                list(check_opener(hand, state, profile)) != list(check_order(hand, state, profile)))
            if steps_all_usual(hand, state, profile):
                usual += 1
                assert not skipped_find, (hand.hand_id, profile.name)
            else:
                other += 1
                found += skipped_find
    return usual, other, found


@pytest.mark.slow
def test_where_the_samples_steps_are_usual_the_skipped_checks_find_nothing() -> None:
    usual, other, _ = usual_and_not(sample_hands())
    assert usual > 100 and other > 0  # 167 hands: most are usual, not all (no-limit, unprinted stacks)


@pytest.mark.slow
def test_under_every_profile_where_steps_are_usual_the_skipped_checks_find_nothing() -> None:
    usual, other, _ = usual_and_not(sample_hands(), every_profile=True)
    assert usual > 1000 and other > 0
    usual, _, found = usual_and_not(faulty_hands(), every_profile=True)
    assert usual > 0 and found > 0  # the faults reach the steps, and the pass sends those hands to the checks


def test_where_faulty_hands_steps_are_usual_the_skipped_checks_find_nothing() -> None:
    usual, _, found = usual_and_not(faulty_hands(40))
    assert usual > 0 and found > 0  # the faults reach the steps, and the pass sends those hands to the checks


USUAL = '''
seats A=100 B=100 C=100
stakes ante=1 bring=2 small=4 big=8
antes
3rd A [?? ??] 2c, B [?? ??] 5s, C [?? ??] 9d
A bring 2
B complete 4
C call 4
A call 2
4th A 3d, B Kh, C 4c
B bet 4
C call 4
A fold
'''


@pytest.mark.parametrize(("old", "new", "code"), [
    ("C call 4\nA call 2", "C call 3\nA call 2", "BET_SIZE"),  # a short call, not all-in
    ("B bet 4", "B bet 6", "BET_SIZE"),  # an off-size bet
    ("C call 4\nA fold", "A fold\nC call 4", "ACTION_ORDER"),  # out of turn
    ("A fold", "A check", "ILLEGAL_ACTION"),  # a check facing a bet
])
def test_a_hand_breaking_a_step_rule_is_not_usual_and_its_finding_stays(old: str, new: str, code: str) -> None:
    hand = build_hand(USUAL)
    profile = profile_for(hand, None).profile
    assert steps_all_usual(hand, walk(hand, profile), profile)  # the hand as dealt is usual: the edit makes it not
    broken = build_hand(edit(USUAL, old, new))
    state = walk(broken, profile)
    assert not steps_all_usual(broken, state, profile)
    assert code in {v.code.value for v in result_of(broken, state, profile).violations}
