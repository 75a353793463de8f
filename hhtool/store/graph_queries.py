"""The queries of the winnings graph (:mod:`hhtool.reports.graph`, :mod:`hhtool.reports.graph_buckets`):
the heroes of a selection, a player's hands in order with what each won, and the long series summed in
DuckDB per span of time (a bucket), with the last hand of a bucket looked up when asked.

The report decides what is drawn (a date, a known big bet: ``dated``, ``in_big_bets``) and how wide a
bucket is; here the facts are only read and summed.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from hhtool.store.player_facts_cache import selected_facts, summed_facts

if TYPE_CHECKING:
    import polars as pl

    from hhtool.store import Store
    from hhtool.store.filters import HandFilter

#: a hand's row of the series, in the series' order
SERIES_COLUMNS = ("site", "hand_id", "started_at", "currency", "unit", "big_bet", "net", "went_sd", "ev_net_milli")


def heroes(store: Store, hand_filter: HandFilter) -> list[str]:
    """The heroes of the hands ``hand_filter`` selects, A to Z."""
    where, params = hand_filter.sql()
    rows = store.run(f"SELECT DISTINCT h.hero FROM hands h WHERE h.hero IS NOT NULL AND {where} ORDER BY 1", params)
    return [str(row[0]) for row in rows]


def winnings_rows(store: Store, hand_filter: HandFilter, player: str, currency: str | None = None) -> pl.DataFrame:
    """The player's hands the filter selects (of ``currency`` when given), one row each (:data:`SERIES_COLUMNS`),
    in the series' order: start time (none last), file, line, site, id."""
    selected = replace(hand_filter, players=(player,))
    condition, condition_params = ("h.currency = ?", (currency,)) if currency is not None else ("TRUE", ())
    with selected_facts(store, selected, condition, condition_params) as (facts, params):
        return store.frame(
            f"""SELECT {', '.join(SERIES_COLUMNS)} FROM ({facts}) f
                ORDER BY started_at NULLS LAST, file, first_line, site, hand_id""", params)


def hands_per_currency(store: Store, hand_filter: HandFilter, player: str) -> dict[str, int]:
    """The player's hands in each currency (most first), from the daily sums."""
    with summed_facts(store, replace(hand_filter, players=(player,)), ("currency",)) as (sums, params):
        rows = store.run(f"SELECT currency, sum(hands) FROM ({sums}) s GROUP BY 1 ORDER BY 2 DESC, 1", params)
    return {str(currency): int(count) for currency, count in rows}


def dated_hands_per_day(store: Store, hand_filter: HandFilter, player: str, currency: str) -> list[tuple[int, int]]:
    """(the day's start in epoch seconds, the player's hands that day) of each day he played in ``currency``."""
    with summed_facts(store, replace(hand_filter, players=(player,)), ("started_at", "currency")) as (sums, params):
        days = store.run(f"SELECT epoch(date_trunc('day', started_at)), sum(hands) FROM ({sums}) s WHERE currency = ? "
                         "AND started_at IS NOT NULL GROUP BY 1", [*params, currency])
    return [(int(day), int(hands)) for day, hands in days]


def _drawn(*, dated: bool, in_big_bets: bool) -> str:
    """The condition on a facts row ``h`` that its hand is drawn: with a date (``dated``), with a known big bet
    (``in_big_bets``)."""
    kept = ["TRUE"]
    if dated:
        kept.append("h.started_at IS NOT NULL")
    if in_big_bets:
        kept.append("h.big_bet IS NOT NULL AND h.big_bet > 0")
    return " AND ".join(kept)


def bucket_sums(store: Store, hand_filter: HandFilter, player: str, currency: str, width: int, *, dated: bool,
                in_big_bets: bool) -> list[tuple[Any, ...]]:
    """Per bucket of ``width`` seconds of the player's hands drawn in ``currency`` (the undated ones in one
    last bucket), in order: the running hands, the bucket's last start time, and the running total, at
    showdown and all-in EV; in big bets each hand's over its own big bet, in money the smallest units (the EV
    in thousandths)."""
    selected = replace(hand_filter, players=(player,))
    per_hand = ("CAST(net AS DOUBLE) / big_bet", "CAST(net * went_sd AS DOUBLE) / big_bet",
                "CAST(ev_net_milli AS DOUBLE) / 1000 / big_bet") if in_big_bets else (
        "net", "net * went_sd", "ev_net_milli")  # money: thousandths summed as integers, divided once
    sql = f"""
        WITH b AS (SELECT CAST(epoch(started_at) AS BIGINT) // {int(width)} AS bucket, count(*) AS hands,
                          sum({per_hand[0]}) AS won, sum({per_hand[1]}) AS won_sd, sum({per_hand[2]}) AS won_ev,
                          max(started_at) AS started_at
                   FROM ({{facts}}) f GROUP BY 1)
        SELECT sum(hands) OVER w, started_at, sum(won) OVER w, sum(won_sd) OVER w, sum(won_ev) OVER w
        FROM b WINDOW w AS (ORDER BY bucket NULLS LAST ROWS UNBOUNDED PRECEDING) ORDER BY bucket NULLS LAST"""
    condition = f"h.currency = ? AND {_drawn(dated=dated, in_big_bets=in_big_bets)}"
    with selected_facts(store, selected, condition, (currency,)) as (facts, params):
        return store.run(sql.replace("{facts}", facts), params)


def last_hand_at(store: Store, hand_filter: HandFilter, player: str, currency: str, started_at: datetime | None, *,
                 dated: bool, in_big_bets: bool) -> tuple[str, str] | None:
    """The (site, hand_id) of the player's last hand drawn in ``currency`` that started at ``started_at`` (None:
    of the hands without a date), in the series' order: a bucket's last hand."""
    at, at_params = ("h.started_at = ?", (started_at,)) if started_at is not None else ("h.started_at IS NULL", ())
    condition = f"h.currency = ? AND {at} AND {_drawn(dated=dated, in_big_bets=in_big_bets)}"
    with selected_facts(store, replace(hand_filter, players=(player,)), condition, (currency, *at_params)) as (facts, params):
        rows = store.run(f"SELECT site, hand_id FROM ({facts}) f ORDER BY file DESC, first_line DESC, site DESC, "
                         "hand_id DESC LIMIT 1", params)
    return (str(rows[0][0]), str(rows[0][1])) if rows else None
