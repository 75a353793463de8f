"""Findings that hold only under one reading of an unsettled rule (R7 opener ties, R11 reopening,
R14 tied-half odd unit, R15 rake over pots, ...) are not violations under a site's own profile.

When a replay under the site profile finds violations, the hand is replayed again under the other
documented readings of each rule the site does not establish (:data:`~.profiles.UNSETTLED`), and
under combinations of the rules that turn out to matter for this hand. A violation is certain when
every reading tried keeps it. When some reading leaves only the certain violations, every other
violation becomes an ``Unverifiable`` for its check that names the rule, the profile's reading and
the reading the history followed. When no reading does (each one breaks the hand somewhere else),
the findings stand: the history breaks the rules whatever the reading.

The cost only arises for hands with violations: one replay per alternative reading (8 for a site
profile), more only for rules that change the findings.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace

from hhtool.replay.profiles import Reading, RuleProfile, Unsettled
from hhtool.replay.result import ReplayResult, Unverifiable, Violation, verdict_of

# a combination of readings: (rule key, reading label) pairs, one per rule changed from the profile's own
Combination = tuple[tuple[str, str], ...]
ViolationKey = tuple[str, int, str | None]

# replays tried per hand beyond the single alternatives: the search stops there (a bound, not a guess:
# rules that matter for one hand are few)
MAX_COMBINATION_REPLAYS = 48


def _key(found: Violation) -> ViolationKey:
    """A violation is 'the same' under another reading when the same check fires on the same line
    for the same player (what the rules expect there may differ)."""
    return found.code, found.line, found.player


def _apply(profile: RuleProfile, readings: Iterable[Reading]) -> RuleProfile:
    values: dict[str, str] = {}
    for reading in readings:
        values.update(reading.values)
    return replace(profile, **values)  # type: ignore[arg-type]  # values are CHOICES strings, validated on build


def judge_unsettled(
    profile: RuleProfile, base: ReplayResult, replay_under: Callable[[RuleProfile], ReplayResult],
) -> ReplayResult:
    """``base`` (the replay under the site ``profile``) with the violations that some admissible
    reading removes turned into Unverifiables. ``replay_under`` replays the same hand under a profile."""
    rules = [rule for rule in profile.unsettled_rules() if rule.alternatives(profile)]
    if not base.violations or not rules:
        return base
    by_key = {rule.key: rule for rule in rules}
    readings = {(rule.key, reading.label): reading for rule in rules for reading in rule.alternatives(profile)}
    found: dict[Combination, frozenset[ViolationKey]] = {(): frozenset(_key(v) for v in base.violations)}

    def run(combination: Combination) -> frozenset[ViolationKey]:
        if combination not in found:
            result = replay_under(_apply(profile, [readings[item] for item in combination]))
            found[combination] = frozenset(_key(v) for v in result.violations)
        return found[combination]

    # every single alternative, then, from each combination whose findings a rule changed, that
    # rule's readings combined with the others (a rule may matter only once another one is changed)
    frontier: list[Combination] = [()]
    extra = 0
    while frontier:
        combination = frontier.pop(0)
        changed = {key for key, _ in combination}
        for item in readings:
            if item[0] in changed:
                continue
            larger = tuple(sorted((*combination, item)))
            if larger in found:
                continue
            if combination:
                if extra >= MAX_COMBINATION_REPLAYS:
                    frontier = []
                    break
                extra += 1
            if run(larger) != found[combination]:
                frontier.append(larger)
    certain = frozenset.intersection(*found.values())
    consistent = [combination for combination, keys in found.items() if keys == certain]
    if not consistent or certain == found[()]:
        return base
    followed = min(consistent, key=lambda combination: (len(combination), combination))
    kept = tuple(v for v in base.violations if _key(v) in certain)
    unverifiable = list(base.unverifiable)
    for dropped in base.violations:
        if _key(dropped) in certain:
            continue
        finding = Unverifiable(dropped.code, _reason(dropped, profile, followed, by_key, readings), dropped.line)
        if finding not in unverifiable:
            unverifiable.append(finding)
    return replace(base, verdict=verdict_of(kept, tuple(unverifiable)), violations=kept, unverifiable=tuple(unverifiable))


def _reason(
    dropped: Violation, profile: RuleProfile, followed: Combination, rules: dict[str, Unsettled],
    readings: dict[tuple[str, str], Reading],
) -> str:
    parts = []
    for key, label in followed:
        rule = rules[key]
        own = rule.reading_of(profile)
        own_text = f"'{own.label}' ({own.source})" if own else "its own values"
        other = readings[(key, label)]
        parts.append(f"{rule.what}: {profile.name}'s reading {own_text}; the history follows '{other.label}' "
                     f"({other.source}); unsettled online: {rule.why_open}")
    return f"{dropped.message} holds only under one reading of " + "; and of ".join(parts)
