"""Shared by the dispute report tests: the split-pot-with-side-pot sample hand (#200 of the
handwritten PokerStars sample), a copy of it with an award moved to the wrong player, and the
report of a hand imported through the CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from hhtool.cli import app

runner = CliRunner()
SAMPLE = Path(__file__).resolve().parents[1] / "sample_histories" / "pokerstars" / "handwritten-scoop-and-side-pot.txt"
GOLDEN = Path(__file__).parent / "golden"
#: the sample's path in golden files (it differs between checkouts)
FILE_MARK = "<SAMPLE>"


def side_pot_hand() -> str:
    """Hand #200 alone: three players, one all-in for the main pot, both pots split high/low."""
    text = SAMPLE.read_text()
    return text[text.index("PokerStars Hand #200"):]


def misawarded(hand: str) -> str:
    """The high half of the main pot paid to the all-in player, who holds the worst high."""
    return (hand.replace("Big collected $9 from main pot", "Shorty collected $9 from main pot")
            .replace("Big showed [Ks 9d Kd Kh 7s 2s 8c] and won ($24)", "Big showed [Ks 9d Kd Kh 7s 2s 8c] and won ($15)")
            .replace("Shorty showed [4c Qh 2c 9h 3c Jd Th] and lost with",
                     "Shorty showed [4c Qh 2c 9h 3c Jd Th] and won ($9) with"))


def imported(tmp_path: Path, text: str, name: str = "h.txt") -> tuple[str, Path]:
    path = tmp_path / name
    path.write_text(text)
    db = str(tmp_path / "d.duckdb")
    result = runner.invoke(app, ["import", str(path), "--db", db])
    assert result.exit_code in (0, 1), result.output
    return db, path


def explain(db: str, hand_id: str, *args: str, code: int = 0) -> str:
    result = runner.invoke(app, ["audit", "--db", db, "--explain", hand_id, *args])
    assert result.exit_code == code, result.output
    return result.output


def masked_json(text: str, path: Path) -> Any:
    """The JSON report with the history's path replaced by FILE_MARK."""
    return json.loads(text.replace(json.dumps(str(path))[1:-1], FILE_MARK))
