"""Pots for the simulator: main and side pots from the contributions, the rake spread over
them, and each pot split between the best high and the best 8-or-better low.

The rules are those of ``stud8-rules.md`` R12-R15 with the defaults the PokerStars profile of the
replay engine uses, written independently of it (the simulator imports only the model and the
evaluator), so that the round trip simulate -> import -> audit compares two implementations.
"""

from __future__ import annotations

from hhtool.evaluation import HighHand, LowHand, best_high, best_low
from hhtool.model import Award, Card, Half


def build_pots(contributions: list[tuple[str, int, bool, bool]]) -> list[tuple[int, tuple[str, ...]]]:
    """Main and side pots from (player, total put in after returns, still live, all-in), in position order.

    Each all-in level of a live player below the top live contribution closes a pot; a live player
    who is not all-in is eligible for every pot (one who anted a unit more than the others makes no
    level of his own); folded players' chips stay in the pots but make nobody eligible; adjacent pots
    with the same eligible players merge.

    >>> build_pots([("A", 10, True, True), ("B", 30, True, False), ("C", 30, True, False), ("D", 5, False, False)])
    [(35, ('A', 'B', 'C')), (40, ('B', 'C'))]
    >>> build_pots([("A", 31, True, False), ("B", 30, True, False)])
    [(61, ('A', 'B'))]
    """
    top = max(put for _, put, live, _ in contributions if live)
    levels = sorted({put for _, put, live, all_in in contributions if live and all_in and put < top} | {top})
    pots: list[tuple[int, tuple[str, ...]]] = []
    below = 0
    for level in levels:
        amount = sum(min(put, level) - min(put, below) for _, put, _, _ in contributions)
        if level == top:  # chips above the last live level (folded players' overcalls cannot exist: returned)
            amount += sum(max(0, put - level) for _, put, _, _ in contributions)
        eligible = tuple(name for name, put, live, all_in in contributions if live and (put >= level or not all_in))
        if pots and pots[-1][1] == eligible:
            pots[-1] = (pots[-1][0] + amount, eligible)
        elif amount:
            pots.append((amount, eligible))
        below = level
    return pots


def allocate_rake(pots: list[int], rake: int, how: str = "proportional") -> list[int]:
    """Share the hand's rake between the pots, as the site's ``rake_allocation`` says.

    ``proportional`` (PokerStars): in proportion to the pots' sizes, rounded down; the units left
    over go to the pots with the largest remainders (then the larger pot, then main first).
    ``main_pot`` (Full Tilt) or ``last_pot``: all from that pot, any part it cannot cover from the
    next pot towards the other end.

    >>> allocate_rake([44, 64], 5), allocate_rake([10, 10, 10], 2)
    ([2, 3], [1, 1, 0])
    >>> allocate_rake([44, 64], 5, "main_pot"), allocate_rake([3, 64], 5, "main_pot"), allocate_rake([44, 64], 5, "last_pot")
    ([5, 0], [3, 2], [0, 5])
    """
    if how not in ("proportional", "main_pot", "last_pot"):
        raise ValueError(f"unknown rake allocation {how!r}")
    if how != "proportional":
        order = range(len(pots)) if how == "main_pot" else range(len(pots) - 1, -1, -1)
        taken = [0] * len(pots)
        left = rake
        for index in order:
            taken[index] = min(left, pots[index])
            left -= taken[index]
        return taken
    total = sum(pots)
    if not total:
        return [0] * len(pots)
    shares = [rake * amount // total for amount in pots]
    by_remainder = sorted(range(len(pots)), key=lambda i: (-(rake * pots[i] % total), -pots[i], i))
    for index in by_remainder[: rake - sum(shares)]:
        shares[index] += 1
    return shares


Evaluated = tuple[HighHand, LowHand | None]


def evaluate(cards: list[Card]) -> Evaluated:
    return best_high(cards), best_low(cards)


def split_pot(net: int, pot: int, eligible: tuple[str, ...], hands: dict[str, Evaluated],
              position: dict[str, int]) -> list[Award]:
    """Awards for one pot after rake: high winners first, then low winners; one eligible player
    takes the pot whole. Tied winners get the odd units of their half one each, the player with the
    highest card of the winning five (rank, then suit c<d<h<s; ace low in a low) first, then by
    position."""
    if len(eligible) == 1:
        return [Award(eligible[0], net, pot, Half.WHOLE)] if net else []
    highs = {name: hands[name][0] for name in eligible}
    lows = {name: low for name in eligible if (low := hands[name][1]) is not None}
    top_high = max(hand.value for hand in highs.values())
    high_winners = [n for n in eligible if highs[n].value == top_high]
    high_winners.sort(key=lambda n: (-_top_card(highs[n].cards, False), position[n]))
    if not lows:
        return _share(net, pot, high_winners, Half.WHOLE)
    top_low = max(low.value for low in lows.values())
    low_winners = [n for n in eligible if n in lows and lows[n].value == top_low]
    low_winners.sort(key=lambda n: (-_top_card(lows[n].cards, True), position[n]))
    low_half = net // 2
    return _share(net - low_half, pot, high_winners, Half.HIGH) + _share(low_half, pot, low_winners, Half.LOW)


def _top_card(cards: tuple[Card, ...], ace_low: bool) -> int:
    return max((card.low_rank if ace_low else card.rank) * 4 + "cdhs".index(card.suit) for card in cards)


def _share(amount: int, pot: int, winners: list[str], half: Half) -> list[Award]:
    base, odd = divmod(amount, len(winners))
    shares = [(name, base + (1 if i < odd else 0)) for i, name in enumerate(winners)]
    return [Award(name, share, pot, half) for name, share in shares if share]  # nobody collects nothing
