"""`hhtool hands`: list the stored hands the filters select, with the id to pass to `hhtool show`."""

from __future__ import annotations

import typer

from hhtool.cli.common import DB_OPTION, EXIT_OK, database
from hhtool.cli.filter_options import FILTERS, HandFilterOptions, hand_filter_options
from hhtool.cli.listing import LISTING, ListOptions, list_options
from hhtool.cli.output import emit_frame
from hhtool.service.choices import Showdown, Verdict


def register(app: typer.Typer) -> None:
    @app.command("hands")
    @hand_filter_options()
    @list_options(sort="date", columns="id,date,net,sd,cards")
    def hands_command(
        filters: HandFilterOptions = FILTERS,
        verdict: Verdict | None = typer.Option(None, "--verdict", help="Only hands with this verdict under their "
                                               "own rules profile (a conflicting copy makes a violation)."),
        showdown: Showdown | None = typer.Option(None, "--showdown", help="Only hands where the --player went to "
                                                 "showdown and won something (a quarter counts) or nothing."),
        min_pot: str | None = typer.Option(None, "--min-pot", help="Only pots of at least this much, in the hand's "
                                           "currency units (chips in tournaments), e.g. 1.50 or $1.50."),
        max_pot: str | None = typer.Option(None, "--max-pot", help="Only pots of at most this much."),
        tags: list[str] | None = typer.Option(None, "--tag", metavar="NAME", help="Only hands tagged so "
                                              "(`hhtool tag`); repeated: hands with every one of them."),
        listing: ListOptions = LISTING,
        db: str | None = DB_OPTION,
    ) -> None:
        """List hands, newest first: the id to give `hhtool show`, date, table, stakes, pot, verdict.

        With --player: a row per hand he was dealt into, with his net (--all: his showdown `sd`, his cards).

        The pot: what the players put in, less uncalled bets returned.

        csv, json and parquet carry every key, money in smallest units beside `currency` and `unit`.
        """
        from hhtool.service.filters import NoneTogether
        from hhtool.service.hands import OPTIONAL_COLUMNS, UNCUT_COLUMNS, hand_choice, limit_for, list_hands

        chosen = filters.hand_filter(tags=tags)
        listed_choice = hand_choice(verdict, showdown, min_pot, max_pot)
        target = listing.target()
        try:
            listed = list_hands(database(db), chosen, listed_choice, sort=listing.sort, descending=listing.descending,
                                limit=limit_for(listing.limit, target.on_terminal), terminal=target.terminal)
        except NoneTogether as empty:  # an empty answer, not a mistake: each value asked for is known
            target.tell(f"no hands match ({empty.why})")
            raise typer.Exit(EXIT_OK) from None
        emit_frame(listed.frame, target.written, listing.out_file, uncut=UNCUT_COLUMNS, optional=OPTIONAL_COLUMNS)
        if listed.order_note:
            target.tell(listed.order_note)
        if listed.total == 0:  # (only when nothing was asked: a filter selecting nothing is refused)
            target.tell("the store holds no hands yet: run `hhtool import PATH` first")
        if listed.cut:
            note = (f"showing {listed.frame.height:,} of {listed.total:,} hands; "
                    "--limit N to see more (--limit 0: all)")
            target.tell(note)
