"""`hhtool violations`: what broke the rules, across the whole store."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import typer

from hhtool.cli.common import DB_OPTION, choices, database, late_help, number_option, out, site_option
from hhtool.cli.output import OutputFormat, emit_frame, file_format
from hhtool.service.choices import BREAKDOWNS, code_names, finding_code
from hhtool.service.numbers import LIMIT

if TYPE_CHECKING:
    from hhtool.service.verdicts import Breakdown, Code

#: the rows of each breakdown the terminal's overview shows (every breakdown, no --by)
TERMINAL_TOP = 20
#: never cut on the terminal: what the desk copies into `audit --explain`, `--code` and `--site`
UNCUT = ("site", "hand_id", "code", "started_at")

SITE_OPTION = site_option("Only this site")
BY_HELP = f"{choices(BREAKDOWNS)} (hand: worst first). Default: every breakdown in the terminal, by code otherwise."
FORMAT_HELP = f"{choices(OutputFormat)}. Default: the one --out's suffix names, else table."
CODE_HELP = late_help(lambda: f"Only this code: {code_names()}.")


def register(app: typer.Typer) -> None:
    @app.command("violations")
    def violations_command(
        by: str | None = typer.Option(None, "--by", help=BY_HELP),
        code: str | None = typer.Option(None, "--code", parser=finding_code, metavar="CODE", help=CODE_HELP),
        hand: str | None = typer.Option(None, "--hand", help="Drill down into one hand's violations."),
        site: str | None = SITE_OPTION,
        player: str | None = typer.Option(None, "--player", help="Only violations by this player."),
        top: int | None = number_option(LIMIT, None, "--top", help=f"Rows per breakdown in the terminal view (default: "
                                        f"{TERMINAL_TOP} each of the overview, all of one --by)"),
        output_format: OutputFormat | None = typer.Option(
            None, "--format", help=FORMAT_HELP),
        out_file: str | None = typer.Option(
            None, "--out", help="Write one breakdown (--by, default code) to this file; its suffix decides the format."),
        db: str | None = DB_OPTION,
    ) -> None:
        """Counts of violations by code, site, player and date, and the worst hands first.

        `misawarded` is the money a hand's settlement paid to the wrong players or kept (its pots and the
        uncalled bets returned), each amount counted once, as `audit --explain` counts it: in the hand's
        currency in the terminal; csv, json and parquet give it in smallest units beside `currency` and
        `unit` (100 units make one dollar).
        """
        from hhtool.service.filters import hand_filter
        from hhtool.service.verdicts import violation_breakdowns

        found_code = cast("Code | None", code)  # the parser made it a Code
        chosen = hand_filter(sites=site, hand_id=hand or None)
        written = file_format(output_format, out_file)  # --out's suffix decides, as for every --out
        terminal = written is OutputFormat.table and not out_file
        if hand or by or out_file or not terminal:  # one breakdown (or one hand's violations)
            [one] = violation_breakdowns(database(db), [by or "code"], chosen, found_code, player,
                                         top if terminal and not hand else None, for_terminal=written is OutputFormat.table)
            emit_frame(one.frame, written, out_file, uncut=UNCUT)
            if one.cut:
                out.print(shown_of(one), highlight=False, markup=False)
            return
        for breakdown in violation_breakdowns(database(db), list(BREAKDOWNS), chosen, found_code, player,
                                              top or TERMINAL_TOP, for_terminal=True):
            out.print(f"[bold]by {breakdown.by}[/bold]" + (" (worst first)" if breakdown.by == "hand" else ""))
            emit_frame(breakdown.frame, output_format, uncut=UNCUT)
            if breakdown.cut:
                out.print(shown_of(breakdown), highlight=False, markup=False)


def shown_of(breakdown: Breakdown) -> str:
    """"showing 20 of 21 hands; --top N to see more": what a cut breakdown leaves out, and how to see it."""
    what = {"hand": "hands", "date": "days", "code": "codes", "site": "sites", "player": "players"}[breakdown.by]
    return (f"showing {breakdown.frame.height:,} of {breakdown.total:,} {what}; "
            f"--by {breakdown.by} --top {breakdown.total} to see them all")
