"""Pots as the rules settle them (eligibility, each contender's high and low five with the seven
they came from, halves, odd units) and the rules' award beside the site's per player."""

from __future__ import annotations

from collections.abc import Callable

from hhtool.evaluation import HighHand, LowHand, best_high, best_low
from hhtool.model import Card, Hand, ShowStatus
from hhtool.replay.result import PlayerAward, PotResult, ShowdownHand
from hhtool.reports.dispute.hand_view import cards_of, money_of
from hhtool.reports.dispute.model import AwardRow, ContenderView, FiveView, HalfView, Money, PotView, ShareView


def five(best: HighHand | LowHand | None) -> FiveView | None:
    if best is None:
        return None
    return FiveView(best.describe(), tuple(str(card) for card in best.cards))


def _contender(hand: Hand, player: str, hands: dict[str, ShowdownHand], mucked: set[str],
               showed: set[str]) -> ContenderView:
    seven = cards_of(hand, player)
    if player in mucked:
        return ContenderView(player, seven, None, None, "mucked: a mucked hand cannot win")
    shown = hands.get(player)
    if shown is None:  # the pot was his without a showdown; where he showed all the same, his hand is said
        cards = tuple(Card.parse(card) for card in seven if card is not None)
        if player in showed and 5 <= len(cards) == len(seven) and len(set(cards)) == len(cards):
            return ContenderView(player, seven, five(best_high(cards)), five(best_low(cards)), "")
        return ContenderView(player, seven, None, None, "won it without a showdown (every other player folded or mucked)")
    if not shown.known or shown.high is None:
        return ContenderView(player, seven, None, None, "cards not shown: the rules cannot decide this pot")
    return ContenderView(player, seven, five(shown.high), five(shown.low), "")


def _half(name: str, shares: tuple[tuple[str, int], ...], hands: dict[str, ShowdownHand],
          money: Callable[[int], Money]) -> HalfView:
    winning: list[tuple[str, tuple[str, ...]]] = []
    for player, _ in shares:
        shown = hands.get(player)
        best = None if shown is None else (shown.low if name == "low" else shown.high)
        if best is not None:
            winning.append((player, tuple(str(card) for card in best.cards)))
    return HalfView(name, money(sum(amount for _, amount in shares)),
                    tuple(ShareView(player, money(amount)) for player, amount in shares), tuple(winning))


def pots_of(hand: Hand, pots: tuple[PotResult, ...], showdown: tuple[ShowdownHand, ...]) -> tuple[PotView, ...]:
    money = money_of(hand)
    hands = {h.player: h for h in showdown}
    mucked = {s.player for s in hand.showdown if s.status is ShowStatus.MUCKED}
    showed = {s.player for s in hand.showdown if s.status is ShowStatus.SHOWN}
    says_pot = bool(hand.awards) and all(award.pot is not None for award in hand.awards)
    views: list[PotView] = []
    for pot in pots:
        halves: tuple[HalfView, ...] = ()
        if pot.decided:
            if pot.split:
                halves = (_half("high", pot.high_shares, hands, money), _half("low", pot.low_shares, hands, money))
            else:
                halves = (_half("whole", pot.high_shares, hands, money),)
        site_paid: tuple[ShareView, ...] | None = None
        if says_pot:
            paid: dict[str, int] = {}
            for award in hand.awards:
                if award.pot == pot.index:
                    paid[award.player] = paid.get(award.player, 0) + award.amount
            site_paid = tuple(ShareView(player, money(amount)) for player, amount in paid.items())
        views.append(PotView(pot.index, pot.name, money(pot.amount), money(pot.rake_share), money(pot.net),
                             pot.eligible, tuple(_contender(hand, p, hands, mucked, showed) for p in pot.eligible),
                             halves, pot.notes, pot.decided, site_paid))
    return tuple(views)


def signed(amount: int, money: Callable[[int], Money]) -> Money:
    """A difference with its sign always written: ``+$0.63``, ``-$0.63``, ``$0.00``."""
    text = money(amount).text
    return Money(amount, f"+{text}" if amount > 0 else text)


def awards_of(hand: Hand, awards: tuple[PlayerAward, ...]) -> tuple[AwardRow, ...]:
    money = money_of(hand)
    rows: list[AwardRow] = []
    for row in awards:
        difference = row.difference
        if difference > 0:
            words = f"paid {money(difference).text} too much"
        elif difference < 0:
            words = f"paid {money(-difference).text} too little"
        else:
            words = "correct"
        rows.append(AwardRow(row.player, money(row.rules_amount), money(row.site_amount), signed(difference, money),
                             words))
    return tuple(rows)
