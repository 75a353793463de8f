"""`hhtool violations`: what broke the rules, across the whole store."""

from __future__ import annotations

import typer

from hhtool.cli.common import DB_OPTION, EXIT_ERROR, err, open_store, out
from hhtool.cli.output import OutputFormat, emit_frame
from hhtool.replay.codes import CODE_NAMES, Code


def register(app: typer.Typer) -> None:
    @app.command("violations")
    def violations_command(
        by: str | None = typer.Option(None, "--by", help="code, site, player, date or hand (worst first). "
                                      "Default: every breakdown in the terminal, by code otherwise."),
        code: Code | None = typer.Option(None, "--code", parser=Code, metavar="CODE",
                                        help=f"Only this code: {CODE_NAMES}."),
        hand: str | None = typer.Option(None, "--hand", help="Drill down into one hand's violations."),
        site: str | None = typer.Option(None, "--site", help="Only this site."),
        player: str | None = typer.Option(None, "--player", help="Only violations by this player."),
        top: int = typer.Option(20, "--top", min=1, help="Rows per breakdown in the terminal view."),
        output_format: OutputFormat = typer.Option(OutputFormat.table, "--format", help="table, csv, json or parquet."),
        out_file: str | None = typer.Option(None, "--out", help="Write to this file instead of the terminal."),
        db: str | None = DB_OPTION,
    ) -> None:
        """Counts of violations by code, site, player and date, and the worst hands first."""
        from hhtool.reports.violations import BREAKDOWNS, violation_summary

        if by is not None and by not in BREAKDOWNS:
            err.print(f"[red]error:[/red] --by must be one of {', '.join(BREAKDOWNS)}")
            raise typer.Exit(EXIT_ERROR)
        with open_store(db, read_only=True) as store:
            if hand or by or output_format is not OutputFormat.table:
                frame = violation_summary(store, by or "code", code, site.lower() if site else None, player, hand)
                emit_frame(frame, output_format, out_file)
                return
            for breakdown in ("code", "site", "player", "date", "hand"):
                frame = violation_summary(store, breakdown, code, site.lower() if site else None, player, None, top)
                out.print(f"[bold]by {breakdown}[/bold]" + (" (worst first)" if breakdown == "hand" else ""))
                emit_frame(frame, output_format)
