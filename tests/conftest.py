from __future__ import annotations

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
