"""`hhtool export`: the store's tables as partitioned Parquet (the layout a cluster import writes)."""

from __future__ import annotations

from enum import StrEnum

import typer

from hhtool.cli.common import DB_OPTION, EXIT_ERROR, err, open_store, out
from hhtool.store.schema import HAND_TABLES, REPLAY_TABLES

EXPORTED_TABLES = ("files", "hands", *HAND_TABLES, *REPLAY_TABLES, "import_errors", "skipped_hands")


class ExportFormat(StrEnum):
    parquet = "parquet"


def register(app: typer.Typer) -> None:
    @app.command("export")
    def export_command(
        out_dir: str = typer.Argument(..., help="Folder to write <table>/part-00000.parquet into."),
        output_format: ExportFormat = typer.Option(ExportFormat.parquet, "--format", help="parquet."),
        db: str | None = DB_OPTION,
    ) -> None:
        """Export the stored hands, findings and import errors."""
        from hhtool.parallel import export_parquet

        with open_store(db, read_only=True) as store:
            try:
                counts = export_parquet(store, out_dir, EXPORTED_TABLES)
            except OSError as error:
                err.print(f"[red]error:[/red] cannot write {out_dir}: {error}")
                raise typer.Exit(EXIT_ERROR) from error
        out.print(", ".join(f"{name} {rows}" for name, rows in counts.items()), highlight=False)
