"""R1 and R17: the right cards to the right players — 2 down and 1 up on 3rd, one up on 4th–6th,
one down on 7th; no card twice; no card to a folded player; shown hands that agree with the deal;
a common 7th-street card only when the deck cannot give everyone a card."""

from __future__ import annotations

from collections.abc import Iterator

from hhtool.model import Card, Hand, ShowStatus, Street
from hhtool.replay.checks.common import Finding, street_name, violation
from hhtool.replay.codes import Code
from hhtool.replay.profiles import RuleProfile
from hhtool.replay.result import Violation
from hhtool.replay.timeline import FIFTH, FOURTH, SEVENTH, SIXTH, ReplayState

_PER_STREET = {Street.THIRD: (2, 1), Street.FOURTH: (0, 1), Street.FIFTH: (0, 1), Street.SIXTH: (0, 1), Street.SEVENTH: (1, 0)}
_SHOWN_OR_MUCKED = (ShowStatus.SHOWN, ShowStatus.MUCKED)


def check_cards(hand: Hand, state: ReplayState, profile: RuleProfile) -> Iterator[Finding]:
    regular, distinct, dealt_to = _quick_scan(hand, state)
    if not regular:
        yield from _deal_counts(hand, state)
    if not distinct:
        yield from _duplicates(hand)
    yield from _showdown_agrees(hand, state, dealt_to)
    yield from _common_card(hand, state, profile)


def _quick_scan(hand: Hand, state: ReplayState) -> tuple[bool, bool, dict[str, int] | None]:
    """One pass telling whether :func:`_deal_counts` and :func:`_duplicates` can find anything, so
    that the usual hand skips both. Regular deals: one per player and street, each of the right
    size, none after the player folded. Distinct cards: no card dealt twice or dealt as the common
    card, no shown card that was dealt to or shown by someone else (the common card aside).
    Cards are told apart by a bit each (:func:`card_bit`): no tuple nor dict entry per card.
    Third: the cards dealt to each player (player -> bits), which :func:`_showdown_agrees` then
    reads instead of gathering them again; None when a card dealt twice stopped the count."""
    regular = distinct = True
    seen: set[tuple[str, Street]] = set()
    folded_on = state.folded
    community = hand.community_card
    seventh_down = 0 if community is not None else 1
    per_street, shift = _PER_STREET, _SUIT_SHIFT
    held = 0  # every card dealt
    held_by: dict[str, int] = {}  # player -> the cards dealt to him
    for deal in hand.deals:
        player, street, down, up = deal.player, deal.street, deal.down, deal.up
        if regular:
            key = (player, street)
            folded = folded_on.get(player)
            want_down, want_up = per_street[street]
            if street is SEVENTH:
                want_down = seventh_down
            if key in seen or (folded is not None and folded < street) or len(down) != want_down or len(up) != want_up:
                regular = False
            seen.add(key)
        if distinct:
            bits = 0
            for card in down + up:
                if card is not None:
                    bit = 1 << (card.rank * 4 + shift[card.suit])
                    if held & bit:
                        distinct = False
                    held |= bit
                    bits |= bit
            held_by[player] = held_by.get(player, 0) | bits
    dealt_to = held_by if distinct else None  # (the bits stop being counted at the first card dealt twice)
    community_bit = 0 if community is None else card_bit(community)
    if held & community_bit:
        distinct = False
    if distinct:
        shown_by: dict[str, int] = {}  # player -> the cards first seen in his show
        for shown in hand.showdown:
            player = shown.player
            for card in shown.cards:
                if card is not None:
                    bit = 1 << (card.rank * 4 + shift[card.suit])
                    if not held & bit:
                        held |= bit
                        shown_by[player] = shown_by.get(player, 0) | bit
                    elif not (held_by.get(player, 0) | shown_by.get(player, 0)) & bit and bit != community_bit:
                        return regular, False, dealt_to
    return regular, distinct, dealt_to


_SUIT_SHIFT = {"c": 0, "d": 1, "h": 2, "s": 3}


def card_bit(card: Card) -> int:
    """A card as one bit of an int (rank * 4 + suit): a set of cards is the or of its bits, cheaper to
    build and compare than a set of (rank, suit) tuples.

    >>> card_bit(Card.parse("2c")), card_bit(Card.parse("2s")) == 1 << 11
    (256, True)
    """
    return 1 << (card.rank * 4 + _SUIT_SHIFT[card.suit])


def _deal_counts(hand: Hand, state: ReplayState) -> Iterator[Violation]:
    totals: dict[tuple[str, Street], list[int]] = {}  # (player, street) -> [down, up, first line]
    for deal in hand.deals:
        key = (deal.player, deal.street)
        total = totals.get(key)
        if total is None:
            totals[key] = [len(deal.down), len(deal.up), deal.line]
        else:
            total[0] += len(deal.down)
            total[1] += len(deal.up)
    folded_on = state.folded
    community = hand.community_card
    for (player, street), (down, up, line) in totals.items():
        folded = folded_on.get(player)
        if folded is not None and folded < street:
            yield violation(hand, Code.CARDS, street, player, "no card", f"{down + up} card(s)",
                            f"{player} is dealt cards on {street_name(street)} after folding on {street_name(folded)}", line)
            continue
        want_down, want_up = _PER_STREET[street]
        if street is Street.SEVENTH and community is not None:
            want_down = 0
        if down != want_down or up != want_up:
            yield violation(hand, Code.CARDS, street, player, f"{want_down} down, {want_up} up", f"{down} down, {up} up",
                            f"{player} receives {down} down and {up} up card(s) on {street_name(street)}", line)


def _duplicates(hand: Hand) -> Iterator[Violation]:
    # cards are compared by (rank, suit) keys: hashing a tuple is much cheaper than a Card
    owner: dict[tuple[int, str], tuple[str, str]] = {}  # card -> (player, "deal"/"show")
    community = hand.community_card
    community_key = None if community is None else (community.rank, community.suit)
    if community_key is not None:
        owner[community_key] = ("the board", "deal")
    occurrences: list[tuple[str, Card, int, str, Street | None]] = []
    for deal in hand.deals:
        occurrences += [(deal.player, c, deal.line, "deal", deal.street) for c in (*deal.down, *deal.up) if c is not None]
    for shown in hand.showdown:
        occurrences += [(shown.player, c, shown.line, "show", None) for c in shown.cards if c is not None]
    reported: set[tuple[int, str]] = set()
    for player, card, line, source, street in occurrences:
        key = (card.rank, card.suit)
        first = owner.get(key)
        if first is None:
            owner[key] = (player, source)
            continue
        first_player, first_source = first
        if key == community_key and source == "show":
            continue  # players may show the common card as part of their hand
        if key in reported:
            continue
        if first_player != player or (source == "deal" and first_source == "deal"):
            reported.add(key)
            holder = "him already" if first_player == player else first_player
            yield violation(hand, Code.CARDS, street, player, "each card once", f"{card} twice",
                            f"{card} appears for {player} but belongs to {holder}", line)


def _showdown_agrees(hand: Hand, state: ReplayState, dealt_to: dict[str, int] | None) -> Iterator[Violation]:
    """A complete show (seven cards of his own, six with a common card) that leaves out a card dealt to
    him. ``dealt_to``: the bits of the cards dealt to each player, as :func:`_quick_scan` found them
    (None: gathered here from the walk's upcards and downcards)."""
    community = hand.community_card
    needed = 6 if community is not None else 7
    community_bit = 0 if community is None else card_bit(community)
    shift = _SUIT_SHIFT
    for shown in hand.showdown:
        if shown.status not in _SHOWN_OR_MUCKED or not shown.cards:
            continue
        own_bits = count = 0  # his own shown cards (the common card left out), and how many
        for card in shown.cards:
            if card is not None:
                bit = 1 << (card.rank * 4 + shift[card.suit])
                if bit != community_bit:
                    own_bits |= bit
                    count += 1
        if count > needed:
            yield violation(hand, Code.CARDS, None, shown.player, f"{needed} cards", f"{count} cards",
                            f"{shown.player} shows {count} cards of his own", shown.line)
            continue
        if count < needed:
            continue  # a partial show cannot contradict the deal beyond what the duplicate check sees
        # the cards dealt to him: those of the walk's upcards and downcards, which only a seated player has
        if dealt_to is not None:
            dealt_bits = dealt_to.get(shown.player, 0) if shown.player in state.upcards else 0
        else:
            dealt_bits = 0
            for cards in (*state.upcards.get(shown.player, {}).values(), state.downcards.get(shown.player, ())):
                for card in cards:
                    if card is not None:
                        dealt_bits |= 1 << (card.rank * 4 + shift[card.suit])
        if not dealt_bits & ~own_bits:
            continue  # every card dealt to him is among those he shows
        own = [c for c in shown.cards if c is not None and (community is None or c != community)]
        dealt = [c for cards in state.upcards.get(shown.player, {}).values() for c in cards if c is not None]
        dealt += [c for c in state.downcards.get(shown.player, ()) if c is not None]
        missing = sorted(set(dealt) - set(own), key=lambda c: c.bring_in_key)
        yield violation(hand, Code.CARDS, None, shown.player, " ".join(map(str, missing)), " ".join(map(str, own)),
                        f"{shown.player} shows a hand without his dealt {' '.join(map(str, missing))}", shown.line)


def _common_card(hand: Hand, state: ReplayState, profile: RuleProfile) -> Iterator[Violation]:
    seventh = state.round_of(SEVENTH)
    if seventh is None:
        if hand.community_card is not None:
            yield violation(hand, Code.CARDS, Street.SEVENTH, None, "no common card", str(hand.community_card),
                            "a common card is shown although no 7th street was dealt", hand.source.last_line)
        return
    used = 3 * len(state.dealt_in)
    for street in (FOURTH, FIFTH, SIXTH):
        rnd = state.round_of(street)
        used += len(rnd.live_at_start) if rnd else 0
    burns = 5 if profile.deck_burns else 0
    needed = used + burns + len(seventh.live_at_start) > 52
    line = min([d.line for d in seventh.deals], default=seventh.last_line)
    if hand.community_card is not None and not needed:
        yield violation(hand, Code.CARDS, Street.SEVENTH, None, "a card for each player", f"common card {hand.community_card}",
                        f"a common card is dealt although {52 - used - burns} cards remain for "
                        f"{len(seventh.live_at_start)} players", line)
    elif hand.community_card is None and needed:
        yield violation(hand, Code.CARDS, Street.SEVENTH, None, "a common card", "individual cards",
                        f"only {52 - used - burns} cards remain for {len(seventh.live_at_start)} players, "
                        "so 7th street needs a common card", line)
