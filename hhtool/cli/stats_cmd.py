"""`hhtool stats`: per-player statistics over the stored hands (definitions in docs/stats.md)."""

from __future__ import annotations

import typer

from hhtool.cli.common import (
    DB_OPTION,
    FROM_OPTION,
    GAME_OPTION,
    PLAYER_OPTION,
    SITE_OPTION,
    STAKES_OPTION,
    TABLE_SIZE_OPTION,
    TO_OPTION,
    database,
)
from hhtool.cli.output import OutputFormat, emit_frame
from hhtool.service.filters import Game, hand_filter
from hhtool.service.reports import Breakdown, stats


def register(app: typer.Typer) -> None:
    @app.command("stats")
    def stats_command(
        players: list[str] | None = PLAYER_OPTION,
        sites: list[str] | None = SITE_OPTION,
        stakes: str | None = STAKES_OPTION,
        date_from: str | None = FROM_OPTION,
        date_to: str | None = TO_OPTION,
        game: Game | None = GAME_OPTION,
        table_size: int | None = TABLE_SIZE_OPTION,
        min_hands: int = typer.Option(0, "--min-hands", help="Only players with at least this many hands."),
        by: Breakdown | None = typer.Option(None, "--by", help="Break down by street, stakes, month or door-card."),
        output_format: OutputFormat = typer.Option(OutputFormat.table, "--format", help="table, csv, json or parquet."),
        out_file: str | None = typer.Option(None, "--out", help="Write to this file instead of the terminal."),
        db: str | None = DB_OPTION,
    ) -> None:
        """Per-player statistics: results, 3rd-street play, later streets, showdown and hi/lo halves.

        One row per player and currency; money in smallest units beside `currency` and `unit`.

        Each rate comes with `<stat>_count` and `<stat>_opportunities`; it is null without opportunities.

        The terminal shows every statistic for up to four players, else (or with --by) a headline table.

        csv, json and parquet carry every key. Definitions: docs/stats.md.
        """
        chosen = hand_filter(players=players, sites=sites, stakes=stakes, date_from=date_from, date_to=date_to,
                             game=game, table_size=table_size)
        frame = stats(database(db), chosen, by=by, min_hands=min_hands, for_terminal=output_format is OutputFormat.table)
        emit_frame(frame, output_format, out_file)
