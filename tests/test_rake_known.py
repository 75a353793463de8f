"""Rake judged from what is known (issue #24): a live-event PHH hand states no rake, but its
finishing stacks add up to its starting stacks; the implied rake is 0 and the pot is judged to the chip."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.store import Store

runner = CliRunner()

LIVE = """variant = "F7S/8"
antes = [1, 1, 1]
bring_in = 2
small_bet = 4
big_bet = 8
starting_stacks = [100, 100, 100]
actions = [
  "d dh p1 AsKs2c",
  "d dh p2 QhQd9h",
  "d dh p3 3d4d5d",
  "p1 pb",
  "p2 cbr 4",
  "p3 f",
  "p1 f",
]
finishing_stacks = [97, {p2}, 99]
event = "World Series of Poker"
hand = 1
"""


def _audit(tmp_path: Path, p2: int) -> tuple[int, list[tuple[str, str]], list[tuple[str, str]]]:
    path = tmp_path / "live.phh"
    path.write_text(LIVE.format(p2=p2))
    db = str(tmp_path / f"{p2}.duckdb")
    result = runner.invoke(app, ["audit", str(path), "--db", db, "--format", "jsonl"])
    with Store(db, read_only=True) as store:
        unverifiable = store.run("SELECT check_code, reason FROM unverifiable")
        violations = store.run("SELECT code, message FROM violations")
    return result.exit_code, unverifiable, violations


def test_a_live_phh_hand_whose_chips_in_equal_chips_out_is_ok_on_the_pot_total(tmp_path: Path) -> None:
    code, unverifiable, violations = _audit(tmp_path, 104)  # 300 in, 97 + 104 + 99 out
    assert (code, unverifiable, violations) == (0, [], [])


def test_a_live_phh_hand_that_pays_more_than_its_pot_is_still_caught(tmp_path: Path) -> None:
    code, _, violations = _audit(tmp_path, 105)
    assert code == 1 and {c for c, _ in violations} >= {"POT_TOTAL"}
