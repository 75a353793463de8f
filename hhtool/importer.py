"""The import pipeline: read → parse → (replay) → store, file by file, in batches.

Every hand found is accounted for: stored, duplicate, skipped (other game) or failed
(stored raw in ``import_errors`` with file, lines and reason). Nothing is dropped silently.
"""

from __future__ import annotations

import glob
import hashlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hhtool.model import FailedHand, Hand, ParseOutcome, RawHand, SkippedHand
from hhtool.reader import DecodedFile, decode_bytes
from hhtool.sites import detect, parser_for
from hhtool.store import Batch, Store, StoredHand

#: file endings looked at when a folder is imported (named files are always read)
HAND_HISTORY_SUFFIXES = {".txt", ".xml", ".log", ".hh", ".phh", ".phhs", ".htm", ".html"}
BATCH_HANDS = 2000
#: raw text kept for a file no site recognises (the rest is noted as cut)
MAX_UNKNOWN_RAW = 1_000_000

#: (hand) -> (replay result, profile name); None disables replay
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
    unreadable: list[Failure] = field(default_factory=list)  # paths that could not be opened (line 0)

    def total(self, name: str) -> int:
        return sum(getattr(report, name) for report in self.files)

    @property
    def failed(self) -> int:
        return self.total("failed") + len(self.unreadable)

    def as_json(self) -> dict[str, Any]:
        totals = {name: self.total(name) for name in ("hands_found", "stored", "duplicates", "skipped", "failed")}
        totals["failed"] = self.failed
        totals["files"] = len(self.files)
        return {
            "totals": totals,
            "files": [report.as_json() for report in self.files],
            "unreadable": [{"path": f.reason.split(": ", 1)[0], "reason": f.reason} for f in self.unreadable],
        }


def collect_paths(arguments: Iterable[str]) -> tuple[list[Path], list[str]]:
    """Expand files, folders (recursively) and glob patterns; each file once, in a stable order.
    Returns (files, arguments that matched nothing)."""
    found: dict[Path, None] = {}
    unmatched: list[str] = []
    for argument in arguments:
        path = Path(argument).expanduser()
        if path.is_dir():
            candidates = [p for p in sorted(path.rglob("*")) if p.is_file() and p.suffix.lower() in HAND_HISTORY_SUFFIXES]
        elif path.exists():
            candidates = [path]
        else:
            candidates = [Path(match) for match in sorted(glob.glob(argument, recursive=True))]
            candidates = [
                p for p in candidates
                if p.is_file() and (p.suffix.lower() in HAND_HISTORY_SUFFIXES or not any(ch in argument for ch in "*?["))
            ]
        if not candidates:
            unmatched.append(argument)
        for candidate in candidates:
            found.setdefault(candidate.resolve(), None)
    return list(found), unmatched


def parse_file(path: Path, data: bytes, site: str | None = None) -> tuple[str | None, DecodedFile, Iterator[ParseOutcome]]:
    """Decode and split one file; outcomes are produced lazily, hand by hand."""
    decoded = decode_bytes(data)
    parser = parser_for(site) if site else detect(decoded.lines)
    if parser is None:
        text = "\n".join(decoded.lines)
        raw = RawHand(str(path), 1, tuple(text[:MAX_UNKNOWN_RAW].split("\n")) if text else ("",))
        first = next((line for line in decoded.lines if line.strip()), "")
        reason = f"no supported site recognised this file's format (first line: {first[:120]!r})"
        if len(text) > MAX_UNKNOWN_RAW:
            reason += f"; raw text cut to {MAX_UNKNOWN_RAW} characters"
        return None, decoded, iter([FailedHand(None, None, 1, reason, raw)] if decoded.lines else [])
    return parser.name, decoded, (parser.parse(raw) for raw in parser.split(decoded.lines, str(path)))


class Importer:
    def __init__(self, store: Store, replayer: Replayer | None = None, site: str | None = None,
                 on_progress: Callable[[int], None] | None = None) -> None:
        self.store = store
        self.replayer = replayer
        self.site = site
        self.on_progress = on_progress

    def run(self, paths: Iterable[Path]) -> ImportReport:
        report = ImportReport()
        for path in paths:
            try:
                data = path.read_bytes()
            except OSError as error:
                report.unreadable.append(Failure(0, f"{path}: cannot read: {error.strerror or error}"))
                continue
            report.files.append(self.import_file(path, data))
        return report

    def import_file(self, path: Path, data: bytes) -> FileReport:
        site, decoded, outcomes = parse_file(path, data, self.site)
        report = FileReport(str(path), site, decoded.encoding)
        for problem in decoded.problems:
            report.failures.append(Failure(0, f"decoding: {problem}"))
        batch = Batch()
        for outcome in outcomes:
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
            if len(batch.hands) + len(batch.failures) + len(batch.skipped) >= BATCH_HANDS:
                self._flush(batch, report)
                batch = Batch()
        batch.files.append({
            "path": str(path), "sha256": hashlib.sha256(data).hexdigest(), "size": len(data), "site": site,
            "encoding": decoded.encoding, "hands_found": report.hands_found, "stored": 0, "duplicates": 0,
            "skipped": report.skipped, "failed": report.failed,
        })
        self._flush(batch, report)
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
        if self.on_progress:
            self.on_progress(len(batch.hands) + len(batch.failures) + len(batch.skipped))
