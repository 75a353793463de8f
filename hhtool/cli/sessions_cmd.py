"""`hhtool sessions`: a player's sittings, or sessions per table (start, duration, hands, pace, net, bb/100)."""

from __future__ import annotations

from enum import StrEnum

import typer

from hhtool.cli.common import DB_OPTION, database, number_option
from hhtool.cli.filter_options import FILTERS, HandFilterOptions, hand_filter_options
from hhtool.cli.listing import LISTING, ListOptions, list_options
from hhtool.cli.output import emit_frame
from hhtool.service.choices import DEFAULT_GAP_MINUTES
from hhtool.service.numbers import GAP_MINUTES


class SessionsBy(StrEnum):
    sitting = "sitting"
    table = "table"


def register(app: typer.Typer) -> None:
    @app.command("sessions")
    @hand_filter_options()
    @list_options(sort="start", columns="start,hands,net,bb/100")
    def sessions_command(
        filters: HandFilterOptions = FILTERS,
        gap: int = number_option(GAP_MINUTES, DEFAULT_GAP_MINUTES, "--gap", help="Minutes: a break this long or longer "
                                 "with no hand at any table ends a session (--by table: at its table)"),
        by: SessionsBy = typer.Option(SessionsBy.sitting, "--by", help="sitting: the hands at every table "
                                      "together; table: a session per table."),
        listing: ListOptions = LISTING,
        db: str | None = DB_OPTION,
    ) -> None:
        """A player's sessions, newest first: start, duration, hands, hands per hour, net, bb/100.

        A session is a sitting: a player's hands at every table he played (listed under `table`), until
        a break of --gap minutes (default 30) or more with no hand at any table. --by table: a session
        per table, a break at that table ending it.

        Tournament chips are never added to money: a sitting in chips is its own row, its net in chips.

        Without --player: the sessions of the hands' hero.

        Duration: from the first hand's start to the last one's; hands/h: (hands - 1) per hour of it.

        bb/100: big bets won per 100 hands, each hand in its own big bet (stud's), as `stats` has it.

        csv, json and parquet carry every key, money in smallest units beside `currency` and `unit`.
        """
        from hhtool.service.sessions import OPTIONAL_COLUMNS, UNCUT_COLUMNS, limit_for, sessions

        chosen = filters.hand_filter()
        target = listing.target()
        report = sessions(database(db), chosen, gap, sort=listing.sort, descending=listing.descending,
                          limit=limit_for(listing.limit, target.on_terminal), terminal=target.terminal,
                          by_table=by is SessionsBy.table)
        listed = report.listed
        emit_frame(listed.frame, target.written, listing.out_file, uncut=UNCUT_COLUMNS, optional=OPTIONAL_COLUMNS)
        notes = []
        if listed.cut:
            notes.append(f"showing {listed.frame.height:,} of {listed.total:,} sessions; "
                         "--limit N to see more (--limit 0: all)")
        if report.in_chips:
            notes.append(f"{report.in_chips:,} of these sessions {'is' if report.in_chips == 1 else 'are'} in "
                         "tournament chips: net in chips, not money")
        if report.undated:
            notes.append(f"{report.undated:,} hands state no time: they are in no session")
        for note in notes:
            target.tell(note)
