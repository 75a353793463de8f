"""The cross-hand pass, run after an import and under ``audit --rules``: the store gathers the
evidence as plain rows (each hand's judgement so far among them), the replay completes each hand's
whole judgement (:func:`hhtool.replay.table_pass.judge_slice`, the only place that decides, verdicts
included), and the store replaces the hand's judgement with it whole
(:func:`hhtool.store.judgements.replace_judgements`). Like a beancount plugin, it sees many hands at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hhtool.replay.judgement import Judgement
from hhtool.replay.table_pass import OWNED_CODES, PLACEHOLDERS, HandRow, judge_slice
from hhtool.replay.user_structures import UserStructures
from hhtool.store import Store
from hhtool.store import forced_bets as evidence_of
from hhtool.store.judgements import JudgementRows, replace_judgements

#: hands judged at a time: the evidence of one slice is held in memory, then saved (a 115k-hand import
#: held ≈ 750 MiB when the pass took every hand at once)
SLICE_HANDS = 20_000


def judge_hands(store: Store, touched: str, params: Sequence[Any] = (), profile: str | None = None,
                slice_hands: int = SLICE_HANDS, desk: UserStructures | None = None) -> int:
    """Judge the forced bets of the hands ``touched`` (a SQL condition on ``hands h``) chooses, and of
    the hands their evidence changes (see :func:`hhtool.store.forced_bets.choose`), a slice at a time,
    each slice saved in its own transaction; the number judged."""
    try:
        chosen = evidence_of.choose(store, touched, params, profile)
        for first in range(0, chosen, slice_hands):
            evidence = evidence_of.gather(store, first, first + slice_hands)
            hands = [HandRow(*values) for values in evidence.hands]
            judgements = judge_slice(hands, evidence.tables, lambda levels: evidence_of.level_patterns(store, levels), desk)
            replace_judgements(store, rows_of(judgements))
        return chosen
    finally:
        evidence_of.drop_scratch(store)


def rows_of(judgements: Sequence[Judgement]) -> JudgementRows:
    """Whole judgements as the store's rows."""
    rows = JudgementRows()
    for j in judgements:
        rows.keys.append((j.hk, j.profile))
        rows.violations += [(j.site, j.hand_id, j.profile, v.code.value, v.street, v.player, v.expected, v.actual,
                             v.message, v.file, v.line) for v in j.violations]
        rows.unverifiable += [(j.site, j.hand_id, j.profile, u.check.value, u.reason, u.line) for u in j.unverifiable]
        rows.assumptions += [(j.site, j.hand_id, j.profile, a.kind.value, a.value, a.words, a.line)
                             for a in j.assumptions]
        rows.values += [(j.hk, j.profile, bet.value, value, source) for bet, value, source in j.values]
        if j.notes:
            rows.notes.append((j.hk, j.profile, [text for text, _ in j.notes], [line for _, line in j.notes]))
        rows.verdicts.append((j.hk, j.profile, j.verdict.value))
    return rows


def judge_imported_since(store: Store, mark: Any, desk: UserStructures | None = None) -> int:
    """After an import: the hands of files imported since ``mark`` (see :func:`hhtool.store.forced_bets.import_mark`)
    and those an interrupted earlier import left unjudged (the replay's placeholder findings still stored)."""
    awaiting, awaiting_params = evidence_of.awaiting_judgement(PLACEHOLDERS)
    return judge_hands(store, f"(h.file IN (SELECT path FROM files WHERE imported_at >= ?) OR {awaiting})",
                       [mark, *awaiting_params], desk=desk)


def has_never_judged(store: Store) -> bool:
    """Whether the store holds hands stored before the cross-hand pass existed."""
    return evidence_of.has_never_judged(store, OWNED_CODES)


def judge_never_judged(store: Store) -> int:
    """The hands stored before the cross-hand pass existed (``audit`` runs it once)."""
    if not has_never_judged(store):
        return 0
    return judge_hands(store, evidence_of.never_judged(OWNED_CODES))


__all__ = ["has_never_judged", "judge_hands", "judge_imported_since", "judge_never_judged", "rows_of"]
