"""`hhtool tournaments`: one row per tournament and player, from the stored tournament hands.

What the store holds of a tournament is what its hands state: the site, the tournament's id, when
each hand was played, and the chips each player won or lost in it (tournament chips, never money).
The buy-in and the finishing place are not stored (see docs/stats.md, "Tournaments").

>>> chips_text(1250), chips_text(-40)
('1250', '-40')
"""

from __future__ import annotations

from typing import Any

import polars as pl

from hhtool.money import format_money

#: every key of a row (csv, json, parquet), in order
KEYS = ("site", "tournament_id", "player", "first_hand", "last_hand", "hands", "currency", "chips_won")
#: the terminal's headers
HEADERS = {"tournament_id": "tournament", "first_hand": "date", "last_hand": "last hand", "chips_won": "chips won"}
TERMINAL_KEYS = ("tournament_id", "site", "first_hand", "player", "hands", "chips_won")
UNCUT_HEADERS = ("tournament", "date")
OPTIONAL_HEADERS = ("site",)


def tournaments_sql(facts: str, whose: str) -> str:
    """The rows of the facts query ``facts`` (tournament hands) summed per tournament and player."""
    return f"""SELECT f.site, h.tournament_id, f.player, min(f.started_at) AS first_hand,
                      max(f.started_at) AS last_hand, CAST(count(*) AS BIGINT) AS hands,
                      any_value(f.currency) AS currency, CAST(sum(f.net) AS BIGINT) AS chips_won
               FROM ({facts}) f JOIN hands h ON h.site = f.site AND h.hand_id = f.hand_id
               WHERE f.is_tournament AND {whose}
               GROUP BY f.site, h.tournament_id, f.player
               ORDER BY first_hand DESC NULLS LAST, f.site, h.tournament_id, f.player"""


def tournaments_frame(rows: list[tuple[Any, ...]]) -> pl.DataFrame:
    schema = {"site": pl.Utf8, "tournament_id": pl.Utf8, "player": pl.Utf8, "first_hand": pl.Datetime,
              "last_hand": pl.Datetime, "hands": pl.Int64, "currency": pl.Utf8, "chips_won": pl.Int64}
    return pl.DataFrame(rows, schema=schema, orient="row")


def chips_text(amount: int) -> str:
    """Chips as hhtool prints them (:func:`hhtool.money.format_money`, unit 1)."""
    return format_money(amount, 1, "CHIPS")


def terminal_view(frame: pl.DataFrame, several_players: bool) -> pl.DataFrame:
    """The listing as the terminal (and HTML) shows it: the date to the minute, chips won as chips."""
    keys = [key for key in TERMINAL_KEYS if several_players or key != "player"]
    columns = []
    for key in keys:
        if key == "first_hand":
            column = pl.col(key).dt.strftime("%Y-%m-%d %H:%M").fill_null("-")
        elif key == "chips_won":
            column = pl.col(key).map_elements(chips_text, return_dtype=pl.Utf8)
        elif key == "tournament_id":
            column = pl.col(key).fill_null("?")
        else:
            column = pl.col(key)
        columns.append(column.alias(HEADERS.get(key, key)))
    return frame.select(columns)
