"""The cross-hand pass, run inside each import batch's write and under ``audit --rules``: the store
gathers the evidence as plain rows (each hand's judgement so far among them), the replay completes each
hand's whole judgement (:func:`hhtool.replay.table_pass.judge_slice`, the only place that decides,
verdicts included), and the store replaces the hand's judgement with it whole
(:func:`hhtool.store.judgements.write_judgements`). Like a beancount plugin, it sees many hands at once.

An import judges each batch in the batch's own transaction (:func:`judge_batch`): its hands are
committed with their whole judgement, and the stored hands of the same tables and levels, whose
evidence the batch changes, are judged again and replaced in that same commit; no reader and no
killed import ever sees the replay's placeholders.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from hhtool.replay.judgement import Judgement, ProfileOf, built_in_profile
from hhtool.replay.table_pass import OWNED_CODES, PLACEHOLDERS, HandRow, confirmed_alone, judge_slice, settled_tables
from hhtool.replay.user_structures import UserStructures
from hhtool.store import Store
from hhtool.store import forced_bets as evidence_of
from hhtool.store.batch_hands import batch_hands
from hhtool.store.judgements import JudgementRows, replace_judgements, write_judgements
from hhtool.store.judgements import drop_scratch as drop_judgement_scratch

if TYPE_CHECKING:
    import pyarrow as pa

#: hands judged at a time: the evidence of one slice is held in memory, then saved (a 115k-hand import
#: held ≈ 750 MiB when the pass took every hand at once)
SLICE_HANDS = 20_000
#: the same inside an import's batch, where the pool's workers are alive beside it: the evidence of a
#: 10,000-hand batch taken at once held ≈ 48 MiB of Python objects in the importing process
BATCH_SLICE_HANDS = 2_500


def judge_hands(store: Store, touched: str, params: Sequence[Any] = (), profile: str | None = None,
                slice_hands: int = SLICE_HANDS, desk: UserStructures | None = None,
                profiles: ProfileOf = built_in_profile) -> int:
    """Judge the forced bets of the hands ``touched`` (a SQL condition on ``hands h``) chooses, and of
    the hands their evidence changes (see :func:`hhtool.store.forced_bets.choose`), a slice at a time,
    each slice saved in its own transaction; the number judged."""
    return _judged(store, touched, params, profile, slice_hands, desk, lambda rows: replace_judgements(store, rows),
                   settle=False, profiles=profiles)


def judge_batch(store: Store, hks: Sequence[int], desk: UserStructures | None = None,
                slice_hands: int = BATCH_SLICE_HANDS, profile: str | None = None,
                profiles: ProfileOf = built_in_profile, alone: pa.Table | None = None, counted: bool = False) -> int:
    """Inside the transaction that writes an import's batch (hands ``hks``, just inserted): judge them,
    and again the stored hands of their tables and levels whose evidence they change, and write the
    judgements in that transaction; the number judged. With ``profile`` (``audit --rules``, inside the
    transaction that stores their replay under it): those hands only, under it. A stored hand whose judgement the batch cannot
    change is left (:func:`hhtool.replay.table_pass.settled_tables`): else an import of many files of one
    table would judge its first hands again with every file; with the user's structures file (which may
    be new since the hands were judged) every hand of the tables is judged again. ``alone``: the batch's
    hands the workers judged whole (``hhtool.ingest.judged_alone``: hk, and the ante and bring-in majorities
    each holds under), stored so; judged again only where their table's majority is not that one. ``counted``:
    ``hks`` are the hands the transaction's write has just counted (``forced_bet_votes.add_hands``)."""
    settle = desk is None and profile is None
    with batch_hands(store, hks) as touched:
        try:
            return _judged(store, touched, (), profile, slice_hands, desk, lambda rows: write_judgements(store, rows),
                           settle=settle, profiles=profiles, alone=alone if settle else None, counted=counted)
        finally:
            drop_judgement_scratch(store)


def _judged(store: Store, touched: str, params: Sequence[Any], profile: str | None, slice_hands: int,
            desk: UserStructures | None, save: Callable[[JudgementRows], None], settle: bool,
            profiles: ProfileOf = built_in_profile, alone: pa.Table | None = None, counted: bool = False) -> int:
    try:
        chosen = evidence_of.choose(store, touched, params, profile, settled_tables if settle else None,
                                    [code for _, code in OWNED_CODES],
                                    None if alone is None else (alone, confirmed_alone), counted)
        for first in range(0, chosen, slice_hands):
            evidence = evidence_of.gather(store, first, first + slice_hands)
            hands = [HandRow(*values) for values in evidence.hands]
            judgements = judge_slice(hands, evidence.tables, lambda levels: evidence_of.level_patterns(store, levels), desk,
                                     profiles)
            save(rows_of(judgements))
        return chosen
    finally:
        evidence_of.drop_scratch(store)


def rows_of(judgements: Sequence[Judgement]) -> JudgementRows:
    """Whole judgements as the store's rows."""
    rows = JudgementRows()
    for j in judgements:
        rows.keys.append((j.hk, j.profile))
        rows.violations += [(j.hk, j.profile, v.code.value, v.street, v.player, v.expected, v.actual, v.message,
                             v.file, v.line) for v in j.violations]
        rows.unverifiable += [(j.hk, j.profile, u.check.value, u.reason, u.line) for u in j.unverifiable]
        rows.assumptions += [(j.hk, j.profile, a.kind.value, a.value, a.words, a.line) for a in j.assumptions]
        rows.values += [(j.hk, j.profile, bet.value, value, source) for bet, value, source in j.values]
        if j.notes:
            rows.notes.append((j.hk, j.profile, [text for text, _ in j.notes], [line for _, line in j.notes]))
        rows.verdicts.append((j.hk, j.profile, j.verdict.value))
    return rows


def judge_left_unjudged(store: Store, desk: UserStructures | None = None,
                        profiles: ProfileOf = built_in_profile) -> int:
    """After an import: the hands an import by an older hhtool (which judged after its last batch) left
    unjudged when it was killed, the replay's placeholder findings still stored; none otherwise."""
    awaiting, awaiting_params = evidence_of.awaiting_judgement(PLACEHOLDERS)
    if not evidence_of.any_hand(store, awaiting, awaiting_params):
        return 0
    return judge_hands(store, awaiting, awaiting_params, desk=desk, profiles=profiles)


def has_never_judged(store: Store) -> bool:
    """Whether the store holds hands stored before the cross-hand pass existed."""
    return evidence_of.has_never_judged(store, OWNED_CODES)


def judge_never_judged(store: Store) -> int:
    """The hands stored before the cross-hand pass existed (``audit`` runs it once)."""
    if not has_never_judged(store):
        return 0
    return judge_hands(store, evidence_of.never_judged(OWNED_CODES))


__all__ = ["has_never_judged", "judge_batch", "judge_hands", "judge_left_unjudged", "judge_never_judged", "rows_of"]
