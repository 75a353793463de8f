"""`hhtool stats`: per-player statistics over the stored hands (definitions in docs/stats.md)."""

from __future__ import annotations

import typer

from hhtool.cli.annotations import player_notes_block, print_lines
from hhtool.cli.common import DB_OPTION, choices, database, number_option
from hhtool.cli.filter_options import FILTERS, HandFilterOptions, hand_filter_options
from hhtool.cli.output import OutputFormat, emit_frame, file_format, terminal_width, wrapped_text
from hhtool.service.choices import Breakdown
from hhtool.service.numbers import LIMIT, MIN_HANDS
from hhtool.service.stats_columns import GROUPS_HELP, OPTIONAL_HEADERS, UNCUT_HEADERS, column_help

BY_HELP = f"Break down by {choices(Breakdown)} (starting-hand groups: below)."
STATS_HELP = "\n\n".join([
    "Per-player statistics: results, 3rd-street play, later streets, showdown and hi/lo halves.",
    "One row per player and currency. The terminal (and --out x.html) shows headline columns: hands, vpip, "
    "raise3, agg5, wtsd, wsd, scoop, net in the rows' currency (`net $`; `net chips`: tournament chips), bb/100. "
    "Where they do not fit, scoop, agg5, wsd, raise3 and wtsd are left out in turn, then it shows one "
    "\"column: value\" record a row. --columns and --all choose other columns.",
    "csv, json and parquet carry every key: money in smallest units beside `currency` and `unit`, each rate "
    "with `<key>_count` and `<key>_opportunities` (null without opportunities). More in docs/stats.md.",
])
FORMAT_HELP = f"{choices(OutputFormat)}. Default: the one --out's suffix names, else table."


def register(app: typer.Typer) -> None:
    @app.command("stats", help=STATS_HELP, epilog=f"{column_help()}\n\n{GROUPS_HELP}")
    @hand_filter_options()
    def stats_command(
        filters: HandFilterOptions = FILTERS,
        min_hands: int = number_option(MIN_HANDS, 0, "--min-hands", help="Only players with at least this many hands"),
        by: Breakdown | None = typer.Option(None, "--by", help=BY_HELP),
        columns: str | None = typer.Option(None, "--columns", help="Table and HTML: these columns, comma-separated "
                                           "(headers or csv keys, listed below), e.g. player,hands,vpip,bb/100."),
        all_columns: bool = typer.Option(False, "--all", help="Table and HTML: every statistic (one record a "
                                         "player on a terminal)."),
        sort: str | None = typer.Option(None, "--sort", help="Sort by this column (numbers largest first, "
                                        "names A to Z). Default: most hands first."),
        limit: int | None = number_option(LIMIT, None, "--limit", "--top", help="Only the first N rows"),
        output_format: OutputFormat | None = typer.Option(
            None, "--format", help=FORMAT_HELP),
        out_file: str | None = typer.Option(None, "--out", help="Write to this file instead of the terminal; "
                                                               "its suffix (.csv, .json, .parquet, .html) decides the format."),
        db: str | None = DB_OPTION,
    ) -> None:
        """Per-player statistics: results, 3rd-street play, later streets, showdown and hi/lo halves."""
        from hhtool.service.reports import TerminalChoice, stats_and_notes

        chosen = filters.hand_filter()
        written = file_format(output_format, out_file)
        terminal = None
        if written in (OutputFormat.table, OutputFormat.html):
            names = tuple(name for name in (columns or "").split(",") if name.strip())
            terminal = TerminalChoice(columns=names, all_columns=all_columns)
        frame, sign_notes = stats_and_notes(database(db), chosen, by=by, min_hands=min_hands, terminal=terminal,
                                            sort=sort, limit=limit)
        emit_frame(frame, written, out_file, uncut=UNCUT_HEADERS, optional=OPTIONAL_HEADERS if not columns else ())
        if sign_notes and written is OutputFormat.table and out_file is None:
            width = terminal_width()
            print_lines([piece for line in sign_notes for piece in wrapped_text(line, width, 2)])
        players, sites = filters.players, filters.sites
        if players and terminal is not None and out_file is None:  # the user's notes on them (`hhtool note --player`)
            print_lines(player_notes_block(database(db), players, sites[0].lower() if sites and len(sites) == 1 else None))
