"""All-in EV: each player's expected winnings at the moment the betting closed, less what he put in.

Defined when the betting closes before the last card with every live player but at most one all-in,
and every live player's cards are known at the showdown (docs/allin-ev.md). At that moment each live
player's cards dealt so far are known and the later ones are drawn from the unseen deck (52 cards
less every card seen by then: the live players' and the folded players' upcards). Every possible
completion (or a seeded sample of them, where there are too many) is split by the replay's own rule
(:func:`hhtool.replay.pots.split_pots`): main and side pots with their rake shares, high and low
halves, 8 or better, odd units as the hand's profile gives them.

Speed: the completions are grouped with numpy by what decides the split (per pot, who wins or ties
the high and who the low; the whole ranking under a profile that forms the pots at the showdown),
each group is split once from one of its deals and weighted by its size. Only a group whose tied
half leaves odd units that the profile gives by the cards' suits is split deal by deal, exactly.

Amounts are thousandths of the smallest unit, as integers: each player's expected winnings is a
fraction (weights over the deals); the fractions are rounded by the largest remainder so that the
players' winnings sum exactly to what the pots paid out.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol

from hhtool.evaluation import CATEGORIES, HighHand, LowHand
from hhtool.model import Card, Hand, ShowStatus, Street
from hhtool.replay.pots import build_pots, evaluate, split_pots
from hhtool.replay.profiles import RuleProfile
from hhtool.replay.result import ShowdownHand
from hhtool.replay.timeline import ReplayState

if TYPE_CHECKING:
    import numpy

__all__ = [
    "MILLI", "AllInEv", "AllInSpot", "DealValuesLike", "Reason", "allin_ev", "allin_spot", "cards_by", "milli_shares",
    "spot_ev",
]

#: EV amounts are in thousandths of the hand's smallest unit
MILLI = 1000
#: the samples drawn where the completions are too many to count (seeded by the hand: it repeats)
SAMPLES = 5_000
#: count every completion when there are at most this many
EXACT_BUDGET = 50_000


class Reason:
    """Why a hand has no all-in EV (stored in ``hands.allin_ev``), beside ``exact`` and ``sampled``."""

    EXACT = "exact"  # every completion counted
    SAMPLED = "sampled"  # a seeded sample of the completions
    NO_ALL_IN = "no_all_in"  # the betting never closed with the live players all-in
    LAST_CARD = "last_card"  # the betting went on to the last card: nothing was left to draw
    UNCONTESTED = "uncontested"  # one live player at the end
    UNSHOWN = "unshown"  # a live hand was not shown
    HIDDEN_CARD = "hidden_card"  # a card dealt by then is hidden in the history
    BAD_CARDS = "bad_cards"  # the known cards cannot be dealt (a card twice, too many players for the deck)
    NOT_REPLAYED = "not_replayed"  # the replay did not run or failed
    ERROR = "error"  # the computation failed (a fault to report)

    WORDS: Mapping[str, str] = {
        EXACT: "every completion counted",
        SAMPLED: "a seeded sample of the completions",
        NO_ALL_IN: "no all-in: the betting never closed with every live player but one all-in",
        LAST_CARD: "the betting went on to the last card",
        UNCONTESTED: "one live player at the end",
        UNSHOWN: "a live hand was not shown",
        HIDDEN_CARD: "a card dealt by then is hidden in the history",
        BAD_CARDS: "the cards known cannot be dealt",
        NOT_REPLAYED: "the hand was not replayed",
        ERROR: "the computation failed",
    }


class DealValuesLike(Protocol):
    """What :func:`hhtool.equity.deals.deal_values` returns (the part read here)."""

    @property
    def high(self) -> numpy.ndarray: ...

    @property
    def low(self) -> numpy.ndarray: ...

    @property
    def exact(self) -> bool: ...

    @property
    def deals(self) -> int: ...

    def cards_of(self, rows: Sequence[int]) -> list[list[tuple[Card, ...]]]: ...


DealValuesFunction = Callable[..., DealValuesLike]


@dataclass(frozen=True, slots=True)
class AllInSpot:
    """The moment the betting closed: on ``street``, the live ``players`` (position order) holding
    ``known`` cards each, ``dead`` the other cards seen by then."""

    street: Street
    players: tuple[str, ...]
    known: tuple[tuple[Card, ...], ...]
    dead: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class AllInEv:
    """Each dealt-in player's EV net (expected winnings less contribution), in thousandths of the
    smallest unit; ``paid`` what the pots paid out (their chips less the rake), in the same unit."""

    street: Street
    ev_net: Mapping[str, int]
    exact: bool
    deals: int
    paid: int
    players: tuple[str, ...] = ()  # the live players when the betting closed, position order

    @property
    def status(self) -> str:
        return Reason.EXACT if self.exact else Reason.SAMPLED


_SHOWN = (ShowStatus.SHOWN, ShowStatus.MUCKED)


def closing_street(state: ReplayState) -> Street | None:
    """The street whose betting round closed the betting: the first one ending with two or more live
    players of whom at most one is not all-in. None when the betting never closed so."""
    for rnd in state.rounds:
        if len(rnd.live_at_end) >= 2 and len(rnd.active_at_end) <= 1:
            return rnd.street
    return None


def cards_by(hand: Hand, state: ReplayState, player: str, street: Street) -> tuple[Card, ...] | None:
    """The cards ``player`` held once ``street`` was dealt: his 3rd-street down cards, the upcards of
    the streets up to it, and on 7th street his last down card. Down cards the history does not deal
    him come from his shown cards, which are in dealing order (the two first not dealt face up are
    his 3rd-street ones). None when one of them is not known."""
    ups = state.upcards.get(player, {})
    upcards: list[Card | None] = [c for s, cards in sorted(ups.items()) if s <= street for c in cards]
    all_ups = {c for cards in ups.values() for c in cards if c is not None}
    downs_dealt = [c for deal in hand.deals if deal.player == player for c in deal.down]
    hole = state.hole_cards.get(player)
    if street >= Street.SEVENTH:
        return hole
    downs: list[Card] | None = [c for c in downs_dealt[:2] if c is not None]
    if downs is None or len(downs) < 2:
        shown = next((s.cards for s in hand.showdown if s.player == player and s.status in _SHOWN), ())
        not_up = [c for c in shown if c is not None and c not in all_ups]
        downs = not_up[:2] if len(not_up) >= 3 or (len(not_up) == 2 and hand.community_card is not None) else None
    if downs is None or None in upcards:
        return None
    held: list[Card] = [*downs, *[c for c in upcards if c is not None]]
    if hole is not None and not set(held) <= set(hole):
        return None  # the shown hand disagrees with the deals: the CARDS check reports it
    return tuple(held)


def allin_spot(hand: Hand, state: ReplayState) -> AllInSpot | str:
    """The spot at the moment the betting closed, or the :class:`Reason` it has none."""
    if len(state.live_at_end) < 2:
        return Reason.UNCONTESTED
    street = closing_street(state)
    if street is None:
        return Reason.LAST_CARD if state.all_in & set(state.live_at_end) else Reason.NO_ALL_IN
    if street >= Street.SEVENTH:
        return Reason.LAST_CARD
    players = tuple(state.live_at_end)
    if any(state.hole_cards.get(p) is None for p in players):
        return Reason.UNSHOWN
    known: list[tuple[Card, ...]] = []
    for player in players:
        cards = cards_by(hand, state, player, street)
        if cards is None:
            return Reason.HIDDEN_CARD
        known.append(cards)
    dead = tuple(c for p, on in state.folded.items() for s, cards in state.upcards.get(p, {}).items() if s <= street
                 for c in cards if c is not None)
    return AllInSpot(street, players, tuple(known), dead)


def hand_seed(hand: Hand) -> int:
    """The sample's seed: the same hand draws the same sample on every import."""
    return zlib.crc32(f"{hand.site}\x00{hand.hand_id}".encode())


def _engine() -> DealValuesFunction:
    from hhtool.equity.deals import deal_values  # loads numpy: only when a spot needs it

    return deal_values


def allin_ev(hand: Hand, state: ReplayState, profile: RuleProfile, deal_values: DealValuesFunction | None = None,
             *, samples: int = SAMPLES, budget: int = EXACT_BUDGET) -> AllInEv | str:
    """The all-in EV of every dealt-in player of ``hand`` (walked into ``state`` under ``profile``),
    or the :class:`Reason` it is not defined."""
    spot = allin_spot(hand, state)
    if isinstance(spot, str):
        return spot
    values_of = deal_values or _engine()
    try:
        values = values_of([list(k) for k in spot.known], list(spot.dead), samples=samples, seed=hand_seed(hand),
                           budget=budget)
    except ValueError:  # the engine's SpotError: a card twice, more players than the deck serves
        return Reason.BAD_CARDS
    return spot_ev(hand, state, profile, spot, values)


def spot_ev(hand: Hand, state: ReplayState, profile: RuleProfile, spot: AllInSpot, values: DealValuesLike) -> AllInEv:
    """Split every completion of ``values`` (rows: deals, columns: ``spot.players``) and average."""
    import numpy as np

    players = spot.players
    contributions = {p: state.spent[p] - state.returns[p] for p in state.dealt_in}
    deduction = state.settlement.deduction
    splitter = _Splitter(hand, profile, state, contributions, players, deduction)
    raw_pots = build_pots(contributions, players, state.order, state.all_in)
    by_rank = profile.pots_formed_at == "showdown"  # pots formed from the winners: the whole ranking decides
    key = _outcome_keys(values.high, values.low, [[players.index(p) for p in eligible] for _, eligible in raw_pots],
                        by_rank, profile.low_half_exists == "hand")
    axis = 0 if key.ndim == 2 else None
    _, first, counts = np.unique(key, axis=axis, return_index=True, return_counts=True)
    inverse = None
    totals = dict.fromkeys(players, 0)  # sum over deals of each player's winnings
    for group, (row, count) in enumerate(zip(first.tolist(), counts.tolist(), strict=True)):
        awards, by_suit = splitter.split(values.high[row].tolist(), values.low[row].tolist())
        if by_suit and splitter.suit_matters:
            if inverse is None:
                inverse = np.unique(key, axis=axis, return_inverse=True)[1].reshape(-1)
            rows = np.flatnonzero(inverse == group).tolist()
            for cards in values.cards_of(rows):
                for player, amount in splitter.split_cards(cards).items():
                    totals[player] += amount
        else:
            for player, amount in awards.items():
                totals[player] += amount * count
    paid = splitter.paid
    winnings = milli_shares([totals[p] * MILLI for p in players], values.deals, paid * MILLI)
    ev = {p: -contributions[p] * MILLI for p in state.dealt_in}
    for player, won in zip(players, winnings, strict=True):
        ev[player] += won
    return AllInEv(spot.street, ev, bool(values.exact), int(values.deals), paid, players)


def milli_shares(numerators: Sequence[int], denominator: int, total: int) -> list[int]:
    """``numerators[i] / denominator`` rounded to integers summing to ``total`` (which must be the
    exact sum): each rounded down, then one more to the largest remainders (ties: the first).

    >>> milli_shares([1000, 1000, 1000], 3, 1000)
    [334, 333, 333]
    >>> milli_shares([3500, 1500], 2, 2500)
    [1750, 750]
    """
    if denominator <= 0:
        raise ValueError("no deals to average over")
    floors = [n // denominator for n in numerators]
    left = total - sum(floors)
    if not 0 <= left <= len(numerators):
        raise ValueError(f"the shares sum to {sum(numerators)}/{denominator}, not {total}")
    order = sorted(range(len(numerators)), key=lambda i: (-(numerators[i] % denominator), i))
    for i in order[:left]:
        floors[i] += 1
    return floors


def _outcome_keys(high: numpy.ndarray, low: numpy.ndarray, pots: Sequence[Sequence[int]], by_rank: bool,
                  hand_low: bool) -> numpy.ndarray:
    """One row per deal holding what decides its split: per pot, the players who win or tie the high
    (a bit each) and those who win or tie the low (none without a qualifying low); ``by_rank``: each
    player's high and low place instead; ``hand_low``: whether any hand has a low."""
    import numpy as np

    columns: list[numpy.ndarray] = []
    if by_rank:
        columns.extend((high[:, :, None] < high[:, None, :]).sum(axis=2).T)
        columns.extend((low[:, :, None] < low[:, None, :]).sum(axis=2).T)
        columns.extend((low == 0).T)
    else:
        for eligible in pots:
            if len(eligible) < 2:
                continue  # one player: nobody to beat
            bits = np.left_shift(1, np.array(eligible, dtype=np.int64))
            pot_high, pot_low = high[:, eligible], low[:, eligible]
            best_high = pot_high.max(axis=1, keepdims=True)
            best_low = pot_low.max(axis=1, keepdims=True)
            columns.append(((pot_high == best_high) * bits).sum(axis=1))
            columns.append(((pot_low == best_low) & (best_low > 0)).astype(np.int64) @ bits)
    if hand_low:
        columns.append(np.asarray((low > 0).any(axis=1)))
    if not columns:
        return np.zeros(len(high), dtype=np.int64)
    # one int64 per deal where the columns fit in 63 bits (np.unique on one column is far faster
    # than on rows); else the rows themselves
    widths = [max(int(np.max(column)), 1).bit_length() for column in columns]
    if sum(widths) > 63:
        return np.stack([np.asarray(c, dtype=np.int64) for c in columns], axis=1)
    packed = np.zeros(len(high), dtype=np.int64)
    for column, width in zip(columns, widths, strict=True):
        packed = (packed << width) | np.asarray(column, dtype=np.int64)
    return packed


class _Splitter:
    """Splits the pots of one hand for given hand values (or cards) by :func:`split_pots`."""

    def __init__(self, hand: Hand, profile: RuleProfile, state: ReplayState, contributions: Mapping[str, int],
                 players: tuple[str, ...], deduction: int) -> None:
        self.hand, self.profile, self.state = hand, profile, state
        self.contributions, self.players, self.deduction = contributions, players, deduction
        # a tied half's odd units go by the cards' suits under this profile (else by position)
        self.suit_matters = profile.odd_unit_tied_half != "position"
        self.by_position = replace(profile, odd_unit_tied_half="position")
        self.paid = sum(contributions.values()) - min(deduction, sum(contributions.values()))

    def _split(self, profile: RuleProfile, hands: Mapping[str, ShowdownHand],
               cards: Mapping[str, tuple[Card, ...] | None]) -> tuple[dict[str, int], bool]:
        state = self.state
        pots, awards, reasons, _, _ = split_pots(self.hand, profile, state.order, self.contributions, self.players,
                                                 self.players, hands, cards, state.all_in, self.deduction)
        if reasons:
            raise ValueError(f"an outcome left a pot undecided: {'; '.join(reasons)}")
        paid = sum(awards.values())
        if paid != self.paid:  # every pot is paid out whatever the cards: a split that loses chips is a bug
            raise ValueError(f"the pots paid {paid}, not {self.paid}")
        uneven = any(len(shares) > 1 and len({amount for _, amount in shares}) > 1
                     for pot in pots for shares in (pot.high_shares, pot.low_shares))
        return awards, uneven

    def split(self, high: Sequence[int], low: Sequence[int]) -> tuple[dict[str, int], bool]:
        """The awards of an outcome of these values, odd units of tied halves by position, and
        whether a tied half had odd units (their owner may then depend on the suits)."""
        hands = {p: ShowdownHand(p, HighHand(h, CATEGORIES[h >> 20], ()), LowHand(lo, (), ()) if lo > 0 else None, True)
                 for p, h, lo in zip(self.players, high, low, strict=True)}
        return self._split(self.by_position, hands, {})

    def split_cards(self, cards: Sequence[tuple[Card, ...]]) -> dict[str, int]:
        """The awards of one deal of these cards, exactly as the replay settles them."""
        held: dict[str, tuple[Card, ...] | None] = dict(zip(self.players, cards, strict=True))
        return self._split(self.profile, evaluate(held, self.players), held)[0]


def describe(outcome: AllInEv | str) -> str:
    """The EV's status in words."""
    return Reason.WORDS.get(outcome if isinstance(outcome, str) else outcome.status, str(outcome))


def ev_of(outcome: AllInEv | str) -> dict[str, Any]:
    """The EV as plain values (JSON)."""
    if isinstance(outcome, str):
        return {"status": outcome}
    return {"status": outcome.status, "street": int(outcome.street), "deals": outcome.deals,
            "ev_net_milli": dict(outcome.ev_net), "paid": outcome.paid, "players": list(outcome.players)}


@dataclass(frozen=True, slots=True)
class StreetEquity:
    """Each of the ``players`` live when ``street``'s betting began: his chance of the pot, as the
    engine's :func:`hhtool.equity.spot.spot_equity` reckons it from the cards dealt by then."""

    street: Street
    players: tuple[str, ...]
    equity: tuple[float, ...]
    exact: bool
    deals: int


def street_equities(hand: Hand, state: ReplayState, deal_values: DealValuesFunction | None = None, *,
                    samples: int = SAMPLES, budget: int = EXACT_BUDGET) -> list[StreetEquity]:
    """The live players' equities on every street before the last where each of their cards dealt by
    then is known (those live when its betting began), up to the street that closed the betting
    (there: those left when it closed, the moment of the all-in EV)."""
    from hhtool.equity.spot import spot_equity

    values_of = deal_values or _engine()
    closed = closing_street(state)
    last = closed or Street.SIXTH
    found: list[StreetEquity] = []
    for rnd in state.rounds:
        street = rnd.street
        if street > last or street >= Street.SEVENTH:
            break
        # on the street that closed the betting: those left when it closed (the all-in EV's moment)
        players = tuple(rnd.live_at_end if street == closed else rnd.live_at_start)
        known = [cards_by(hand, state, player, street) for player in players]
        if len(players) < 2 or any(cards is None for cards in known):
            continue
        dead = [c for p, on in state.folded.items() if p not in players
                for s, cards in state.upcards.get(p, {}).items() if s <= street for c in cards if c is not None]
        try:
            values = values_of([list(k or ()) for k in known], dead, samples=samples, seed=hand_seed(hand),
                               budget=budget)
        except ValueError:
            continue  # cards that cannot be dealt (the CARDS check reports them)
        shares = spot_equity(values)  # type: ignore[arg-type]  # the engine's own DealValues, or a like one
        found.append(StreetEquity(street, players, tuple(p.equity for p in shares.players), bool(values.exact),
                                  int(values.deals)))
    return found


def allin_view(hand: Hand, profile: RuleProfile, deal_values: DealValuesFunction | None = None) -> dict[str, Any]:
    """What `show` says of the all-in: each street's equities and the EV (or why there is none), as
    plain values (JSON; EV amounts in thousandths of the smallest unit)."""
    from hhtool.replay import walk

    state = walk(hand, profile)
    outcome = allin_ev(hand, state, profile, deal_values)
    streets = street_equities(hand, state, deal_values) if state.all_in & set(state.live_at_end) else []
    return {
        **ev_of(outcome), "words": describe(outcome),
        "streets": [{"street": int(s.street), "exact": s.exact, "deals": s.deals,
                     "equity": dict(zip(s.players, s.equity, strict=True))} for s in streets],
    }
