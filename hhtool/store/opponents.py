"""A player against another: the opponents he was dealt in with, and the hands both played.

"Net against him" is each one's own net in the hands both were dealt in (what he collected less what
he put in, after rake), summed by currency: a fact every hand states, where "the chips that went from
one to the other" has no answer in a pot three players contested. Both nets are given, side by side.

Which hands, which player and which opponent come from the caller as SQL conditions (the one
``HandFilter`` on ``hands h``, and :func:`hhtool.reports.filters.player_condition` on a ``results``
row's site and player): the store decides none of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from hhtool.store import Store


class Condition(NamedTuple):
    """A SQL condition and its positional parameters."""

    sql: str
    params: Sequence[Any]


def _together(hands: Condition, player: Condition, opponent: Condition) -> tuple[str, list[Any]]:
    """The rows (hand, player's row ``me``, opponent's row ``him``) of the hands both were dealt in.
    The conditions name their rows ``me``/``him``: the caller builds them on ``me.player``/``him.player``."""
    sql = ("FROM hands h JOIN keyed.results me ON me.hk = h.hk JOIN keyed.results him ON him.hk = h.hk "
           f"AND him.player <> me.player WHERE {hands.sql} AND {player.sql} AND {opponent.sql}")
    return sql, [*hands.params, *player.params, *opponent.params]


def opponents(store: Store, hands: Condition, player: Condition, opponent: Condition | None = None,
              limit: int = 50) -> list[dict[str, Any]]:
    """The opponents the player was dealt in with most (one row per opponent, site and currency):
    ``opponent, site, currency, unit, hands, net, opponent_net``; most hands first, then by name."""
    base, params = _together(hands, player, opponent or Condition("TRUE", ()))
    result = store.con.execute(
        "SELECT him.player AS opponent, h.site, h.currency, any_value(h.unit) AS unit, count(DISTINCT h.hk) AS hands, "
        f"CAST(sum(me.net) AS BIGINT) AS net, CAST(sum(him.net) AS BIGINT) AS opponent_net {base} "
        f"GROUP BY ALL ORDER BY hands DESC, opponent, h.site, h.currency LIMIT {int(limit)}", params)
    names = [column[0] for column in result.description]
    return [dict(zip(names, row, strict=True)) for row in result.fetchall()]


def hands_together(store: Store, hands: Condition, player: Condition, opponent: Condition,
                   limit: int = 100) -> list[dict[str, Any]]:
    """The hands both were dealt in, newest first (undated last): ``site, hand_id, started_at, table,
    currency, unit, player, net, opponent, opponent_net``."""
    base, params = _together(hands, player, opponent)
    result = store.con.execute(
        "SELECT h.site, h.hand_id, h.started_at, h.table_name AS \"table\", h.currency, h.unit, me.player, me.net, "
        f"him.player AS opponent, him.net AS opponent_net {base} "
        f"ORDER BY h.started_at DESC NULLS LAST, h.hk DESC, me.player, him.player LIMIT {int(limit)}", params)
    names = [column[0] for column in result.description]
    return [dict(zip(names, row, strict=True)) for row in result.fetchall()]


__all__ = ["Condition", "hands_together", "opponents"]
