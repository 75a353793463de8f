"""`hhtool note`: write, list and delete the user's notes on hands and players."""

from __future__ import annotations

import json
import sys
from enum import StrEnum

import typer

from hhtool.cli.annotations import note_lines, notes_json, print_lines
from hhtool.cli.common import DB_OPTION, database, out, site_option
from hhtool.cli.output import printable
from hhtool.service.errors import UsageError


class NoteFormat(StrEnum):
    text = "text"
    json = "json"


def _said(text: str) -> None:
    out.print(printable(text), markup=False, highlight=False, crop=False, overflow="ignore")


def register(app: typer.Typer) -> None:
    @app.command("note")
    def note_command(
        first: str | None = typer.Argument(None, metavar="HAND_ID", show_default=False,
                                           help="The hand's id, as `hhtool show` takes it (with --player: the text)."),
        second: str | None = typer.Argument(None, metavar="TEXT", show_default=False,
                                            help="The note; without it, the notes are listed."),
        player: str | None = typer.Option(None, "--player", metavar="NAME",
                                          help="A note on this player (as --player takes him: a name, or an alias)."),
        site: str | None = site_option("The hand's site, when two sites share the id; the player's, for a note on "
                                       "his name on that site only"),
        delete: int | None = typer.Option(None, "--delete", metavar="ID", help="Delete the note numbered ID."),
        output_format: NoteFormat = typer.Option(NoteFormat.text, "--format", help="Notes listed: text or json."),
        db: str | None = DB_OPTION,
    ) -> None:
        """Write a note on a hand or a player, list the notes, or delete one.

        `note HAND_ID "text"` notes a hand, `note HAND_ID` lists its notes, `note --delete ID` deletes one.

        `note --player NAME "text"` and `note --player NAME` do the same for a player.

        `show HAND_ID` shows a hand's notes under it, `stats --player NAME` the player's under the table.

        Notes are kept in the database (table `notes`) by the hand's site and id: re-imports keep them.

        `hhtool export` writes them. The text is kept as written (at most 10,000 characters).
        """
        from hhtool.service.notes import Target, add_note, delete_note, notes_for

        if delete is not None:
            if first is not None or player is not None:
                raise UsageError("--delete ID takes no hand, text or --player: `hhtool note --delete 3`")
            if not delete_note(database(db), delete):
                raise UsageError(f"no note {delete} (`hhtool note HAND_ID` or `note --player NAME` lists notes "
                                 "with their numbers)")
            _said(f"note {delete} deleted")
            return
        target: Target = "player" if player is not None else "hand"
        if player is not None:
            if second is not None:
                raise UsageError('with --player, give only the text: `hhtool note --player NAME "text"`')
            key, text = player, first
        elif first is None:
            raise UsageError("give a hand: `hhtool note HAND_ID \"text\"` (or a player: `note --player NAME \"text\"`)")
        else:
            key, text = first, second
        if text is not None:
            note = add_note(database(db), target, key, text, site)
            what = f"hand {note.key} ({note.site})" if target == "hand" else f"player {note.key}"
            _said(f"note {note.id} added to {what}" + (f" on {note.site}" if target == "player" and note.site else ""))
            return
        notes = notes_for(database(db), target, key, site)
        if output_format is NoteFormat.json:
            sys.stdout.write(json.dumps(notes_json(notes), indent=2) + "\n")
            return
        what = f"hand {key}" if target == "hand" else f"player {key}"
        if not notes:
            _said(f"no notes on {what} yet")
            return
        _said(f"notes on {what}:")
        print_lines(note_lines(notes))


__all__ = ["register"]
