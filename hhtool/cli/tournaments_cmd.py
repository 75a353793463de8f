"""`hhtool tournaments`: the tournaments in the store, a row per tournament and player."""

from __future__ import annotations

import typer

from hhtool.cli.common import DB_OPTION, database
from hhtool.cli.filter_options import FILTERS, HandFilterOptions, hand_filter_options
from hhtool.cli.listing import FORMAT_OPTION, OUT_OPTION
from hhtool.cli.output import OutputFormat, emit_frame, file_format


def register(app: typer.Typer) -> None:
    @app.command("tournaments")
    @hand_filter_options("player", "site", "from", "to")
    def tournaments_command(
        filters: HandFilterOptions = FILTERS,
        output_format: OutputFormat | None = FORMAT_OPTION,
        out_file: str | None = OUT_OPTION,
        db: str | None = DB_OPTION,
    ) -> None:
        """Tournaments played, newest first: date (the first stored hand),
        buy-in, hands, finish, chips won.

        One row per tournament and player (without --player: the hands' hero);
        the site where the rows hold several. Buy-in and finish as the
        histories state them: the header's buy-in ($10+$1; a knockout's prize
        pool, bounty and fee, $200+$50+$15; 100+9 PLAY; freeroll) and the place
        and prize a hand states for the player (2nd, $12.34); "—" where no
        stored hand states one. Chips won: the tournament chips won less those
        put in over the stored hands (chips, not money). Profit: the prize less
        buy-in, fee and bounty, ROI: profit over that cost, in the buy-in's
        currency; "—" where a buy-in or the finish is unknown (a place stated
        with no prize: none paid). Under the table, the totals per currency:
        profit, ROI and in the money of the finishes stated.

        csv, json and parquet carry every key (site, tournament_id, player,
        first_hand, last_hand, hands, currency, chips_won, buy_in, buy_in_fee,
        buy_in_bounty, buy_in_currency, buy_in_unit, place, prize,
        prize_currency, prize_unit, finish_read, cost, won, profit, roi, itm);
        amounts in their currency's smallest unit, roi a fraction (0.5: +50%).
        """
        from hhtool.cli.output import terminal_width, wrapped_text
        from hhtool.service.tournaments import OPTIONAL_HEADERS, UNCUT_HEADERS, tournaments_and_totals

        chosen = filters.hand_filter()
        written = file_format(output_format, out_file)
        frame, totals = tournaments_and_totals(database(db), chosen,
                                              terminal=written in (OutputFormat.table, OutputFormat.html))
        if frame.is_empty() and written is OutputFormat.table and not out_file:
            typer.echo("no tournament hands match (the hands the filters select are cash games"
                       + (", or not the players'" if filters.players else "") + ")", err=True)
            return
        emit_frame(frame, written, out_file, uncut=UNCUT_HEADERS, optional=OPTIONAL_HEADERS,
                   shows_more="a wider terminal or --format csv shows them")
        if totals and written is OutputFormat.table and not out_file:
            width = terminal_width()
            typer.echo("\n".join(piece for line in totals for piece in wrapped_text(line, width, 2)))
