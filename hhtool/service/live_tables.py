"""The table view (`hhtool serve`'s /tables, a HUD in the browser): each table with a hand in the last
minutes, the seats of its newest hand, and each player's tracker rates with their counts and whether
he has notes.

"The last minutes" are counted back from the newest stored hand's time, not from the clock: the
stored times are the histories' own (each site's zone, until they are put on one clock), and the hands
of an archive or a test were played days ago. While a player plays, the newest stored hand is his
latest, so both readings agree. The rates are the players table's (:mod:`hhtool.reports.stats`, on the
facts cache), over every hand of the player on that site, not only this table's."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from hhtool.clock import zone_name
from hhtool.money import format_money
from hhtool.service.errors import UsageError
from hhtool.service.reports import stats
from hhtool.service.stores import Database
from hhtool.service.times import display_zone, user_time
from hhtool.store.filters import HandFilter

#: minutes back from the newest hand a table's last hand may be, by default, and at most
DEFAULT_MINUTES, MOST_MINUTES = 30, 24 * 60
#: tables shown at most (the most recent)
MOST_TABLES = 24
#: a rate over this many hands or fewer is shown greyed, with its count: too few to read
SMALL_SAMPLE = 25
#: the rates shown for each player: keys of the stats rows (headers: the players table's)
RATES = ("vpip", "raise_3rd", "steal", "aggression_5th", "wtsd")


@dataclass(frozen=True)
class Rate:
    """One rate of one player: its key, the times it happened of its chances (None: no chance yet)."""

    key: str
    value: float | None
    count: int
    chances: int


@dataclass(frozen=True)
class SeatView:
    seat: int
    player: str
    hero: bool
    stack: str | None
    hands: int
    rates: tuple[Rate, ...]
    notes: int

    @property
    def small_sample(self) -> bool:
        return self.hands <= SMALL_SAMPLE


@dataclass(frozen=True)
class TableView:
    site: str
    table: str
    hand_id: str
    started_at: datetime
    timezone: str | None
    stakes: str
    seats: tuple[SeatView, ...]


@dataclass(frozen=True)
class TablesView:
    """The tables shown, the newest stored hand's time they are counted from (in the user's ``zone``, as the
    tables' times), and the minutes asked."""

    minutes: int
    newest: datetime | None
    tables: tuple[TableView, ...]
    zone: str = "UTC"


def minutes_asked(text: str | None) -> int:
    """The minutes a request asks (ASCII digits, 1 to a day), else UsageError; None: the default."""
    if text is None or not text.strip():
        return DEFAULT_MINUTES
    text = text.strip()
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= MOST_MINUTES:
        raise UsageError(f"minutes must be a whole number from 1 to {MOST_MINUTES:,}, not {text[:20]!r}")
    return int(text)


def table_view(database: Database, minutes: int = DEFAULT_MINUTES) -> TablesView:
    """The tables with a hand in the ``minutes`` before the newest stored hand, most recent first."""
    from hhtool.store.live_tables import newest_time, noted_players, seats_of, tables_since

    with database.open(read_only=True) as store:
        newest = newest_time(store)  # (UTC instants: tables of sites in other zones compare)
        zone = zone_name(display_zone())  # (every time shown in the user's zone, as every other page)
        if newest is None:
            return TablesView(minutes, None, (), zone)
        hands = tables_since(store, newest - timedelta(minutes=minutes), MOST_TABLES)
        seats = seats_of(store, [hand.hk for hand in hands])
        names_by_site: dict[str, set[str]] = {}
        for hand in hands:
            names_by_site.setdefault(hand.site, set()).update(seat.player for seat in seats if seat.hk == hand.hk)
        notes = {site: noted_players(store, site, sorted(names)) for site, names in names_by_site.items()}
    rows = {site: _rates_of(database, site, names) for site, names in names_by_site.items()}
    tables = []
    for hand in hands:
        shown = []
        for seat in (seat for seat in seats if seat.hk == hand.hk):
            hands_played, rates = rows[hand.site].get((seat.player, hand.currency), (0, _no_rates()))
            stack = None if seat.stack is None else format_money(seat.stack, hand.unit, hand.currency)
            shown.append(SeatView(seat.seat, seat.player, seat.player == hand.hero, stack, hands_played, rates,
                                  notes[hand.site].get(seat.player, 0)))
        small, big = (format_money(amount, hand.unit, hand.currency) for amount in (hand.small_bet, hand.big_bet))
        stakes = f"{small}/{big}"
        tables.append(TableView(hand.site, hand.table, hand.hand_id, _shown(hand.started_utc), zone, stakes, tuple(shown)))
    return TablesView(minutes, _shown(newest), tuple(tables), zone)


def _shown(instant: datetime) -> datetime:
    shown = user_time(instant)
    assert shown is not None
    return shown


def _no_rates() -> tuple[Rate, ...]:
    return tuple(Rate(key, None, 0, 0) for key in RATES)


def _rates_of(database: Database, site: str, names: set[str]) -> dict[tuple[str, str], tuple[int, tuple[Rate, ...]]]:
    """(hands, rates) per (player, currency) of ``names`` on ``site``: the stats report's rows."""
    if not names:
        return {}
    frame = stats(database, HandFilter(sites=(site,), players=tuple(sorted(names))))
    found: dict[tuple[str, str], tuple[int, tuple[Rate, ...]]] = {}
    for record in frame.iter_rows(named=True):
        rates = tuple(Rate(key, record.get(key), int(record.get(f"{key}_count") or 0),
                           int(record.get(f"{key}_opportunities") or 0)) for key in RATES)
        found[(str(record["player"]), str(record["currency"]))] = (int(record.get("hands") or 0), rates)
    return found


__all__ = ["DEFAULT_MINUTES", "MOST_MINUTES", "RATES", "SMALL_SAMPLE", "Rate", "SeatView", "TableView", "TablesView",
           "minutes_asked", "table_view"]
