"""The command line's edges, the rest of issue #28 item 12: `import --watch` stopped by Ctrl-C ends
with 130 and a last line naming the failed hands; an option error is one line; a `\\` in --db is
kept; U+2028, U+2029 and U+0085 in a player's name are part of the name, not line ends; a comment or
CDATA holding ``</game>`` inside an XML game does not split it."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.test_reliability import HHTOOL, stop_watch_after_files
from tests.test_site_pokerstars import SPLIT_HAND

# ------------------------------------------------------------------ Ctrl-C ends a watch


def test_a_watch_stopped_by_ctrl_c_exits_130_and_its_last_line_counts_the_failed_hands(tmp_path: Path) -> None:
    """A subprocess, as a user runs it: one hand stored, one stray line failed; Ctrl-C after the
    first pass ends it with 130 (it was 0, failed hands or not) and the summary as its last line."""
    folder = tmp_path / "live"
    folder.mkdir()
    (folder / "a.txt").write_text(SPLIT_HAND + "\n\nleft here by an editor\n")
    process = subprocess.Popen([*HHTOOL, "import", "--watch", str(folder), "--interval", "0.1",
                                "--db", str(tmp_path / "w.duckdb")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None and "watching" in process.stderr.readline()
    stdout, stderr = stop_watch_after_files(process, {"a.txt"})
    assert process.returncode == 130 and "Traceback" not in stderr, stderr
    last = stdout.strip().splitlines()[-1]
    assert last == "stopped: 2 hands found = 1 stored + 0 duplicates + 0 skipped + 1 failed + 0 incomplete", stdout
