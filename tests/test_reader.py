from __future__ import annotations

import pytest

from hhtool.ingest.reader import decode_bytes

TEXT = "PokerStars Game #1:  x\nSeat 1: Bob ($1 in chips) \nlast"


@pytest.mark.parametrize(
    ("data", "encoding"),
    [
        (TEXT.encode("utf-8"), "utf-8"),
        (b"\xef\xbb\xbf" + TEXT.encode("utf-8"), "utf-8-sig"),
        (TEXT.encode("utf-16"), "utf-16"),  # BOM, native order
        (b"\xff\xfe" + TEXT.encode("utf-16-le"), "utf-16"),
        (b"\xfe\xff" + TEXT.encode("utf-16-be"), "utf-16"),
        (TEXT.encode("utf-16-le"), "utf-16-le"),  # no BOM: recognised by its NUL bytes
        (TEXT.replace("\n", "\r\n").encode("cp1252"), "utf-8"),
    ],
)
def test_encodings_and_line_ends(data: bytes, encoding: str) -> None:
    decoded = decode_bytes(data)
    assert decoded.encoding == encoding
    assert decoded.lines == ("PokerStars Game #1:  x", "Seat 1: Bob ($1 in chips)", "last")


def test_cp1252_fallback_keeps_euro_sign() -> None:
    decoded = decode_bytes("Seat 1: Zoë (€1.50)\r\n".encode("cp1252"))
    assert decoded.encoding == "cp1252"
    assert decoded.lines == ("Seat 1: Zoë (€1.50)",)


def test_mixed_line_ends_blank_lines_and_missing_final_newline_keep_line_numbers() -> None:
    decoded = decode_bytes(b"a\r\n\r\nb\n\rc   \rd")
    assert decoded.lines == ("a", "", "b", "", "c", "d")


def test_odd_length_utf16_is_reported_not_fatal() -> None:
    decoded = decode_bytes("\ufeffab\n".encode("utf-16-le") + b"\n")
    assert decoded.lines == ("ab",)
    assert decoded.problems and "odd number of bytes" in decoded.problems[0]


def test_empty_file() -> None:
    assert decode_bytes(b"").lines == ()


import hashlib  # noqa: E402

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from hhtool.ingest.reader import scan_stream, stream_line_batches  # noqa: E402

_TEXTS = st.lists(st.sampled_from(["Seat 1: Zoë (€1.50)", "  ", "", "x\ty", "PokerStars Hand #1:", "\ufeffA", "é€"]),
                  max_size=30)
_ENDINGS = st.sampled_from(["\n", "\r\n", "\r"])


@settings(max_examples=200, deadline=None)
@given(_TEXTS, _ENDINGS, st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "cp1252"]),
       st.binary(max_size=6), st.integers(1, 7))
def test_streaming_reads_exactly_what_whole_file_decoding_reads(lines: list[str], ending: str, encoding: str,
                                                                junk: bytes, chunk: int) -> None:
    import io

    data = ending.join(lines).encode(encoding, errors="replace")
    if not encoding.startswith("utf-16"):
        data += junk  # invalid UTF-8 sends both readers to cp1252
    whole = decode_bytes(data)
    if whole.problems:  # an odd-length UTF-16 file: the stream reports the last byte otherwise
        return
    scanned = scan_stream(io.BytesIO(data), chunk=chunk)
    assert scanned.encoding.label == whole.encoding
    # default blocks, then small ones that cut lines, CRLF pairs and multi-byte characters at every place
    for batches in (stream_line_batches(io.BytesIO(data), scanned.encoding),
                    stream_line_batches(io.BytesIO(data), scanned.encoding, chars=chunk)):
        assert tuple(line for batch in batches for line in batch) == whole.lines
    prefix = len(data) // 2
    expected = hashlib.sha256(data[:prefix]).hexdigest() if prefix > 0 else None
    assert scan_stream(io.BytesIO(data), prefix_size=prefix, chunk=chunk).prefix_sha256 == expected


# ---------------------------------------------------------------- encoding line by line

from hhtool.ingest.reader import LINE_END_BLANKS, MAX_LINE_BYTES, MIXED, LineReader, choose_encoding  # noqa: E402
from hhtool.model import CUT_LINE_MARK  # noqa: E402

NAMES = "Seat 1: Jösé ($1 in chips)\nSeat 2: Zoë ($2 in chips)\nJösé: bets $1\n"


@pytest.mark.parametrize(
    ("data", "encoding", "lines", "bad_bytes"),
    [
        # a stray byte among UTF-8 letters on its line: the line stays UTF-8, that byte alone replaced and located
        (NAMES.encode() + "Jösé \xff byte\n".encode().replace(b"\xc3\xbf", b"\xff"), "utf-8",
         ("Seat 1: Jösé ($1 in chips)", "Seat 2: Zoë ($2 in chips)", "Jösé: bets $1", "Jösé \ufffd byte"), ((4, 1),)),
        # a truncated sequence at the very end is one bad byte of the last line
        (NAMES.encode() + "Zoë Jösé \xc3".encode()[:-1], "utf-8",
         ("Seat 1: Jösé ($1 in chips)", "Seat 2: Zoë ($2 in chips)", "Jösé: bets $1", "Zoë Jösé \ufffd"), ((4, 1),)),
        # a BOM'd UTF-8 file with bad bytes keeps its BOM reading
        (b"\xef\xbb\xbf" + NAMES.encode() + "Zoë Jösé ".encode() + b"\x80\x80\n", "utf-8-sig",
         ("Seat 1: Jösé ($1 in chips)", "Seat 2: Zoë ($2 in chips)", "Jösé: bets $1", "Zoë Jösé \ufffd\ufffd"), ((4, 2),)),
        # a line whose only non-ASCII byte is not UTF-8 is cp1252, its byte kept: the file is read both ways
        (NAMES.encode() + b"stray \xff byte\n", MIXED,
         ("Seat 1: Jösé ($1 in chips)", "Seat 2: Zoë ($2 in chips)", "Jösé: bets $1", "stray ÿ byte"), ()),
        # hands of a UTF-8 client and of a cp1252 client in one file: every name read as written
        (NAMES.encode() + NAMES.encode("cp1252"), MIXED, 2 * ("Seat 1: Jösé ($1 in chips)", "Seat 2: Zoë ($2 in chips)",
                                                              "Jösé: bets $1"), ()),
        # every non-ASCII byte ill-formed: cp1252, nothing replaced
        (NAMES.encode("cp1252") + "10€\n".encode("cp1252"), "cp1252",
         ("Seat 1: Jösé ($1 in chips)", "Seat 2: Zoë ($2 in chips)", "Jösé: bets $1", "10€"), ()),
        # cp1252 that happens to hold one well-formed pair (Ã©) among many ill-formed bytes: cp1252
        ("Ã© é è ê ë\n".encode("cp1252"), "cp1252", ("Ã© é è ê ë",), ()),
        # genuine U+FFFD in a UTF-8 file is well-formed, not a bad byte
        ("a \ufffd b é\n".encode(), "utf-8", ("a \ufffd b é",), ()),
        # a tie (one good character, one bad byte): cp1252 keeps every byte
        (b"\xc3\xa9 \xe9\n", "cp1252", ("Ã© é",), ()),
    ],
)
def test_encoding_is_decided_line_by_line(data: bytes, encoding: str, lines: tuple[str, ...],
                                                         bad_bytes: tuple[tuple[int, int], ...]) -> None:
    import io

    decoded = decode_bytes(data)
    assert (decoded.encoding, decoded.lines, decoded.bad_bytes) == (encoding, lines, bad_bytes)
    assert bool(bad_bytes) == any("U+FFFD" in problem for problem in decoded.problems)
    assert (encoding == MIXED) == any("read in two encodings" in problem for problem in decoded.problems)
    scanned = scan_stream(io.BytesIO(data), chunk=3)  # the streamed reading decides the same, a few bytes at a time
    assert scanned.encoding.label == encoding
    reader = LineReader(io.BytesIO(data), scanned.encoding, block=2)
    assert tuple(line for batch in reader for line in batch) == lines
    assert tuple(reader.bad_bytes) == bad_bytes


_CLEAN = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=12)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_CLEAN, st.integers(0, 3)), min_size=1, max_size=12), st.integers(1, 9))
def test_stray_bytes_are_judged_line_by_line(rows: list[tuple[str, int]], block: int) -> None:
    """Each line gets ``count`` stray 0xFF bytes (never UTF-8) at its end; while the line's well-formed
    non-ASCII text outweighs them the line stays UTF-8 and exactly those bytes are replaced, on their
    line; otherwise the line is cp1252, every byte kept. The file is named by how its lines read."""
    import io

    data = b"".join(text.encode() + b"\xff" * count + b"\n" for text, count in rows)
    expected_lines, bad_bytes, ways = [], [], set()
    for number, (text, count) in enumerate(rows, 1):
        valid = sum(1 for char in text if ord(char) > 127)
        if count and valid <= count:
            expected_lines.append((text.encode() + b"\xff" * count).decode("cp1252", "hhtool-latin1").rstrip(LINE_END_BLANKS))
            ways.add("cp1252")
            continue
        expected_lines.append((text + "\ufffd" * count).rstrip(LINE_END_BLANKS))
        bad_bytes.extend([(number, count)] if count else [])
        ways.update(["utf-8"] if valid else [])
    decoded = decode_bytes(data)
    assert decoded.encoding == {frozenset(["utf-8", "cp1252"]): MIXED, frozenset(["cp1252"]): "cp1252"}.get(
        frozenset(ways), "utf-8")
    assert decoded.lines == tuple(expected_lines)
    assert decoded.bad_bytes == tuple(bad_bytes)
    reader = LineReader(io.BytesIO(data), choose_encoding(data, True), block=block)
    assert tuple(line for batch in reader for line in batch) == tuple(expected_lines)


# ---------------------------------------------------------------- the bound on a line


def _reference_lines(data: bytes, bound: int) -> list[str]:
    """What the reader must give, worked out on the whole text: universal newlines, right-stripped,
    lines over the bound replaced by their start and the cut mark."""
    import re

    parts = re.split(rb"\r\n|\r|\n", data)
    if parts and parts[-1].rstrip() == b"":
        parts.pop()
    out = []
    for number, part in enumerate(parts, 1):
        if len(part) > bound:
            out.append(f"{part[:800].decode('utf-8', 'ignore')[:200]}{CUT_LINE_MARK}line {number} is {len(part):,} bytes"
                       f" long, over the {bound:,}-byte line bound; it was not read")
        else:
            out.append(part.decode("utf-8").rstrip())
    return out


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["a", "é", " ", "Seat 1: x"]), st.integers(0, 40)), max_size=12),
       st.lists(st.sampled_from(["\n", "\r\n", "\r"]), min_size=12, max_size=12), st.integers(1, 17), st.integers(4, 30))
def test_long_lines_are_cut_wherever_the_blocks_fall(rows: list[tuple[str, int]], breaks: list[str], block: int,
                                                     bound: int) -> None:
    import io

    data = "".join(text * count + breaks[index] for index, (text, count) in enumerate(rows)).encode()
    reader = LineReader(io.BytesIO(data), choose_encoding(data, True), block=block, max_line_bytes=bound)
    assert [line for batch in reader for line in batch] == _reference_lines(data, bound)
    assert reader.lines == len(_reference_lines(data, bound))
    assert [number for number, _ in reader.cut_lines] == [n for n, line in enumerate(_reference_lines(data, bound), 1)
                                                          if CUT_LINE_MARK in line]


def test_a_huge_line_is_read_in_linear_time_without_being_held() -> None:
    """64 MiB on one line, between two short ones: read a block at a time, cut, its neighbours intact."""
    import time

    class Endless(io.RawIOBase):  # bytes made on demand, so the test holds no 64 MiB either
        def __init__(self) -> None:
            self.left = 64 << 20

        def readable(self) -> bool:
            return True

        def readinto(self, buffer: bytearray) -> int:  # type: ignore[override]
            size = min(len(buffer), self.left)
            buffer[:size] = b"x" * size
            self.left -= size
            return size

    stream = io.BufferedReader(Endless())
    parts = [io.BytesIO(b"before\r\n"), stream, io.BytesIO(b"\r\nafter\n")]

    class Chained(io.RawIOBase):
        def readable(self) -> bool:
            return True

        def read(self, size: int = -1) -> bytes:
            while parts:
                data = parts[0].read(size)
                if data:
                    return data
                parts.pop(0)
            return b""

    started = time.perf_counter()
    reader = LineReader(Chained(), choose_encoding(b"", True))  # type: ignore[arg-type]
    lines = [line for batch in reader for line in batch]
    assert time.perf_counter() - started < 30
    assert lines[0] == "before" and lines[2] == "after" and len(lines) == 3
    assert lines[1].startswith("x" * 200 + CUT_LINE_MARK) and f"is {64 << 20:,} bytes long" in lines[1]
    assert reader.cut_lines == [(2, 64 << 20)] and MAX_LINE_BYTES == 1 << 20


import io  # noqa: E402
