"""The verdict and violation queries: how many matching hands are ok, unverifiable or violations
under a profile (`audit`), their violations one by one with each conflicting copy as a finding,
the copies of one hand that differ, and the summaries of `hhtool violations`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import polars as pl

from hhtool.replay.codes import CODE_NAMES, Code
from hhtool.reports.choices import BREAKDOWNS
from hhtool.reports.filters import HandFilter
from hhtool.reports.violations import terminal_view, violation_conditions, violation_summary
from hhtool.service.errors import UsageError
from hhtool.service.filters import require_matches
from hhtool.service.stores import Database
from hhtool.store import Store
from hhtool.store.copies import conflicts_of

#: the fields of one reported violation, in the order `audit` prints them
VIOLATION_KEYS = ("site", "hand_id", "code", "street", "player", "expected", "actual", "message", "file", "line")

#: a hand with a conflicting copy is a violation whatever its replay says: the copy judged may be the edited one
CONFLICTED = "EXISTS (SELECT 1 FROM copy_conflicts c WHERE c.site = h.site AND c.hand_id = h.hand_id)"


def verdict_counts(store: Store, hand_filter: HandFilter, profile: str | None) -> dict[str, int]:
    """Matching hands per verdict, under ``profile`` (None: each hand's own, as stored)."""
    where, params = hand_filter.sql()
    if profile is None:
        rows = store.run(f"""SELECT CASE WHEN {CONFLICTED} THEN 'violation' ELSE coalesce(h.verdict, 'not replayed') END,
                                    count(*) FROM hands h WHERE {where} GROUP BY 1""", params)
        return {str(verdict): int(n) for verdict, n in rows}
    rows = store.run(
        f"""SELECT CASE WHEN {CONFLICTED} OR EXISTS (SELECT 1 FROM keyed.violations v WHERE v.hk = h.hk
                                     AND v.profile = ?) THEN 'violation'
                        WHEN EXISTS (SELECT 1 FROM keyed.unverifiable u WHERE u.hk = h.hk
                                     AND u.profile = ?) THEN 'unverifiable'
                        ELSE 'ok' END, count(*)
            FROM hands h WHERE {where} GROUP BY 1""",
        [profile, profile, *params],
    )
    return {str(verdict): int(n) for verdict, n in rows}


def violations(store: Store, hand_filter: HandFilter, code: Code | None, player: str | None,
               profile: str | None) -> list[dict[str, Any]]:
    """The violations of the matching hands under the profile (None: each hand's own), of ``code`` and
    by ``player`` when given, with each conflicting copy as a CONFLICTING_COPY finding (expected: the
    kept copy, actual: the other one)."""
    where, params = hand_filter.sql()
    chosen, chosen_params = violation_conditions(hand_filter, code, player)
    profile_condition = "v.profile = h.rules_profile" if profile is None else "v.profile = ?"
    # (rowid: the findings of a hand on one line, the last stored first, as audit has always listed them:
    # DuckDB's sort put these ties so when the table was read directly, and the key's join does not keep it)
    replayed = f"""SELECT h.site, h.hand_id, v.code, v.street, v.player, v.expected, v.actual, v.message, v.file,
                          v.line, h.started_at, v.rowid AS nth
                   FROM keyed.violations v JOIN hands h ON v.hk = h.hk
                   WHERE {profile_condition} AND {chosen}"""
    values: list[Any] = ([] if profile is None else [profile]) + chosen_params
    copies = f"""SELECT c.site, c.hand_id, '{Code.CONFLICTING_COPY}', NULL, NULL, c.first_file || ':' || c.first_first_line,
                        c.second_file || ':' || c.second_first_line,
                        'another copy of this hand differs (' || c.kind || '): ' || c.diff, c.second_file,
                        c.second_first_line, h.started_at, NULL
                 FROM copy_conflicts c JOIN hands h ON c.site = h.site AND c.hand_id = h.hand_id WHERE {where}"""
    if (code and code is not Code.CONFLICTING_COPY) or player:
        copies += " AND FALSE"  # a conflict is about the whole hand, not one player's action
    sql = f"""SELECT site, hand_id, code, street, player, expected, actual, message, file, line
              FROM ({replayed} UNION ALL {copies}) ORDER BY started_at NULLS LAST, site, hand_id, line, nth DESC"""
    return [dict(zip(VIOLATION_KEYS, row, strict=True)) for row in store.run(sql, values + params)]


def conflicts_of_hand(store: Store, site: str, hand_id: str) -> list[dict[str, Any]]:
    """The copies of one stored hand that differ from it: where each lies and what differs."""
    where, params = HandFilter(sites=(site,), hand_id=hand_id).sql()
    return conflicts_of(store, where, params)


@dataclass(frozen=True)
class Breakdown:
    """One breakdown of `hhtool violations`: its name, its rows (the first ``limit`` when one was
    given) and how many rows there are in all."""

    by: str
    frame: pl.DataFrame
    total: int

    @property
    def cut(self) -> bool:
        return self.frame.height < self.total


def violation_breakdowns(database: Database, breakdowns: list[str], hand_filter: HandFilter, code: Code | None,
                         player: str | None, limit: int | None = None,
                         for_terminal: bool = False) -> list[Breakdown]:
    """`hhtool violations`: each breakdown asked for (code, site, player, date, hand) of the violations
    of the matching hands under their own profiles, ``limit`` rows each and the count of all of them;
    UsageError for an unknown one. Money is in smallest units beside ``currency`` and ``unit``, or
    spelled in the currency ``for_terminal``."""
    unknown = [by for by in breakdowns if by not in BREAKDOWNS]
    if unknown:
        raise UsageError(f"--by must be one of {', '.join(BREAKDOWNS)}")
    with database.open(read_only=True) as store:
        require_matches(store, hand_filter, player)
        frames = [(by, violation_summary(store, by, hand_filter, code, player)) for by in breakdowns]
    return [Breakdown(by, terminal_view(frame.head(limit) if limit else frame) if for_terminal
                      else frame.head(limit) if limit else frame, frame.height)
            for by, frame in frames]


__all__ = ["BREAKDOWNS", "CODE_NAMES", "VIOLATION_KEYS", "Breakdown", "Code", "conflicts_of_hand", "verdict_counts",
           "violation_breakdowns", "violations"]
