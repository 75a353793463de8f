"""The user's notes (on hands and players) and tags (on hands): rows of ``notes`` and ``hand_tags``.

A hand is named by its (site, hand_id), never by its number ``hk``: no import writes or deletes these
rows, so they outlive the hand's rows being replaced. Each write is one transaction. Which hand or
player a request means, and what it is told when there is none, is the service's
(:mod:`hhtool.service.notes`).
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, NamedTuple

from hhtool.store.aliases import ALIASES
from hhtool.store.transaction import in_one_transaction, transaction

if TYPE_CHECKING:
    from hhtool.store import Store

#: the store's table of notes
NOTES = "notes"
#: the store's table of tags on hands
HAND_TAGS = "hand_tags"


class NoteRow(NamedTuple):
    """One stored note, as its row holds it (``created``: UTC, without a time zone)."""

    id: int
    target: str
    key: str
    site: str | None
    text: str
    created: datetime


_COLUMNS = "id, target, key, site, text, created"


def _rows(store: Store, sql: str, params: list[object]) -> list[NoteRow]:
    return [NoteRow(int(note_id), str(target), str(key), None if site is None else str(site), str(text), created)
            for note_id, target, key, site, text, created in store.run(sql, params)]


def add_note(store: Store, target: str, site: str | None, key: str, text: str, created: datetime) -> int:
    """Write a note (numbered one more than the highest yet); its number."""
    with transaction(store):
        note_id = int(store.run(f"SELECT coalesce(max(id), 0) + 1 FROM {NOTES}")[0][0])
        store.run(f"INSERT INTO {NOTES} (id, target, site, key, text, created) VALUES (?, ?, ?, ?, ?, ?)",
                  [note_id, target, site, key, text, created])
    return note_id


def note_exists(store: Store, note_id: int) -> bool:
    return bool(store.run(f"SELECT 1 FROM {NOTES} WHERE id = ?", [note_id]))


def delete_note(store: Store, note_id: int) -> bool:
    """Delete the note numbered ``note_id``; False when there was none."""
    return in_one_transaction(store, [(f"DELETE FROM {NOTES} WHERE id = ? RETURNING id", [note_id])]) > 0


def hand_notes(store: Store, site: str, hand_id: str) -> list[NoteRow]:
    """The notes on the hand ``hand_id`` of ``site``, oldest first."""
    return _rows(store, f"SELECT {_COLUMNS} FROM {NOTES} WHERE target = 'hand' AND key = ? AND site = ? "
                        "ORDER BY created, id", [hand_id, site])


def player_notes(store: Store, name: str, site: str | None) -> list[NoteRow]:
    """The notes on the player ``name`` (those on any site, or none but those on ``site`` and on no
    site in particular) and, when ``name`` is an alias's person, those on each site name it groups
    (on ``site`` only, when given), oldest first."""
    on_site = "TRUE" if site is None else "(n.site IS NULL OR n.site = ?)"
    alias_site = "TRUE" if site is None else "a.site = ?"
    condition = (f"n.target = 'player' AND ((n.key = ? AND {on_site}) OR EXISTS (SELECT 1 FROM {ALIASES} a "
                 f"WHERE a.person = ? AND a.player = n.key AND (n.site IS NULL OR n.site = a.site) AND {alias_site}))")
    params: list[object] = [name, *([site] if site else []), name, *([site] if site else [])]
    return _rows(store, f"SELECT {_COLUMNS} FROM {NOTES} n WHERE {condition} ORDER BY created, id", params)


def add_tag(store: Store, site: str, hand_id: str, tag: str) -> bool:
    """Tag the hand; False when it had the tag already (kept once)."""
    return in_one_transaction(store, [(
        f"INSERT INTO {HAND_TAGS} (site, hand_id, tag) SELECT ?, ?, ? WHERE NOT EXISTS "
        f"(SELECT 1 FROM {HAND_TAGS} WHERE site = ? AND hand_id = ? AND tag = ?) RETURNING tag",
        [site, hand_id, tag] * 2)]) > 0


def has_tag(store: Store, site: str, hand_id: str, tag: str) -> bool:
    return bool(store.run(f"SELECT 1 FROM {HAND_TAGS} WHERE site = ? AND hand_id = ? AND tag = ?",
                          [site, hand_id, tag]))


def remove_tag(store: Store, site: str, hand_id: str, tag: str) -> bool:
    """Take the tag off the hand; False when it did not have it."""
    return in_one_transaction(store, [(f"DELETE FROM {HAND_TAGS} WHERE site = ? AND hand_id = ? AND tag = ? "
                                       "RETURNING tag", [site, hand_id, tag])]) > 0


def tags_of(store: Store, site: str, hand_id: str) -> list[str]:
    """The hand's tags, A to Z."""
    return [str(row[0]) for row in store.run(f"SELECT DISTINCT tag FROM {HAND_TAGS} WHERE site = ? AND hand_id = ? "
                                             "ORDER BY tag", [site, hand_id])]


def tag_counts(store: Store) -> list[tuple[str, int]]:
    """Every tag with the number of hands carrying it, A to Z."""
    rows = store.run(f"SELECT tag, count(DISTINCT (site, hand_id)) FROM {HAND_TAGS} GROUP BY tag ORDER BY tag")
    return [(str(tag), int(count)) for tag, count in rows]


def tags(store: Store) -> list[str]:
    """Every tag on a hand."""
    return [str(row[0]) for row in store.run(f"SELECT DISTINCT tag FROM {HAND_TAGS}")]


__all__ = ["HAND_TAGS", "NOTES", "NoteRow", "add_note", "add_tag", "delete_note", "hand_notes", "has_tag",
           "note_exists", "player_notes", "remove_tag", "tag_counts", "tags", "tags_of"]
