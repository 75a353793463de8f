"""A hand's judgement under one profile, one value made once: the per-hand replay's findings completed
by the cross-hand pass's judgement of the forced bets (:mod:`hhtool.replay.forced_bets`), with the
verdict by the one rule (:func:`hhtool.replay.result.verdict`). The store saves it whole and replaces
it whole (``hhtool.store.judgements.replace_judgements``); the views complete a hand never judged
under a profile by the same :func:`complete`, so that they and the store agree.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from hhtool.replay.codes import Code
from hhtool.replay.forced_bets import Bet
from hhtool.replay.forced_bets import Judgement as BetJudgement
from hhtool.replay.profiles import PROFILES, RuleProfile
from hhtool.replay.result import AssumedKind, Assumption, Unverifiable, Verdict, Violation, verdict


@dataclass(frozen=True, slots=True)
class Findings:
    """What the per-hand replay found of a hand under a profile (as replayed, or as stored)."""

    violations: tuple[Violation, ...]
    unverifiable: tuple[Unverifiable, ...]
    assumptions: tuple[Assumption, ...]



def findings_of_rows(site: str, hand_id: str, file: str, violations: Iterable[tuple[Any, ...]],
                     unverifiable: Iterable[tuple[Any, ...]], assumptions: Iterable[tuple[Any, ...]]) -> Findings:
    """A hand's findings as its store keeps them, as typed values: violations (code, street, player, expected,
    actual, message, file, line), unverifiable checks (check_code, reason, line) and assumptions (kind, value,
    words, line); ``file`` stands in for a violation stored with none."""
    return Findings(
        tuple(Violation(site, hand_id, Code(code), None if street is None else int(street), player, expected or "",
                        actual or "", message or "", cited or file, int(line or 0))
              for code, street, player, expected, actual, message, cited, line in violations),
        tuple(Unverifiable(Code(code), str(reason), None if line is None else int(line))
              for code, reason, line in unverifiable),
        tuple(Assumption(AssumedKind(kind), int(value), str(words), None if line is None else int(line))
              for kind, value, words, line in assumptions))

@dataclass(frozen=True, slots=True)
class Judgement:
    """A hand's whole judgement under ``profile``: its verdict, findings and assumptions, the forced bets
    the cross-hand pass judged it with (bet -> (value, source)) and the pass's notes (text, line)."""

    hk: int
    site: str
    hand_id: str
    profile: str
    verdict: Verdict
    violations: tuple[Violation, ...]
    unverifiable: tuple[Unverifiable, ...]
    assumptions: tuple[Assumption, ...]
    values: tuple[tuple[Bet, int | None, str], ...]
    notes: tuple[tuple[str, int | None], ...]


#: a profile by the name a judgement gives (None: one no longer known, a TOML file's not loaded now)
ProfileOf = Callable[[str], RuleProfile | None]


def built_in_profile(name: str) -> RuleProfile | None:
    return PROFILES.get(name)


def profiles_with(*loaded: RuleProfile | None) -> ProfileOf:
    """The built-in profiles and ``loaded`` (a TOML file's, by its name first)."""
    by_name = {profile.name: profile for profile in loaded if profile is not None}
    return lambda name: by_name.get(name) or PROFILES.get(name)


def own_rule_codes(profile: RuleProfile | None) -> frozenset[str]:
    """The codes of forced-bet findings a profile's own per-hand rule makes, decided by its parameters
    (a TOML file's as a built-in's): a ``bring_in_fraction`` (888poker's bring-in at half the small bet)."""
    return frozenset({Bet.BRING_IN.code.value}) if profile is not None and profile.bring_in_fraction else frozenset()


def complete(own: Findings, bets: BetJudgement, profiles: ProfileOf = built_in_profile) -> Judgement:
    """The judgement of a hand: its replay's findings (``own``) with those of the forced bets the pass
    judged (``bets.judged``) replaced by the pass's. A violation the profile's own per-hand rule makes of
    such a bet (:func:`own_rule_codes` of the profile ``profiles`` gives by its name) is kept unless the
    pass found the same (code, player, line); a forced bet adopted from the hand's postings (an
    assumption) goes when a kept violation contradicts it."""
    owned = {bet.code.value for bet in bets.judged}
    kinds = {bet.assumed.value for bet in bets.judged}
    again = {(v.code.value, v.player, v.line) for v in bets.violations}
    kept_codes = own_rule_codes(profiles(bets.profile))
    kept = [v for v in own.violations if v.code.value not in owned
            or (v.code.value in kept_codes and (v.code.value, v.player, v.line) not in again)]
    violations = (*kept, *bets.violations)  # (the replay's order, then the pass's: as the store keeps them)
    unverifiable = (*(u for u in own.unverifiable if u.check.value not in owned), *bets.unverifiable)
    contradicted = {bet.assumed.value for bet in Bet if any(v.code == bet.code for v in violations)}
    assumptions = (*(a for a in own.assumptions if a.kind.value not in kinds),
                   *(a for a in bets.assumptions if a.kind.value not in contradicted))
    return Judgement(bets.key, bets.site, bets.hand_id, bets.profile, verdict(bool(violations), bool(unverifiable)),
                     violations, unverifiable, assumptions,
                     tuple((bet, value, source.value) for bet, (value, source) in bets.values.items()),
                     tuple(bets.notes))


__all__ = ["Findings", "Judgement", "ProfileOf", "built_in_profile", "complete", "findings_of_rows", "own_rule_codes",
           "profiles_with"]
