"""`import --watch` reports what each pass found: an unchanged file nothing, a grown file its new
part, never the hands it had stored before as duplicates (#14: `0 stored, 21 duplicates` for an
unchanged file, `80 stored + 3 duplicates` for an 80-hand file)."""

from __future__ import annotations

import os
import subprocess
import threading
from pathlib import Path

import pytest

from hhtool.ingest.accounting import COUNTS, FileReport
from hhtool.ingest.watch import watch
from hhtool.store import Store
from tests.test_reliability import HHTOOL, numbered_hands, stop_watch_after_files
from tests.test_site_pokerstars import SPLIT_HAND


def counts(report: FileReport) -> dict[str, int]:
    return {name: getattr(report, name) for name in COUNTS}


def nothing(**found: int) -> dict[str, int]:
    return {name: found.get(name, 0) for name in COUNTS}


def one_pass(store: Store, folder: Path, reports: list[FileReport], passes: int = 1) -> None:
    def problem(text: str) -> None:
        raise AssertionError(text)

    watch(store, [str(folder)], 0.0, threading.Event(), reports.append, problem, max_passes=passes)


def test_an_unchanged_file_polled_again_is_not_read_and_a_touched_one_finds_nothing(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(numbered_hands(21))
    reports: list[FileReport] = []
    with Store(str(tmp_path / "w.duckdb")) as store:
        one_pass(store, tmp_path, reports, passes=3)
        assert [counts(report) for report in reports] == [nothing(hands_found=21, stored=21)]  # one pass read it
        os.utime(tmp_path / "a.txt", ns=(1, 1))  # the same bytes, another modification time: read again
        one_pass(store, tmp_path, reports)
    assert reports[-1].status == "unchanged" and counts(reports[-1]) == nothing()
    assert reports[-1].file_totals() == nothing(hands_found=21, stored=21) and reports[-1].balanced()


def test_a_restarted_watch_finds_nothing_in_a_file_it_stored(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(numbered_hands(21))
    db = str(tmp_path / "w.duckdb")
    reports: list[FileReport] = []
    for _ in range(2):  # a watch, stopped, then started again on the same store
        with Store(db) as store:
            one_pass(store, tmp_path, reports)
    assert [report.status for report in reports] == ["parsed", "unchanged"]
    assert counts(reports[1]) == nothing() and reports[1].failures == []


def test_a_file_growing_by_whole_hands_reports_only_its_new_hands(tmp_path: Path) -> None:
    history = tmp_path / "a.txt"
    history.write_text(numbered_hands(30))
    reports: list[FileReport] = []
    with Store(str(tmp_path / "w.duckdb")) as store:
        one_pass(store, tmp_path, reports)
        with history.open("a") as handle:  # the client appends 50 hands
            handle.write("\n\n\n" + numbered_hands(50, start=31))
        one_pass(store, tmp_path, reports)
        hands = store.run("SELECT count(*) FROM hands")[0][0]
    grown = reports[-1]
    assert grown.status == "grown"
    assert counts(grown) == nothing(hands_found=50, stored=50)  # its last hand, read again, is not a duplicate
    assert grown.already_stored == 1 and grown.balanced()
    assert grown.file_totals() == nothing(hands_found=80, stored=80) and hands == 80


@pytest.mark.slow
def test_a_half_written_last_hand_is_incomplete_then_stored_once_when_it_completes(tmp_path: Path) -> None:
    history = tmp_path / "a.txt"
    whole = numbered_hands(3)
    cut = whole.rindex("*** 6th STREET ***")  # inside the third hand, mid-line
    history.write_text(whole[:cut + 4])
    reports: list[FileReport] = []
    with Store(str(tmp_path / "w.duckdb")) as store:
        one_pass(store, tmp_path, reports)
        assert counts(reports[-1]) == nothing(hands_found=3, stored=2, incomplete=1)
        history.write_text(whole)  # the client finishes the hand
        one_pass(store, tmp_path, reports)
        history.write_text(whole + "\n\n\n" + numbered_hands(1, start=4))
        one_pass(store, tmp_path, reports)
    completed, appended = reports[1], reports[2]
    assert counts(completed) == nothing(hands_found=1, stored=1) and completed.already_stored == 0
    assert counts(appended) == nothing(hands_found=1, stored=1) and appended.already_stored == 1
    assert appended.file_totals() == nothing(hands_found=4, stored=4)


@pytest.mark.slow
def test_the_watch_command_restarted_reports_only_what_it_stored(tmp_path: Path) -> None:
    folder = tmp_path / "live"
    folder.mkdir()
    (folder / "a.txt").write_text(numbered_hands(80))
    db = str(tmp_path / "w.duckdb")

    def run_watch() -> tuple[str, str]:
        process = subprocess.Popen([*HHTOOL, "import", "--watch", str(folder), "--interval", "0.1", "--db", db],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert process.stderr is not None and "watching" in process.stderr.readline()
        stdout, stderr = stop_watch_after_files(process, {"b.txt"})
        assert process.returncode == 130 and "Traceback" not in stderr, stderr  # Ctrl-C
        return stdout, stderr

    (folder / "b.txt").write_text(SPLIT_HAND)
    first, _ = run_watch()
    assert " · 80 hands stored today · last a.txt: +80 · no problems\n" in first  # (#25: a status line)
    assert " · 81 hands stored today · last b.txt: +1 · no problems\n" in first
    assert "stopped: 81 hands found = 81 stored + 0 duplicates" in first
    (folder / "b.txt").write_text(SPLIT_HAND + "\n\n\n" + numbered_hands(2, start=500))  # b grows; a stays as it was
    again, _ = run_watch()  # (a.txt comes first in the pass: done once b.txt is reported)
    assert "a.txt:" not in again  # unchanged: no line, no phantom duplicates
    assert " · 2 hands stored today · last b.txt: +2 · no problems\n" in again
    assert "stopped: 2 hands found = 2 stored + 0 duplicates + 0 skipped + 0 failed + 0 incomplete" in again
