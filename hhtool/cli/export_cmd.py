"""`hhtool export`: the store's tables as partitioned Parquet (the layout a cluster import writes),
or stored hands as PHH (the PokerKit project's hand history notation, variant F7S/8)."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path

import typer
from rich.markup import escape

from hhtool.cli.common import DB_OPTION, EXIT_ERROR, choices, database, err, info, site_option


class ExportFormat(StrEnum):
    parquet = "parquet"
    phh = "phh"


SITE_OPTION = site_option("phh: only hands of this site")
FORMAT_HELP = f"{choices(ExportFormat)}."


def register(app: typer.Typer) -> None:
    @app.command("export")
    def export_command(
        out_dir: str | None = typer.Argument(None, help="parquet: folder to write <table>/part-00000.parquet into."),
        output_format: ExportFormat = typer.Option(ExportFormat.parquet, "--format", help=FORMAT_HELP),
        target: str | None = typer.Option(None, "--out", help="phh: a folder (one .phh per hand) or a FILE.phhs."),
        site: str | None = SITE_OPTION,
        hand: str | None = typer.Option(None, "--hand", help="phh: only the hand with this id."),
        player: str | None = typer.Option(None, "--player", help="phh: only hands this player sat in."),
        plain: bool = typer.Option(False, "--plain", help="phh: leave out hhtool's _hhtool_* fields."),
        db: str | None = DB_OPTION,
    ) -> None:
        """Export the stored hands, findings and import errors (parquet), or the hands as PHH."""
        from hhtool.service.export import export_parquet, export_phh
        from hhtool.service.filters import hand_filter

        if output_format is ExportFormat.phh:
            if out_dir is not None or target is None:
                err.print("[red]error:[/red] --format phh writes to --out DIR or --out FILE.phhs (no folder argument)")
                raise typer.Exit(EXIT_ERROR)
            chosen = hand_filter(sites=site, hand_id=hand or None, players=player)
            exported = export_phh(database(db), Path(target), chosen, user_fields=not plain)
            for reason in exported.refused:
                err.print(f"[yellow]not exported:[/yellow] {escape(reason)}", highlight=False)
            for reason in exported.unreplayable:
                err.print(f"[yellow]exported, not replayable in PokerKit:[/yellow] {escape(reason)}", highlight=False)
            info(f"wrote {target} ({exported.written} hands)"
                      + (f"; {len(exported.refused)} not expressible in PHH" if exported.refused else "")
                      + (f"; {len(exported.unreplayable)} written that PokerKit cannot replay" if exported.unreplayable
                         else "; PokerKit can replay every one")
                      + f" (checked by {exported.checked_by})", highlight=False, markup=False)
            return
        if out_dir is None or target or site or hand or player or plain:
            err.print("[red]error:[/red] --format parquet takes a folder argument and no --out or filters")
            raise typer.Exit(EXIT_ERROR)
        counts = export_parquet(database(db), out_dir)
        info(", ".join(f"{name} {rows}" for name, rows in counts.items()), highlight=False)
