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

import codecs
import hashlib
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

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


def _latin1_for_undefined(error: UnicodeError) -> tuple[str, int]:
    """cp1252 leaves five bytes undefined; read those as latin-1 so that nothing is lost."""
    assert isinstance(error, UnicodeDecodeError)
    return error.object[error.start:error.end].decode("latin-1"), error.end


codecs.register_error("hhtool-latin1", _latin1_for_undefined)


@dataclass(frozen=True, slots=True)
class Encoding:
    codec: str
    errors: str
    skip: int  # bytes of byte-order mark to skip before decoding
    label: str  # what the user is told


def choose_encoding(head: bytes, valid_utf8: bool) -> Encoding:
    """The encoding of a file from its first bytes and whether all of it is valid UTF-8."""
    if head.startswith(b"\xef\xbb\xbf"):
        return Encoding("utf-8", "strict", 3, "utf-8-sig") if valid_utf8 else Encoding("cp1252", "hhtool-latin1", 3, "cp1252")
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return Encoding("utf-16", "replace", 0, "utf-16")
    bomless = _looks_like_bomless_utf16(head)
    if bomless:
        return Encoding(bomless, "replace", 0, bomless)
    return Encoding("utf-8", "strict", 0, "utf-8") if valid_utf8 else Encoding("cp1252", "hhtool-latin1", 0, "cp1252")


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def decode_bytes(data: bytes) -> DecodedFile:
    problems: list[str] = []
    encoding = choose_encoding(data[:4096], _is_utf8(data))
    body = data[encoding.skip:]
    if encoding.codec.startswith("utf-16") and len(body) % 2:
        problems.append("odd number of bytes in a UTF-16 file: the last byte was dropped")
        body = body[:-1]
    text = body.decode(encoding.codec, errors=encoding.errors)
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = [line.rstrip() for line in _LINE_BREAK.split(text)]
    if lines and lines[-1] == "":
        lines.pop()
    return DecodedFile(encoding.label, tuple(lines), tuple(problems))


@dataclass
class ScannedStream:
    """A first pass over a file too big to hold: its digest, size, encoding and first lines."""

    sha256: str
    size: int
    encoding: Encoding
    head_lines: tuple[str, ...]
    prefix_sha256: str | None  # digest of the first ``prefix_size`` bytes, when asked for


def scan_stream(stream: BinaryIO, prefix_size: int | None = None, chunk: int = 1 << 20) -> ScannedStream:
    digest, prefix_digest = hashlib.sha256(), None
    utf8 = codecs.getincrementaldecoder("utf-8")()
    valid_utf8, size, head = True, 0, b""
    while block := stream.read(chunk):
        if prefix_size is not None and size < prefix_size <= size + len(block):
            prefix = digest.copy()
            prefix.update(block[: prefix_size - size])
            prefix_digest = prefix.hexdigest()
        digest.update(block)
        if len(head) < 65536:
            head += block[: 65536 - len(head)]
        if valid_utf8:
            try:
                utf8.decode(block)
            except UnicodeDecodeError:
                valid_utf8 = False
        size += len(block)
    if valid_utf8:
        try:
            utf8.decode(b"", final=True)
        except UnicodeDecodeError:
            valid_utf8 = False
    encoding = choose_encoding(head[:4096], valid_utf8)
    head_text = head[encoding.skip:].decode(encoding.codec, errors="replace" if encoding.errors == "strict" else encoding.errors)
    head_lines = tuple(line.rstrip() for line in _LINE_BREAK.split(head_text.lstrip("\ufeff")))[:-1]
    return ScannedStream(digest.hexdigest(), size, encoding, head_lines, prefix_digest)


def stream_line_batches(stream: BinaryIO, encoding: Encoding, chars: int = 1 << 20) -> Iterator[list[str]]:
    """The file's lines, right-stripped, in lists of about ``chars`` characters, decoded a block at
    a time (universal newlines: CRLF, LF and CR all end a line, exactly as :func:`decode_bytes`
    reads them). Splitting a whole block at once keeps the per-line work in C."""
    stream.read(encoding.skip)
    text = io.TextIOWrapper(stream, encoding=encoding.codec, errors=encoding.errors, newline=None)  # type: ignore[arg-type]
    carry, first = "", True
    while block := text.read(chars):
        if first:
            block, first = (block[1:] if block.startswith("\ufeff") else block), False
        parts = (carry + block).split("\n")
        carry = parts.pop()  # the line still being read ("" right after a line break)
        if parts:
            yield [part.rstrip() for part in parts]
    # like decode_bytes: a last line without a line break is dropped when it is blank
    if carry.rstrip():
        yield [carry.rstrip()]


def read_file(path: Path) -> DecodedFile:
    return decode_bytes(path.read_bytes())
