"""`hhtool sql "SELECT …"`: one read-only query over the store, confined (hhtool/store/confined.py)."""

from __future__ import annotations

import sys

import typer
from rich.markup import escape

from hhtool.cli.common import DB_OPTION, EXIT_USAGE, choices, database, err, number_option
from hhtool.cli.output import OutputFormat, emit_frame, file_format, terminal_width, write_text
from hhtool.service.choices import DEFAULT_MEMORY, DEFAULT_TIMEOUT
from hhtool.service.numbers import LIMIT

FORMAT_HELP = (f"{choices(OutputFormat)}; table: DuckDB's box, fitted to the terminal. "
               "Default: the one --out's suffix names, else table.")


def register(app: typer.Typer) -> None:
    @app.command("sql")
    def sql_command(
        query: str = typer.Argument(..., help="One SELECT (or WITH, FROM, VALUES, DESCRIBE, SHOW, SUMMARIZE) "
                                              "statement; the schema is in docs/schema.md."),
        db: str | None = DB_OPTION,
        output_format: OutputFormat | None = typer.Option(
            None, "--format", help=FORMAT_HELP),
        out_file: str | None = typer.Option(None, "--out", help="Write to this file instead of the terminal; "
                                                               "its suffix (.csv, .json, .parquet, .html) decides the format."),
        max_rows: int = number_option(LIMIT, 40, "--max-rows", help="Table: rows shown (the first and last halves)"),
        max_width: int | None = typer.Option(None, "--max-width", min=20, help="Table: characters a line "
                                                                              "(default: the terminal's width)."),
        timeout: float = typer.Option(DEFAULT_TIMEOUT, "--timeout", min=0.01, help="Stop the query after SECONDS."),
        memory: str = typer.Option(DEFAULT_MEMORY, "--memory", help=(
            "DuckDB's memory for the query, e.g. 512MiB, 4GB; the table's rows (the first 10,000) are kept in it. "
            "csv, json, parquet and html: a result holding more than a quarter of it (Arrow's bytes, counted as "
            "it is fetched) is refused, exit 2.")),
    ) -> None:
        """Run one read-only query on the store's tables and views and print the result.

        The table is DuckDB's own: column types, numbers right-aligned, a row count, and a wide result
        fitted to the terminal by leaving out middle columns and cutting long values (all of them are
        in csv, json and parquet).

        It cannot read or write files or other databases, change settings or load extensions.

        It is stopped after --timeout seconds, or past --memory. Exit code 2 for a refused or failed query.

        A query that starts with a comment ("-- …") goes after a lone --: hhtool sql -- "-- …".
        """
        from hhtool.service.sql import BoxLayout, QueryFailed, QueryRefused, run_sql, sql_box

        chosen = file_format(output_format, out_file)
        try:
            if chosen is OutputFormat.table:
                width = max_width or (sys.maxsize if out_file else terminal_width())
                write_text(sql_box(database(db), query, BoxLayout(max_width=min(width, 10_000), max_rows=max_rows),
                                   timeout, memory), out_file)
                return
            frame = run_sql(database(db), query, timeout, memory)
        except QueryRefused as error:
            err.print(f"[red]refused:[/red] {escape(str(error))}", highlight=False)
            raise typer.Exit(EXIT_USAGE) from None
        except QueryFailed as error:
            err.print(f"[red]error:[/red] {escape(str(error))}", highlight=False)
            raise typer.Exit(EXIT_USAGE) from None
        emit_frame(frame, chosen, out_file)
