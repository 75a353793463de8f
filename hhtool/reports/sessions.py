"""Sessions (`hhtool sessions`): a player's sittings, split where the time from one hand's start to
the next one's, at whatever table, reaches the gap; or, ``by_table``, his consecutive hands at one
table, split likewise.

A sitting is one player's hands in one money (a currency, or tournament chips: never summed with
money) at every table he played: one evening at two tables at once is one sitting, its tables
listed. A table is the site's table (its name and, in a tournament, the tournament) in one currency.
Per session:

* ``start``, ``end``: the first and the last hand's start, as UTC instants (``hands.started_utc``: every
  site's hands on one clock), shown in the user's zone; the duration is the time between them (a
  one-hand session lasts 0);
* ``hands_per_hour``: the pace between them, (hands − 1) per hour of duration (none for a
  session that lasts 0);
* ``net``: Σ net won in the hand's smallest units, an integer (tournament chips: chips, not money);
* ``bb_per_100``: as `stats` and `graph --unit bb` define it (docs/stats.md): 100 × Σ(net / big
  bet) / hands whose big bet is known, each hand in its own big bets — computed exactly
  (:class:`~fractions.Fraction`), rounded only where it is shown.

>>> rows = [PlayedHand("Ann", "s", "T", None, "USD", 100, datetime(2024, 1, 1, 20, 0), 8, 4),
...         PlayedHand("Ann", "s", "U", None, "USD", 100, datetime(2024, 1, 1, 20, 5), 1, 4),
...         PlayedHand("Ann", "s", "T", None, "USD", 100, datetime(2024, 1, 1, 20, 10), -2, 4),
...         PlayedHand("Ann", "s", "T", None, "USD", 100, datetime(2024, 1, 1, 21, 0), 4, 4)]
>>> [(s.table, s.hands, s.net) for s in split_sessions(rows, timedelta(minutes=30))]
[('T, U', 3, 7), ('T', 1, 4)]
>>> [(s.table, s.hands, s.net, s.bb_per_100) for s in split_sessions(rows, timedelta(minutes=30), by_table=True)]
[('T', 2, 6, Fraction(75, 1)), ('T', 1, 4, Fraction(100, 1)), ('U', 1, 1, Fraction(25, 1))]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from fractions import Fraction
from typing import Any, NamedTuple

import polars as pl

from hhtool.clock import shown
from hhtool.money import format_money
from hhtool.store.session_queries import PLAYED_COLUMNS, sessions_in_memory


class PlayedHand(NamedTuple):
    """One player's hand, as the sessions need it (money in smallest units; big_bet None: unknown)."""

    player: str
    site: str
    table: str | None
    tournament_id: str | None
    currency: str
    unit: int
    started_at: datetime
    net: int
    big_bet: int | None


def big_bets_per_100(big_bets: Fraction, hands: int) -> Fraction | None:
    """100 × Σ(net / big bet) over ``hands`` hands with a known big bet (stats' ``bb_per_100``);
    None without such a hand."""
    return None if hands == 0 else big_bets * 100 / hands


#: the currency of tournament chips (a site's play chips are another: their code is kept)
CHIPS = "CHIPS"


@dataclass(frozen=True)
class Session:
    """A sitting (or a table's session): where it holds several sites, tables or tournaments, each
    of those fields lists them, comma-separated, in the order first played; ``tables`` counts them."""

    player: str
    site: str
    table: str | None
    tournament_id: str | None
    currency: str
    unit: int
    start: datetime
    end: datetime
    hands: int
    net: int
    big_bets: Fraction  # Σ net / big bet over the hands whose big bet is known
    bb_hands: int  # those hands
    tables: int = 1

    @property
    def in_chips(self) -> bool:
        """Whether the net is tournament chips, not money."""
        return self.currency.upper() == CHIPS or (self.tournament_id is not None and self.unit == 1)

    @property
    def duration_seconds(self) -> int:
        return (self.end - self.start) // timedelta(seconds=1)

    @property
    def hands_per_hour(self) -> Fraction | None:
        seconds = self.duration_seconds
        return None if seconds <= 0 else Fraction((self.hands - 1) * 3600, seconds)

    @property
    def bb_per_100(self) -> Fraction | None:
        return big_bets_per_100(self.big_bets, self.bb_hands)


def _listed(values: Iterable[str | None]) -> str | None:
    """The values, each once, in order, comma-separated; None when there is none."""
    present = list(dict.fromkeys(value for value in values if value is not None))
    return ", ".join(present) if present else None


def found_sessions(rows: Iterable[dict[str, Any]]) -> list[Session]:
    """The sessions of :func:`~hhtool.store.session_queries.sessions_sql`'s rows (its row without a session left
    out)."""
    sessions: list[Session] = []
    for row in rows:
        parts = row["parts"]
        if not parts:
            continue
        known = [part for part in parts if part["big_bet"]]
        first = parts[0]
        sessions.append(Session(
            player=str(row["player"]), site=_listed(part["site"] for part in parts) or str(first["site"]),
            table=_listed(part["table_name"] for part in parts),
            tournament_id=_listed(part["tournament_id"] for part in parts), currency=str(row["currency"]),
            unit=int(row["unit"]), start=row["start"], end=row["end"], hands=sum(int(part["hands"]) for part in parts),
            net=sum(int(part["net"]) for part in parts),
            big_bets=sum((Fraction(int(part["net"]), int(part["big_bet"])) for part in known), Fraction(0)),
            bb_hands=sum(int(part["hands"]) for part in known),
            tables=len({(part["site"], part["table_name"], part["tournament_id"]) for part in parts})))
    return sessions


def split_sessions(hands: Iterable[PlayedHand], gap: timedelta, *, by_table: bool = False) -> list[Session]:
    """The sessions of ``hands`` (in any order; ties in time keep the order given), as
    :func:`~hhtool.store.session_queries.sessions_sql` finds them (run by an in-memory DuckDB): sittings, each
    player's hands in one money at any table, or ``by_table`` each table's; oldest first per player and money
    (and table). ``gap``: whole minutes."""
    played = list(hands)
    columns = {name: [getattr(hand, "table" if name == "table_name" else name) for hand in played]
               for name in PLAYED_COLUMNS if name not in ("file", "first_line")}
    return found_sessions(sessions_in_memory(columns, gap // timedelta(minutes=1), by_table=by_table))


# ------------------------------------------------------------------ columns, order, what is shown

#: every key of a row (--format csv / json), in order; money in smallest units beside currency and unit
KEYS = ("player", "site", "table", "tables", "tournament_id", "currency", "unit", "start", "end", "duration_seconds",
        "hands", "hands_per_hour", "net_won", "bb_per_100", "bb_per_100_hands")
LABELS = {"duration_seconds": "length", "hands_per_hour": "hands/h", "net_won": "net", "bb_per_100": "bb/100",
          "tournament_id": "tournament", "bb_per_100_hands": "bb hands"}
#: other names --sort and --columns take
ALIASES = {"duration": "duration_seconds", "pace": "hands_per_hour"}
DEFAULT_COLUMNS = ("table", "start", "duration_seconds", "hands", "hands_per_hour", "net_won", "bb_per_100")
#: never cut on the terminal; left out first where the rest does not fit
UNCUT_COLUMNS = ("start", "length")
OPTIONAL_COLUMNS = ("site", "hands/h", "length")
TEXT_KEYS = ("player", "site", "table", "tournament_id", "currency")


def sort_value(session: Session, key: str) -> Any:
    """What ``key`` sorts ``session`` by: money by its amount in currency units, exactly."""
    if key == "net_won":
        return Fraction(session.net, session.unit)
    if key == "duration_seconds":
        return session.duration_seconds
    if key == "bb_per_100_hands":
        return session.bb_hands
    return getattr(session, key)


def ordered(sessions: list[Session], key: str, descending: bool) -> list[Session]:
    """Sorted by ``key`` (None last, whichever the direction); ties newest first."""
    newest = sorted(sessions, key=lambda s: (s.start, s.player, s.site, s.table or ""), reverse=True)
    present = [s for s in newest if sort_value(s, key) is not None]
    missing = [s for s in newest if sort_value(s, key) is None]
    return sorted(present, key=lambda s: sort_value(s, key), reverse=descending) + missing


def _rounded(value: Fraction | None, places: int) -> float | None:
    return None if value is None else float(round(value, places))


def sessions_frame(sessions: Sequence[Session], zone: tzinfo = UTC) -> pl.DataFrame:
    """Every key of each session (csv, json, parquet): rates rounded to 3 places from their exact value; the
    start and end (UTC instants) as wall times of ``zone``."""
    rows = [{"player": s.player, "site": s.site, "table": s.table, "tables": s.tables, "tournament_id": s.tournament_id,
             "currency": s.currency, "unit": s.unit, "start": shown(s.start, zone), "end": shown(s.end, zone),
             "duration_seconds": s.duration_seconds, "hands": s.hands, "hands_per_hour": _rounded(s.hands_per_hour, 3),
             "net_won": s.net, "bb_per_100": _rounded(s.bb_per_100, 3), "bb_per_100_hands": s.bb_hands}
            for s in sessions]
    schema = {"player": pl.Utf8, "site": pl.Utf8, "table": pl.Utf8, "tables": pl.Int64, "tournament_id": pl.Utf8,
              "currency": pl.Utf8,
              "unit": pl.Int64, "start": pl.Datetime, "end": pl.Datetime, "duration_seconds": pl.Int64,
              "hands": pl.Int64, "hands_per_hour": pl.Float64, "net_won": pl.Int64, "bb_per_100": pl.Float64,
              "bb_per_100_hands": pl.Int64}
    return pl.DataFrame(rows, schema=schema)


def duration_text(seconds: int) -> str:
    """``1:05`` (hours:minutes) for 65 minutes; seconds are dropped, not rounded up.

    >>> duration_text(3900), duration_text(59), duration_text(36000)
    ('1:05', '0:00', '10:00')
    """
    hours, minutes = divmod(seconds // 60, 60)
    return f"{hours}:{minutes:02d}"


def _shown(session: Session, key: str, zone: tzinfo) -> object:
    if key in ("start", "end"):  # a UTC instant (durations are counted between instants), shown in the user's zone
        return f"{shown(getattr(session, key), zone):%Y-%m-%d %H:%M}"
    if key == "duration_seconds":
        return duration_text(session.duration_seconds)
    if key == "hands_per_hour":
        pace = session.hands_per_hour
        return "-" if pace is None else str(round(pace))
    if key == "net_won":  # tournament chips say so: they are no money
        return (f"{format_money(session.net, session.unit)} chips" if session.in_chips
                else format_money(session.net, session.unit, session.currency))
    if key == "bb_per_100":
        rate = session.bb_per_100
        return "-" if rate is None else f"{float(round(rate, 2)):.2f}"
    if key == "bb_per_100_hands":
        return session.bb_hands
    return getattr(session, key)


def shown_keys(sessions: Sequence[Session], columns: list[str], all_columns: bool) -> list[str]:
    """``columns`` as chosen, every key with ``--all``, else the default set with the player where
    several are listed and the site where several are."""
    if columns:
        return columns
    if all_columns:
        return [key for key in KEYS if key != "unit"]
    keys = list(DEFAULT_COLUMNS)
    if len({s.site for s in sessions}) > 1:
        keys.insert(0, "site")
    if len({s.player for s in sessions}) > 1:
        keys.insert(0, "player")
    return keys


def terminal_view(sessions: Sequence[Session], keys: list[str], zone: tzinfo = UTC) -> pl.DataFrame:
    """The columns ``keys`` as the terminal shows them, from the exact values: money spelled in its
    currency, durations as hours:minutes, bb/100 to two places, hands per hour whole, times in ``zone``."""
    whole = ("hands", "bb_per_100_hands", "unit", "tables")
    return pl.DataFrame([pl.Series(LABELS.get(key, key), [_shown(s, key, zone) for s in sessions],
                                   dtype=pl.Int64 if key in whole else pl.Utf8) for key in keys])
