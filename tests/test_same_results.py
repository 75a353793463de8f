"""Same results whatever the jobs: the same inputs (sample_histories/ and simulated files with faults
and copies) imported with one job and with two write the same rows in every table; hands and replay
results survive the pickling that carries them between processes.

Every import runs as a command in a subprocess, outside the repository and with ``PYTHONSAFEPATH``, so
that the Python imports the hhtool it has installed."""

from __future__ import annotations

import copy
import os
import pickle
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.ingest.reader import read_file
from hhtool.model import Card, Hand
from hhtool.replay import profile_for, replay
from hhtool.sites import detect
from tests.inputs import SAMPLES
from tests.test_reliability import assert_same_tables, every_table

#: an import as the command runs it, but with a process pool even for these few megabytes and blocks of
#: 40 hands, so that two jobs share the hands between two workers as a large import does
_IMPORT = """
import sys
from hhtool.ingest import executors, files
executors.POOL_MIN_BYTES = 0
files.BATCH_HANDS = 40
from hhtool.cli import app
app(sys.argv[1:], prog_name="hhtool")
"""

Tables = dict[str, list[tuple[object, ...]]]


def run(python: str, arguments: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONSAFEPATH": "1"}  # cwd is not put on sys.path: the installed hhtool is imported
    return subprocess.run([python, *arguments], cwd=cwd, env=env, capture_output=True, text=True, timeout=900, check=False)


def imported(python: str, inputs: list[str], jobs: int, work: Path) -> tuple[int, Tables]:
    """Import ``inputs`` into a new store with ``jobs`` processes; (exit code, every table's rows)."""
    db = work / f"{jobs}-jobs.duckdb"
    done = run(python, ["-c", _IMPORT, "import", "--db", str(db), "--jobs", str(jobs), "--format", "json", *inputs], work)
    assert done.returncode in (0, 1), done.stderr[-2000:]  # 1: the samples hold hands with violations or failures
    with duckdb.connect(str(db), read_only=True) as con:
        return done.returncode, every_table(con)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    folder = tmp_path_factory.mktemp("inputs")
    files = []
    for site, hands in (("pokerstars", 400), ("fulltilt", 150)):  # a fifth of them break a rule each
        files.append(folder / f"simulated-{site}.txt")
        made = CliRunner().invoke(app, ["simulate", "--hands", str(hands), "--seed", "17", "--site", site,
                                        "--faults", "0.2", "--out", str(files[-1])])
        assert made.exit_code == 0, made.output
    # copies of three of those hands: the first unreadable, the second whole (a duplicate), the last cut off
    first, second, third = files[0].read_text().split("\n\n\n")[:3]
    lines = first.splitlines()
    broken = "\n".join([*lines[:5], "Hero: frobnicates the pot", *lines[5:]])
    files.append(folder / "copies.txt")
    files[-1].write_text("\n\n\n".join([broken, second, "\n".join(third.splitlines()[:12])]))
    return [str(SAMPLES), *map(str, files)]


@pytest.fixture(scope="module")
def reference(inputs: list[str], tmp_path_factory: pytest.TempPathFactory) -> tuple[int, Tables]:
    """One job."""
    code, tables = imported(sys.executable, inputs, 1, tmp_path_factory.mktemp("reference"))
    for name in ("files", "hands", "actions", "results", "violations", "import_errors", "player_facts"):
        assert tables[name], f"{name} is empty: nothing to compare"
    return code, tables


@pytest.mark.slow
def test_one_job_and_two_jobs_write_the_same_tables(inputs: list[str], reference: tuple[int, Tables], tmp_path: Path) -> None:
    code, tables = imported(sys.executable, inputs, 2, tmp_path)
    assert code == reference[0]
    assert_same_tables(tables, reference[1])


def test_hands_and_replay_results_pickle_and_copy() -> None:
    """What a worker returns and a Dask cluster carries: pickled and copied, the same values."""
    path = SAMPLES / "pokerstars"
    [first, *_] = sorted(path.glob("*.txt"))
    decoded = read_file(first)
    parser = detect(decoded.lines)
    assert parser is not None
    hand = next(outcome for raw in parser.split(decoded.lines, str(first)) if isinstance(outcome := parser.parse(raw), Hand))
    result = replay(hand)
    for value in (hand, result, profile_for(hand).profile, Card.parse("Ah")):
        assert pickle.loads(pickle.dumps(value)) == value
        assert copy.deepcopy(value) == value and copy.copy(value) == value
