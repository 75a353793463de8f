"""Issue #25, the dispute desk: `audit`'s violation list reads at 80 columns (ids and codes whole, the
file and line together, the message wrapped under its row), a file gets a sane width, and
`violations` says when a breakdown shows only some of its rows."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from rich.cells import cell_len
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.replay.codes import Code
from tests.test_cli_audit import MISPAID
from tests.test_show import OVERBET
from tests.test_site_pokerstars import SPLIT_HAND

runner = CliRunner()
EIGHTY = {"COLUMNS": "80"}
#: a history file name with a space, as Winning's are
FILE_NAME = "HH20160921 G731204518.txt"
#: hands paid to the wrong player, each with an id of its own
MISPAID_IDS = [f"42{number:02d}" for number in range(21)]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    folder = tmp_path_factory.mktemp("desk")
    hands = [SPLIT_HAND, OVERBET] + [MISPAID.replace("4242", hand_id) for hand_id in MISPAID_IDS]
    path = folder / FILE_NAME
    path.write_text("\n\n\n".join(hands))
    db = str(folder / "v.duckdb")
    result = runner.invoke(app, ["import", str(path), "--db", db])
    assert result.exit_code == 0, result.output
    return db, path


def wide_lines(text: str, width: int = 80) -> list[str]:
    return [line for line in text.splitlines() if cell_len(line) > width]


def test_the_violation_list_fits_80_columns_ids_and_codes_whole(store: tuple[str, Path]) -> None:
    db, path = store
    result = runner.invoke(app, ["audit", "--db", db], env=EIGHTY)
    assert result.exit_code == 1, result.output
    assert not wide_lines(result.output), wide_lines(result.output)
    lines = result.output.splitlines()
    rows = [line.split() for line in lines if line[:1].isdigit() and "violations" not in line]
    assert {row[0] for row in rows} == {"77", *MISPAID_IDS}  # every hand id whole, at the start of its row
    assert {row[1] for row in rows} <= {code.value for code in Code} and {"BET_SIZE", "POT_AWARD"} <= {row[1] for row in rows}
    # the file's name and the line together, the message under its row (never a path: it is long)
    first = next(index for index, line in enumerate(lines) if line.startswith("4200 "))
    under = lines[first + 1]
    assert under.startswith(f"    {FILE_NAME}:") and str(path.parent) not in result.output, lines[first:first + 3]
    line_number = int(under.split(f"{FILE_NAME}:")[1].split(":")[0])
    assert path.read_text().splitlines()[line_number - 1].startswith("gashpor collected"), under
    # a row, its message below it: fewer than three lines a violation, none a word alone
    assert len(lines) <= 3 * len(rows) + 5, len(lines)
    assert not [line for line in lines if line.strip() and len(line.split()) == 1 and not line[:1].isdigit()]


def test_the_listing_narrower_still_keeps_every_word(store: tuple[str, Path]) -> None:
    db, _ = store
    narrow = runner.invoke(app, ["audit", "--db", db, "--code", "BET_SIZE"], env={"COLUMNS": "40"})
    wide = runner.invoke(app, ["audit", "--db", db, "--code", "BET_SIZE"], env={"COLUMNS": "160"})
    assert not wide_lines(narrow.output, 40), wide_lines(narrow.output, 40)
    message = "gashpor bets to $0.08 on 4th street"  # the message, wrapped or not
    assert message in " ".join(wide.output.split()) and message in " ".join(narrow.output.split())
    assert "77" in narrow.output.split() or "hand_id: 77" in narrow.output


@pytest.mark.slow
def test_redirected_to_a_file_the_listing_has_a_sane_width(store: tuple[str, Path], tmp_path: Path) -> None:
    db, _ = store
    env = {key: value for key, value in os.environ.items() if key != "COLUMNS"}
    for columns, width in ((None, 80), ("100", 100)):
        if columns:
            env["COLUMNS"] = columns
        written = tmp_path / "violations.txt"
        with written.open("w") as out:
            done = subprocess.run([sys.executable, "-m", "hhtool", "audit", "--db", db, "--code", "POT_AWARD"],
                                  stdout=out, stderr=subprocess.PIPE, env=env, text=True, timeout=300)
        assert done.returncode == 1, done.stderr
        text = written.read_text()
        assert text.startswith("43 violations\n"), text[:300]  # two a mispaid hand, one the overbet hand's
        assert not wide_lines(text, width) and max(map(cell_len, text.splitlines())) > width - 30, text[:500]


def test_violations_say_when_a_breakdown_shows_only_some_hands(store: tuple[str, Path]) -> None:
    db, _ = store
    overview = runner.invoke(app, ["violations", "--db", db], env=EIGHTY)
    assert overview.exit_code == 0, overview.output
    # 22 hands with a violation (21 paid to the wrong player, one overbet), 20 shown
    assert "showing 20 of 22 hands; --by hand --top 22 to see them all" in overview.output
    assert not wide_lines(overview.output), wide_lines(overview.output)
    top = runner.invoke(app, ["violations", "--db", db, "--by", "hand", "--top", "5"], env=EIGHTY)
    assert "showing 5 of 22 hands" in top.output, top.output
    everything = runner.invoke(app, ["violations", "--db", db, "--by", "hand"], env=EIGHTY)
    assert "showing" not in everything.output and "4220" in everything.output
    codes = runner.invoke(app, ["violations", "--db", db, "--by", "code"], env=EIGHTY)
    assert "showing" not in codes.output  # two codes: nothing left out
