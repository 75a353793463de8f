"""Issue #25, the watch log: `import --watch` shows one status line (time, hands stored today, last
file, problems), redrawn in place on a terminal and a line per change off one, instead of each
file's full path and counts every pass; a watched folder that does not exist (a typo in a PATH or in
the config's `watch`) is warned about with the close name beside it, and when none exists the watch
refuses with exit 2 and makes no store; Ctrl-C exits 130 with the failed hands reported."""

from __future__ import annotations

import os
import pty
import re
import select
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.test_reliability import HHTOOL, numbered_hands
from tests.test_site_pokerstars import SPLIT_HAND
from tests.watch_output import WatchOutput

ENV = {**os.environ, "PYTHONUNBUFFERED": "1", "NO_COLOR": "1", "COLUMNS": "80"}
STATUS = re.compile(r"^\d\d:\d\d:\d\d · ([\d,]+) hands? stored today · last (.+) · (.+)$")


def stop(process: subprocess.Popen[str], lines: WatchOutput) -> str:
    time.sleep(0.3)  # into the next poll
    process.send_signal(signal.SIGINT)
    process.wait(timeout=60)
    lines.thread.join(timeout=10)
    return process.stderr.read() if process.stderr is not None else ""


@pytest.mark.slow
def test_a_watch_beside_a_writer_prints_a_status_line_per_change_and_the_failures(tmp_path: Path) -> None:
    """Off a terminal (a pipe): one status line per change, never a file's full path and counts; a
    failed hand is printed once above it and counted; Ctrl-C: 130, the last line counting it."""
    folder = tmp_path / "live"
    folder.mkdir()
    table = folder / "table.txt"
    table.write_text(numbered_hands(3))
    process = subprocess.Popen([*HHTOOL, "import", "--watch", str(folder), "--interval", "0.1",
                                "--db", str(tmp_path / "w.duckdb")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    lines = WatchOutput(process)
    try:
        lines.wait_for("3 hands stored today · last table.txt: +3 · no problems")
        with table.open("a") as client:  # the client writes two more hands, then a stray line
            client.write("\n\n\n" + numbered_hands(2, start=4))
        lines.wait_for("5 hands stored today · last table.txt: +2 · no problems")
        with table.open("a") as client:
            client.write("\n\n\n" + numbered_hands(1, start=6) + "\n\nleft here by an editor\n")
        lines.wait_for("6 hands stored today · last table.txt: +1, 1 failed · 1 failed hand")
        stderr = stop(process, lines)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130 and "Traceback" not in stderr, stderr
    shown = lines.lines
    statuses = [line for line in shown if STATUS.match(line)]
    assert [STATUS.match(line)[1] for line in statuses] == ["3", "5", "6"], shown  # a line per change, no repeat
    assert not any(str(folder) in line for line in statuses)  # the file's name, not its full path
    assert not any("hands found =" in line for line in shown[:-1])  # the old per-file count lines are gone
    [failed] = [line for line in shown if line.startswith("  failed ")]
    assert "table.txt:" in failed and "left here by an editor" in failed
    assert shown.index(failed) < shown.index(statuses[-1])  # the problem above the status that counts it
    assert shown[-1] == "stopped: 7 hands found = 6 stored + 0 duplicates + 0 skipped + 1 failed + 0 incomplete"


@pytest.mark.slow
def test_on_a_terminal_the_status_line_is_redrawn_in_place_within_80_columns(tmp_path: Path) -> None:
    """A pseudo-terminal as stdout: the status is rewritten after a carriage return (no new line per
    pass), cut to the width with "…" when the file name is long, and no escape sequence."""
    folder = tmp_path / "live"
    folder.mkdir()
    long_name = "HH20260101 Table Alcyone IV - 0.04-0.08 - USD 7 Card Stud Hi-Lo with a very long name.txt"
    (folder / long_name).write_text(numbered_hands(2))
    leader, follower = pty.openpty()
    process = subprocess.Popen([*HHTOOL, "import", "--watch", str(folder), "--interval", "0.1",
                                "--db", str(tmp_path / "w.duckdb")],
                               stdout=follower, stderr=subprocess.PIPE, text=True, env=ENV)
    os.close(follower)
    seen = b""
    try:
        deadline = time.monotonic() + 90
        while b"stored today" not in seen or b"\xe2\x80\xa6" not in seen:  # the status, cut with "…"
            assert time.monotonic() < deadline, seen
            if select.select([leader], [], [], 1)[0]:
                seen += os.read(leader, 4096)
        with (folder / "b.txt").open("w") as client:
            client.write(numbered_hands(1, start=9))
        while b"last b.txt" not in seen:
            assert time.monotonic() < deadline, seen
            if select.select([leader], [], [], 1)[0]:
                seen += os.read(leader, 4096)
        time.sleep(0.3)
        process.send_signal(signal.SIGINT)
        process.wait(timeout=60)
        while select.select([leader], [], [], 0.5)[0]:
            try:
                seen += os.read(leader, 4096)
            except OSError:
                break
    finally:
        os.close(leader)
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130
    text = seen.decode("utf-8")
    assert "\x1b" not in text
    before_stop = text[: text.index("stopped:")]
    drawn = [part for part in re.split(r"[\r\n]+", before_stop) if part.strip()]
    assert len(drawn) == 2 and all(len(part) <= 79 for part in drawn), drawn
    assert before_stop.count("\n") == 1 and "\r" in before_stop  # redrawn in place; one new line, at the end
    assert drawn[0].startswith(drawn[0][:8]) and "2 hands stored today · last HH20260101" in drawn[0]
    assert drawn[0].endswith("…"), drawn[0]
    assert "3 hands stored today · last b.txt: +1 · no problems" in drawn[1]


@pytest.mark.slow
def test_a_watched_folder_that_does_not_exist_is_warned_about_with_the_close_name(tmp_path: Path) -> None:
    """One of two paths a typo: a warning naming the folder it is close to; the other is watched."""
    (tmp_path / "HandHistory").mkdir()
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "a.txt").write_text(SPLIT_HAND)
    process = subprocess.Popen([*HHTOOL, "import", "--watch", str(tmp_path / "HandHistroy"), str(tmp_path / "other"),
                                "--interval", "0.1", "--db", str(tmp_path / "w.duckdb")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    lines = WatchOutput(process)
    try:
        lines.wait_for("last a.txt: +1")
        stderr = stop(process, lines)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130
    assert (f"warning: {tmp_path / 'HandHistroy'} does not exist (did you mean {tmp_path / 'HandHistory'}?); "
            "watched in case it appears") in stderr, stderr


@pytest.mark.slow
def test_a_config_watch_entry_with_a_typo_and_nothing_else_refuses_with_2_and_no_store(tmp_path: Path) -> None:
    """Every watched path missing (the config's `watch` misspelt): exit 2 naming it and the close
    folder, and no empty store is left behind (it was "watching … every 2 s", forever, silently)."""
    home = tmp_path / "home"
    (home / "PokerStars" / "HandHistory").mkdir(parents=True)
    config = tmp_path / "config.toml"
    config.write_text('database = "w.duckdb"\nwatch = ["~/PokerStars/HandHistroy/Hero"]\n')
    result = subprocess.run([*HHTOOL, "import", "--watch"], capture_output=True, text=True, timeout=120, cwd=tmp_path,
                            env={**ENV, "HOME": str(home), "HHTOOL_CONFIG": str(config)}, check=False)
    assert result.returncode == 2, result
    assert result.stderr == (f"error: nothing to watch: {home}/PokerStars/HandHistroy/Hero: {home}/PokerStars/"
                             f"HandHistroy does not exist (did you mean {home}/PokerStars/HandHistory?): fix the "
                             "watch entries of the config file (`hhtool config`)\n")
    assert not (tmp_path / "w.duckdb").exists() and not list(tmp_path.glob("*.duckdb*"))
    plain = subprocess.run([*HHTOOL, "import", "--watch", str(tmp_path / "nowhere"), "--db", str(tmp_path / "n.duckdb")],
                           capture_output=True, text=True, timeout=120, env=ENV, check=False)
    assert plain.returncode == 2 and "nothing to watch" in plain.stderr and not (tmp_path / "n.duckdb").exists()


@pytest.mark.slow
def test_a_hostile_file_name_is_shown_as_text_in_the_status(tmp_path: Path) -> None:
    """A file name holding a terminal escape and a line break: shown with "?", never sent as is."""
    folder = tmp_path / "live"
    folder.mkdir()
    (folder / "a\x1b[2J\u2028b.txt").write_text(SPLIT_HAND)
    process = subprocess.Popen([*HHTOOL, "import", "--watch", str(folder), "--interval", "0.1",
                                "--db", str(tmp_path / "w.duckdb")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    lines = WatchOutput(process)
    try:
        lines.wait_for("last a?[2J?b.txt: +1 · no problems")
        stop(process, lines)
    finally:
        if process.poll() is None:
            process.kill()
    assert not any("\x1b" in line or "\u2028" in line for line in lines.lines), lines.lines
