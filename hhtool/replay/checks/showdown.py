"""R12–R14 POT_AWARD: each player's rules award (every pot built and split by the rules) beside
what the site paid; R13/R16 SHOWDOWN: nobody folded or mucked is paid, nobody is paid who holds
no winning hand, and labelled halves go to the hands that win them."""

from __future__ import annotations

from collections.abc import Iterator

from hhtool.model import Half, Hand, ShowStatus
from hhtool.replay.checks.common import Finding, money, street_name, violation
from hhtool.replay.codes import Code
from hhtool.replay.profiles import RuleProfile
from hhtool.replay.result import PlayerAward, Unverifiable
from hhtool.replay.timeline import ReplayState

# enum members as module constants: reading them through the enum class is slower
_MUCKED = ShowStatus.MUCKED
_HALVES = (Half.HIGH, Half.LOW)


def award_table(hand: Hand, state: ReplayState, profile: RuleProfile) -> tuple[PlayerAward, ...] | None:
    """Rules vs site per player (position order); None when the rules cannot decide every pot.
    Computed once per state and profile: the award and showdown checks and the result all use it."""
    cached = state.memo.get("award_table")
    if isinstance(cached, tuple) and cached[0] is hand and cached[1] is profile:
        return cached[2]  # type: ignore[no-any-return]
    table = _award_table(hand, state, profile)
    state.memo["award_table"] = (hand, profile, table)
    return table


def _award_table(hand: Hand, state: ReplayState, profile: RuleProfile) -> tuple[PlayerAward, ...] | None:
    awards = state.settlement.awards
    if awards is None:
        return None
    rules = dict(awards)
    if profile.uncalled_in_awards and not hand.uncalled:
        for player, amount in state.returns.items():
            if amount:
                rules[player] = rules.get(player, 0) + amount
    site: dict[str, int] = {}
    for award in hand.awards:
        site[award.player] = site.get(award.player, 0) + award.amount
    players = [p for p in state.order if rules.get(p) or site.get(p)]
    return tuple(PlayerAward(p, rules.get(p, 0), site.get(p, 0)) for p in players)


def _award_line(hand: Hand, player: str) -> int:
    lines = [a.line for a in hand.awards if a.player == player and a.line]
    if lines:
        return min(lines)
    return min((a.line for a in hand.awards if a.line), default=hand.source.last_line)


def check_pot_award(hand: Hand, state: ReplayState, profile: RuleProfile) -> Iterator[Finding]:
    table = award_table(hand, state, profile)
    if table is None:
        yield Unverifiable(Code.POT_AWARD, "; ".join(state.settlement.unverifiable))
        return
    for row in table:
        if row.difference == 0:
            continue
        more_or_less = "more" if row.difference > 0 else "less"
        yield violation(hand, Code.POT_AWARD, None, row.player, money(hand, row.rules_amount), money(hand, row.site_amount),
                        f"{row.player} was paid {money(hand, row.site_amount)}, {money(hand, abs(row.difference))} "
                        f"{more_or_less} than the {money(hand, row.rules_amount)} the rules award",
                        _award_line(hand, row.player))


def check_showdown(hand: Hand, state: ReplayState, profile: RuleProfile) -> Iterator[Finding]:
    mucked = {s.player for s in hand.showdown if s.status is _MUCKED}
    contested = len(state.live_at_end) >= 2
    table = award_table(hand, state, profile)
    rules = {row.player: row.rules_amount for row in table} if table is not None else None
    flagged: set[str] = set()
    for award in hand.awards:
        player = award.player
        if player in flagged or award.amount <= 0:
            continue
        if player in state.folded:
            flagged.add(player)
            yield violation(hand, Code.SHOWDOWN, None, player, "nothing", money(hand, award.amount),
                            f"{player} is paid although he folded on {street_name(state.folded[player])}", award.line)
        elif contested and player in mucked:
            flagged.add(player)
            yield violation(hand, Code.SHOWDOWN, None, player, "nothing", money(hand, award.amount),
                            f"{player} mucked at showdown but is paid {money(hand, award.amount)}", award.line)
        elif rules is not None and rules.get(player, 0) == 0:
            flagged.add(player)
            yield violation(hand, Code.SHOWDOWN, None, player, "nothing", money(hand, award.amount),
                            f"{player} is paid {money(hand, award.amount)} without the best hand: {_winners(state)}",
                            award.line)
    yield from _labelled_halves(hand, state, flagged)


def _winners(state: ReplayState) -> str:
    parts = []
    for pot in state.settlement.pots:
        high = ", ".join(p for p, _ in pot.high_shares)
        low = ", ".join(p for p, _ in pot.low_shares)
        parts.append(f"{pot.name} high {high}" + (f", low {low}" if low else ""))
    return "; ".join(parts)


def _labelled_halves(hand: Hand, state: ReplayState, flagged: set[str]) -> Iterator[Finding]:
    pots = state.settlement.pots
    if state.settlement.awards is None:
        if any([a.half in _HALVES for a in hand.awards]):
            yield Unverifiable(Code.SHOWDOWN, "the labelled halves cannot be checked while a pot is undecided")
        return
    for award in hand.awards:
        if award.half not in _HALVES or award.player in flagged:
            continue
        candidates = [p for p in pots if award.pot is None or award.pot >= len(pots) or p.index == award.pot]
        candidates = [p for p in candidates if len(p.contenders) >= 2]
        if not candidates:
            continue  # uncontested pots are whole whatever the label (Winamax prints HI and LO anyway)
        label = "high" if award.half is Half.HIGH else "low"
        holders = {player for pot in candidates for player, _ in (pot.high_shares if label == "high" else pot.low_shares)}
        if award.player not in holders:
            flagged.add(award.player)
            winners = ", ".join(sorted(holders)) or "nobody (no qualifying low)"
            yield violation(hand, Code.SHOWDOWN, None, award.player, winners, award.player,
                            f"{award.player} is paid the {label} half, which the rules give to {winners}", award.line)
