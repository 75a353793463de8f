"""Exit codes and messages tell the truth: a damaged or truncated database, a newer schema, a bad
$HHTOOL_* value, a full disk, Ctrl-C and a locked store each end with one line (no traceback) and
their own code (0 ok, 1 some hands failed, 2 usage, 3 the store could not be read or written,
4 internal error, 130 interrupted), for every command."""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.cli.common import EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_STORE, EXIT_USAGE
from hhtool.store.schema import CURRENT_VERSION
from tests import inputs

runner = CliRunner()
HHTOOL = [sys.executable, "-m", "hhtool"]
SAMPLES = inputs.SAMPLES / "pokerstars"
A_HAND_ID = "900000000001"  # in sample_histories/pokerstars

#: every command that reads the store, as a user would run it (the --db option is added)
READERS: dict[str, list[str]] = {
    "stats": ["stats"],
    "show": ["show", A_HAND_ID],
    "sql": ["sql", "SELECT count(*) FROM hands"],
    "graph": ["graph", "--out", "{tmp}/w.html", "--player", "Hero"],
    "audit": ["audit"],
    "violations": ["violations"],
    "export": ["export", "{tmp}/parquet"],
    "export-phh": ["export", "--format", "phh", "--out", "{tmp}/all.phhs"],
}
WRITERS: dict[str, list[str]] = {
    "import": ["import", str(SAMPLES), "--jobs", "1"],
    "audit-path": ["audit", str(SAMPLES)],
}


def invoke(args: list[str], db: Path | str, tmp: Path, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, [*(arg.format(tmp=tmp) for arg in args), "--db", str(db)], env=env)
    return result.exit_code, result.stdout, result.stderr


def one_line(stderr: str, *words: str) -> None:
    assert "Traceback" not in stderr
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr
    for word in words:
        assert word in lines[0], stderr


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory, pokerstars_samples_store: Path) -> Path:
    """This module's copy of the store of the PokerStars sample histories."""
    return inputs.copy_store(pokerstars_samples_store, tmp_path_factory.mktemp("store") / "real.duckdb")


def every_table(db: Path | str) -> dict[str, tuple[object, ...]]:
    """Row count and content hash of every table, columns stamped with the time of writing left out.
    The per-hand tables are read through their views (main schema), and a hand's store key (``hk``,
    which may skip numbers where a re-run left some out) as the hand's (site, hand_id)."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        digest = {}
        for (table,) in con.execute("SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main' UNION ALL "
                                    "SELECT view_name FROM duckdb_views() WHERE schema_name = 'main' AND NOT internal "
                                    "ORDER BY 1").fetchall():
            found = con.execute("SELECT column_name, column_default FROM duckdb_columns() WHERE table_name = ? "
                                "AND schema_name = 'main' ORDER BY column_index", [table]).fetchall()
            columns = [f'x."{name}"' for name, default in found
                       if "current_timestamp" not in str(default or "").lower() and name != "hk"]
            if table == "schema_version":
                columns = ['x."version"']
            source = f"{table} x"
            if table != "hands" and any(name == "hk" for name, _ in found):
                columns, source = ["h.site", "h.hand_id", *columns], f"{table} x JOIN hands h USING (hk)"
            listed = ", ".join(columns)
            digest[table] = con.execute(f"SELECT count(*), sum(hash(row({listed}))) FROM {source}").fetchall()[0]
        return digest
    finally:
        con.close()


# ------------------------------------------------------------------ damaged databases


@pytest.mark.slow
@pytest.mark.parametrize("command", [*READERS, *WRITERS])
def test_a_store_cut_in_half_is_exit_3_for_every_command(store: Path, tmp_path: Path, command: str) -> None:
    cut = tmp_path / "cut.duckdb"
    data = store.read_bytes()
    cut.write_bytes(data[: len(data) // 2])
    code, stdout, stderr = invoke({**READERS, **WRITERS}[command], cut, tmp_path)
    assert code == EXIT_STORE, (stdout, stderr)
    one_line(stderr, "error:", str(cut), "truncated")


@pytest.mark.parametrize("command", [*READERS, *WRITERS])
def test_a_garbage_file_as_database_is_exit_3_for_every_command(tmp_path: Path, command: str) -> None:
    garbage = tmp_path / "notes.duckdb"
    garbage.write_bytes(b"these are my notes, not a database\n" * 200)
    code, stdout, stderr = invoke({**READERS, **WRITERS}[command], garbage, tmp_path)
    assert code == EXIT_STORE, (stdout, stderr)
    one_line(stderr, "damaged or not a DuckDB database", str(garbage))
    assert garbage.read_bytes() == b"these are my notes, not a database\n" * 200


def test_a_duckdb_file_that_is_not_an_hhtool_store_is_exit_3_for_readers(tmp_path: Path) -> None:
    foreign = tmp_path / "foreign.duckdb"
    con = duckdb.connect(str(foreign))
    con.execute("CREATE TABLE mine AS SELECT 1 AS x").fetchall()
    con.close()
    code, _, stderr = invoke(READERS["stats"], foreign, tmp_path)
    assert code == EXIT_STORE
    one_line(stderr, "not an hhtool store")


@pytest.mark.parametrize("command", [*READERS, *WRITERS])
def test_a_newer_schema_is_exit_3_for_every_command_readers_included(store: Path, tmp_path: Path, command: str) -> None:
    newer = tmp_path / "newer.duckdb"
    newer.write_bytes(store.read_bytes())
    con = duckdb.connect(str(newer))
    con.execute("INSERT INTO schema_version VALUES (?, current_timestamp)", [CURRENT_VERSION + 1]).fetchall()
    con.close()
    code, stdout, stderr = invoke({**READERS, **WRITERS}[command], newer, tmp_path)
    assert code == EXIT_STORE, (stdout, stderr)
    one_line(stderr, f"schema version {CURRENT_VERSION + 1}", "newer than this hhtool")


@pytest.mark.slow
def test_the_same_commands_succeed_on_the_intact_store(store: Path, tmp_path: Path) -> None:
    """The counterpart of the above: on the store they were cut from, every command works."""
    for command, args in {**READERS, **WRITERS}.items():
        copy = tmp_path / f"{command}.duckdb"
        copy.write_bytes(store.read_bytes())
        code, stdout, stderr = invoke(args, copy, tmp_path)
        assert code in (0, 1), (command, stdout, stderr)


# ------------------------------------------------------------------ a store that is not there


@pytest.mark.parametrize("command", READERS)
def test_a_reader_on_a_missing_store_says_so_and_creates_nothing(tmp_path: Path, command: str) -> None:
    missing = tmp_path / "not" / "yet" / "hands.duckdb"
    code, stdout, stderr = invoke(READERS[command], missing, tmp_path)
    assert code == EXIT_STORE, (stdout, stderr)
    one_line(stderr, f"no database at {missing} yet: run `hhtool import PATH` first")
    assert not (tmp_path / "not").exists()


# ------------------------------------------------------------------ bad settings


@pytest.mark.parametrize("value", ["abc", "-1", "nan", "inf", "10s"])
def test_a_bad_lock_timeout_is_a_usage_error(store: Path, tmp_path: Path, value: str) -> None:
    for args in (READERS["stats"], WRITERS["import"]):
        code, stdout, stderr = invoke(args, store, tmp_path, env={"HHTOOL_LOCK_TIMEOUT": value})
        assert code == EXIT_USAGE, (stdout, stderr)
        one_line(stderr, "$HHTOOL_LOCK_TIMEOUT", repr(value))


def test_a_bad_import_memory_is_a_usage_error_before_the_store_is_created(tmp_path: Path) -> None:
    db = tmp_path / "never.duckdb"
    code, stdout, stderr = invoke(WRITERS["import"], db, tmp_path, env={"HHTOOL_IMPORT_MEMORY": "lots"})
    assert code == EXIT_USAGE, (stdout, stderr)
    one_line(stderr, "$HHTOOL_IMPORT_MEMORY", "not a memory size: 'lots'")
    assert not db.exists()


def test_hhtool_db_naming_a_folder_is_a_usage_error(tmp_path: Path) -> None:
    for args in (READERS["stats"], WRITERS["import"]):
        result = runner.invoke(app, args, env={"HHTOOL_DB": str(tmp_path)})
        assert result.exit_code == EXIT_USAGE, result.output
        one_line(result.stderr, "$HHTOOL_DB", "is a folder", "hhtool.duckdb")


@pytest.mark.slow
def test_an_empty_hhtool_db_means_the_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    result = runner.invoke(app, ["import", str(SAMPLES), "--jobs", "1"], env={"HHTOOL_DB": ""})
    assert result.exit_code == 0 and (tmp_path / "data" / "hhtool" / "hhtool.duckdb").exists(), result.output


# ------------------------------------------------------------------ "lock" in a path is not a lock


@pytest.mark.parametrize("folder", ["blockchain", "lockers", "deadlock"])
def test_a_path_containing_lock_is_not_taken_for_a_lock_conflict(tmp_path: Path, folder: str) -> None:
    garbage = tmp_path / folder / "lock.duckdb"
    garbage.parent.mkdir()
    garbage.write_bytes(b"x" * 10_000)
    started = time.monotonic()
    code, _, stderr = invoke(READERS["stats"], garbage, tmp_path)  # the default lock timeout is 30 s
    assert code == EXIT_STORE and time.monotonic() - started < 10
    one_line(stderr, "damaged or not a DuckDB database")
    assert "in use" not in stderr and "waiting" not in stderr
    code, _, stderr = invoke(READERS["sql"], tmp_path / folder / "lockers.duckdb", tmp_path)
    assert code == EXIT_STORE
    one_line(stderr, "no database at")


def hold(db: Path) -> subprocess.Popen[str]:
    holder = subprocess.Popen([sys.executable, "-c", f"import duckdb, time; c = duckdb.connect({str(db)!r}); "
                               "print('held', flush=True); time.sleep(60)"], stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    return holder


@pytest.mark.slow
def test_a_locked_store_with_lock_in_its_path_is_still_a_lock_and_readers_wait_to_read(store: Path,
                                                                                       tmp_path: Path) -> None:
    db = tmp_path / "lockbox" / "locked.duckdb"
    db.parent.mkdir()
    db.write_bytes(store.read_bytes())
    holder = hold(db)
    try:
        for name in ("stats", "show", "sql", "violations", "export", "audit"):
            started = time.monotonic()
            code, _, stderr = invoke(READERS[name], db, tmp_path, env={"HHTOOL_LOCK_TIMEOUT": "0.5"})
            assert code == EXIT_STORE, (name, stderr)
            assert time.monotonic() - started >= 0.5
            assert "(to read it): another program" in stderr and "error: could not read database" in stderr, (name, stderr)
            assert f"PID {holder.pid}) kept it locked for 0.5 s" in stderr
            assert "nothing was written" not in stderr and "Traceback" not in stderr
        code, _, stderr = invoke(WRITERS["import"], db, tmp_path, env={"HHTOOL_LOCK_TIMEOUT": "0.5"})
        assert code == EXIT_STORE
        assert "(to write it): another program" in stderr and "nothing was written" in stderr, stderr
    finally:
        holder.kill()
        holder.wait()


# ------------------------------------------------------------------ an unexpected error


def test_an_unexpected_error_is_one_line_and_exit_4(store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import hhtool.service.reports

    def broken(*args: object, **kwargs: object) -> None:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(hhtool.service.reports, "player_stats", broken)
    code, _, stderr = invoke(READERS["stats"], store, tmp_path)
    assert code == EXIT_INTERNAL
    one_line(stderr, "internal error: ZeroDivisionError: a bug", "HHTOOL_DEBUG=1")


# ------------------------------------------------------------------ subprocesses: a full disk, Ctrl-C


def simulated_folder(folder: Path, files: int, hands: int) -> Path:
    folder.mkdir()
    for seed in range(files):
        assert runner.invoke(app, ["simulate", "--hands", str(hands), "--seed", str(seed + 1),
                                   "--out", str(folder / f"table-{seed}.txt")]).exit_code == 0
    return folder


def run(*args: str, limit_kib: int | None = None, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    command = shlex.join([*HHTOOL, *args])
    if limit_kib is not None:  # a file-size limit: each write past it fails as on a full disk (EFBIG)
        command = f"ulimit -f {limit_kib}; exec {command}"
    return subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=timeout, check=False)


@pytest.mark.slow
def test_a_full_disk_is_exit_3_says_what_was_stored_and_a_rerun_completes_it(tmp_path: Path) -> None:
    histories = simulated_folder(tmp_path / "histories", files=4, hands=150)
    db, fresh = tmp_path / "full.duckdb", tmp_path / "fresh.duckdb"
    # (the first file's transaction fits, a later one does not: its log, facts and door sums included, ≈ 2,000 KiB)
    full = run("import", str(histories), "--db", str(db), "--jobs", "1", limit_kib=2500)
    assert full.returncode == EXIT_STORE, (full.stdout, full.stderr)
    one_line(full.stderr, "disk full (or file size limit)", "File too large", "hands were stored before that",
             "run the same command again to resume")
    stored = int(full.stderr.split(" hands were stored")[0].rsplit(" ", 1)[1].replace(",", ""))
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT count(*) FROM hands").fetchall()[0][0] == stored > 0  # what it said it kept
    con.close()
    again = run("import", str(histories), "--db", str(db), "--jobs", "1")
    assert again.returncode == 0, again.stderr
    assert run("import", str(histories), "--db", str(fresh), "--jobs", "1").returncode == 0
    assert every_table(db) == every_table(fresh)


@pytest.mark.slow
def test_ctrl_c_during_an_import_is_130_says_what_was_stored_and_a_rerun_equals_an_uninterrupted_import(
        tmp_path: Path) -> None:
    histories = simulated_folder(tmp_path / "histories", files=6, hands=150)
    db, fresh = tmp_path / "interrupted.duckdb", tmp_path / "fresh.duckdb"
    process = subprocess.Popen([*HHTOOL, "import", str(histories), "--db", str(db), "--jobs", "1"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    wal = Path(f"{db}.wal")
    deadline = time.monotonic() + 120
    while not (wal.exists() and wal.stat().st_size > 100_000) and process.poll() is None \
            and time.monotonic() < deadline:  # (creating the schema writes a few kilobytes; a file's hands, more)
        time.sleep(0.02)
    os.killpg(process.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole process group
    stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == EXIT_INTERRUPTED, (stdout, stderr)
    one_line(stderr, "interrupted;", "hands were stored before that", "run the same command again to resume")
    stored = int(stderr.split(" hands were stored")[0].rsplit(" ", 1)[1].replace(",", ""))
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT count(*) FROM hands").fetchall()[0][0] == stored
    con.close()
    assert 0 < stored < 6 * 150
    again = run("import", str(histories), "--db", str(db), "--jobs", "1")
    assert again.returncode == 0, again.stderr
    assert run("import", str(histories), "--db", str(fresh), "--jobs", "1").returncode == 0
    assert every_table(db) == every_table(fresh)


@pytest.mark.slow
def test_ctrl_c_during_a_report_is_130_without_a_traceback(store: Path, tmp_path: Path) -> None:
    process = subprocess.Popen([*HHTOOL, "sql", "SELECT sum(range) FROM range(1e12::BIGINT)", "--db", str(store),
                                "--timeout", "60"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(3)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == EXIT_INTERRUPTED, (stdout, stderr)
    one_line(stderr, "interrupted")
    assert "stored" not in stderr  # a reader stored nothing and says nothing of it


def test_damage_found_in_the_middle_of_a_read_is_exit_3_too() -> None:
    """(The length check at open is skipped while a write-ahead log is pending; a read past the end
    of the file then fails later, and is still a damaged store, not a bug.)"""
    from hhtool.cli.common import failure

    code, message = failure(duckdb.IOException('IO Error: Could not read enough bytes from file "/x.duckdb": '
                                               "attempted to read 262144 bytes from location 4730880"))
    assert code == EXIT_STORE and "damaged or truncated" in message
    code, message = failure(duckdb.IOException('IO Error: Could not write file "/x.duckdb.wal": No space left on device'))
    assert code == EXIT_STORE and message.startswith("disk full")
    assert failure(duckdb.BinderException("Binder Error: no such column"))[0] == EXIT_INTERNAL
    assert failure(RuntimeError("Query interrupted"))[0] == EXIT_INTERRUPTED


def test_a_reader_upgrades_an_older_schema_or_says_why_it_cannot(store: Path, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A store written by an older hhtool (here: this schema, while the code knows one migration more)."""
    import hhtool.store
    import hhtool.store.schema

    older = tmp_path / "older.duckdb"
    older.write_bytes(store.read_bytes())
    locked = tmp_path / "older-locked.duckdb"
    locked.write_bytes(store.read_bytes())
    newer = CURRENT_VERSION + 1
    monkeypatch.setattr(hhtool.store.schema, "MIGRATIONS", [*hhtool.store.schema.MIGRATIONS,
                                                            "CREATE TABLE added_later (x INTEGER)"])
    monkeypatch.setattr(hhtool.store.schema, "CURRENT_VERSION", newer)
    monkeypatch.setattr(hhtool.store, "CURRENT_VERSION", newer)
    code, stdout, stderr = invoke(READERS["sql"], older, tmp_path)
    assert code == 0, stderr
    con = duckdb.connect(str(older), read_only=True)
    assert con.execute("SELECT max(version) FROM schema_version").fetchall()[0][0] == newer
    assert con.execute("SELECT count(*) FROM added_later").fetchall()[0][0] == 0
    con.close()
    holder = subprocess.Popen([sys.executable, "-c", f"import duckdb, time; c = duckdb.connect({str(locked)!r}, "
                               "read_only=True); print('held', flush=True); time.sleep(60)"], stdout=subprocess.PIPE,
                              text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        code, stdout, stderr = invoke(READERS["stats"], locked, tmp_path, env={"HHTOOL_LOCK_TIMEOUT": "0.5"})
    finally:
        holder.kill()
        holder.wait()
    assert code == EXIT_STORE, (stdout, stderr)
    assert "older schema and could not be upgraded" in stderr and "Traceback" not in stderr


def test_a_database_that_cannot_be_created_is_exit_3(tmp_path: Path) -> None:
    (tmp_path / "a_file").write_text("not a folder")
    db = tmp_path / "a_file" / "x.duckdb"
    code, stdout, stderr = invoke(WRITERS["import"], db, tmp_path)
    assert code == EXIT_STORE, (stdout, stderr)
    one_line(stderr, f"cannot create database {db}", "is a file, not a folder")


def test_an_output_file_that_cannot_be_written_is_exit_3(store: Path, tmp_path: Path) -> None:
    (tmp_path / "a_file").write_text("not a folder")
    blocked = tmp_path / "a_file" / "out"
    code, stdout, stderr = invoke(["export", str(blocked)], store, tmp_path)  # the parquet folder argument
    assert code == EXIT_STORE, (stdout, stderr)
    assert "Traceback" not in stderr and "cannot" in stderr and str(tmp_path / "a_file") in stderr
    # an --out where no folder can be made is refused before anything is written: a usage error (#14)
    for args in (["export", "--format", "phh", "--out", str(blocked)],
                 ["sql", "SELECT 1", "--format", "parquet", "--out", str(blocked)],
                 ["graph", "--out", f"{blocked}.html", "--player", "Hero"]):
        code, stdout, stderr = invoke(args, store, tmp_path)
        assert code == EXIT_USAGE, (args, stdout, stderr)
        one_line(stderr, "cannot make the folder", str(tmp_path / "a_file"))
    result = runner.invoke(app, ["simulate", "--hands", "2", "--out", str(blocked / "s.txt")])
    assert result.exit_code == EXIT_USAGE and "cannot make the folder" in result.stderr
