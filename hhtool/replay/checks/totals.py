"""R15: chips put in, less what was returned, equal what was collected plus rake and fees; the
site's stated total pot is the chips in the pot."""

from __future__ import annotations

from collections.abc import Iterator

from hhtool.model import Hand
from hhtool.replay.checks.common import Finding, money, violation
from hhtool.replay.codes import Code
from hhtool.replay.profiles import RuleProfile
from hhtool.replay.result import Unverifiable
from hhtool.replay.timeline import ReplayState


def check_totals(hand: Hand, state: ReplayState, profile: RuleProfile) -> Iterator[Finding]:
    put_in = sum([action.amount for action in hand.actions])
    returned = sum([ret.amount for ret in hand.uncalled])
    paid = sum([award.amount for award in hand.awards])
    in_pot = put_in - returned
    line = max([a.line for a in hand.awards if a.line], default=hand.source.last_line)
    if hand.rake is not None:
        out = paid + hand.rake + hand.fees
        if out != in_pot:
            fees = f" + fees {money(hand, hand.fees)}" if hand.fees else ""
            yield violation(hand, Code.POT_TOTAL, None, None, money(hand, in_pot), money(hand, out),
                            f"{money(hand, in_pot)} went into the pot but {money(hand, paid)} was paid out + rake "
                            f"{money(hand, hand.rake)}{fees} = {money(hand, out)}", line)
    else:
        implied = in_pot - paid - hand.fees
        if implied < 0:
            yield violation(hand, Code.POT_TOTAL, None, None, f"at most {money(hand, in_pot)}", money(hand, paid + hand.fees),
                            f"{money(hand, paid)} was paid out of a {money(hand, in_pot)} pot", line)
        else:
            yield Unverifiable(Code.POT_TOTAL, f"the site states no rake (implied {money(hand, implied)})")
    if hand.total_pot is not None and hand.total_pot != in_pot:
        yield violation(hand, Code.POT_TOTAL, None, None, money(hand, in_pot), money(hand, hand.total_pot),
                        f"the site states a total pot of {money(hand, hand.total_pot)}; {money(hand, in_pot)} went in",
                        line)
