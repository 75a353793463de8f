"""The command line's edges (issue #28, items 9, 10 and 12): no escape sequence of a player's reaches
the terminal through `show` or `audit --explain`; `hhtool sql` holds no more than its --memory of a
result; every failure ends with the exit code the README gives and one line; a failed write leaves
no partial file."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from tests.tracker_hands import EVENING

runner = CliRunner()
WIDTH = {"COLUMNS": "80", "NO_COLOR": "1"}
RED = "\x1b[31mRED\x1b[0m"


@pytest.fixture(scope="module")
def red_store(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The evening's hands with Ann named ``\\x1b[31mRED\\x1b[0m``."""
    folder = tmp_path_factory.mktemp("red")
    (folder / "e.txt").write_text("\n\n".join(hand.replace("Ann", RED) for hand in EVENING), encoding="utf-8")
    path = str(folder / "red.duckdb")
    result = runner.invoke(app, ["import", str(folder / "e.txt"), "--db", path])
    assert result.exit_code == 0, result.output
    return path


# ------------------------------------------------------------------ 9: terminal escapes


@pytest.mark.parametrize("command", [["show", "7001"], ["audit", "--explain", "7001"],
                                     ["audit", "--explain", "7001", "--format", "html"]])
def test_a_players_escape_sequence_never_reaches_the_terminal(red_store: str, command: list[str]) -> None:
    result = runner.invoke(app, [*command, "--db", red_store], env=WIDTH)
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.output
    assert "?[31mRED?[0m" in result.output
