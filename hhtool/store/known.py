"""What the store holds, for checking the values a request names: its sites, players (seated, or an
alias's person), hand ids, and the stored hand ids a mistyped one is close to. Plain lists and yes or
no: which of them a message offers ("did you mean …") is the service's to say.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

from hhtool.store.aliases import ALIASES
from hhtool.store.notes_and_tags import HAND_TAGS, NOTES
from hhtool.store.spec import KEYED

if TYPE_CHECKING:
    from hhtool.store import Store

#: the rows a hand may have besides its own, which name it by (site, hand id) and outlive it
_KEPT = {"notes": f"SELECT site FROM {NOTES} WHERE target = 'hand' AND key = ?",
         "tags": f"SELECT site FROM {HAND_TAGS} WHERE hand_id = ?"}


def has_hands(store: Store) -> bool:
    """Whether the store holds any hand."""
    return bool(store.run("SELECT 1 FROM hands LIMIT 1"))


def sites(store: Store) -> list[str]:
    """The sites of the stored hands, A to Z."""
    return [str(row[0]) for row in store.run("SELECT DISTINCT site FROM hands ORDER BY 1")]


def hand_sites(store: Store, hand_id: str, kept: Literal["notes", "tags"] | None = None) -> list[str]:
    """The sites having a stored hand ``hand_id``, A to Z; with ``kept``, also those having the
    hand's notes or tags (their hand may be gone)."""
    query = "SELECT site FROM hands WHERE hand_id = ?" + (f" UNION {_KEPT[kept]}" if kept else "")
    return sorted(str(row[0]) for row in store.run(query, [hand_id] * (2 if kept else 1)))


def hand_stored(store: Store, hand_id: str) -> bool:
    """Whether a hand of id ``hand_id`` is stored (on any site)."""
    return bool(store.run("SELECT 1 FROM hands WHERE hand_id = ? LIMIT 1", [hand_id]))


def close_hand_ids(store: Store, hand_id: str, edits: int, most: int = 3) -> list[str]:
    """The stored hand ids at most ``edits`` edits (a character missing, wrong, or two swapped) from
    ``hand_id``, closest first, at most ``most``."""
    rows = store.run("SELECT DISTINCT hand_id, damerau_levenshtein(hand_id, ?) AS edits FROM hands "
                     "WHERE abs(length(hand_id) - length(?)) <= ? AND damerau_levenshtein(hand_id, ?) <= ? "
                     f"ORDER BY edits, jaro_winkler_similarity(hand_id, ?) DESC, hand_id LIMIT {int(most)}",
                     [hand_id, hand_id, edits, hand_id, edits, hand_id])
    return [str(row[0]) for row in rows]


def seated(store: Store, site: str, player: str) -> bool:
    """Whether ``player`` has a seat in a stored hand of ``site``."""
    return bool(store.run("SELECT 1 FROM seats WHERE site = ? AND player = ? LIMIT 1", [site, player]))


def players_on(store: Store, site: str) -> list[str]:
    """The players seated in the stored hands of ``site``."""
    return [str(row[0]) for row in store.run("SELECT DISTINCT player FROM seats WHERE site = ?", [site])]


def player_names(store: Store) -> list[str]:
    """Every name ``--player`` knows: the seated players' and the aliases' persons."""
    return [str(row[0]) for row in store.run(f"SELECT DISTINCT player FROM seats UNION SELECT person FROM {ALIASES}")]


def player_known(store: Store, name: str, site: str | None = None) -> bool:
    """Whether ``name`` is seated in a stored hand (of ``site``) or is an alias's person (grouping a
    name on ``site``)."""
    if site is not None:
        return bool(store.run(f"SELECT 1 FROM seats WHERE site = ? AND player = ? UNION ALL SELECT 1 FROM {ALIASES} "
                              "WHERE site = ? AND person = ? LIMIT 1", [site, name, site, name]))
    # (the per-hand table itself: the view ``seats`` joins every hand to name its site, 0.1 s per million)
    return bool(store.run(f"SELECT 1 FROM {KEYED}.seats WHERE player = ? UNION ALL SELECT 1 FROM {ALIASES} "
                          "WHERE person = ? LIMIT 1", [name, name]))


def newest_hand(store: Store) -> tuple[int, int]:
    """The hands stored and the highest hand key (-1: none): both change when a hand is stored."""
    rows = store.run("SELECT count(*), coalesce(max(hk), -1) FROM hands")
    count, key = rows[0] if rows else (0, -1)
    return int(count), int(key)


def any_row(store: Store, table: str, where: str, params: Sequence[Any]) -> bool:
    """Whether a row of ``table`` (a stored table, read as ``h``) meets ``where``."""
    return bool(store.run(f"SELECT 1 FROM {table} h WHERE {where} LIMIT 1", params))


__all__ = ["any_row", "close_hand_ids", "hand_sites", "hand_stored", "has_hands", "newest_hand", "player_known",
           "player_names", "players_on", "seated", "sites"]
