"""`hhtool simulate`: legal (or deliberately faulty) Stud Hi/Lo hands written in a site's format,
from the options as typed (amounts in currency units, players as N or MIN-MAX)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from hhtool.service.errors import CannotWrite, UsageError
from hhtool.service.out_files import prepare_out_file

if TYPE_CHECKING:
    from hhtool.simulate import SimulationStats

#: the simulator writes amounts in cents
UNIT = 100


@dataclass(frozen=True)
class SimulationRequest:
    hands: int
    out_file: Path
    seed: int = 0
    players: str = "2-8"
    stakes: str = "0.04/0.08"
    ante: str | None = None  # default: a quarter of the small bet, at least one unit
    bring_in: str | None = None  # default: half the small bet
    rake: str = "5%"
    site: str = "pokerstars"
    faults: float | None = None
    policy: str = "simple"
    force: bool = False  # overwrite an existing file (and faults sidecar)


@dataclass(frozen=True)
class Simulated:
    stats: SimulationStats
    sidecar: Path | None  # the faults' sidecar file, when faults were asked for


def players_range(text: str) -> tuple[int, int]:
    low, _, high = text.partition("-")
    try:
        return int(low), int(high or low)
    except ValueError:
        raise ValueError(f"--players takes N or MIN-MAX, not {text!r}") from None


def simulate(request: SimulationRequest) -> Simulated:
    """Write the hands, streamed to disk, reproducible for a seed; UsageError for a malformed option
    or a file that exists (unless ``force``), CannotWrite when the file cannot be written."""
    from hhtool.replay import profile_for_site
    from hhtool.simulate import POLICIES, TableConfig, parse_amount, parse_rake, sidecar_path, simulate_to_file
    from hhtool.simulate.seating import table_for_seed
    from hhtool.simulate.writers import WRITERS

    site = request.site.lower()
    try:
        small_text, _, big_text = request.stakes.partition("/")
        small, big = parse_amount(small_text, UNIT), parse_amount(big_text or small_text, UNIT)
        low, high = players_range(request.players)
        rake_points, rake_cap = parse_rake(request.rake, UNIT)
        if site not in WRITERS:
            raise ValueError(f"no writer for site {request.site!r}; known: {', '.join(sorted(WRITERS))}")
        if request.policy not in POLICIES:
            raise ValueError(f"unknown policy {request.policy!r}; known: {', '.join(POLICIES)}")
        table_name, start_time = table_for_seed(request.seed)  # each seed its own table and day
        config = TableConfig(
            small_bet=small,
            big_bet=big,
            ante=parse_amount(request.ante, UNIT) if request.ante is not None else max(1, small // 4),
            bring_in=parse_amount(request.bring_in, UNIT) if request.bring_in is not None else max(1, small // 2),
            unit=UNIT,
            rake_basis_points=rake_points,
            rake_cap=rake_cap,
            min_players=low,
            max_players=high,
            site=site,
            rake_allocation=profile_for_site(site).rake_allocation,
            seed=request.seed,
            table_name=table_name,
            start_time=start_time,
            first_hand_id=250_000_000_000 + (request.seed % 100_000) * 10_000_000,
        )
    except ValueError as error:
        raise UsageError(str(error)) from error
    sidecar = sidecar_path(request.out_file) if request.faults is not None else None
    existing = [path for path in (request.out_file, sidecar) if path is not None and path.exists()]
    if existing and not request.force:  # a history or labels someone kept must not vanish unasked
        raise UsageError(f"{existing[0]} exists; add --force to overwrite it")
    prepare_out_file(request.out_file)
    try:
        stats = simulate_to_file(request.out_file, config, POLICIES[request.policy](), request.hands, request.faults)
    except OSError as error:
        raise CannotWrite(request.out_file, error) from error
    return Simulated(stats, sidecar)
