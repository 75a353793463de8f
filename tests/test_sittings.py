"""Issue #25, the player's day: a session is a sitting (a break of --gap minutes with no hand at ANY
table ends it; `--by table` gives the old per-table sessions), tournament chips say they are chips,
and `simulate` deals each seed at its own table and day, so its hands never join the samples' sessions."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from rich.cells import cell_len
from typer.testing import CliRunner

from hhtool.cli import app
from tests.inputs import SAMPLES
from tests.tracker_hands import EVENING, ann_folds, ann_steals

runner = CliRunner()
WIDTH = {"COLUMNS": "80", "NO_COLOR": "1"}


def imported(folder: Path, text: str) -> str:
    (folder / "h.txt").write_text(text, encoding="utf-8")
    db = str(folder / "s.duckdb")
    result = runner.invoke(app, ["import", str(folder / "h.txt"), "--db", db, "--jobs", "1"])
    assert result.exit_code == 0, result.output
    return db


def sessions(db: str, *args: str) -> list[str]:
    result = runner.invoke(app, ["sessions", "--db", db, *args], env=WIDTH)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert all(cell_len(line) <= 80 for line in lines), result.output
    return lines


def test_one_sitting_at_two_tables_is_one_session(tmp_path: Path) -> None:
    """Ann at Alpha from 20:00 and at Beta at 20:05 (a break of 30 minutes at Alpha, 20:29:59 to
    20:59:59, with no hand anywhere): two sittings; it was three sessions, two starting within
    minutes of each other, one per table."""
    db = imported(tmp_path, "\n\n".join(EVENING))
    assert sessions(db, "--player", "Ann") == [
        "table        start             length  hands  hands/h    net  bb/100",
        "───────────  ────────────────  ──────  ─────  ───────  ─────  ──────",
        "Alpha        2024-03-01 20:59  0:05        2       12  $0.06   37.50",
        "Alpha, Beta  2024-03-01 20:00  0:29        4        6  $0.00    0.00",
        "2 rows",
    ]
    rows = json.loads(runner.invoke(app, ["sessions", "--db", db, "--player", "Ann", "--format", "json"]).stdout)
    assert [(row["table"], row["tables"], row["hands"], row["net_won"]) for row in rows] == [
        ("Alpha", 1, 2, 6), ("Alpha, Beta", 2, 4, 0)]


def test_hands_at_two_tables_at_the_same_minute_are_one_sitting_and_by_table_two(tmp_path: Path) -> None:
    """Two tables at once, hand after hand: one sitting; --by table splits it per table."""
    hands = [ann_steals(8000 + i, f"2024/03/02 21:{i:02d}:00", "Alpha" if i % 2 else "Gamma") for i in range(10)]
    db = imported(tmp_path, "\n\n".join(hands))
    [_, _, sitting, count] = sessions(db, "--player", "Ann")
    assert sitting.split()[:5] == ["Gamma,", "Alpha", "2024-03-02", "21:00", "0:09"] and count == "1 row"
    by_table = sessions(db, "--player", "Ann", "--by", "table")
    assert [line.split()[:3] for line in by_table[2:4]] == [["Alpha", "2024-03-02", "21:01"],
                                                            ["Gamma", "2024-03-02", "21:00"]]
    assert by_table[-1] == "2 rows"


def chips(hand: str, tournament: str) -> str:
    """A cash hand of tests/tracker_hands.py dealt in a tournament instead: its amounts chips."""
    header = (f"PokerStars Hand #{{id}}: Tournament #{tournament}, 100+9 7 Card Stud Hi/Lo Limit - Level I (4/8)"
              " - {when} ET")
    first, rest = hand.split("\n", 1)
    found = re.match(r"PokerStars Hand #(\d+):.* - (.*) ET$", first)
    assert found is not None
    text = header.format(id=found[1], when=found[2]) + "\n" + rest
    return re.sub(r"\$(\d+)(?:\.(\d\d))?", lambda m: str(int(m[1]) * 100 + int(m[2] or 0)), text)


def test_a_tournament_sitting_is_in_chips_and_says_so(tmp_path: Path) -> None:
    """Chips are no money: a sitting in a tournament beside a cash table is its own row, its net in
    chips, and a note says so (it was `$0.03`-like money columns mixed with bare numbers)."""
    hands = [ann_steals(9001, "2024/03/03 20:00:00", "Alpha"), ann_folds(9002, "2024/03/03 20:04:00", "Alpha"),
             chips(ann_steals(9003, "2024/03/03 20:01:00", "T 1"), "555"),
             chips(ann_steals(9004, "2024/03/03 20:03:00", "T 1"), "555")]
    db = imported(tmp_path, "\n\n".join(hands))
    assert sessions(db, "--player", "Ann") == [
        "table  start             length  hands  hands/h      net  bb/100",
        "─────  ────────────────  ──────  ─────  ───────  ───────  ──────",
        "T 1    2024-03-03 20:01  0:02        2       30  6 chips   37.50",
        "Alpha  2024-03-03 20:00  0:04        2       15    $0.00    0.00",
        "2 rows",
        "1 of these sessions is in tournament chips: net in chips, not money",
    ]
    rows = json.loads(runner.invoke(app, ["sessions", "--db", db, "--player", "Ann", "--format", "json"]).stdout)
    assert sorted((row["currency"], row["unit"], row["net_won"], row["hands"]) for row in rows) == [
        ("CHIPS", 1, 6, 2), ("USD", 100, 0, 2)]


@pytest.mark.slow
@pytest.mark.parametrize("site", ["pokerstars", "fulltilt"])
def test_simulated_hands_are_their_own_session_beside_the_samples(tmp_path: Path, site: str) -> None:
    """`simulate --seed 2` beside the bundled samples (seed 1): its own table and day, so the hero's
    sessions keep them apart (they were one session at 'Alcyone IV' on 2026-11-29)."""
    out = tmp_path / "sim.txt"
    made = runner.invoke(app, ["simulate", "--hands", "30", "--seed", "2", "--site", site, "--out", str(out)])
    assert made.exit_code == 0, made.output
    db = str(tmp_path / "s.duckdb")
    for path in (SAMPLES / "pokerstars", out):
        result = runner.invoke(app, ["import", str(path), "--db", db, "--jobs", "1"])
        assert result.exit_code == 0 and "conflicting" not in result.output, result.output
    rows = json.loads(runner.invoke(app, ["sessions", "--db", db, "--player", "Hero", "--format", "json"]).stdout)
    simulated = [row for row in rows if row["site"] == site and row["table"] == "Alcyone V"]
    assert len(simulated) == 1 and simulated[0]["start"].startswith("2026-11-30"), rows
    samples = [row for row in rows if row["table"] and "Alcyone IV" in row["table"]]
    assert samples and all("Alcyone V" not in row["table"] and row["start"] < "2026-11-30" for row in samples), rows
