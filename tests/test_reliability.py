"""Reliability: watch mode, concurrent imports, crash safety (SIGKILL), hostile input."""

from __future__ import annotations

import gzip
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
import zipfile
from collections import Counter
from pathlib import Path

import duckdb
import pytest

from hhtool.ingest import sources
from hhtool.ingest.loader import import_sources
from hhtool.ingest.sources import collect_sources
from hhtool.ingest.watch import watch
from hhtool.store import Store
from tests.test_site_pokerstars import ALLIN_SIDE_POT, SPLIT_HAND

HHTOOL = [sys.executable, "-m", "hhtool"]
#: hhtool writing a file in many transactions (300 hands each), so that an interruption falls inside a file
HHTOOL_SMALL_WRITES = [sys.executable, "-c", "import hhtool.ingest.files as f, hhtool.ingest.writer as w\n"
                       "w.WRITE_HANDS = 300; f.BATCH_HANDS = 100\n"
                       "from hhtool.store import Store\nwrite = Store.write_tables\n"
                       "def told(self, *a, **k):\n    write(self, *a, **k)\n    print('written', flush=True)\n"
                       "Store.write_tables = told\nfrom hhtool.cli import app\napp()"]
#: hhtool writing in many transactions, killing itself (SIGKILL) once its last batch is committed, before the
#: facts step: the test hook hhtool.ingest.loader.before_facts_step installed (production code has no switch)
HHTOOL_KILLED_BEFORE_FACTS = [sys.executable, "-c", "import os, signal\n"
                              "import hhtool.ingest.files as f, hhtool.ingest.writer as w, hhtool.ingest.loader as l\n"
                              "w.WRITE_HANDS = 300; f.BATCH_HANDS = 100\n"
                              "l.before_facts_step = lambda: os.kill(os.getpid(), signal.SIGKILL)\n"
                              "from hhtool.cli import app\napp()"]
#: hhtool writing in many transactions, saying nothing more
HHTOOL_SMALL_BATCHES = [sys.executable, "-c", "import hhtool.ingest.files as f, hhtool.ingest.writer as w\n"
                       "w.WRITE_HANDS = 300; f.BATCH_HANDS = 100\n"
                        "from hhtool.cli import app\napp()"]


def numbered_hands(count: int, start: int = 1) -> str:
    return "\n\n\n".join(SPLIT_HAND.replace("35874576282", str(900000 + n)) for n in range(start, start + count))


def run_hhtool(*args: str, env: dict[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*HHTOOL, *args], capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})}, check=False)


def table_digest(db: str) -> tuple[object, ...]:
    con = duckdb.connect(db, read_only=True)
    try:
        return tuple(con.execute(sql).fetchall()[0] for sql in (
            "SELECT count(*), sum(hash(site || hand_id)) FROM hands",
            "SELECT count(*), sum(amount), sum(hash(hand_id || player || seq)) FROM actions",
            "SELECT count(*), sum(net) FROM results",
            "SELECT count(*) FROM seats",
            "SELECT count(*) FROM cards",
            "SELECT count(*), sum(amount) FROM awards",
        ))
    finally:
        con.close()


def every_table(con: duckdb.DuckDBPyConnection) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table, sorted, timestamps of the import left out. Floating-point sums (the
    stats facts' big bets per day) are rounded: DuckDB adds them up in no fixed order. The per-hand
    tables are read through their views, and a hand's number (``hk``, which may skip numbers where
    a resumed import left some out) as the hand's (site, hand_id): the identity the tables must agree on."""
    names = [row[0] for row in con.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'").fetchall()]
    rows = {}
    for name in sorted(names):
        if name == "schema_version":
            continue
        columns = con.execute(
            "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = ? "
            "AND table_schema = 'main' ORDER BY ordinal_position", [name]).fetchall()
        listed = ", ".join(f'round(x."{column}", 9)' if kind in ("DOUBLE", "FLOAT") else f'x."{column}"'
                           for column, kind in columns if column not in ("imported_at", "applied_at", "hk"))
        source = f'"{name}" x'
        if name != "hands" and any(column == "hk" for column, _ in columns):
            listed, source = f"h.site, h.hand_id{', ' if listed else ''}{listed}", f'"{name}" x JOIN hands h USING (hk)'
        rows[name] = sorted(con.execute(f"SELECT {listed} FROM {source}").fetchall(), key=repr)
    return rows


def assert_same_tables(got: dict[str, list[tuple[object, ...]]], want: dict[str, list[tuple[object, ...]]]) -> None:
    """Table by table, naming the rows that differ."""
    assert sorted(got) == sorted(want)
    for name in want:
        if got[name] != want[name]:
            extra, missing = Counter(got[name]) - Counter(want[name]), Counter(want[name]) - Counter(got[name])
            pytest.fail(f"{name}: {len(got[name])} rows for {len(want[name])}; extra {list(extra)[:2]}; "
                        f"missing {list(missing)[:2]}")


def tables_of(db: str) -> dict[str, list[tuple[object, ...]]]:
    con = duckdb.connect(db, read_only=True)
    try:
        return every_table(con)
    finally:
        con.close()


# ------------------------------------------------------------------ watch mode


@pytest.mark.slow
def test_watch_accounts_for_a_half_written_hand_on_every_pass_like_import(tmp_path: Path) -> None:
    folder = tmp_path / "live"
    folder.mkdir()
    history = folder / "table.txt"
    lines = SPLIT_HAND.splitlines(keepends=True)
    history.write_text("".join(lines[:30]))  # the client is still writing the first hand
    reports = []
    with Store(":memory:") as store:
        stop = threading.Event()
        watch(store, [str(folder)], 0.01, stop, reports.append, pytest.fail, max_passes=1)
        assert reports[-1].file_totals() == {"hands_found": 1, "stored": 0, "duplicates": 0, "skipped": 0, "failed": 0,
                                             "incomplete": 1}  # counted, kept raw, not a failure
        assert store.run("SELECT kind FROM import_errors") == [("ends_early",)]
        history.write_text("".join(lines) + "\n\n" + ALLIN_SIDE_POT[:200])  # first done, second begun
        time.sleep(0.01)
        watch(store, [str(folder)], 0.01, stop, reports.append, pytest.fail, max_passes=1)
        assert reports[-1].status == "grown" and reports[-1].balanced()
        assert reports[-1].file_totals() == {"hands_found": 2, "stored": 1, "duplicates": 0, "skipped": 0, "failed": 0,
                                             "incomplete": 1}
        assert store.run("SELECT first_line FROM import_errors") == [(55,)]  # the first hand's row is gone
        history.write_text("".join(lines) + "\n\n" + ALLIN_SIDE_POT)
        watch(store, [str(folder)], 0.01, stop, reports.append, pytest.fail, max_passes=1)
        assert (reports[-1].status, reports[-1].stored) == ("grown", 1)
        assert reports[-1].file_totals() == {"hands_found": 2, "stored": 2, "duplicates": 0, "skipped": 0, "failed": 0,
                                             "incomplete": 0}
        watched = every_table(store.con)
    with Store(":memory:") as store:  # the same tables as one import of the finished file
        import_sources(store, collect_sources([str(history)]).sources)
        assert every_table(store.con) == watched


def stop_watch_after_files(process: subprocess.Popen[str], names: set[str], timeout: float = 120) -> tuple[str, str]:
    """Ctrl-C to a running `import --watch` once its first pass reported each file of ``names`` (its
    line ``<path>: N hands found …``), not after a fixed sleep, which a loaded machine outruns;
    (stdout, stderr) of the whole run."""
    assert process.stdout is not None
    seen: list[str] = []
    reported: set[str] = set()
    done = threading.Event()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            seen.append(line)
            reported.update(name for name in names if f"{name}: " in line)
            if reported == names:
                done.set()
                return

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    assert done.wait(timeout), f"the watch did not report {sorted(names - reported)}: {''.join(seen)}"
    time.sleep(0.3)  # into the next poll: the pass that reported them has finished
    process.send_signal(signal.SIGINT)
    # the rest through the same buffered pipe objects the reader used: communicate() reads the raw
    # pipes and would miss what the reader's iteration had already buffered
    rest = process.stdout.read()
    stderr = process.stderr.read() if process.stderr is not None else ""
    process.wait(timeout=60)
    return "".join(seen) + rest, stderr


@pytest.mark.slow
def test_watch_stops_cleanly_on_ctrl_c(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(SPLIT_HAND)
    db = str(tmp_path / "w.duckdb")
    process = subprocess.Popen([*HHTOOL, "import", "--watch", str(tmp_path), "--interval", "0.1", "--db", db],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    assert "watching" in process.stderr.readline()  # the store is open and polling has begun
    stdout, stderr = stop_watch_after_files(process, {"a.txt"})
    assert process.returncode == 130, stderr  # Ctrl-C
    assert "Traceback" not in stderr
    assert "stopped: 1 hands found = 1 stored" in stdout
    assert table_digest(db)[0][0] == 1


@pytest.mark.slow
def test_watch_reports_a_truncated_last_hand_that_never_completes_when_it_stops(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(SPLIT_HAND + "\n\n" + "\n".join(ALLIN_SIDE_POT.splitlines()[:10]) + "\n")
    (tmp_path / "b.txt").write_text(SPLIT_HAND.replace("35874576282", "77") + "\n\nleft here by an editor\n")
    db = str(tmp_path / "t.duckdb")
    process = subprocess.Popen([*HHTOOL, "import", "--watch", str(tmp_path), "--interval", "0.1", "--db", db],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    assert "watching" in process.stderr.readline()
    stdout, stderr = stop_watch_after_files(process, {"a.txt", "b.txt"})
    assert process.returncode == 130 and "Traceback" not in stderr, stderr  # Ctrl-C
    assert "stopped: 4 hands found = 2 stored + 0 duplicates + 0 skipped + 1 failed + 1 incomplete" in stdout
    told = stdout.strip().splitlines()  # the hand still cut off, then the whole watch's line, last
    assert "incomplete" in told[-2] and "a.txt:" in told[-2] and told[-1].startswith("stopped:")
    assert "failed" in stdout and "left here by an editor" in stdout  # the stray line, on its pass


# ------------------------------------------------------------------ concurrency


@pytest.mark.slow
def test_a_second_writer_waits_then_fails_clearly_and_nothing_is_written(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(numbered_hands(3))
    db = str(tmp_path / "c.duckdb")
    holder = subprocess.Popen([sys.executable, "-c", f"import duckdb,time; c=duckdb.connect({db!r}); print('held', flush=True);"
                               " time.sleep(30)"], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        started = time.monotonic()
        result = run_hhtool("import", str(tmp_path / "a.txt"), "--db", db, env={"HHTOOL_LOCK_TIMEOUT": "1"})
        assert result.returncode == 3  # the store could not be written
        assert f"(to write it): another program ({sys.executable} -c" in result.stderr
        assert f"PID {holder.pid}) kept it locked for 1 s; nothing was written" in result.stderr
        assert time.monotonic() - started >= 1.0  # it waited before giving up
    finally:
        holder.kill()
        holder.wait()
    result = run_hhtool("import", str(tmp_path / "a.txt"), "--db", db)
    assert result.returncode == 0 and table_digest(db)[0][0] == 3


@pytest.mark.slow
def test_two_imports_at_once_store_each_hand_once(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(numbered_hands(300))
    (tmp_path / "b.txt").write_text(numbered_hands(300, start=151))  # half overlaps a.txt
    db = str(tmp_path / "two.duckdb")
    first = subprocess.Popen([*HHTOOL, "import", str(tmp_path / "a.txt"), "--db", db], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    second = subprocess.Popen([*HHTOOL, "import", str(tmp_path / "b.txt"), "--db", db], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    assert first.wait(timeout=120) == 0 and second.wait(timeout=120) == 0, (first.stderr, second.stderr)
    assert table_digest(db)[0][0] == 450
    one_by_one = str(tmp_path / "one.duckdb")  # every table as importing the two files in some order
    assert run_hhtool("import", str(tmp_path / "a.txt"), str(tmp_path / "b.txt"), "--db", one_by_one).returncode == 0
    other_order = str(tmp_path / "other.duckdb")
    assert run_hhtool("import", str(tmp_path / "b.txt"), str(tmp_path / "a.txt"), "--db", other_order).returncode == 0
    assert tables_of(db) in (tables_of(one_by_one), tables_of(other_order))


@pytest.mark.slow
def test_two_imports_of_one_file_at_once_both_finish_and_store_each_hand_once(tmp_path: Path) -> None:
    """#28 item 8: each import looks up which hands are stored, then lets go of the store while it
    parses, so the other may store them meanwhile; its insert broke the hands' key (exit 3). Both
    finish, the hands the other stored counted (here as stored before: the same place of the same
    file), and every table is that of one import."""
    history = tmp_path / "a.txt"
    history.write_text(history_with_every_outcome(900))
    db = str(tmp_path / "twice.duckdb")
    runs = [subprocess.Popen([*HHTOOL_SMALL_BATCHES, "import", "-j", "1", "--format", "json", str(history), "--db", db],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outputs = [run.communicate(timeout=300) for run in runs]
    assert [run.returncode for run in runs] == [1, 1], [error[-400:] for _, error in outputs]  # (the broken hand)
    reference = str(tmp_path / "reference.duckdb")
    alone = run_hhtool("import", "--format", "json", str(history), "--db", reference)
    assert alone.returncode == 1
    want = json.loads(alone.stdout)["files"][0]
    summaries = [json.loads(out)["files"][0] for out, _ in outputs]
    for summary in summaries:  # found = stored + duplicates + skipped + failed + incomplete, in both
        assert summary["hands_found"] == sum(summary[name] for name in
                                             ("stored", "duplicates", "skipped", "failed", "incomplete")), summary
        assert summary["hands_found"] + summary["already_stored"] == want["hands_found"]  # what the file holds
    assert sum(summary["stored"] for summary in summaries) == want["stored"] == 900  # each hand by one of them
    assert_same_tables(tables_of(db), tables_of(reference))


def test_a_ctrl_c_while_duckdb_reads_a_batch_is_an_interrupt() -> None:
    """DuckDB reports a Ctrl-C that arrives while it reads a registered Arrow table as its own error
    (seen in 2 of 18 Ctrl-Cs of two imports at once: exit 4, "internal error"): it is an interrupt."""
    from hhtool.cli.common import EXIT_INTERRUPTED, failure
    from hhtool.store import raise_if_interrupted

    seen = duckdb.InvalidInputException("Invalid Input Error: counting the rows of the object registered as "
                                        "'awards' failed: KeyboardInterrupt: ")
    with pytest.raises(KeyboardInterrupt) as raised:
        raise_if_interrupted(seen)
    assert failure(raised.value)[0] == EXIT_INTERRUPTED
    raise_if_interrupted(duckdb.InvalidInputException("Invalid Input Error: no such column"))  # others stay


# ------------------------------------------------------------------ crash safety


def history_with_every_outcome(count: int) -> str:
    """Numbered hands with a failed hand, a repeat, an edited copy and a stray line among them (in
    the middle, so that an interrupted import has stored some), and a truncated last hand."""
    half = count // 2
    broken = SPLIT_HAND.replace("35874576282", "1").replace("Hero: folds", "Hero: teleports")
    edited = SPLIT_HAND.replace("35874576282", str(900002)).replace("won ($0.37)", "won ($0.38)")
    return "\n\n\n".join([numbered_hands(half), broken, numbered_hands(1, 5), edited + "\n\na note left in the file",
                            numbered_hands(count - half, half + 1), SPLIT_HAND.replace("35874576282", "2")[:900]])


@pytest.mark.slow
def test_sigkill_at_random_points_leaves_a_consistent_store_and_a_rerun_completes(tmp_path: Path) -> None:
    history = tmp_path / "big.txt"
    history.write_text(history_with_every_outcome(4000))
    reference = str(tmp_path / "reference.duckdb")
    assert run_hhtool("import", str(history), "--db", reference).returncode == 1
    db = str(tmp_path / "killed.duckdb")
    rng = random.Random(7)
    for _ in range(3):
        process = subprocess.Popen([*HHTOOL_SMALL_WRITES, "import", "-j", "1", str(history), "--db", db],
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        assert process.stdout is not None
        for _ in range(rng.randint(1, 5)):  # killed after some transactions, inside the file
            process.stdout.readline()
        time.sleep(rng.uniform(0, 0.3))
        process.send_signal(signal.SIGKILL)
        process.wait()
        if not Path(db).exists():
            continue
        con = duckdb.connect(db, read_only=True)  # it opens, and no hand is half-stored
        try:
            hands = con.execute("SELECT count(*) FROM hands").fetchall()[0][0]
            assert con.execute("SELECT count(*) FROM results").fetchall()[0][0] == 3 * hands
            assert con.execute("SELECT count(*) FROM actions").fetchall()[0][0] == 20 * hands
            orphans = "SELECT count(*) FROM actions a ANTI JOIN hands h ON a.site = h.site AND a.hand_id = h.hand_id"
            assert con.execute(orphans).fetchall()[0][0] == 0
        finally:
            con.close()
    assert run_hhtool("import", str(history), "--db", db).returncode == 1  # the broken hand and the stray line
    assert_same_tables(tables_of(db), tables_of(reference))  # every table, import errors and files included


@pytest.mark.slow
def test_a_full_disk_interrupts_and_a_rerun_gives_the_tables_of_an_uninterrupted_import(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.txt").write_text(history_with_every_outcome(1200))
    for index in (1, 2):
        (folder / f"b{index}.txt").write_text(numbered_hands(1200, 2000 * index))
    reference = str(tmp_path / "reference.duckdb")
    run_hhtool("import", str(folder), "--db", reference)
    db = str(tmp_path / "full.duckdb")
    # the shell's file-size limit makes a write fail, as a full disk would (no root needed): inside the first file,
    # so that the rerun reads it again and reports its failures (2 MB: 600 of its hands stored with 64 KiB blocks;
    # 1.8-2.2 MB stop there alike)
    full = subprocess.run(["bash", "-c", 'ulimit -f 2000; exec "$@"', "hhtool", *HHTOOL_SMALL_WRITES, "import", "-j", "1",
                           str(folder), "--db", db], capture_output=True, text=True, timeout=300, check=False)
    interrupted = tables_of(db)
    assert full.returncode != 0 and 0 < len(interrupted["hands"]) < 3600, full.stderr[-500:]
    assert len(interrupted["hands"]) % 1200 != 0  # it stopped inside a file
    assert run_hhtool("import", str(folder), "--db", db).returncode == 1
    assert_same_tables(tables_of(db), tables_of(reference))


# ------------------------------------------------------------------ hostile input


def test_archives_are_read_within_limits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with gzip.open(tmp_path / "a.txt.gz", "wt") as stream:
        stream.write(SPLIT_HAND)
    with zipfile.ZipFile(tmp_path / "b.zip", "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("inner/c.txt", ALLIN_SIDE_POT)
        archive.writestr("inner/bomb.txt", "0" * 200_000)
    monkeypatch.setattr(sources, "MAX_EXPANDED_BYTES", 100_000)
    collected = collect_sources([str(tmp_path)])
    with Store(":memory:") as store:
        report = import_sources(store, collected.sources, store_facts=False)
    assert report.total("stored") == 2
    assert len(report.unreadable) == 1 and "bomb.txt" in report.unreadable[0] and "refused" in report.unreadable[0]
    monkeypatch.setattr(sources, "MAX_ZIP_MEMBERS", 1)
    collected = collect_sources([str(tmp_path / "b.zip")])
    assert not collected.sources and "more than the 1 allowed" in collected.problems[0]


def test_symlink_loops_dangling_links_and_unreadable_files_are_reported_not_fatal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "good.txt").write_text(SPLIT_HAND)
    (tmp_path / "loop.txt").symlink_to(tmp_path / "loop.txt")
    (tmp_path / "dangling.txt").symlink_to(tmp_path / "missing.txt")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "up").symlink_to(tmp_path, target_is_directory=True)  # a folder loop: not followed
    collected = collect_sources([str(tmp_path), str(tmp_path / "good.txt")])  # the same file twice
    assert [s.fs_path.name for s in collected.sources] == ["good.txt"]
    assert len(collected.problems) == 2
    original = os.open

    def unreadable(path: Path, flags: int, *args: int) -> int:
        if Path(path).name == "good.txt":
            raise PermissionError(13, "Permission denied")
        return original(path, flags, *args)

    monkeypatch.setattr(os, "open", unreadable)
    with Store(":memory:") as store:
        report = import_sources(store, collected.sources, store_facts=False)
    assert report.unreadable == [f"{(tmp_path / 'good.txt').resolve()}: cannot read: Permission denied"]


@pytest.mark.slow
def test_cli_reports_unreadable_paths_with_exit_1(tmp_path: Path) -> None:
    (tmp_path / "good.txt").write_text(SPLIT_HAND)
    (tmp_path / "loop.txt").symlink_to(tmp_path / "loop.txt")
    result = run_hhtool("import", str(tmp_path), "--db", ":memory:")
    assert result.returncode == 1
    assert "1 stored" in result.stdout and "unreadable" in result.stdout and "loop.txt" in result.stdout
