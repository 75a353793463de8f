"""Read hand-history files: bytes → text lines, whatever the client wrote, within bounds.

Sites export UTF-8 (with or without BOM), UTF-16 LE/BE with BOM, and cp1252; line ends may be
CRLF, LF, CR or mixed, lines carry trailing blanks, the last line may lack its newline.
Lines come back right-stripped with line numbers preserved (line ``n`` is ``lines[n - 1]``).

UTF-16 is recognised by its BOM or NUL bytes; any other file is read line by line (:func:`read_line`):
a line stays UTF-8 while its well-formed non-ASCII text outweighs its ill-formed bytes (those few are
replaced by U+FFFD and noted in ``bad_bytes``), else it is cp1252. A file holding hands of a UTF-8
client and of a cp1252 client is so read each hand as written, and is named ``utf-8+cp1252`` with a
note of its cp1252 lines (a whole cp1252 file is just ``cp1252``).

A line longer than :data:`MAX_LINE_BYTES` is never held whole: its start is kept, followed by
:data:`~hhtool.model.CUT_LINE_MARK` and why, so the hand holding it fails with that reason and its
neighbours are read as usual.

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
#: what a line's end loses: ASCII blanks only. ``str.rstrip()`` also takes U+2028, U+2029, U+0085 and
#: the other Unicode spaces, which a player's name may end with (a line breaks at \r, \n, \r\n only)
LINE_END_BLANKS = " \t\r\n\x0b\x0c"
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
    """Which ways a file's lines read, gathered a block at a time: the same judgement of each line as
    :class:`LineReader` makes (:func:`read_line`), so that the encoding named before reading is the
    one the lines are read in."""

    utf8_lines: bool = False  # a line with non-ASCII text is read as UTF-8
    cp1252_lines: bool = False  # a line is not UTF-8 and is read as cp1252
    _pending: bytes = field(default=b"", repr=False)  # the file's last line so far, when it is not ASCII

    def add(self, block: bytes, final: bool = False) -> None:
        if self.utf8_lines and self.cp1252_lines:
            return  # both seen: nothing more can change the answer
        if not self._pending and block.isascii():  # the common case, at C speed
            return  # (an ASCII start of a line says nothing either way, and splits no character)
        data = self._pending + block
        end = len(data) if final else max(data.rfind(b"\n"), data.rfind(b"\r")) + 1
        if len(data) - end > MAX_LINE_BYTES:  # a line over the bound (cut, not read): judged by its start
            end = len(data)
        complete, self._pending = data[:end], data[end:]
        if complete.isascii():
            return
        try:
            complete.decode("utf-8")
        except UnicodeDecodeError:
            if self.cp1252_lines and not _WELL_FORMED.search(complete):
                return  # no well-formed character: no line here can read as UTF-8, and cp1252 is known
            for line in _LINE_BREAK.split(complete):
                if line.isascii() or (self.cp1252_lines and not _WELL_FORMED.search(line)):
                    continue  # no well-formed character: it cannot read as UTF-8, and cp1252 is known
                if read_line(line)[1] is None:
                    self.cp1252_lines = True
                else:
                    self.utf8_lines = True
                if self.mixed:
                    return
        else:
            self.utf8_lines = True

    def finish(self) -> None:
        self.add(b"", final=True)

    @property
    def is_utf8(self) -> bool:
        """UTF-8 unless every line with non-ASCII text is read as cp1252."""
        return self.utf8_lines or not self.cp1252_lines

    @property
    def mixed(self) -> bool:
        """Some lines read as UTF-8 and some as cp1252 (hands written by two clients, one file)."""
        return self.utf8_lines and self.cp1252_lines


#: a well-formed multi-byte UTF-8 character (RFC 3629); cp1252 text rarely holds one
_WELL_FORMED = re.compile(rb"[\xc2-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]|[\xe1-\xec\xee\xef][\x80-\xbf]{2}"
                          rb"|\xed[\x80-\x9f][\x80-\xbf]|\xf0[\x90-\xbf][\x80-\xbf]{2}|[\xf1-\xf3][\x80-\xbf]{3}"
                          rb"|\xf4[\x80-\x8f][\x80-\xbf]{2}")


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


def read_line(line: bytes) -> tuple[str, int | None]:
    """One line of an 8-bit file, and how it reads: (its text, the ill-formed bytes replaced by
    U+FFFD) as UTF-8, or (its text, None) as cp1252. The line is UTF-8 unless it holds ill-formed
    sequences that its well-formed non-ASCII characters do not outnumber: a stray byte among UTF-8
    letters is one replaced character, while a line whose non-ASCII bytes are not UTF-8 (a hand a
    cp1252 client wrote into the file) is cp1252, every byte kept. Deciding per line, not per file,
    keeps one player one name in a file that holds both kinds of hands.

    >>> read_line("Seat 4: Jürgen".encode("cp1252"))
    ('Seat 4: Jürgen', None)
    >>> read_line("Jösé ".encode() + b"\\xff")
    ('Jösé \\ufffd', 1)
    """
    try:
        return line.decode("utf-8"), 0
    except UnicodeDecodeError:
        pass
    _NOTED.clear()
    text = line.decode("utf-8", errors="hhtool-note")
    sequences, replaced = len(_NOTED), sum(length for _, length in _NOTED)
    _NOTED.clear()
    ascii_bytes = len(line) - len(line.translate(None, _ASCII))
    well_formed = len(text) - ascii_bytes - sequences  # (a U+FFFD written in the file is well-formed)
    if well_formed > sequences:
        return text, replaced
    return line.decode("cp1252", errors="hhtool-latin1"), None


def choose_encoding(head: bytes, valid_utf8: bool, mixed: bool = False) -> Encoding:
    """The encoding of a file from its first bytes and its lines' evidence (:class:`Utf8Evidence`):
    UTF-8 (or UTF-16 by its BOM or NUL bytes) unless every line with non-ASCII text reads as cp1252;
    ``mixed``: some lines read as UTF-8, some as cp1252 (each line is read its own way either way)."""
    skip = 3 if head.startswith(b"\xef\xbb\xbf") else 0
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return Encoding("utf-16", "replace", 0, "utf-16")
    bomless = None if skip else _looks_like_bomless_utf16(head)
    if bomless:
        return Encoding(bomless, "replace", 0, bomless)
    if mixed:
        return Encoding("utf-8", "strict", skip, MIXED)
    if not valid_utf8:
        return Encoding("cp1252", "hhtool-latin1", skip, "cp1252")
    return Encoding("utf-8", "strict", skip, "utf-8-sig" if skip else "utf-8")


#: the encoding named for a file whose lines read some as UTF-8, some as cp1252
MIXED = "utf-8+cp1252"


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
    replaced) of a UTF-8 file, ``cut_lines`` the (line, length in bytes) of the lines cut, and
    ``cp1252_lines`` the lines read as cp1252 in a file whose other lines are UTF-8 (each run's first
    and last line, the first :data:`SHOWN_RUNS` runs, of ``cp1252_count`` lines).

    Each line of an 8-bit file is read its own way (:func:`read_line`): a block that is all UTF-8
    is read at once, another line by line; a file with no UTF-8 line (``encoding`` cp1252) is read
    as cp1252 at once."""

    def __init__(self, stream: BinaryIO, encoding: Encoding, block: int | None = None,
                 max_line_bytes: int = MAX_LINE_BYTES) -> None:
        self.encoding = encoding
        self.block = max(block or _BLOCK, 1)
        self.max_line_bytes = max_line_bytes
        self.lines = 0
        self.bad_bytes: list[tuple[int, int]] = []
        self.cut_lines: list[tuple[int, int]] = []
        self.problems: list[str] = []
        self.cp1252_lines: list[tuple[int, int]] = []
        self.cp1252_count = 0
        self._utf8_seen = False  # a line with non-ASCII text was read as UTF-8
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
                if self.cp1252_count and self._utf8_seen:
                    self.problems.append(describe_cp1252_lines(self.cp1252_lines, self.cp1252_count))
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
            except UnicodeDecodeError:  # not all UTF-8: each line its own way
                parts = [self._decode_line(part, first + index) for index, part in enumerate(_LINE_BREAK.split(chunk))]
            else:
                self._utf8_seen = self._utf8_seen or (self._codec == "utf-8" and not chunk.isascii())
                parts = (text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text).split("\n")
            if first == 1 and parts[0].startswith("\ufeff"):
                parts[0] = parts[0][1:]
            lines = [part.rstrip(LINE_END_BLANKS) for part in parts]
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
                self._utf8_seen = self._utf8_seen or (self._codec == "utf-8" and not part.isascii())
            except UnicodeDecodeError:
                text = self._decode_line(part, self.lines + 1)
            text = (text[1:] if self.lines == 0 and text.startswith("\ufeff") else text).rstrip(LINE_END_BLANKS)
            if unbroken and index == len(parts) - 1 and not text:
                break  # like a blank last line without a line break: not a line
            self.lines += 1
            lines.append(text)
        return lines

    def _decode_line(self, line: bytes, number: int) -> str:
        """Line ``number`` of an 8-bit file, as :func:`read_line` reads it, noting how."""
        text, replaced = read_line(line)
        if replaced is None:
            self.cp1252_count += 1
            if self.cp1252_lines and self.cp1252_lines[-1][1] == number - 1:
                self.cp1252_lines[-1] = (self.cp1252_lines[-1][0], number)
            elif len(self.cp1252_lines) <= SHOWN_RUNS:  # (one more than shown: "and more")
                self.cp1252_lines.append((number, number))
        else:
            self._utf8_seen = self._utf8_seen or not line.isascii()
            if replaced:
                self.bad_bytes.append((number, replaced))
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


#: the runs of cp1252 lines a mixed file's note names
SHOWN_RUNS = 5


def describe_cp1252_lines(runs: list[tuple[int, int]], count: int) -> str:
    """One sentence saying that a file was read in two encodings, and which lines as cp1252.

    >>> describe_cp1252_lines([(21, 21), (23, 25)], 4)
    'read in two encodings: 4 lines are not UTF-8 and were read as cp1252 (lines 21, 23-25), the others as UTF-8'
    """
    where = ", ".join(str(first) if first == last else f"{first}-{last}" for first, last in runs[:SHOWN_RUNS])
    more = ", and more" if len(runs) > SHOWN_RUNS else ""
    lines = "1 line is not UTF-8 and was" if count == 1 else f"{count} lines are not UTF-8 and were"
    return f"read in two encodings: {lines} read as cp1252 (line{'s' if count > 1 else ''} {where}{more}), the others as UTF-8"


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
    encoding = choose_encoding(data[:4096], evidence.is_utf8, evidence.mixed)
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
    encoding = choose_encoding(head, evidence.is_utf8, evidence.mixed)
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
    progress) and digests them: what was read is what the file's row records, whatever the file
    held when it was scanned (it may be cut or rewritten meanwhile). ``stream`` is set once the
    file is opened; ``tail`` is the last bytes read (whether they end inside a line)."""

    def __init__(self) -> None:
        self.stream: BinaryIO | None = None
        self.read_bytes = 0
        self.digest = hashlib.sha256()
        self.tail = b""

    def read(self, size: int = -1) -> bytes:
        assert self.stream is not None
        data = self.stream.read(size)
        if data:
            self.read_bytes += len(data)
            self.digest.update(data)
            self.tail = (self.tail + data)[-4:]
        return data
