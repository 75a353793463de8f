"""What the list commands (`hands`, `sessions`) share: their sort, limit, column and output options
(one group, :func:`list_options`), where a list goes (terminal table, or a file in the format its suffix
names), and the notes under it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import typer

from hhtool.cli.common import choices, err, number_option
from hhtool.cli.option_group import GROUP, Command, GroupOption, option_group
from hhtool.cli.output import OutputFormat, file_format, terminal_width, wrapped_text
from hhtool.service.numbers import LIMIT_OR_ALL

if TYPE_CHECKING:
    from hhtool.service.reports import TerminalChoice

DESCENDING_OPTION = typer.Option(None, "--desc/--asc", help="Sort largest or newest first (--desc) or the other "
                                 "way. Default: --desc for numbers and dates, --asc for text.", show_default=False)
LIMIT_OPTION = number_option(LIMIT_OR_ALL, None, "--limit", "--top", help="Only the first N rows; 0: all. Default: "
                             "50 on the terminal, all in csv, json, parquet and html")
ALL_COLUMNS_OPTION = typer.Option(False, "--all", help="Table: every column.")
FORMAT_OPTION = typer.Option(None, "--format", help=f"{choices(OutputFormat)}. Default: the one --out's "
                             "suffix names, else table.")
OUT_OPTION = typer.Option(None, "--out", help="Write to this file instead of the terminal; its suffix (.csv, .json, "
                          ".parquet, .html) decides the format.")


@dataclass(frozen=True)
class ListTarget:
    """Where a list goes: the format written, whether it is the terminal, and (a table) its columns."""

    written: OutputFormat
    on_terminal: bool
    terminal: TerminalChoice | None

    def tell(self, note: str) -> None:
        """A note under the list: after the table on the terminal, on stderr when the list is data."""
        if self.on_terminal:  # wrapped at the terminal's width, as the table is
            typer.echo("\n".join(wrapped_text(note, terminal_width(), 2)))
        else:
            err.print(note, highlight=False)


@dataclass(frozen=True)
class ListOptions:
    """The values given to a list command's sort, limit, column and output options."""

    sort: str | None = None
    descending: bool | None = None
    limit: int | None = None
    columns: str | None = None
    all_columns: bool = False
    output_format: OutputFormat | None = None
    out_file: str | None = None

    def target(self) -> ListTarget:
        """Where the list goes (the format --format or --out's suffix names), and a table's columns."""
        from hhtool.service.reports import TerminalChoice

        written = file_format(self.output_format, self.out_file)
        terminal = None
        if written is OutputFormat.table:
            names = tuple(name for name in (self.columns or "").split(",") if name.strip())
            terminal = TerminalChoice(columns=names, all_columns=self.all_columns)
        return ListTarget(written, written is OutputFormat.table and not self.out_file, terminal)


#: the default a command's ``listing`` parameter is declared with (:func:`list_options` fills it)
LISTING = GROUP


def list_options(sort: str, columns: str) -> Callable[[Command], Command]:
    """Give the decorated command --sort (``sort``: the default column, as its help says), --desc/--asc,
    --limit, --columns (``columns``: an example in its help), --all, --format and --out, in place of its
    ``listing`` parameter, and call it with their values as one :class:`ListOptions`."""
    return option_group("listing", [
        GroupOption("sort", str | None, typer.Option(
            None, "--sort", help=f"Sort by this column (a header or a --format csv key). Default: {sort}.")),
        GroupOption("descending", bool | None, DESCENDING_OPTION),
        GroupOption("limit", int | None, LIMIT_OPTION),
        GroupOption("columns", str | None, typer.Option(
            None, "--columns", help=f"Table: these columns, comma-separated, e.g. {columns}.")),
        GroupOption("all_columns", bool, ALL_COLUMNS_OPTION),
        GroupOption("output_format", OutputFormat | None, FORMAT_OPTION),
        GroupOption("out_file", str | None, OUT_OPTION),
    ], ListOptions)
