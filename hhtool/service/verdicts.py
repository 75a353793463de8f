"""The verdict and violation queries: how many matching hands are ok, unverifiable or violations
under a profile (`audit`), their violations one by one with each conflicting copy as a finding,
the copies of one hand that differ, and the summaries of `hhtool violations`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import polars as pl

from hhtool.replay.codes import CODE_NAMES, Code
from hhtool.replay.result import stored_verdict_sql, verdict_sql
from hhtool.reports.choices import BREAKDOWNS
from hhtool.reports.violations import terminal_view, violation_conditions, violation_summary
from hhtool.service.errors import UsageError
from hhtool.service.filters import require_matches
from hhtool.service.stores import Database
from hhtool.service.times import in_user_zone
from hhtool.store import Store, findings
from hhtool.store.filters import HandFilter
from hhtool.store.findings import VIOLATION_FIELDS, conflicts_of

#: a hand stored without a replay, as `audit` counts it
NOT_REPLAYED = "not replayed"

#: the fields of one reported violation, in the order `audit` prints them
VIOLATION_KEYS = VIOLATION_FIELDS


def verdict_counts(store: Store, hand_filter: HandFilter, profile: str | None) -> dict[str, int]:
    """Matching hands per verdict, under ``profile`` (None: each hand's own, as stored), by the one
    verdict rule (a conflicting copy makes a hand a violation)."""
    where, params = hand_filter.sql()
    if profile is None:
        return findings.verdict_counts(store, stored_verdict_sql("h.verdict", findings.CONFLICTED, NOT_REPLAYED), [],
                                       where, params)
    verdict = verdict_sql(violated=findings.violated("?"), unverified=findings.unverified("?"),
                          conflicted=findings.CONFLICTED)
    return findings.verdict_counts(store, verdict, [profile, profile], where, params)


def violations(store: Store, hand_filter: HandFilter, code: Code | None, player: str | None,
               profile: str | None) -> list[dict[str, Any]]:
    """The violations of the matching hands under the profile (None: each hand's own), of ``code`` and
    by ``player`` when given, with each conflicting copy as a CONFLICTING_COPY finding (expected: the
    kept copy, actual: the other one)."""
    where, params = hand_filter.sql()
    chosen, chosen_params = violation_conditions(hand_filter, code, player)
    # a conflict is about the whole hand, not one player's action
    with_conflicts = not ((code and code is not Code.CONFLICTING_COPY) or player)
    rows = findings.violation_rows(store, where, params, chosen, chosen_params, profile, Code.CONFLICTING_COPY.value,
                                   with_conflicts)
    return [dict(zip(VIOLATION_KEYS, row, strict=True)) for row in rows]


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
        # (each hand's start: the UTC instant, shown in the user's zone as every list's; a day is the user's)
        frames = [(by, in_user_zone(violation_summary(store, by, hand_filter, code, player))) for by in breakdowns]
    return [Breakdown(by, terminal_view(frame.head(limit) if limit else frame) if for_terminal
                      else frame.head(limit) if limit else frame, frame.height)
            for by, frame in frames]


__all__ = ["BREAKDOWNS", "CODE_NAMES", "VIOLATION_KEYS", "Breakdown", "Code", "conflicts_of_hand", "verdict_counts",
           "violation_breakdowns", "violations"]
