"""Findings in words: each violation or unverifiable check with the rule it rests on (as the rules
document titles it), the profile parameters that decide it and the line of the history it cites."""

from __future__ import annotations

from collections.abc import Iterable

from hhtool.replay.profiles import RuleProfile
from hhtool.replay.result import Unverifiable, Violation
from hhtool.reports.dispute.model import Cited, Finding
from hhtool.reports.dispute.rules import parameters_of, rules_of, topic_of


def _parameters(code: str, profile: RuleProfile) -> tuple[tuple[str, str], ...]:
    return tuple((name, str(getattr(profile, name))) for name in parameters_of(code))


def violation_finding(violation: Violation, profile: RuleProfile) -> Finding:
    cited = Cited(violation.file, violation.line) if violation.line else None
    return Finding("violation", topic_of(violation.code), rules_of(violation.code), violation.message,
                   violation.street, violation.player, violation.expected, violation.actual, cited,
                   _parameters(violation.code, profile))


def unverifiable_finding(unverifiable: Unverifiable, profile: RuleProfile, file: str) -> Finding:
    """``file``: the hand's history, where the line of the cause (when it has one) lies."""
    cited = Cited(file, unverifiable.line) if unverifiable.line else None
    return Finding("unverifiable", topic_of(unverifiable.check), rules_of(unverifiable.check), unverifiable.reason,
                   None, None, "", "", cited, _parameters(unverifiable.check, profile))


def findings_of(violations: Iterable[Violation], unverifiable: Iterable[Unverifiable],
                profile: RuleProfile, file: str) -> tuple[Finding, ...]:
    return (tuple(violation_finding(v, profile) for v in violations)
            + tuple(unverifiable_finding(u, profile, file) for u in unverifiable))
