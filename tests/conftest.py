from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED_CORPUS = REPO.parent / "shared" / "corpus"
SAMPLES = REPO / "sample_histories"


@pytest.fixture
def corpus() -> Path:
    if not SHARED_CORPUS.is_dir():
        pytest.skip("../shared/corpus is not present (tests on real histories need it)")
    return SHARED_CORPUS


@pytest.fixture(scope="session")
def dask_address() -> Iterator[str]:
    """An in-process Dask cluster (threads, no processes): the real scheduler and workers, quickly."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(processes=False, n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster:
        yield cluster.scheduler_address
