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

#: hands judged at a time: the evidence of one slice is held in memory, then saved (a 115k-hand import
#: held ≈ 750 MiB when the pass took every hand at once)
SLICE_HANDS = 20_000


def judge_hands(store: Store, touched: str, params: Sequence[Any] = (), profile: str | None = None,
                slice_hands: int = SLICE_HANDS) -> int:
    """Judge the forced bets of the hands ``touched`` (a SQL condition on ``hands h``) chooses, and of
    the hands their evidence changes (see :func:`hhtool.store.forced_bets.choose`), a slice at a time,
    each slice saved in its own transaction; the number judged."""
    try:
        chosen = evidence_of.choose(store, touched, params, profile)
        for first in range(0, chosen, slice_hands):
            evidence = evidence_of.gather(store, first, first + slice_hands)
            levels = evidence_of.level_votes(store, evidence, open_levels(evidence.hands, evidence.tables))
            evidence_of.save(store, judge_forced_bets(evidence.hands, evidence.tables, levels))
        return chosen
    finally:
        evidence_of.drop_scratch(store)


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
