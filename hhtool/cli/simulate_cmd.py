"""`hhtool simulate`: write legal (or deliberately faulty) Stud Hi/Lo hands in a site's format."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.markup import escape

from hhtool.cli.common import EXIT_STORE, EXIT_USAGE, choices, err, info, late_help, number_option
from hhtool.service.choices import simulated_sites, simulation_policies
from hhtool.service.errors import CannotWrite, UsageError
from hhtool.service.numbers import SIMULATED_HANDS
from hhtool.service.simulate import SimulationRequest, simulate

SITE_HELP = late_help(lambda: f"Format to write: {choices(simulated_sites())} (phh: a .phhs). The rake is shared "
                      "between pots as that site's replay profile says (Full Tilt: all from the main pot).")
POLICY_HELP = late_help(lambda: f"{choices(simulation_policies())} (calldown: nobody folds; raisewar: always raise).")


def register(app: typer.Typer) -> None:
    @app.command("simulate")
    def simulate_command(
        hands: int = number_option(SIMULATED_HANDS, ..., "--hands", help="How many hands to write"),
        seed: int = typer.Option(0, "--seed", help="Same seed, same hands."),
        players: str = typer.Option("2-8", "--players", help="Players per hand: N or MIN-MAX (2 to 8)."),
        stakes: str = typer.Option("0.04/0.08", "--stakes", help="Small bet / big bet."),
        ante: str | None = typer.Option(None, "--ante", help="Ante (default: a quarter of the small bet, at least 0.01)."),
        bring_in: str | None = typer.Option(None, "--bring-in", help="Bring-in (default: half the small bet)."),
        rake: str = typer.Option("5%", "--rake", help="Rake percent with optional cap, e.g. 5% or 5%:3.00; 0 for none."),
        site: str = typer.Option(
            "pokerstars", "--site",
            help=SITE_HELP,
        ),
        faults: float | None = typer.Option(
            None, "--faults", min=0.0, max=1.0,
            help="Share of hands that break one rule each; writes FILE.faults.json (hand id -> code, street, player).",
        ),
        policy: str = typer.Option("simple", "--policy", help=POLICY_HELP),
        out_file: Path = typer.Option(..., "--out", help="The hand-history file to write (an existing one: --force)."),
        force: bool = typer.Option(False, "--force", help="Overwrite --out (and its faults file) if it exists."),
    ) -> None:
        """Write simulated Seven Card Stud Hi/Lo hands, streamed to disk, reproducible for a seed."""
        request = SimulationRequest(hands, out_file, seed, players, stakes, ante, bring_in, rake, site, faults, policy, force)
        # said here rather than left to the app's GuardedGroup: the command also runs registered alone
        try:
            simulated = simulate(request)
        except (UsageError, CannotWrite) as error:
            err.print(f"[red]error:[/red] {escape(str(error))}")
            raise typer.Exit(EXIT_USAGE if isinstance(error, UsageError) else EXIT_STORE) from error
        stats = simulated.stats
        shown = ", ".join(f"{name} {count}" for name, count in sorted(stats.features.items()))
        info(f"wrote {stats.hands} hands to {out_file} ({shown})")
        if simulated.sidecar is not None:
            kinds = ", ".join(f"{code} {count}" for code, count in sorted(stats.faults.items())) or "none"
            info(f"{sum(stats.faults.values())} faulty hands ({kinds}) listed in {simulated.sidecar}")
