"""A player against another: the opponents he was dealt in with, and the hands both played.

"Net against him" is each one's own net in the hands both were dealt in (what he collected less what
he put in, after rake), summed by currency: a fact every hand states, where "the chips that went from
one to the other" has no answer in a pot three players contested. Both nets are given, side by side.

Which hands come from the caller as a SQL condition on ``hands h`` (the one ``HandFilter``), and
each side as :class:`Who`, the names the caller resolved (a name on any site, or an alias's names
site by site): the store decides none of them. A row is a hand and a name of each side: an alias
holding two names of one site that sat at one table counts that hand once for each.
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


class Who(NamedTuple):
    """One side: names as the histories write them, on any site (``anywhere``), and (an alias's)
    names on one site each, as (site, name)."""

    anywhere: tuple[str, ...] = ()
    on_site: tuple[tuple[str, str], ...] = ()

    def sql(self, row: str) -> tuple[str, list[Any]]:
        """The condition on the ``results`` row ``row`` of a hand ``h`` (names first: a plain IN list
        DuckDB filters the rows with before anything else)."""
        names = [*self.anywhere, *(name for _, name in self.on_site)]
        if not names:
            return "FALSE", []
        parts = [f"{row}.player IN ({', '.join('?' for _ in self.anywhere)})"] if self.anywhere else []
        parts += [f"({row}.player = ? AND h.site = ?)" for _ in self.on_site]
        params: list[Any] = [*names, *self.anywhere]
        for site, name in self.on_site:
            params += [name, site]
        return f"{row}.player IN ({', '.join('?' for _ in names)}) AND ({' OR '.join(parts)})", params


def _together(hands: Condition, player: Who, opponent: Who | None) -> tuple[str, list[Any]]:
    """The rows (hand ``h``, the player's ``results`` row ``me``, the opponent's ``him``) of the hands both
    were dealt in."""
    mine, mine_params = player.sql("me")
    theirs, theirs_params = opponent.sql("him") if opponent is not None else ("TRUE", [])
    sql = ("FROM hands h JOIN keyed.results me ON me.hk = h.hk JOIN keyed.results him ON him.hk = h.hk "
           f"AND him.player <> me.player WHERE ({hands.sql}) AND {mine} AND {theirs}")
    return sql, [*hands.params, *mine_params, *theirs_params]


def _rows(store: Store, sql: str, params: Sequence[Any]) -> list[dict[str, Any]]:
    result = store.con.execute(sql, params)
    names = [column[0] for column in result.description]
    return [dict(zip(names, row, strict=True)) for row in result.fetchall()]


def opponents(store: Store, hands: Condition, player: Who, opponent: Who | None = None,
              limit: int = 50) -> list[dict[str, Any]]:
    """The opponents the player was dealt in with most (one row per opponent, site and currency):
    ``opponent, site, currency, unit, hands, net, opponent_net``; most hands first, then by name."""
    base, params = _together(hands, player, opponent)
    return _rows(store, "SELECT him.player AS opponent, h.site, h.currency, any_value(h.unit) AS unit, count(*) AS hands, "
                 f"CAST(sum(me.net) AS BIGINT) AS net, CAST(sum(him.net) AS BIGINT) AS opponent_net {base} "
                 f"GROUP BY ALL ORDER BY hands DESC, opponent, h.site, h.currency LIMIT {int(limit)}", params)


def hands_together(store: Store, hands: Condition, player: Who, opponent: Who, limit: int = 100) -> list[dict[str, Any]]:
    """The hands both were dealt in, newest first (undated last): ``site, hand_id, started_at, table,
    currency, unit, player, net, opponent, opponent_net``."""
    base, params = _together(hands, player, opponent)
    return _rows(store, "SELECT h.site, h.hand_id, h.started_utc AS started_at, h.table_name AS \"table\", h.currency, "
                 "h.unit, me.player, "
                 f"me.net, him.player AS opponent, him.net AS opponent_net {base} "
                 f"ORDER BY h.started_utc DESC NULLS LAST, h.hk DESC, me.player, him.player LIMIT {int(limit)}", params)


__all__ = ["Condition", "Who", "hands_together", "opponents"]
