"""`hhtool hands`: list the stored hands the filters select, with the id to pass to `hhtool show`."""

from __future__ import annotations

import typer

from hhtool.cli.common import (
    DB_OPTION,
    FROM_OPTION,
    GAME_OPTION,
    PLAYER_OPTION,
    SITE_OPTION,
    STAKES_OPTION,
    TABLE_SIZE_OPTION,
    TO_OPTION,
    database,
    err,
)
from hhtool.cli.output import OutputFormat, emit_frame, file_format
from hhtool.service.filters import Game, hand_filter
from hhtool.service.hands import (
    OPTIONAL_COLUMNS,
    UNCUT_COLUMNS,
    Showdown,
    TerminalChoice,
    Verdict,
    hand_choice,
    limit_for,
    list_hands,
)


def register(app: typer.Typer) -> None:
    @app.command("hands")
    def hands_command(
        players: list[str] | None = PLAYER_OPTION,
        sites: list[str] | None = SITE_OPTION,
        stakes: str | None = STAKES_OPTION,
        date_from: str | None = FROM_OPTION,
        date_to: str | None = TO_OPTION,
        game: Game | None = GAME_OPTION,
        table_size: int | None = TABLE_SIZE_OPTION,
        verdict: Verdict | None = typer.Option(None, "--verdict", help="Only hands with this verdict under their "
                                               "own rules profile (a conflicting copy makes a violation)."),
        showdown: Showdown | None = typer.Option(None, "--showdown", help="Only hands where the --player went to "
                                                 "showdown and won something (a quarter counts) or nothing."),
        min_pot: str | None = typer.Option(None, "--min-pot", help="Only pots of at least this much, in the hand's "
                                           "currency units (chips in tournaments), e.g. 1.50 or $1.50."),
        max_pot: str | None = typer.Option(None, "--max-pot", help="Only pots of at most this much."),
        sort: str | None = typer.Option(None, "--sort", help="Sort by this column (a header or a --format csv key). "
                                        "Default: date."),
        descending: bool | None = typer.Option(None, "--desc/--asc", help="Sort largest or newest first (--desc) or "
                                               "the other way. Default: --desc for numbers and dates, --asc for text.",
                                               show_default=False),
        limit: int | None = typer.Option(None, "--limit", "--top", min=0, help="Only the first N rows; 0: all. "
                                         "Default: 50 on the terminal, all in csv, json, parquet and html."),
        columns: str | None = typer.Option(None, "--columns", help="Table: these columns, comma-separated, e.g. "
                                           "id,date,net,sd,cards."),
        all_columns: bool = typer.Option(False, "--all", help="Table: every column."),
        output_format: OutputFormat | None = typer.Option(
            None, "--format", help="table, csv, json, parquet or html. Default: the one --out's suffix names, else table."),
        out_file: str | None = typer.Option(None, "--out", help="Write to this file instead of the terminal; "
                                                               "its suffix (.csv, .json, .parquet, .html) decides the format."),
        db: str | None = DB_OPTION,
    ) -> None:
        """List hands, newest first: the id to give `hhtool show`, date, table, stakes, pot, verdict.

        With --player: a row per hand he was dealt into, with his net (--all: his showdown `sd`, his cards).

        The pot: what the players put in, less uncalled bets returned.

        csv, json and parquet carry every key, money in smallest units beside `currency` and `unit`.
        """
        chosen = hand_filter(players=players, sites=sites, stakes=stakes, date_from=date_from, date_to=date_to,
                             game=game, table_size=table_size)
        listed_choice = hand_choice(verdict, showdown, min_pot, max_pot)
        written = file_format(output_format, out_file)
        on_terminal = written is OutputFormat.table and not out_file
        terminal = None
        if written is OutputFormat.table:
            names = tuple(name for name in (columns or "").split(",") if name.strip())
            terminal = TerminalChoice(columns=names, all_columns=all_columns)
        listed = list_hands(database(db), chosen, listed_choice, sort=sort, descending=descending,
                            limit=limit_for(limit, on_terminal), terminal=terminal)
        emit_frame(listed.frame, written, out_file, uncut=UNCUT_COLUMNS, optional=OPTIONAL_COLUMNS)
        if listed.cut:
            note = (f"showing {listed.frame.height:,} of {listed.total:,} hands; "
                    "--limit N to see more (--limit 0: all)")
            if on_terminal:
                typer.echo(note)
            else:
                err.print(note, highlight=False)
