"""Issue #14: `show` and `audit --rules list` fit an 80-column terminal (COLUMNS=80), losing nothing."""

from __future__ import annotations

import csv
import io
import random
from pathlib import Path

import pytest
from rich.cells import cell_len
from rich.text import Text
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.cli.output import fit_lines
from hhtool.reports.site_words import site_in_words
from hhtool.service.choices import profile_names
from tests.inputs import SAMPLES

runner = CliRunner()
EIGHTY = {"COLUMNS": "80"}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("width") / "samples.duckdb"
    result = runner.invoke(app, ["--db", str(db), "import", str(SAMPLES), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    return db


def too_wide(text: str, width: int = 80) -> list[str]:
    return [line for line in text.splitlines() if cell_len(line) > width]


@pytest.mark.slow
def test_show_fits_80_columns_on_a_hand_of_each_site(store: Path) -> None:
    listed = runner.invoke(app, ["sql", "SELECT site, min(hand_id) AS hand_id FROM hands GROUP BY site ORDER BY site",
                                 "--db", str(store), "--format", "csv"])
    assert listed.exit_code == 0, listed.output
    hands = list(csv.DictReader(io.StringIO(listed.output)))
    site_folders = {path.name for path in SAMPLES.iterdir() if path.is_dir()} - {"phh"}  # PHH keeps the origin's site
    assert {row["site"] for row in hands} == site_folders
    for row in hands:
        shown = runner.invoke(app, ["show", row["hand_id"], "--site", row["site"], "--db", str(store)], env=EIGHTY)
        assert shown.exit_code == 0, shown.output
        assert not too_wide(shown.output), (row, too_wide(shown.output))
        lines = shown.output.splitlines()
        assert lines[0].startswith(f"{site_in_words(row['site'])} hand #{row['hand_id']}"), lines[:3]  # (in words)
        assert any(", ante " in line and ", bring-in " in line for line in lines[1:4]), lines[:5]
        wide = runner.invoke(app, ["show", row["hand_id"], "--site", row["site"], "--db", str(store)],
                             env={"COLUMNS": "400"})
        assert " ".join(wide.output.split()) == " ".join(shown.output.split())  # broken, every word kept


def test_rules_list_fits_80_columns() -> None:
    listed = runner.invoke(app, ["audit", "--rules", "list"], env=EIGHTY)
    assert listed.exit_code == 0, listed.output
    assert not too_wide(listed.output), too_wide(listed.output)
    starts = [line.split()[0] for line in listed.output.splitlines() if line and not line.startswith(" ")]
    assert set(profile_names()) <= set(starts), starts
    wide = runner.invoke(app, ["audit", "--rules", "list"], env={"COLUMNS": "200"})
    assert " ".join(wide.output.split()) == " ".join(listed.output.split())


def test_fit_lines_keeps_every_character_and_style() -> None:
    chooser = random.Random(14)
    for _ in range(500):
        width = chooser.randint(8, 60)
        text = " " * chooser.randint(0, 6) + " ".join(
            "".join(chooser.choice("ab漢x") for _ in range(chooser.randint(1, 30))) for _ in range(chooser.randint(1, 12)))
        line = Text(text)
        line.stylize("bold", 0, len(text) // 2)
        fitted = fit_lines([line], width)
        assert all(cell_len(piece.plain) <= width for piece in fitted), (width, text)
        assert "".join(piece.plain for piece in fitted).replace(" ", "") == text.replace(" ", "")
        bold = "".join(piece.plain[span.start:span.end] for piece in fitted for span in piece.spans)
        assert bold.replace(" ", "") == text[: len(text) // 2].replace(" ", "")
