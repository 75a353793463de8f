"""What every check shares: the finding types, a violation builder that fills in the hand's
site, id and file, and money in words."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from hhtool.model import Hand, Street
from hhtool.money import format_money
from hhtool.replay.codes import Code
from hhtool.replay.profiles import RuleProfile
from hhtool.replay.result import Assumption, Unverifiable, Violation
from hhtool.replay.timeline import ReplayState

#: what a check returns: a violation, a check it could not decide, or a parameter it adopted from the hand
Finding = Violation | Unverifiable | Assumption
Check = Callable[[Hand, ReplayState, RuleProfile], Iterable[Finding]]


def violation(
    hand: Hand, code: Code, street: Street | int | None, player: str | None, expected: str, actual: str, message: str,
    line: int,
) -> Violation:
    return Violation(
        site=hand.site,
        hand_id=hand.hand_id,
        code=code,
        street=None if street is None else int(street),
        player=player,
        expected=expected,
        actual=actual,
        message=message,
        file=hand.source.file,
        line=line or hand.source.first_line,
    )


def money(hand: Hand, amount: int) -> str:
    """The checks' shorthand: an amount in the hand's currency."""
    return format_money(amount, hand.stakes.unit, hand.stakes.currency)


def street_name(street: Street | int) -> str:
    return f"{Street(street).label} street"


def first_line_of(hand: Hand, player: str) -> int:
    """The first line that mentions the player: his seat line, else his first deal or action."""
    lines = [seat.line for seat in hand.seats if seat.player == player and seat.line]
    lines += [d.line for d in hand.deals if d.player == player and d.line]
    lines += [a.line for a in hand.actions if a.player == player and a.line]
    return min(lines) if lines else hand.source.first_line
