"""Read hand-history files: bytes → text lines, whatever the client wrote, within bounds.

Sites export UTF-8 (with or without BOM), UTF-16 LE/BE with BOM, and cp1252; line ends may be
CRLF, LF, CR or mixed, lines carry trailing blanks, the last line may lack its newline.
Lines come back right-stripped with line numbers preserved (line ``n`` is ``lines[n - 1]``).

The encoding is decided from the whole file: UTF-8 when most of its non-ASCII text is well-formed
UTF-8 (the few ill-formed bytes are replaced by U+FFFD and their lines noted in ``bad_bytes``),
cp1252 otherwise. A line longer than :data:`MAX_LINE_BYTES` is never held whole: its start is
kept, followed by :data:`~hhtool.model.CUT_LINE_MARK` and why, so the hand holding it fails with
that reason and its neighbours are read as usual.

>>> decode_bytes(b"\\xef\\xbb\\xbfA  \\r\\nB\\r\\n").lines
('A', 'B')
>>> decode_bytes("Seat 1: é".encode("utf-16")).encoding
'utf-16'
>>> decode_bytes(b"caf\\xe9 10\\x80").lines
('café 10€',)
>>> decoded = decode_bytes("Jösé\\nJösé \\xff\\n".encode("utf-8").replace(b"\\xc3\\xbf", b"\\xff"))
>>> decoded.encoding, decoded.lines, decoded.bad_bytes
('utf-8', ('Jösé', 'Jösé \\ufffd'), ((2, 1),))
"""

from __future__ import annotations

import bisect
import codecs
import hashlib
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from hhtool.model import CUT_LINE_MARK

#: the longest line read whole, in bytes of the file (UTF-16 text: of its UTF-8 form)
MAX_LINE_BYTES = 1 << 20
#: characters of an over-long line kept before the cut mark (a hand start on it still starts a hand)
CUT_LINE_KEPT = 200
#: site detection reads up to this many non-blank lines, within the first DETECT_BYTES of the file
DETECT_LINES = 40
DETECT_BYTES = 16 << 20
_BLOCK = 256 << 10
_LINE_BREAK = re.compile(rb"\r\n|\r|\n")
_ASCII = bytes(range(128))


# ---------------------------------------------------------------- choosing the encoding


@dataclass(frozen=True, slots=True)
class Encoding:
    codec: str
    errors: str
    skip: int  # bytes of byte-order mark to skip before decoding
    label: str  # what the user is told


@dataclass
class Utf8Evidence:
    """What a file's bytes say for and against UTF-8, gathered a block at a time."""

    valid: int = 0  # non-ASCII characters that are well-formed UTF-8
    invalid: int = 0  # ill-formed byte sequences (each would become one U+FFFD)
    _decoder: codecs.IncrementalDecoder = field(
        default_factory=lambda: codecs.getincrementaldecoder("utf-8")(errors="replace"), repr=False)
    _tail: bytes = field(default=b"", repr=False)  # last bytes of the previous block

    def add(self, block: bytes, final: bool = False) -> None:
        if block.isascii() and not self._decoder.getstate()[0]:  # the common case, at C speed
            self._tail = (self._tail + block)[-2:]
            return
        text = self._decoder.decode(block, final)
        non_ascii_chars = len(text) - (len(block) - len(block.translate(None, _ASCII)))
        # a U+FFFD written in the file is well-formed; count those ending in this block
        joined = self._tail + block
        genuine = joined.count(b"\xef\xbf\xbd") - self._tail.count(b"\xef\xbf\xbd")
        replaced = text.count("\ufffd") - genuine
        self.invalid += replaced
        self.valid += non_ascii_chars - replaced
        self._tail = joined[-2:]

    def finish(self) -> None:
        self.add(b"", final=True)

    @property
    def is_utf8(self) -> bool:
        """UTF-8 unless most non-ASCII text is not UTF-8: one stray byte does not make a file cp1252."""
        return self.invalid == 0 or self.valid > self.invalid


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

_NOTED: list[tuple[int, int]] = []  # (offset, length) of the ill-formed sequences of the last decode


def _note_and_replace(error: UnicodeError) -> tuple[str, int]:
    assert isinstance(error, UnicodeDecodeError)
    _NOTED.append((error.start, error.end - error.start))
    return "\ufffd", error.end


codecs.register_error("hhtool-note", _note_and_replace)


def choose_encoding(head: bytes, valid_utf8: bool) -> Encoding:
    """The encoding of a file from its first bytes and whether it is UTF-8 by its whole evidence."""
    if head.startswith(b"\xef\xbb\xbf"):
        return Encoding("utf-8", "strict", 3, "utf-8-sig") if valid_utf8 else Encoding("cp1252", "hhtool-latin1", 3, "cp1252")
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return Encoding("utf-16", "replace", 0, "utf-16")
    bomless = _looks_like_bomless_utf16(head)
    if bomless:
        return Encoding(bomless, "replace", 0, bomless)
    return Encoding("utf-8", "strict", 0, "utf-8") if valid_utf8 else Encoding("cp1252", "hhtool-latin1", 0, "cp1252")


# ---------------------------------------------------------------- reading lines


class _Transcoded(io.RawIOBase):
    """A UTF-16 stream read as UTF-8 bytes, so that lines are cut and bounded the same way."""

    def __init__(self, stream: BinaryIO, codec: str) -> None:
        super().__init__()
        self._stream = stream
        self._decoder = codecs.getincrementaldecoder(codec)(errors="replace")
        self._first = True
        self.odd_byte = False  # the file ended inside a UTF-16 code unit (that byte is dropped)

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        while True:
            block = self._stream.read(size if size > 0 else _BLOCK)
            if not block:
                self.odd_byte = bool(self._decoder.getstate()[0])
                return b""
            text = self._decoder.decode(block)
            if self._first and text:
                text, self._first = (text[1:] if text.startswith("\ufeff") else text), False
            if text:
                return text.encode("utf-8")


class LineReader:
    """A byte stream's lines in one encoding: right-stripped, in batches of about ``block`` bytes,
    in linear time, never holding more than one block and one line of at most ``max_line_bytes``.

    After iteration ``lines`` is the number of lines, ``bad_bytes`` the (line, ill-formed bytes
    replaced) of a UTF-8 file and ``cut_lines`` the (line, length in bytes) of the lines cut."""

    def __init__(self, stream: BinaryIO, encoding: Encoding, block: int | None = None,
                 max_line_bytes: int = MAX_LINE_BYTES) -> None:
        self.encoding = encoding
        self.block = max(block or _BLOCK, 1)
        self.max_line_bytes = max_line_bytes
        self.lines = 0
        self.bad_bytes: list[tuple[int, int]] = []
        self.cut_lines: list[tuple[int, int]] = []
        self.problems: list[str] = []
        self._transcoded: _Transcoded | None = None
        if encoding.codec.startswith("utf-16"):
            self._transcoded = _Transcoded(stream, encoding.codec)
            self._stream: BinaryIO = self._transcoded  # type: ignore[assignment]
            self._codec, self._errors = "utf-8", "strict"
        else:
            if encoding.skip:
                stream.read(encoding.skip)
            self._stream = stream
            self._codec, self._errors = encoding.codec, encoding.errors

    def __iter__(self) -> Iterator[list[str]]:
        bound = self.max_line_bytes
        carry = b""  # the start of the line being read, never longer than the bound
        cut: tuple[bytes, int] | None = None  # an over-long line being skipped: (its start, bytes so far)
        skip_lf = False  # the last block ended with CR: a LF opening the next one ends no line
        while True:
            block = self._stream.read(self.block)
            at_end = not block
            if skip_lf and block[:1] == b"\n":
                block = block[1:]
            skip_lf = False
            batch: list[str] = []
            if cut is not None:
                start, length = cut
                found = _first_break(block)
                if len(start) < 4 * CUT_LINE_KEPT:  # the kept start grows to its size first
                    start += block[: found if found >= 0 else len(block)][: 4 * CUT_LINE_KEPT - len(start)]
                if found < 0 and not at_end:
                    cut = (start, length + len(block))
                    continue
                found = len(block) if found < 0 else found
                batch.append(self._cut_line(start, length + found))
                cut = None
                rest = found + 1
                if found < len(block) and block[found] == 13:  # CR: a LF right after belongs to it
                    if rest < len(block):
                        rest += block[rest] == 10
                    else:
                        skip_lf = True
                block = block[rest:]
            work = carry + block
            if at_end:
                complete, carry = work, b""
            else:
                end = max(work.rfind(b"\n"), work.rfind(b"\r")) + 1
                complete, carry = work[:end], work[end:]
                skip_lf = skip_lf or (not carry and complete.endswith(b"\r"))
                if len(carry) > bound:
                    cut, carry = (carry[: 4 * CUT_LINE_KEPT], len(carry)), b""
            if complete:
                batch.extend(self._lines_of(complete, final=at_end))
            if batch:
                yield batch
            if at_end:
                if self._transcoded is not None and self._transcoded.odd_byte:
                    self.problems.append("odd number of bytes in a UTF-16 file: the last byte was dropped")
                return

    def _cut_line(self, start: bytes, length: int) -> str:
        self.lines += 1
        kept = start.decode(self._codec, errors="ignore")[:CUT_LINE_KEPT]
        self.cut_lines.append((self.lines, length))
        return (f"{kept}{CUT_LINE_MARK}line {self.lines} is {length:,} bytes long, over the {self.max_line_bytes:,}-byte"
                " line bound; it was not read")

    def _lines_of(self, chunk: bytes, final: bool) -> list[str]:
        """The lines of ``chunk``, which ends with a line break unless it ends the file."""
        first = self.lines + 1
        if len(chunk) > self.max_line_bytes and any(len(part) > self.max_line_bytes
                                                     for part in _LINE_BREAK.split(chunk)):
            lines = self._lines_with_cuts(chunk, final)
        else:
            try:
                text = chunk.decode(self._codec, errors=self._errors)
            except UnicodeDecodeError:
                text = self._decode_noting(chunk, first)
            parts = (text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text).split("\n")
            if first == 1 and parts[0].startswith("\ufeff"):
                parts[0] = parts[0][1:]
            lines = [part.rstrip() for part in parts]
            last = lines.pop()  # "" after the final line break, else the file's last line
            if last:
                lines.append(last)
            self.lines += len(lines)
        return lines

    def _lines_with_cuts(self, chunk: bytes, final: bool) -> list[str]:
        """The slow way, line by line, for a chunk holding a line over the bound."""
        parts = _LINE_BREAK.split(chunk)
        last = parts.pop()  # b"" after the final line break, else the file's last line
        unbroken = final and bool(last)  # the file ends without a line break
        if unbroken:
            parts.append(last)
        lines: list[str] = []
        for index, part in enumerate(parts):
            if len(part) > self.max_line_bytes:
                lines.append(self._cut_line(part[: 4 * CUT_LINE_KEPT], len(part)))
                continue
            try:
                text = part.decode(self._codec, errors=self._errors)
            except UnicodeDecodeError:
                text = self._decode_noting(part, self.lines + 1)
            text = (text[1:] if self.lines == 0 and text.startswith("\ufeff") else text).rstrip()
            if unbroken and index == len(parts) - 1 and not text:
                break  # like a blank last line without a line break: not a line
            self.lines += 1
            lines.append(text)
        return lines

    def _decode_noting(self, chunk: bytes, first_line: int) -> str:
        """Decode UTF-8 replacing each ill-formed sequence, noting how many bytes on which line."""
        _NOTED.clear()
        text = chunk.decode(self._codec, errors="hhtool-note")
        line_starts = [0] + [match.end() for match in _LINE_BREAK.finditer(chunk)]
        counts: dict[int, int] = {}
        for offset, length in _NOTED:
            line = first_line + bisect.bisect_right(line_starts, offset) - 1
            counts[line] = counts.get(line, 0) + length
        _NOTED.clear()
        self.bad_bytes.extend(sorted(counts.items()))
        return text


def _first_break(block: bytes) -> int:
    found = [index for index in (block.find(b"\n"), block.find(b"\r")) if index >= 0]
    return min(found) if found else -1


# ---------------------------------------------------------------- whole files and streams


@dataclass(frozen=True, slots=True)
class DecodedFile:
    encoding: str
    lines: tuple[str, ...]
    problems: tuple[str, ...] = ()  # decoding trouble worth telling the user
    bad_bytes: tuple[tuple[int, int], ...] = ()  # (file line, ill-formed UTF-8 bytes replaced by U+FFFD)
    cut_lines: tuple[tuple[int, int], ...] = ()  # (file line, length in bytes) of lines over the bound


def describe_bad_bytes(bad_bytes: tuple[tuple[int, int], ...] | list[tuple[int, int]], shown: int = 5) -> str:
    """One sentence saying where ill-formed bytes were replaced.

    >>> describe_bad_bytes([(3, 1), (9, 2)])
    '3 bytes that are not UTF-8 were replaced by U+FFFD (line 3: 1, line 9: 2)'
    >>> describe_bad_bytes([(7, 1)])
    '1 byte that is not UTF-8 was replaced by U+FFFD (line 7: 1)'
    """
    total = sum(count for _, count in bad_bytes)
    where = ", ".join(f"line {line}: {count}" for line, count in bad_bytes[:shown])
    more = f", and on {len(bad_bytes) - shown} more lines" if len(bad_bytes) > shown else ""
    verb = "byte that is not UTF-8 was" if total == 1 else "bytes that are not UTF-8 were"
    return f"{total} {verb} replaced by U+FFFD ({where}{more})"


def decode_bytes(data: bytes, max_line_bytes: int = MAX_LINE_BYTES) -> DecodedFile:
    evidence = Utf8Evidence()
    evidence.add(data, final=True)
    encoding = choose_encoding(data[:4096], evidence.is_utf8)
    reader = LineReader(io.BytesIO(data), encoding, max_line_bytes=max_line_bytes)
    lines = tuple(line for batch in reader for line in batch)
    problems = list(reader.problems)
    if reader.bad_bytes:
        problems.append(describe_bad_bytes(reader.bad_bytes))
    return DecodedFile(encoding.label, lines, tuple(problems), tuple(reader.bad_bytes), tuple(reader.cut_lines))


@dataclass
class ScannedStream:
    """A first pass over a file too big to hold: its digest, size, encoding and first lines."""

    sha256: str
    size: int
    encoding: Encoding
    head_lines: tuple[str, ...]  # the first lines, up to DETECT_LINES non-blank ones (within DETECT_BYTES)
    prefix_sha256: str | None  # digest of the first ``prefix_size`` bytes, when asked for


def scan_stream(stream: BinaryIO, prefix_size: int | None = None, chunk: int = 1 << 20) -> ScannedStream:
    """Digest, size and encoding of a stream in one pass; then, going back to its start, its first
    lines (a stream that cannot go back gives none)."""
    digest, prefix_digest = hashlib.sha256(), None
    evidence = Utf8Evidence()
    size, head = 0, b""
    while block := stream.read(chunk):
        if prefix_size is not None and size < prefix_size <= size + len(block):
            prefix = digest.copy()
            prefix.update(block[: prefix_size - size])
            prefix_digest = prefix.hexdigest()
        digest.update(block)
        if len(head) < 4096:
            head += block[: 4096 - len(head)]
        evidence.add(block)
        size += len(block)
    evidence.finish()
    encoding = choose_encoding(head, evidence.is_utf8)
    lines: tuple[str, ...] = ()
    if stream.seekable():
        stream.seek(0)
        lines = read_head(stream, encoding)
    return ScannedStream(digest.hexdigest(), size, encoding, lines, prefix_digest)


def read_head(stream: BinaryIO, encoding: Encoding) -> tuple[str, ...]:
    """A file's first lines, read until DETECT_LINES of them are not blank or DETECT_BYTES are read
    (a file that opens with thousands of blank lines is still recognised)."""
    reader = LineReader(stream, encoding, block=64 << 10)
    lines: list[str] = []
    nonblank, read = 0, 0
    for batch in reader:
        lines.extend(batch)
        nonblank += sum(1 for line in batch if line.strip())
        read += reader.block
        if nonblank >= DETECT_LINES or read >= DETECT_BYTES:
            break
    return tuple(lines)


def stream_line_batches(stream: BinaryIO, encoding: Encoding, chars: int | None = None) -> Iterator[list[str]]:
    """The file's lines, right-stripped, in lists of about ``chars`` bytes (universal newlines:
    CRLF, LF and CR all end a line, exactly as :func:`decode_bytes` reads them)."""
    yield from LineReader(stream, encoding, block=chars)


def read_file(path: Path) -> DecodedFile:
    return decode_bytes(path.read_bytes())


class CountingStream:
    """A byte stream that counts the bytes read from it (how far a streamed file is read, for the
    progress); ``stream`` is set once the file is opened."""

    def __init__(self) -> None:
        self.stream: BinaryIO | None = None
        self.read_bytes = 0

    def read(self, size: int = -1) -> bytes:
        assert self.stream is not None
        data = self.stream.read(size)
        self.read_bytes += len(data)
        return data
