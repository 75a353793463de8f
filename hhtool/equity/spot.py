"""Each player's figures for a spot, from its deals' values (:func:`spot_equity`).

Per deal, a player's share of the pot: when some low qualifies, half to the best high (shared
equally among its ties) and half to the best low (likewise, so two tied lows each get a quarter);
when none does, the whole pot to the best high. ``equity`` is the mean share, ``scoop`` the chance
to take every share alone, ``high`` and ``low`` the chances to win or tie that half (no one wins a
low that does not exist), ``no_low`` the chance that no low qualifies. Shares are of an endlessly
divisible pot: odd chips belong to the all-in EV of a real pot, not to equity.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import sqrt
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy

    from hhtool.equity.deals import DealValues

__all__ = ["PlayerEquity", "SpotEquity", "deal_shares", "spot_equity"]

#: a two-sided 95 % interval is this many standard errors either side
Z_95 = 1.959963984540054


@dataclass(frozen=True)
class PlayerEquity:
    equity: float
    scoop: float
    high: float
    low: float
    stderr: float | None  # the standard error of ``equity`` when sampled, else None


@dataclass(frozen=True)
class SpotEquity:
    players: tuple[PlayerEquity, ...]
    no_low: float
    exact: bool
    deals: int

    @property
    def margin_95(self) -> float | None:
        """Half the width of the 95 % interval of the least certain player's equity (None: exact)."""
        errors = [player.stderr for player in self.players if player.stderr is not None]
        return Z_95 * max(errors) if errors and not self.exact else None


@dataclass(frozen=True)
class DealShares:
    """Per deal and player: the share of the pot, and who wins or ties each half."""

    share: numpy.ndarray  # float64 (deals, players): 0..1, each row sums to 1
    wins_high: numpy.ndarray  # bool (deals, players)
    wins_low: numpy.ndarray  # bool (deals, players); all False where no low qualifies
    has_low: numpy.ndarray  # bool (deals,)


def deal_shares(values: DealValues, players: Sequence[int] | None = None) -> DealShares:
    """Each player's share of the pot in each deal (ties share a half; no low: the high takes all).

    ``players``: the columns contesting the pot (a side pot's eligible players, in that order); a
    low qualifies only if one of them holds one. Default: every player."""
    import numpy as np

    high = values.high if players is None else values.high[:, list(players)]
    low = values.low if players is None else values.low[:, list(players)]
    wins_high = high == high.max(axis=1, keepdims=True)
    best_low = low.max(axis=1, keepdims=True)
    has_low = best_low[:, 0] > 0
    wins_low = (low == best_low) & has_low[:, None]
    high_part = wins_high / wins_high.sum(axis=1, keepdims=True)
    low_part = wins_low / np.maximum(wins_low.sum(axis=1, keepdims=True), 1)
    share = np.where(has_low[:, None], 0.5 * high_part + 0.5 * low_part, high_part)
    return DealShares(share, wins_high, wins_low, has_low)


def spot_equity(values: DealValues) -> SpotEquity:
    """The per-player figures of a spot: exact when ``values`` counted every deal."""
    import numpy as np

    if values.deals < 1:
        raise ValueError("no deals to judge")
    shares = deal_shares(values)
    alone_high = shares.wins_high & (shares.wins_high.sum(axis=1, keepdims=True) == 1)
    alone_low = shares.wins_low & (shares.wins_low.sum(axis=1, keepdims=True) == 1)
    scoops = alone_high & np.where(shares.has_low[:, None], alone_low, True)
    equity = shares.share.mean(axis=0)
    stderr = (shares.share.std(axis=0, ddof=1) / sqrt(values.deals) if values.deals > 1
              else np.full(len(equity), np.inf)) if not values.exact else None
    players = tuple(
        PlayerEquity(equity=float(equity[player]), scoop=float(scoops[:, player].mean()),
                     high=float(shares.wins_high[:, player].mean()), low=float(shares.wins_low[:, player].mean()),
                     stderr=None if stderr is None else float(stderr[player]))
        for player in range(values.high.shape[1]))
    return SpotEquity(players, no_low=float(1 - shares.has_low.mean()), exact=values.exact, deals=values.deals)
