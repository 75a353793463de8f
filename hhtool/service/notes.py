"""The user's notes on hands and players, and tags on hands (`hhtool note`, `hhtool tag`, `hands --tag`).

They are rows of the store's ``notes`` and ``hand_tags`` tables (:mod:`hhtool.store.notes_and_tags`),
written as `hhtool alias` writes its rows (checked on a reader first, so that a store that is not
there stays so, then written in one transaction under the store's writer lock). A hand is named by
its (site, hand_id), never by its store number ``hk``: no import writes or deletes these rows, so a
hand's notes and tags stay when its rows are replaced (a grown file read again). A note on a player
names him as ``--player`` does: a name as the histories write it (on one site, or on any) or an
alias's person, whose notes include those on each site name the alias groups.

Texts are kept exactly as given (escape sequences, HTML and all): whoever shows one renders it
harmless (the terminal: :func:`hhtool.cli.output.printable`; a web page: escaped).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal, get_args

from hhtool.service.errors import UsageError
from hhtool.service.filters import close_to
from hhtool.service.stores import Database
from hhtool.store import Store, known, notes_and_tags
from hhtool.store.filters import tag_name
from hhtool.store.notes_and_tags import NoteRow

Target = Literal["hand", "player"]
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
        note_id = notes_and_tags.add_note(store, target, site, key, text, created)
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
            hand_site = site if stored and site is not None else _hand_site(store, key, site, kept="notes")
            rows = notes_and_tags.hand_notes(store, hand_site, key)
        else:
            rows = notes_and_tags.player_notes(store, key, site)
            if not rows:
                _player_site(store, key, site)
    return [_note(row) for row in rows]


def delete_note(database: Database, note_id: int) -> bool:
    """Delete the note numbered ``note_id``; False when there is none."""
    with database.open(read_only=True) as store:
        if not notes_and_tags.note_exists(store, note_id):
            return False
    with database.open() as store:
        return notes_and_tags.delete_note(store, note_id)


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
        notes_and_tags.add_tag(store, hand_site, hand_id, name)
    return name


def remove_tag(database: Database, hand_id: str, tag: str, site: str | None = None) -> bool:
    """Take ``tag`` off the hand; False when the hand did not have it. UsageError for a malformed tag
    or a hand the store has neither stored nor tagged."""
    name = _tag(tag)
    site = _site(site)
    with database.open(read_only=True) as store:
        hand_site = _hand_site(store, hand_id, site, kept="tags")
        if not notes_and_tags.has_tag(store, hand_site, hand_id, name):
            return False
    with database.open() as store:
        return notes_and_tags.remove_tag(store, hand_site, hand_id, name)


def tags_for(database: Database, hand_id: str, site: str | None = None, *, stored: bool = False) -> list[str]:
    """The hand's tags, A to Z. UsageError for a hand the store has neither stored nor tagged.
    ``stored``: as :func:`notes_for`'s."""
    site = _site(site)
    with database.open(read_only=True) as store:
        hand_site = site if stored and site is not None else _hand_site(store, hand_id, site, kept="tags")
        return notes_and_tags.tags_of(store, hand_site, hand_id)


def all_tags(database: Database) -> list[tuple[str, int]]:
    """Every tag in the store with the number of hands carrying it, A to Z."""
    with database.open(read_only=True) as store:
        return notes_and_tags.tag_counts(store)


def _note(row: NoteRow) -> Note:
    target: Target = "hand" if row.target == "hand" else "player"
    return Note(row.id, target, row.key, row.site, row.text, row.created.replace(tzinfo=UTC))


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


def _subject(store: Store, target: Target, key: str, site: str | None) -> str | None:
    """The site a new note's subject is on (a hand's; a player's when asked): UsageError when unknown."""
    if target == "hand":
        return _hand_site(store, key, site)
    return _player_site(store, key, site)


def _hand_site(store: Store, hand_id: str, site: str | None, kept: Literal["notes", "tags"] | None = None) -> str:
    """The site of the hand ``hand_id`` (the one asked for, or the only one that has it). ``kept``:
    the sites having the hand's notes or tags count as having the hand too (their hand may be gone).
    UsageError when no site or several have it."""
    sites = known.hand_sites(store, hand_id, kept)
    if site is not None and site in sites:
        return site
    if site is None and len(sites) == 1:
        return sites[0]
    if len(sites) > 1 and site is None:
        raise UsageError(f"hand {hand_id!r} exists on {', '.join(sites)}: add --site")
    if sites:
        raise UsageError(f"no stored hand {hand_id!r} on {site} (it is on {', '.join(sites)})")
    if not known.has_hands(store):
        raise UsageError("the store holds no hands yet: run `hhtool import PATH` first")
    raise UsageError(f"no stored hand {hand_id!r}{_close_ids(store, hand_id)}")


def _close_ids(store: Store, hand_id: str) -> str:
    """``; did you mean '123'?``: stored hand ids a typo or two away (a digit missing, wrong, or two swapped)."""
    close = known.close_hand_ids(store, hand_id, _ID_EDITS)
    return f"; did you mean {' or '.join(repr(name) for name in close)}?" if close else ""


def _player_site(store: Store, name: str, site: str | None) -> str | None:
    """``site`` when the player ``name`` is known (a seat on that site, or on any; an alias's person,
    grouping a name on that site); UsageError with close matches otherwise."""
    if not name.strip():
        raise UsageError("a player's name cannot be empty")
    if site is not None:
        if known.player_known(store, name, site):
            return site
        players = known.players_on(store, site)
        if not players:
            raise UsageError(f"no hands of site {site!r} in the store{close_to(site, known.sites(store))}")
        raise UsageError(f"no player {name!r} on {site} in the store{close_to(name, players)}")
    if known.player_known(store, name):
        return None
    if not known.has_hands(store):
        raise UsageError("the store holds no hands yet: run `hhtool import PATH` first")
    raise UsageError(f"no player {name!r} in the store{close_to(name, known.player_names(store))}")


__all__ = ["NOTE_LENGTH", "Note", "Target", "add_note", "add_tag", "all_tags", "delete_note", "normal_tag", "notes_for",
           "remove_tag", "tags_for"]
