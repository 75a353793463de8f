"""Issue #25, exit codes and quiet success as the README promises: a closed pipe ends quietly (every
command), `--out` where no file can be made is a usage error (2), every `--out` says "wrote FILE",
an import of nothing leaves no store behind, and `import --site` naming the wrong site says which
site the file looks like and exits 1."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from hhtool.cli import app
from tests.inputs import SAMPLES
from tests.test_reliability import HHTOOL

runner = CliRunner()
ENV = {**os.environ, "COLUMNS": "80", "NO_COLOR": "1"}
STARS = SAMPLES / "pokerstars" / "simulated-seed1.txt"


@pytest.fixture(scope="module")
def samples(tmp_path_factory: pytest.TempPathFactory) -> str:
    db = str(tmp_path_factory.mktemp("q") / "s.duckdb")
    assert runner.invoke(app, ["import", str(SAMPLES / "pokerstars"), "--db", db, "--jobs", "1"]).exit_code == 0
    return db


def into_closed_pipe(*args: str) -> subprocess.CompletedProcess[str]:
    """The command with its stdout a pipe whose reader has gone (`hhtool … | head` after head ended)."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        return subprocess.run([*HHTOOL, *args], stdout=writer, stderr=subprocess.PIPE, text=True, timeout=120,
                              env=ENV, check=False)
    finally:
        os.close(writer)


def command_names() -> list[str]:
    commands = getattr(typer.main.get_command(app), "commands", None)
    assert isinstance(commands, dict)
    return sorted(commands)


@pytest.mark.slow
def test_help_into_a_closed_pipe_ends_quietly_with_0_for_every_command() -> None:
    """It was "error: cannot read or write: Broken pipe" (or Rich's silent 1) with exit 1."""
    names = command_names()
    assert {"stats", "hands", "sessions", "import", "graph", "show"} <= set(names)
    for args in (["--help"], *([name, "--help"] for name in names)):
        result = into_closed_pipe(*args)
        assert (result.returncode, result.stderr) == (0, ""), (args, result.returncode, result.stderr)


@pytest.mark.slow
@pytest.mark.parametrize("args", [["stats"], ["hands", "--limit", "0"], ["sessions", "--player", "Hero"],
                                  ["show", "200"], ["audit", "--explain", "200"], ["sql", "SELECT * FROM hands"]])
def test_a_report_into_a_closed_pipe_ends_quietly_with_0(samples: str, args: list[str]) -> None:
    """It was exit 3 ("cannot read or write: Broken pipe") for the lists, 1 for `show`."""
    result = into_closed_pipe(*args, "--db", samples)
    assert (result.returncode, result.stderr) == (0, ""), (result.returncode, result.stderr)


@pytest.mark.slow
def test_out_where_no_file_can_be_made_is_a_usage_error(samples: str) -> None:
    """/proc takes no new file: it was exit 3, naming a temporary file; the README says 2."""
    for name in ("/proc/x.csv", "/proc/x.parquet"):
        result = subprocess.run([*HHTOOL, "stats", "--db", samples, "--out", name], capture_output=True, text=True,
                                timeout=120, env=ENV, check=False)
        assert result.returncode == 2 and result.stdout == "", result
        assert result.stderr.startswith(f"error: --out {name}: no file can be made in /proc: ") and ".partial" \
            not in result.stderr, result.stderr


@pytest.mark.parametrize(("args", "suffix", "what"), [
    (["stats"], "csv", " (36 rows)"),
    (["hands"], "json", " (122 rows)"),
    (["sessions", "--player", "Hero"], "txt", " (2 rows)"),
    (["problems"], "csv", " (0 rows)"),  # (hand 200's unstated forced bets are assumptions now, not problems)
    (["violations", "--by", "code"], "csv", " (0 rows)"),
    (["sql", "SELECT 1 AS one"], "parquet", " (1 row)"),
    (["audit", "--explain", "200"], "txt", ""),
    (["audit", "--explain", "200", "--format", "html"], "html", ""),
    (["show", "200", "--format", "forum"], "txt", ""),
])
def test_every_out_says_wrote_file(samples: str, tmp_path: Path, args: list[str], suffix: str, what: str) -> None:
    """As `graph` always did; they said nothing."""
    out = tmp_path / f"x.{suffix}"
    result = runner.invoke(app, [*args, "--db", samples, "--out", str(out)], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert result.output == f"wrote {out}{what}\n" and out.stat().st_size > 0
    quiet = runner.invoke(app, [*args, "--db", samples, "--out", str(out), "-q"], env={"COLUMNS": "80"})
    assert quiet.exit_code == 0 and quiet.output == ""


def test_importing_nothing_leaves_no_store_behind(tmp_path: Path) -> None:
    """`import /nonexistent` and `import --watch /nonexistent`: exit 2, no database file made (the
    watch made an empty one and polled forever)."""
    for args in (["import", "/nonexistent"], ["import", "--watch", "/nonexistent"]):
        result = subprocess.run([*HHTOOL, *args], capture_output=True, text=True, timeout=120, cwd=tmp_path,
                                env={**ENV, "HOME": str(tmp_path), "HHTOOL_DB": ""}, check=False)
        assert result.returncode == 2, (args, result)
        assert list(tmp_path.iterdir()) == [], (args, list(tmp_path.iterdir()))


@pytest.mark.slow
def test_a_wrong_site_says_which_site_the_file_looks_like_and_exits_1(tmp_path: Path) -> None:
    """It was "0 hands found … skipped", "not a hand history", exit 0; again: "unchanged", exit 0."""
    db = str(tmp_path / "w.duckdb")
    for _ in range(2):  # and the same again: the file is read again, not taken as imported
        result = runner.invoke(app, ["import", str(STARS), "--site", "fulltilt", "--db", db], env={"COLUMNS": "80"})
        assert result.exit_code == 1, result.output
        assert ("another site's history, nothing read (1 file: no hand start of --site fulltilt; it looks like a "
                "history of pokerstars: import it without --site, or with --site pokerstars)") in " ".join(
                    result.output.split())
        assert "not a hand history" not in result.output
    data = runner.invoke(app, ["import", str(STARS), "--site", "fulltilt", "--db", db, "--format", "json"])
    assert data.exit_code == 1
    report = json.loads(data.stdout)
    assert report["totals"]["wrong_site"] == 1 and report["files"][0]["looks_like"] == "pokerstars"
    right = runner.invoke(app, ["import", str(STARS), "--db", db])
    assert right.exit_code == 0 and "120 hands found = 120 stored" in right.output, right.output
    notes = tmp_path / "notes.txt"  # a file that is no history at all is still only skipped: 0
    notes.write_text("shopping list\n")
    skipped = runner.invoke(app, ["import", str(notes), "--site", "fulltilt", "--db", db])
    assert skipped.exit_code == 0 and "not a hand history" in skipped.output, skipped.output
