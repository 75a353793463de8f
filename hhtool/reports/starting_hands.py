"""Stud's classic 3rd-street starting-hand groups (`hhtool stats --by start`).

A player's three 3rd-street cards (two down, the door card up) fall in the first group that fits
(:func:`hhtool.store.start_groups.start_group_sql` is the definition, computed with the facts):

1. ``rolled-up trips``: three of a kind;
2. ``buried pair R``: the two down cards pair (rank R), the door card is another rank;
3. ``split pair R``: the door card pairs one of the down cards (rank R);
4. ``three to a low``: three different ranks, each 8 or lower (the ace is low) — suited or connected
   ones too: for hi/lo the low is what they are played for;
5. ``three to a flush``: three cards of one suit;
6. ``three to a straight``: three different ranks within five consecutive ranks (the ace high or low),
   e.g. 9-T-Q, J-Q-K, A-K-J;
7. ``high cards, door R``: anything else, by the rank of the door card R;
8. ``unknown``: the three cards are not all known (another player's hole cards, unless the history
   states them on 3rd street).

>>> [start_group(cards) for cards in ("Kd Ks Kh", "9c 9d Ah", "Ah 7c As", "2c 7d Ah")]
['rolled-up trips', 'buried pair 9', 'split pair A', 'three to a low']
>>> [start_group(cards) for cards in ("Kh 2h 9h", "9c Td Qh", "Ac Kd Jh", "Kc 2d 9h", "?? 2d 9h")]
['three to a flush', 'three to a straight', 'three to a straight', 'high cards, door 9', 'unknown']
>>> start_order("buried pair A") < start_order("buried pair K") < start_order("split pair A")
True
"""

from __future__ import annotations

from hhtool.store.start_groups import RANKS, UNKNOWN, start_group

_FIXED = ["rolled-up trips", *(f"buried pair {r}" for r in RANKS), *(f"split pair {r}" for r in RANKS),
          "three to a low", "three to a flush", "three to a straight", *(f"high cards, door {r}" for r in RANKS),
          UNKNOWN]
ORDER = {group: index for index, group in enumerate(_FIXED)}


def start_order(group: str) -> int:
    """Where ``group`` is listed: trips, buried pairs, split pairs (aces first), low, flush,
    straight, high cards by door rank, unknown."""
    return ORDER.get(group, len(ORDER))


#: the groups for ``hhtool stats --help``
GROUPS_HELP = ("--by start groups a player's 3rd-street cards (two down, the door up) by the first that fits: "
               "rolled-up trips; buried pair R (the down cards pair); split pair R (the door pairs a down card); "
               "three to a low (three ranks 8 or lower, ace low, suited or connected too); three to a flush; "
               "three to a straight (three ranks within five in a row, ace high or low); high cards, door R "
               "(the rest, by the door card's rank); unknown (the cards are not all known: another player's "
               "hole cards). Rows: hands, vpip, net and bb/100 of each group.")


__all__ = ["GROUPS_HELP", "ORDER", "RANKS", "UNKNOWN", "start_group", "start_order"]
