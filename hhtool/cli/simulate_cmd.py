"""`hhtool simulate`: write legal (or deliberately faulty) Stud Hi/Lo hands in a site's format."""

from __future__ import annotations

from pathlib import Path

import typer

from hhtool.cli.common import EXIT_ERROR, EXIT_STORE, err, out


def _players(text: str) -> tuple[int, int]:
    low, _, high = text.partition("-")
    try:
        return int(low), int(high or low)
    except ValueError:
        raise ValueError(f"--players takes N or MIN-MAX, not {text!r}") from None


def register(app: typer.Typer) -> None:
    @app.command("simulate")
    def simulate_command(
        hands: int = typer.Option(..., "--hands", min=1, help="How many hands to write."),
        seed: int = typer.Option(0, "--seed", help="Same seed, same hands."),
        players: str = typer.Option("2-8", "--players", help="Players per hand: N or MIN-MAX (2 to 8)."),
        stakes: str = typer.Option("0.04/0.08", "--stakes", help="Small bet / big bet."),
        ante: str | None = typer.Option(None, "--ante", help="Ante (default: a quarter of the small bet, at least 0.01)."),
        bring_in: str | None = typer.Option(None, "--bring-in", help="Bring-in (default: half the small bet)."),
        rake: str = typer.Option("5%", "--rake", help="Rake percent with optional cap, e.g. 5% or 5%:3.00; 0 for none."),
        site: str = typer.Option(
            "pokerstars", "--site",
            help="Format to write: pokerstars, fulltilt or phh (a .phhs). The rake is shared between pots as that site's "
                 "replay profile says (Full Tilt: all from the main pot).",
        ),
        faults: float | None = typer.Option(
            None, "--faults", min=0.0, max=1.0,
            help="Share of hands that break one rule each; writes FILE.faults.json (hand id -> code, street, player).",
        ),
        policy: str = typer.Option("simple", "--policy", help="simple, calldown (nobody folds) or raisewar (always raise)."),
        out_file: Path = typer.Option(..., "--out", help="The hand-history file to write."),
    ) -> None:
        """Write simulated Seven Card Stud Hi/Lo hands, streamed to disk, reproducible for a seed."""
        from hhtool.replay import profile_for_site
        from hhtool.simulate import POLICIES, TableConfig, parse_amount, parse_rake, sidecar_path, simulate_to_file
        from hhtool.simulate.writers import WRITERS

        unit = 100
        try:
            small_text, _, big_text = stakes.partition("/")
            small, big = parse_amount(small_text, unit), parse_amount(big_text or small_text, unit)
            low, high = _players(players)
            rake_points, rake_cap = parse_rake(rake, unit)
            if site.lower() not in WRITERS:
                raise ValueError(f"no writer for site {site!r}; known: {', '.join(sorted(WRITERS))}")
            if policy not in POLICIES:
                raise ValueError(f"unknown policy {policy!r}; known: {', '.join(POLICIES)}")
            config = TableConfig(
                small_bet=small,
                big_bet=big,
                ante=parse_amount(ante, unit) if ante is not None else max(1, small // 4),
                bring_in=parse_amount(bring_in, unit) if bring_in is not None else max(1, small // 2),
                unit=unit,
                rake_basis_points=rake_points,
                rake_cap=rake_cap,
                min_players=low,
                max_players=high,
                site=site.lower(),
                rake_allocation=profile_for_site(site).rake_allocation,
                seed=seed,
                first_hand_id=250_000_000_000 + (seed % 100_000) * 10_000_000,
            )
        except ValueError as error:
            err.print(f"[red]error:[/red] {error}")
            raise typer.Exit(EXIT_ERROR) from error
        try:
            stats = simulate_to_file(out_file, config, POLICIES[policy](), hands, faults)
        except OSError as error:
            err.print(f"[red]error:[/red] cannot write {out_file}: {error}")
            raise typer.Exit(EXIT_STORE) from error
        shown = ", ".join(f"{name} {count}" for name, count in sorted(stats.features.items()))
        out.print(f"wrote {stats.hands} hands to {out_file} ({shown})")
        if faults is not None:
            kinds = ", ".join(f"{code} {count}" for code, count in sorted(stats.faults.items())) or "none"
            out.print(f"{sum(stats.faults.values())} faulty hands ({kinds}) listed in {sidecar_path(out_file)}")
