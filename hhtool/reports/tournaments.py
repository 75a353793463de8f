"""`hhtool tournaments`: one row per tournament and player, from the stored tournament hands.

What the store holds of a tournament is what its hands state: the site, the tournament's id, when
each hand was played, the chips each player won or lost in it (tournament chips, never money), the
buy-in its header states (``hands.buy_in`` …) and the finishing place and prize a hand states for a
player (``finishes``; a hand of another game of a mixed tournament, which is not stored, keeps its
finishes on ``skipped_hands``). A tournament whose hands state no buy-in, or a player whose finish no
hand states, shows "—" there (see docs/stats.md, "Tournaments").

>>> chips_text(1250), chips_text(-40)
('1250', '-40')
>>> ordinal(1), ordinal(2), ordinal(3), ordinal(11), ordinal(22), ordinal(113)
('1st', '2nd', '3rd', '11th', '22nd', '113th')
>>> finish_text(2, 1234, "USD", 100), finish_text(8, None, None, None), finish_text(None, None, None, None)
('2nd, $12.34', '8th', '—')
"""

from __future__ import annotations

from typing import Any

import polars as pl

from hhtool.money import format_buy_in, format_money, format_named

#: every key of a row (csv, json, parquet), in order; the buy-in and the prize as integers in their
#: currency's smallest unit (``*_unit`` of them make one), NULL where no hand states them
KEYS = ("site", "tournament_id", "player", "first_hand", "last_hand", "hands", "currency", "chips_won",
        "buy_in", "buy_in_fee", "buy_in_bounty", "buy_in_currency", "buy_in_unit",
        "place", "prize", "prize_currency", "prize_unit", "finish_read", "cost", "won", "profit", "roi", "itm")
#: the terminal's headers
HEADERS = {"tournament_id": "tournament", "first_hand": "date", "last_hand": "last hand", "chips_won": "chips won",
           "buy_in": "buy-in", "place": "finish", "roi": "ROI"}
TERMINAL_KEYS = ("tournament_id", "site", "first_hand", "player", "buy_in", "hands", "place", "profit", "roi",
                 "chips_won")
UNCUT_HEADERS = ("tournament", "date", "buy-in", "finish")
OPTIONAL_HEADERS = ("chips won", "hands", "site")
#: what a cell shows where no hand states the value
UNSTATED = "—"


def tournaments_frame(rows: list[tuple[Any, ...]]) -> pl.DataFrame:
    """The rows of :func:`hhtool.store.tournament_queries.tournament_rows` with the buy-in's parts as columns of
    their own, and what they give of the money (:func:`money_result`): cost, won, profit, roi, itm (:data:`KEYS`)."""
    flat = [(*row[:8], *_buy_in_parts(row[8]), *row[9:]) for row in rows]
    schema = {"site": pl.Utf8, "tournament_id": pl.Utf8, "player": pl.Utf8, "first_hand": pl.Datetime,
              "last_hand": pl.Datetime, "hands": pl.Int64, "currency": pl.Utf8, "chips_won": pl.Int64,
              "buy_in": pl.Int64, "buy_in_fee": pl.Int64, "buy_in_bounty": pl.Int64, "buy_in_currency": pl.Utf8,
              "buy_in_unit": pl.Int64, "place": pl.Int64, "prize": pl.Int64, "prize_currency": pl.Utf8,
              "prize_unit": pl.Int64, "finish_read": pl.Boolean}
    frame = pl.DataFrame(flat, schema=schema, orient="row")
    results = [money_result(row) for row in frame.iter_rows(named=True)]
    money_schema = {"cost": pl.Int64, "won": pl.Int64, "profit": pl.Int64, "roi": pl.Float64, "itm": pl.Boolean}
    return pl.concat([frame, pl.DataFrame(results, schema=money_schema, orient="row")], how="horizontal")


def money_result(row: dict[str, Any]) -> tuple[int | None, int | None, int | None, float | None, bool | None]:
    """What a tournament row's stated buy-in and finish give, in the buy-in's currency and smallest unit:
    the cost (buy-in + fee + bounty), the prize won, the profit, the ROI (profit over cost) and
    in-the-money; None for what the histories leave unknown, never a guess:

    * no buy-in stated: cost, profit and ROI unknown;
    * no finish stated for the player (he may still be playing, or the finishing hand is not stored):
      prize, profit, ROI and in-the-money unknown;
    * a place stated with no prize on a line read whole (``finish_read``): the line names none, so none
      was paid (PokerStars writes "and received $X" for every paid place): won 0, not in the money; on a
      line not fully understood (a ticket, a note on the hand says so): the prize is unknown;
    * a prize in a currency other than the buy-in's: profit and ROI unknown (never converted).

    >>> money_result({"buy_in": 1000, "buy_in_fee": 100, "buy_in_bounty": None, "buy_in_currency": "USD",
    ...               "buy_in_unit": 100, "place": 2, "prize": 2500, "prize_currency": "USD", "prize_unit": 100})
    (1100, 2500, 1400, 1.2727, True)
    >>> money_result({"buy_in": 100, "buy_in_fee": 9, "buy_in_bounty": 0, "buy_in_currency": "PLAY",
    ...               "buy_in_unit": 1, "place": 8, "prize": None, "prize_currency": None, "prize_unit": None})
    (109, 0, -109, -1.0, False)
    >>> money_result({"buy_in": None, "buy_in_fee": None, "buy_in_bounty": None, "buy_in_currency": None,
    ...               "buy_in_unit": None, "place": None, "prize": None, "prize_currency": None, "prize_unit": None})
    (None, None, None, None, None)
    """
    cost = None if row["buy_in"] is None else row["buy_in"] + (row["buy_in_fee"] or 0) + (row["buy_in_bounty"] or 0)
    stated = row["prize"] is not None or (row["place"] is not None and row.get("finish_read") is not False)
    won = (row["prize"] or 0) if stated else None
    itm = (won > 0) if won is not None else None
    same = row["prize"] is None or (row["prize_currency"] == row["buy_in_currency"]
                                    and row["prize_unit"] == row["buy_in_unit"])
    profit = won - cost if cost is not None and won is not None and same else None
    roi = round(profit / cost, 4) if profit is not None and cost else None
    return cost, won if same else None, profit, roi, itm


def totals_frame(frame: pl.DataFrame) -> pl.DataFrame:
    """The tournaments' totals per buy-in currency (a row "unknown" for those whose buy-in no hand
    states): tournaments, how many have a known profit, their cost, prize won and profit (smallest
    units), ROI (total profit over total cost of those), in-the-money finishes of the known finishes."""
    known = pl.col("profit").is_not_null()
    # a freeroll states a buy-in of nothing, in no currency: its own group, apart from the unknown
    pool = pl.when(pl.col("buy_in").is_null()).then(None).otherwise(pl.col("buy_in_currency").fill_null(""))
    return (frame.with_columns(pool.alias("buy_in_currency"))
            .group_by(pl.col("buy_in_currency"), pl.col("buy_in_unit"), maintain_order=True)
            .agg(pl.len().alias("tournaments"), known.sum().alias("known"),
                 pl.col("cost").filter(known).sum().alias("cost"), pl.col("won").filter(known).sum().alias("won"),
                 pl.col("profit").sum().alias("profit"), pl.col("itm").sum().alias("itm"),
                 pl.col("itm").is_not_null().sum().alias("finishes"),
                 (pl.col("place").is_not_null() | pl.col("prize").is_not_null()).sum().alias("stated"))
            .with_columns(pl.when(pl.col("cost") > 0).then((pl.col("profit") / pl.col("cost")).round(4))
                          .otherwise(None).alias("roi"))
            .sort("buy_in_currency", nulls_last=True))


def totals_lines(frame: pl.DataFrame) -> list[str]:
    """The totals as sentences for the terminal, one per buy-in currency, saying what is unknown."""
    lines = []
    for row in totals_frame(frame).iter_rows(named=True):
        count = row["tournaments"]
        label = f"{count} tournament{'s' if count != 1 else ''}"
        itm = (f"in the money {row['itm']} of {row['finishes']} finish{'es' if row['finishes'] != 1 else ''} stated"
               if row["finishes"] else "no finish stated" if not row["stated"] else "in the money unknown")
        if row["stated"] > row["finishes"]:
            unread = row["stated"] - row["finishes"]
            itm += f" ({unread} finish{'es' if unread != 1 else ''} with a prize not understood)"
        if row["buy_in_currency"] is None:
            lines.append(f"total, {label} with no buy-in stated: profit and ROI unknown; {itm}")
            continue
        if row["buy_in_currency"] == "":
            lines.append(f"total, {label} with no buy-in (freeroll{'s' if count != 1 else ''}): {itm}")
            continue
        unit, currency = int(row["buy_in_unit"] or 1), str(row["buy_in_currency"])
        if row["known"]:
            roi = "—" if row["roi"] is None else f"{100 * row['roi']:+.1f}%"
            money = (f"profit {format_named(int(row['profit']), unit, currency)} (won "
                     f"{format_named(int(row['won']), unit, currency)} for {format_named(int(row['cost']), unit, currency)}"
                     f"), ROI {roi}")
        else:
            money = "profit and ROI unknown"
        unknown = count - row["known"]
        said = f" ({unknown} more of unknown result)" if unknown and row["known"] else ""
        lines.append(f"total in {currency_word(currency)}, {label}: {money}{said}; {itm}")
    return lines


def currency_word(currency: str) -> str:
    """``USD``, ``PLAY``: a currency named in a sentence (its code)."""
    return currency


def _buy_in_parts(stated: dict[str, Any] | None) -> tuple[Any, ...]:
    if stated is None:
        return (None,) * 5
    return stated["amount"], stated["fee"], stated["bounty"], stated["currency"], stated["unit"]


def chips_text(amount: int) -> str:
    """Chips as hhtool prints them (:func:`hhtool.money.format_money`, unit 1)."""
    return format_money(amount, 1, "CHIPS")


def ordinal(place: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th`` … ``11th`` … ``22nd``."""
    suffix = "th" if place % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def buy_in_text(amount: int | None, fee: int | None, bounty: int | None, currency: str | None,
                unit: int | None) -> str:
    """The buy-in as :func:`hhtool.money.format_buy_in` writes it; :data:`UNSTATED` where no hand states it."""
    if amount is None:
        return UNSTATED
    return format_buy_in(amount, fee or 0, bounty or 0, unit or 1, currency)


def finish_text(place: int | None, prize: int | None, currency: str | None, unit: int | None) -> str:
    """``2nd, $12.34``, ``8th`` (no prize stated), ``$5.00`` (a prize without a place);
    :data:`UNSTATED` where no hand states a finish."""
    parts = ([ordinal(place)] if place is not None else []) + (
        [format_named(prize, unit or 1, currency)] if prize is not None else [])
    return ", ".join(parts) or UNSTATED


def terminal_view(frame: pl.DataFrame, several_players: bool, several_sites: bool = True) -> pl.DataFrame:
    """The listing as the terminal (and HTML) shows it: the day (csv and json: to the second), the buy-in
    and the finish as text (money as :mod:`hhtool.money` writes it), chips won as chips; the player and
    the site only where the rows hold several."""
    keys = [key for key in TERMINAL_KEYS if (several_players or key != "player") and (several_sites or key != "site")]
    columns = []
    for key in keys:
        if key == "first_hand":
            column = pl.col(key).dt.strftime("%Y-%m-%d").fill_null("-")
        elif key == "chips_won":
            column = pl.col(key).map_elements(chips_text, return_dtype=pl.Utf8)
        elif key == "tournament_id":
            column = pl.col(key).fill_null("?")
        elif key == "buy_in":
            column = pl.struct("buy_in", "buy_in_fee", "buy_in_bounty", "buy_in_currency", "buy_in_unit").map_elements(
                lambda row: buy_in_text(*row.values()), return_dtype=pl.Utf8)
        elif key == "place":
            column = pl.struct("place", "prize", "prize_currency", "prize_unit").map_elements(
                lambda row: finish_text(*row.values()), return_dtype=pl.Utf8)
        elif key == "profit":
            column = pl.struct("profit", "buy_in_currency", "buy_in_unit").map_elements(
                lambda row: UNSTATED if row["profit"] is None else format_named(
                    row["profit"], row["buy_in_unit"] or 1, row["buy_in_currency"]), return_dtype=pl.Utf8)
        elif key == "roi":
            column = pl.col("roi").map_elements(lambda roi: f"{100 * roi:+.0f}%", return_dtype=pl.Utf8,
                                                skip_nulls=True).fill_null(UNSTATED)
        else:
            column = pl.col(key)
        columns.append(column.alias(HEADERS.get(key, key)))
    return frame.select(columns)
