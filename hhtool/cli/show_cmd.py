"""`hhtool show HAND_ID`: replay one stored hand in the terminal."""

from __future__ import annotations

import json
from enum import StrEnum

import typer

from hhtool.cli.annotations import annotation_block, hand_annotations, notes_json, print_lines
from hhtool.cli.common import DB_OPTION, STRUCTURES_OPTION, choices, database, out, rules_option, site_option
from hhtool.cli.output import UNBOUNDED_WIDTH, fit_lines, printable, terminal_width, write_text
from hhtool.service.config import desk_structures


class ShowFormat(StrEnum):
    text = "text"
    json = "json"
    forum = "forum"
    html = "html"


SITE_OPTION = site_option("The site, when two sites share the id")
RULES_OPTION = rules_option("Rule profile for the awards and violations shown")
FORMAT_HELP = (f"{choices(ShowFormat)}: forum is plain text to paste in a poker forum (no colours, at most 72 "
               "columns); html is the dispute page's replayer as one self-contained page (write it with --out).")


def register(app: typer.Typer) -> None:
    @app.command("show")
    def show_command(
        hand_id: str = typer.Argument(..., help="The site's hand id."),
        site: str | None = SITE_OPTION,
        hide_hole: bool = typer.Option(False, "--hide-hole", help=(
            "Hide the down cards on the streets (the hero's and those revealed later) to review the hand "
            "as the table saw it.")),
        rules: str | None = RULES_OPTION,
        structures: str | None = STRUCTURES_OPTION,
        output_format: ShowFormat = typer.Option(ShowFormat.text, "--format", help=FORMAT_HELP),
        out_file: str | None = typer.Option(None, "--out", help="Write the hand to this file (any format; text "
                                            "without colours) instead of printing it."),
        db: str | None = DB_OPTION,
    ) -> None:
        """Show a hand street by street: cards (opponents' down cards the hand revealed later in parentheses),
        actions with the pot, showdown, site and rules awards, violations."""
        from hhtool.reports.show import render_forum, render_text
        from hhtool.service.judging import show_hand, show_page

        if output_format is ShowFormat.html:
            emit(show_page(database(db), hand_id, site, rules, hide_hole, desk_structures(structures)), out_file)
            return
        shown = show_hand(database(db), hand_id, site, rules, hide_hole, desk_structures(structures))
        tags, notes = hand_annotations(database(db), shown.hand.site, shown.hand.hand_id)  # the user's (`tag`, `note`)
        if output_format is ShowFormat.json:
            described = {**shown.described, "tags": tags, "notes": notes_json(notes)}
            emit(json.dumps(described, indent=2) + "\n", out_file)
            return
        if output_format is ShowFormat.forum:
            emit(render_forum(shown.described, shown.hand), out_file)
            return
        width = UNBOUNDED_WIDTH if out_file else terminal_width()
        lines = render_text(shown.described, shown.hand, width)
        for line in lines:  # a player's name, a table's: no escape sequence or line break of theirs reaches the terminal
            line.plain = printable(line.plain)  # (one character for one: the styles' spans stay in place)
        fitted = fit_lines(lines, width)
        annotations = annotation_block(tags, notes, width)  # the user's own: in the text, not in a forum's post
        if out_file:
            emit("".join(line.plain + "\n" for line in fitted) + "".join(line + "\n" for line in annotations), out_file)
            return
        for line in fitted:
            out.print(line)
        print_lines(annotations)


def emit(text: str, out_file: str | None) -> None:
    """The rendered hand to stdout, or to ``out_file`` (write_text says "wrote FILE", as every --out)."""
    write_text(text, out_file)
