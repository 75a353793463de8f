"""Replay Stud Hi/Lo hands under configurable rules.

``replay(hand, profile)`` walks the hand once (:mod:`.engine`), settles the pots (:mod:`.pots`),
runs every rule check (:mod:`.checks`) and returns a :class:`ReplayResult`: the verdict, each
violation with its source line, the checks the history did not allow to run and why, and the
rules' award beside the site's. ``explain(hand, profile)`` is the dispute view in plain words.
This package imports only :mod:`hhtool.model` and its own modules.

The profile is chosen by :func:`~.profiles.profile_for`: a profile passed in (a
:class:`RuleProfile`, a name or TOML path) is the user's explicit choice, whose readings are the
rules; none means the site's own profile, under which a finding that holds only under one reading
of an unsettled rule is unverifiable, not a violation (:mod:`.readings`).
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import chain

from hhtool.model import Hand
from hhtool.replay.checks import CHECKS, CHECKS_FOR_USUAL_STEPS, Check, Finding, award_table, steps_all_usual
from hhtool.replay.checks.totals import judge_rake
from hhtool.replay.codes import Code
from hhtool.replay.engine import betting_facts, walk, walks_alike
from hhtool.replay.profiles import (
    PROFILES,
    ChosenProfile,
    RuleProfile,
    load_profile,
    profile_catalog,
    profile_for,
    profile_for_site,
)
from hhtool.replay.readings import judge_unsettled
from hhtool.replay.result import (
    Assumption,
    BettingFacts,
    PlayerAward,
    PotResult,
    ReplayResult,
    ShowdownHand,
    Unverifiable,
    Verdict,
    Violation,
    verdict_of,
)
from hhtool.replay.structures import level_of
from hhtool.replay.timeline import ReplayState


def replay(hand: Hand, profile: RuleProfile | ChosenProfile | str | None = None) -> ReplayResult:
    """Replay one hand under ``profile`` (default: the site's built-in profile, see :func:`profile_for`)."""
    return judged(hand, _chosen(hand, profile))[1]


def _chosen(hand: Hand, profile: RuleProfile | ChosenProfile | str | None) -> ChosenProfile:
    return profile if isinstance(profile, ChosenProfile) else profile_for(hand, profile)


def judged(hand: Hand, chosen: ChosenProfile) -> tuple[ReplayState, ReplayResult]:
    """The walk and the result of a hand under the chosen profile: what the audit stores and the
    dispute report (hhtool.reports.dispute) explains. Under a site's profile (not one the user
    chose), a violation another admissible reading of an unsettled rule clears is unverifiable."""
    profile = chosen.profile
    state = walk(hand, profile)
    result = result_of(hand, state, profile)
    if result.violations and not chosen.explicit:
        result = judge_unsettled(profile, result, _Rereading(hand, state, profile, result).replayed_under)
    desk = chosen.desk
    schedule = None if desk is None else desk.rake_for(level_of(hand))
    if desk is not None and schedule is not None:
        result = judge_rake(hand, result, schedule, desk.words)
    return state, result


def result_of(hand: Hand, state: ReplayState, profile: RuleProfile) -> ReplayResult:
    """The checks' result of a walked hand. A hand whose steps are all usual skips the step checks,
    which would find nothing in it (:func:`~.checks.steps.steps_all_usual`: one pass instead of four)."""
    checks = CHECKS_FOR_USUAL_STEPS if steps_all_usual(hand, state, profile) else CHECKS
    return _result(hand, state, profile, (finding for check in checks for finding in check(hand, state, profile)),
                   betting_facts(hand, state))


def _result(hand: Hand, state: ReplayState, profile: RuleProfile, findings: Iterable[Finding],
            betting: BettingFacts | None) -> ReplayResult:
    """The result of the checks' ``findings`` (in the order of CHECKS): violations by line, each
    unverifiable finding once."""
    violations: list[Violation] = []
    unverifiable: list[Unverifiable] = []
    assumptions: list[Assumption] = []
    said: set[tuple[Code, str, int | None]] = set()  # the unverifiable findings kept, by their fields (as == compares them)
    for finding in findings:
        if isinstance(finding, Violation):
            violations.append(finding)
        elif isinstance(finding, Assumption):
            if finding not in assumptions:
                assumptions.append(finding)
        else:
            key = (finding.check, finding.reason, finding.line)
            if key not in said:
                said.add(key)
                unverifiable.append(finding)
    violations.sort(key=lambda v: (v.line, v.code))
    found = tuple(violations), tuple(unverifiable)
    awards = award_table(hand, state, profile) or ()
    settlement = state.settlement
    return ReplayResult(verdict_of(*found), found[0], found[1], awards, settlement.pots, settlement.hands, betting,
                        tuple(assumptions))


class _Recording:
    """A profile that notes the fields read from it."""

    __slots__ = ("profile", "read")

    def __init__(self, profile: RuleProfile) -> None:
        self.profile, self.read = profile, set[str]()

    def __getattr__(self, name: str) -> object:
        self.read.add(name)
        return getattr(self.profile, name)


class _Rereading:
    """A hand with violations replayed under other readings of the site's unsettled rules: a reading
    that changes no field the walk reads (engine.WALK_FIELDS) keeps the walk, and a check that read
    none of the fields the reading changes keeps its findings. A check is a function of the hand, the
    walk and the fields it reads: given the same values it reads the same fields and finds the same.
    Which fields each check read of the site's profile is recorded once, when first asked."""

    def __init__(self, hand: Hand, state: ReplayState, profile: RuleProfile, result: ReplayResult) -> None:
        self.hand, self.state, self.profile, self.betting = hand, state, profile, result.betting
        self.recorded: list[tuple[Check, list[Finding], frozenset[str]]] | None = None

    def replayed_under(self, other: RuleProfile) -> ReplayResult:
        hand, state, profile = self.hand, self.state, self.profile
        if not walks_alike(profile, other):
            return result_of(hand, walk(hand, other), other)
        if self.recorded is None:
            self.recorded = []
            for check in CHECKS:
                recording = _Recording(profile)
                findings = list(check(hand, state, recording))  # type: ignore[arg-type]  # reads as the profile
                self.recorded.append((check, findings, frozenset(recording.read)))
        kept_or_found = chain.from_iterable(
            found if all(getattr(other, name) == getattr(profile, name) for name in read) else check(hand, state, other)
            for check, found, read in self.recorded)
        return _result(hand, state, other, kept_or_found, self.betting)


def betting_of(hand: Hand, result: ReplayResult | None = None) -> BettingFacts | None:
    """The betting facts of a hand: those its replay ``result`` computed, else (imported without
    replay, or its replay failed) walked under the site's profile; None when even the walk fails (its
    facts are then unknown)."""
    if result is not None and result.betting is not None:
        return result.betting
    try:
        return betting_facts(hand, walk(hand, profile_for(hand, None).profile))
    except Exception:  # one hand's fault must not stop an import; its facts stay unknown
        return None


__all__ = [
    "PROFILES",
    "Assumption",
    "BettingFacts",
    "ChosenProfile",
    "Code",
    "PlayerAward",
    "PotResult",
    "ReplayResult",
    "RuleProfile",
    "ShowdownHand",
    "Unverifiable",
    "Verdict",
    "Violation",
    "betting_of",
    "judged",
    "load_profile",
    "profile_catalog",
    "profile_for",
    "profile_for_site",
    "replay",
]
