"""Read and split: what is new in each file, read by which site, cut into chunks of hands.

A file whose bytes were imported before is not read again; a file that grew since its last import
is read from its last hand on; a file read the other way (``--site`` given or not) is read again, and
so is one that shrank or changed since it was read. A file's row records the bytes actually read (a
file cut while read is recorded as read, never as it was scanned).
Big files and archives are read as a stream (a digest, then lines), never whole. A file no site
reads is either no hand history (nothing found, no failure) or one failure holding its text."""

from __future__ import annotations

import hashlib
import io
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, BinaryIO, cast

from hhtool.ingest.accounting import COUNTS, Failure, FileReport, not_a_history
from hhtool.ingest.chunks import ChunkResult, LineBlock, failure_chunk
from hhtool.ingest.reader import (
    CountingStream,
    DecodedFile,
    LineReader,
    ScannedStream,
    decode_bytes,
    describe_bad_bytes,
    scan_stream,
)
from hhtool.ingest.sources import Readable, SourceError
from hhtool.ingest.writer import FileWriter
from hhtool.model import CUT_LINE_MARK, FailedHand, FailureKind, RawHand
from hhtool.sites import all_parsers, detect, parser_for
from hhtool.sites.kit.base import SiteParser
from hhtool.store import Store
from hhtool.store.file_rows import Statements, read_again

#: hands parsed, replayed and tabulated together (one task for a worker). Measured on a 31 MB file
#: at --jobs 2: a worker peaks at 190 MiB with 1,000 against 230 MiB with 2,000, the same CPU time;
#: with 500, 165 MiB and the process tree's peak 735-751 against 794-804 MiB (CPU of all processes,
#: median of 3 interleaved: 27.4 against 26.9 s, within the runs' spread)
BATCH_HANDS = 500
#: files at least this big are read as a stream (twice: digest, then lines) instead of whole. Read
#: whole, a file costs about 3x its size more (measured on a 31 MB file: 696 against 606 MiB with
#: --jobs 1), so that below 4 MiB (one process, POOL_MIN_BYTES) it costs little, and the progress
#: within a small file still goes by its lines
STREAM_MIN_BYTES = 4 << 20
#: lines held at most while waiting for the next hand start (real blocks hold about 80,000)
MAX_BLOCK_LINES = 1_000_000
#: raw text kept for a file no site recognises (the rest is noted as cut)
MAX_UNKNOWN_RAW = 1_000_000
#: why a file is not a hand history (its status NOT_A_HAND_HISTORY: skipped, nothing found, no failure)
NO_TEXT = "empty"
NO_HAND_START = "no hand start of any site, nor PHH"
Chunk = list[RawHand] | LineBlock


@dataclass
class FileJob:
    """One file in flight: its report, what its files row will say, and its chunks to parse."""

    report: FileReport
    row: dict[str, Any]
    chunks: Iterable[Chunk]
    resume_line: int
    writer: FileWriter
    prefix: dict[str, int] = field(default_factory=dict)  # a grown file: the counts of the part not read again
    ends_mid_line: bool = False
    tail: list[str] = field(default_factory=list)  # how the items of a file with no chunk to parse were counted
    size: int = 0  # bytes on disk, for the progress
    position: Callable[[Chunk], float] | None = None  # the share of the file read after a chunk
    shares: deque[float] = field(default_factory=deque)  # position after each chunk in flight
    damage: str | None = None  # a damaged archive: where its readable part ends, and why
    ready: list[ChunkResult] = field(default_factory=list)  # what the file holds that needs no parsing (a failure)


@dataclass
class _Resume:
    """Where to start reading a file, and what its earlier import leaves to this one."""

    start_line: int = 1
    status: str = "parsed"
    prefix: dict[str, int] = field(default_factory=dict)
    first: Statements = field(default_factory=list)
    changed: str | None = None  # how the file differs from what an earlier import read (read again)


class FileOpener:
    """Opens sources for an import into ``store``: ``site`` forces the site (else detected from each
    file's content); ``new_writer`` makes a file's writer from the statements of its first transaction."""

    def __init__(self, store: Store, site: str | None, new_writer: Callable[[Statements], FileWriter]) -> None:
        self.store = store
        self.site = site
        self.new_writer = new_writer

    @property
    def reading(self) -> str:
        return "forced" if self.site else "detected"

    def open(self, source: Readable) -> FileJob:
        """The job of ``source``; :class:`SourceError` if it cannot be read at all."""
        opener = getattr(source, "open_binary", None)
        # an archive's size on disk says nothing of what it expands to: always streamed
        if opener is not None and (source.size() >= STREAM_MIN_BYTES or getattr(source, "compressed", False)):  # type: ignore[attr-defined]
            job = self._open_streaming(source.name, opener)
            if job is not None:
                job.size = source_size(source)
                return job
        job = self._open_whole(source.name, source.read())
        job.size = source_size(source)
        return job

    def _known(self, name: str, digest: str, size: int, prefix_digest: Callable[[int], str | None],
               ) -> tuple[FileJob | None, _Resume]:
        """(the job if these bytes were imported before and read the same way, where to resume)."""
        known = self.store.file_by_content(digest)
        found_none = known is not None and self.site is not None and not known["hands_found"]
        if known is not None and not found_none and (  # (a forced --site that found nothing: read again, to say so)
                known["site"] == self.site if self.site else known["reading"] == "detected"):
            return FileJob(_unchanged(name, known), {}, [], 0, self.new_writer([])), _Resume(status="unchanged")
        if known is not None and known["path"] == name:  # the same bytes read another way: read them again
            return None, _Resume(status="reread", first=read_again(name, digest, 1))
        previous = self.store.last_import_of(name)
        if previous is None or not (previous["site"] == self.site if self.site else previous["reading"] == "detected"):
            return None, _Resume()
        if size < previous["size"] or (previous["size"] and prefix_digest(previous["size"]) != previous["sha256"]):
            # cut or rewritten in place since read (a sync tool, a client): read again from its start, and
            # its row replaced, so that the bytes it holds again later are not taken for the ones read
            changed = (f"shrank since read ({size:,} bytes, {previous['size']:,} before)" if size < previous["size"]
                       else f"changed since read (before byte {previous['size']:,})")
            return None, _Resume(status="changed", changed=f"{changed}: read again",
                                 first=read_again(name, previous["sha256"], 1))
        if size > previous["size"]:
            prefix = {name: previous[name] for name in COUNTS}
            for counted in previous["tail"]:  # the items from the resume line on are read again
                prefix[counted] -= 1
                prefix["hands_found"] -= 1
            start = int(previous["resume_line"])
            return None, _Resume(start, "grown", prefix, read_again(name, previous["sha256"], start))
        return None, _Resume()

    def _open_whole(self, name: str, data: bytes) -> FileJob:
        digest = hashlib.sha256(data).hexdigest()
        known, resume = self._known(name, digest, len(data), lambda size: hashlib.sha256(data[:size]).hexdigest())
        if known is not None:
            return known
        decoded = decode_bytes(data)
        parser = parser_for(self.site) if self.site else detect(decoded.lines)
        report = FileReport(name, parser.name if parser else None, decoded.encoding, status=resume.status,
                            reading=self.reading, looks_like=self._looks_like(decoded.lines), changed=resume.changed)
        report.failures.extend(Failure(0, f"decoding: {problem}") for problem in decoded.problems)
        row = {"path": name, "sha256": digest, "size": len(data), "site": report.site, "encoding": decoded.encoding,
               "lines": len(decoded.lines), "reading": self.reading}
        writer = self.new_writer(resume.first)
        writer.checker.provide(name, decoded.lines)
        start_line = resume.start_line
        if parser is None:
            job = FileJob(report, row, [], start_line, writer, resume.prefix)
            _no_site_detected(job, decoded, sites_holding_a_hand(decoded.lines))
            return job
        if parser.splits_at_hand_starts:  # cut into blocks of lines; the workers split them
            chunks: Iterable[Chunk] = line_blocks([decoded.lines], parser, name, start_line)
        else:
            chunks = _batched(raw for raw in parser.split(decoded.lines, name) if raw.first_line >= start_line)
        total = max(len(decoded.lines), 1)
        return FileJob(report, row, chunks, start_line, writer, resume.prefix, ends_mid_line(data[-4:]),
                       position=lambda chunk: min(_last_line(chunk) / total, 1.0))

    def _looks_like(self, lines: Sequence[str]) -> str | None:
        """With --site: the site the content is detected as, where that is another one (else None)."""
        if not self.site:
            return None
        detected = detect(lines)
        return detected.name if detected is not None and detected.name != self.site else None

    def _open_streaming(self, name: str, opener: Callable[[], BinaryIO]) -> FileJob | None:
        """A file read as a stream (digest and encoding, then lines), never whole: memory stays
        flat whatever its size. None when its site's splitter needs the whole file."""
        with self.store.batch():  # (given back at once: the whole file is read to digest it)
            previous = self.store.last_import_of(name)
        with opener() as stream:
            scanned = scan_stream(stream, prefix_size=previous["size"] if previous else None)
            damage: str | None = getattr(stream, "damage", None)  # (its part before the damage is read)
        if damage and not scanned.size:
            raise SourceError(f"{name}: cannot read: {damage}")  # (nothing before the damage)
        known, resume = self._known(name, scanned.sha256, scanned.size, lambda _: scanned.prefix_sha256)
        if known is not None:
            return known
        parser = parser_for(self.site) if self.site else detect(scanned.head_lines)
        if parser is not None and not parser.can_stream:
            return None
        report = FileReport(name, parser.name if parser else None, scanned.encoding.label, status=resume.status,
                            reading=self.reading, looks_like=self._looks_like(scanned.head_lines), changed=resume.changed)
        row: dict[str, Any] = {"path": name, "sha256": scanned.sha256, "size": scanned.size, "site": report.site,
                               "encoding": scanned.encoding.label, "lines": 0, "reading": self.reading}
        start_line = resume.start_line

        def lines_read(reader: LineReader) -> None:
            row["lines"] = reader.lines
            problems = [*reader.problems, *([describe_bad_bytes(reader.bad_bytes)] if reader.bad_bytes else [])]
            report.failures.extend(Failure(0, f"decoding: {problem}") for problem in problems)

        if parser is None:
            with opener() as stream:
                reader = LineReader(stream, scanned.encoding)
                kept, holding = _first_characters(reader, MAX_UNKNOWN_RAW + 1)
                decoded = DecodedFile(scanned.encoding.label, kept)
                lines_read(reader)
            job = FileJob(report, row, [], start_line, self.new_writer(resume.first), resume.prefix, damage=damage)
            _no_site_detected(job, decoded, holding)
            if damage:
                job.ready.append(failure_chunk(damage_failure(job)))
            return job
        counted = CountingStream()
        expanded = max(scanned.size, 1)
        job = FileJob(report, row, (), start_line, self.new_writer(resume.first), resume.prefix,
                      position=lambda _: min(counted.read_bytes / expanded, 1.0), damage=damage)

        def chunks() -> Iterator[Chunk]:
            with opener() as stream:
                counted.stream = stream
                reader = LineReader(cast(BinaryIO, counted), scanned.encoding)
                if parser.splits_at_hand_starts:
                    yield from line_blocks(reader, parser, name, start_line)
                else:
                    lines = (line for batch in reader for line in batch)
                    yield from _batched(raw for raw in parser.split(lines, name) if raw.first_line >= start_line)
                lines_read(reader)
            read_to_the_end(job, counted, scanned)

        job.chunks = chunks()
        return job


def read_to_the_end(job: FileJob, counted: CountingStream, scanned: ScannedStream) -> None:
    """A streamed file read to its end: its row records the bytes read, which are those scanned
    unless the file was cut or rewritten meanwhile (then said so: the next import reads it again, or
    from where this one stopped once the bytes come back). Read before its last chunk is parsed:
    whether the text read ends inside a line (a cut hand is incomplete, not failed)."""
    job.row["size"], job.row["sha256"] = counted.read_bytes, counted.digest.hexdigest()
    # the text of a damaged archive stops at the damage, in a line or not: its last hand is cut off
    job.ends_mid_line = bool(job.damage) or ends_mid_line(counted.tail)
    if counted.read_bytes < scanned.size:
        job.report.changed = f"shrank while read ({counted.read_bytes:,} of {scanned.size:,} bytes): read again next time"
    elif counted.read_bytes == scanned.size and job.row["sha256"] != scanned.sha256:
        job.report.changed = "changed while read: read again next time"


def sites_holding_a_hand(lines: Sequence[str]) -> list[str]:
    """The sites (PHH included) a hand of which starts somewhere in ``lines``: a file in which none
    does is not a hand history, whatever its name (a README, notes, JSON, a picture, an empty file)."""
    return [parser.name for parser in all_parsers() if parser.holds_hand(lines)]


def unknown_format_failure(name: str, decoded: DecodedFile, holding: Sequence[str] = ()) -> FailedHand:
    text = "\n".join(decoded.lines)
    raw = RawHand(name, 1, tuple(text[:MAX_UNKNOWN_RAW].split("\n")) if text else ("",))
    first = next((line for line in decoded.lines if line.strip()), "")
    reason = f"no supported site recognised this file's format (first line: {first[:120]!r})"
    if holding:  # a hand start further in: a garbled history, or one behind a preamble
        reason += (f"; a {' or '.join(holding)} hand starts further in (if it is one, import it with "
                   f"--site {holding[0]})")
    if len(text) > MAX_UNKNOWN_RAW:
        reason += f"; raw text cut to {MAX_UNKNOWN_RAW} characters"
    return FailedHand(None, None, 1, reason, raw, FailureKind.UNKNOWN_FORMAT)


def ends_mid_line(tail: bytes) -> bool:
    """Whether a file whose last bytes are ``tail`` stops inside a line (no final line break;
    NUL bytes are ignored, so UTF-16 text counts too)."""
    stripped = tail.rstrip(b"\x00")
    return bool(stripped) and stripped[-1:] not in (b"\n", b"\r")


def damage_failure(job: FileJob) -> FailedHand:
    """A damaged archive's unread rest as a failure, at the line after the last one read."""
    line = int(job.row.get("lines", 0)) + 1
    assert job.damage is not None
    return FailedHand(job.report.site, None, line, job.damage, RawHand(job.report.path, line, ("",)),
                      FailureKind.DAMAGED)


def source_size(source: Readable) -> int:
    size = getattr(source, "size", None)
    return int(size()) if callable(size) else 0


@dataclass(frozen=True)
class InMemory:
    """Bytes already in memory, named like the file they came from."""

    name: str
    data: bytes

    def read(self) -> bytes:
        return self.data

    def size(self) -> int:
        return len(self.data)

    def open_binary(self) -> BinaryIO:
        return io.BytesIO(self.data)


def line_blocks(pieces: Iterable[Sequence[str]], parser: SiteParser, file: str, start_line: int) -> Iterator[LineBlock]:
    """Cut a file's lines, arriving in pieces, into blocks of BATCH_HANDS hands, each cut just
    before a hand's first line; blocks whose hands all start before ``start_line`` are dropped."""
    pending: list[str] = []
    starts: list[int] = []  # indexes in pending of the lines that begin a hand
    offset = 0  # file index of pending[0]
    for piece in pieces:
        base = len(pending)
        starts.extend(base + index for index in parser.hand_starts(piece))
        pending.extend(piece)
        while len(starts) > BATCH_HANDS:
            cut = starts[BATCH_HANDS]
            if offset + cut >= start_line:  # some hand in it starts at or after start_line
                yield LineBlock(file, offset, tuple(pending[:cut]), start_line)
            del pending[:cut]
            offset += cut
            starts = [start - cut for start in starts[BATCH_HANDS:]]
        if len(pending) - (starts[-1] if starts else 0) > MAX_BLOCK_LINES:  # a hand that never ends: cut it here
            pending[-1] += f"{CUT_LINE_MARK}more than {MAX_BLOCK_LINES:,} lines without a hand start; the text was cut here"
            if offset + len(pending) >= start_line:
                yield LineBlock(file, offset, tuple(pending), start_line)
            offset += len(pending)
            pending, starts = [], []
    if pending:
        yield LineBlock(file, offset, tuple(pending), start_line)


def _no_site_detected(job: FileJob, decoded: DecodedFile, holding: Sequence[str]) -> None:
    """A file no site recognises: not a hand history when no hand of any site starts in it (or it
    holds no text), else one failure holding its text (a garbled history: nothing is lost)."""
    if not any(line.strip() for line in decoded.lines):
        not_a_history(job.report, NO_TEXT)
    elif not holding:
        not_a_history(job.report, NO_HAND_START)
    else:
        job.ready.append(failure_chunk(unknown_format_failure(job.report.path, decoded, holding)))


def _unchanged(name: str, known: dict[str, Any]) -> FileReport:
    """A file whose bytes were imported before: not read again, so this import finds nothing in it (no
    hand stored, none a duplicate, no failure told twice); ``totals`` still give what its import
    found (the files row)."""
    report = FileReport(name, known["site"], known["encoding"], status="unchanged", reading=known["reading"])
    report.totals = {name: known[name] for name in COUNTS}
    return report


def _first_characters(reader: LineReader, limit: int) -> tuple[tuple[str, ...], list[str]]:
    """The lines holding a stream's first ``limit`` characters (the rest is read and counted only),
    and the sites a hand of which starts anywhere in it (:func:`sites_holding_a_hand`)."""
    kept: list[str] = []
    holding: list[str] = []
    size = 0
    for batch in reader:
        holding.extend(site for site in sites_holding_a_hand(batch) if site not in holding)
        for line in batch:
            if size < limit:
                kept.append(line[: limit - size])
                size += len(line) + 1
    return tuple(kept), holding


def _last_line(chunk: Chunk) -> int:
    if isinstance(chunk, LineBlock):
        return chunk.offset + len(chunk.lines)
    return chunk[-1].last_line if chunk else 0


def _batched(raws: Iterable[RawHand]) -> Iterator[list[RawHand]]:
    batch: list[RawHand] = []
    for raw in raws:
        batch.append(raw)
        if len(batch) >= BATCH_HANDS:
            yield batch
            batch = []
    if batch:
        yield batch
