"""`hhtool show HAND_ID`: replay one stored hand in the terminal."""

from __future__ import annotations

import json
import sys
from enum import StrEnum

import typer

from hhtool.cli.annotations import annotation_block, hand_annotations, notes_json, print_lines
from hhtool.cli.common import DB_OPTION, choices, database, out, rules_option, site_option
from hhtool.cli.output import fit_lines, printable, terminal_width


class ShowFormat(StrEnum):
    text = "text"
    json = "json"


SITE_OPTION = site_option("The site, when two sites share the id")
RULES_OPTION = rules_option("Rule profile for the awards and violations shown")
FORMAT_HELP = f"{choices(ShowFormat)}."


def register(app: typer.Typer) -> None:
    @app.command("show")
    def show_command(
        hand_id: str = typer.Argument(..., help="The site's hand id."),
        site: str | None = SITE_OPTION,
        hide_hole: bool = typer.Option(False, "--hide-hole", help=(
            "Hide the down cards on the streets (the hero's and those revealed later) to review the hand "
            "as the table saw it.")),
        rules: str | None = RULES_OPTION,
        output_format: ShowFormat = typer.Option(ShowFormat.text, "--format", help=FORMAT_HELP),
        db: str | None = DB_OPTION,
    ) -> None:
        """Show a hand street by street: cards (opponents' down cards the hand revealed later in parentheses),
        actions with the pot, showdown, site and rules awards, violations."""
        from hhtool.reports.show import render_text
        from hhtool.service.judging import show_hand

        shown = show_hand(database(db), hand_id, site, rules, hide_hole)
        tags, notes = hand_annotations(database(db), shown.hand.site, shown.hand.hand_id)  # the user's (`tag`, `note`)
        if output_format is ShowFormat.json:
            described = {**shown.described, "tags": tags, "notes": notes_json(notes)}
            sys.stdout.write(json.dumps(described, indent=2) + "\n")
            return
        lines = render_text(shown.described, shown.hand)
        for line in lines:  # a player's name, a table's: no escape sequence or line break of theirs reaches the terminal
            line.plain = printable(line.plain)  # (one character for one: the styles' spans stay in place)
        for line in fit_lines(lines, terminal_width()):
            out.print(line)
        print_lines(annotation_block(tags, notes))
