"""Text that is no hand at a hand's edges costs no hand (#28, items 2 and 3): a note line right
after a hand's last summary line is stray text as it is after a blank line, and a byte-order mark
or a run of NUL bytes in front of a hand's first line (`cat a.txt b.txt` of two exports, a crashed
client) is removed, said, and the hand read."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb
import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from tests.inputs import edited
from tests.test_reliability import numbered_hands
from tests.test_site_pokerstars import SPLIT_HAND

runner = CliRunner()
NOTE = "note: this table was fishy"
LAST_SUMMARY_LINE = "Seat 5: Hero folded on the 4th Street"


def imported(path: Path, db: Path | None = None) -> tuple[int, dict[str, Any]]:
    result = runner.invoke(app, ["import", str(path), "--db", str(db or ":memory:"), "--format", "json"])
    [report] = json.loads(result.output)["files"]
    return result.exit_code, report


def stored_ids(db: Path) -> list[str]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return [row[0] for row in con.execute("SELECT hand_id FROM hands ORDER BY first_line").fetchall()]
    finally:
        con.close()


def with_notes(after: str) -> str:
    """120 hands, every 15th followed by a note line (``after`` the hand's last summary line)."""
    hands = numbered_hands(120).split("\n\n\n")
    return "\n\n\n".join(hand + after + NOTE if number % 15 == 0 else hand for number, hand in enumerate(hands, 1))


@pytest.mark.slow
def test_a_note_right_after_the_last_summary_line_costs_no_hand_as_after_a_blank_line(tmp_path: Path) -> None:
    counts = {}
    for name, after in (("adjoining", "\n"), ("after_blank", "\n\n")):
        path, db = tmp_path / f"{name}.txt", tmp_path / f"{name}.duckdb"
        path.write_text(with_notes(after) + "\n")
        code, report = imported(path, db)
        assert code == 1  # a line of the file was not read: said, never swallowed
        counts[name] = (report["hands_found"], report["stored"], report["failed"])
        assert [failure["kind"] for failure in report["failures"]] == ["stray_text"] * 8
        assert all(NOTE in failure["reason"] for failure in report["failures"])
        assert stored_ids(db) == [str(900000 + number) for number in range(1, 121)]  # 8 of 8 kept
    assert counts["adjoining"] == counts["after_blank"] == (128, 120, 8)


def test_a_damaged_summary_line_before_more_summary_lines_still_fails_its_hand(tmp_path: Path) -> None:
    """Lines that would continue the hand after the one the parser stopped at are no stray text: the
    hand is damaged inside, and fails whole, as before."""
    path = tmp_path / "d.txt"
    damaged = edited(SPLIT_HAND, "Seat 1: u.pressure showed", "Sxat 1: u.pressure showed")
    path.write_text(damaged + "\n\n" + numbered_hands(1, start=7) + "\n")
    code, report = imported(path)
    assert code == 1 and (report["stored"], report["failed"]) == (1, 1)
    assert report["failures"][0]["kind"] == "unreadable"


def bom_export(*numbers: int) -> bytes:
    return b"\xef\xbb\xbf" + (numbered_hands(len(numbers), start=numbers[0]) + "\n\n\n").encode()


def test_two_exports_concatenated_each_with_its_byte_order_mark_lose_no_hand(tmp_path: Path) -> None:
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_bytes(bom_export(1, 2))
    second.write_bytes(bom_export(3, 4))
    both, db = tmp_path / "both.txt", tmp_path / "b.duckdb"
    both.write_bytes(first.read_bytes() + second.read_bytes())  # cat a.txt b.txt > both.txt
    code, report = imported(both, db)
    assert code == 0 and (report["hands_found"], report["stored"], report["failed"]) == (4, 4, 0)
    [note] = report["failures"]  # said where the import says what it found beside the hands
    assert note["line"] == 0 and note["reason"].startswith("line 111: ") and "byte-order mark" in note["reason"]
    assert stored_ids(db) == ["900001", "900002", "900003", "900004"]
    code, again = imported(second, db)  # the same hands in their own export: plain duplicates
    assert code == 0 and (again["duplicates"], again["conflicts"]) == (2, [])
    con = duckdb.connect(str(db), read_only=True)
    try:  # the hand itself says so too
        [(notes,)] = con.execute("SELECT notes FROM hands WHERE hand_id = '900003'").fetchall()
    finally:
        con.close()
    assert any("byte-order mark" in note for note in notes)


def test_a_run_of_nul_bytes_at_a_hand_start_costs_no_hand(tmp_path: Path) -> None:
    path = tmp_path / "n.txt"
    text = numbered_hands(2) + "\n\n\n"
    path.write_bytes(text.encode() + b"\x00" * 300 + (numbered_hands(2, start=3) + "\n").encode())
    code, report = imported(path)
    assert code == 0 and (report["hands_found"], report["stored"], report["failed"]) == (4, 4, 0)
    [note] = report["failures"]
    assert "300 NUL bytes" in note["reason"] and note["reason"].startswith(f"line {text.count(chr(10)) + 1}: ")



@pytest.mark.parametrize(("site", "pattern"), [("partypoker", "*.txt"), ("phh", "*.phhs"), ("ipoker", "*.xml")])
def test_an_export_concatenated_with_its_byte_order_mark_loses_nothing(tmp_path: Path, site: str, pattern: str) -> None:
    """The second export's mark hid, in PartyPoker, its first hand's preamble ("Game #N starts.": stray
    text, and the hand without it a conflicting copy); in PHH, a comment inside the first file's last
    section (that hand failed as invalid TOML); in XML, nothing but blanks between two sessions (a
    failed 'hand', exit 1, though no hand was lost)."""
    sample = next((Path(__file__).resolve().parents[1] / "sample_histories" / site).glob(pattern)).read_bytes()
    both = tmp_path / f"both{Path(pattern).suffix}"
    both.write_bytes(sample.rstrip(b"\r\n") + b"\n\xef\xbb\xbf" + sample)  # cat a b, a ending without a break
    code, report = imported(both)
    assert code == 0 and (report["failed"], report["conflicts"]) == (0, []), report
    assert report["stored"] == report["duplicates"] == report["hands_found"] // 2
