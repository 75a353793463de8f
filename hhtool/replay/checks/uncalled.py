"""R10: the part of the highest bet nobody matched goes back to its player, unraked, at the end of
the round. Sites that report it inside their awards (``uncalled_in_awards``) print no return."""

from __future__ import annotations

from collections.abc import Iterator

from hhtool.model import Hand
from hhtool.replay.checks.common import Finding, money, street_name, violation
from hhtool.replay.codes import Code
from hhtool.replay.profiles import RuleProfile
from hhtool.replay.timeline import ReplayState


def check_uncalled(hand: Hand, state: ReplayState, profile: RuleProfile) -> Iterator[Finding]:
    if profile.uncalled_in_awards and not hand.uncalled:
        return  # the return is inside the collected amounts; the award check compares it
    expected: dict[str, tuple[int, int, int]] = {}  # player -> (amount, street, line)
    for player, ante in state.sat_out.items():  # an ante handed back to a player who sat the hand out
        expected[player] = (ante, 3, 0)
    for rnd in state.rounds:
        if rnd.uncalled is not None:
            player, amount = rnd.uncalled
            before = expected.get(player, (0, int(rnd.street), rnd.last_line))
            expected[player] = (before[0] + amount, int(rnd.street), rnd.last_line)
    reported: dict[str, tuple[int, int, int]] = {}
    for ret in hand.uncalled:
        before = reported.get(ret.player, (0, int(ret.street), ret.line))
        reported[ret.player] = (before[0] + ret.amount, before[1], before[2])
    for player in [p for p in state.order if p in expected or p in reported]:
        rules, rules_street, rules_line = expected.get(player, (0, 0, 0))
        site, site_street, site_line = reported.get(player, (0, 0, 0))
        if rules == site:
            continue
        street = rules_street or site_street
        if site == 0:
            message = f"{money(hand, rules)} that nobody called on {street_name(street)} is not returned to {player}"
        elif rules == 0:
            message = f"{player} gets {money(hand, site)} back as uncalled, but his bet was matched"
        else:
            message = f"{player} gets {money(hand, site)} back as uncalled; the unmatched part was {money(hand, rules)}"
        yield violation(hand, Code.UNCALLED_BET, street, player, money(hand, rules), money(hand, site), message,
                        site_line or rules_line)
