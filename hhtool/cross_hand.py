"""The cross-hand pass, run after an import and under ``audit --rules``: the store gathers the
evidence, the replay judges it (:mod:`hhtool.replay.forced_bets`, the only place that decides), the
store saves the judgement. Like a beancount plugin, it sees many hands at once and owns its findings.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hhtool.replay.forced_bets import judge_forced_bets, open_levels
from hhtool.store import Store
from hhtool.store import forced_bets as evidence_of


def judge_hands(store: Store, touched: str, params: Sequence[Any] = (), profile: str | None = None) -> int:
    """Judge the forced bets of the hands ``touched`` (a SQL condition on ``hands h``) chooses, and of
    the hands their evidence changes (see :func:`hhtool.store.forced_bets.gather`); the number judged."""
    try:
        evidence = evidence_of.gather(store, touched, params, profile)
        if not evidence.hands:
            return 0
        levels = evidence_of.level_votes(store, evidence, open_levels(evidence.hands, evidence.tables))
        judgements = judge_forced_bets(evidence.hands, evidence.tables, levels)
    finally:
        evidence_of.drop_scratch(store)
    evidence_of.save(store, judgements)
    return len(judgements)


def judge_imported_since(store: Store, mark: Any) -> int:
    """After an import: the hands of files imported since ``mark`` (see :func:`hhtool.store.forced_bets.import_mark`)
    and those an interrupted earlier import left unjudged."""
    return judge_hands(store, f"(h.file IN (SELECT path FROM files WHERE imported_at >= ?) OR {evidence_of.AWAITING_JUDGEMENT})",
                       [mark, *evidence_of.AWAITING_PARAMS])


def judge_never_judged(store: Store) -> int:
    """The hands stored before the cross-hand pass existed (``audit`` runs it once)."""
    if not evidence_of.has_never_judged(store):
        return 0
    return judge_hands(store, evidence_of.NEVER_JUDGED)


__all__ = ["judge_hands", "judge_imported_since", "judge_never_judged"]
