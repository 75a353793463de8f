"""One importer, several executors: an import in one process, in a process pool and on a Dask
cluster writes exactly the same tables, file rows and counts, grown files and failures included."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.ingest import executors
from hhtool.ingest.accounting import ImportReport
from hhtool.ingest.executors import DaskExecutor, Executor, LocalExecutor, Running
from hhtool.ingest.loader import import_sources
from hhtool.ingest.sources import collect_sources
from hhtool.service.export import EXPORTED_TABLES
from hhtool.store import Store
from hhtool.store.parquet import export_parquet
from tests.conftest import SAMPLES
from tests.test_reliability import every_table
from tests.test_site_pokerstars import ALLIN_SIDE_POT, SPLIT_HAND
from tests.test_store import BROKEN

runner = CliRunner()


def numbered_hands(count: int, first: int = 0) -> list[str]:
    return [(SPLIT_HAND if n % 3 else ALLIN_SIDE_POT).replace("35874576282", str(7000 + n)).replace("#200:", f"#{9000 + n}:")
            for n in range(first, first + count)]


def corpus_like_inputs(tmp_path: Path) -> list[str]:
    tmp_path.mkdir(parents=True, exist_ok=True)
    hands = numbered_hands(60)
    (tmp_path / "a.txt").write_text("\n\n\n".join(hands[:40]))
    (tmp_path / "b.txt").write_text("\n\n\n".join([*hands[30:], BROKEN]))  # overlaps a.txt, one broken hand
    (tmp_path / "c.txt").write_text("not a hand history\n")
    return [str(tmp_path)]


def snapshot(store: Store) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table of the store, but the import's timestamps."""
    return every_table(store.con)


class Counting:
    """An executor that counts the chunks it was given, to tell that the work went where it was sent."""

    def __init__(self, inner: Executor) -> None:
        self.inner, self.chunks = inner, 0

    @contextmanager
    def running(self, total_bytes: int) -> Iterator[Running]:
        with self.inner.running(total_bytes) as running:
            assert running.submit is not None and running.in_flight > 0
            submit = running.submit

            def counted(function: Any, *args: Any) -> Any:
                self.chunks += 1
                return submit(function, *args)

            yield Running(counted, running.in_flight)


@pytest.fixture
def pool_for_small_inputs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(executors, "POOL_MIN_BYTES", 0)  # a pool even for a few kilobytes
    monkeypatch.setattr("hhtool.ingest.files.BATCH_HANDS", 3)  # several chunks per file, in flight at once


#: a file being written: a broken hand among ten, then the first 20 lines of the last hand (cut mid-line) ...
_LAST = SPLIT_HAND.replace("35874576282", "8000").splitlines()
GROWN_FIRST = "\n\n\n".join([*numbered_hands(5), BROKEN, *numbered_hands(5, first=5), "\n".join(_LAST[:20])])
#: ... and what the client wrote next: the rest of that hand and five more
GROWN_REST = "\n" + "\n".join(_LAST[20:]) + "\n\n\n" + "\n\n\n".join(numbered_hands(5, first=100))


def import_twice(tmp_path: Path, executor: Executor | None) -> tuple[list[ImportReport], dict[str, Any]]:
    """sample_histories/ and a folder with a file no site reads and one being written (a broken
    hand, its last hand cut off), then the same again, the file grown."""
    grown = tmp_path / "live" / "grown.txt"
    grown.parent.mkdir(parents=True, exist_ok=True)
    grown.write_text(GROWN_FIRST)
    (grown.parent / "notes.txt").write_text("not a hand history\n")
    reports = []
    with Store(":memory:") as store:
        reports.append(import_sources(store, collect_sources([str(SAMPLES), str(grown.parent)]).sources, executor=executor))
        grown.write_text(GROWN_FIRST + GROWN_REST)
        reports.append(import_sources(store, collect_sources([str(SAMPLES), str(grown.parent)]).sources, executor=executor))
        return reports, snapshot(store)


@pytest.mark.usefixtures("pool_for_small_inputs")
@pytest.mark.slow
def test_one_job_two_jobs_and_dask_write_the_same_tables_and_counts(tmp_path: Path, dask_address: str) -> None:
    reference_reports, reference = import_twice(tmp_path, None)  # the same paths each time: they are stored
    first, second = reference_reports
    assert first.total("incomplete") == 1 and first.total("failed") == 1 and first.total("stored") > 100
    [live] = [report for report in second.files if report.path.endswith("grown.txt")]
    assert (live.status, live.stored, live.duplicates, live.incomplete) == ("grown", 6, 0, 0)
    assert all(report.status == "unchanged" for report in second.files if report is not live)
    for name in ("files", "hands", "import_errors", "player_facts"):
        assert reference[name], name  # nothing compared below is empty
    for executor in (LocalExecutor(2), DaskExecutor(dask_address)):
        counting = Counting(executor)
        reports, tables = import_twice(tmp_path, counting)
        assert counting.chunks > 10  # the chunks went to the pool's or the cluster's workers
        assert [report.as_json() for report in reports] == [report.as_json() for report in reference_reports]
        assert tables == reference, type(executor).__name__


@pytest.mark.slow
def test_a_file_grown_between_two_dask_imports_is_resumed_not_read_again(tmp_path: Path, dask_address: str,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("hhtool.ingest.files.BATCH_HANDS", 4)
    path = tmp_path / "live.txt"
    path.write_text(GROWN_FIRST)
    db = tmp_path / "d.duckdb"
    command = ["import", "--db", str(db), "--dask", dask_address, "--format", "json", str(path)]
    first = runner.invoke(app, command)
    assert first.exit_code == 1, first.output  # the broken hand (a last hand cut off is incomplete, not failed)
    totals = json.loads(first.output)["totals"]
    assert (totals["stored"], totals["incomplete"], totals["failed"]) == (10, 1, 1)
    path.write_text(GROWN_FIRST + GROWN_REST)
    second = runner.invoke(app, command)
    assert second.exit_code == 0, second.output  # the broken hand was not read again
    [grown] = json.loads(second.output)["files"]
    assert (grown["status"], grown["stored"], grown["duplicates"], grown["incomplete"]) == ("grown", 6, 0, 0)
    with Store(str(db), read_only=True) as store:
        assert store.run("SELECT hands_found, stored, duplicates, incomplete, failed FROM files") == [(17, 16, 0, 0, 1)]
        assert store.run("SELECT count(*) FROM hands") == [(16,)]
        # the broken hand stays; the cut-off copy of the last hand gave way to the whole hand
        broken_at = GROWN_FIRST.split("\n").index(BROKEN.split("\n")[0]) + 1
        assert store.run("SELECT first_line, kind FROM import_errors") == [(broken_at, "unreadable")]


@pytest.mark.slow
def test_a_bad_file_under_dask_fails_with_its_reason_and_the_others_are_stored(tmp_path: Path, dask_address: str) -> None:
    paths = corpus_like_inputs(tmp_path / "in")
    (tmp_path / "in" / "d.txt.gz").write_bytes(b"\x1f\x8b\x08\x00 not really gzip")
    done = runner.invoke(app, ["import", "--db", str(tmp_path / "d.duckdb"), "--dask", dask_address, "--format", "json",
                               *paths])
    assert done.exit_code == 1, done.output  # some failed, every other hand stored
    summary = json.loads(done.output)
    files = {Path(report["path"]).name: report for report in summary["files"]}
    assert (files["a.txt"]["stored"], files["b.txt"]["stored"], files["b.txt"]["duplicates"]) == (40, 20, 10)
    assert files["b.txt"]["failed"] == 1 and "teleports" in files["b.txt"]["failures"][0]["reason"]
    assert (files["c.txt"]["failed"], files["c.txt"]["status"]) == (0, "not a hand history")  # (#14)
    [unreadable] = summary["unreadable"]
    assert "d.txt.gz" in unreadable and "cannot read" in unreadable
    assert summary["totals"]["hands_found"] == 40 + 31 + 0 + 0


@pytest.mark.slow
def test_export_writes_every_table_as_parquet(tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    paths = corpus_like_inputs(tmp_path / "in")
    with Store(":memory:") as store:
        import_sources(store, collect_sources(paths).sources)
        counts = export_parquet(store, str(tmp_path / "out"), EXPORTED_TABLES)
        for name in EXPORTED_TABLES:
            table = pq.read_table(tmp_path / "out" / name / "part-00000.parquet")
            assert table.num_rows == counts[name] == store.run(f"SELECT count(*) FROM {name}")[0][0]
    assert counts["hands"] == 60


def _worker_that_watches(importer_pid: int) -> None:
    executors.exit_with(importer_pid, interval=0.05)
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
