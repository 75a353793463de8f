"""The dispute view: a hand's pots one by one in words a floor supervisor can read — the amount,
who could win it, each eligible player's best high and low five, who takes each half, where the
odd chips went, the rake share, and the rules' award beside the site's."""

from __future__ import annotations

from hhtool.model import Hand, ShowStatus
from hhtool.money import format_money
from hhtool.replay.engine import ReplayState
from hhtool.replay.profiles import ChosenProfile, RuleProfile
from hhtool.replay.result import PotResult, ReplayResult, ShowdownHand


def _cards(hand_cards: tuple[object, ...]) -> str:
    return " ".join(str(card) for card in hand_cards)


def _describe_player(player: str, hands: dict[str, ShowdownHand], mucked: set[str], folded: bool) -> str:
    if folded:
        return f"{player}: folded"
    if player in mucked:
        return f"{player}: mucked — cannot win"
    shown = hands.get(player)
    if shown is None:
        return f"{player}: not contested (the others mucked or folded)"
    if not shown.known or shown.high is None:
        return f"{player}: cards not shown — this pot cannot be decided"
    high = f"high {shown.high.describe()} [{_cards(shown.high.cards)}]"
    low = f"low {shown.low.describe()} [{_cards(shown.low.cards)}]" if shown.low else "no low"
    return f"{player}: {high}; {low}"


def _shares(hand: Hand, shares: tuple[tuple[str, int], ...]) -> str:
    return ", ".join(f"{player} {format_money(amount, hand.stakes.unit, hand.stakes.currency)}" for player, amount in shares)


def _pot_lines(hand: Hand, pot: PotResult, hands: dict[str, ShowdownHand], mucked: set[str]) -> list[str]:
    money = lambda amount: format_money(amount, hand.stakes.unit, hand.stakes.currency)  # noqa: E731
    lines = [f"{pot.name.capitalize()}: {money(pot.amount)}"
             + (f", rake and fees {money(pot.rake_share)}, {money(pot.net)} to award" if pot.rake_share else "")]
    lines.append(f"  Eligible: {', '.join(pot.eligible) or 'nobody'}")
    for player in pot.eligible:
        lines.append("    " + _describe_player(player, hands, mucked, folded=False))
    if not pot.decided:
        lines.append("  Not decided: the history hides cards a decision needs.")
        return lines
    if pot.split:
        high_total = sum(amount for _, amount in pot.high_shares)
        low_total = sum(amount for _, amount in pot.low_shares)
        lines.append(f"  High half {money(high_total)}: {_shares(hand, pot.high_shares)}")
        lines.append(f"  Low half {money(low_total)}: {_shares(hand, pot.low_shares)}")
    else:
        lines.append(f"  Whole pot {money(pot.net)}: {_shares(hand, pot.high_shares)}")
    lines += [f"  Note: {note}" for note in pot.notes]
    return lines


def explain_hand(hand: Hand, state: ReplayState, profile: RuleProfile, result: ReplayResult) -> str:
    stakes = hand.stakes

    def money(amount: int | None) -> str:
        return "not stated" if amount is None else format_money(amount, stakes.unit, stakes.currency)

    out = [
        f"Hand {hand.site} #{hand.hand_id} — {hand.game_label or 'Stud Hi/Lo'}",
        f"Stakes: {money(stakes.small_bet)}/{money(stakes.big_bet)}, ante {money(stakes.ante)}, "
        f"bring-in {money(stakes.bring_in)}",
        f"  where from: {stakes.provenance}",  # its own line: 80 columns
        f"Rules profile: {profile.name}. Verdict: {result.verdict.value}.",
        "",
        "Chips put in (after returned uncalled bets):",
    ]
    contributions = state.contributions
    for player in state.dealt_in:
        returned = state.returns.get(player, 0)
        status = "folded" if player in state.folded else "all-in" if player in state.all_in else "live"
        back = f" ({money(returned)} returned uncalled)" if returned else ""
        out.append(f"  {player}: {money(contributions[player])}{back} — {status}")
    settlement = state.settlement
    rake_words = "as the site states" if settlement.deduction_source == "stated" else "implied by the site's payouts"
    out.append(f"Rake and fees: {money(settlement.deduction)} ({rake_words}), shared between the pots "
               f"{settlement.rake_split or 'by the profile'}.")
    out.append("")
    mucked = {s.player for s in hand.showdown if s.status is ShowStatus.MUCKED}
    hands = {h.player: h for h in result.hands}
    for pot in result.pots:
        out += _pot_lines(hand, pot, hands, mucked)
        out.append("")
    if result.awards:
        out.append("Award per player — rules / site / difference:")
        for row in result.awards:
            difference = "" if row.difference == 0 else f"  ← site paid {money(row.difference)}"
            out.append(f"  {row.player}: {money(row.rules_amount)} / {money(row.site_amount)}{difference}")
        if profile.uncalled_in_awards and not hand.uncalled and any(state.returns.values()):
            out.append("  (the site reports returned uncalled bets inside its awards; the rules column includes them)")
    else:
        out.append("Award per player: not computable (see below); the site paid:")
        for player in state.order:
            paid = hand.collected_by(player)
            if paid:
                out.append(f"  {player}: {money(paid)}")
    if result.violations:
        out.append("")
        out.append("Departures from the rules:")
        out += [f"  line {v.line} [{v.code}] {v.message}" for v in result.violations]
    if result.unverifiable:
        out.append("")
        out.append("Could not be checked:")
        out += [f"  {'' if u.line is None else f'line {u.line} '}{u.check}: {u.reason}" for u in result.unverifiable]
    return "\n".join(out)


def judged(hand: Hand, chosen: ChosenProfile) -> tuple[ReplayState, ReplayResult]:
    """The replay's walk and result of a hand under the chosen profile, as :func:`hhtool.replay.replay`
    judges it (unsettled readings included): what the dispute report (hhtool.reports.dispute) is built from."""
    from hhtool.replay import _judged  # the package's own judgement, so that the report and the audit agree

    return _judged(hand, chosen)
