"""Issue #28, items 4 and 5: what a history's text states at its edges is read as written or told.

A file holding a UTF-8 client's hands and a cp1252 client's is read line by line, so that one player
stays one name, and the import and `hhtool problems` say the file was read in two encodings. A date
that is none (a day February lacks, hour 25, year 0, a year of five digits) is never read another way:
the hand is stored without a date and `hhtool problems` lists it with its file and line.
"""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from tests.inputs import edited

runner = CliRunner()

HAND = """PokerStars Hand #{hand_id}:  7 Card Stud Hi/Lo Limit ($0.04/$0.08 USD) - {when} ET
Table 'Alcyone IV' 8-max
Seat 4: Jürgen ($1.39 in chips)
Seat 8: Zoe ($1.01 in chips)
Jürgen: posts the ante $0.01
Zoe: posts the ante $0.01
*** 3rd STREET ***
Dealt to Jürgen [As Td Jh]
Dealt to Zoe [2s]
Zoe: brings in for $0.02
Jürgen: folds
Uncalled bet ($0.02) returned to Zoe
Zoe collected $0.02 from pot
*** SUMMARY ***
Total pot $0.02 | Rake $0
Seat 4: Jürgen folded on the 3rd Street
Seat 8: Zoe collected ($0.02)
"""
GOOD_WHEN = "2026/11/29 10:22:38"
#: the second hand's header line, after the first hand and a blank line
SECOND_HEADER = HAND.count("\n") + 2


def _hand(hand_id: int, when: str = GOOD_WHEN) -> str:
    return HAND.format(hand_id=hand_id, when=when)


def _problems(db: Path, *options: str) -> list[dict[str, object]]:
    result = runner.invoke(app, ["problems", "--db", str(db), "--format", "json", *options])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)  # type: ignore[no-any-return]


@pytest.mark.parametrize("streamed", [False, True], ids=["whole", "streamed"])
def test_a_file_mixing_utf8_and_cp1252_hands_keeps_one_player_and_says_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, streamed: bool) -> None:
    if streamed:  # a big file is read as a stream: the same lines, the same note
        monkeypatch.setattr("hhtool.ingest.files.STREAM_MIN_BYTES", 0)
    history = tmp_path / "two-clients.txt"
    history.write_bytes(_hand(9200000001).encode("utf-8") + b"\n" + _hand(9200000002).encode("cp1252"))
    db = tmp_path / "h.duckdb"
    result = runner.invoke(app, ["import", str(history), "--db", str(db)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "2 stored" in result.stdout
    cp1252_lines = [SECOND_HEADER - 1 + number for number, line in enumerate(HAND.splitlines(), 1) if "ü" in line]
    runs = ", ".join(map(str, cp1252_lines))
    note = (f"note: decoding: read in two encodings: {len(cp1252_lines)} lines are not UTF-8 and were read as cp1252 "
            f"(lines {runs}), the others as UTF-8")
    assert note in result.stdout, result.stdout
    with duckdb.connect(str(db), read_only=True) as connection:
        players = {row[0] for row in connection.execute("SELECT DISTINCT player FROM seats").fetchall()}
        [(encoding,)] = connection.execute("SELECT encoding FROM files").fetchall()
    assert players == {"Jürgen", "Zoe"}  # not also 'JÃ¼rgen'
    assert encoding == "utf-8+cp1252"
    [mixed] = _problems(db, "--kind", "defects")
    assert mixed["code"] == "mixed_encoding" and str(mixed["file"]).endswith("two-clients.txt")
    assert "utf-8+cp1252" in str(mixed["reason"])


def test_a_whole_cp1252_file_is_no_defect(tmp_path: Path) -> None:
    history = tmp_path / "old-client.txt"
    history.write_bytes((_hand(9200000003) + "\n" + _hand(9200000004)).encode("cp1252"))
    db = tmp_path / "h.duckdb"
    result = runner.invoke(app, ["import", str(history), "--db", str(db)])
    assert result.exit_code == 0 and "two encodings" not in result.stdout, result.output
    with duckdb.connect(str(db), read_only=True) as connection:
        assert connection.execute("SELECT DISTINCT player FROM seats ORDER BY 1").fetchall() == [("Jürgen",), ("Zoe",)]
        assert connection.execute("SELECT encoding FROM files").fetchall() == [("cp1252",)]
    assert _problems(db, "--kind", "defects") == []


@pytest.mark.slow
@pytest.mark.parametrize(("when", "why"), [
    ("2026/02/30 10:22:38", "day is out of range for month"),
    ("2026/11/29 25:61:61", "hour must be in 0..23"),
    ("0000/00/00 10:22:38", "year 0 is out of range"),
    ("99999/01/01 10:22:38", "a year of 5 digits"),  # was stored as 9999-01-01
    ("12026/11/29 10:22:38", "a year of 5 digits"),  # was stored as 2026-11-29
])
def test_an_impossible_date_is_kept_as_none_and_listed_with_its_line(tmp_path: Path, when: str, why: str) -> None:
    history = tmp_path / "dates.txt"
    history.write_text(_hand(9300000001) + "\n" + edited(_hand(9300000002), GOOD_WHEN, when), encoding="utf-8")
    db = tmp_path / "h.duckdb"
    result = runner.invoke(app, ["import", str(history), "--db", str(db)])
    # the hand is stored, nothing failed: exit 0 (README, Conventions); the defect is listed by `problems`
    assert result.exit_code == 0, result.output
    assert "2 hands found = 2 stored" in result.stdout
    with duckdb.connect(str(db), read_only=True) as connection:
        stored = dict(connection.execute("SELECT hand_id, started_at FROM hands").fetchall())
    assert stored["9300000001"] is not None and str(stored["9300000001"]) == "2026-11-29 10:22:38"
    assert stored["9300000002"] is None  # never moved to another date
    [defect] = _problems(db)[-1:]
    assert (defect["problem"], defect["code"], defect["hand_id"], defect["line"]) == (
        "defect", "bad_date", "9300000002", SECOND_HEADER)
    assert str(defect["file"]).endswith("dates.txt")
    assert f"not a date: '{when}' ({why})" in str(defect["reason"])
    text = runner.invoke(app, ["problems", "--db", str(db), "--kind", "defects"], env={"COLUMNS": "200"})
    assert text.exit_code == 0 and text.stdout.startswith("history defects (stored anyway): 1\n"), text.output
    [row] = [line for line in text.stdout.splitlines() if "dates.txt" in line]
    assert row.split()[1:4] == [str(SECOND_HEADER), "9300000002", "bad_date"] and when in row
    by_code = runner.invoke(app, ["problems", "--db", str(db), "--code", "bad_date", "--format", "json"])
    assert [item["hand_id"] for item in json.loads(by_code.stdout)] == ["9300000002"]


def test_a_local_time_stands_when_the_et_time_is_no_date(tmp_path: Path) -> None:
    """Both times stated: the one that is a date is the hand's, the other one is told."""
    history = tmp_path / "two-times.txt"
    header = ("PokerStars Hand #9300000009:  7 Card Stud Hi/Lo Limit ($0.04/$0.08 USD) - 2026/11/29 16:22:38 CET "
              "[2026/02/30 10:22:38 ET]")
    history.write_text(edited(_hand(9300000009), _hand(9300000009).splitlines()[0], header), encoding="utf-8")
    db = tmp_path / "h.duckdb"
    assert runner.invoke(app, ["import", str(history), "--db", str(db)]).exit_code == 0
    with duckdb.connect(str(db), read_only=True) as connection:
        [(started_at, zone)] = connection.execute("SELECT started_at, timezone FROM hands").fetchall()
    assert (str(started_at), zone) == ("2026-11-29 16:22:38", "CET")
    [defect] = _problems(db, "--kind", "defects")
    assert defect["line"] == 1 and "'2026/02/30 10:22:38'" in str(defect["reason"])
