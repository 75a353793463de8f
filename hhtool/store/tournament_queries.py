"""The query of `hhtool tournaments` (:mod:`hhtool.reports.tournaments` makes the listing of its rows): the
stored facts of tournament hands summed per tournament and player, with the buy-in and the finish the
hands state (``hands.buy_in`` …, ``finishes``, and a skipped hand's finishes: another game of a mixed
tournament)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hhtool.store.player_facts_cache import selected_facts

if TYPE_CHECKING:
    from hhtool.store import Store
    from hhtool.store.filters import HandFilter


def tournaments_sql(facts: str, whose: str) -> str:
    """The rows of the facts query ``facts`` (tournament hands) summed per tournament and player, with the
    buy-in the tournament's selected hands state and the finish any hand of it states for the player, stored
    or skipped as another game's (the last one stated, should several state one)."""
    return f"""WITH stated AS (
                   SELECT h.site, h.tournament_id, x.player, x.place, x.prize, x.currency, x.unit, h.file, x.line,
                          NOT list_contains(coalesce(h.note_lines, []), x.line) AS plain
                   FROM keyed.finishes x JOIN hands h ON h.hk = x.hk
                   UNION ALL
                   SELECT site, tournament_id, unnest(finish_players), unnest(finish_places), unnest(finish_prizes),
                          unnest(finish_currencies), unnest(finish_units), file, unnest(finish_lines), TRUE
                   FROM skipped_hands WHERE finish_players IS NOT NULL),
               finished AS (
                   SELECT site, tournament_id, player,
                          arg_max(struct_pack(place := place, prize := prize, currency := currency, unit := unit,
                                              plain := plain), (file, line)) AS stated
                   FROM stated GROUP BY site, tournament_id, player)
               SELECT t.*, fin.stated.place, fin.stated.prize, fin.stated.currency AS prize_currency,
                      fin.stated.unit AS prize_unit, fin.stated.plain AS finish_read
               FROM (
                   SELECT f.site, h.tournament_id, f.player, min(f.started_at) AS first_hand,
                          max(f.started_at) AS last_hand, CAST(count(*) AS BIGINT) AS hands,
                          any_value(f.currency) AS currency, CAST(sum(f.net) AS BIGINT) AS chips_won,
                          any_value(struct_pack(amount := h.buy_in, fee := h.buy_in_fee, bounty := h.buy_in_bounty,
                                                currency := h.buy_in_currency, unit := h.buy_in_unit))
                              FILTER (WHERE h.buy_in IS NOT NULL) AS stated_buy_in
                   FROM ({facts}) f JOIN hands h ON h.site = f.site AND h.hand_id = f.hand_id
                   WHERE f.is_tournament AND {whose}
                   GROUP BY f.site, h.tournament_id, f.player
               ) t LEFT JOIN finished fin ON fin.site = t.site AND fin.tournament_id IS NOT DISTINCT FROM t.tournament_id
                   AND fin.player = t.player
               ORDER BY t.first_hand DESC NULLS LAST, t.site, t.tournament_id, t.player"""


def tournament_rows(store: Store, hand_filter: HandFilter, *, heroes_only: bool) -> list[tuple[Any, ...]]:
    """The rows of :func:`tournaments_sql` over the tournament hands ``hand_filter`` selects: every player's, or
    (``heroes_only``) each hand's hero's; newest first."""
    whose = "f.player = h.hero" if heroes_only else "TRUE"
    with selected_facts(store, hand_filter) as (facts, params):
        return store.run(tournaments_sql(facts, whose), params)
