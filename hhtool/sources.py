"""Where hand histories come from: files, folders, glob patterns and archives (.zip, .gz).

Folders are walked without following symbolic links (no loops); a path named twice is read
once; archives are read with limits on expanded size and member count, so a hostile archive
is reported instead of filling memory.
"""

from __future__ import annotations

import glob
import gzip
import os
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Protocol

#: file endings looked at when a folder is imported (named files are always read)
HAND_HISTORY_SUFFIXES = {".txt", ".xml", ".log", ".hh", ".phh", ".phhs", ".htm", ".html", ".gz", ".zip"}
#: largest expanded size of one archived file, and of all members of one zip
MAX_EXPANDED_BYTES = 1 << 30
MAX_ZIP_TOTAL_BYTES = 4 << 30
MAX_ZIP_MEMBERS = 10_000
_CHUNK = 1 << 20


class Readable(Protocol):
    """Anything the importer can read: a name for reports and the bytes."""

    @property
    def name(self) -> str: ...

    def read(self) -> bytes: ...


class SourceError(Exception):
    """A source that cannot be read; the reason names it."""


@dataclass(frozen=True, slots=True)
class Source:
    """One hand-history file: on disk, inside a zip (``member``), or gzip-compressed."""

    fs_path: Path
    member: str | None = None

    @property
    def name(self) -> str:
        return f"{self.fs_path}!{self.member}" if self.member is not None else str(self.fs_path)

    def size(self) -> int:
        """Bytes on disk (compressed size for archives); 0 when it cannot be told."""
        try:
            return self.fs_path.stat().st_size
        except OSError:
            return 0

    def open_binary(self) -> BinaryIO:
        """The file as a stream (plain files only: archives are read whole, within their limits)."""
        if self.member is not None or self.fs_path.suffix.lower() == ".gz":
            raise SourceError(f"{self.name}: archives are not streamed")
        try:
            return self.fs_path.open("rb")
        except OSError as error:
            raise SourceError(f"{self.name}: cannot read: {error.strerror or error}") from error

    def read(self) -> bytes:
        try:
            if self.member is not None:
                return _read_zip_member(self.fs_path, self.member)
            if self.fs_path.suffix.lower() == ".gz":
                return _read_gzip(self.fs_path)
            return self.fs_path.read_bytes()
        except SourceError:
            raise
        except (OSError, zipfile.BadZipFile, EOFError, RuntimeError) as error:
            raise SourceError(f"{self.name}: cannot read: {getattr(error, 'strerror', None) or error}") from error


def _read_limited(stream: BinaryIO, name: str) -> bytes:
    """Read a decompressing stream, refusing to expand past the limit (a declared size can lie)."""
    parts: list[bytes] = []
    size = 0
    while chunk := stream.read(_CHUNK):
        size += len(chunk)
        if size > MAX_EXPANDED_BYTES:
            raise SourceError(f"{name}: expands beyond {MAX_EXPANDED_BYTES} bytes; refused")
        parts.append(chunk)
    return b"".join(parts)


def _read_gzip(path: Path) -> bytes:
    with gzip.open(path, "rb") as stream:
        return _read_limited(stream, str(path))


def _read_zip_member(path: Path, member: str) -> bytes:
    with zipfile.ZipFile(path) as archive:
        info = archive.getinfo(member)
        if info.file_size > MAX_EXPANDED_BYTES:
            raise SourceError(f"{path}!{member}: declares {info.file_size} bytes expanded; refused")
        with archive.open(info) as stream:
            return _read_limited(stream, f"{path}!{member}")


def _zip_members(path: Path) -> list[Source]:
    with zipfile.ZipFile(path) as archive:
        infos = [info for info in archive.infolist() if not info.is_dir()]
    if len(infos) > MAX_ZIP_MEMBERS:
        raise SourceError(f"{path}: {len(infos)} files in the archive, more than the {MAX_ZIP_MEMBERS} allowed; refused")
    if sum(info.file_size for info in infos) > MAX_ZIP_TOTAL_BYTES:
        raise SourceError(f"{path}: expands beyond {MAX_ZIP_TOTAL_BYTES} bytes in all; refused")
    return [Source(path, info.filename) for info in infos]


def _walk(folder: Path) -> list[Path]:
    found: list[Path] = []
    for root, dirs, files in os.walk(folder, followlinks=False):
        dirs.sort()
        for name in sorted(files):
            candidate = Path(root) / name
            if candidate.suffix.lower() in HAND_HISTORY_SUFFIXES:
                found.append(candidate)
    return found


@dataclass
class Collected:
    sources: list[Source]
    unmatched: list[str]  # arguments that matched nothing
    problems: list[str]  # paths that could not be opened or listed (reported as failures)


def collect_sources(arguments: Iterable[str]) -> Collected:
    """Expand files, folders (recursively) and glob patterns into sources, each once."""
    seen: dict[Path, None] = {}
    unmatched: list[str] = []
    problems: list[str] = []
    for argument in arguments:
        path = Path(argument).expanduser()
        if path.is_dir():
            candidates = _walk(path)
        elif path.exists() or path.is_symlink():
            candidates = [path]
        else:
            globbed = [Path(match) for match in sorted(glob.glob(argument, recursive=True))]
            candidates = [p for p in globbed if p.is_file() and p.suffix.lower() in HAND_HISTORY_SUFFIXES]
        if not candidates:
            unmatched.append(argument)
        for candidate in candidates:
            try:
                seen.setdefault(candidate.resolve(strict=True), None)
            except (OSError, RuntimeError) as error:  # a symlink loop or a dangling link
                problems.append(f"{candidate}: cannot open: {getattr(error, 'strerror', None) or error}")
    sources: list[Source] = []
    for path in seen:
        if path.suffix.lower() == ".zip":
            try:
                sources.extend(_zip_members(path))
            except SourceError as error:
                problems.append(str(error))
            except (OSError, zipfile.BadZipFile) as error:
                problems.append(f"{path}: not a readable zip archive: {error}")
        else:
            sources.append(Source(path))
    return Collected(sources, unmatched, problems)
