"""Per-player statistics: the stat catalogue and the aggregation of player-hand facts.

Every rate is ``count / opportunities`` over the selected hands, both summed from the 0/1 facts of
:mod:`hhtool.store.player_facts`; the output carries ``<stat>``, ``<stat>_count`` and
``<stat>_opportunities`` (the rate is null when there was no opportunity). Money stays in integer
smallest units beside ``currency`` and ``unit``. ``docs/stats.md`` defines each statistic.

>>> [stat.key for stat in RATES][:3]
['vpip', 'raise_3rd', 'complete_first_in']
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from hhtool.reports.choices import Breakdown
from hhtool.reports.starting_hands import start_order
from hhtool.store import Store
from hhtool.store.filters import HandFilter
from hhtool.store.player_facts import ALL_STREETS, LATER_STREETS
from hhtool.store.stats_queries import player_totals

ORDINAL = {3: "3rd", 4: "4th", 5: "5th", 6: "6th", 7: "7th"}
RANK_ORDER = "AKQJT98765432"


@dataclass(frozen=True)
class Rate:
    key: str  # output key
    fact: str  # facts column stem: <fact>__n / <fact>__o


def _rates() -> tuple[Rate, ...]:
    third = ["vpip", "raise_3rd", "complete_first_in", "limp", "bring_in_complete", "steal", "steal_door",
             "steal_position", "steal_success", "bring_in_fold_to_steal", "bring_in_resteal", "fold_to_complete",
             "two_bet_3rd", "three_bet_3rd", "four_bet_3rd", "fold_to_three_bet_3rd"]
    rates = [Rate(key, key) for key in third]
    rates += [Rate(f"saw_{ORDINAL[s]}", f"saw_{s}") for s in LATER_STREETS]
    rates += [Rate(f"aggression_{ORDINAL[s]}", f"aggression_{s}") for s in ALL_STREETS]
    for kind in ("cbet", "fold_to_cbet", "check_raise"):
        rates += [Rate(f"{kind}_{ORDINAL[s]}", f"{kind}_{s}") for s in LATER_STREETS]
    rates += [Rate(f"fold_{ORDINAL[s]}", f"fold_{s}") for s in ALL_STREETS]
    rates += [Rate(key, key) for key in ("wtsd", "wsd", "won_saw_4th", "scoop", "high_only", "low_only", "split",
                                          "quartered", "low_qualified")]
    return tuple(rates)


RATES = _rates()
#: money and volume keys, in output order (money in smallest units)
VOLUME_KEYS = ("hands", "net_won", "net_won_showdown", "net_won_non_showdown", "bb_per_100", "bb_per_100_hands",
               "rake_paid", "ev_net_won", "ev_bb_per_100", "luck")
COUNT_KEYS = ("halves_by_label", "halves_by_cards", "halves_unknown")
BREAKDOWN_COLUMN = {Breakdown.stakes: "stakes", Breakdown.month: "month", Breakdown.door_card: "door_card",
                    Breakdown.start: "start"}


def output_keys(by: Breakdown | None = None) -> list[str]:
    """Every key of a stats row, in order (``--by street`` has its own shape: see :func:`by_street`)."""
    keys = ["player", "currency", "unit"]
    if by in BREAKDOWN_COLUMN:
        keys.append(BREAKDOWN_COLUMN[by])
    keys += VOLUME_KEYS
    for rate in RATES:
        keys += [rate.key, f"{rate.key}_count", f"{rate.key}_opportunities"]
    return [*keys, *COUNT_KEYS]


def _rate(count: str, opportunities: str) -> pl.Expr:
    return pl.when(pl.col(opportunities) > 0).then(pl.col(count) / pl.col(opportunities)).otherwise(None)


def finish(sums: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    """The rates and ``bb_per_100`` from the totals of :func:`hhtool.store.stats_queries.totals_sql`, columns in
    output order."""
    grouped = sums.with_columns(
        pl.when(pl.col("bb_per_100_hands") > 0)
        .then((pl.col("big_bets") * 100 / pl.col("bb_per_100_hands")).round(3))
        .otherwise(None).alias("bb_per_100"),
        pl.when(pl.col("bb_per_100_hands") > 0)
        .then((pl.col("ev_big_bets") * 100 / pl.col("bb_per_100_hands")).round(3))
        .otherwise(None).alias("ev_bb_per_100"),
        # the EV is summed exactly in thousandths, then shown to the smallest unit (half up)
        ((pl.col("ev_net_milli") + 500) // 1000).alias("ev_net_won"),
        *[_rate(f"{rate.key}_count", f"{rate.key}_opportunities").alias(rate.key) for rate in RATES],
    ).with_columns((pl.col("net_won") - pl.col("ev_net_won")).alias("luck"))  # so that evnet + luck = net
    columns = [*keys[:2], "unit", *keys[2:], *VOLUME_KEYS]
    for rate in RATES:
        columns += [rate.key, f"{rate.key}_count", f"{rate.key}_opportunities"]
    return grouped.select([*columns, *COUNT_KEYS])


def _sorted(frame: pl.DataFrame, by: Breakdown | None) -> pl.DataFrame:
    totals = frame.group_by(["player", "currency"]).agg(pl.col("hands").sum().alias("_total"))
    frame = frame.join(totals, on=["player", "currency"], how="left")
    order: list[str | pl.Expr] = [pl.col("_total"), "player", "currency"]
    descending = [True, False, False]
    if by is Breakdown.door_card:
        order.append(pl.col("door_card").map_elements(RANK_ORDER.find, return_dtype=pl.Int64))
        descending.append(False)
    elif by is Breakdown.stakes:
        order.append(pl.col("stakes").str.split("/").list.get(1).cast(pl.Float64, strict=False))
        descending.append(False)
    elif by is Breakdown.month:
        order.append("month")
        descending.append(False)
    elif by is Breakdown.start:
        order.append(pl.col("start").map_elements(start_order, return_dtype=pl.Int64))
        descending.append(False)
    return frame.sort(order, descending=descending, nulls_last=True).drop("_total")


def player_stats(store: Store, hand_filter: HandFilter, by: Breakdown | None = None, min_hands: int = 0) -> pl.DataFrame:
    """One row per player and currency (and per breakdown value), players with at least
    ``min_hands`` hands in total; the site names of an alias are one row, the person's
    (:meth:`HandFilter.person_label`). ``--by street`` rows come from :func:`by_street`."""
    keys = ["player", "currency"]
    if by in BREAKDOWN_COLUMN:
        keys.append(BREAKDOWN_COLUMN[by])
    totals = player_totals(store, hand_filter, keys, [(rate.key, rate.fact) for rate in RATES], COUNT_KEYS)
    if totals.is_empty():
        return pl.DataFrame(schema={key: pl.Utf8 for key in keys}).select(keys)
    frame = finish(totals, keys)
    if min_hands > 0:
        totals = frame.group_by(["player", "currency"]).agg(pl.col("hands").sum().alias("_total"))
        keep = totals.filter(pl.col("_total") >= min_hands).drop("_total")
        frame = frame.join(keep, on=["player", "currency"], how="semi")
    frame = _sorted(frame, by)
    return by_street(frame) if by is Breakdown.street else frame


STREET_RATES = ("saw", "aggression", "fold", "cbet", "fold_to_cbet", "check_raise")


def by_street(frame: pl.DataFrame) -> pl.DataFrame:
    """Per-street rates as rows: player, currency, street, then each rate with its counts
    (``saw`` on 3rd street is every hand; c-bets and check-raises start on 4th)."""
    parts: list[pl.DataFrame] = []
    for street in ALL_STREETS:
        columns: list[pl.Expr] = [pl.col("player"), pl.col("currency"), pl.lit(ORDINAL[street]).alias("street")]
        for name in STREET_RATES:
            key = f"{name}_{ORDINAL[street]}"
            if name == "saw" and street == 3:
                columns += [pl.lit(1.0).alias("saw"), pl.col("hands").alias("saw_count"),
                            pl.col("hands").alias("saw_opportunities")]
            elif key in frame.columns:
                columns += [pl.col(key).alias(name), pl.col(f"{key}_count").alias(f"{name}_count"),
                            pl.col(f"{key}_opportunities").alias(f"{name}_opportunities")]
            else:
                columns += [pl.lit(None, pl.Float64).alias(name), pl.lit(0, pl.Int64).alias(f"{name}_count"),
                            pl.lit(0, pl.Int64).alias(f"{name}_opportunities")]
        parts.append(frame.select(columns).with_columns(pl.col("saw").cast(pl.Float64)))
    return pl.concat(parts).with_row_index("_order").sort(
        [pl.col("_order") % max(frame.height, 1), "_order"]
    ).drop("_order")


@dataclass(frozen=True)
class TerminalChoice:
    """What the terminal (or an HTML page) shows of a report: ``columns`` (keys or headers; empty:
    the default set), or every column with ``all_columns`` (:mod:`hhtool.reports.stats_view`)."""

    columns: tuple[str, ...] = ()
    all_columns: bool = False
