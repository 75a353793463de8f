"""`hhtool import` as a user runs it: exit codes, the summary, --format json, database selection."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from hhtool import __version__
from hhtool.cli import app
from tests.test_site_pokerstars import ALLIN_SIDE_POT, SPLIT_HAND
from tests.test_store import BROKEN

runner = CliRunner()
JSON_FILE_KEYS = {"path", "site", "status", "reading", "hands_found", "stored", "duplicates", "already_stored", "completed",
                  "skipped", "failed", "failures", "incomplete", "incomplete_hands", "conflicts", "duplicate_ids",
                  "skipped_games", "note", "looks_like", "changed"}


def hands_in(db: Path) -> int:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return int(con.execute("SELECT count(*) FROM hands").fetchall()[0][0])
    finally:
        con.close()


def test_clean_import_exits_0_and_says_what_happened(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(SPLIT_HAND + "\n\n" + ALLIN_SIDE_POT)
    db = tmp_path / "x.duckdb"
    result = runner.invoke(app, ["import", str(tmp_path), "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert "2 hands found = 2 stored + 0 duplicates + 0 skipped (other games) + 0 failed" in result.output
    assert hands_in(db) == 2


def test_failures_exit_1_and_json_lists_them_with_lines(tmp_path: Path) -> None:
    path = tmp_path / "b.txt"
    path.write_text(SPLIT_HAND + "\n\n" + BROKEN + "\n\n" + SPLIT_HAND.replace("7 Card Stud Hi/Lo", "Razz"))
    result = runner.invoke(app, ["import", str(path), "--db", ":memory:", "--format", "json"])
    assert result.exit_code == 1
    summary = json.loads(result.output)
    assert summary["totals"] == {
        "hands_found": 3, "stored": 1, "duplicates": 0, "skipped": 1, "failed": 1, "incomplete": 0, "files": 1,
        "unreadable": 0, "conflicts": 0, "not_hand_histories": 0, "wrong_site": 0,
    }
    [file_report] = summary["files"]
    assert set(file_report) == JSON_FILE_KEYS
    assert file_report["site"] == "pokerstars"
    assert file_report["failures"][0]["line"] == 68 and "teleports" in file_report["failures"][0]["reason"]


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    assert runner.invoke(app, ["import", str(tmp_path / "missing.txt"), "--db", ":memory:"]).exit_code == 2
    (tmp_path / "a.txt").write_text(SPLIT_HAND)
    assert runner.invoke(app, ["import", str(tmp_path), "--site", "nosuchsite", "--db", ":memory:"]).exit_code == 2
    assert runner.invoke(app, ["import"]).exit_code == 2


@pytest.mark.slow
def test_db_from_environment_and_default_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "a.txt").write_text(SPLIT_HAND)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert runner.invoke(app, ["import", "a.txt"]).exit_code == 0
    assert hands_in(tmp_path / "data" / "hhtool" / "hhtool.duckdb") == 1
    monkeypatch.setenv("HHTOOL_DB", str(tmp_path / "env.duckdb"))
    assert runner.invoke(app, ["import", "a.txt"]).exit_code == 0
    assert hands_in(tmp_path / "env.duckdb") == 1


def test_memory_database_keeps_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "a.txt").write_text(SPLIT_HAND)
    monkeypatch.chdir(tmp_path)
    assert runner.invoke(app, ["import", "a.txt", "--db", ":memory:"]).exit_code == 0
    assert not list(tmp_path.glob("*.duckdb"))


@pytest.mark.slow
def test_version_and_module_entry_point() -> None:
    assert __version__ in runner.invoke(app, ["--version"]).output
    completed = subprocess.run([sys.executable, "-m", "hhtool", "--help"], capture_output=True, text=True, check=False)
    assert completed.returncode == 0 and "import" in completed.stdout


def test_sql_is_read_only(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(SPLIT_HAND)
    db = str(tmp_path / "s.duckdb")
    assert runner.invoke(app, ["import", str(tmp_path / "a.txt"), "--db", db]).exit_code == 0
    result = runner.invoke(app, ["sql", "SELECT hand_id, total_pot FROM hands", "--db", db, "--format", "json"])
    assert result.exit_code == 0 and json.loads(result.output) == [{"hand_id": "35874576282", "total_pot": 39}]
    assert runner.invoke(app, ["sql", "DELETE FROM hands", "--db", db]).exit_code == 2
    assert hands_in(Path(db)) == 1


@pytest.mark.slow
def test_a_truncated_last_hand_is_incomplete_not_failed(tmp_path: Path) -> None:
    path = tmp_path / "t.txt"
    path.write_text(SPLIT_HAND + "\n\n" + "\n".join(ALLIN_SIDE_POT.splitlines()[:10]))
    result = runner.invoke(app, ["import", str(path), "--db", ":memory:", "--format", "json"])
    assert result.exit_code == 0
    [report] = json.loads(result.output)["files"]
    assert (report["stored"], report["failed"], report["incomplete"]) == (1, 0, 1)
    assert report["incomplete_hands"][0]["kind"] == "ends_early" and report["incomplete_hands"][0]["line"] == 64
    middle = tmp_path / "m.txt"  # truncated in the middle of a file: that is a failure
    middle.write_text("\n".join(ALLIN_SIDE_POT.splitlines()[:10]) + "\n\n" + SPLIT_HAND)
    assert runner.invoke(app, ["import", str(middle), "--db", ":memory:"]).exit_code == 1


def test_a_replay_fault_on_one_hand_does_not_stop_the_import(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import hhtool.ingest.rule_choice as pipeline

    original = pipeline.replay

    def fragile(hand, profile):  # type: ignore[no-untyped-def]
        if hand.hand_id == "200":
            raise ZeroDivisionError("simulated engine fault")
        return original(hand, profile)

    monkeypatch.setattr(pipeline, "replay", fragile)
    pipeline_cache = __import__("hhtool.ingest.chunks", fromlist=["_replayer"])._replayer
    pipeline_cache.cache_clear()
    (tmp_path / "a.txt").write_text(SPLIT_HAND + "\n\n" + ALLIN_SIDE_POT)
    db = tmp_path / "f.duckdb"
    assert runner.invoke(app, ["import", str(tmp_path / "a.txt"), "--db", str(db)]).exit_code == 0
    pipeline_cache.cache_clear()
    con = duckdb.connect(str(db), read_only=True)
    try:
        verdicts = dict(con.execute("SELECT hand_id, verdict FROM hands").fetchall())
        reason = con.execute("SELECT reason FROM unverifiable WHERE check_code = 'REPLAY'").fetchall()[0][0]
        alone = {row[0] for row in con.execute("SELECT check_code FROM unverifiable WHERE hand_id = '35874576282'").fetchall()}
    finally:
        con.close()
    assert verdicts == {"35874576282": "ok", "200": "unverifiable"}
    assert alone == set()  # alone at its table, judged by PokerStars' structures table at $0.04/$0.08
    assert "simulated engine fault" in reason


def test_a_last_hand_cut_mid_line_is_incomplete_too(tmp_path: Path) -> None:
    path = tmp_path / "cut.txt"
    whole = SPLIT_HAND + "\n\n" + ALLIN_SIDE_POT
    path.write_text(whole[: whole.index("Big: bets $10") + 7])  # the writer stopped inside a line
    result = runner.invoke(app, ["import", str(path), "--db", ":memory:", "--format", "json"])
    [report] = json.loads(result.output)["files"]
    assert result.exit_code == 0 and (report["stored"], report["failed"], report["incomplete"]) == (1, 0, 1)


@pytest.mark.slow
def test_a_stray_line_after_a_complete_last_hand_is_reported_and_the_hand_stored(tmp_path: Path) -> None:
    path = tmp_path / "s.txt"
    path.write_text(SPLIT_HAND + "\n\n" + ALLIN_SIDE_POT + "\n\n*** exported by my tracker ***\n")
    db = tmp_path / "s.duckdb"
    result = runner.invoke(app, ["import", str(path), "--db", str(db), "--format", "json"])
    assert result.exit_code == 1  # a line of the file was not read: said, never swallowed
    [report] = json.loads(result.output)["files"]
    assert (report["stored"], report["failed"], report["incomplete"], report["hands_found"]) == (2, 1, 0, 3)
    [stray] = report["failures"]
    assert stray["kind"] == "stray_text" and stray["line"] == 107 and "exported by my tracker" in stray["reason"]
    con = duckdb.connect(str(db), read_only=True)
    try:
        assert con.execute("SELECT first_line, raw_text, kind FROM import_errors").fetchall() == [
            (107, "*** exported by my tracker ***", "stray_text")]
        assert con.execute("SELECT last_line FROM hands WHERE hand_id = '200'").fetchall() == [(104,)]
    finally:
        con.close()
    clean = tmp_path / "c.txt"  # the legal counterpart: the same hands, nothing after them
    clean.write_text(SPLIT_HAND + "\n\n" + ALLIN_SIDE_POT + "\n")
    assert runner.invoke(app, ["import", str(clean), "--db", ":memory:"]).exit_code == 0


@pytest.mark.slow
def test_stray_text_between_hands_and_cut_inside_a_line_at_the_end(tmp_path: Path) -> None:
    between = tmp_path / "b.txt"
    between.write_text(SPLIT_HAND + "\n\nnote: this table was fishy\n\n" + ALLIN_SIDE_POT + "\n")
    [report] = json.loads(runner.invoke(app, ["import", str(between), "--db", ":memory:", "--format", "json"]).output)["files"]
    assert (report["stored"], report["failed"]) == (2, 1) and report["failures"][0]["kind"] == "stray_text"
    cut = tmp_path / "cut.txt"  # the next hand's first line cut off while being written: incomplete, exit 0
    cut.write_text(SPLIT_HAND + "\n\nPokerSta")
    result = runner.invoke(app, ["import", str(cut), "--db", ":memory:", "--format", "json"])
    [report] = json.loads(result.output)["files"]
    assert result.exit_code == 0 and (report["stored"], report["failed"], report["incomplete"]) == (1, 0, 1)


@pytest.mark.slow
def test_a_file_read_with_a_wrong_site_is_read_again_without_it(tmp_path: Path) -> None:
    path = tmp_path / "w.txt"
    path.write_text(SPLIT_HAND + "\n\n" + ALLIN_SIDE_POT + "\n")
    db = str(tmp_path / "w.duckdb")
    wrong = json.loads(runner.invoke(app, ["import", str(path), "--db", db, "--site", "fulltilt", "--format", "json"]).output)
    assert wrong["totals"]["stored"] == 0 and wrong["files"][0]["status"] == "not a hand history"  # of Full Tilt
    again = runner.invoke(app, ["import", str(path), "--db", db, "--site", "fulltilt"])
    # (#25: a reading that found nothing is tried again, to say the site the file looks like, exit 1)
    assert again.exit_code == 1 and "it looks like a history of pokerstars" in " ".join(again.output.split())
    right = runner.invoke(app, ["import", str(path), "--db", db, "--format", "json"])
    assert right.exit_code == 0, right.output
    [report] = json.loads(right.output)["files"]
    assert (report["status"], report["reading"], report["stored"], report["failed"]) == ("reread", "detected", 2, 0)
    con = duckdb.connect(db, read_only=True)
    try:  # the wrong reading's rows are replaced by the right one's
        assert con.execute("SELECT count(*) FROM import_errors").fetchall() == [(0,)]
        assert con.execute("SELECT site, reading, stored, failed FROM files").fetchall() == [("pokerstars", "detected", 2, 0)]
    finally:
        con.close()
    assert "not read again" in runner.invoke(app, ["import", str(path), "--db", db]).output


def every_table_of(db: str) -> dict[str, list[tuple[object, ...]]]:
    from tests.test_reliability import tables_of

    return tables_of(db)


@pytest.mark.slow
def test_a_grown_file_gives_the_tables_of_one_import_of_the_whole_file(tmp_path: Path) -> None:
    path = tmp_path / "g.txt"
    whole = SPLIT_HAND + "\n\n" + BROKEN + "\n\n" + ALLIN_SIDE_POT + "\n"
    steps = [SPLIT_HAND + "\n\n" + BROKEN + "\n",  # the last hand failed
             SPLIT_HAND + "\n\n" + BROKEN + "\n\n" + ALLIN_SIDE_POT[:400],  # a truncated hand begun
             whole]  # and completed
    db = str(tmp_path / "grown.duckdb")
    for text in steps:
        path.write_text(text)
        result = runner.invoke(app, ["import", str(path), "--db", db, "--format", "json"])
        assert json.loads(result.output)["files"][0]["status"] in ("parsed", "grown")
    once = str(tmp_path / "once.duckdb")
    assert runner.invoke(app, ["import", str(path), "--db", once]).exit_code == 1
    grown, reference = every_table_of(db), every_table_of(once)
    assert grown["import_errors"] == reference["import_errors"] and len(reference["import_errors"]) == 1
    assert grown == reference


SAMPLES = Path(__file__).resolve().parents[1] / "sample_histories"
#: files that hold no hand of any site, as a user's history folder has them (one ends inside its only line)
NOT_HISTORIES = {"README.txt": "# My hands\n\nExported from the client; see notes.\n", "zz-notes.txt": "see notes.md",
                 "notes.md": "Notes\n=====\n", "export.json": '{"hands": []}\n'}


def _site_sample(site: str) -> Path:
    return sorted(path for path in (SAMPLES / site).iterdir() if path.is_file())[0]


def _imported_json(args: list[str]) -> tuple[int, dict[str, dict]]:  # type: ignore[type-arg]
    result = runner.invoke(app, ["import", *args, "--db", ":memory:", "--format", "json"])
    return result.exit_code, {Path(f["path"].split("!")[-1]).name: f for f in json.loads(result.output)["files"]}


@pytest.mark.slow
@pytest.mark.parametrize("site", sorted(path.name for path in SAMPLES.iterdir() if path.is_dir()))
def test_a_file_without_a_hand_start_of_the_forced_site_is_not_a_hand_history(site: str, tmp_path: Path) -> None:
    import zipfile

    sample = _site_sample(site)
    folder = tmp_path / "hands"
    folder.mkdir()
    (folder / sample.name).write_bytes(sample.read_bytes())
    for name, text in NOT_HISTORIES.items():
        (folder / name).write_text(text)
    archive = tmp_path / "hands.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        for path in sorted(folder.iterdir()):
            zipped.write(path, path.name)
    for source, expected in ((folder, {"README.txt", "zz-notes.txt"}), (archive, set(NOT_HISTORIES))):
        code, files = _imported_json([str(source), "--site", site])
        assert code == 0, files  # the sample's own hands import clean
        for name in expected:
            counts = tuple(files[name][key] for key in ("status", "hands_found", "failed", "incomplete"))
            assert counts == ("not a hand history", 0, 0, 0), (source, name, files[name])
        real = files[sample.name]  # the legal counterpart: the site's own history is read as one
        assert real["status"] == "parsed" and real["failed"] == 0 and real["stored"] > 0


@pytest.mark.slow
def test_not_a_hand_history_is_said_in_the_summary_and_a_site_like_text_still_fails(tmp_path: Path) -> None:
    sample = _site_sample("fulltilt")
    (tmp_path / sample.name).write_bytes(sample.read_bytes())
    (tmp_path / "zz-readme.txt").write_text("see notes.md")  # no line break at the end: once "a truncated last hand"
    result = runner.invoke(app, ["import", str(tmp_path), "--site", "fulltilt", "--db", ":memory:"], terminal_width=80)
    assert result.exit_code == 0, result.output
    assert "not a hand history" in result.output and "zz-readme.txt" in result.output
    assert "incomplete" not in result.output and "truncated" not in result.output
    # text that starts a Full Tilt hand is a hand history of it, however broken: a failed hand, exit 1
    (tmp_path / "zz-readme.txt").write_text("Full Tilt Poker Game #123: a header cut short\n")
    broken = runner.invoke(app, ["import", str(tmp_path), "--site", "fulltilt", "--db", ":memory:"])
    assert broken.exit_code == 1 and "failed" in broken.output and "not a hand history" not in broken.output
