"""Money the settlement moved otherwise than the rules, wherever it happened: per player, his award
(every pot) and the uncalled bet returned to him, the site's beside the rules'; and the hand's
misawarded total, each amount counted once.

`violations --by hand` counts the same total with this module, on the hands it replays again
(:func:`hhtool.reports.violations.misawarded_with_returns`)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass

from hhtool.model import Hand
from hhtool.replay.profiles import RuleProfile
from hhtool.replay.result import PlayerAward
from hhtool.replay.timeline import ReplayState
from hhtool.reports.dispute.model import AwardRow, MisawardRow, Money
from hhtool.reports.dispute.pots_view import signed


@dataclass(frozen=True, slots=True)
class PlayerDifference:
    """One player's settlement, site minus rules, in smallest units."""

    player: str
    award: int  # his award row (the uncalled bet inside it where the site pays it with the award)
    returned: int  # the uncalled bet returned apart from the award (0 where the audit did not judge it wrong)
    own_in_award: int  # the rules' uncalled return inside his award row (``uncalled_in_awards``), else 0

    @property
    def total(self) -> int:
        return self.award + self.returned

    @property
    def own_short(self) -> int:
        """The part of what he was paid too little that is his own uncalled bet, not pot money."""
        return min(max(-self.total, 0), max(-self.returned, 0) + self.own_in_award)


def misawarded_total(differences: Iterable[PlayerDifference]) -> int:
    """The money the site paid to the wrong players or kept, counted once: what it paid players beyond
    the rules (paying one player's $0.18 to another is $0.18, not $0.36 with both sides summed), plus
    the uncalled bets it returned short that no overpaid player received (kept). Overpayments are
    matched first with pot money paid short, then with the short returns. A pot paid short to
    nobody is not counted: no player's own money, and POT_TOTAL reports it."""
    rows = list(differences)
    over = sum(max(row.total, 0) for row in rows)
    own_short = sum(row.own_short for row in rows)
    pot_short = sum(max(-row.total, 0) for row in rows) - own_short
    return over + max(0, own_short - max(0, over - pot_short))


def returned_amounts(hand: Hand, state: ReplayState, profile: RuleProfile) -> tuple[tuple[str, int, int], ...]:
    """(player, the rules' return, the site's) for every player with a return on either side, position
    order; () when the site pays the returns inside its awards (``uncalled_in_awards`` and no return
    line: the award table compares them there)."""
    if profile.uncalled_in_awards and not hand.uncalled:
        return ()
    site: dict[str, int] = {}
    for ret in hand.uncalled:
        site[ret.player] = site.get(ret.player, 0) + ret.amount
    players = list(state.order) + [p for p in site if p not in state.order]
    return tuple((p, state.returns.get(p, 0), site.get(p, 0)) for p in players if state.returns.get(p) or site.get(p))


def differences_of(hand: Hand, state: ReplayState, profile: RuleProfile, awards: tuple[PlayerAward, ...],
                   judged: Collection[str]) -> tuple[PlayerDifference, ...]:
    """Each player whose award or return differs from the rules, position order. A return counts where the audit
    judged it wrong (``judged``: the players with an UNCALLED_BET violation), so that the money and
    the verdict agree."""
    inside = profile.uncalled_in_awards and not hand.uncalled
    returned = {p: site - rules for p, rules, site in returned_amounts(hand, state, profile) if p in judged}
    award = {row.player: row.difference for row in awards}
    named = [row.player for row in awards] + list(returned)
    players = [p for p in state.order if p in named] + [p for p in dict.fromkeys(named) if p not in state.order]
    rows = [PlayerDifference(p, award.get(p, 0), returned.get(p, 0), state.returns.get(p, 0) if inside else 0)
            for p in players]
    return tuple(row for row in rows if row.award or row.returned)


def return_rows(amounts: tuple[tuple[str, int, int], ...], money: Callable[[int], Money]) -> tuple[AwardRow, ...]:
    rows: list[AwardRow] = []
    for player, rules, site in amounts:
        difference = site - rules
        if difference > 0:
            words = f"returned {money(difference).text} too much"
        elif difference < 0:
            words = f"returned {money(-difference).text} too little"
        else:
            words = "correct"
        rows.append(AwardRow(player, money(rules), money(site), signed(difference, money), words))
    return tuple(rows)


def misaward_rows(differences: tuple[PlayerDifference, ...], money: Callable[[int], Money]) -> tuple[MisawardRow, ...]:
    return tuple(MisawardRow(row.player, signed(row.award, money), signed(row.returned, money),
                             signed(row.total, money)) for row in differences)
