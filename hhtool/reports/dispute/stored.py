"""What the store knows about a hand beyond its own history: the judgement of record (the replay's
and the cross-hand pass's findings and assumptions, as stored under the profile), how the table's
other hands posted, and the copies of it that differ.

:func:`judgement_of` is how every view (`show` in each format, `audit --explain`, the web pages)
gets a hand's verdict, findings and assumptions: the stored judgement, one value, with its verdict by
the one rule (:func:`hhtool.replay.result.verdict`); a view walks the hand again only to draw it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from hhtool.model import Hand, StakeSource, text_lines
from hhtool.money import format_money
from hhtool.replay.forced_bets import Bet
from hhtool.replay.forced_bets import Judgement as BetJudgement
from hhtool.replay.judgement import Findings, complete, findings_of_rows, profiles_with
from hhtool.replay.profiles import RuleProfile
from hhtool.replay.result import ReplayResult, verdict
from hhtool.replay.table_pass import HandRow, judge_bets
from hhtool.replay.user_structures import UserStructures
from hhtool.reports.dispute.model import CopySide, CopyView
from hhtool.store import Store
from hhtool.store import forced_bets as evidence_of
from hhtool.store.filters import HandFilter
from hhtool.store.findings import StoredJudgement, conflicts_of, stored_judgement
from hhtool.store.table_context import table_neighbours


@dataclass(frozen=True, slots=True)
class StoredFacts:
    judgement: StoredJudgement | None = None  # None: never judged under the profile (then ``cross_hand``)
    table_words: dict[str, str] = field(default_factory=dict)  # "ante" / "bring-in" -> what the table's hands show
    copies: tuple[CopyView, ...] = ()
    # never judged under the profile: the cross-hand pass's outcome for the hand under it, worked out in
    # memory as an import or `audit --rules` would store it (None: nothing for the pass to judge)
    cross_hand: BetJudgement | None = None


def judgement_of(hand: Hand, result: ReplayResult, stored: StoredJudgement | None, conflicted: bool,
                 cross_hand: BetJudgement | None = None, profile: RuleProfile | None = None) -> ReplayResult:
    """The judgement of record of ``hand``: ``result`` (its replay, for the pots, awards and betting a view
    draws) with the stored findings and assumptions in place of the replay's, and the verdict by the
    rule, a conflicting stored copy included. With nothing stored under the profile, the replay's own
    completed by the cross-hand pass's judgement of its forced bets (``cross_hand``) by the function
    whose judgement an import or `audit --rules` stores (:func:`hhtool.replay.judgement.complete`;
    ``profile``: the profile judging, a TOML file's included)."""
    if stored is None:
        violations, unverifiable, assumptions = result.violations, result.unverifiable, result.assumptions
        if cross_hand is not None:  # completed as an import or `audit --rules` stores it
            whole = complete(Findings(violations, unverifiable, assumptions), cross_hand, profiles_with(profile))
            # (in the order a stored judgement is read: by line and code)
            violations = tuple(sorted(whole.violations, key=lambda v: (v.line, v.code)))
            unverifiable, assumptions = whole.unverifiable, whole.assumptions
    else:
        own = findings_of_rows(hand.site, hand.hand_id, hand.source.file, stored.violations, stored.unverifiable,
                               stored.assumptions)
        violations, unverifiable, assumptions = own.violations, own.unverifiable, own.assumptions
    decided = verdict(bool(violations), bool(unverifiable), conflicted)
    return replace(result, verdict=decided, violations=violations, unverifiable=unverifiable, assumptions=assumptions)


def with_judged_stakes(hand: Hand, values: Mapping[Bet, tuple[int | None, StakeSource]]) -> Hand:
    """``hand`` with the forced bets the cross-hand pass judged it with (its judgement's ``values``: bet ->
    value and tier) in place of the stored ones."""
    stakes = hand.stakes
    for bet, (value, source) in values.items():
        if bet == "ante":
            stakes = replace(stakes, ante=value, ante_source=source)
        elif bet == "bring_in":
            stakes = replace(stakes, bring_in=value, bring_in_source=source)
    return replace(hand, stakes=stakes)

def _side(row: dict[str, object], which: str) -> CopySide:
    text = row.get(f"{which}_text") or ""
    site = row.get("site") if which == "first" else row.get("second_site")
    hand_id = row.get("hand_id") if which == "first" else row.get("second_hand_id")
    return CopySide(str(row[f"{which}_file"]), int(str(row[f"{which}_first_line"])), int(str(row[f"{which}_last_line"])),
                    str(row[f"{which}_sha256"]), str(site), str(hand_id), tuple(text_lines(str(text))))


def _table_words(store: Store, hand: Hand) -> dict[str, str]:
    """How many other stored hands share the hand's table and stakes, and the forced bets most of them carry."""
    place = hand.tournament_id if hand.stakes.is_tournament else hand.table_name
    if place is None:
        return {}
    count, ante, bring_in = table_neighbours(
        store, site=hand.site, hand_id=hand.hand_id, origin_site=hand.origin_site or hand.site,
        in_tournament=hand.stakes.is_tournament, place=place, small_bet=hand.stakes.small_bet,
        big_bet=hand.stakes.big_bet, currency=hand.stakes.currency)
    where = f"{'tournament' if hand.stakes.is_tournament else 'table'} '{place}'"
    if not count:
        return {"ante": f"no other hand at {where} is stored", "bring-in": f"no other hand at {where} is stored"}
    others = f"{count} other stored hand{'s' if count != 1 else ''} at {where}"
    words = {}
    for what, value in (("ante", ante), ("bring-in", bring_in)):
        carried = format_money(int(value), hand.stakes.unit, hand.stakes.currency) if value is not None else None
        words[what] = others + (f"; most of them carry {carried}" if carried is not None else "")
    return words


def cross_hand_in_memory(store: Store, hand: Hand, profile: str,
                         desk: UserStructures | None = None) -> BetJudgement | None:
    """The cross-hand pass's judgement of the stored hand's forced bets under ``profile``, by the same
    functions an `audit --rules` runs (the store's evidence, :func:`hhtool.replay.table_pass.judge_bets`), held in
    memory, not saved (a read-only store keeps its scratch tables in memory); None when the pass has
    nothing to judge (the history states both forced bets)."""
    try:
        where, params = HandFilter(sites=(hand.site,), hand_id=hand.hand_id).sql()
        if not evidence_of.choose(store, where, params, profile):
            return None
        evidence = evidence_of.gather(store, 0, 1)
        return judge_bets([HandRow(*values) for values in evidence.hands], evidence.tables,
                          lambda levels: evidence_of.level_patterns(store, levels), desk)[0]
    finally:
        evidence_of.drop_scratch(store)


def stored_facts(store: Store, hand: Hand, profile: str, desk: UserStructures | None = None) -> StoredFacts:
    """What the store knows of the hand under ``profile``: its judgement of record, or, never judged under
    it or with the user's structures file (``desk``), the cross-hand pass worked out in memory."""
    where, params = HandFilter(sites=(hand.site,), hand_id=hand.hand_id).sql()
    copies = tuple(CopyView(_side(row, "first"), _side(row, "second"), str(row["kind"]), str(row["diff"]))
                   for row in conflicts_of(store, where, params))
    # (a structures file given to a view judges the hand again with it: the stored judgement may predate it)
    judgement = stored_judgement(store, hand.site, hand.hand_id, profile) if desk is None else None
    cross_hand = cross_hand_in_memory(store, hand, profile, desk) if judgement is None else None
    return StoredFacts(judgement, _table_words(store, hand), copies, cross_hand)
