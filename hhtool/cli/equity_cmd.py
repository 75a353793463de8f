"""`hhtool equity`: each player's share of a Stud Hi/Lo pot from the cards known (docs/equity.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from hhtool.cli.common import out
from hhtool.cli.output import printable
from hhtool.service.equity import DEFAULT_SAMPLES

if TYPE_CHECKING:
    from hhtool.service.equity import EquityResult

COLUMNS_HELP = (
    "Columns: equity, the expected share of the pot (each half shared among those who tie for it; the whole pot "
    "to the high when no low qualifies); scoop, the chance to win every share alone; high and low, the chance "
    "to win or tie that half (no one wins a low that does not exist); no low, the chance that no 8-or-better "
    "low qualifies. Exact when every deal was counted, else \u00b1 the 95 % margin of the least certain equity."
)


def _percent(value: float) -> str:
    return f"{100 * value:6.2f} %"


def _said(text: str) -> None:
    out.print(printable(text), markup=False, highlight=False, crop=False, overflow="ignore")


def render_text(result: EquityResult) -> list[str]:
    """One table of at most 80 columns, then no low and how the figures were found."""
    figures = result.equity
    lines = [f"{'player':<7}{'cards':<21}{'equity':>9}{'scoop':>10}{'high':>10}{'low':>10}"]
    for number, (cards, player) in enumerate(zip(result.players, figures.players, strict=True), start=1):
        shown = " ".join(map(str, cards))
        lines.append(f"{number:<7}{shown:<21}{_percent(player.equity):>9}{_percent(player.scoop):>10}"
                     f"{_percent(player.high):>10}{_percent(player.low):>10}")
    lines.append(f"no low: {100 * figures.no_low:.2f} %")
    if result.dead:
        lines.append(f"dead: {' '.join(map(str, result.dead))}")
    margin = figures.margin_95
    if margin is None:
        lines.append(f"exact ({figures.deals:,} deal{'' if figures.deals == 1 else 's'})")
    else:
        lines.append(f"\u00b1 {100 * margin:.1f} % (95 %) over {figures.deals:,} samples")
    return lines


def render_json(result: EquityResult) -> dict[str, object]:
    figures = result.equity
    players: list[dict[str, float]] = []
    for player in figures.players:
        entry = {"equity": player.equity, "scoop": player.scoop, "high": player.high, "low": player.low,
                 "no_low": figures.no_low}
        if player.stderr is not None:
            entry["stderr"] = player.stderr
        players.append(entry)
    return {"players": players, "exact": figures.exact, "deals": figures.deals}


def register(app: typer.Typer) -> None:
    @app.command("equity", epilog=COLUMNS_HELP)
    def equity_command(
        players: list[str] = typer.Argument(..., metavar="CARDS...", show_default=False,
                                            help='Each player\'s known cards, one argument a player: 2 to 7 cards '
                                                 'in any order, e.g. "As 2s 3h 5d".'),
        dead: str = typer.Option("", "--dead", help='Cards seen folded (out of the deck), e.g. "7c 8d Qh".'),
        output_format: str = typer.Option("text", "--format", help="text (a table) or json (stable keys)."),
        exact: bool = typer.Option(False, "--exact", help="Count every deal, however many (up to 12,000,000)."),
        samples: int = typer.Option(DEFAULT_SAMPLES, "--samples", min=1,
                                    help="Deals drawn when not exact (the default gives \u00b1 0.5 % at 95 %)."),
        seed: int = typer.Option(0, "--seed", help="Same seed, same sample (0 or more)."),
    ) -> None:
        """A Stud Hi/Lo spot's equity: each player's share of the pot, scoop, high and low chances.

        `hhtool equity "As 2s 3h 5d" "Kd Kc 9s 9h" --dead "7c 8d Qh"`

        Each player's other cards come from the unseen deck (52 less every card given), as the rules deal them.

        A deck that runs short on 7th street deals one common card (R17).

        Exact when the deals number 3,000,000 or fewer (heads-up from 5th street, three players from 6th).

        Else a seeded sample. Definitions and worked examples: docs/equity.md.
        """
        from hhtool.reports.json_safe import dumps
        from hhtool.service.equity import EquityRequest, spot
        from hhtool.service.errors import UsageError

        if output_format not in ("text", "json"):
            raise UsageError(f"--format must be text or json, got {output_format!r}")
        result = spot(EquityRequest(tuple(players), dead, exact, samples, seed))
        if output_format == "json":
            typer.echo(dumps(render_json(result)))
            return
        for line in render_text(result):
            _said(line)
