"""The cross-hand pass's share an import's workers take (#37): each hand whose judgement cannot depend on
its table's votes beyond their majority is judged whole in the worker, beside its replay
(:func:`hhtool.replay.table_pass.judge_alone` decides which, and judges), and stored with that
judgement; the chunk carries, for each such hand, the majority it holds under (``JUDGED_ALONE``, keyed
by ``hk`` like the stored tables, so that it is shifted and filtered with them, never stored), and the
batch's transaction judges it again only where its table's majority is not that one
(:func:`hhtool.replay.table_pass.confirmed_alone`, in :func:`hhtool.store.forced_bets.choose`).

The evidence is read from the hand model exactly as the store reads it back from the rows it stores
(:data:`hhtool.store.forced_bet_votes.POSTS`, the unanted players of ``hhtool.store.forced_bets``, the
stored findings as :func:`hhtool.replay.judgement.findings_of_rows` reads them), so that the hand gets
what the pass would give it; ``tests/test_judged_alone.py`` and ``benchmarks/same_verdicts.py`` hold it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from hhtool.model import ActionKind, Hand, NoteTopic, StakeSource, Street
from hhtool.replay.judgement import ProfileOf
from hhtool.replay.result import ReplayResult
from hhtool.replay.table_pass import HandRow, JudgedAlone, Places, judge_alone

#: the carried table's name in a chunk's tables (handed to the batch's pass, not stored)
JUDGED_ALONE = "judged_alone"
_SCHEMA = pa.schema([("hk", pa.int64()), ("ante", pa.int64()), ("bring_in", pa.int64())])
_FORCED = (ActionKind.ANTE, ActionKind.BRING_IN)


def row_of(hand: Hand, replayed: ReplayResult, profile: str) -> HandRow | None:
    """The hand as the pass's store would give it (``hhtool.store.forced_bets.HAND_FIELDS``), from its model
    and replay; None where the store's joins could read it otherwise (a player seated twice)."""
    seats = {seat.player: seat for seat in hand.seats}
    if len(seats) != len(hand.seats):
        return None
    stakes = hand.stakes
    place = hand.tournament_id if stakes.is_tournament else hand.table_name
    posts: list[tuple[str, str, int, int, bool]] = []
    put_in: dict[str, int] = {}  # a player's forced posts so far (POSTS: all-in when they reach his stack)
    anted: set[str] = set()
    for action in hand.actions:
        if action.kind not in _FORCED:
            continue
        total = put_in[action.player] = put_in.get(action.player, 0) + action.amount
        seat = seats.get(action.player)
        all_in = action.all_in or (seat is not None and seat.stack is not None and total >= seat.stack)
        posts.append((action.kind, action.player, action.amount, action.line, all_in))  # (a StrEnum is its text)
        if action.kind is ActionKind.ANTE:
            anted.add(action.player)
    unanted: list[tuple[str, int]] = []
    if any(not seat.sitting_out and seat.player not in anted for seat in hand.seats):
        dealt = {deal.player for deal in hand.deals if deal.street == Street.THIRD and (deal.down or deal.up)}
        dealt |= {action.player for action in hand.actions
                  if action.street == Street.THIRD and action.kind is not ActionKind.ANTE}
        unanted = [(seat.player, seat.line) for seat in hand.seats
                   if not seat.sitting_out and seat.player not in anted and seat.player in dealt]
    topics = {note.topic for note in hand.notes}
    return HandRow(
        0, hand.site, hand.hand_id, hand.origin_site if hand.origin_site is not None else hand.site, hand.source.file,
        profile, hand.table_name, hand.tournament_id, stakes.is_tournament, stakes.small_bet, stakes.big_bet,
        stakes.currency, stakes.unit, stakes.structure, None if place is None else "table", "level",
        NoteTopic.PRIVATE_TABLE in topics, stakes.ante_source, stakes.bring_in_source, posts, unanted,
        [(v.code, v.street, v.player, v.expected, v.actual, v.message, v.file, v.line) for v in replayed.violations],
        [(u.check, u.reason, u.line) for u in replayed.unverifiable],
        [(a.kind, a.value, a.words, a.line) for a in replayed.assumptions])


def judged_alone(hand: Hand, replayed: ReplayResult, profile: str, profiles: ProfileOf,
                 places: Places | None = None) -> JudgedAlone | None:
    """The hand's judgement made in the worker (:func:`hhtool.replay.table_pass.judge_alone`), or None: the
    batch's pass judges it. A hand with a note of the pass's own topic is left to the pass (which rewrites
    those notes). ``places``: the table places made so far for the chunk's hands (shared, frozen)."""
    if any(note.topic == NoteTopic.STRUCTURE_DIFFERS for note in hand.notes):
        return None
    row = row_of(hand, replayed, profile)
    return None if row is None else judge_alone(row, profiles, places)


def with_judgement(replayed: ReplayResult, alone: JudgedAlone) -> ReplayResult:
    """The replay as stored with the hand's whole judgement in place of its placeholders."""
    judgement = alone.judgement
    return replace(replayed, verdict=judgement.verdict, violations=judgement.violations,
                   unverifiable=judgement.unverifiable, assumptions=judgement.assumptions)


def judged_hands(hands: pa.Table, alone: Sequence[tuple[int, JudgedAlone]]) -> tuple[pa.Table, pa.Table]:
    """The chunk's ``hands`` rows with the forced bets the judgements give (value and source, as the pass
    writes them), and the carried table (``hk``, the ante and bring-in majorities each holds under)."""
    carried = pa.table([pa.array([hk for hk, _ in alone], pa.int64()),
                        pa.array([judged.ante for _, judged in alone], pa.int64()),
                        pa.array([judged.bring_in for _, judged in alone], pa.int64())], schema=_SCHEMA)
    if not alone:
        return hands, carried
    at = {hk: judged for hk, judged in alone}
    keys = hands.column("hk").to_pylist()
    for bet in ("ante", "bring_in"):
        # (the value a judged bet is judged with is the majority it holds under: judge_alone takes no other)
        given: list[Any] = [None if (judged := at.get(hk)) is None else getattr(judged, bet) for hk in keys]
        mask = pa.array([value is not None for value in given])
        for name, value in ((bet, pa.array(given, pa.int64())),
                            (f"{bet}_source", pa.array([StakeSource.CONTEXT.value] * len(keys), pa.string()))):
            index = hands.schema.get_field_index(name)
            column = hands.column(index)
            hands = hands.set_column(index, hands.schema.field(index),
                                     pc.if_else(mask, value.cast(column.type), column))
    return hands, carried


__all__ = ["JUDGED_ALONE", "judged_alone", "judged_hands", "row_of", "with_judgement"]
