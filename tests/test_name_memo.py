"""The driver's memo of lines resolved against a set of seated names (hhtool.sites.kit.lines): from the
second hand that seats the same players on, a line read before at that table takes its remembered
reading. Every text sample, its players renamed to hostile names (": calls", brackets, another's
name), is read three times by one parser (the memo filling, then used) and must give every token
exactly as a parser that keeps no memo does; the memo must have been used, with lines whose reading
the names changed among those remembered (else the test proves nothing)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hhtool.ingest.reader import decode_bytes
from hhtool.model import RawHand
from hhtool.sites import detect
from hhtool.sites.kit.lines import LineGrammar, LineParser
from tests.test_hostile_names import SAMPLE_FILES, _rename_file

TEXT_FILES = [path for path in SAMPLE_FILES if path.suffix == ".txt"]


def _tokens(parser: LineParser, raws: list[RawHand]) -> list[object]:
    outcome: list[object] = []
    for raw in raws:
        try:
            outcome.append([(t.type, t.value, t.groups, t.number, t.index) for t in parser.parse(raw.text, raw.first_line)])
        except Exception as error:  # the same error either way
            outcome.append((type(error).__name__, str(error)))
    return outcome


@pytest.mark.parametrize("path", TEXT_FILES, ids=lambda path: f"{path.parent.name}/{path.name[:30]}")
def test_the_memo_reads_every_line_as_without_it(path: Path) -> None:
    text, _, _ = _rename_file(path, 0)
    lines = decode_bytes(text.encode("utf-8")).lines
    site = detect(lines)
    assert site is not None and site.line_formats(), path
    raws = list(site.split(lines, str(path)))
    for line_format in site.line_formats():
        name = line_format.grammar_name  # type: ignore[attr-defined]
        mine = [raw for raw in raws if line_format.hand_start is None or line_format.hand_start.match(raw.lines[0])]
        if not mine:
            continue
        with_memo, without = LineGrammar(name)._parser, LineGrammar(name)._parser
        without.MAX_MEMOS = 0
        expected = _tokens(without, mine)
        for _ in range(3):
            assert _tokens(with_memo, mine) == expected
        assert without._memos == 0
        if any(with_memo._resolved):  # names were seated (a grammar without seated names keeps no memo)
            assert with_memo._memos > 0, "the hands were read three times, yet no memo was used"


def test_lines_the_names_read_otherwise_are_remembered_so() -> None:
    """The renamed PokerStars sample holds lines whose plain reading splits a hostile name ("Bob: calls
    $5: calls $1"); the memo keeps them with the reading the names give, not the plain one."""
    path = next(path for path in TEXT_FILES if path.parent.name == "pokerstars")
    text, _, _ = _rename_file(path, 0)
    site = detect(decode_bytes(text.encode("utf-8")).lines)
    assert site is not None
    raws = list(site.split(decode_bytes(text.encode("utf-8")).lines, str(path)))
    parser = LineGrammar("pokerstars")._parser
    _tokens(parser, raws)
    _tokens(parser, raws)
    remembered = [entry for memo in parser._resolved.values() if memo for entry in memo.values()]
    assert remembered
    assert any(plain is not final for plain, final in remembered), "no line's reading was changed by the names"
