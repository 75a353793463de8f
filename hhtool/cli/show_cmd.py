"""`hhtool show HAND_ID`: replay one stored hand in the terminal."""

from __future__ import annotations

import json
import sys
from enum import StrEnum

import typer

from hhtool.cli.common import DB_OPTION, EXIT_ERROR, err, open_store, out
from hhtool.store.load import load_hands


class ShowFormat(StrEnum):
    text = "text"
    json = "json"


def register(app: typer.Typer) -> None:
    @app.command("show")
    def show_command(
        hand_id: str = typer.Argument(..., help="The site's hand id."),
        site: str | None = typer.Option(None, "--site", help="The site, when two sites share the id."),
        hide_hole: bool = typer.Option(False, "--hide-hole", help="Keep opponents' down cards hidden until showdown."),
        rules: str | None = typer.Option(None, "--rules", help="Rule profile for the awards and violations shown."),
        output_format: ShowFormat = typer.Option(ShowFormat.text, "--format", help="text or json."),
        db: str | None = DB_OPTION,
    ) -> None:
        """Show a hand street by street: cards, actions with the pot, showdown, site and rules awards, violations."""
        from hhtool.cli.import_cmd import check_rules
        from hhtool.replay import profile_for, replay
        from hhtool.reports.show import describe_hand, render_text

        check_rules(rules)  # a wrong --rules is a usage error (exit 2), before the store is opened

        where, params = "h.hand_id = ?", [hand_id]
        if site:
            where, params = where + " AND h.site = ?", [*params, site.lower()]
        with open_store(db, read_only=True) as store:
            hands = list(load_hands(store, where, params))
        if not hands:
            err.print(f"[red]error:[/red] no stored hand {hand_id!r}")
            raise typer.Exit(EXIT_ERROR)
        if len(hands) > 1:
            err.print(f"[red]error:[/red] hand {hand_id!r} exists on {', '.join(h.site for h in hands)}; add --site")
            raise typer.Exit(EXIT_ERROR)
        hand = hands[0]
        result = replay(hand, profile_for(hand, rules))
        described = describe_hand(hand, result, hide_hole)
        if output_format is ShowFormat.json:
            sys.stdout.write(json.dumps(described, indent=2) + "\n")
            return
        for line in render_text(described, hand):
            out.print(line)
