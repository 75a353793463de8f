"""The queries over stored findings: the facts the verdict rule reads of a stored hand (as SQL
conditions on ``hands h``), verdicts counted, and a hand's violations listed with each conflicting
copy as a finding.

The rule that turns the facts into a verdict is the replay's (:func:`hhtool.replay.result.verdict_sql`
renders it as SQL); the caller gives it here as a SQL expression, so the store decides nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from hhtool.store import Store
from hhtool.store.spec import KEYED

#: a hand another stored copy of which differs from it
CONFLICTED = "EXISTS (SELECT 1 FROM copy_conflicts c WHERE c.site = h.site AND c.hand_id = h.hand_id)"


def violated(profile: str) -> str:
    """A hand with a violation stored under the profile ``profile`` (SQL: ``?``, ``h.rules_profile``…)."""
    return f"EXISTS (SELECT 1 FROM {KEYED}.violations v WHERE v.hk = h.hk AND v.profile = {profile})"


def unverified(profile: str) -> str:
    """A hand with a check that could not decide under the profile ``profile``."""
    return f"EXISTS (SELECT 1 FROM {KEYED}.unverifiable u WHERE u.hk = h.hk AND u.profile = {profile})"


def verdict_counts(store: Store, verdict: str, verdict_params: Sequence[Any], where: str,
                   params: Sequence[Any]) -> dict[str, int]:
    """The hands matching ``where`` (on ``hands h``) per ``verdict`` (a SQL expression on ``hands h``)."""
    rows = store.run(f"SELECT {verdict}, count(*) FROM hands h WHERE {where} GROUP BY 1", [*verdict_params, *params])
    return {str(found): int(n) for found, n in rows}


#: the fields of one listed violation, in the order :func:`violation_rows` returns them
VIOLATION_FIELDS = ("site", "hand_id", "code", "street", "player", "expected", "actual", "message", "file", "line")


def violation_rows(store: Store, where: str, params: Sequence[Any], chosen: str, chosen_params: Sequence[Any],
                   profile: str | None, conflict_code: str, with_conflicts: bool) -> list[tuple[Any, ...]]:
    """The violations (``chosen``: a condition on ``hands h`` and ``violations v``) under ``profile``
    (None: each hand's own) of the hands matching ``where``, and with ``with_conflicts`` each conflicting
    copy of those hands as a finding of code ``conflict_code`` (expected: the kept copy, actual: the
    other one); in the order of the hands' times and lines (:data:`VIOLATION_FIELDS`)."""
    profile_condition = "v.profile = h.rules_profile" if profile is None else "v.profile = ?"
    # (rowid: the findings of a hand on one line, the last stored first, as audit has always listed them:
    # DuckDB's sort put these ties so when the table was read directly, and the key's join does not keep it)
    replayed = f"""SELECT h.site, h.hand_id, v.code, v.street, v.player, v.expected, v.actual, v.message, v.file,
                          v.line, h.started_utc AS started_at, v.rowid AS nth
                   FROM {KEYED}.violations v JOIN hands h ON v.hk = h.hk
                   WHERE {profile_condition} AND {chosen}"""
    copies = f"""SELECT c.site, c.hand_id, ?, NULL, NULL, c.first_file || ':' || c.first_first_line,
                        c.second_file || ':' || c.second_first_line,
                        'another copy of this hand differs (' || c.kind || '): ' || c.diff, c.second_file,
                        c.second_first_line, h.started_utc AS started_at, NULL
                 FROM copy_conflicts c JOIN hands h ON c.site = h.site AND c.hand_id = h.hand_id
                 WHERE {where} AND {'TRUE' if with_conflicts else 'FALSE'}"""
    sql = f"""SELECT {', '.join(VIOLATION_FIELDS)}
              FROM ({replayed} UNION ALL {copies}) ORDER BY started_at NULLS LAST, site, hand_id, line, nth DESC"""
    values = [*([] if profile is None else [profile]), *chosen_params, conflict_code, *params]
    return store.run(sql, values)


@dataclass(frozen=True, slots=True)
class StoredJudgement:
    """A hand's judgement under one profile as stored (the replay's and the cross-hand pass's, one
    value): its rows as plain tuples, and its verdict when the profile is the one ``hands.verdict``
    holds (None: another profile, whose verdict the caller works out by the rule)."""

    violations: list[tuple[Any, ...]]  # (code, street, player, expected, actual, message, file, line)
    unverifiable: list[tuple[Any, ...]]  # (check_code, reason, line)
    assumptions: list[tuple[Any, ...]]  # (kind, value, words, line)
    verdict: str | None


def stored_judgement(store: Store, site: str, hand_id: str, profile: str) -> StoredJudgement | None:
    """The judgement stored for the hand under ``profile``; None when the hand was never judged under
    it (neither its own profile nor one an `audit --rules` stored findings or awards under)."""
    key = [site, hand_id]
    found = store.run("SELECT hk, rules_profile, verdict FROM hands WHERE site = ? AND hand_id = ?", key)
    if not found:
        return None
    hk, own, verdict = found[0]
    mine = [hk, profile]
    if own != profile or verdict is None:
        judged = store.run(f"""SELECT EXISTS (SELECT 1 FROM {KEYED}.violations WHERE hk = ? AND profile = ?)
                               OR EXISTS (SELECT 1 FROM {KEYED}.unverifiable WHERE hk = ? AND profile = ?)
                               OR EXISTS (SELECT 1 FROM {KEYED}.assumptions WHERE hk = ? AND profile = ?)
                               OR EXISTS (SELECT 1 FROM {KEYED}.rule_awards WHERE hk = ? AND profile = ?)""",
                           mine * 4)[0][0]
        if not judged:
            return None
        verdict = None
    violations = store.run(f"""SELECT code, street, player, expected, actual, message, file, line
                               FROM {KEYED}.violations WHERE hk = ? AND profile = ? ORDER BY line, code, rowid""", mine)
    unverifiable = store.run(f"""SELECT check_code, reason, line FROM {KEYED}.unverifiable
                                 WHERE hk = ? AND profile = ? ORDER BY rowid""", mine)
    assumptions = store.run(f"""SELECT kind, value, words, line FROM {KEYED}.assumptions
                                WHERE hk = ? AND profile = ? ORDER BY kind""", mine)
    return StoredJudgement(violations, unverifiable, assumptions, None if verdict is None else str(verdict))


def conflicts_of(store: Store, where: str, params: Sequence[Any]) -> list[dict[str, Any]]:
    """Stored conflicts of the hands matching a condition on ``hands h``."""
    cursor = store.con.execute(
        f"""SELECT c.* FROM copy_conflicts c JOIN hands h ON c.site = h.site AND c.hand_id = h.hand_id
            WHERE {where} ORDER BY c.site, c.hand_id, c.second_file, c.second_first_line""", list(params))
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


__all__ = ["CONFLICTED", "VIOLATION_FIELDS", "StoredJudgement", "conflicts_of", "stored_judgement", "unverified",
           "verdict_counts", "violated", "violation_rows"]

