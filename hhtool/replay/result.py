"""What a replay returns: the verdict, every violation with its source line, the checks that could
not run and why, the rules' award beside the site's, and the pots for the dispute view.

>>> from hhtool.model import Stakes
>>> format_money(37, Stakes(1, 2, 4, 8, "USD")), format_money(-1250, Stakes(5, 10, 20, 40, "EUR"))
('$0.37', '-€12.50')
>>> format_money(400, Stakes(5, 10, 20, 40, "CHIPS", unit=1))
'400'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from hhtool.model import Stakes
from hhtool.replay.evaluator import HighHand, LowHand

_SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£", "CAD": "C$"}

#: Every violation code, with the rule it enforces.
CODES: dict[str, str] = {
    "ANTE": "R2 antes",
    "BRING_IN_PLAYER": "R3 bring-in player",
    "BRING_IN_AMOUNT": "R4 bring-in amount",
    "ACTION_ORDER": "R7 opener and clockwise turn order",
    "ILLEGAL_ACTION": "R5/R9/R11 action not allowed in that situation",
    "BET_SIZE": "R5/R6/R11 bet, raise or call of the wrong size",
    "RAISE_CAP": "R8 raise cap",
    "STACK": "chips put in beyond the stack, or all-in with chips left",
    "ROUND_INCOMPLETE": "R9 betting round ended before everyone acted and matched",
    "CARDS": "R1/R17 cards dealt or shown",
    "POT_TOTAL": "R15 money conservation and stated total pot",
    "UNCALLED_BET": "R10 uncalled bet returned",
    "POT_AWARD": "R12–R14 pot award per player",
    "SHOWDOWN": "R13/R16 showdown winner",
    "RESTATED": "a fact the history states twice (cards, summary, amounts, hand descriptions) stated differently",
    "CONFLICTING_COPY": "another copy of this hand (same site and hand id) holds a different history",
}


class Verdict(StrEnum):
    OK = "ok"
    VIOLATION = "violation"
    UNVERIFIABLE = "unverifiable"


@dataclass(frozen=True, slots=True)
class Violation:
    site: str
    hand_id: str
    code: str
    street: int | None  # 3..7; None for hand-level findings
    player: str | None
    expected: str
    actual: str
    message: str
    file: str
    line: int


@dataclass(frozen=True, slots=True)
class Unverifiable:
    check: str
    reason: str


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


def format_money(amount: int, stakes: Stakes) -> str:
    """An amount as a person reads it: ``$0.08``, ``€12.50``, ``400`` (chips)."""
    sign = "-" if amount < 0 else ""
    value = abs(amount)
    if stakes.unit == 1:
        return f"{sign}{value}"
    digits = len(str(stakes.unit)) - 1
    symbol = _SYMBOLS.get(stakes.currency, "")
    whole, fraction = divmod(value, stakes.unit)
    text = f"{whole}.{fraction:0{digits}d}"
    return f"{sign}{symbol}{text}" if symbol else f"{sign}{text} {stakes.currency}"
