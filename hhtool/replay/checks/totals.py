"""R15: chips put in, less what was returned, equal what was collected plus rake and fees; the
site's stated total pot is the chips in the pot.

Where the site states no rake, what is known still decides: chips in equal to chips out (PHH
finishing stacks, any hand whose awards sum to the pot) is a rake of 0, judged to the chip; a
tournament takes no rake from its pots, so chips missing there are a violation; a cash pot short
of its chips where the site prints no rake kept that money as its rake: the judgement adopts it as
an assumption (the split is judged with that implied rake, :func:`hhtool.replay.pots.settle`), never
as unverifiable, since no card and no choice of the rules could change who is owed what; unless it is
more than any rake takes (:data:`~hhtool.replay.profiles.MOST_RAKE_PERCENT`): then money is missing, a violation.
With the desk's rake schedule for the hand's site and level (``--structures``), the implied rake is
checked against the schedule instead (:func:`judge_rake`)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from hhtool.model import Hand, Street
from hhtool.replay.checks.common import Finding, money, violation
from hhtool.replay.codes import Code
from hhtool.replay.profiles import MOST_RAKE_PERCENT, RuleProfile
from hhtool.replay.result import AssumedKind, Assumption, ReplayResult, Unverifiable, verdict_of
from hhtool.replay.timeline import ReplayState
from hhtool.replay.user_structures import RakeSchedule


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


def judge_rake(hand: Hand, result: ReplayResult, schedule: RakeSchedule, source: str) -> ReplayResult:
    """The replay's ``result`` with the implied rake of a cash hand whose history prints none checked
    against the desk's ``schedule`` (``source``: "the structures file desk.toml"): within one unit of
    the schedule's rake (its rounding), the rake is known, no longer an assumption; further off, a
    POT_TOTAL violation naming the schedule. A pot paid out more than went in, or short of more than
    any rake, was judged already; a tournament or a history cut before its awards is left as it is."""
    if hand.rake is not None or hand.stakes.is_tournament or not hand.awards:
        return result
    in_pot = sum(action.amount for action in hand.actions) - sum(ret.amount for ret in hand.uncalled)
    paid = sum(award.amount for award in hand.awards) + hand.fees
    implied = in_pot - paid
    if implied < 0 or implied > max(in_pot * MOST_RAKE_PERCENT // 100, 1):
        return result
    ended_on_third = all(action.street == Street.THIRD for action in hand.actions)
    expected = schedule.expected(in_pot, ended_on_third)
    assumptions = tuple(a for a in result.assumptions if a.kind is not AssumedKind.RAKE)
    violations = result.violations
    if abs(implied - expected) > 1:
        line = max([a.line for a in hand.awards if a.line], default=hand.source.last_line)
        cap = f", at most {money(hand, schedule.cap)}" if schedule.cap is not None else ""
        floor = f", none below a {money(hand, schedule.min_pot)} pot" if schedule.min_pot else ""
        third = ", none when the hand ends on third street" if schedule.no_drop_third else ""
        violations = tuple(sorted((*violations, violation(
            hand, Code.POT_TOTAL, None, None, f"a rake of {money(hand, expected)}", money(hand, implied),
            f"{money(hand, in_pot)} went into the pot and {money(hand, paid)} was paid out: the pot kept "
            f"{money(hand, implied)}, but {source} ({schedule.name}) rakes {money(hand, expected)} "
            f"({schedule.percent}% rounded down{cap}{floor}{third})", line)), key=lambda v: (v.line, v.code)))
    return replace(result, verdict=verdict_of(violations, result.unverifiable), violations=violations,
                   assumptions=assumptions)
