"""Same results whatever the build and the jobs: the same inputs (sample_histories/ and a simulated file)
imported with one job and with two, in this build and in the other one (pure Python and compiled with
mypyc, see hatch_build.py), write the same rows in every table.

The other build is a virtual environment's Python named by ``HHTOOL_OTHER_BUILD_PYTHON`` (.ci/run sets
it); without it that comparison skips, saying so, and the one-against-two-jobs comparison runs alone.
Every import runs as a command in a subprocess, outside the repository and with ``PYTHONSAFEPATH``, so
that each Python imports the hhtool it has installed, never this checkout's sources by accident."""

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

import hhtool
from hhtool.cli import app
from hhtool.ingest.reader import read_file
from hhtool.model import Card, Hand, Note, NoteTopic, Restated, Restatement, Street
from hhtool.replay import profile_for, replay
from hhtool.sites import detect
from hhtool.store.load import declared_hints
from tests.inputs import SAMPLES
from tests.test_reliability import assert_same_tables, every_table

OTHER_PYTHON = os.environ.get("HHTOOL_OTHER_BUILD_PYTHON")
OTHER_MISSING = ("HHTOOL_OTHER_BUILD_PYTHON is not set: no other build to compare with (.ci/run sets it to the "
                 "compiled build's Python in the pure run, and to the pure build's in the compiled run)")

#: an import as the command runs it, but with a process pool even for these few megabytes and blocks of
#: 40 hands, so that two jobs share the hands between two workers as a large import does
_IMPORT = """
import sys
from hhtool.ingest import executors, files
executors.POOL_MIN_BYTES = 0
files.BATCH_HANDS = 40
from hhtool.cli import app
from hhtool.model import Card, Hand, Note, NoteTopic, Restated, Restatement, Street
from hhtool.ingest.reader import read_file
from hhtool.replay import profile_for, replay
from hhtool.sites import detect
from hhtool.store.load import declared_hints
app(sys.argv[1:], prog_name="hhtool")
"""

Tables = dict[str, list[tuple[object, ...]]]


def run(python: str, arguments: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONSAFEPATH": "1"}  # cwd is not put on sys.path: the installed hhtool is imported
    return subprocess.run([python, *arguments], cwd=cwd, env=env, capture_output=True, text=True, timeout=900, check=False)


def build_of(python: str, cwd: Path) -> str:
    done = run(python, ["-c", "import hhtool; print(hhtool.build())"], cwd)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def imported(python: str, inputs: list[str], jobs: int, work: Path) -> tuple[int, Tables]:
    """Import ``inputs`` into a new store with ``jobs`` processes; (exit code, every table's rows)."""
    db = work / f"{Path(python).parent.parent.name}-{build_of(python, work).replace(' ', '-')}-{jobs}.duckdb"
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
    """This build, one job."""
    code, tables = imported(sys.executable, inputs, 1, tmp_path_factory.mktemp("reference"))
    for name in ("files", "hands", "actions", "results", "violations", "import_errors", "player_facts"):
        assert tables[name], f"{name} is empty: nothing to compare"
    return code, tables


@pytest.mark.slow
def test_one_job_and_two_jobs_write_the_same_tables(inputs: list[str], reference: tuple[int, Tables], tmp_path: Path) -> None:
    code, tables = imported(sys.executable, inputs, 2, tmp_path)
    assert code == reference[0]
    assert_same_tables(tables, reference[1])


@pytest.mark.slow
@pytest.mark.skipif(OTHER_PYTHON is None, reason=OTHER_MISSING)
def test_the_other_build_writes_the_same_tables(inputs: list[str], reference: tuple[int, Tables], tmp_path: Path) -> None:
    assert OTHER_PYTHON is not None
    ours, theirs = build_of(sys.executable, tmp_path), build_of(OTHER_PYTHON, tmp_path)
    assert ours != theirs, f"both Pythons run the {ours} build: nothing would be compared"
    for jobs in (1, 2):
        code, tables = imported(OTHER_PYTHON, inputs, jobs, tmp_path)
        assert code == reference[0], (theirs, jobs)
        assert_same_tables(tables, reference[1])


def test_the_build_that_runs_is_the_one_expected(tmp_path: Path) -> None:
    """``HHTOOL_EXPECT_BUILD`` (set by .ci/run) names the build this suite must be testing: a compiled run
    that imported the checkout's sources would otherwise test pure Python twice. Without it, the build
    is one of the two and a command in a subprocess runs the same one."""
    expected = os.environ.get("HHTOOL_EXPECT_BUILD")
    assert hhtool.build() in ("pure Python", "compiled")
    if expected is not None:
        assert hhtool.build() == expected
        assert build_of(sys.executable, tmp_path) == expected


def test_version_names_the_build() -> None:
    output = CliRunner().invoke(app, ["--version"]).output
    assert output.strip() == f"hhtool {hhtool.__version__} ({hhtool.build()})"


def test_the_store_loader_reads_the_model_fields_types_in_either_build() -> None:
    """mypyc keeps only an attribute's run-time type (an optional field's hint becomes ``type``): the loader
    reads the declarations instead, or a stored hand's optional street would load as a bare int."""
    hints = declared_hints(Restatement)
    assert hints["street"] == Street | None and hints["fact"] is Restated
    assert declared_hints(Note)["topic"] == NoteTopic | None


def test_hands_and_replay_results_pickle_and_copy_in_either_build() -> None:
    """Frozen dataclasses pickle through their constructor (hhtool.model.pickled_by_constructor): the
    compiled build restores a pickle by setting attributes, which a frozen dataclass refuses."""
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
