"""`hhtool equity`: a spot's cards as the user typed them -> each player's equity (hhtool.equity).

The checks a user's text needs (a bad card, a card twice, too many players) become UsageErrors with
one line saying which; the counting is :mod:`hhtool.equity`'s.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from hhtool.service.errors import UsageError

if TYPE_CHECKING:  # loaded when a spot is asked for: `hhtool --help` stays light
    from hhtool.equity.spot import SpotEquity
    from hhtool.model import Card

__all__ = ["DEFAULT_SAMPLES", "EquityRequest", "EquityResult", "parse_cards", "spot"]

#: samples enough for +-0.5 % at 95 % on any equity: a share lies in [0, 1], so its standard
#: deviation is at most 0.5, and 1.96 * 0.5 / sqrt(40,000) = 0.49 %
DEFAULT_SAMPLES = 40_000

_SEPARATORS = re.compile(r"[\s,]+")


@dataclass(frozen=True)
class EquityRequest:
    players: tuple[str, ...]  # each player's known cards as typed ("As 2s 3h")
    dead: str = ""
    exact: bool = False  # always count every deal (else: when they fit the budget)
    samples: int = DEFAULT_SAMPLES
    seed: int = 0


@dataclass(frozen=True)
class EquityResult:
    players: tuple[tuple[Card, ...], ...]
    dead: tuple[Card, ...]
    equity: SpotEquity


def parse_cards(text: str, whose: str) -> tuple[Card, ...]:
    """Cards separated by spaces or commas ("As 2s 3h"), or written together ("As2s3h")."""
    from hhtool.model import Card

    found: list[Card] = []
    for word in filter(None, _SEPARATORS.split(text)):
        parts = [word[i : i + 2] for i in range(0, len(word), 2)] if len(word) > 3 and len(word) % 2 == 0 else [word]
        for part in parts:
            try:
                found.append(Card.parse(part))
            except ValueError:
                raise UsageError(f"not a card: {part!r} ({whose}): write rank then suit, e.g. As Td 9c") from None
    return tuple(found)


def spot(request: EquityRequest) -> EquityResult:
    """Each player's equity, scoop, high and low chances in the spot (exact or sampled)."""
    from hhtool.equity.deals import MAX_DEALS, SpotError, deal_values
    from hhtool.equity.spot import spot_equity

    players = tuple(parse_cards(text, f"player {number}") for number, text in enumerate(request.players, start=1))
    dead = parse_cards(request.dead, "--dead")
    if not 1 <= request.samples <= MAX_DEALS:
        raise UsageError(f"--samples must be 1 to {MAX_DEALS:,}, got {request.samples:,}")
    if request.seed < 0:
        raise UsageError(f"--seed must be 0 or more, got {request.seed}")
    try:
        values = deal_values(players, dead, exact=True if request.exact else None, samples=request.samples,
                             seed=request.seed)
    except SpotError as error:
        raise UsageError(str(error)) from None
    return EquityResult(players, dead, spot_equity(values))
