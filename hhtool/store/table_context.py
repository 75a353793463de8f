"""How a hand's table posted: the other stored hands at its table (or tournament) and stakes, and the
forced bets most of them carry. The dispute report (:mod:`hhtool.reports.dispute.stored`) words it."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from hhtool.store import Store


class TableNeighbours(NamedTuple):
    """The other stored hands of a table: how many (``hands``), and the ante and bring-in most of them carry
    (None: none states it), in the smallest unit."""

    hands: int
    ante: int | None
    bring_in: int | None


def table_neighbours(store: Store, *, site: str, hand_id: str, origin_site: str, in_tournament: bool, place: str,
                     small_bet: int | None, big_bet: int | None, currency: str) -> TableNeighbours:
    """The stored hands other than (``site``, ``hand_id``) at the table (or, ``in_tournament``, the tournament)
    ``place`` of the site ``origin_site`` (the site that dealt them, a skin's network), at the same bets and
    currency."""
    column = "tournament_id" if in_tournament else "table_name"
    count, ante, bring_in = store.run(
        f"""SELECT count(*), mode(ante), mode(bring_in) FROM hands h
            WHERE coalesce(h.origin_site, h.site) = ? AND h.{column} = ? AND h.small_bet IS NOT DISTINCT FROM ?
              AND h.big_bet IS NOT DISTINCT FROM ? AND h.currency = ? AND NOT (h.site = ? AND h.hand_id = ?)""",
        [origin_site, place, small_bet, big_bet, currency, site, hand_id])[0]
    return TableNeighbours(int(count), None if ante is None else int(ante), None if bring_in is None else int(bring_in))
