"""The forced bets judged across hands: the cross-hand pass of the replay.

Most sites state the small and big bet but not the ante or the bring-in. A hand's own posts are
then its claim (:class:`~hhtool.model.StakeSource` ``posted``), never judged against themselves.
Each forced bet a history does not state is learnt from the nearest source that answers:

1. the hand's header (stated by the site: the replay judges it, this pass leaves it alone);
   then the desk's own **structures file** (``--structures``, :mod:`hhtool.replay.user_structures`)
   where it names the level (``user``): stated by those who run the tables, it outranks every vote;
2. the other hands of its **table** (``context``): a strict majority of the table's hands, the hand
   itself included, supported by at least one other hand;
3. the same **site's other tables** at the same game level (cash: currency, structure and bets;
   a tournament: the same tournament and level) (``site``): a strict majority of their hands,
   supported by two of them or by the hand's own post (one other hand never accuses alone);
4. the site's **structures table** shipped with hhtool (:mod:`hhtool.replay.structures`), each row
   citing the public histories it was read from (``structure``), unless its only evidence is the
   hand itself.

A home game or private table takes only tiers 1–2: its host sets its structure. Where a farther
tier answers with another value than the one judging the hand, the disagreement is recorded as a
note of its own (:attr:`NoteTopic.STRUCTURE_DIFFERS`), never as a violation: a site may run two
structures at one level, or change it over the years.

Where no tier answers, the rules that need no context still judge the hand (R2: every dealt-in
player posts the same ante; R4: the bring-in is below the small bet). What they leave open is only
the level's posted structure, which cannot change who is owed what: the judgement adopts the value
the hand's own postings agree on as an :class:`~hhtool.replay.result.Assumption` named in plain words
("ante $0.05, as all 6 players dealt in posted it; …"), never an unverifiable check.

The store gathers each judged hand's posts and how the hands of the tables and levels concerned
posted, as plain rows; :mod:`hhtool.replay.table_pass` makes them :class:`HandPosts` and votes
(:class:`Tally`), calls :func:`judge_forced_bets` and returns the :class:`Judgement` as rows the store
saves; the store decides nothing. The replay of a single hand uses :func:`in_hand_ante_findings` for the posts alone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import NamedTuple

from hhtool.model import StakeSource, Street, Structure
from hhtool.money import format_money
from hhtool.replay.codes import Code
from hhtool.replay.result import AssumedKind, Assumption, Unverifiable, Violation
from hhtool.replay.structures import LevelKey, StructureRow, site_name, structure_for
from hhtool.replay.user_structures import UserStructures

#: the finding of a hand whose ante the history does not state, until the cross-hand pass judges it
ANTE_BY_CONTEXT = "the site does not state the ante and no table context is known for this hand"
#: the same for the bring-in
BRING_IN_BY_CONTEXT = "the site does not state the bring-in and no table context is known for this hand"


class Bet(StrEnum):
    """A forced bet, named as the store's actions name it."""

    ANTE = "ante"
    BRING_IN = "bring_in"

    @property
    def code(self) -> Code:
        return Code.ANTE if self is Bet.ANTE else Code.BRING_IN_AMOUNT

    @property
    def words(self) -> str:
        return "ante" if self is Bet.ANTE else "bring-in"

    @property
    def verb(self) -> str:
        return "anted" if self is Bet.ANTE else "brought in for"

    @property
    def assumed(self) -> AssumedKind:
        return AssumedKind.ANTE if self is Bet.ANTE else AssumedKind.BRING_IN


class Post(NamedTuple):
    """One forced bet as posted: all-in when flagged or when it took the player's whole stack. (A named
    tuple, immutable as a frozen dataclass and made 3x as fast: every post of every hand judged is one.)"""

    player: str
    amount: int
    line: int
    all_in: bool


@dataclass(frozen=True, slots=True)
class TablePlace:
    """What a finding says of a hand's table and money."""

    name: str | None
    tournament_id: str | None
    is_tournament: bool
    small_bet: int | None
    big_bet: int | None
    currency: str
    unit: int
    structure: Structure

    def money(self, amount: int) -> str:
        return format_money(amount, self.unit, self.currency)

    @property
    def bets(self) -> str:
        return "/".join("?" if bet is None else self.money(bet) for bet in (self.small_bet, self.big_bet))

    @property
    def words(self) -> str:
        if self.is_tournament:
            return f"tournament {self.tournament_id} at {self.bets}"
        return f"table '{self.name}' ({self.bets})"

    @property
    def level_words(self) -> str:
        if self.is_tournament:
            return f"tournament {self.tournament_id} at {self.bets}"
        return f"{self.bets} {self.currency}"


@dataclass(frozen=True, slots=True)
class HandPosts:
    """What the store holds of one hand to judge: its forced bets, who was dealt in without an ante,
    which values its header states, its table and level, and its own votes (see :func:`vote_of`)."""

    key: int  # the store's hand key
    site: str
    hand_id: str
    file: str
    profile: str
    place: TablePlace
    table: str | None  # the table's key (None: the history names neither table nor tournament)
    level: LevelKey
    private: bool  # a home game or private table
    stated: frozenset[Bet]  # the forced bets the header states (judged by the replay, not here)
    antes: tuple[Post, ...]
    bring_ins: tuple[Post, ...]
    unanted: tuple[tuple[str, int], ...]  # dealt-in players who posted no ante: (player, seat line)

    ante_vote: int | None = None  # vote_of(Bet.ANTE, antes), given by the maker (read for every tier)
    bring_in_vote: int | None = None

    def posts(self, bet: Bet) -> tuple[Post, ...]:
        return self.antes if bet is Bet.ANTE else self.bring_ins

    def vote(self, bet: Bet) -> int | None:
        return self.ante_vote if bet is Bet.ANTE else self.bring_in_vote


def vote_of(bet: Bet, posts: Sequence[Post]) -> int | None:
    """A hand's vote on a forced bet: the ante most of its players posted when not all-in (0 when it
    posts no ante at all), the bring-in when not all-in; None: no vote (every post all-in).

    >>> vote_of(Bet.ANTE, [Post("a", 1, 1, False), Post("b", 1, 2, False), Post("c", 2, 3, False)])
    1
    >>> vote_of(Bet.ANTE, []), vote_of(Bet.BRING_IN, [Post("a", 2, 5, True)])
    (0, None)
    """
    return vote_of_amounts(bet, [post.amount for post in posts if not post.all_in], bool(posts))


def vote_of_amounts(bet: Bet, amounts: Iterable[int], posted: bool) -> int | None:
    """:func:`vote_of` from the amounts of a hand's posts that were not all-in and whether it posted at all.

    >>> vote_of_amounts(Bet.ANTE, [2, 1, 1], True), vote_of_amounts(Bet.ANTE, [], False)
    (1, 0)
    """
    if bet is Bet.ANTE and not posted:
        return 0
    counted = Counter(amounts)
    if not counted:
        return None
    if bet is Bet.BRING_IN:
        return min(counted)
    return min(counted.items(), key=lambda item: (-item[1], item[0]))[0]


#: votes per amount, of the hands of one table or one level
Tally = Mapping[int, int]


@dataclass(frozen=True, slots=True)
class Answer:
    """A tier's value for a forced bet and how a finding names its evidence (``who``, made only when a
    finding or a note needs the words: formatting them for every hand was most of the pass's time)."""

    value: int
    source: StakeSource
    who: Callable[[], str]  # "11 other hands at table 'X' ($0.04/$0.08)", "the PokerStars structure for …"


#: why a tier has no answer, in words made when they are needed
Reason = Callable[[], str]


@dataclass
class Judgement:
    """What the pass decided of one hand under one profile: the forced bets it owns (``judged``), the
    value each is judged with and its tier, the findings, and the notes on tiers that disagree."""

    key: int
    site: str
    hand_id: str
    profile: str
    judged: set[Bet] = field(default_factory=set)
    values: dict[Bet, tuple[int | None, StakeSource]] = field(default_factory=dict)
    violations: list[Violation] = field(default_factory=list)
    unverifiable: list[Unverifiable] = field(default_factory=list)
    notes: list[tuple[str, int | None]] = field(default_factory=list)
    assumptions: list[Assumption] = field(default_factory=list)


#: the votes of a table's hands (by table key) and of a level's hands over all its tables
TableTallies = Mapping[tuple[str, Bet], Tally]
LevelTallies = Mapping[tuple[LevelKey, Bet], Tally]


def judge_forced_bets(hands: Iterable[HandPosts], tables: TableTallies, levels: LevelTallies,
                      structures: Callable[[LevelKey], StructureRow | None] = structure_for,
                      desk: UserStructures | None = None) -> list[Judgement]:
    """Judge each hand's forced bets the header does not state, against the nearest tier that answers
    (``desk``: the user's structures file, the nearest after the header)."""
    judgements = []
    known = _Tallies(tables)
    for hand in hands:
        judgement = Judgement(hand.key, hand.site, hand.hand_id, hand.profile)
        for bet in Bet:
            if bet in hand.stated or (bet is Bet.BRING_IN and not hand.bring_ins):
                continue
            judgement.judged.add(bet)
            _judge_bet(hand, bet, _tiers(hand, bet, known, levels, structures, desk), judgement)
        judgements.append(judgement)
    return judgements


def open_levels(hands: Iterable[HandPosts], tables: TableTallies) -> set[LevelKey]:
    """The levels of the hands whose table leaves one of their forced bets open: the store gathers their votes."""
    known = _Tallies(tables)
    return {hand.level for hand in hands if any(_table_answer(hand, bet, known) is None for bet in Bet
                                                 if bet not in hand.stated)}


class _Tallies:
    """A table's votes with their strict majority worked out once (not once per hand of the table)."""

    def __init__(self, tallies: TableTallies) -> None:
        self.tallies = tallies
        self.majorities: dict[tuple[str, Bet], tuple[int, int, int] | None] = {}

    def get(self, key: tuple[str, Bet]) -> Tally:
        return self.tallies.get(key, {})

    def majority(self, key: tuple[str, Bet]) -> tuple[int, int, int] | None:
        if key not in self.majorities:
            self.majorities[key] = strict_majority(self.get(key))
        return self.majorities[key]


def _tiers(hand: HandPosts, bet: Bet, tables: _Tallies, levels: LevelTallies,
           structures: Callable[[LevelKey], StructureRow | None],
           desk: UserStructures | None = None) -> Iterator[Answer | Reason]:
    """Each tier's answer, nearest first, or why it has none; the site's other tables are asked only
    when the table does not answer (their votes are gathered only then)."""
    if desk is not None:
        stated = desk.level(hand.level)
        value = None if stated is None else (stated.ante if bet is Bet.ANTE else stated.bring_in)
        if value is not None:
            yield Answer(value, StakeSource.USER, lambda: f"{desk.words} ({site_name(hand.level.site)} "
                         f"{hand.place.level_words})")
        else:
            yield lambda: f"{desk.words} names no {bet.words} for {site_name(hand.level.site)} {hand.place.level_words}"
    table = _table_answer(hand, bet, tables)
    yield table if table is not None else (lambda: _why_no_table(hand, bet, tables))
    if hand.private:
        return
    if table is None and not hand.place.is_tournament:  # (a tournament's level is its table: the tournament)
        yield _site_answer(hand, bet, tables, levels)
    row = structures(hand.level)
    value = None if row is None else (row.ante if bet is Bet.ANTE else row.bring_in)
    name = site_name(hand.level.site)
    if row is None or value is None:
        yield lambda: f"hhtool's structures table has no {name} row for {hand.place.level_words}"
    elif not row.independent_of(hand.hand_id):
        yield lambda: f"hhtool's {name} structure for {hand.place.level_words} was learnt from this hand alone"
    else:
        yield Answer(value, StakeSource.STRUCTURE, lambda: f"the {name} structure for {hand.place.level_words} ({row.evidence})")


def strict_majority(tally: Tally) -> tuple[int, int, int] | None:
    """(value, its votes, all votes) when one value has more than half the votes."""
    total = sum(tally.values())
    if not total:
        return None
    top, top_n = min(((v, n) for v, n in tally.items() if n > 0), key=lambda item: (-item[1], item[0]))
    return (top, top_n, total) if 2 * top_n > total else None


def _table_answer(hand: HandPosts, bet: Bet, tables: _Tallies) -> Answer | None:
    if hand.table is None:
        return None
    majority = tables.majority((hand.table, bet))
    if majority is None:
        return None
    top, top_n, _ = majority
    others_top = top_n - (hand.vote(bet) == top)
    if others_top < 1:
        return None
    return Answer(top, StakeSource.CONTEXT,
                  lambda: f"{others_top} other hand{'s' if others_top != 1 else ''} at {hand.place.words}")


def _why_no_table(hand: HandPosts, bet: Bet, tables: _Tallies) -> str:
    if hand.table is None:
        return f"the history names no {'tournament' if hand.place.is_tournament else 'table'}"
    others = Counter(tables.get((hand.table, bet)))
    own = hand.vote(bet)
    if own is not None:
        others[own] -= 1
    counts = [(vote, n) for vote, n in others.items() if n > 0]
    if not counts:
        return f"no other hand at {hand.place.words} is stored"
    return f"the other hands at {hand.place.words} do not agree on it: {_counts(bet, hand.place, dict(counts))}"


def _counts(bet: Bet, place: TablePlace, tally: Tally) -> str:
    """Votes in words, most first: "3 anted $0.01, 1 anted $0.02"."""
    ordered = sorted(((vote, n) for vote, n in tally.items() if n > 0), key=lambda item: (-item[1], item[0]))
    return ", ".join(f"{n} {bet.verb} {place.money(vote)}" for vote, n in ordered)


def _site_answer(hand: HandPosts, bet: Bet, tables: _Tallies, levels: LevelTallies) -> Answer | Reason:
    """The votes of the level's hands at other tables than the hand's."""
    others = Counter(levels.get((hand.level, bet), {}))
    if hand.table is not None:
        others.subtract(tables.get((hand.table, bet)))
    else:
        own = hand.vote(bet)
        if own is not None:
            others[own] -= 1
    others = Counter({vote: n for vote, n in others.items() if n > 0})
    where = f"the other {site_name(hand.level.site)} tables at {hand.place.level_words}"
    majority = strict_majority(others)
    if majority is None:
        if not others:
            return lambda: f"no hand of {where} is stored"
        return lambda: f"{where} do not agree on it: {_counts(bet, hand.place, others)}"
    top, top_n, _ = majority
    if top_n < 2 and hand.vote(bet) != top:
        return lambda: f"only one hand of {where} is stored"
    return Answer(top, StakeSource.SITE, lambda: f"{top_n} hand{'s' if top_n != 1 else ''} of {where}")


def _judge_bet(hand: HandPosts, bet: Bet, tiers: Iterator[Answer | Reason], judgement: Judgement) -> None:
    reasons: list[Reason] = []
    for tier in tiers:
        if not isinstance(tier, Answer):
            reasons.append(tier)
            continue
        judgement.values[bet] = (tier.value, tier.source)
        for farther in tiers:  # a farther source that disagrees: a note, not a finding
            if isinstance(farther, Answer) and farther.value != tier.value:
                judgement.notes.append((
                    f"the {bet.words} {hand.place.money(tier.value)} that {tier.who()} show differs from "
                    f"{hand.place.money(farther.value)} in {farther.who()}; the nearer source judges the hand", None))
        judgement.violations.extend(_against(hand, bet, tier))
        return
    own = next((post.amount for post in hand.posts(bet) if not post.all_in), None)
    judgement.values[bet] = (own, StakeSource.POSTED)
    found = list(_in_hand(hand, bet))
    judgement.violations.extend(found)
    if not found:
        judgement.assumptions.append(assumed_from_posts(hand, bet, "; ".join(reason() for reason in reasons)))


#: what separates an assumption's words from why no source answered (the player's copy leaves that out)
NO_SOURCE = ", nor does any other source: "


def assumed_from_posts(hand: HandPosts, bet: Bet, why: str = "") -> Assumption:
    """The forced bet no source states, adopted from the hand's own postings, which the in-hand rules
    found in agreement (every full ante alike, the bring-in below the small bet): a full post's
    amount, else (every post all-in) the largest all-in post as the least the level can be. ``why``:
    why no tier answered, said after :data:`NO_SOURCE`."""
    posts = hand.posts(bet)
    money = hand.place.money
    full = [post for post in posts if not post.all_in]
    line = min((post.line for post in posts), default=None)
    unstated = f"the history does not state the level's {bet.words}" + (f"{NO_SOURCE}{why}" if why else "")
    if bet is Bet.ANTE and not posts:
        return Assumption(bet.assumed, 0, f"no ante, as no player dealt in posted one; {unstated}", line)
    if full:
        value = full[0].amount
        if bet is Bet.BRING_IN:
            words = f"bring-in {money(value)}, as {full[0].player} brought in for it; {unstated}"
        else:
            players = len({post.player for post in full})
            every = {1: "the only player dealt in", 2: "both players dealt in"}.get(
                players, f"all {players} players dealt in")
            words = f"ante {money(value)}, as {every} posted it; {unstated}"
        return Assumption(bet.assumed, value, words, line)
    value = max(post.amount for post in posts)
    return Assumption(bet.assumed, value, f"{bet.words} at least {money(value)}, as the only posts were all-in for "
                      f"at most that; {unstated}", line)


def _violation(hand: HandPosts, bet: Bet, player: str | None, expected: str, actual: str, message: str,
               line: int) -> Violation:
    return Violation(hand.site, hand.hand_id, bet.code, int(Street.THIRD), player, expected, actual, message, hand.file, line)


def _not_below(hand: HandPosts) -> list[Violation]:
    """R4 in any case: a bring-in (not all-in) at or above the small (minimum) bet is no bring-in."""
    small = hand.place.small_bet
    if small is None:
        return []
    money = hand.place.money
    below = "small bet" if hand.place.structure is Structure.FIXED_LIMIT else "minimum bet"
    return [_violation(hand, Bet.BRING_IN, post.player, f"less than {money(small)}", money(post.amount),
                       f"{post.player} brought in for {money(post.amount)}, not below the {below} {money(small)}", post.line)
            for post in hand.bring_ins if not post.all_in and post.amount >= small]


def _twice(hand: HandPosts) -> list[Violation]:
    seen: set[str] = set()
    found = []
    for post in hand.antes:
        if post.player in seen:
            found.append(_violation(hand, Bet.ANTE, post.player, "one ante", "a second ante",
                                    f"{post.player} posted the ante twice", post.line))
        seen.add(post.player)
    return found


def _said(bet: Bet, answer: Answer, money: Callable[[int], str]) -> str:
    """What a tier says of a forced bet, for a finding."""
    if answer.source in (StakeSource.STRUCTURE, StakeSource.USER):
        return f"the {bet.words} is {money(answer.value)} by {answer.who()}"
    return f"{answer.who()} {bet.verb} {money(answer.value)}"


def _against(hand: HandPosts, bet: Bet, answer: Answer) -> list[Violation]:
    """The posts judged against a tier's value: a short all-in post is legal, more than the value never is."""
    money, top = hand.place.money, answer.value
    if bet is Bet.BRING_IN:
        found = _not_below(hand)
        no_bring_in = {(v.player, v.line) for v in found}
        for post in hand.bring_ins:
            if (post.player, post.line) not in no_bring_in and (post.amount > top or (not post.all_in and post.amount != top)):
                how = " all-in" if post.all_in else ""
                message = f"{post.player} brought in for {money(post.amount)}{how}; {_said(bet, answer, money)}"
                found.append(_violation(hand, bet, post.player, money(top), money(post.amount), message, post.line))
        return found
    found = _twice(hand)
    seen: set[str] = set()
    for post in hand.antes:
        if post.player in seen:
            continue
        seen.add(post.player)
        if post.amount > top or (not post.all_in and post.amount != top):
            how = " all-in" if post.all_in else ""
            found.append(_violation(hand, bet, post.player, money(top), money(post.amount),
                                    f"{post.player} anted {money(post.amount)}{how}; {_said(bet, answer, money)}", post.line))
    if top > 0:
        found += [_violation(hand, bet, player, money(top), "none", f"{player} was dealt in without posting an ante; "
                             f"{_said(bet, answer, money)}", line) for player, line in hand.unanted]
    return found


def _in_hand(hand: HandPosts, bet: Bet) -> list[Violation]:
    if bet is Bet.BRING_IN:
        return _not_below(hand)
    return _twice(hand) + [_violation(hand, bet, player, expected, actual, message, line) for
                           player, expected, actual, message, line in
                           in_hand_ante_findings(hand.antes, hand.unanted, hand.place.money)]


def in_hand_ante_findings(antes: Sequence[Post], unanted: Sequence[tuple[str, int]],
                          money: Callable[[int], str]) -> list[tuple[str | None, str, str, str, int]]:
    """R2 judged inside one hand, without its table: every dealt-in player posts the same ante (all-in
    for less excepted). A player who posts another amount than a strict majority of the others, or
    none while the others ante, breaks it; antes that differ with no majority break it too (which one
    is wrong needs the table). (player, expected, actual, message, line) per finding; a player's
    second ante is judged elsewhere.

    >>> m = lambda cents: f"${cents / 100:.2f}"
    >>> in_hand_ante_findings([Post("a", 1, 4, False), Post("b", 1, 5, False)], [("c", 3)], m)
    [('c', '$0.01', 'none', 'c was dealt in without posting an ante; the 2 other players dealt in anted $0.01', 3)]
    >>> in_hand_ante_findings([Post("a", 1, 4, False), Post("b", 1, 5, False), Post("c", 2, 6, False)], [], m)
    [('c', '$0.01', '$0.02', 'c anted $0.02; the 2 other players dealt in anted $0.01', 6)]
    >>> in_hand_ante_findings([Post("a", 1, 4, False), Post("b", 2, 5, False)], [], m)[0][3]
    'the antes differ: a anted $0.01, b anted $0.02'
    >>> in_hand_ante_findings([Post("a", 2, 4, False), Post("b", 1, 5, True)], [], m)
    []
    """
    firsts: dict[str, Post] = {}
    for post in antes:
        firsts.setdefault(post.player, post)
    full = [post for post in firsts.values() if not post.all_in]
    if not full:
        return []
    found: list[tuple[str | None, str, str, str, int]] = []
    amounts = Counter(post.amount for post in full)
    if len(amounts) > 1:
        top, top_n = min(amounts.items(), key=lambda item: (-item[1], item[0]))
        if 2 * top_n > len(full):
            for post in full:
                if post.amount != top:
                    found.append((post.player, money(top), money(post.amount), f"{post.player} anted {money(post.amount)}; "
                                  f"the {top_n} other player{'s' if top_n != 1 else ''} dealt in anted {money(top)}", post.line))
        else:
            said = ", ".join(f"{post.player} anted {money(post.amount)}" for post in full)
            found.append((None, "one ante for every player", "antes that differ", f"the antes differ: {said}",
                          max(post.line for post in full)))
        return found + [(player, "an ante", "none", f"{player} was dealt in without posting an ante, while the others "
                         "anted", line) for player, line in unanted]
    (ante, count), = amounts.items()
    if ante <= 0:
        return []
    return [(player, money(ante), "none", f"{player} was dealt in without posting an ante; the {count} other "
             f"player{'s' if count != 1 else ''} dealt in anted {money(ante)}", line) for player, line in unanted]


__all__ = [
    "ANTE_BY_CONTEXT",
    "BRING_IN_BY_CONTEXT",
    "NO_SOURCE",
    "Answer",
    "Bet",
    "HandPosts",
    "Judgement",
    "Post",
    "TablePlace",
    "assumed_from_posts",
    "in_hand_ante_findings",
    "judge_forced_bets",
    "open_levels",
    "strict_majority",
    "vote_of",
    "vote_of_amounts",
]
