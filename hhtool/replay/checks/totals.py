"""R15: chips put in, less what was returned, equal what was collected plus rake and fees; the
site's stated total pot is the chips in the pot.

Where the site states no rake, what is known still decides: chips in equal to chips out (PHH
finishing stacks, any hand whose awards sum to the pot) is a rake of 0, judged to the chip; a
tournament takes no rake from its pots, so chips missing there are a violation; a cash pot short
of its chips where the site prints no rake kept that money as its rake: the judgement adopts it as
an assumption (the split is judged with that implied rake, :func:`hhtool.replay.pots.settle`), never
as unverifiable, since no card and no choice of the rules could change who is owed what; unless it is
more than any rake takes (:data:`MOST_RAKE_PERCENT`): then money is missing, a violation."""

from __future__ import annotations

from collections.abc import Iterator

from hhtool.model import Hand
from hhtool.replay.checks.common import Finding, money, violation
from hhtool.replay.codes import Code
from hhtool.replay.profiles import RuleProfile
from hhtool.replay.result import AssumedKind, Assumption, Unverifiable
from hhtool.replay.timeline import ReplayState

#: the most of a pot any site's rake takes, in percent: rooms rake 3-5 % below a cap of a few big bets
#: (the corpus's implied rakes are 0.5-4 %), so a pot short of more than this (beyond one unit of rounding)
#: kept money no rake explains: a violation, not a rake to assume
MOST_RAKE_PERCENT = 10


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
        elif implied > 0 and hand.stakes.is_tournament:
            yield violation(hand, Code.POT_TOTAL, None, None, money(hand, in_pot), money(hand, paid + hand.fees),
                            f"{money(hand, in_pot)} went into the pot but {money(hand, paid)} was paid out: a tournament "
                            f"takes no rake from its pots, and {money(hand, implied)} is missing", line)
        elif implied > 0 and not hand.awards:  # (a history cut before its summary: nothing to judge the pot by)
            yield Unverifiable(Code.POT_TOTAL, f"the history states no award of the {money(hand, in_pot)} pot and no rake")
        elif implied > max(most_rake := in_pot * MOST_RAKE_PERCENT // 100, 1):
            yield violation(hand, Code.POT_TOTAL, None, None, f"a rake of at most {money(hand, most_rake)}", money(hand, implied),
                            f"{money(hand, in_pot)} went into the pot but {money(hand, paid + hand.fees)} was paid out: "
                            f"{money(hand, implied)} is missing, more than any rake ({MOST_RAKE_PERCENT}% of the pot at "
                            "most); the history does not state the rake", line)
        elif implied > 0:
            yield Assumption(AssumedKind.RAKE, implied,
                             f"rake {money(hand, implied)}, the chips the pot kept: {money(hand, in_pot)} went in and "
                             f"{money(hand, paid + hand.fees)} was paid out; the history does not state the rake")
    if hand.total_pot is not None and hand.total_pot != in_pot:
        yield violation(hand, Code.POT_TOTAL, None, None, money(hand, in_pot), money(hand, hand.total_pot),
                        f"the site states a total pot of {money(hand, hand.total_pot)}; {money(hand, in_pot)} went in",
                        line)
