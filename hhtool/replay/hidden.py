"""What a hidden card could be, for the checks whose input the history partly hides (R3 bring-in,
R7 opener). A hidden card is one of the cards seen nowhere in the hand, or, for a player who showed
his whole hand at showdown, one of his own shown cards not otherwise placed. A check is verifiable
when every such value gives the same answer.

>>> sorted(rank_multisets({14: 1, 13: 4}, 2, descending=True))
[(13, 13), (14, 13)]
>>> available = {14: 1, 13: 4, 2: 4}
>>> next(rank_multisets(available, 2, descending=True)), next(rank_multisets(available, 2, descending=False))
((14, 13), (2, 13))
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from itertools import combinations, combinations_with_replacement

from hhtool.model import SUIT_CHARS, Card, Hand, ShowStatus
from hhtool.replay.timeline import ReplayState

DECK: tuple[Card, ...] = tuple(Card(rank, suit) for rank in range(2, 15) for suit in SUIT_CHARS)
_SHOWN = (ShowStatus.SHOWN, ShowStatus.MUCKED)


def _known_cards(
    hand: Hand | None, state: ReplayState,
) -> tuple[frozenset[Card], dict[str, frozenset[Card]], tuple[Card, ...]]:
    """(every card seen anywhere in the hand, each player's shown cards, the cards seen nowhere)."""
    memo_key = "hidden.seen"
    cached = state.memo.get(memo_key)
    if isinstance(cached, tuple) and cached[0] is hand:
        return cached[1], cached[2], cached[3]
    seen: set[Card] = set()
    for by_street in state.upcards.values():
        for dealt in by_street.values():
            seen.update(card for card in dealt if card is not None)
    for down in state.downcards.values():
        seen.update(card for card in down if card is not None)
    shown: dict[str, frozenset[Card]] = {}
    if hand is not None:
        for show in hand.showdown:
            if show.status in _SHOWN and show.cards:
                own = frozenset(card for card in show.cards if card is not None)
                shown[show.player] = shown.get(show.player, frozenset()) | own
                seen.update(own)
        if hand.community_card is not None:
            seen.add(hand.community_card)
    else:
        for player, full in state.hole_cards.items():
            if full:
                shown[player] = frozenset(full)
                seen.update(full)
    unseen = tuple([card for card in DECK if card not in seen])
    state.memo[memo_key] = (hand, frozenset(seen), shown, unseen)
    return frozenset(seen), shown, unseen


def hidden_pool(hand: Hand | None, state: ReplayState, player: str) -> tuple[Card, ...]:
    """The cards one of ``player``'s hidden cards may be. Without ``hand`` (the showdown), only the
    deals and the replay's known hands are used: a larger pool, never a wrong one."""
    return _pool_and_ranks(hand, state, player)[0]


def hidden_ranks(hand: Hand | None, state: ReplayState, player: str) -> dict[int, int]:
    """rank -> how many cards of that rank ``player``'s hidden cards may be (see hidden_pool).
    Players who share a pool (the cards seen nowhere) get the same dict, so a search on it can be shared."""
    return _pool_and_ranks(hand, state, player)[1]


def _pool_and_ranks(hand: Hand | None, state: ReplayState, player: str) -> tuple[tuple[Card, ...], dict[int, int]]:
    cached = state.memo.get("hidden.pools")
    if not (isinstance(cached, tuple) and cached[0] is hand):
        cached = state.memo["hidden.pools"] = (hand, {})  # one pool per player and replay: every street asks again
    pools: dict[str, tuple[tuple[Card, ...], dict[int, int]]] = cached[1]
    found = pools.get(player)
    if found is None:
        pool = _pool(hand, state, player)
        shared = next((counts for other, counts in pools.values() if other is pool), None)
        found = pools[player] = (pool, shared if shared is not None else rank_counts(pool))
    return found


def _pool(hand: Hand | None, state: ReplayState, player: str) -> tuple[Card, ...]:
    seen, shown, unseen = _known_cards(hand, state)
    own_shown = shown.get(player, frozenset())
    if not own_shown:
        return unseen  # the usual case, shared by every hidden player of the hand
    dealt = {card for dealt in state.upcards.get(player, {}).values() for card in dealt if card is not None}
    dealt.update(card for card in state.downcards.get(player, ()) if card is not None)
    community = hand.community_card if hand is not None else None
    extra = own_shown - dealt - ({community} if community is not None else set())
    needed = 6 if community is not None else 7
    if len(own_shown - ({community} if community is not None else set())) >= needed:
        return tuple(sorted(extra, key=lambda c: (c.rank, c.suit)))  # his whole hand is known: the hidden cards are in it
    return tuple(card for card in DECK if card not in seen or card in extra) if extra else unseen


def names_of(players: list[str] | tuple[str, ...]) -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    return players[0] if len(players) == 1 else f"{', '.join(players[:-1])} and {players[-1]}"


def rank_counts(pool: tuple[Card, ...]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for card in pool:
        counts[card.rank] = counts.get(card.rank, 0) + 1
    return counts


def rank_multisets(available: Mapping[int, int], size: int, descending: bool) -> Iterator[tuple[int, ...]]:
    """Every multiset of ``size`` ranks the available cards allow (rank -> how many), each once.
    ``descending``: the strongest first (highest ranks, the most of each); else the weakest first
    (distinct low ranks, then the rest), so a search for a board that beats, or loses to, another
    stops early."""
    ranks = sorted((rank for rank, count in available.items() if count > 0), reverse=descending)
    if not descending:
        yield from combinations(ranks, size)  # no rank twice: every one is available
    for combo in combinations_with_replacement(ranks, size):
        repeated = len(set(combo)) < size
        if (repeated or descending) and all(combo.count(rank) <= available[rank] for rank in set(combo)):
            yield combo
