from __future__ import annotations

import pytest

from hhtool.reader import decode_bytes

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

from hhtool.reader import scan_stream, stream_line_batches  # noqa: E402

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
