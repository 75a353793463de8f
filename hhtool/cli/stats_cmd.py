"""`hhtool stats`: per-player statistics over the stored hands (definitions in docs/stats.md)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, datetime

import duckdb
import typer

from hhtool.cli.common import DB_OPTION, EXIT_ERROR, err, open_store, stderr_is_terminal
from hhtool.cli.output import OutputFormat, emit_frame
from hhtool.reports.facts_table import needs_refresh, refresh_facts
from hhtool.reports.filters import Game, HandFilter, parse_stakes
from hhtool.reports.stats import Breakdown, player_stats, terminal_view
from hhtool.store import Store, resolve_db_path

PLAYER_OPTION = typer.Option(None, "--player", help="Only this player (repeatable).")
SITE_OPTION = typer.Option(None, "--site", help="Only hands of this site (repeatable).")
STAKES_OPTION = typer.Option(None, "--stakes", help="Small bet/big bet in currency units, e.g. 0.04/0.08.")
FROM_OPTION = typer.Option(None, "--from", help="First day, YYYY-MM-DD (hands' own timestamps).")
TO_OPTION = typer.Option(None, "--to", help="Last day, YYYY-MM-DD, inclusive.")
GAME_OPTION = typer.Option(None, "--game", help="cash or tournament.")
TABLE_SIZE_OPTION = typer.Option(None, "--table-size", help="Only tables of this many seats (e.g. 8).")


def parse_day(text: str | None, option: str) -> date | None:
    if text is None:
        return None
    try:
        return datetime.strptime(text, "%Y-%m-%d").date()
    except ValueError:
        err.print(f"[red]error:[/red] {option} wants a date as YYYY-MM-DD, not {text!r}")
        raise typer.Exit(EXIT_ERROR) from None


def build_filter(players: list[str] | None, sites: list[str] | None, stakes: str | None, date_from: str | None,
                 date_to: str | None, game: Game | None, table_size: int | None) -> HandFilter:
    """The hand filter from the shared command-line options (exit 2 on a malformed value)."""
    try:
        parsed_stakes = parse_stakes(stakes) if stakes else None
    except ValueError as error:
        err.print(f"[red]error:[/red] --stakes: {error}")
        raise typer.Exit(EXIT_ERROR) from error
    return HandFilter(
        sites=tuple(site.lower() for site in sites or ()), stakes=parsed_stakes,
        date_from=parse_day(date_from, "--from"), date_to=parse_day(date_to, "--to"), game=game,
        table_size=table_size, players=tuple(players or ()),
    )


#: how long a report waits to write the facts cache before computing the missing facts on the fly
REFRESH_LOCK_TIMEOUT = 1.0


@contextmanager
def report_store(db: str | None) -> Iterator[Store]:
    """The store for a report, opened read-only, or for writing when hands lack cached facts: those
    are computed and stored first (:func:`refresh_facts`). When it cannot be written (a read-only
    file, another process reading it), the report computes the missing facts on the fly instead."""
    with open_store(db, read_only=True) as store:
        if not needs_refresh(store):
            yield store
            return
    try:
        writable = Store(resolve_db_path(db), lock_timeout=REFRESH_LOCK_TIMEOUT)
    except (RuntimeError, duckdb.Error, OSError):  # locked, read-only, or a newer schema
        with open_store(db, read_only=True) as store:
            yield store
        return
    with writable:
        if stderr_is_terminal():
            err.print("storing the report facts of hands imported without them (once per hand)…")
        refresh_facts(writable)
        yield writable


def register(app: typer.Typer) -> None:
    @app.command("stats")
    def stats_command(
        players: list[str] | None = PLAYER_OPTION,
        sites: list[str] | None = SITE_OPTION,
        stakes: str | None = STAKES_OPTION,
        date_from: str | None = FROM_OPTION,
        date_to: str | None = TO_OPTION,
        game: Game | None = GAME_OPTION,
        table_size: int | None = TABLE_SIZE_OPTION,
        min_hands: int = typer.Option(0, "--min-hands", help="Only players with at least this many hands."),
        by: Breakdown | None = typer.Option(None, "--by", help="Break down by street, stakes, month or door-card."),
        output_format: OutputFormat = typer.Option(OutputFormat.table, "--format", help="table, csv, json or parquet."),
        out_file: str | None = typer.Option(None, "--out", help="Write to this file instead of the terminal."),
        db: str | None = DB_OPTION,
    ) -> None:
        """Per-player statistics: results, 3rd-street play, later streets, showdown and hi/lo halves.

        One row per player and currency; money in smallest units beside `currency` and `unit`.

        Each rate comes with `<stat>_count` and `<stat>_opportunities`; it is null without opportunities.

        The terminal shows every statistic for up to four players, else (or with --by) a headline table.

        csv, json and parquet carry every key. Definitions: docs/stats.md.
        """
        hand_filter = build_filter(players, sites, stakes, date_from, date_to, game, table_size)
        with report_store(db) as store:
            frame = player_stats(store, hand_filter, by=by, min_hands=min_hands)
        if output_format is OutputFormat.table:
            frame = terminal_view(frame, by)
        emit_frame(frame, output_format, out_file)
