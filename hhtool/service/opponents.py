"""A player against one opponent (the web app's player page and its "against" page): his opponents by
hands dealt in together, and the hands both played with each one's net (the definition:
:mod:`hhtool.store.opponents`). A name is a player of any site or an alias, as everywhere
(an alias's names, else the name on any site); an unknown one is a UsageError with the close names."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from hhtool.money import format_money
from hhtool.service.errors import UsageError
from hhtool.service.filters import require_matches
from hhtool.service.stores import Database
from hhtool.service.times import user_time
from hhtool.store.filters import HandFilter

if TYPE_CHECKING:
    from hhtool.store import Store
    from hhtool.store.opponents import Condition, Who

#: opponents listed on a player's page, and hands listed on the "against" page
OPPONENTS_SHOWN = 30
HANDS_SHOWN = 100


@dataclass(frozen=True)
class Opponent:
    """An opponent of the player on one site, in one currency: the hands both were dealt in, and each
    one's net in them (spelled, beside the amounts)."""

    name: str
    site: str
    currency: str
    hands: int
    net: str
    net_amount: int
    opponent_net: str
    opponent_net_amount: int


@dataclass(frozen=True)
class HandTogether:
    site: str
    hand_id: str
    started_at: datetime | None
    table: str | None
    player: str
    net: str
    net_amount: int
    opponent: str
    opponent_net: str
    opponent_net_amount: int


@dataclass(frozen=True)
class Against:
    """The player against the opponent: the sums by site and currency, and the latest hands."""

    player: str
    opponent: str
    sums: list[Opponent]
    hands: list[HandTogether]


def _conditions(store: Store, hand_filter: HandFilter, player: str,
                opponent: str | None) -> tuple[Condition, Who, Who | None]:
    """The hands' condition and each side's names: an alias's names site by site, else the name on any
    site (as :func:`hhtool.store.filters.player_condition` reads a name)."""
    from hhtool.store.aliases import members
    from hhtool.store.opponents import Condition, Who

    grouped = members(store)

    def who(name: str) -> Who:
        named = tuple((site, member) for person, site, member in grouped if person == name)
        return Who(on_site=named) if named else Who(anywhere=(name,))

    where, params = replace(hand_filter, players=()).sql()
    return Condition(where, params), who(player), None if opponent is None else who(opponent)


def _opponent(row: dict[str, Any]) -> Opponent:
    unit, currency = int(row["unit"]), str(row["currency"])
    net, other = int(row["net"]), int(row["opponent_net"])
    return Opponent(str(row["opponent"]), str(row["site"]), currency, int(row["hands"]),
                    format_money(net, unit, currency), net, format_money(other, unit, currency), other)


def opponents_of(database: Database, hand_filter: HandFilter, player: str, limit: int = OPPONENTS_SHOWN) -> list[Opponent]:
    """The player's opponents, most hands together first (UsageError: no such player, or the filter
    selects none of his hands)."""
    from hhtool.store.opponents import opponents

    with database.open(read_only=True) as store:
        require_matches(store, replace(hand_filter, players=(player,)))
        hands, mine, _ = _conditions(store, hand_filter, player, None)
        return [_opponent(row) for row in opponents(store, hands, mine, None, limit)]


def against(database: Database, hand_filter: HandFilter, player: str, opponent: str, limit: int = HANDS_SHOWN) -> Against:
    """The hands both played (newest first, at most ``limit``) and the sums of each one's net in them."""
    from hhtool.store.opponents import hands_together, opponents

    if player == opponent:
        raise UsageError(f"{player!r} against himself: choose another player as the opponent")
    with database.open(read_only=True) as store:
        for name in (player, opponent):
            require_matches(store, replace(hand_filter, players=(name,)))
        hands, mine, theirs = _conditions(store, hand_filter, player, opponent)
        assert theirs is not None
        sums = [_opponent(row) for row in opponents(store, hands, mine, theirs, 1000)]
        rows = hands_together(store, hands, mine, theirs, limit)
    listed = []
    for row in rows:
        unit, currency = int(row["unit"]), str(row["currency"])
        listed.append(HandTogether(str(row["site"]), str(row["hand_id"]), user_time(row["started_at"]), row["table"],
                                   str(row["player"]), format_money(int(row["net"]), unit, currency), int(row["net"]),
                                   str(row["opponent"]), format_money(int(row["opponent_net"]), unit, currency),
                                   int(row["opponent_net"])))
    return Against(player, opponent, sums, listed)


__all__ = ["HANDS_SHOWN", "OPPONENTS_SHOWN", "Against", "HandTogether", "Opponent", "against", "opponents_of"]
