"""The import pipeline: read → parse → (replay) → store, file by file, in batches.

Every hand found is accounted for — *found = stored + duplicates + skipped + failed* — where
failed hands are kept raw in ``import_errors`` with file, lines and reason. Files already
imported are recognised by content and not parsed again; a file that grew since its last
import is parsed from its last hand on.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from hhtool.model import FailedHand, Hand, ParseOutcome, RawHand, SkippedHand
from hhtool.reader import DecodedFile, decode_bytes
from hhtool.sites import detect, parser_for
from hhtool.sources import Source, SourceError
from hhtool.store import Batch, Store, StoredHand

BATCH_HANDS = 2000
#: raw text kept for a file no site recognises (the rest is noted as cut)
MAX_UNKNOWN_RAW = 1_000_000

#: (hand) -> (replay result, profile name)
Replayer = Callable[[Hand], tuple[Any, str]]


@dataclass
class Failure:
    line: int
    reason: str


@dataclass
class FileReport:
    path: str
    site: str | None = None
    encoding: str | None = None
    hands_found: int = 0
    stored: int = 0
    duplicates: int = 0
    skipped: int = 0
    failed: int = 0
    failures: list[Failure] = field(default_factory=list)
    status: str = "parsed"  # parsed | unchanged (already imported) | grown (parsed from the last known hand)

    def balanced(self) -> bool:
        return self.hands_found == self.stored + self.duplicates + self.skipped + self.failed

    def as_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "site": self.site,
            "hands_found": self.hands_found,
            "stored": self.stored,
            "duplicates": self.duplicates,
            "skipped": self.skipped,
            "failed": self.failed,
            "failures": [{"line": f.line, "reason": f.reason} for f in self.failures],
        }


@dataclass
class ImportReport:
    files: list[FileReport] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)  # sources that could not be opened, with the reason

    def total(self, name: str) -> int:
        return sum(getattr(report, name) for report in self.files)

    @property
    def failed(self) -> int:
        return self.total("failed") + len(self.unreadable)

    def as_json(self) -> dict[str, Any]:
        totals = {name: self.total(name) for name in ("hands_found", "stored", "duplicates", "skipped", "failed")}
        totals["files"] = len(self.files)
        totals["unreadable"] = len(self.unreadable)
        return {"totals": totals, "files": [r.as_json() for r in self.files], "unreadable": self.unreadable}


def parse_lines(name: str, decoded: DecodedFile, site: str | None = None,
                start_line: int = 1) -> tuple[str | None, Iterator[ParseOutcome]]:
    """Split and parse decoded lines; outcomes come lazily, hand by hand. Hands starting
    before ``start_line`` were imported before and are not parsed again."""
    parser = parser_for(site) if site else detect(decoded.lines)
    if parser is None:
        text = "\n".join(decoded.lines)
        raw = RawHand(name, 1, tuple(text[:MAX_UNKNOWN_RAW].split("\n")) if text else ("",))
        first = next((line for line in decoded.lines if line.strip()), "")
        reason = f"no supported site recognised this file's format (first line: {first[:120]!r})"
        if len(text) > MAX_UNKNOWN_RAW:
            reason += f"; raw text cut to {MAX_UNKNOWN_RAW} characters"
        return None, iter([FailedHand(None, None, 1, reason, raw)] if decoded.lines else [])
    raws = (raw for raw in parser.split(decoded.lines, name) if raw.first_line >= start_line)
    return parser.name, (parser.parse(raw) for raw in raws)


def _may_be_half_written(outcome: ParseOutcome) -> bool:
    """A failed last hand that ends early, or fails on its very last line (a line being written)."""
    return isinstance(outcome, FailedHand) and ("ends early" in outcome.reason or outcome.line >= outcome.raw.last_line)


class Importer:
    def __init__(self, store: Store, replayer: Replayer | None = None, site: str | None = None,
                 defer_incomplete_last_hand: bool = False) -> None:
        self.store = store
        self.replayer = replayer
        self.site = site
        # Watch mode: a client may still be writing the last hand; leave it for the next pass.
        self.defer_incomplete_last_hand = defer_incomplete_last_hand

    def run(self, sources: Iterable[Source]) -> ImportReport:
        report = ImportReport()
        for source in sources:
            try:
                data = source.read()
            except SourceError as error:
                report.unreadable.append(str(error))
                continue
            report.files.append(self.import_file(source.name, data))
        return report

    def import_file(self, name: str | os.PathLike[str], data: bytes) -> FileReport:
        name = str(name)
        digest = hashlib.sha256(data).hexdigest()
        known = self.store.file_by_content(digest)
        if known is not None and known["site"] == (self.site or known["site"]):
            return self._unchanged(name, known)
        start_line, status = 1, "parsed"
        previous = self.store.last_import_of(str(name))
        grew = previous is not None and len(data) > previous["size"]
        if grew and hashlib.sha256(data[: previous["size"]]).hexdigest() == previous["sha256"]:  # type: ignore[index]
            start_line, status = previous["resume_line"], "grown"  # type: ignore[index]
        decoded = decode_bytes(data)
        site, outcomes = parse_lines(str(name), decoded, self.site, start_line)
        report = FileReport(str(name), site, decoded.encoding, status=status)
        for problem in decoded.problems:
            report.failures.append(Failure(0, f"decoding: {problem}"))
        resume_line = start_line
        batch = Batch()
        pending: ParseOutcome | None = None  # held back one step to know which outcome is the last
        for outcome in outcomes:
            if pending is not None:
                self._account(pending, batch, report)
            pending = outcome
            resume_line = outcome.source.first_line if isinstance(outcome, Hand) else outcome.raw.first_line
            if len(batch.hands) + len(batch.failures) + len(batch.skipped) >= BATCH_HANDS:
                self._flush(batch, report)
                batch = Batch()
        if pending is not None and not (self.defer_incomplete_last_hand and _may_be_half_written(pending)):
            self._account(pending, batch, report)
        batch.files.append({
            "path": str(name), "sha256": digest, "size": len(data), "site": site, "encoding": decoded.encoding,
            "hands_found": report.hands_found, "stored": 0, "duplicates": 0, "skipped": report.skipped,
            "failed": report.failed, "lines": len(decoded.lines), "resume_line": resume_line,
        })
        self._flush(batch, report)
        return report

    def _account(self, outcome: ParseOutcome, batch: Batch, report: FileReport) -> None:
        report.hands_found += 1
        if isinstance(outcome, Hand):
            replay, profile = self.replayer(outcome) if self.replayer else (None, None)
            batch.hands.append(StoredHand(outcome, replay, profile))
        elif isinstance(outcome, SkippedHand):
            batch.skipped.append(outcome)
            report.skipped += 1
        else:
            batch.failures.append(outcome)
            report.failed += 1
            report.failures.append(Failure(outcome.line, outcome.reason))

    def _unchanged(self, name: str, known: dict[str, Any]) -> FileReport:
        """A file whose bytes were imported before: nothing to parse, every hand is known."""
        report = FileReport(str(name), known["site"], known["encoding"], status="unchanged")
        report.hands_found = known["hands_found"]
        report.skipped, report.failed = known["skipped"], known["failed"]
        report.duplicates = report.hands_found - report.skipped - report.failed
        report.failures = [Failure(line, reason) for line, reason in self.store.errors_of(known["path"])]
        return report

    def _flush(self, batch: Batch, report: FileReport) -> None:
        """Drop duplicates (already stored, or twice in this batch), then write in one transaction."""
        unique: dict[tuple[str, str], StoredHand] = {}
        for item in batch.hands:
            key = (item.hand.site, item.hand.hand_id)
            if key in unique:
                report.duplicates += 1
            else:
                unique[key] = item
        by_site: dict[str, list[str]] = {}
        for site, hand_id in unique:
            by_site.setdefault(site, []).append(hand_id)
        for site, ids in by_site.items():
            for hand_id in self.store.known_hand_ids(site, ids):
                del unique[(site, hand_id)]
                report.duplicates += 1
        batch.hands = list(unique.values())
        report.stored += len(batch.hands)
        for row in batch.files:  # the file row goes with the file's last batch
            row["stored"], row["duplicates"] = report.stored, report.duplicates
        self.store.write(batch)
