"""The rule checks. Each takes ``(hand, state, profile)`` and yields Violations and
Unverifiables; adding a rule means adding a module and one line to :data:`CHECKS`."""

from __future__ import annotations

from hhtool.replay.checks.antes import check_antes
from hhtool.replay.checks.betting import check_actions, check_sizes
from hhtool.replay.checks.bring_in import check_bring_in_amount, check_bring_in_player
from hhtool.replay.checks.cards import check_cards
from hhtool.replay.checks.claims import check_claims
from hhtool.replay.checks.common import Check, Finding
from hhtool.replay.checks.order import check_opener, check_order
from hhtool.replay.checks.raise_cap import check_raise_cap
from hhtool.replay.checks.rounds import check_rounds
from hhtool.replay.checks.rulebook import check_bring_in_fraction
from hhtool.replay.checks.showdown import award_table, check_pot_award, check_showdown
from hhtool.replay.checks.stack import check_stacks
from hhtool.replay.checks.steps import steps_all_usual
from hhtool.replay.checks.totals import check_totals
from hhtool.replay.checks.uncalled import check_uncalled

CHECKS: tuple[Check, ...] = (
    check_antes,
    check_bring_in_player,
    check_bring_in_amount,
    check_bring_in_fraction,
    check_actions,
    check_sizes,
    check_raise_cap,
    check_order,
    check_rounds,
    check_stacks,
    check_cards,
    check_uncalled,
    check_pot_award,
    check_showdown,
    check_totals,
    check_claims,
)

#: the checks that judge one step at a time and find nothing in a hand whose steps are all usual
#: (:func:`~.steps.steps_all_usual`); the rest of :data:`CHECKS`, in its order, is what such a hand needs,
#: the turn order reduced to the opener of each round (the turns after it are among the usual steps)
STEP_CHECKS: frozenset[Check] = frozenset((check_actions, check_sizes, check_raise_cap, check_stacks))
CHECKS_FOR_USUAL_STEPS: tuple[Check, ...] = tuple(check_opener if check is check_order else check
                                                  for check in CHECKS if check not in STEP_CHECKS)

__all__ = ["CHECKS", "CHECKS_FOR_USUAL_STEPS", "STEP_CHECKS", "Check", "Finding", "award_table", "steps_all_usual"]
