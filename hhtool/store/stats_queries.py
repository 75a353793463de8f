"""The query of `hhtool stats` (:mod:`hhtool.reports.stats`): the stored facts' sums of the hands a
filter selects, summed into one row per player, currency (and breakdown value). The report names the
rates and computes them from these totals; here they are only summed.

Each rate is a pair of columns of the facts, ``<fact>__n`` (times done) and ``<fact>__o`` (times it
could be); a row carries them as ``<key>_count`` and ``<key>_opportunities``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from hhtool.store.player_facts_cache import resum_sql, summed_facts

if TYPE_CHECKING:
    import polars as pl

    from hhtool.store import Store
    from hhtool.store.filters import HandFilter


def totals_sql(sums: str, keys: Sequence[str], rates: Sequence[tuple[str, str]], counts: Sequence[str]) -> str:
    """The rows of sums of the query ``sums`` (:func:`hhtool.store.player_facts_cache.summed_facts`) summed
    into one row per ``keys`` group: every rate's count and opportunities (``rates``: (key, fact) pairs), the
    ``counts`` columns, money, and what a rate per 100 big bets needs (``big_bets``, ``bb_per_100_hands``)."""
    totals = [
        "max(unit) AS unit", "CAST(sum(hands) AS BIGINT) AS hands", "CAST(sum(net) AS BIGINT) AS net_won",
        "CAST(sum(net_showdown) AS BIGINT) AS net_won_showdown",
        "CAST(sum(net) - sum(net_showdown) AS BIGINT) AS net_won_non_showdown",
        "sum(big_bets) AS big_bets", "CAST(sum(big_bets_known) AS BIGINT) AS bb_per_100_hands",
        "CAST(sum(rake_paid) AS BIGINT) AS rake_paid",
        "CAST(sum(ev_net_milli) AS BIGINT) AS ev_net_milli", "sum(ev_big_bets) AS ev_big_bets",
    ]
    for key, fact in rates:
        totals += [f"CAST(sum({fact}__n) AS BIGINT) AS {key}_count",
                   f"CAST(sum({fact}__o) AS BIGINT) AS {key}_opportunities"]
    totals += [f"CAST(sum({name}) AS BIGINT) AS {name}" for name in counts]
    group = ", ".join(keys)
    return f"SELECT {group}, {', '.join(totals)} FROM ({sums}) s GROUP BY {group}"


#: the month (``YYYY-MM``) in the zone given as parameter of a sum's ``started_at``, the UTC hour it was cut
#: to: the stored sums' own ``month`` is the UTC one, which put a Paris player's hands of the first hour of
#: a month in the month before. A zone whose offset is not whole hours (India's +05:30) can still place
#: the hands of a month's first half hour in the month before: the sums keep no finer time.
LOCAL_MONTH = "strftime(timezone(?, timezone('UTC', s0.started_at)), '%Y-%m')"


def player_totals(store: Store, hand_filter: HandFilter, keys: Sequence[str], rates: Sequence[tuple[str, str]],
                  counts: Sequence[str]) -> pl.DataFrame:
    """The totals (:func:`totals_sql`) of the hands ``hand_filter`` selects, one row per ``keys`` group
    (``keys`` start with ``player`` and ``currency``); the site names of an alias are one player, the
    person's (:meth:`HandFilter.person_label`). A ``month`` key is the month in the filter's zone (the
    user's), cut from each sum's UTC hour (:data:`LOCAL_MONTH`)."""
    local_month = "month" in keys
    summed = tuple("started_at" if key == "month" else key for key in keys)
    with summed_facts(store, hand_filter, (*summed, "site")) as (sums, params):
        # summed per site name first: the alias lookup then runs once per name, not once per day
        per_name = resum_sql(sums, (*summed, "site", "unit"))
        label, label_params = hand_filter.person_label("s0.site", "s0.player")
        if local_month:
            by_person = (f"SELECT * EXCLUDE (started_at) REPLACE ({label} AS player), {LOCAL_MONTH} AS month "
                         f"FROM ({per_name}) s0")
            label_params = [*label_params, hand_filter.zone]
        else:
            by_person = f"SELECT * REPLACE ({label} AS player) FROM ({per_name}) s0"
        return store.frame(totals_sql(by_person, keys, rates, counts), [*label_params, *params])
