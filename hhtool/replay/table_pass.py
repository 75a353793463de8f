"""The cross-hand pass as a plugin: evidence in, judgements out.

Like a beancount plugin it sees many hands at once and owns its findings. Its caller
(:mod:`hhtool.ingest.cross_hand`) asks the store for the evidence of a slice of hands as plain rows (each
hand's forced posts and stored findings, how the hands of its table posted theirs) and hands it
to :func:`judge_slice`, which asks back (``level_patterns``) for the levels no table decides, judges
every hand's forced bets (:mod:`hhtool.replay.forced_bets`) and returns each hand's whole
:class:`~hhtool.replay.judgement.Judgement` (:func:`hhtool.replay.judgement.complete`): its findings,
the assumptions (a forced bet adopted from the hand's own postings where no source states it), the
stakes it is judged with, the notes, and its verdict by the one verdict rule. The store replaces the
hand's judgement with it whole.

The rows are read through the protocols below (what the pass reads of them), so that neither the
store nor the replay imports the other.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from hhtool.model import StakeSource, Structure
from hhtool.replay.codes import Code
from hhtool.replay.forced_bets import (
    ANTE_BY_CONTEXT,
    BRING_IN_BY_CONTEXT,
    Bet,
    HandPosts,
    Post,
    TablePlace,
    judge_forced_bets,
    open_levels,
    strict_majority,
    vote_of_amounts,
)
from hhtool.replay.forced_bets import Judgement as BetJudgement
from hhtool.replay.judgement import Findings, Judgement, ProfileOf, built_in_profile, complete, findings_of_rows
from hhtool.replay.structures import LevelKey
from hhtool.replay.user_structures import UserStructures

#: the replay's placeholder findings (check code, reason), left until the pass judges the hand
PLACEHOLDERS: tuple[tuple[str, str], ...] = ((Code.ANTE.value, ANTE_BY_CONTEXT),
                                             (Code.BRING_IN_AMOUNT.value, BRING_IN_BY_CONTEXT))
#: (the forced bet as the store's actions name it, the code of the pass's findings on it)
OWNED_CODES: tuple[tuple[str, str], ...] = tuple((bet.value, bet.code.value) for bet in Bet)


@dataclass(slots=True)
class HandRow:
    """One hand to judge, as its store gives it (``hhtool.store.forced_bets.HAND_FIELDS``: the same
    fields, in this order): where it was dealt, the sources of its forced bets, its forced posts in
    order, the dealt-in players who posted no ante, the findings and assumptions stored for it."""

    hk: int
    site: str
    hand_id: str
    dealt_by: str
    file: str
    profile: str
    table_name: str | None
    tournament_id: str | None
    is_tournament: bool
    small_bet: int | None
    big_bet: int | None
    currency: str
    unit: int
    structure: str
    table: str | None
    level: str
    private: bool
    ante_source: str
    bring_in_source: str
    posts: list[tuple[str, str, int, int, bool]]  # (kind, player, amount, line, all-in), in order
    unanted: list[tuple[str, int]]
    violations: list[tuple[Any, ...]]  # (code, street, player, expected, actual, message, file, line)
    unverifiable: list[tuple[Any, ...]]  # (check_code, reason, line)
    assumptions: list[tuple[Any, ...]]  # (kind, value, words, line)


K = TypeVar("K")

#: the table places and levels made so far, by the values they are made of (shared: they are frozen)
Places = dict[tuple[Any, ...], tuple[TablePlace, LevelKey]]

#: (table or level key, kind) -> (amounts of a hand's posts not all-in, whether it posted, how many hands)
Patterns = Mapping[tuple[str, str], Sequence[tuple[tuple[int, ...], bool, int]]]


def judge_bets(hands: Sequence[HandRow], tables: Patterns,
               level_patterns: Callable[[Iterable[str]], Patterns], desk: UserStructures | None = None,
               ) -> list[BetJudgement]:
    """Judge the forced bets of ``hands`` against their tables' posts (``tables``) and, where a table
    does not decide, their levels' (asked of ``level_patterns`` by level key); ``desk``: the user's
    structures file, which outranks both."""
    places: Places = {}  # (a table's hands share its values)
    posts = [hand_posts(row, places) for row in hands]
    table_tallies = tallies(tables, lambda key: key)
    level_keys = {hand.level: row.level for hand, row in zip(posts, hands, strict=True)}
    by_key = {key: level for level, key in level_keys.items()}
    wanted = open_levels(posts, table_tallies)
    level_tallies = tallies(level_patterns(level_keys[level] for level in wanted), by_key.__getitem__)
    return judge_forced_bets(posts, table_tallies, level_tallies, desk=desk)


def judge_slice(hands: Sequence[HandRow], tables: Patterns,
                level_patterns: Callable[[Iterable[str]], Patterns], desk: UserStructures | None = None,
                profiles: ProfileOf = built_in_profile) -> list[Judgement]:
    """Each hand's whole judgement: its stored findings completed by the pass (:func:`complete`; ``profiles``:
    the profiles by name, a TOML file's the import or audit loaded among them)."""
    return [complete(stored_findings(row), bets, profiles)
            for row, bets in zip(hands, judge_bets(hands, tables, level_patterns, desk), strict=True)]


def stored_findings(row: HandRow) -> Findings:
    """A hand's findings and assumptions as its store gives them."""
    return findings_of_rows(row.site, row.hand_id, row.file, row.violations, row.unverifiable, row.assumptions)


def hand_posts(row: HandRow, places: Places | None = None) -> HandPosts:
    """A stored hand as the pass judges it; ``places``: the table places and levels made so far, by their
    values, shared (they are frozen) by the hands of one table rather than made again for each."""
    values = (row.table_name, row.tournament_id, row.is_tournament, row.small_bet, row.big_bet, row.currency,
              row.unit, row.structure, row.dealt_by)
    made = places.get(values) if places is not None else None
    if made is None:
        made = (TablePlace(row.table_name, row.tournament_id, bool(row.is_tournament), row.small_bet, row.big_bet,
                           row.currency, row.unit, Structure(row.structure)),
                LevelKey(row.dealt_by, (row.tournament_id or "") if row.is_tournament else None, row.currency,
                         row.structure, row.small_bet, row.big_bet))
        if places is not None:
            places[values] = made
    place, level = made
    stated = frozenset(bet for bet, source in ((Bet.ANTE, row.ante_source), (Bet.BRING_IN, row.bring_in_source))
                       if source == StakeSource.HEADER)
    antes: list[Post] = []
    bring_ins: list[Post] = []
    for kind, player, amount, line, all_in in row.posts:
        (antes if kind == Bet.ANTE else bring_ins).append(Post(player, amount, line, all_in))
    ante_vote = vote_of_amounts(Bet.ANTE, [post.amount for post in antes if not post.all_in], bool(antes))
    bring_in_vote = vote_of_amounts(Bet.BRING_IN, [post.amount for post in bring_ins if not post.all_in], bool(bring_ins))
    return HandPosts(row.hk, row.site, row.hand_id, row.file, row.profile, place, row.table, level, bool(row.private),
                     stated, tuple(antes), tuple(bring_ins), tuple(row.unanted), ante_vote, bring_in_vote)


@dataclass(frozen=True, slots=True)
class JudgedAlone:
    """A hand judged without its table (in an import's worker, :func:`judge_alone`): its whole judgement,
    which is the pass's own as long as each forced bet it judged has, at the hand's table, the strict
    majority ``ante`` (``bring_in``) with at least two hands voting it (the hand's own vote and one
    other's); None: that bet is not judged (stated by the header, or no bring-in posted)."""

    judgement: Judgement
    ante: int | None
    bring_in: int | None


def judge_alone(row: HandRow, profiles: ProfileOf = built_in_profile, places: Places | None = None) -> JudgedAlone | None:
    """A hand's judgement before its table's votes are known, where it cannot depend on them beyond their
    majority: the hand is judged (:func:`judge_forced_bets`, as the pass does) against a table whose only
    other vote agrees with its own. Taken only where that judges each forced bet by the table with the
    hand's own vote and finds nothing, no note, no assumption: the words of those count the table's hands,
    and any other tier's answer depends on other tables. Then the table's strict majority decides alone
    (the pass's other tiers are not asked once the table answers, and only a note would read the farther
    ones); :func:`confirmed_alone` checks it in the batch's transaction. None: the pass judges the hand
    (no table, no vote of its own, a finding, a note, an assumption, or nothing of it to judge)."""
    if row.table is None:
        return None
    hand = hand_posts(row, places)
    votes = {bet: hand.vote(bet) for bet in Bet}
    tables = {(row.table, bet): {vote: 2} for bet, vote in votes.items() if vote is not None}
    (bets,) = judge_forced_bets([hand], tables, {})
    if (not bets.judged or bets.violations or bets.unverifiable or bets.notes or bets.assumptions
            or any(bets.values.get(bet) != (votes[bet], StakeSource.CONTEXT) for bet in bets.judged)):
        return None
    return JudgedAlone(complete(stored_findings(row), bets, profiles),
                       votes[Bet.ANTE] if Bet.ANTE in bets.judged else None,
                       votes[Bet.BRING_IN] if Bet.BRING_IN in bets.judged else None)


def confirmed_alone(with_batch: Patterns, alone: Iterable[tuple[int, str | None, int | None, int | None]]) -> list[int]:
    """Of hands judged alone (:func:`judge_alone`), given as (key, table key, ante, bring-in), those whose
    table (``with_batch``: how all its hands posted, theirs included) has for each forced bet they judged
    the strict majority they were judged by, voted by two hands or more: the pass would judge them the same."""
    known = _Majorities(tallies(with_batch, lambda key: key))
    confirmed = []
    for hk, table, ante, bring_in in alone:
        if table is None or (ante is None and bring_in is None):
            continue
        if all(vote is None or known.holds(table, bet, vote) for bet, vote in ((Bet.ANTE, ante), (Bet.BRING_IN, bring_in))):
            confirmed.append(hk)
    return confirmed


class _Majorities:
    """Each table's strict majority per forced bet, worked out once for the hands of a batch."""

    def __init__(self, found: dict[tuple[str, Bet], Counter[int]]) -> None:
        self.found = found
        self.majorities: dict[tuple[str, Bet], tuple[int, int, int] | None] = {}

    def holds(self, table: str, bet: Bet, vote: int) -> bool:
        key = (table, bet)
        if key not in self.majorities:
            self.majorities[key] = strict_majority(self.found.get(key, Counter()))
        majority = self.majorities[key]
        return majority is not None and majority[0] == vote and majority[1] >= 2


def settled_tables(with_batch: Patterns, batch: Patterns) -> set[str]:
    """The tables (by key) at which a batch of hands (``batch``: how they posted) leaves each forced bet's
    strict majority the value it was without them (``with_batch``: how all the table's hands posted).
    A hand there judged by that majority, with no finding and no note of the pass (the words of those
    count the table's hands), is judged the same with or without the batch: the import need not judge
    it again (``hhtool.store.forced_bets.choose``)."""
    after = tallies(with_batch, lambda key: key)
    added = tallies(batch, lambda key: key)
    settled: set[str] = set()
    for key in {key for key, _ in after}:
        same = True
        for bet in Bet:
            now = after.get((key, bet), Counter())
            before = now - added.get((key, bet), Counter())
            was, is_ = strict_majority(before), strict_majority(now)
            same = same and was is not None and is_ is not None and was[0] == is_[0]
        if same:
            settled.add(key)
    return settled


def tallies(patterns: Patterns, key_of: Callable[[str], K]) -> dict[tuple[K, Bet], Counter[int]]:
    """Each table's or level's votes (by ``key_of`` its key): how many of its hands voted each value."""
    found: dict[tuple[K, Bet], Counter[int]] = {}
    for (key, kind), seen in patterns.items():
        bet = Bet(kind)
        for amounts, posted, hands in seen:
            vote = vote_of_amounts(bet, amounts, posted)
            if vote is not None:
                found.setdefault((key_of(key), bet), Counter())[vote] += hands
    return found


__all__ = ["OWNED_CODES", "PLACEHOLDERS", "HandRow", "JudgedAlone", "Patterns", "Places", "confirmed_alone", "hand_posts",
           "judge_alone", "judge_bets", "judge_slice", "settled_tables", "stored_findings", "tallies"]
