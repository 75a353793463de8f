"""A file a poker client is still writing (#28, item 1): its last hand, cut at a line boundary inside
its summary, reads as a whole hand and is stored; when the file grows, the stored copy is that hand
completed and replaced — every hand stored once, no conflicting copy, the audit clean — whether the
file is read by `import --watch` while a writer appends hands or by two plain imports."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.store.player_facts_cache import DAILY_KEYS
from tests.test_reliability import HHTOOL, numbered_hands
from tests.test_site_pokerstars import SPLIT_HAND
from tests.watch_output import WatchOutput

runner = CliRunner()
HAND_LINES = SPLIT_HAND.count("\n")  # 52 lines, the last one ended by a line break
SUMMARY_AT = SPLIT_HAND.splitlines().index("*** SUMMARY ***") + 1  # its 1-based line in the hand


def hand(number: int) -> str:
    return numbered_hands(1, start=number) + "\n"


def cut_in_summary(text: str, kept_summary_lines: int) -> tuple[str, str]:
    """(the part a client has written, the rest): cut at a line boundary ``kept_summary_lines``
    lines after the summary's header (1: only the pot line; the parser then reads a whole hand)."""
    lines = text.splitlines(keepends=True)
    cut = SUMMARY_AT + kept_summary_lines
    return "".join(lines[:cut]), "".join(lines[cut:])


def stored_state(db: Path) -> dict[str, object]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return {
            "hands": con.execute("SELECT count(*), count(DISTINCT hand_id) FROM hands").fetchall()[0],
            "cut": con.execute(f"SELECT count(*) FROM hands WHERE last_line - first_line + 1 <> {HAND_LINES}").fetchall()[0][0],
            "conflicts": con.execute("SELECT count(*) FROM copy_conflicts").fetchall()[0][0],
            "errors": con.execute("SELECT count(*) FROM import_errors").fetchall()[0][0],
            "facts": con.execute("SELECT count(*), count(DISTINCT hand_id) FROM player_facts").fetchall()[0],
            "daily_hands": con.execute("SELECT sum(hands) FROM player_facts_daily").fetchall()[0][0],
            "daily_keys_twice": con.execute(f"SELECT count(*) FROM (SELECT {', '.join(DAILY_KEYS)} FROM player_facts_daily "
                                            "GROUP BY ALL HAVING count(*) > 1)").fetchall()[0][0],
        }
    finally:
        con.close()


def clean(hands: int) -> dict[str, object]:
    return {"hands": (hands, hands), "cut": 0, "conflicts": 0, "errors": 0, "facts": (3 * hands, hands),
            "daily_hands": 3 * hands, "daily_keys_twice": 0}


@pytest.mark.slow
def test_two_imports_of_a_file_cut_inside_its_summary_then_grown_store_each_hand_once(tmp_path: Path) -> None:
    path, db = tmp_path / "live.txt", tmp_path / "g.duckdb"
    before = hand(1) + "\n\n" + hand(2) + "\n\n"
    written, rest = cut_in_summary(hand(3), 2)  # the pot line and the first seat's: the rest still to come
    path.write_text(before + written)
    first = runner.invoke(app, ["import", str(path), "--db", str(db), "--format", "json"])
    assert first.exit_code == 0 and json.loads(first.output)["files"][0]["stored"] == 3
    path.write_text(before + written + rest + "\n\n" + hand(4))
    grown = runner.invoke(app, ["import", str(path), "--db", str(db), "--format", "json"])
    assert grown.exit_code == 0, grown.output
    [report] = json.loads(grown.output)["files"]
    assert (report["status"], report["hands_found"], report["stored"], report["duplicates"]) == ("grown", 2, 2, 0)
    assert (report["already_stored"], report["completed"], report["conflicts"]) == (0, 1, [])
    assert stored_state(db) == clean(4)
    said = runner.invoke(app, ["import", str(path), "--db", str(db)])
    assert said.exit_code == 0 and "conflicting" not in said.output and "stored before" not in said.output
    audit = runner.invoke(app, ["audit", "--db", str(db)])
    assert audit.exit_code == 0 and "4 hands audited: 4 ok" in audit.output, audit.output


@pytest.mark.slow
def test_watch_beside_a_writer_appending_hands_cut_inside_their_summary_stores_each_once(tmp_path: Path) -> None:
    folder, db = tmp_path / "live", tmp_path / "w.duckdb"
    folder.mkdir()
    path = folder / "table.txt"
    process = subprocess.Popen([*HHTOOL, "import", "--watch", "-v", str(folder), "--interval", "0.05", "--db", str(db)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stderr is not None and "watching" in process.stderr.readline()
        output = WatchOutput(process)
        total = 12
        for number in range(1, total + 1):
            between = "\n\n" if number > 1 else ""
            with path.open("a") as client:  # the client writes the hand, and stops in its summary 3 times in 4
                if number % 4:
                    written, rest = cut_in_summary(hand(number), number % 4)
                    client.write(between + written)
                    client.flush()
                    output.wait_for_whole(str(path), number)  # a pass read the hand cut where the client stopped
                    client.write(rest)
                else:
                    client.write(between + hand(number))
        output.wait_for_whole(str(path), total)
        time.sleep(0.3)  # into the next poll: the pass that read the whole file has finished
        process.send_signal(signal.SIGINT)
        process.wait(timeout=60)
        output.thread.join(timeout=10)
    finally:
        if process.poll() is None:
            process.kill()
    stdout = "\n".join(output.lines)
    assert process.returncode == 130, stdout  # Ctrl-C
    assert "conflicting copy" not in stdout and "  failed " not in stdout
    assert f"stopped: {total} hands found = {total} stored + 0 duplicates + 0 skipped + 0 failed + 0 incomplete" in stdout
    assert stored_state(db) == clean(total)
    audit = runner.invoke(app, ["audit", "--db", str(db)])
    assert audit.exit_code == 0 and f"{total} hands audited: {total} ok" in audit.output, audit.output
