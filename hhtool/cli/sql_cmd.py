"""`hhtool sql "SELECT …"`: one read-only query over the store, confined (hhtool/store/confined.py)."""

from __future__ import annotations

import typer
from rich.markup import escape

from hhtool.cli.common import DB_OPTION, EXIT_USAGE, database, err
from hhtool.cli.output import OutputFormat, emit_frame
from hhtool.service.sql import DEFAULT_MEMORY, DEFAULT_TIMEOUT, QueryFailed, QueryRefused, run_sql


def register(app: typer.Typer) -> None:
    @app.command("sql")
    def sql_command(
        query: str = typer.Argument(..., help="One SELECT (or WITH, FROM, VALUES, DESCRIBE, SHOW, SUMMARIZE) "
                                              "statement; the schema is in docs/schema.md."),
        db: str | None = DB_OPTION,
        output_format: OutputFormat = typer.Option(OutputFormat.table, "--format", help="table, csv, json or parquet."),
        out_file: str | None = typer.Option(None, "--out", help="Write to this file instead of the terminal."),
        timeout: float = typer.Option(DEFAULT_TIMEOUT, "--timeout", min=0.01, help="Stop the query after SECONDS."),
        memory: str = typer.Option(DEFAULT_MEMORY, "--memory", help="DuckDB memory for the query, and the largest "
                                                                    "result kept (e.g. 512MiB, 4GB)."),
    ) -> None:
        """Run one read-only query on the store's tables and views and print the result.

        It cannot read or write files or other databases, change settings or load extensions.

        It is stopped after --timeout seconds, or past --memory. Exit code 2 for a refused or failed query.

        A query that starts with a comment ("-- …") goes after a lone --: hhtool sql -- "-- …".
        """
        try:
            frame = run_sql(database(db), query, timeout, memory)
        except QueryRefused as error:
            err.print(f"[red]refused:[/red] {escape(str(error))}", highlight=False)
            raise typer.Exit(EXIT_USAGE) from None
        except QueryFailed as error:
            err.print(f"[red]error:[/red] {escape(str(error))}", highlight=False)
            raise typer.Exit(EXIT_USAGE) from None
        emit_frame(frame, output_format, out_file)
