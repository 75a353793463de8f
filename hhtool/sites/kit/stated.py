"""What a line site learns about a hand beyond the builder's lists: its header (hand id, unit and
currency, game, time, the stakes it states) and the facts most sites state in their lines. A site's
header reading makes one of these; its line readers fill in the rest; the base builds the Hand.
Imports point one way: this module imports only the model.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from hhtool.model import BuyIn, Card, Finish, Note, Restatement, StatedPot, Structure


@dataclass(frozen=True)
class StatedStakes:
    """The amounts a header states, as written; they are read into money once the hand's lines are
    read (so that a line's error is the one reported), at ``line``. None where the header is silent."""

    line: int = 0
    small_bet: str | None = None
    big_bet: str | None = None
    ante: str | None = None


@dataclass
class StatedHand:
    """A hand's facts outside the builder's lists; a site's own state adds its fields. The header
    reading sets the first group, the line readers most of the rest. :meth:`hand_fields` gives those
    a Hand holds (the table size and stakes go into the Stakes)."""

    # the header's
    hand_id: str = ""
    unit: int = 100
    currency: str = "CHIPS"
    structure: Structure = Structure.FIXED_LIMIT
    is_tournament: bool = False
    tournament_id: str | None = None
    game_label: str = ""
    started_at: datetime | None = None
    timezone: str | None = None
    stated: StatedStakes = StatedStakes()
    buy_in: BuyIn | None = None  # a tournament's buy-in, where the header states it
    # the header's or the lines'
    table_name: str | None = None
    table_size: int | None = None
    dealer_seat: int | None = None
    hero: str | None = None
    total_pot: int | None = None  # before rake, as the model defines it
    rake: int | None = None
    fees: int = 0
    community_card: Card | None = None
    stated_pots: list[StatedPot] = field(default_factory=list)  # per-pot amounts of the summary
    restatements: list[Restatement] = field(default_factory=list)  # facts stated a second time
    finishes: list[Finish] = field(default_factory=list)  # finishing places the lines state
    #: the hand's lines, for a reader that looks ahead (``token.index`` is a token's place here)
    tokens: list[Any] = field(default_factory=list, repr=False)
    #: what the header reading noted (a date that is none), given to the hand with the lines' notes
    notes: list[Note] = field(default_factory=list)

    def hand_fields(self) -> dict[str, Any]:
        """Keyword arguments for :meth:`HandBuilder.build`."""
        return {"started_at": self.started_at, "timezone": self.timezone, "tournament_id": self.tournament_id,
                "game_label": self.game_label, "table_name": self.table_name, "dealer_seat": self.dealer_seat,
                "hero": self.hero, "total_pot": self.total_pot, "rake": self.rake, "fees": self.fees,
                "community_card": self.community_card, "stated_pots": tuple(self.stated_pots),
                "restatements": tuple(self.restatements), "buy_in": self.buy_in, "finishes": tuple(self.finishes)}
