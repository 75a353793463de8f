"""R9: a betting round ends only when every active player has acted and matched the bet (or is
all-in); and a hand does not stop before 7th street while two players can still bet."""

from __future__ import annotations

from collections.abc import Iterator

from hhtool.model import Hand, Street
from hhtool.replay.checks.common import Finding, money, street_name, violation
from hhtool.replay.codes import Code
from hhtool.replay.profiles import RuleProfile
from hhtool.replay.timeline import ReplayState


def check_rounds(hand: Hand, state: ReplayState, profile: RuleProfile) -> Iterator[Finding]:
    for rnd in state.rounds:
        for player in rnd.pending:
            put = rnd.put_in.get(player, 0)
            if put < rnd.level:
                actual = f"{money(hand, put)} in"
                why = f"had put in {money(hand, put)} of the {money(hand, rnd.level)} bet"
            else:
                actual, why = "did not act", "had not acted"
            yield violation(hand, Code.ROUND_INCOMPLETE, rnd.street, player, "act and match the bet", actual,
                            f"{street_name(rnd.street)} ended while {player} {why}", rnd.last_line)
    if not state.rounds:
        return
    last = state.rounds[-1]
    if last.street < Street.SEVENTH and not last.pending and len(last.live_at_end) >= 2 and len(last.active_at_end) >= 2:
        following = Street(last.street + 1)
        yield violation(hand, Code.ROUND_INCOMPLETE, following, None, street_name(following), "hand ends",
                        f"the hand stops after {street_name(last.street)} while {', '.join(last.active_at_end)} can still bet",
                        last.last_line)
