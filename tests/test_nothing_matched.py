"""Issue #14: a filter that matches nothing says so, with close matches, and exits 2, through the
commands a user runs (stats, graph, audit, violations); no filter on an empty store stays quiet."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from tests.inputs import SAMPLES

runner = CliRunner()


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("nothing") / "s.duckdb")
    assert runner.invoke(app, ["import", str(SAMPLES / "pokerstars"), "--db", path, "--jobs", "1"]).exit_code == 0
    return path


@pytest.mark.slow
@pytest.mark.parametrize(("args", "said"), [
    (["stats", "--player", "hero"], "no player 'hero' in the store; did you mean 'Hero'?"),
    (["stats", "--player", "Heroo"], "did you mean 'Hero'"),
    (["stats", "--site", "pokerstar"], "no site 'pokerstar' in the store; did you mean 'pokerstars'"),
    (["stats", "--player", "Hero", "--from", "2030-01-01"], "no stored hand matches the filters together"),
    (["audit", "--player", "nobody"], "no player 'nobody' in the store"),
    (["audit", "--hand", "12345"], "no stored hand '12345'"),
    (["violations", "--site", "bovada"], "no site 'bovada' in the store"),
    (["graph", "--player", "nobody", "--out", "g.html"], "no player 'nobody' in the store"),
])
def test_a_filter_matching_nothing_says_which_value_and_exits_2(db: str, tmp_path: Path, args: list[str],
                                                                said: str) -> None:
    if "--out" in args:
        args = [str(tmp_path / a) if a == "g.html" else a for a in args]
    result = runner.invoke(app, [*args, "--db", db])
    assert result.exit_code == 2, result.output
    assert said in result.output and "Traceback" not in result.output


def test_a_filter_that_matches_keeps_its_output_and_exit_code(db: str) -> None:
    result = runner.invoke(app, ["stats", "--player", "Hero", "--db", db], env={"COLUMNS": "80"})
    assert result.exit_code == 0 and "Hero" in result.output, result.output


def test_no_filter_on_an_empty_store_is_not_an_error(tmp_path: Path) -> None:
    empty = str(tmp_path / "e.duckdb")
    assert runner.invoke(app, ["import", str(tmp_path), "--db", empty]).exit_code == 2  # nothing to import
    (tmp_path / "x.txt").write_text(SAMPLES.joinpath("pokerstars").iterdir().__next__().read_text())
    assert runner.invoke(app, ["import", str(tmp_path / "x.txt"), "--db", empty]).exit_code in (0, 1)
    assert runner.invoke(app, ["audit", "--db", empty]).exit_code in (0, 1)
