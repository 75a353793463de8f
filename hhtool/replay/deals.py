"""The walk's one pass over a hand's deal lines (:func:`read_deals`): the deals grouped by street, each
player's upcards by street and downcards, and what the card checks read of them (:class:`DealtCards`:
the cards as bits, whether each deal has its street's shape, the known cards in the order dealt), so
that no check reads the deal lines again."""

from __future__ import annotations

from collections.abc import Sequence

from hhtool.model import Card, Deal, Hand, Street
from hhtool.replay.timeline import SUIT_SHIFT, DealtCards

#: (down, up) cards of one deal per street (R1); 7th street's down card is the common card when there is one (R17)
_DEAL_SHAPES = {Street.THIRD: (2, 1), Street.FOURTH: (0, 1), Street.FIFTH: (0, 1), Street.SIXTH: (0, 1),
                Street.SEVENTH: (1, 0)}
_DEAL_SHAPES_WITH_COMMON_CARD = {**_DEAL_SHAPES, Street.SEVENTH: (0, 0)}

DealsRead = tuple[dict[Street, list[Deal]], dict[str, dict[Street, tuple[Card | None, ...]]], dict[str, list[Card | None]],
                  DealtCards]


def read_deals(hand: Hand, order: Sequence[str], acted: set[str]) -> DealsRead:
    """(the deals by street, each seated player's upcards by street, his downcards, the card checks'
    :class:`DealtCards`); adds every player dealt a card to ``acted``."""
    deals_by_street: dict[Street, list[Deal]] = {}
    upcards: dict[str, dict[Street, tuple[Card | None, ...]]] = {p: {} for p in order}
    downcards: dict[str, list[Card | None]] = {p: [] for p in order}
    current = None
    deals: list[Deal] = []
    # what the card checks read of the deals, found in this one pass (timeline.DealtCards)
    held = 0
    bits_of: dict[str, int] = {}
    known_of: dict[str, list[Card]] = {}
    known_before: dict[tuple[str, Street], int] = {}
    last_street: dict[str, Street] = {}
    distinct = regular = True
    shapes = _DEAL_SHAPES if hand.community_card is None else _DEAL_SHAPES_WITH_COMMON_CARD
    shift = SUIT_SHIFT
    for deal in hand.deals:
        player, street, down, up = deal.player, deal.street, deal.down, deal.up
        acted.add(player)
        if street is not current:
            current = street
            deals = deals_by_street.setdefault(street, [])
        deals.append(deal)
        dealt_to = upcards.get(player)
        if dealt_to is not None:
            dealt_to[street] = dealt_to[street] + up if street in dealt_to else up
            downcards[player].extend(down)
        known = known_of.get(player)
        if known is None:
            known = known_of[player] = []
        key = (player, street)
        if key in known_before:
            regular = False  # a second deal to him on the street
        else:
            known_before[key] = len(known)
        if shapes[street] != (len(down), len(up)):
            regular = False
        if last_street.get(player, street) <= street:
            last_street[player] = street
        bits = 0
        for card in down + up:
            if card is not None:
                known.append(card)
                bit = 1 << (card.rank * 4 + shift[card.suit])
                if held & bit:
                    distinct = False
                held |= bit
                bits |= bit
        bits_of[player] = bits_of.get(player, 0) | bits
    return deals_by_street, upcards, downcards, DealtCards(held, bits_of, distinct, regular, last_street, known_of,
                                                           known_before)
