"""The user's notes on hands and players, and tags on hands (`hhtool note`, `hhtool tag`, `hands --tag`).

They are rows of the store's ``notes`` and ``hand_tags`` tables, written as `hhtool alias` writes its
rows (checked on a reader first, so that a store that is not there stays so, then written in one
transaction under the store's writer lock). A hand is named by its (site, hand_id), never by its
store number ``hk``: no import writes or deletes these rows, so a hand's notes and tags stay when its
rows are replaced (a grown file read again). A note on a player names him as ``--player`` does: a
name as the histories write it (on one site, or on any) or an alias's person, whose notes include
those on each site name the alias groups.

Texts are kept exactly as given (escape sequences, HTML and all): whoever shows one renders it
harmless (the terminal: :func:`hhtool.cli.output.printable`; a web page: escaped).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal, get_args

from hhtool.reports.filters import ALIASES, HAND_TAGS, tag_name
from hhtool.service.errors import UsageError
from hhtool.service.filters import close_to
from hhtool.service.stores import Database
from hhtool.store import Store

Target = Literal["hand", "player"]
#: the store's table of notes
NOTES = "notes"
#: the longest note, in characters
NOTE_LENGTH = 10_000
#: hand ids at most this many edits away from an unknown one are offered as "did you mean"
_ID_EDITS = 2


@dataclass(frozen=True)
class Note:
    """One note: its stable number, what it is on (a hand by its id and site; a player by the name
    ``--player`` takes, with the site when the note is about the name on one site only), its text
    as written and when it was written (UTC)."""

    id: int
    target: Target
    key: str
    site: str | None
    text: str
    created: datetime


def add_note(database: Database, target: Target, key: str, text: str, site: str | None = None) -> Note:
    """Write a note on the stored hand ``key`` (on ``site``, where several sites have the id) or on
    the player ``key``; UsageError (nothing written) for an empty or too long text, or a hand or
    player the store does not have."""
    _check_target(target)
    if not text.strip():
        raise UsageError("a note needs some text")
    if len(text) > NOTE_LENGTH:
        raise UsageError(f"a note holds at most {NOTE_LENGTH:,} characters, not {len(text):,}")
    site = _site(site)
    with database.open(read_only=True) as store:  # checked first: a store that is not there stays so
        _subject(store, target, key, site)
    with database.open() as store:
        site = _subject(store, target, key, site)
        created = datetime.now(UTC).replace(tzinfo=None)
        store.run("BEGIN TRANSACTION")
        try:
            note_id = int(store.run(f"SELECT coalesce(max(id), 0) + 1 FROM {NOTES}")[0][0])
            store.run(f"INSERT INTO {NOTES} (id, target, site, key, text, created) VALUES (?, ?, ?, ?, ?, ?)",
                      [note_id, target, site, key, text, created])
            store.run("COMMIT")
        except BaseException:
            store.rollback()
            raise
    return Note(note_id, target, key, site, text, created.replace(tzinfo=UTC))


def notes_for(database: Database, target: Target, key: str, site: str | None = None, *, stored: bool = False) -> list[Note]:
    """The notes on a hand (its id, on ``site`` where several sites have it) or on a player (a name
    on any site, or only on ``site``; an alias: its own and its site names'), oldest first.
    UsageError for a hand or player the store has neither stored nor noted. ``stored``: the hand is
    known to be stored on ``site`` (the caller just read it), whose hands are then not searched for it."""
    _check_target(target)
    site = _site(site)
    with database.open(read_only=True) as store:
        if target == "hand":
            hand_site = site if stored and site is not None else _hand_site(
                store, key, site, kept=f"SELECT site FROM {NOTES} WHERE target = 'hand' AND key = ?")
            rows = store.run(f"SELECT {_COLUMNS} FROM {NOTES} WHERE target = 'hand' AND key = ? AND site = ? "
                             "ORDER BY created, id", [key, hand_site])
        else:
            condition, params = _player_notes(key, site)
            rows = store.run(f"SELECT {_COLUMNS} FROM {NOTES} n WHERE {condition} ORDER BY created, id", params)
            if not rows:
                _player_site(store, key, site)
    return [_note(row) for row in rows]


def delete_note(database: Database, note_id: int) -> bool:
    """Delete the note numbered ``note_id``; False when there is none."""
    with database.open(read_only=True) as store:
        if not store.run(f"SELECT 1 FROM {NOTES} WHERE id = ?", [note_id]):
            return False
    with database.open() as store:
        return _write(store, [(f"DELETE FROM {NOTES} WHERE id = ? RETURNING id", [note_id])]) > 0


def add_tag(database: Database, hand_id: str, tag: str, site: str | None = None) -> str:
    """Tag the stored hand ``hand_id`` (on ``site``, where several sites have it); the tag as stored
    (lower-case). Tagging a hand twice with one tag keeps one. UsageError for a malformed tag or an
    unknown hand."""
    name = _tag(tag)
    site = _site(site)
    with database.open(read_only=True) as store:
        _hand_site(store, hand_id, site)
    with database.open() as store:
        hand_site = _hand_site(store, hand_id, site)
        _write(store, [(f"INSERT INTO {HAND_TAGS} (site, hand_id, tag) SELECT ?, ?, ? WHERE NOT EXISTS "
                        f"(SELECT 1 FROM {HAND_TAGS} WHERE site = ? AND hand_id = ? AND tag = ?) RETURNING tag",
                        [hand_site, hand_id, name] * 2)])
    return name


def remove_tag(database: Database, hand_id: str, tag: str, site: str | None = None) -> bool:
    """Take ``tag`` off the hand; False when the hand did not have it. UsageError for a malformed tag
    or a hand the store has neither stored nor tagged."""
    name = _tag(tag)
    site = _site(site)
    kept = f"SELECT site FROM {HAND_TAGS} WHERE hand_id = ?"
    with database.open(read_only=True) as store:
        hand_site = _hand_site(store, hand_id, site, kept=kept)
        if not store.run(f"SELECT 1 FROM {HAND_TAGS} WHERE site = ? AND hand_id = ? AND tag = ?",
                         [hand_site, hand_id, name]):
            return False
    with database.open() as store:
        return _write(store, [(f"DELETE FROM {HAND_TAGS} WHERE site = ? AND hand_id = ? AND tag = ? RETURNING tag",
                               [hand_site, hand_id, name])]) > 0


def tags_for(database: Database, hand_id: str, site: str | None = None, *, stored: bool = False) -> list[str]:
    """The hand's tags, A to Z. UsageError for a hand the store has neither stored nor tagged.
    ``stored``: as :func:`notes_for`'s."""
    site = _site(site)
    with database.open(read_only=True) as store:
        hand_site = site if stored and site is not None else _hand_site(
            store, hand_id, site, kept=f"SELECT site FROM {HAND_TAGS} WHERE hand_id = ?")
        rows = store.run(f"SELECT DISTINCT tag FROM {HAND_TAGS} WHERE site = ? AND hand_id = ? ORDER BY tag",
                         [hand_site, hand_id])
    return [str(row[0]) for row in rows]


def all_tags(database: Database) -> list[tuple[str, int]]:
    """Every tag in the store with the number of hands carrying it, A to Z."""
    with database.open(read_only=True) as store:
        rows = store.run(f"SELECT tag, count(DISTINCT (site, hand_id)) FROM {HAND_TAGS} GROUP BY tag ORDER BY tag")
    return [(str(tag), int(count)) for tag, count in rows]


_COLUMNS = "id, target, key, site, text, created"


def _note(row: tuple[Any, ...]) -> Note:
    note_id, target, key, site, text, created = row
    return Note(int(note_id), target, str(key), None if site is None else str(site), str(text),
                created.replace(tzinfo=UTC))


def _check_target(target: str) -> None:
    if target not in get_args(Target):
        raise UsageError(f"a note is on a hand or a player, not {target!r}")


def _site(site: str | None) -> str | None:
    """A site as stored (lower-case); None for none."""
    if site is None or not site.strip():
        return None
    return site.strip().lower()


def normal_tag(text: str) -> str:
    """The tag as stored (lower-case, a leading ``#`` dropped); UsageError when it is not one."""
    return _tag(text)


def _tag(text: str) -> str:
    try:
        return tag_name(text)
    except ValueError as error:
        raise UsageError(str(error)) from None


def _write(store: Store, statements: Sequence[tuple[str, list[Any]]]) -> int:
    """Run ``statements`` (each ``... RETURNING``) in one transaction; the rows they touched."""
    touched = 0
    store.run("BEGIN TRANSACTION")
    try:
        for sql, params in statements:
            touched += len(store.run(sql, params))
        store.run("COMMIT")
    except BaseException:
        store.rollback()
        raise
    return touched


def _subject(store: Store, target: Target, key: str, site: str | None) -> str | None:
    """The site a new note's subject is on (a hand's; a player's when asked): UsageError when unknown."""
    if target == "hand":
        return _hand_site(store, key, site)
    return _player_site(store, key, site)


def _hand_site(store: Store, hand_id: str, site: str | None, kept: str | None = None) -> str:
    """The site of the hand ``hand_id`` (the one asked for, or the only one that has it). ``kept``:
    a query of the sites that have rows of the hand (its notes or tags: ``?`` its id), counted as
    hands too (their hand may be gone). UsageError when no site or several have it."""
    query = "SELECT site FROM hands WHERE hand_id = ?" + (f" UNION {kept}" if kept else "")
    sites = sorted(str(row[0]) for row in store.run(query, [hand_id] * (2 if kept else 1)))
    if site is not None and site in sites:
        return site
    if site is None and len(sites) == 1:
        return sites[0]
    if len(sites) > 1 and site is None:
        raise UsageError(f"hand {hand_id!r} exists on {', '.join(sites)}: add --site")
    if sites:
        raise UsageError(f"no stored hand {hand_id!r} on {site} (it is on {', '.join(sites)})")
    if not store.run("SELECT 1 FROM hands LIMIT 1"):
        raise UsageError("the store holds no hands yet: run `hhtool import PATH` first")
    raise UsageError(f"no stored hand {hand_id!r}{_close_ids(store, hand_id)}")


def _close_ids(store: Store, hand_id: str) -> str:
    """``; did you mean '123'?``: stored hand ids a typo or two away (a digit missing, wrong, or two swapped)."""
    rows = store.run("SELECT DISTINCT hand_id, damerau_levenshtein(hand_id, ?) AS edits FROM hands "
                     "WHERE abs(length(hand_id) - length(?)) <= ? AND damerau_levenshtein(hand_id, ?) <= ? "
                     "ORDER BY edits, jaro_winkler_similarity(hand_id, ?) DESC, hand_id LIMIT 3",
                     [hand_id, hand_id, _ID_EDITS, hand_id, _ID_EDITS, hand_id])
    close = [str(row[0]) for row in rows]
    return f"; did you mean {' or '.join(repr(name) for name in close)}?" if close else ""


def _player_site(store: Store, name: str, site: str | None) -> str | None:
    """``site`` when the player ``name`` is known (a seat on that site, or on any; an alias's person,
    grouping a name on that site); UsageError with close matches otherwise."""
    if not name.strip():
        raise UsageError("a player's name cannot be empty")
    if site is not None:
        if store.run(f"SELECT 1 FROM seats WHERE site = ? AND player = ? UNION ALL SELECT 1 FROM {ALIASES} "
                     "WHERE site = ? AND person = ? LIMIT 1", [site, name, site, name]):
            return site
        known = [str(row[0]) for row in store.run("SELECT DISTINCT player FROM seats WHERE site = ?", [site])]
        if not known:
            sites = [str(row[0]) for row in store.run("SELECT DISTINCT site FROM hands ORDER BY 1")]
            raise UsageError(f"no hands of site {site!r} in the store{close_to(site, sites)}")
        raise UsageError(f"no player {name!r} on {site} in the store{close_to(name, known)}")
    # (the per-hand table itself: the view ``seats`` joins every hand to name its site, 0.1 s per million)
    if store.run(f"SELECT 1 FROM keyed.seats WHERE player = ? UNION ALL SELECT 1 FROM {ALIASES} WHERE person = ? LIMIT 1",
                 [name, name]):
        return None
    if not store.run("SELECT 1 FROM hands LIMIT 1"):
        raise UsageError("the store holds no hands yet: run `hhtool import PATH` first")
    known = [str(row[0]) for row in store.run(f"SELECT DISTINCT player FROM seats UNION SELECT person FROM {ALIASES}")]
    raise UsageError(f"no player {name!r} in the store{close_to(name, known)}")


def _player_notes(name: str, site: str | None) -> tuple[str, list[Any]]:
    """A condition on ``notes n``: the notes on the player ``name`` (on ``site``, or on any), and,
    when ``name`` is an alias, those on each site name it groups."""
    on_site = "TRUE" if site is None else "(n.site IS NULL OR n.site = ?)"
    alias_site = "TRUE" if site is None else "a.site = ?"
    condition = (f"n.target = 'player' AND ((n.key = ? AND {on_site}) OR EXISTS (SELECT 1 FROM {ALIASES} a "
                 f"WHERE a.person = ? AND a.player = n.key AND (n.site IS NULL OR n.site = a.site) AND {alias_site}))")
    params: list[Any] = [name, *([site] if site else []), name, *([site] if site else [])]
    return condition, params


__all__ = ["NOTE_LENGTH", "Note", "Target", "add_note", "add_tag", "all_tags", "delete_note", "normal_tag", "notes_for",
           "remove_tag", "tags_for"]
