"""The hand as the players saw it: street by street (cards as dealt, actions with amounts and the
pot after each) and every player's cards."""

from __future__ import annotations

from collections.abc import Callable

from hhtool.model import Card, Hand, ShowStatus, Street
from hhtool.money import format_at_table
from hhtool.replay.timeline import ReplayState
from hhtool.reports.action_words import action_words, bets_faced
from hhtool.reports.dispute.model import ActionView, DealView, Money, PlayerView, StreetView


def money_of(hand: Hand) -> Callable[[int], Money]:
    return lambda amount: Money(amount, format_at_table(amount, hand.stakes.unit, hand.stakes.currency))


def card_text(card: Card | None) -> str | None:
    return None if card is None else str(card)


def streets_of(hand: Hand) -> tuple[StreetView, ...]:
    """Antes go with 3rd street; an uncalled bet returned is shown where the history prints it."""
    money = money_of(hand)
    faced = bets_faced(hand.actions)

    def texts(amount: int) -> str:
        return money(amount).text

    pot = 0
    streets: list[StreetView] = []
    for street in Street:
        deals = tuple(DealView(d.player, tuple(map(card_text, d.down)), tuple(map(card_text, d.up)), d.line)
                      for d in hand.deals if d.street is street)
        events: list[tuple[int, int, ActionView]] = []
        on_street = [(action, bet) for action, bet in zip(hand.actions, faced, strict=True) if action.street is street]
        for order, (action, bet) in enumerate(on_street):
            words = action_words(action, bet, hand.site, texts)
            events.append((action.line, order, ActionView(int(street), action.player, words, money(action.amount),
                                                           money(0), action.all_in, action.line)))
        for order, ret in enumerate(r for r in hand.uncalled if r.street is street):
            words = f"gets {money(ret.amount).text} back uncalled"
            events.append((ret.line or 10**9, 10**6 + order, ActionView(int(street), ret.player, words,
                                                                     money(-ret.amount), money(0), False, ret.line)))
        # in the history's order (its lines); an event without a line keeps its place among its kind
        events.sort(key=lambda event: (event[0] if event[0] else 0, event[1]))
        actions: list[ActionView] = []
        for _, _, event in events:
            pot += event.amount.amount
            actions.append(ActionView(event.street, event.player, event.words, event.amount, money(pot),
                                      event.all_in, event.line))
        if deals or actions:
            streets.append(StreetView(int(street), f"{street.label} street", deals, tuple(actions), money(pot)))
    return tuple(streets)


def cards_of(hand: Hand, player: str) -> tuple[str | None, ...]:
    """Every card the player held, in dealing order: the showdown's list when it shows all of them
    (it fills in the hole cards the deal lines hid), else the deal lines."""
    dealt: list[Card | None] = []
    for deal in hand.deals:
        if deal.player == player:
            dealt.extend(deal.down)
            dealt.extend(deal.up)
    for shown in hand.showdown:
        if shown.player == player and shown.cards and None not in shown.cards and len(shown.cards) >= len(dealt):
            return tuple(map(card_text, shown.cards))
    return tuple(map(card_text, dealt))


def players_of(hand: Hand, state: ReplayState) -> tuple[PlayerView, ...]:
    money = money_of(hand)
    shown = {s.player: s.status for s in hand.showdown}
    contributions = state.contributions
    views: list[PlayerView] = []
    for seat in sorted(hand.seats, key=lambda s: s.seat):
        player = seat.player
        if player not in state.dealt_in:
            status = "not dealt in"
        elif player in state.folded:
            status = f"folded on {state.folded[player].label} street"
        elif shown.get(player) is ShowStatus.SHOWN:
            status = "showed" + (" (all-in)" if player in state.all_in else "")
        elif shown.get(player) is ShowStatus.MUCKED:
            status = "mucked"
        elif shown.get(player) is ShowStatus.NOT_SHOWN:
            status = "did not show his hand"
        elif player in state.all_in:
            status = "all-in"
        else:
            status = "in to the end"
        views.append(PlayerView(seat.seat, player, None if seat.stack is None else money(seat.stack),
                                cards_of(hand, player), money(contributions.get(player, 0)), status))
    return tuple(views)
