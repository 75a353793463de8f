"""What a replay returns: the verdict, every violation with its source line, the checks that could
not run and why, the rules' award beside the site's, and the pots for the dispute view."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from hhtool.evaluation import HighHand, LowHand
from hhtool.model import pickled_by_constructor
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

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(violation.code for violation in self.violations)


def verdict_of(violations: tuple[Violation, ...], unverifiable: tuple[Unverifiable, ...]) -> Verdict:
    if violations:
        return Verdict.VIOLATION
    if unverifiable:
        return Verdict.UNVERIFIABLE
    return Verdict.OK


# frozen: see hhtool.model.pickled_by_constructor
pickled_by_constructor(Violation, Unverifiable, PlayerAward, ShowdownHand, PotResult, BettingFacts, ReplayResult)
