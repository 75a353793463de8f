"""Printing shared by the commands: Polars frames as a table, CSV, JSON or Parquet (the report
commands), and the summary of an import (`import`, `audit PATH…`)."""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from typing import TYPE_CHECKING

import polars as pl
import typer
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from hhtool.cli.common import EXIT_ERROR, err, out

if TYPE_CHECKING:
    from hhtool.service.importing import ImportReport

#: an import report's status of a file that holds no hand (hhtool.importer.NOT_A_HAND_HISTORY)
NOT_A_HAND_HISTORY = "not a hand history"

#: failures (and conflicting copies) an import summary lists; the rest are counted
SHOWN_FAILURES = 5


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


def print_text_summary(report: ImportReport) -> None:
    found, stored, dup = report.total("hands_found"), report.total("stored"), report.total("duplicates")
    skipped, failed = report.total("skipped"), report.failed
    incomplete = report.total("incomplete")
    conflicts = report.conflicts
    out.print(
        f"{len(report.files)} files: {found} hands found = {stored} stored + {dup} duplicates"
        + (f" ({len(conflicts)} conflicting copies)" if conflicts else "")
        + f" + {skipped} skipped (other games) + {report.total('failed')} failed"
        + (f" + {incomplete} incomplete (a truncated last hand, kept in import_errors)" if incomplete else "")
    )
    for file_report in report.files:
        if file_report.status == NOT_A_HAND_HISTORY:
            site = escape(file_report.site or "")
            out.print(f"  [yellow]not a hand history[/yellow] {escape(file_report.path)}: no {site} hand starts in it "
                      f"(read with --site {site}; without it the site is detected); skipped", highlight=False)
    shown = 0
    for file_report in report.files:
        for failure in file_report.failures:
            if shown < SHOWN_FAILURES:
                out.print(f"  [red]failed[/red] {escape(file_report.path)}:{failure.line}: {escape(failure.reason)}",
                          highlight=False)
            shown += 1
    for file_report in report.files:
        for hand in file_report.incomplete_hands:
            out.print(f"  [yellow]incomplete[/yellow] {escape(file_report.path)}:{hand.line}: {escape(hand.reason)}",
                      highlight=False)
    for conflict in conflicts[:SHOWN_FAILURES]:
        out.print(f"  [red]conflicting copy[/red] {escape(conflict.site)} hand {escape(conflict.hand_id)}: "
                  f"{escape(conflict.second)} differs from the stored copy {escape(conflict.first)} "
                  f"({escape(conflict.diff[:300])}); `hhtool audit --explain "
                  f"{escape(conflict.hand_id)}` shows both", highlight=False)
    if len(conflicts) > SHOWN_FAILURES:
        out.print(f"  … and {len(conflicts) - SHOWN_FAILURES} more conflicting copies (`hhtool audit --code CONFLICTING_COPY`)")
    for problem in report.unreadable:
        out.print(f"  [red]unreadable[/red] {escape(problem)}", highlight=False)
    if shown > SHOWN_FAILURES:
        out.print(f"  … and {shown - SHOWN_FAILURES} more (see the import_errors table, or --format json)")
    unchanged = [r for r in report.files if r.status == "unchanged"]
    if unchanged:
        out.print(f"{len(unchanged)} files were imported before and read the same way: not read again. To read a file "
                  "again another way, import it with --site SITE (or without --site, to detect the site).")
    if failed:
        out.print(f"[red]{failed} failed[/red]; every other hand was stored.")
