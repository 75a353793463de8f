"""The golden files of the tests, and the one way to write them again: by hand, after a deliberate
change of the output, with ``python -m tests.update_golden``; review the diff before committing it.
A test run only reads them (a test that rewrote its golden file could never fail)."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

from typer.testing import CliRunner

from hhtool.cli import app
from tests.test_site_pokerstars import ALLIN_SIDE_POT

GOLDEN = Path(__file__).parent / "golden"


def explain_split_pot_with_side_pot(folder: Path) -> str:
    """``audit --explain`` of the PokerStars all-in hand with a side pot, imported into a new store."""
    runner = CliRunner()
    history, db = folder / "h.txt", str(folder / "e.duckdb")
    history.write_text(ALLIN_SIDE_POT)
    imported = runner.invoke(app, ["import", str(history), "--db", db])
    assert imported.exit_code == 0, imported.output
    result = runner.invoke(app, ["audit", "--db", db, "--explain", "200"])
    assert result.exit_code == 0, result.output
    return result.output


#: golden file name -> the output it holds, made in a fresh folder
OUTPUTS: dict[str, Callable[[Path], str]] = {
    "explain_split_pot_with_side_pot.txt": explain_split_pot_with_side_pot,
}


def main() -> None:
    for name, make in OUTPUTS.items():
        with tempfile.TemporaryDirectory() as folder:
            (GOLDEN / name).write_text(make(Path(folder)))
        print(f"wrote {GOLDEN / name}")


if __name__ == "__main__":
    main()
