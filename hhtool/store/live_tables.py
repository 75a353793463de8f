"""The queries of the table view (`hhtool serve`'s /tables): the tables with a hand in the last
minutes, the seats of each one's newest hand, and which of their players have notes. Rows only:
what "the last minutes" are measured from, and what is shown, is the service's."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, NamedTuple

from hhtool.store.notes_and_tags import NOTES
from hhtool.store.spec import KEYED

if TYPE_CHECKING:
    from hhtool.store import Store


class TableHand(NamedTuple):
    """A table's newest stored hand: where, when (its UTC instant; ``timezone``: its history's own label), its
    stakes and hero."""

    site: str
    table: str
    hk: int
    hand_id: str
    started_utc: datetime
    timezone: str | None
    currency: str
    unit: int
    small_bet: int
    big_bet: int
    is_tournament: bool
    hero: str | None


class SeatRow(NamedTuple):
    hk: int
    seat: int
    player: str
    stack: int | None


def newest_time(store: Store) -> datetime | None:
    """The time of the newest stored hand that states one."""
    rows = store.run("SELECT max(started_utc) FROM hands")  # (the instant: hands of sites in other zones compare)
    return rows[0][0] if rows and rows[0][0] is not None else None


def tables_since(store: Store, since: datetime, most: int) -> list[TableHand]:
    """The newest hand of each table (site and table name) with a hand at ``since`` or later, the
    most recent table first, at most ``most`` tables."""
    rows = store.run(
        "SELECT site, table_name, hk, hand_id, started_utc, timezone, currency, unit, small_bet, big_bet, "
        "is_tournament, hero FROM hands WHERE started_utc >= ? AND table_name IS NOT NULL "
        "QUALIFY row_number() OVER (PARTITION BY site, table_name ORDER BY started_utc DESC, hk DESC) = 1 "
        "ORDER BY started_utc DESC, hk DESC LIMIT ?", [since, most])
    return [TableHand(str(site), str(table), int(hk), str(hand_id), started, None if zone is None else str(zone),
                      str(currency), int(unit), int(small), int(big), bool(tournament), None if hero is None else str(hero))
            for site, table, hk, hand_id, started, zone, currency, unit, small, big, tournament, hero in rows]


def seats_of(store: Store, hks: Sequence[int]) -> list[SeatRow]:
    """The seats of the hands numbered ``hks``, in seat order (those sitting out left out); read from
    the per-hand table itself (the view ``seats`` joins every hand to name its site)."""
    if not hks:
        return []
    marks = ", ".join("?" for _ in hks)
    rows = store.run(f"SELECT hk, seat, player, stack FROM {KEYED}.seats WHERE hk IN ({marks}) AND NOT sitting_out "
                     "ORDER BY hk, seat", list(hks))
    return [SeatRow(int(hk), int(seat), str(player), None if stack is None else int(stack))
            for hk, seat, player, stack in rows]


def noted_players(store: Store, site: str, names: Sequence[str]) -> dict[str, int]:
    """Of ``names`` (players on ``site``), those with notes (on that site or on none), and how many."""
    if not names:
        return {}
    marks = ", ".join("?" for _ in names)
    rows = store.run(f"SELECT key, count(*) FROM {NOTES} WHERE target = 'player' AND key IN ({marks}) "
                     "AND (site IS NULL OR site = ?) GROUP BY key", [*names, site])
    return {str(key): int(count) for key, count in rows}


__all__ = ["SeatRow", "TableHand", "newest_time", "noted_players", "seats_of", "tables_since"]
