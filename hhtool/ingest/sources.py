"""Where hand histories come from: files, folders, glob patterns and archives (.zip, .gz).

Every input is looked at before it is opened, so that one bad input costs only itself:

* only regular files are read: a FIFO, a device (``/dev/zero``), a socket is skipped with a
  reason without being opened (and a file swapped for one after listing is refused on opening);
* folders are walked iteratively, without following symbolic links (no loops), at most
  :data:`MAX_FOLDER_DEPTH` levels deep; a dangling or looping link is reported;
* a file name that is not valid UTF-8 is named with its bytes escaped (``caf\\xe9.txt``), the
  same way in reports and in the store;
* archives are read member by member as streams, within limits on expanded size and member
  count, so a hostile archive is reported instead of filling memory;
* a damaged archive (a truncated ``.gz``, a corrupt block, bytes after its end, a zip member whose
  data is corrupt) is read up to the damage, as ``gzip -dc`` reads it: the stream ends there and
  its ``damage`` says at which byte of the file and what happened.

A path named twice is read once.
"""

from __future__ import annotations

import glob
import os
import re
import stat
import struct
import zipfile
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, BinaryIO, Protocol, cast

#: file endings looked at when a folder is imported (named files are always read)
HAND_HISTORY_SUFFIXES = {".txt", ".xml", ".log", ".hh", ".phh", ".phhs", ".htm", ".html", ".gz", ".zip"}
#: largest expanded size of one archived file, and of all members of one zip
MAX_EXPANDED_BYTES = 1 << 30
MAX_ZIP_TOTAL_BYTES = 4 << 30
MAX_ZIP_MEMBERS = 10_000
#: folders deeper than this below a named folder are not searched (and said so)
MAX_FOLDER_DEPTH = 64
_CHUNK = 1 << 20
#: compressed bytes fed to a decompressor at a time; the output of the piece in which damage is found
#: is recovered byte by byte, so it also bounds that one-off cost (≤ 1,032× expanded: 16.5 MiB)
_PIECE = 16 << 10
_GZIP_MAGIC = b"\x1f\x8b"
_READ_ERRORS = (OSError, zipfile.BadZipFile, EOFError, zlib.error, RuntimeError, ValueError)


class Readable(Protocol):
    """Anything the importer can read: a name for reports and the bytes."""

    @property
    def name(self) -> str: ...

    def read(self) -> bytes: ...


class SourceError(Exception):
    """A source that cannot be read; the reason names it."""


def display_name(path: Path | str) -> str:
    """A path as text that can be printed and stored: bytes that are not UTF-8 become ``\\xNN``.

    >>> display_name(Path(os.fsdecode(b"caf\\xe9.txt")))
    'caf\\\\xe9.txt'
    """
    return os.fsencode(path).decode("utf-8", "backslashreplace")


_KINDS = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a folder"))


def not_regular(mode: int) -> str | None:
    """What a file of this mode is, when it is not a regular file (which alone is read)."""
    if stat.S_ISREG(mode):
        return None
    return next((kind for test, kind in _KINDS if test(mode)), "not a regular file")


def _error_text(error: BaseException) -> str:
    return getattr(error, "strerror", None) or str(error) or type(error).__name__


def _open_regular(path: Path, name: str) -> BinaryIO:
    """Open a regular file for reading; anything else is refused without reading from it (the
    open does not wait for a FIFO's writer, and the type is checked on what was opened)."""
    try:
        kind = not_regular(path.stat().st_mode)
        if kind is not None:
            raise SourceError(f"{name}: {kind}, not a regular file; skipped without reading")
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        raise SourceError(f"{name}: cannot read: {_error_text(error)}") from error
    try:
        kind = not_regular(os.fstat(descriptor).st_mode)
        if kind is not None:
            raise SourceError(f"{name}: {kind}, not a regular file; skipped without reading")
        os.set_blocking(descriptor, True)
        return os.fdopen(descriptor, "rb")
    except BaseException:
        os.close(descriptor)
        raise


class _Bounded:
    """A decompressing stream that refuses to expand past ``limit`` (a declared size can lie) and
    reports any fault of the archive as a SourceError naming it."""

    def __init__(self, stream: IO[bytes], name: str, limit: int, owners: tuple[Any, ...] = ()) -> None:
        self._stream, self._name, self._limit, self._owners = stream, name, limit, owners
        self._read = 0

    @property
    def damage(self) -> str | None:
        """Where and how the archive is damaged, once a read reached the damage (None: it is not,
        or the damage is not reached yet); the stream ends there."""
        return getattr(self._stream, "damage", None)

    def read(self, size: int = -1) -> bytes:
        try:
            data = self._stream.read(size if size is not None and size >= 0 else _CHUNK)
        except _READ_ERRORS as error:
            raise SourceError(f"{self._name}: cannot read: {_error_text(error)}") from error
        self._read += len(data)
        if self._read > self._limit:
            raise SourceError(f"{self._name}: expands beyond {self._limit} bytes; refused")
        return data

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = 0) -> int:
        if (offset, whence) != (0, 0):
            raise ValueError("an archived stream can only go back to its start")
        try:
            self._stream.seek(0)
        except _READ_ERRORS as error:
            raise SourceError(f"{self._name}: cannot read: {_error_text(error)}") from error
        self._read = 0
        return 0

    def close(self) -> None:
        self._stream.close()
        for owner in self._owners:
            owner.close()

    def __enter__(self) -> _Bounded:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _zlib_reason(error: zlib.error) -> str:
    """zlib's words for what is wrong, without its error number ("invalid block type")."""
    return str(error).rpartition(": ")[2] or str(error)


class _Inflating:
    """The expanded bytes of deflate data read incrementally from ``raw``: a gzip file's members one
    after the other (``gzip``), or one zip member's raw deflate data between ``start`` and ``end``,
    checked against its ``crc``. Seekable to its start only.

    Damage does not lose what comes before it: a corrupt block, a failed data check, data that stops
    before its end, or bytes after the last gzip member that are no member (NUL padding aside) end the
    stream where they are found, after every byte expanded before them, and ``damage`` says at which
    byte of the file and what happened. The damage is found again at the same place by a read from
    the start (it stays set)."""

    def __init__(self, raw: BinaryIO, *, gzip: bool, start: int = 0, end: int | None = None,
                 crc: int | None = None) -> None:
        self._raw, self._gzip, self._start, self._crc_expected = raw, gzip, start, crc
        self._end = end if end is not None else os.fstat(raw.fileno()).st_size
        self.damage: str | None = None
        self.seek(0)

    def seek(self, offset: int, whence: int = 0) -> int:
        if (offset, whence) != (0, 0):
            raise ValueError("an archived stream can only go back to its start")
        self._raw.seek(self._start)
        self._at = self._start  # the file offset of self._buffer's first byte
        self._buffer = b""  # compressed bytes read and not consumed yet
        self._decompressor: Any = zlib.decompressobj(31 if self._gzip else -15)
        self._done = False
        self._expanded = 0
        self._crc = 0
        return 0

    def seekable(self) -> bool:
        return True

    def close(self) -> None:
        """(The file is closed by the stream's owner.)"""

    def read(self, size: int = -1) -> bytes:
        want = size if size >= 0 else _CHUNK
        parts: list[bytes] = []
        got = 0
        while got < want and not self._done:
            data = self._step(want - got)
            parts.append(data)
            got += len(data)
            self._expanded += len(data)
            if not self._gzip:
                self._crc = zlib.crc32(data, self._crc)
        return b"".join(parts)

    def _fill(self) -> bool:
        """Read the next piece when nothing is left to feed; False at the end of the data."""
        if not self._buffer:
            self._buffer = self._raw.read(min(_PIECE, self._end - self._at))
        return bool(self._buffer)

    def _step(self, room: int) -> bytes:
        decompressor = self._decompressor
        if decompressor.eof:
            self._next_member()
            return b""
        if not self._fill():
            if self._gzip and self._at == self._start:
                self._done = True  # an empty file: no member, nothing damaged (as gzip reads it)
            else:
                self._damaged(self._at, "the file ends inside the compressed data (truncated)")
            return b""
        backup = decompressor.copy()  # (a few µs a piece: what the piece holds can be found again)
        try:
            data: bytes = decompressor.decompress(self._buffer, room)
        except zlib.error as error:
            return self._salvage(backup, _zlib_reason(error))
        rest: bytes = decompressor.unused_data if decompressor.eof else decompressor.unconsumed_tail
        self._at += len(self._buffer) - len(rest)
        self._buffer = rest
        return data

    def _salvage(self, decompressor: Any, reason: str) -> bytes:
        """The output of the piece in which zlib found damage, fed again byte by byte from a copy
        taken before it (a failing call gives no output): everything before the failing byte."""
        parts: list[bytes] = []
        for index in range(len(self._buffer)):
            try:
                parts.append(decompressor.decompress(self._buffer[index:index + 1]))
            except zlib.error:
                break
        else:
            index = len(self._buffer)
        data = b"".join(parts)
        self._damaged(self._at + index, reason, len(data))
        return data

    def _next_member(self) -> None:
        """After a member's end: the next gzip member, NUL padding (skipped), the end of the file, or
        bytes that are none of these (damage); a zip member's data is checked against its CRC-32."""
        if not self._gzip:
            if self._crc_expected is not None and self._crc & 0xFFFFFFFF != self._crc_expected:
                self._damaged(self._at, "its data check (CRC-32) fails: the text read may be altered")
            self._done = True
            return
        while self._fill():
            stripped = self._buffer.lstrip(b"\x00")
            self._at += len(self._buffer) - len(stripped)
            self._buffer = stripped
            if stripped:
                break
        if not self._buffer:
            self._done = True  # the end of the file, after the last member
            return
        while len(self._buffer) < len(_GZIP_MAGIC) and (more := self._raw.read(min(_PIECE, self._end - self._at
                                                                                      - len(self._buffer)))):
            self._buffer += more
        if not self._buffer.startswith(_GZIP_MAGIC):
            self._damaged(self._at, f"{self._end - self._at:,} bytes after the end of the gzip data, not gzip data")
            return
        self._decompressor = zlib.decompressobj(31)

    def _damaged(self, offset: int, reason: str, more: int = 0) -> None:
        """The stream ends at ``offset`` (of the file), after ``more`` bytes expanded not counted yet."""
        self._done = True
        if self.damage is None:
            self.damage = (f"damaged archive at byte {offset:,} of {self._end:,}: {reason}; the "
                           f"{self._expanded + more:,} bytes expanded before it were read, nothing after it")


@dataclass(frozen=True, slots=True)
class Source:
    """One hand-history file: on disk, inside a zip (``member``), or gzip-compressed."""

    fs_path: Path
    member: str | None = None
    #: a zip member's compressed bytes in the archive (its share of the archive's size on disk)
    packed_size: int | None = field(default=None, compare=False)

    @property
    def name(self) -> str:
        path = display_name(self.fs_path)
        return f"{path}!{self.member}" if self.member is not None else path

    @property
    def compressed(self) -> bool:
        """A zip member or a gzip file: its size on disk says nothing of what it expands to."""
        return self.member is not None or self.fs_path.suffix.lower() == ".gz"

    def size(self) -> int:
        """Bytes on disk (compressed size for archives: a zip member's own); 0 when it cannot be told."""
        if self.packed_size is not None:
            return self.packed_size
        try:
            return self.fs_path.stat().st_size
        except OSError:
            return 0

    def open_binary(self) -> BinaryIO:
        """The file's (expanded) bytes as a stream, which can go back to its start."""
        if self.member is not None:
            return self._open_member()
        raw = _open_regular(self.fs_path, self.name)
        if self.fs_path.suffix.lower() != ".gz":
            return raw
        try:
            inflating = _Inflating(raw, gzip=True)
        except OSError as error:
            raw.close()
            raise SourceError(f"{self.name}: cannot read: {_error_text(error)}") from error
        return cast(BinaryIO, _Bounded(cast(IO[bytes], inflating), self.name, MAX_EXPANDED_BYTES, (raw,)))

    def _open_member(self) -> BinaryIO:
        assert self.member is not None
        raw = _open_regular(self.fs_path, display_name(self.fs_path))
        try:
            archive = zipfile.ZipFile(raw)
            info = archive.getinfo(self.member)
            if info.file_size > MAX_EXPANDED_BYTES:
                raise SourceError(f"{self.name}: declares {info.file_size} bytes expanded; refused")
            if info.compress_type == zipfile.ZIP_DEFLATED and not info.flag_bits & 1:  # (bit 0: encrypted)
                start = _member_data_start(raw, info)
                member: IO[bytes] = cast(IO[bytes], _Inflating(raw, gzip=False, start=start,
                                                              end=start + info.compress_size, crc=info.CRC))
            else:  # stored, another method or encrypted: zipfile's own reading (damage fails it whole)
                member = archive.open(info)
        except SourceError:
            raw.close()
            raise
        except (*_READ_ERRORS, KeyError) as error:
            raw.close()
            raise SourceError(f"{self.name}: cannot read: {_error_text(error)}") from error
        return cast(BinaryIO, _Bounded(member, self.name, MAX_EXPANDED_BYTES, (archive, raw)))

    def read(self) -> bytes:
        """The whole file (expanded), within the archive limits; a damaged archive is a SourceError
        (reading it as a stream keeps what comes before the damage)."""
        with self.open_binary() as stream:
            parts: list[bytes] = []
            try:
                while chunk := stream.read(_CHUNK):
                    parts.append(chunk)
            except SourceError:
                raise
            except _READ_ERRORS as error:
                raise SourceError(f"{self.name}: cannot read: {_error_text(error)}") from error
            damage = getattr(stream, "damage", None)
        if damage:
            raise SourceError(f"{self.name}: {damage}")
        return b"".join(parts)


def _member_data_start(raw: BinaryIO, info: zipfile.ZipInfo) -> int:
    """Where a zip member's compressed data begins: after its local header, whose name and extra
    field may differ in length from the central directory's."""
    raw.seek(info.header_offset)
    header = raw.read(30)
    if len(header) < 30 or header[:4] != b"PK\x03\x04":
        raise zipfile.BadZipFile(f"bad local header for {info.filename!r}")
    name_length, extra_length = struct.unpack("<HH", header[26:30])
    return info.header_offset + 30 + name_length + extra_length


def _zip_members(path: Path) -> list[Source]:
    with _open_regular(path, display_name(path)) as raw, zipfile.ZipFile(raw) as archive:
        infos = [info for info in archive.infolist() if not info.is_dir()]
    name = display_name(path)
    if len(infos) > MAX_ZIP_MEMBERS:
        raise SourceError(f"{name}: {len(infos)} files in the archive, more than the {MAX_ZIP_MEMBERS} allowed; refused")
    if sum(info.file_size for info in infos) > MAX_ZIP_TOTAL_BYTES:
        raise SourceError(f"{name}: expands beyond {MAX_ZIP_TOTAL_BYTES} bytes in all; refused")
    return [Source(path, info.filename, info.compress_size) for info in infos]


def _walk(folder: Path, problems: list[str], ignored: list[str] | None = None) -> list[Path]:
    """The hand-history files under ``folder`` in sorted, depth-first order, without following
    links to folders and without recursion; what could not be searched goes to ``problems``, the
    files not read for their names (not hidden ones) to ``ignored``."""
    found: list[Path] = []
    stack: list[tuple[Path, int]] = [(folder, 0)]
    while stack:
        current, depth = stack.pop()
        try:
            with os.scandir(current) as entries:
                listed = sorted(entries, key=lambda entry: entry.name)
        except OSError as error:
            problems.append(f"{display_name(current)}: cannot list the folder: {_error_text(error)}")
            continue
        folders: list[Path] = []
        for entry in listed:
            path = Path(entry.path)
            try:
                if entry.is_dir(follow_symlinks=False):
                    folders.append(path)
                    continue
            except OSError:
                pass
            if path.suffix.lower() in HAND_HISTORY_SUFFIXES:
                found.append(path)
            elif ignored is not None and not entry.name.startswith("."):
                ignored.append(display_name(path))
        if folders and depth >= MAX_FOLDER_DEPTH:
            problems.append(f"{display_name(current)}: more than {MAX_FOLDER_DEPTH} folder levels below "
                            f"{display_name(folder)}; its {len(folders)} sub-folders were not searched")
            continue
        stack.extend((sub, depth + 1) for sub in reversed(folders))
    return found


@dataclass
class Collected:
    sources: list[Source]
    unmatched: list[str]  # arguments that matched nothing
    problems: list[str]  # paths that could not be opened or listed (reported as failures)
    #: files of the folders named that were not read: their names are not hand-history files'
    #: (HAND_HISTORY_SUFFIXES); not hand histories, reported as such
    ignored: list[str] = field(default_factory=list)


_MAGIC = re.compile(r"[*?[]")


def _pattern_regex(pattern: str) -> re.Pattern[str]:
    """A glob pattern as a regex over whole paths: ``*`` and ``?`` stay within a folder name,
    ``**`` as a whole name spans any number of folders (none included), ``[...]`` is a class.

    >>> bool(_pattern_regex("a/**/*.txt").match("a/b/c/d.txt")), bool(_pattern_regex("a/*.txt").match("a/b/d.txt"))
    (True, False)
    """
    names = pattern.split("/")
    regex = ""
    for index, name in enumerate(names):
        last = index == len(names) - 1
        if name == "**":
            regex += ".*" if last else "(?:[^/]*/)*"
            continue
        position = 0
        while position < len(name):
            char = name[position]
            closing = name.find("]", position + 2) if char == "[" else -1
            if char == "*":
                regex += "[^/]*"
            elif char == "?":
                regex += "[^/]"
            elif closing > 0:
                body = name[position + 1:closing]
                regex += "[" + ("^" + body[1:] if body.startswith("!") else body).replace("\\", "\\\\") + "]"
                position = closing
            else:
                regex += re.escape(char)
            position += 1
        regex += "" if last else "/"
    return re.compile(regex + r"\Z", re.DOTALL)


def _glob(argument: str, problems: list[str]) -> list[Path]:
    """Hand-history files matching a glob pattern. A ``**`` pattern is expanded by walking its
    fixed leading folder like a named folder (iteratively, links not followed, depth bounded)."""
    if "**" not in argument:
        try:
            matches = sorted(glob.glob(argument))
        except OSError as error:
            problems.append(f"{display_name(argument)}: cannot expand the pattern: {_error_text(error)}")
            return []
        return [Path(match) for match in matches if Path(match).suffix.lower() in HAND_HISTORY_SUFFIXES]
    pattern = os.path.normpath(os.path.expanduser(argument))  # as the walk's paths are spelled
    names = pattern.split("/")
    fixed = next(index for index, name in enumerate(names) if _MAGIC.search(name))
    root = "/".join(names[:fixed]) or ("/" if pattern.startswith("/") else ".")
    if not os.path.isdir(root):
        return []
    regex = _pattern_regex(pattern)
    # like glob, wildcards do not match hidden names (unless the pattern spells a leading dot)
    hidden_ok = any(name.startswith(".") and name not in (".", "..") for name in names[fixed:])
    return [path for path in _walk(Path(root), problems) if regex.match(str(path))
            and (hidden_ok or not any(part.startswith(".") for part in path.relative_to(root).parts))]


def collect_sources(arguments: Iterable[str]) -> Collected:
    """Expand files, folders (recursively) and glob patterns into sources, each once."""
    seen: dict[Path, None] = {}
    unmatched: list[str] = []
    problems: list[str] = []
    ignored: list[str] = []
    for argument in arguments:
        path = Path(argument).expanduser()
        if path.is_dir():
            candidates = _walk(path, problems, ignored)
        elif path.exists() or path.is_symlink():
            candidates = [path]
        else:
            candidates = _glob(argument, problems)
        if not candidates:
            unmatched.append(display_name(argument))
        for candidate in candidates:
            try:
                resolved = candidate.resolve(strict=True)
                kind = not_regular(resolved.stat().st_mode)
            except (OSError, RuntimeError) as error:  # a symlink loop or a dangling link
                problems.append(f"{display_name(candidate)}: cannot open: {_error_text(error)}")
                continue
            if kind is not None:
                problems.append(f"{display_name(candidate)}: {kind}, not a regular file; skipped without reading")
                continue
            seen.setdefault(resolved, None)
    sources: list[Source] = []
    for path in seen:
        if path.suffix.lower() == ".zip":
            try:
                sources.extend(_zip_members(path))
            except SourceError as error:
                problems.append(str(error))
            except (OSError, zipfile.BadZipFile) as error:
                problems.append(f"{display_name(path)}: not a readable zip archive: {error}")
        else:
            sources.append(Source(path))
    # a site's own history before a converted copy of it (PHH), so that where an import holds both,
    # the original is the copy stored and the converted one its duplicate (a stable sort: the order
    # of the arguments and of each folder is kept otherwise)
    sources.sort(key=lambda source: _is_converted(source.name))
    return Collected(sources, unmatched, problems, list(dict.fromkeys(ignored)))


def _is_converted(name: str) -> bool:
    """Whether a file is, by its name, a converted history (PHH, possibly compressed)."""
    suffixes = [suffix.lower() for suffix in Path(name).suffixes[-2:]]
    return bool({".phh", ".phhs"} & set(suffixes))
