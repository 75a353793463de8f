"""Issue #14: errors a user meets with --dask and --out end in one line, exit code 2 (usage), never
a traceback; every command with --out makes the folders it is missing, the same way."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from tests.inputs import SAMPLES

runner = CliRunner()
HHTOOL = [sys.executable, "-m", "hhtool"]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("errors") / "samples.duckdb"
    result = runner.invoke(app, ["--db", str(db), "import", str(SAMPLES), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    return db


def one_line_usage_error(done: subprocess.CompletedProcess[str]) -> str:
    lines = (done.stdout + done.stderr).strip().splitlines()
    assert done.returncode == 2, (done.returncode, lines)
    assert len(lines) == 1 and lines[0].startswith("error: "), lines
    assert "Traceback" not in done.stderr
    return lines[0]


@pytest.mark.parametrize(("address", "says"), [
    ("localhost", "needs a port"),
    ("tcp://localhost", "needs a port"),
    ("nosuch://host:8786", "unknown protocol 'nosuch'"),
])
def test_dask_address_that_cannot_be_right(address: str, says: str, tmp_path: Path) -> None:
    done = subprocess.run([*HHTOOL, "import", str(SAMPLES / "fulltilt"), "--db", str(tmp_path / "s.duckdb"),
                           "--dask", address], capture_output=True, text=True, check=False, timeout=120)
    line = one_line_usage_error(done)
    assert says in line and "tcp://HOST:8786" in line, line
    assert not (tmp_path / "s.duckdb").exists()  # refused before any work


@pytest.mark.slow
def test_dask_scheduler_that_does_not_answer(tmp_path: Path) -> None:
    started = time.monotonic()
    done = subprocess.run([*HHTOOL, "import", str(SAMPLES / "fulltilt"), "--db", str(tmp_path / "s.duckdb"),
                           "--dask", "tcp://127.0.0.1:1"], capture_output=True, text=True, check=False, timeout=120)
    line = one_line_usage_error(done)
    assert "no Dask scheduler answers at tcp://127.0.0.1:1" in line and "`dask scheduler`" in line, line
    assert "hands were stored" not in line  # nothing ran: no resume advice
    assert time.monotonic() - started < 60  # a short connect timeout (it was 30 s, plus start-up)


#: every command with --out, and what it writes there (FOLDER is replaced by the target folder)
OUT_COMMANDS = {
    "graph": ["graph", "--player", "Hero", "--currency", "USD", "--out", "FOLDER/winnings.svg"],
    "audit --explain": ["audit", "--explain", "200", "--site", "pokerstars", "--out", "FOLDER/200.html"],
    "stats": ["stats", "--out", "FOLDER/stats.csv"],
    "sql": ["sql", "SELECT 1 AS one", "--out", "FOLDER/one.json"],
    "violations": ["violations", "--out", "FOLDER/violations.csv"],
    "export phhs": ["export", "--format", "phh", "--out", "FOLDER/hands.phhs", "--site", "fulltilt"],
    "export phh folder": ["export", "--format", "phh", "--out", "FOLDER/hands", "--site", "fulltilt"],
    "simulate": ["simulate", "--hands", "3", "--out", "FOLDER/simulated.txt"],
}


def with_folder(args: list[str], folder: Path) -> list[str]:
    return [arg.replace("FOLDER", str(folder)) for arg in args]


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(OUT_COMMANDS))
def test_out_makes_missing_folders(name: str, store: Path, tmp_path: Path) -> None:
    folder = tmp_path / "not" / "there" / "yet"
    result = runner.invoke(app, ["--db", str(store), *with_folder(OUT_COMMANDS[name], folder)])
    assert result.exit_code == 0, result.output
    written = [path for path in folder.rglob("*") if path.is_file()]
    assert written and all(path.stat().st_size > 0 for path in written), (name, written)


@pytest.mark.parametrize("name", sorted(OUT_COMMANDS))
def test_out_where_no_folder_can_be_made_is_one_line_exit_2(name: str, store: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "notes.txt"  # a file where the folder would go
    blocker.write_text("kept\n", encoding="utf-8")
    result = runner.invoke(app, ["--db", str(store), *with_folder(OUT_COMMANDS[name], blocker / "sub")])
    lines = result.output.strip().splitlines()
    assert result.exit_code == 2, (name, result.exit_code, result.output)
    assert len(lines) == 1 and lines[0].startswith("error: --out ") and "cannot make the folder" in lines[0], lines
    assert blocker.read_text(encoding="utf-8") == "kept\n"


def test_out_naming_a_folder_for_a_file_is_one_line_exit_2(store: Path, tmp_path: Path) -> None:
    for args in (["graph", "--player", "Hero", "--currency", "USD", "--out", str(tmp_path / "d.png")],
                 ["audit", "--explain", "200", "--site", "pokerstars", "--out", str(tmp_path / "d.png")],
                 ["stats", "--out", str(tmp_path / "d.png")]):
        (tmp_path / "d.png").mkdir(exist_ok=True)
        result = runner.invoke(app, ["--db", str(store), *args])
        lines = result.output.strip().splitlines()
        assert result.exit_code == 2 and len(lines) == 1 and lines[0].startswith("error: --out "), (args, lines)
