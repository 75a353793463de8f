"""Readers work while `hhtool import` or `hhtool import --watch` runs (#14): the importer holds its
write connection only while it writes a batch, readers wait a bounded time ($HHTOOL_LOCK_TIMEOUT)
telling what they wait for, and a wait that ends unsuccessfully is one line naming the holder."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import duckdb
import pytest

from hhtool.store import Store, StoreLocked
from hhtool.store.holders import Holder, holder_of
from tests.test_reliability import HHTOOL, numbered_hands, run_hhtool

#: an `hhtool` whose writes can be seen and held: it prints "written" after each transaction (of 300
#: hands); with HOLD_IN_WRITE set it stays inside its first write (the file locked) until killed;
#: with PAUSE_UNTIL=FILE it stops after its first write, before parsing the next chunk, printing
#: "between", until FILE exists. Run by this name, so that its command line reads `… hhtool import …`
#: as the installed script's does.
SLOW_HHTOOL = """\
import os, sys, time
import hhtool.ingest.files, hhtool.ingest.loader, hhtool.ingest.writer
hhtool.ingest.writer.WRITE_HANDS = 300
hhtool.ingest.files.BATCH_HANDS = 100
from hhtool.store import Store
write = Store.write_tables
written = []
def told(self, *args, **kwargs):
    if os.environ.get("HOLD_IN_WRITE"):
        self.run("BEGIN TRANSACTION")
        print("holding", flush=True)
        time.sleep(120)
    write(self, *args, **kwargs)
    written.append(1)
    print("written", flush=True)
Store.write_tables = told
parse = hhtool.ingest.loader.run_chunk
def paused(*args):
    gate = os.environ.get("PAUSE_UNTIL")
    if gate and written and not os.path.exists(gate):
        print("between", flush=True)
        while not os.path.exists(gate):
            time.sleep(0.05)
    return parse(*args)
hhtool.ingest.loader.run_chunk = paused
from hhtool.cli import app
app()
"""


def until(condition: Callable[[], bool], timeout: float = 60, what: str = "the condition") -> None:
    """Poll ``condition`` until it holds (no fixed sleep: a loaded machine is slower)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"{what} did not happen in {timeout} s"
        time.sleep(0.05)


@pytest.fixture
def slow_hhtool(tmp_path: Path) -> list[str]:
    script = tmp_path / "bin" / "hhtool"
    script.parent.mkdir()
    script.write_text(SLOW_HHTOOL)
    return [sys.executable, str(script)]


@pytest.fixture
def processes() -> Iterator[list[subprocess.Popen[str]]]:
    started: list[subprocess.Popen[str]] = []
    yield started
    for process in started:
        if process.poll() is None:
            process.kill()
        process.wait()


def stored_hands(db: str) -> int:
    with duckdb.connect(db, read_only=True) as con:
        return int(con.execute("SELECT count(*) FROM hands").fetchall()[0][0])


def count_hands(db: str, timeout: str = "20") -> int:
    result = run_hhtool("sql", "SELECT count(*) AS n FROM hands", "--db", db, "--format", "csv",
                        env={"HHTOOL_LOCK_TIMEOUT": timeout})
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    return int(result.stdout.split()[-1])


# ------------------------------------------------------------------ as a user: two terminals


@pytest.mark.slow
def test_stats_and_sql_work_while_a_watch_runs_and_the_watch_still_stores_new_hands(
        tmp_path: Path, processes: list[subprocess.Popen[str]]) -> None:
    folder = tmp_path / "live"
    folder.mkdir()
    history = folder / "table.txt"
    history.write_text(numbered_hands(40))
    db = str(tmp_path / "w.duckdb")
    watcher = subprocess.Popen([*HHTOOL, "import", "--watch", "-v", str(folder), "--interval", "0.1", "--db", db],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    processes.append(watcher)
    assert watcher.stdout is not None and "table.txt: 40 hands found" in watcher.stdout.readline()
    # the watch polls every 0.1 s; a reader would have waited its whole timeout for the old one
    for _ in range(3):
        assert count_hands(db, timeout="5") == 40
    stats = run_hhtool("stats", "--db", db, env={"HHTOOL_LOCK_TIMEOUT": "5", "COLUMNS": "80"})
    assert stats.returncode == 0 and "gashpor" in stats.stdout and "Traceback" not in stats.stderr, stats.stderr
    with history.open("a") as handle:  # the client writes on; the watch takes the store back to store it
        handle.write("\n\n\n" + numbered_hands(25, start=41))
    assert "table.txt: 25 hands found = 25 stored" in watcher.stdout.readline()
    assert count_hands(db, timeout="5") == 65
    watcher.send_signal(signal.SIGINT)
    assert watcher.wait(timeout=60) == 130  # Ctrl-C
    assert "stopped: 65 hands found = 65 stored" in watcher.stdout.read()


@pytest.mark.slow
def test_a_reader_works_between_the_batches_of_a_long_import_which_completes(
        tmp_path: Path, slow_hhtool: list[str], processes: list[subprocess.Popen[str]]) -> None:
    (tmp_path / "big.txt").write_text(numbered_hands(1500))
    db = str(tmp_path / "i.duckdb")
    gate = tmp_path / "go on"
    importing = subprocess.Popen([*slow_hhtool, "import", "-j", "1", str(tmp_path / "big.txt"), "--db", db],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                 env={**os.environ, "PAUSE_UNTIL": str(gate)})
    processes.append(importing)
    assert importing.stdout is not None
    assert [importing.stdout.readline().strip() for _ in range(2)] == ["written", "between"]
    assert count_hands(db, timeout="2") == 300  # between two batches: the first one is there to read
    gate.touch()
    stdout, stderr = importing.communicate(timeout=300)
    assert importing.returncode == 0, stderr
    assert "1500 hands found = 1500 stored" in stdout and stored_hands(db) == 1500


@pytest.mark.slow
def test_an_import_kept_out_between_batches_says_what_it_stored_and_a_rerun_resumes(
        tmp_path: Path, slow_hhtool: list[str], processes: list[subprocess.Popen[str]]) -> None:
    history = tmp_path / "big.txt"
    history.write_text(numbered_hands(900))
    db = str(tmp_path / "i.duckdb")
    gate = tmp_path / "go on"
    importing = subprocess.Popen([*slow_hhtool, "import", "-j", "1", str(history), "--db", db],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                 env={**os.environ, "PAUSE_UNTIL": str(gate), "HHTOOL_LOCK_TIMEOUT": "0.5"})
    processes.append(importing)
    assert importing.stdout is not None
    assert [importing.stdout.readline().strip() for _ in range(2)] == ["written", "between"]
    reader = hold_for_reading(db, 60)  # a reader that stays (a long query) while the import wants the file back
    processes.append(reader)
    gate.touch()
    _, stderr = importing.communicate(timeout=120)
    assert importing.returncode == 3 and "Traceback" not in stderr, stderr
    [error] = [line for line in stderr.splitlines() if line.startswith("error:")]
    assert error.startswith(f"error: could not write database {db}: another program ({sys.executable} -c")
    assert f"PID {reader.pid}) kept it open for 0.5 s" in error and "nothing was written" not in error
    assert error.endswith("300 hands were stored before that, each one whole: run the same command again to resume "
                          "(stored hands and files are skipped)")
    reader.kill()
    reader.wait()
    again = run_hhtool("import", "-j", "1", str(history), "--db", db)
    assert again.returncode == 0, again.stderr
    # the rest stored, the first 300 counted as stored before (never as duplicates)
    assert "900 hands found = 600 stored + 300 stored before (resumed) + 0 duplicates" in again.stdout, again.stdout
    assert stored_hands(db) == 900


@pytest.mark.slow
def test_a_reader_kept_out_past_its_timeout_names_the_import_in_one_line(
        tmp_path: Path, slow_hhtool: list[str], processes: list[subprocess.Popen[str]]) -> None:
    (tmp_path / "a.txt").write_text(numbered_hands(5))
    db = str(tmp_path / "h.duckdb")
    assert run_hhtool("import", str(tmp_path / "a.txt"), "--db", db).returncode == 0
    (tmp_path / "b.txt").write_text(numbered_hands(5, start=6))
    holder = subprocess.Popen([*slow_hhtool, "import", "--watch", str(tmp_path / "b.txt"), "--db", db],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                              env={**os.environ, "HOLD_IN_WRITE": "1"})
    processes.append(holder)
    assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"  # stuck inside a batch
    named = f"an import (hhtool import --watch {tmp_path / 'b.txt'} --db {db}, PID {holder.pid})"[:40]
    for reader in (["stats"], ["sql", "SELECT count(*) FROM hands"], ["show", "900001"]):
        started = time.monotonic()
        result = run_hhtool(*reader, "--db", db, env={"HHTOOL_LOCK_TIMEOUT": "0.5"})
        assert result.returncode == 3, (reader, result.stdout, result.stderr)  # the store could not be read
        assert time.monotonic() - started >= 0.5
        waiting, error = result.stderr.strip().splitlines()
        assert waiting.startswith(f"waiting for database {db} (to read it): {named}") and "is writing a batch" in waiting
        assert error.startswith(f"error: could not read database {db}: {named}")
        assert f"PID {holder.pid}) kept it locked for 0.5 s; try again when it is done" in error
        assert "HHTOOL_LOCK_TIMEOUT" in error and "nothing was written" not in error
        assert "Traceback" not in result.stderr
    holder.kill()
    holder.wait()
    assert count_hands(db) == 5  # the held batch was never committed; the store is whole


# ------------------------------------------------------------------ the store: giving the file back


def hold_for_reading(db: str, seconds: float) -> subprocess.Popen[str]:
    holder = subprocess.Popen([sys.executable, "-c", f"import duckdb, time; c = duckdb.connect({db!r}, read_only=True); "
                               f"print('held', flush=True); time.sleep({seconds}); c.close()"],
                              stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    return holder


def test_a_shared_store_gives_the_file_back_and_waits_for_a_reader_to_take_it_again(tmp_path: Path) -> None:
    db = str(tmp_path / "s.duckdb")
    told: list[str] = []
    store = Store(db, lock_timeout=30, on_wait=told.append)
    store.share_between_batches()
    store.limit_memory("256MiB")
    store.run("CREATE TABLE marks (n INTEGER)")
    store.release()
    assert not store.holds_file
    with duckdb.connect(db, read_only=True) as reader:  # another process could open it now (this one can)
        assert reader.execute("SELECT count(*) FROM marks").fetchall() == [(0,)]
    holder = hold_for_reading(db, 1.5)
    started = time.monotonic()
    store.run("INSERT INTO marks VALUES (1)")  # takes the file back, once the reader is done
    assert time.monotonic() - started > 0.5 and store.holds_file
    assert store.run("SELECT current_setting('memory_limit')") == [("256.0 MiB",)]  # its settings kept
    assert len(told) == 1  # told once, after a second of waiting (a writer taking its file back)
    assert f"PID {holder.pid}) is reading it" in told[0] and told[0].startswith(f"another program ({sys.executable} -c")
    holder.wait()
    store.close()
    with pytest.raises(duckdb.ConnectionException):
        store.run("SELECT 1")  # closed is closed: never opened again behind the caller's back


def test_a_writer_that_cannot_take_the_file_back_says_so_without_claiming_nothing_was_written(tmp_path: Path) -> None:
    db = str(tmp_path / "s.duckdb")
    store = Store(db, lock_timeout=0.3)
    store.share_between_batches()
    store.release()
    holder = hold_for_reading(db, 30)
    try:
        with pytest.raises(StoreLocked) as caught:
            store.run("SELECT 1")
    finally:
        holder.kill()
        holder.wait()
    message = str(caught.value)
    assert message.startswith(f"could not write database {db}: another program (")
    assert f"PID {holder.pid}) kept it open for 0.3 s; try again" in message and "nothing was written" not in message
    assert not store.holds_file
    store.run("SELECT 1")  # the reader gone, it takes the file back
    store.close()


def test_an_in_memory_store_is_never_given_back(tmp_path: Path) -> None:
    with Store(":memory:") as store:
        store.share_between_batches()
        store.run("CREATE TABLE kept (n INTEGER)")
        store.release()
        assert store.holds_file and store.run("SELECT count(*) FROM kept") == [(0,)]


def test_a_watch_between_polls_holds_nothing(tmp_path: Path) -> None:
    from hhtool.ingest.watch import watch

    (tmp_path / "a.txt").write_text(numbered_hands(3))
    db = str(tmp_path / "w.duckdb")
    seen: list[int] = []
    stop = threading.Event()
    with Store(db) as store:
        def between(report: object) -> None:
            seen.append(1)

        watch(store, [str(tmp_path)], 0.0, stop, between, pytest.fail, max_passes=2)
        assert seen == [1] and not store.holds_file  # released after its pass
        with duckdb.connect(db, read_only=True) as reader:
            assert reader.execute("SELECT count(*) FROM hands").fetchall() == [(3,)]


# ------------------------------------------------------------------ naming the holder


MESSAGE = ('IO Error: Could not set lock on file "{path}": Conflicting lock is held in /usr/bin/python3.12 (PID {pid}).'
           '{hint} See also https://duckdb.org/docs/current/connect/concurrency')
HINT = " However, you would be able to open this database in read-only mode, e.g. by using the -readonly parameter."


def test_the_holder_is_read_from_duckdbs_message_and_the_pid(tmp_path: Path) -> None:
    db = str(tmp_path / "lock (PID 7).duckdb")  # the path says nothing: it is cut out first
    mine = os.getpid()
    holder = holder_of(RuntimeError(MESSAGE.format(path=db, pid=mine, hint="")), db, read_only=True)
    assert holder is not None and (holder.pid, holder.program, holder.writing) == (mine, "/usr/bin/python3.12", True)
    if Path("/proc/self/cmdline").exists():  # this very process's command line (pytest's, or an xdist worker's)
        own = [part.decode() for part in Path("/proc/self/cmdline").read_bytes().split(b"\0") if part]
        assert list(holder.argv) == own and any("python" in part for part in own), holder.argv
    reading = holder_of(RuntimeError(MESSAGE.format(path=db, pid=mine, hint=HINT)), db, read_only=False)
    assert reading is not None and not reading.writing and reading.doing() == "is reading it"
    assert holder_of(RuntimeError(f'IO Error: Could not open "{db}"'), db, read_only=True) is None
    gone = holder_of(RuntimeError(MESSAGE.format(path=db, pid=2 ** 22 + 17, hint="")), db, read_only=True)
    assert gone is not None and gone.describe() == f"another program (/usr/bin/python3.12, PID {2 ** 22 + 17})"


@pytest.mark.parametrize(("argv", "writing", "described", "doing"), [
    (("/home/u/.local/bin/hhtool", "import", "--watch", "hands"), True,
     "an import (hhtool import --watch hands, PID 9)", "is writing a batch"),
    (("/usr/bin/python3", "-m", "hhtool", "--db", "x.duckdb", "import", "a b.txt"), True,
     "an import (hhtool --db x.duckdb import 'a b.txt', PID 9)", "is writing a batch"),
    (("hhtool", "stats", "--player", "Hero"), False, "a reader (hhtool stats --player Hero, PID 9)", "is reading it"),
    (("duckdb", "hands.duckdb"), True, "another program (duckdb hands.duckdb, PID 9)", "has it open for writing"),
    (("hhtool", "sql", "SELECT 1\n[red]x" + "y" * 80), False,
     "a reader (hhtool sql 'SELECT 1?[red]x" + "y" * 32 + "…, PID 9)", "is reading it"),
])
def test_the_holder_is_named_by_its_command(argv: tuple[str, ...], writing: bool, described: str, doing: str) -> None:
    holder = Holder(9, argv[0], argv, writing)
    assert (holder.describe(), holder.doing()) == (described, doing)


def test_a_watch_pass_kept_out_of_the_store_is_told_and_the_file_read_at_the_next_poll(tmp_path: Path) -> None:
    from hhtool.ingest.watch import watch

    folder = tmp_path / "live"
    folder.mkdir()
    (folder / "a.txt").write_text(numbered_hands(3))
    db = str(tmp_path / "w.duckdb")
    locked: list[str] = []
    reports: list[object] = []
    with Store(db, lock_timeout=0.3) as store:
        store.share_between_batches()
        store.release()
        holder = hold_for_reading(db, 60)
        try:
            watch(store, [str(folder)], 0.0, threading.Event(), reports.append, pytest.fail, max_passes=1,
                  on_locked=locked.append)
        finally:
            holder.kill()
            holder.wait()
        assert reports == [] and len(locked) == 1
        assert locked[0].startswith(f"{folder / 'a.txt'}: could not write database {db}: another program (")
        assert locked[0].endswith("; it is read again at the next poll")
        watch(store, [str(folder)], 0.0, threading.Event(), reports.append, pytest.fail, max_passes=1)
        assert len(reports) == 1 and store.run("SELECT count(*) FROM hands") == [(3,)]
