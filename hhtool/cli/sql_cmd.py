"""`hhtool sql "SELECT …"`: read-only SQL over the store."""

from __future__ import annotations

import typer

from hhtool.cli.common import DB_OPTION, EXIT_ERROR, err, open_store
from hhtool.cli.output import OutputFormat, emit_frame


def register(app: typer.Typer) -> None:
    @app.command("sql")
    def sql_command(
        query: str = typer.Argument(..., help="A SELECT (or WITH …) statement; the schema is in docs/schema.md."),
        db: str | None = DB_OPTION,
        output_format: OutputFormat = typer.Option(OutputFormat.table, "--format", help="table, csv, json or parquet."),
        out_file: str | None = typer.Option(None, "--out", help="Write to this file instead of the terminal."),
    ) -> None:
        """Run read-only SQL on the store and print the result."""
        with open_store(db, read_only=True) as store:
            try:
                frame = store.frame(query)
            except Exception as error:
                err.print(f"[red]error:[/red] {error}")
                raise typer.Exit(EXIT_ERROR) from error
        emit_frame(frame, output_format, out_file)
