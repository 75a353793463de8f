"""A damaged archive costs only what comes after the damage (issue #28, item 6): a truncated
``.gz``, a corrupt deflate block, bytes after the gzip data and a zip member with corrupt data are
read up to the damage, as ``gzip -dc`` reads them; every hand before it is stored, and the import
says which file is damaged at which byte, as a failure of the file (exit 1, kept in
``import_errors`` with kind ``damaged``, listed by ``hhtool problems``)."""

from __future__ import annotations

import json
import re
import zipfile
import zlib
from pathlib import Path
from typing import Any

import duckdb
import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.cli.common import EXIT_FINDINGS, EXIT_OK
from tests.inputs import SAMPLES

runner = CliRunner()
TEXT = (SAMPLES / "pokerstars" / "simulated-seed1.txt").read_text(encoding="utf-8")
HANDS = len(re.findall(r"^PokerStars Hand #", TEXT, re.M))  # 120
#: the same hands under other ids: a second run of hands after the first
OTHER = re.sub(r"Hand #(\d+)", r"Hand #7\1", TEXT)


def _two_parts(first: str, second: str) -> tuple[bytes, int]:
    """A gzip file of ``first`` then ``second``, and the offset of the first deflate block of
    ``second``: a full flush ends ``first``'s blocks on a byte boundary, so that a block header
    of ``second`` can be damaged alone and what ``first`` expands to is known exactly."""
    compressor = zlib.compressobj(6, zlib.DEFLATED, 31)
    data = compressor.compress(first.encode()) + compressor.flush(zlib.Z_FULL_FLUSH)
    return data + compressor.compress(second.encode()) + compressor.flush(), len(data)


def _import(path: Path, db: Path) -> tuple[int, dict[str, Any], str]:
    """(exit code, the JSON summary, the text summary) of importing ``path`` twice into fresh
    stores: once as JSON, once as text."""
    as_json = runner.invoke(app, ["import", str(path), "--db", str(db), "--jobs", "1", "--format", "json"])
    # (a wide terminal: the summary's lines name pytest's folders, longer under xdist; the width rule is
    # test_import_feedback's)
    as_text = runner.invoke(app, ["import", str(path), "--db", ":memory:", "--jobs", "1"], env={"COLUMNS": "250"})
    assert as_text.exit_code == as_json.exit_code, as_text.output
    return as_json.exit_code, json.loads(as_json.stdout), as_text.stdout


def _damage_rows(db: Path) -> list[tuple[Any, ...]]:
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute("SELECT file, line, reason FROM import_errors WHERE kind = 'damaged'").fetchall()


def _damaged_at(report: dict[str, Any]) -> int:
    [damage] = [failure for failure in report["failures"] if failure["kind"] == "damaged"]
    found = re.search(r"damaged archive at byte ([\d,]+) of", damage["reason"])
    assert found, damage
    return int(found.group(1).replace(",", ""))


def said(text: str) -> str:
    """The summary's words with its line breaks folded (a reason wraps under its line at 80 columns)."""
    return " ".join(text.split())


@pytest.mark.slow
def test_a_corrupt_block_keeps_every_hand_before_it(tmp_path: Path) -> None:
    data, second = _two_parts(TEXT, OTHER)
    corrupt = bytearray(data)
    corrupt[second] = 0xFF  # BFINAL 1, BTYPE 11: "invalid block type"
    path = tmp_path / "corrupt.txt.gz"
    path.write_bytes(bytes(corrupt))
    code, summary, text = _import(path, tmp_path / "store.duckdb")
    assert code == EXIT_FINDINGS, text
    [report] = summary["files"]
    assert report["stored"] == HANDS, report  # the whole first part, every hand complete
    assert report["failed"] == 1 and report["hands_found"] == HANDS + 1 and not report["incomplete"]
    assert _damaged_at(report) == second
    assert f"damaged archive at byte {second:,} of {len(data):,}: invalid block type" in said(text)
    assert f"{path}: {HANDS} stored, 1 failed" in text
    assert summary["unreadable"] == []
    [(file, line, reason)] = _damage_rows(tmp_path / "store.duckdb")
    assert file == str(path) and line == TEXT.count("\n") + 1 and "invalid block type" in reason
    problems = runner.invoke(app, ["problems", "--db", str(tmp_path / "store.duckdb"), "--format", "json"])
    assert "invalid block type" in problems.stdout


@pytest.mark.slow
def test_a_truncated_gz_keeps_the_hands_before_the_cut(tmp_path: Path) -> None:
    data, second = _two_parts(TEXT, OTHER)
    cut = second + (len(data) - second) // 2  # inside the second part's hands
    while True:  # where the last hand is cut before its summary (a cut in it is issue #28's item 1)
        expanded = zlib.decompressobj(31).decompress(data[:cut])  # what `gzip -dc` recovers
        if "*** SUMMARY ***" not in expanded.decode().rpartition("PokerStars Hand #")[2]:
            break
        cut -= 100
    path = tmp_path / "cut.txt.gz"
    path.write_bytes(data[:cut])
    complete = len(re.findall(r"^PokerStars Hand #", expanded.decode(), re.M)) - 1  # the last one is cut off
    assert complete > HANDS
    code, summary, text = _import(path, tmp_path / "store.duckdb")
    assert code == EXIT_FINDINGS, text
    [report] = summary["files"]
    assert report["stored"] == complete and report["incomplete"] == 1 and report["failed"] == 1, report
    assert _damaged_at(report) == cut
    assert f"damaged archive at byte {cut:,} of {cut:,}: the file ends inside the compressed data (truncated)" in said(text)
    assert f"the {len(expanded):,} bytes expanded before it were read" in text
    assert len(_damage_rows(tmp_path / "store.duckdb")) == 1


@pytest.mark.slow
def test_bytes_after_the_gzip_data_cost_no_hand(tmp_path: Path) -> None:
    data, _ = _two_parts(TEXT, OTHER)
    path = tmp_path / "trailing.txt.gz"
    path.write_bytes(data + b"trailing bytes, no gzip member\n")
    code, summary, text = _import(path, tmp_path / "store.duckdb")
    assert code == EXIT_FINDINGS, text
    [report] = summary["files"]
    assert report["stored"] == 2 * HANDS and report["failed"] == 1 and not report["incomplete"], report
    assert _damaged_at(report) == len(data)
    assert "31 bytes after the end of the gzip data, not gzip data" in said(text)


@pytest.mark.slow
def test_gzip_members_one_after_another_and_nul_padding_are_no_damage(tmp_path: Path) -> None:
    first, _ = _two_parts(TEXT, "")
    second, _ = _two_parts(OTHER, "")
    path = tmp_path / "members.txt.gz"
    path.write_bytes(first + second + b"\0" * 1000)  # as `cat a.gz b.gz`, padded as tape blocks are
    code, summary, text = _import(path, tmp_path / "store.duckdb")
    assert code == EXIT_OK, text
    assert summary["totals"]["stored"] == 2 * HANDS and summary["totals"]["failed"] == 0


@pytest.mark.slow
def test_a_damaged_zip_member_costs_only_its_rest(tmp_path: Path) -> None:
    path = tmp_path / "two.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("a.txt", TEXT)
        archive.writestr("b.txt", OTHER)
        info = archive.getinfo("a.txt")
    data = bytearray(path.read_bytes())
    start = info.header_offset + 30 + len(info.filename) + len(info.extra)
    middle = start + info.compress_size // 2
    data[middle:middle + 8] = b"\xff" * 8
    path.write_bytes(bytes(data))
    code, summary, text = _import(path, tmp_path / "store.duckdb")
    assert code == EXIT_FINDINGS, text
    reports = {report["path"].rpartition("!")[2]: report for report in summary["files"]}
    assert reports["b.txt"]["stored"] == HANDS and not reports["b.txt"]["failed"]
    damaged = reports["a.txt"]
    assert 0 < damaged["stored"] < HANDS, damaged
    assert middle <= _damaged_at(damaged) <= start + info.compress_size
    [(file, _, _)] = _damage_rows(tmp_path / "store.duckdb")
    assert file == f"{path}!a.txt"
