"""Issue #14's CLI conventions, through the command: `-h` beside `--help`, and `--db` accepted
before the command as well as after it (after it, it wins)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from tests.inputs import SAMPLES

runner = CliRunner()


def test_dash_h_is_help_for_the_app_and_each_command() -> None:
    for args in (["-h"], ["audit", "-h"], ["stats", "-h"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 0 and "Usage: hhtool" in result.output, (args, result.output)


@pytest.mark.slow
def test_db_before_the_command_names_the_store(tmp_path: Path) -> None:
    db = str(tmp_path / "first.duckdb")
    imported = runner.invoke(app, ["--db", db, "import", str(SAMPLES / "pokerstars"), "--jobs", "1"])
    assert imported.exit_code == 0 and Path(db).exists(), imported.output
    audited = runner.invoke(app, ["--db", db, "audit"])
    assert audited.exit_code == 0 and "hands audited" in audited.output, audited.output
    # the command's own --db wins, and a later run without it does not keep the earlier one
    other = runner.invoke(app, ["--db", str(tmp_path / "missing.duckdb"), "audit", "--db", db])
    assert other.exit_code == 0 and "hands audited" in other.output, other.output
    alone = runner.invoke(app, ["audit"], env={"HHTOOL_DB": str(tmp_path / "nothing.duckdb")})
    assert alone.exit_code == 3 and "no database" in alone.output, alone.output
