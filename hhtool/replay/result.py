"""What a replay returns: the verdict, every violation with its source line, the checks that could
not run and why, the rules' award beside the site's, and the pots for the dispute view."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from hhtool.evaluation import HighHand, LowHand
from hhtool.replay.codes import Code


class Verdict(StrEnum):
    OK = "ok"
    VIOLATION = "violation"
    UNVERIFIABLE = "unverifiable"


@dataclass(frozen=True, slots=True)
class Violation:
    site: str
    hand_id: str
    code: Code
    street: int | None  # 3..7; None for hand-level findings
    player: str | None
    expected: str
    actual: str
    message: str
    file: str
    line: int


@dataclass(frozen=True, slots=True)
class Unverifiable:
    """A check that could not decide, and why. ``line`` is the file line of the cause (the bring-in,
    the unreadable summary line), like :attr:`Violation.line`; ``None`` when the cause is the whole
    hand (a stake the history never states)."""

    check: Code
    reason: str
    line: int | None = None


class AssumedKind(StrEnum):
    """A parameter of the rules a judgement may have to adopt from the hand itself."""

    ANTE = "ante"
    BRING_IN = "bring_in"
    RAKE = "rake"


@dataclass(frozen=True, slots=True)
class Assumption:
    """A parameter of the rules that no source states (neither the history, nor the table's or the
    site's other hands, nor a structure), adopted from what the hand's own postings agree on, so
    that the hand is judged with it instead of left unverifiable. ``words`` says it in plain words
    ("ante 5, as all six players posted; the history does not state the level's ante"); ``line`` is
    the file line of the postings that give it (None: the whole hand, e.g. the rake)."""

    kind: AssumedKind
    value: int
    words: str
    line: int | None = None


@dataclass(frozen=True, slots=True)
class PlayerAward:
    """What the rules award a player beside what the site paid him (returned uncalled bets
    included on both sides only when the site reports them inside its awards)."""

    player: str
    rules_amount: int
    site_amount: int

    @property
    def difference(self) -> int:
        return self.site_amount - self.rules_amount


@dataclass(frozen=True, slots=True)
class ShowdownHand:
    """A contender's best hands as the rules evaluate them (``None`` = cards not known)."""

    player: str
    high: HighHand | None
    low: LowHand | None
    known: bool


@dataclass(frozen=True, slots=True)
class PotResult:
    """One pot as the rules settle it. ``index`` 0 is the main pot, N the N-th side pot."""

    index: int
    amount: int  # chips in the pot before rake
    rake_share: int  # rake (and fees) taken from this pot
    eligible: tuple[str, ...]  # live players whose chips reach this pot, position order
    contenders: tuple[str, ...]  # eligible players who did not muck
    high_shares: tuple[tuple[str, int], ...]  # (player, amount) for the high half (or the whole pot)
    low_shares: tuple[tuple[str, int], ...]  # (player, amount) for the low half; () when not split
    split: bool  # True when the pot was divided into a high and a low half
    decided: bool  # False when hidden cards keep the rules from deciding it
    notes: tuple[str, ...] = ()  # odd-unit assignments and other remarks

    @property
    def net(self) -> int:
        return self.amount - self.rake_share

    @property
    def name(self) -> str:
        return "main pot" if self.index == 0 else f"side pot {self.index}"


@dataclass(frozen=True, slots=True)
class BettingFacts:
    """What the replay engine found of the betting, stored so that reports read it instead of
    deriving it again: per action (indexed like ``hand.actions``), the chips the player had to add
    to match the street's bet before it and how many times the bet had been raised on the street
    before it (completion, bets and raises; the bring-in is not one) and the pot before it; the pot
    at the end of each betting round (``(street, pot)``, once the rules returned what nobody called);
    and who was dealt in."""

    to_call: tuple[int, ...]
    level_before: tuple[int, ...]
    pot_before: tuple[int, ...]
    pot_after_round: tuple[tuple[int, int], ...]
    dealt_in: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ReplayResult:
    verdict: Verdict
    violations: tuple[Violation, ...]
    unverifiable: tuple[Unverifiable, ...]
    awards: tuple[PlayerAward, ...]
    pots: tuple[PotResult, ...]
    hands: tuple[ShowdownHand, ...] = ()
    betting: BettingFacts | None = None  # None: the walk did not finish (an internal error)
    assumptions: tuple[Assumption, ...] = ()  # parameters adopted from the hand's own postings

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(violation.code for violation in self.violations)


class VerdictFact(StrEnum):
    """What the verdict rule reads of a hand."""

    CONFLICTED = "conflicted"  # another stored copy of the hand differs from it
    VIOLATED = "violated"  # its replay (cross-hand pass included) found a violation
    UNVERIFIED = "unverified"  # a check could not decide


#: The verdict rule, the one place it is written: the first fact that holds decides, and a hand none of
#: them holds for is ok. A hand with a conflicting copy is a violation whatever its replay says (the
#: copy judged may be the edited one). :func:`verdict` applies it in Python, :func:`verdict_sql` renders
#: it as SQL for the queries over stored hands.
VERDICT_RULE: tuple[tuple[VerdictFact, Verdict], ...] = (
    (VerdictFact.CONFLICTED, Verdict.VIOLATION),
    (VerdictFact.VIOLATED, Verdict.VIOLATION),
    (VerdictFact.UNVERIFIED, Verdict.UNVERIFIABLE),
)
#: the verdict when no fact of the rule holds
OTHERWISE = Verdict.OK


def verdict(violated: bool, unverified: bool, conflicted: bool = False) -> Verdict:
    """The verdict of a hand by :data:`VERDICT_RULE`.

    >>> verdict(False, True), verdict(False, True, conflicted=True), verdict(False, False)
    (<Verdict.UNVERIFIABLE: 'unverifiable'>, <Verdict.VIOLATION: 'violation'>, <Verdict.OK: 'ok'>)
    """
    holds = {VerdictFact.CONFLICTED: conflicted, VerdictFact.VIOLATED: violated, VerdictFact.UNVERIFIED: unverified}
    for fact, decided in VERDICT_RULE:
        if holds[fact]:
            return decided
    return OTHERWISE


def verdict_of(violations: tuple[Violation, ...], unverifiable: tuple[Unverifiable, ...]) -> Verdict:
    """A replay's verdict: :func:`verdict` of its findings (a conflicting copy is the store's to know)."""
    return verdict(bool(violations), bool(unverifiable))


def verdict_sql(violated: str, unverified: str, conflicted: str | None = None, otherwise: str | None = None) -> str:
    """:data:`VERDICT_RULE` as a SQL ``CASE`` expression, each fact given as a SQL condition (``conflicted``
    None: a replay's verdict alone, as ``hands.verdict`` stores it); ``otherwise``, a SQL expression for
    the hands no fact holds for (default: the text of :data:`OTHERWISE`).

    >>> verdict_sql("v", "u", "c")
    "CASE WHEN c THEN 'violation' WHEN v THEN 'violation' WHEN u THEN 'unverifiable' ELSE 'ok' END"
    """
    conditions = {VerdictFact.CONFLICTED: conflicted, VerdictFact.VIOLATED: violated, VerdictFact.UNVERIFIED: unverified}
    whens = " ".join(f"WHEN {conditions[fact]} THEN '{decided.value}'" for fact, decided in VERDICT_RULE
                     if conditions[fact] is not None)
    return f"CASE {whens} ELSE {otherwise if otherwise is not None else repr(OTHERWISE.value)} END"


def stored_verdict_sql(column: str, conflicted: str, not_replayed: str) -> str:
    """The verdict of a stored hand as SQL: :func:`verdict_sql` with the replay's facts read from its
    stored verdict (``column``, e.g. ``h.verdict``: NULL when the hand was stored without a replay, then
    ``not_replayed`` unless the conflicting-copy fact holds)."""
    return verdict_sql(violated=f"{column} = '{Verdict.VIOLATION.value}'",
                       unverified=f"{column} = '{Verdict.UNVERIFIABLE.value}'", conflicted=conflicted,
                       otherwise=f"coalesce({column}, '{not_replayed}')")


