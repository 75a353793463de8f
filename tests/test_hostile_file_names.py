"""Issue #34, item 4: a hostile folder or archive names its files and members with terminal escapes (a
title set by OSC, a screen cleared by CSI, a bell, C1's one-byte CSI, a bidirectional override). The
import's summary (every detail level), `audit PATH`'s, and `--watch` (its status line, -v's file lines,
the warnings) print each such name through the one rule (:func:`hhtool.reports.printable.printable`):
no control byte reaches stdout or stderr, and the names are shown with "?" in their place."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import zipfile
from pathlib import Path

import pytest

from hhtool.reports.printable import printable
from tests.test_reliability import HHTOOL
from tests.test_site_pokerstars import SPLIT_HAND
from tests.watch_output import WatchOutput

ENV = {**os.environ, "PYTHONUNBUFFERED": "1", "NO_COLOR": "1", "COLUMNS": "80", "HHTOOL_PROGRESS": "off"}
#: what a terminal or a reader acts on rather than shows: C0 but the line break, DEL, C1, U+2028/9, bidi marks
RAW = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")

TITLE = "x\x1b]0;PWN\x07title.txt"
CLEAR = "note\x1b[2J\x1b[Hclear.txt"
MEMBER_RED = "a/x\x1b[31mred.txt"
MEMBER_C1 = "a/bad\x9b31m.txt"
MEMBER_NOTE = "a/n\x1b[2Jote.txt"
REVERSED = "evil\u202etxt.exe"


def _failing(text: str) -> str:
    """``text`` with its first seat line broken: one failed hand (the summary names the file and line)."""
    return text.replace("Seat 1:", "Seat X:", 1)


def hostile_folder(root: Path) -> Path:
    """Files and a zip whose members have hostile names; each kind of summary line names one of them:
    a failed hand, a duplicate, a file that is no hand history."""
    folder = root / "in\x1b[5mcoming"
    folder.mkdir(parents=True)
    (folder / TITLE).write_text(SPLIT_HAND, encoding="utf-8")
    (folder / CLEAR).write_text("just a note, not a history\n", encoding="utf-8")
    (folder / REVERSED).write_text(_failing(SPLIT_HAND.replace("Game #", "Game #7", 1)), encoding="utf-8")
    with zipfile.ZipFile(folder / "arch\x07ive.zip", "w") as archive:
        archive.writestr(MEMBER_RED, SPLIT_HAND.replace("Game #", "Game #8", 1) * 2)  # a duplicate
        archive.writestr(MEMBER_C1, _failing(SPLIT_HAND.replace("Game #", "Game #9", 1)))
        archive.writestr(MEMBER_NOTE, "nothing\n")
    return folder


def _no_raw(text: str, where: str) -> None:
    found = RAW.findall(text)
    assert not found, f"{where}: raw {sorted(set(found))!r} in {text!r}"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*HHTOOL, *args], capture_output=True, text=True, env=ENV, timeout=300, check=False)


@pytest.mark.slow
@pytest.mark.parametrize("detail", [[], ["-v"], ["-q"]], ids=["normal", "verbose", "quiet"])
def test_the_import_summary_shows_hostile_names_as_text(tmp_path: Path, detail: list[str]) -> None:
    folder = hostile_folder(tmp_path)
    done = _run("import", str(folder), "--db", str(tmp_path / "h.duckdb"), *detail)
    assert done.returncode == 1, done.stderr  # (the failed hands)
    _no_raw(done.stdout, "stdout")
    _no_raw(done.stderr, "stderr")
    if detail != ["-q"]:  # the names are there, each control as "?"
        for name in (CLEAR, MEMBER_C1, MEMBER_NOTE, REVERSED):
            assert printable(name.rsplit("/", 1)[-1]) in done.stdout, (name, done.stdout)
        assert "in?[5mcoming" in done.stdout


@pytest.mark.slow
def test_audit_with_paths_shows_hostile_names_as_text(tmp_path: Path) -> None:
    folder = hostile_folder(tmp_path)
    done = _run("audit", str(folder), "--db", str(tmp_path / "h.duckdb"))
    _no_raw(done.stdout, "stdout")
    _no_raw(done.stderr, "stderr")
    assert printable(MEMBER_C1.rsplit("/", 1)[-1]) in done.stdout


@pytest.mark.slow
@pytest.mark.parametrize("detail", [[], ["-v"]], ids=["status", "verbose"])
def test_a_watch_shows_hostile_names_as_text(tmp_path: Path, detail: list[str]) -> None:
    """The status line and the problems above it (or -v's file lines), the warning about a watched path
    that does not exist, the `watching …` line and the last line: all without a raw control byte."""
    folder = hostile_folder(tmp_path)
    missing = tmp_path / "gone\x1b]0;PWN\x07"
    process = subprocess.Popen([*HHTOOL, "import", "--watch", str(folder), str(missing), "--interval", "0.1",
                                "--db", str(tmp_path / "w.duckdb"), *detail],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    lines = WatchOutput(process)
    try:
        lines.wait_for("bad?31m.txt")  # (the C1 member's failed hand, or its -v line)
        lines.wait_for("n?[2Jote.txt" if detail else "failed hand")
        process.send_signal(signal.SIGINT)
        process.wait(timeout=60)
        lines.thread.join(timeout=10)
        stderr = process.stderr.read() if process.stderr is not None else ""
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, stderr
    _no_raw("\n".join(lines.lines), "stdout")
    _no_raw(stderr, "stderr")
    assert "gone?]0;PWN?" in stderr  # the warning names the missing path, as text
