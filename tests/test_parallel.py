"""Process-pool and Dask imports write exactly what a single-process import writes."""

from __future__ import annotations

from pathlib import Path

import pytest

from hhtool import parallel
from hhtool.importer import Importer
from hhtool.service.export import EXPORTED_TABLES
from hhtool.sources import collect_sources
from hhtool.store import Store
from tests.test_site_pokerstars import ALLIN_SIDE_POT, SPLIT_HAND
from tests.test_store import BROKEN

IGNORED_COLUMNS = {"imported_at"}  # wall-clock times differ between any two imports


def corpus_like_inputs(tmp_path: Path) -> list[str]:
    tmp_path.mkdir(parents=True, exist_ok=True)
    hands = [(SPLIT_HAND if n % 3 else ALLIN_SIDE_POT).replace("35874576282", str(7000 + n)).replace("#200:", f"#{9000 + n}:")
             for n in range(60)]
    (tmp_path / "a.txt").write_text("\n\n\n".join(hands[:40]))
    (tmp_path / "b.txt").write_text("\n\n\n".join([*hands[30:], BROKEN]))  # overlaps a.txt, one broken hand
    (tmp_path / "c.txt").write_text("not a hand history\n")
    return [str(tmp_path)]


def snapshot(store: Store) -> dict[str, list[tuple[object, ...]]]:
    tables = {}
    for name in EXPORTED_TABLES:
        columns = [c for c in store.frame(f"SELECT * FROM {name} LIMIT 0").columns if c not in IGNORED_COLUMNS]
        tables[name] = store.run(f"SELECT {', '.join(columns)} FROM {name} ORDER BY ALL")
    return tables


def reference(paths: list[str]) -> dict[str, list[tuple[object, ...]]]:
    with Store(":memory:") as store:
        Importer(store).run(collect_sources(paths).sources)
        return snapshot(store)


@pytest.mark.slow
def test_process_pool_import_equals_single_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = corpus_like_inputs(tmp_path)
    monkeypatch.setattr(parallel, "POOL_MIN_BYTES", 0)
    monkeypatch.setattr("hhtool.importer.BATCH_HANDS", 7)  # several chunks per file, in flight at once
    with Store(":memory:") as store, parallel.process_pool(2, 1) as submit:
        assert submit is not None
        report = Importer(store, submit=submit, in_flight=4).run(collect_sources(paths).sources)
        pooled = snapshot(store)
    monkeypatch.setattr("hhtool.importer.BATCH_HANDS", 2000)
    assert report.total("stored") == 60 and report.total("duplicates") == 10 and report.failed == 2
    assert pooled == reference(paths)


@pytest.mark.slow
def test_dask_local_cluster_import_equals_single_process(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    paths = corpus_like_inputs(tmp_path / "in")
    with Store(":memory:") as store:
        report = parallel.cluster_import(store, collect_sources(paths).sources, "local", str(tmp_path / "parts"),
                                         None, None)
        clustered = snapshot(store)
    assert report.total("stored") == 60 and report.failed == 2
    assert (tmp_path / "parts" / "hands").is_dir() and (tmp_path / "parts" / "import_errors").is_dir()
    assert clustered == reference(paths)


def test_export_writes_the_cluster_layout(tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    paths = corpus_like_inputs(tmp_path / "in")
    with Store(":memory:") as store:
        Importer(store).run(collect_sources(paths).sources)
        counts = parallel.export_parquet(store, str(tmp_path / "out"), EXPORTED_TABLES)
        for name in EXPORTED_TABLES:
            table = pq.read_table(tmp_path / "out" / name / "part-00000.parquet")
            assert table.num_rows == counts[name] == store.run(f"SELECT count(*) FROM {name}")[0][0]
    assert counts["hands"] == 60


def _worker_that_watches(importer_pid: int) -> None:
    parallel.exit_with(importer_pid, interval=0.05)
    import time

    time.sleep(60)  # a worker waiting on its queue


@pytest.mark.slow
def test_pool_workers_end_when_the_importing_process_is_killed() -> None:
    """A SIGKILLed import runs no clean-up; its workers must not wait on their queue for ever."""
    import multiprocessing
    import signal
    import subprocess
    import sys
    import time

    importer = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    worker = multiprocessing.get_context("forkserver").Process(target=_worker_that_watches, args=(importer.pid,))
    worker.start()
    try:
        time.sleep(0.3)
        assert worker.is_alive()  # the importer lives: the worker stays
        importer.send_signal(signal.SIGKILL)  # not reaped yet: a zombie counts as gone
        worker.join(timeout=10)
        assert worker.exitcode == 1
    finally:
        importer.kill()
        importer.wait()
        if worker.is_alive():
            worker.kill()
