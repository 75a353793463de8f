"""What the list commands (`hands`, `sessions`) share: their sort, limit, column and output options,
where a list goes (terminal table, or a file in the format its suffix names), and the notes under it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import typer

from hhtool.cli.common import choices, err
from hhtool.cli.output import OutputFormat, file_format

if TYPE_CHECKING:
    from hhtool.service.reports import TerminalChoice

DESCENDING_OPTION = typer.Option(None, "--desc/--asc", help="Sort largest or newest first (--desc) or the other "
                                 "way. Default: --desc for numbers and dates, --asc for text.", show_default=False)
LIMIT_OPTION = typer.Option(None, "--limit", "--top", min=0, help="Only the first N rows; 0: all. Default: 50 on "
                            "the terminal, all in csv, json, parquet and html.")
ALL_COLUMNS_OPTION = typer.Option(False, "--all", help="Table: every column.")
FORMAT_OPTION = typer.Option(None, "--format", help=f"{choices(OutputFormat)}. Default: the one --out's "
                             "suffix names, else table.")
OUT_OPTION = typer.Option(None, "--out", help="Write to this file instead of the terminal; its suffix (.csv, .json, "
                          ".parquet, .html) decides the format.")


def sort_option(default: str) -> Any:
    return typer.Option(None, "--sort", help=f"Sort by this column (a header or a --format csv key). Default: {default}.")


def columns_option(example: str) -> Any:
    return typer.Option(None, "--columns", help=f"Table: these columns, comma-separated, e.g. {example}.")


@dataclass(frozen=True)
class ListTarget:
    """Where a list goes: the format written, whether it is the terminal, and (a table) its columns."""

    written: OutputFormat
    on_terminal: bool
    terminal: TerminalChoice | None

    def tell(self, note: str) -> None:
        """A note under the list: after the table on the terminal, on stderr when the list is data."""
        if self.on_terminal:
            typer.echo(note)
        else:
            err.print(note, highlight=False)


def list_target(output_format: OutputFormat | None, out_file: str | None, columns: str | None,
                all_columns: bool) -> ListTarget:
    from hhtool.service.reports import TerminalChoice

    written = file_format(output_format, out_file)
    terminal = None
    if written is OutputFormat.table:
        names = tuple(name for name in (columns or "").split(",") if name.strip())
        terminal = TerminalChoice(columns=names, all_columns=all_columns)
    return ListTarget(written, written is OutputFormat.table and not out_file, terminal)
