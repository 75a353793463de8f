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
