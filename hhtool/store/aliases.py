"""Player aliases: rows of ``aliases`` (person, site, player), one a site name a person goes by.

Whether a name may join an alias, and what the user is told, is the service's
(:mod:`hhtool.service.aliases`); here are the rows, read and written (each write one transaction).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from hhtool.store.transaction import in_one_transaction

if TYPE_CHECKING:
    from hhtool.store import Store

#: the store's table of aliases
ALIASES = "aliases"


def members(store: Store) -> list[tuple[str, str, str]]:
    """Every (person, site, player) row."""
    return [(str(person), str(site), str(player))
            for person, site, player in store.run(f"SELECT person, site, player FROM {ALIASES}")]


def members_with_hands(store: Store) -> list[tuple[str, str, str, int]]:
    """Every (person, site, player) with the player's hands on the site, by person, site and player."""
    rows = store.run(
        f"""SELECT a.person, a.site, a.player,
                   (SELECT count(*) FROM results r WHERE r.site = a.site AND r.player = a.player)
            FROM {ALIASES} a ORDER BY a.person, a.site, a.player""")
    return [(str(person), str(site), str(player), int(hands)) for person, site, player, hands in rows]


def add_members(store: Store, person: str, names: Sequence[tuple[str, str]]) -> None:
    """Group the (site, player) ``names`` under ``person``."""
    in_one_transaction(store, [(f"INSERT INTO {ALIASES} (person, site, player) VALUES (?, ?, ?)",
                                [person, site, player]) for site, player in names])


def remove_members(store: Store, person: str, names: Sequence[tuple[str, str]]) -> None:
    """Take the (site, player) ``names`` out of ``person``'s alias."""
    in_one_transaction(store, [(f"DELETE FROM {ALIASES} WHERE person = ? AND site = ? AND player = ?",
                                [person, site, player]) for site, player in names])


def sites_seated_outside(store: Store, person: str) -> list[str]:
    """The sites, A to Z, where a player named ``person`` is seated whom ``person``'s alias does not group."""
    rows = store.run(
        f"""SELECT DISTINCT s.site FROM seats s WHERE s.player = ?
            AND NOT EXISTS (SELECT 1 FROM {ALIASES} a WHERE a.person = ? AND a.site = s.site AND a.player = s.player)
            ORDER BY 1""", [person, person])
    return [str(row[0]) for row in rows]


__all__ = ["ALIASES", "add_members", "members", "members_with_hands", "remove_members", "sites_seated_outside"]
