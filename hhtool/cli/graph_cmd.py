"""`hhtool graph`: cumulative winnings (total, showdown, non-showdown) to SVG or self-contained HTML."""

from __future__ import annotations

from pathlib import Path

import typer

from hhtool.cli.common import DB_OPTION, database, info
from hhtool.cli.filter_options import FILTERS, HandFilterOptions, hand_filter_options
from hhtool.service.choices import Axis, Unit


def register(app: typer.Typer) -> None:
    @app.command("graph")
    @hand_filter_options("site", "stakes", "from", "to", "game", "table-size")
    def graph_command(
        out_file: str = typer.Option(..., "--out", help="winnings.svg or winnings.html: the suffix decides."),
        player: str | None = typer.Option(None, "--player", help="Whose winnings (default: the hero, if only one)."),
        currency: str | None = typer.Option(None, "--currency", help="When the player has hands in several "
                                            "currencies (money only: big bets add up across them)."),
        unit: Unit = typer.Option(Unit.money, "--unit", help="money, or bb: big bets (each hand's net over its big bet)."),
        axis: Axis = typer.Option(Axis.hands, "--x", help="hands: by hand number; date: by the hands' start time."),
        filters: HandFilterOptions = FILTERS,
        db: str | None = DB_OPTION,
    ) -> None:
        """Graph a player's cumulative winnings against hands played or dates, in money or big bets.
        In HTML, hovering a point names its hand; clicking it opens the hand's replay: the hand's web page
        (the dispute report's, with its replayer) written for each point (up to 400 hands, evenly spread,
        and the last) in the folder beside the page, winnings.html -> winnings.hands/ (keep them together)."""
        from hhtool.service.reports import graph

        path = Path(out_file)
        chosen = filters.hand_filter()
        drawn = graph(database(db), chosen, path, player, currency, unit, axis)
        missing = " or ".join(w for w, on in (("a date", axis is Axis.date), ("a known big bet", unit is Unit.bb)) if on)
        left_out = f"; {drawn.left_out} hands without {missing} left out" if drawn.left_out else ""
        replays = (f"; {drawn.replays} hand replays in {path.with_name(path.stem + '.hands')}/, beside it"
                   if drawn.replays else "")
        info(f"wrote {path} ({drawn.hands} hands of {drawn.player}{left_out}){replays}", highlight=False)
