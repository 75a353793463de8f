"""`hhtool graph`: cumulative winnings (total, showdown, non-showdown) to PNG or self-contained HTML."""

from __future__ import annotations

from pathlib import Path

import typer

from hhtool.cli.common import DB_OPTION, EXIT_ERROR, err, out
from hhtool.cli.stats_cmd import (
    FROM_OPTION,
    GAME_OPTION,
    SITE_OPTION,
    STAKES_OPTION,
    TABLE_SIZE_OPTION,
    TO_OPTION,
    build_filter,
    report_store,
)
from hhtool.reports.filters import Game
from hhtool.reports.graph import GraphError, heroes, winnings_series, write_graph


def register(app: typer.Typer) -> None:
    @app.command("graph")
    def graph_command(
        out_file: str = typer.Option(..., "--out", help="winnings.png or winnings.html: the suffix decides."),
        player: str | None = typer.Option(None, "--player", help="Whose winnings (default: the hero, if only one)."),
        currency: str | None = typer.Option(None, "--currency", help="When the player has hands in several currencies."),
        sites: list[str] | None = SITE_OPTION,
        stakes: str | None = STAKES_OPTION,
        date_from: str | None = FROM_OPTION,
        date_to: str | None = TO_OPTION,
        game: Game | None = GAME_OPTION,
        table_size: int | None = TABLE_SIZE_OPTION,
        db: str | None = DB_OPTION,
    ) -> None:
        """Graph a player's cumulative winnings against hands played."""
        path = Path(out_file)
        if path.suffix.lower() not in (".png", ".html", ".htm"):
            err.print(f"[red]error:[/red] --out must end in .png or .html, not {path.name!r}")
            raise typer.Exit(EXIT_ERROR)
        hand_filter = build_filter(None, sites, stakes, date_from, date_to, game, table_size)
        with report_store(db) as store:
            if player is None:
                found = heroes(store, hand_filter)
                if len(found) != 1:
                    which = f"the hands have several heroes ({', '.join(found[:5])})" if found else "no hero is recorded"
                    err.print(f"[red]error:[/red] --player is required: {which}")
                    raise typer.Exit(EXIT_ERROR)
                player = found[0]
            try:
                series = winnings_series(store, hand_filter, player, currency.upper() if currency else None)
            except GraphError as error:
                err.print(f"[red]error:[/red] {error}")
                raise typer.Exit(EXIT_ERROR) from error
        write_graph(series, player, path)
        out.print(f"wrote {path} ({series.height} hands of {player})")
