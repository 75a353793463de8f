"""Printing Polars frames as a table, CSV, JSON or Parquet (shared by report commands)."""

from __future__ import annotations

import json
import sys
from enum import StrEnum

import polars as pl
import typer
from rich.table import Table
from rich.text import Text

from hhtool.cli.common import EXIT_ERROR, err, out


class OutputFormat(StrEnum):
    table = "table"
    csv = "csv"
    json = "json"
    parquet = "parquet"


def emit_frame(frame: pl.DataFrame, output_format: OutputFormat, out_file: str | None = None) -> None:
    if output_format is OutputFormat.parquet:
        if not out_file:
            err.print("[red]error:[/red] --format parquet needs --out FILE")
            raise typer.Exit(EXIT_ERROR)
        frame.write_parquet(out_file)
        return
    if output_format is OutputFormat.csv:
        text = frame.write_csv()
    elif output_format is OutputFormat.json:
        text = json.dumps(frame.to_dicts(), default=str, indent=2) + "\n"
    else:
        table = Table(show_lines=False)
        for name in frame.columns:  # Text, not markup: a player named "[red]x" is shown as named
            table.add_column(Text(name), overflow="fold")
        for row in frame.iter_rows():
            table.add_row(*(Text("" if value is None else str(value)) for value in row))
        if out_file:
            with open(out_file, "w", encoding="utf-8") as handle:
                from rich.console import Console

                Console(file=handle, width=200).print(table)
        else:
            out.print(table)
        return
    if out_file:
        with open(out_file, "w", encoding="utf-8") as handle:
            handle.write(text)
    else:
        sys.stdout.write(text)
