"""The user's notes and tags as terminal lines: `note`, `tag`, and the blocks `show` and `stats
--player` print under their own output. A note's text is the user's, kept as written: here every
control character (an escape sequence's start, a tab, U+2028) becomes "?", its own line breaks are
kept as lines, and each line is wrapped to the terminal's width under the note's head."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from hhtool.cli.common import out
from hhtool.cli.output import printable, terminal_width

if TYPE_CHECKING:  # (the store, and DuckDB, load when a command opens one: not with the command line)
    from hhtool.service.notes import Note
    from hhtool.service.stores import Database

#: the narrowest a note's text is wrapped to, however deep its indent
_LEAST_TEXT = 20


def note_head(note: Note) -> str:
    """``#3 2025-01-02 14:05 UTC``, and the site of a player's note on one site only."""
    site = f" ({note.site} only)" if note.target == "player" and note.site else ""
    return f"#{note.id} {note.created:%Y-%m-%d %H:%M} UTC{site}"


def note_lines(notes: Sequence[Note], indent: str = "  ", width: int | None = None) -> list[str]:
    """Each note as its head and its text beside it, wrapped at ``width`` (the terminal's) with the
    text's continuation lines under its first."""
    width = width or terminal_width()
    lines: list[str] = []
    for note in notes:
        head = f"{indent}{printable(note_head(note))}  "
        hanging = " " * len(head) if width - len(head) >= _LEAST_TEXT else indent + "  "
        first = True
        for part in printable(note.text, lines=True).split("\n"):
            wrapped = textwrap.wrap(part, max(width - len(hanging), _LEAST_TEXT), break_long_words=True,
                                    break_on_hyphens=False, drop_whitespace=True) or [""]
            for piece in wrapped:
                if first and len(head) + len(piece) <= width:
                    lines.append(head + piece)
                elif first:
                    lines.extend([head.rstrip(), hanging + piece])
                else:
                    lines.append(hanging + piece)
                first = False
    return lines


def print_lines(lines: Sequence[str]) -> None:
    for line in lines:
        out.print(line, markup=False, highlight=False, crop=False, overflow="ignore")


def tags_line(tags: Sequence[str]) -> str:
    return "tags: " + (", ".join(tags) if tags else "none")


def hand_annotations(database: Database, site: str, hand_id: str) -> tuple[list[str], list[Note]]:
    """The stored hand's tags and notes (`show` prints them under the hand)."""
    from hhtool.service.notes import notes_for, tags_for

    return tags_for(database, hand_id, site), notes_for(database, "hand", hand_id, site)


def annotation_block(tags: Sequence[str], notes: Sequence[Note], width: int | None = None) -> list[str]:
    """``tags: a, b`` and ``notes:`` with each note under it (wrapped at ``width``, the terminal's by
    default); nothing when there are neither."""
    lines = [tags_line(tags)] if tags else []
    return lines + (["notes:", *note_lines(notes, width=width)] if notes else [])


def player_notes_block(database: Database, players: Sequence[str], site: str | None) -> list[str]:
    """``notes on NAME:`` and the player's notes, for each player asked for who has some (`stats --player`)."""
    from hhtool.service.notes import notes_for

    lines: list[str] = []
    for player in dict.fromkeys(players):
        notes = notes_for(database, "player", player, site)
        if notes:
            lines += [printable(f"notes on {player}:"), *note_lines(notes)]
    return lines


def notes_json(notes: Sequence[Note]) -> list[dict[str, Any]]:
    """The notes as JSON values (the text as written: JSON escapes what a terminal would act on)."""
    return [{"id": note.id, "target": note.target, "key": note.key, "site": note.site, "text": note.text,
             "created": note.created.isoformat()} for note in notes]


__all__ = ["annotation_block", "hand_annotations", "note_head", "note_lines", "notes_json", "player_notes_block",
           "print_lines", "tags_line"]
