"""Read hand-history files: bytes → text lines, whatever the client wrote.

Sites export UTF-8 (with or without BOM), UTF-16 LE/BE with BOM, and cp1252; line ends may be
CRLF, LF, CR or mixed, lines carry trailing blanks, the last line may lack its newline.
Lines come back right-stripped with line numbers preserved (line ``n`` is ``lines[n - 1]``).

>>> decode_bytes(b"\\xef\\xbb\\xbfA  \\r\\nB\\r\\n").lines
('A', 'B')
>>> decode_bytes("Seat 1: é".encode("utf-16")).encoding
'utf-16'
>>> decode_bytes(b"caf\\xe9 10\\x80").lines
('café 10€',)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True, slots=True)
class DecodedFile:
    encoding: str
    lines: tuple[str, ...]
    problems: tuple[str, ...] = ()  # decoding trouble worth telling the user


def _looks_like_bomless_utf16(data: bytes) -> str | None:
    """UTF-16 text of Latin letters has a NUL in every other byte, from the very first one."""
    sample = data[:4096]
    if len(sample) < 8:
        return None
    half = len(sample) // 2
    even_nuls, odd_nuls = sample[0::2].count(0), sample[1::2].count(0)
    if sample[1] == 0 and sample[0] != 0 and odd_nuls > 0.9 * half and even_nuls < 0.02 * half:
        return "utf-16-le"
    if sample[0] == 0 and sample[1] != 0 and even_nuls > 0.9 * half and odd_nuls < 0.02 * half:
        return "utf-16-be"
    return None


def decode_bytes(data: bytes) -> DecodedFile:
    problems: list[str] = []
    if data.startswith(b"\xef\xbb\xbf"):
        encoding, body = "utf-8-sig", data[3:]
    elif data.startswith(b"\xff\xfe") or data.startswith(b"\xfe\xff"):
        encoding, body = "utf-16", data
    else:
        encoding, body = (_looks_like_bomless_utf16(data) or "utf-8"), data
    if encoding.startswith("utf-16"):
        if len(body) % 2:
            problems.append("odd number of bytes in a UTF-16 file: the last byte was dropped")
            body = body[:-1]
        text = body.decode(encoding, errors="replace")
    else:
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            # cp1252 leaves five bytes undefined; latin-1 maps them so nothing is lost.
            try:
                text, encoding = body.decode("cp1252"), "cp1252"
            except UnicodeDecodeError:
                text, encoding = body.decode("latin-1"), "latin-1"
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = [line.rstrip() for line in _LINE_BREAK.split(text)]
    if lines and lines[-1] == "":
        lines.pop()
    return DecodedFile(encoding, tuple(lines), tuple(problems))


def read_file(path: Path) -> DecodedFile:
    return decode_bytes(path.read_bytes())
