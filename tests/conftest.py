"""Fixtures several test modules share: the corpus folder, and the stores of the sample histories and
of the statistics hands, each imported once per session (a module that changes a store copies it
first, with ``copy_store``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.store import Store
from tests.browser import browser  # noqa: F401 (the browser tests' fixture, one per module)
from tests.inputs import SAMPLES, require_corpus
from tests.stats_hands import ALL_HANDS, load


@pytest.fixture(scope="session", autouse=True)
def no_user_config(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The user's own config file (a default database, watch folders) and data folder (where the default
    database is) stay out of the tests: every command, in this process or a subprocess, looks in an empty
    config folder, and a command given no database writes into a data folder of the session's own. The
    machine's zone, in which times are shown and --from/--to read, is New York's ($TZ): the zone of most
    test histories (PokerStars' ET), so a time a test reads is the one its history states, on any machine."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TZ", "America/New_York")
        patch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("xdg-config")))
        patch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("xdg-data")))
        patch.delenv("HHTOOL_CONFIG", raising=False)
        yield


@pytest.fixture
def corpus() -> Path:
    """The shared corpus folder; the test is skipped, saying what is missing, without it."""
    return require_corpus()


@pytest.fixture(scope="session")
def pokerstars_samples_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store of ``sample_histories/pokerstars`` imported by the command (one job). Shared by
    modules: read it, or copy it (``copy_store``) to change it."""
    path = tmp_path_factory.mktemp("pokerstars-samples") / "samples.duckdb"
    result = CliRunner().invoke(app, ["import", str(SAMPLES / "pokerstars"), "--db", str(path), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    return path


@pytest.fixture(scope="session")
def stats_hands_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store of the statistics hands (``tests/stats_hands.py``, ``ALL_HANDS``). Shared by modules:
    read it, or copy it (``copy_store``) to change it."""
    folder = tmp_path_factory.mktemp("stats-hands")
    path = folder / "stats.duckdb"
    with Store(str(path)) as store:
        load(store, folder, *ALL_HANDS)
    return path


@pytest.fixture(scope="session")
def dask_address() -> Iterator[str]:
    """An in-process Dask cluster (threads, no processes): the real scheduler and workers, quickly."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(processes=False, n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster:
        yield cluster.scheduler_address
