"""What an import tells of each file and in all: every hand found is stored, a duplicate, skipped,
failed or incomplete (``found = stored + duplicates + skipped + failed + incomplete``)."""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hhtool.ingest.conflicts import Conflict
from hhtool.model import FailureKind

if TYPE_CHECKING:
    from hhtool.ingest.chunks import ChunkResult


@dataclass
class Failure:
    line: int
    reason: str
    kind: str = FailureKind.UNREADABLE.value


#: the counts of a file's accounting, in the order the summary gives them
COUNTS = ("hands_found", "stored", "duplicates", "skipped", "failed", "incomplete")
#: hand ids of duplicates a file's report keeps (the rest are counted)
KEPT_DUPLICATE_IDS = 20
#: the status of a file that holds no hand: skipped, nothing found, no failure (``note`` says why)
NOT_A_HAND_HISTORY = "not a hand history"


@dataclass
class FileReport:
    """One file's accounting in this import. ``totals`` is the whole file's (its ``files`` row):
    the same as this import's unless the file grew and only its new part was read."""

    path: str
    site: str | None = None
    encoding: str | None = None
    hands_found: int = 0
    stored: int = 0
    duplicates: int = 0  # already stored from another file or place; conflicting copies included
    skipped: int = 0
    failed: int = 0
    incomplete: int = 0  # a truncated last hand: kept raw in import_errors, not counted as failed
    # stored by an earlier (interrupted or shorter) read of this file at the same place and read again by
    # this one: not counted in this import's hands found, only in the file's totals
    already_stored: int = 0
    # of the stored: hands whose copy an earlier import stored cut off (a client was writing it) and this
    # one replaced with the whole hand (:mod:`hhtool.ingest.provisional`)
    completed: int = 0
    failures: list[Failure] = field(default_factory=list)
    incomplete_hands: list[Failure] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    duplicate_ids: list[str] = field(default_factory=list)  # the first KEPT_DUPLICATE_IDS (not already_stored)
    skipped_games: dict[str, int] = field(default_factory=dict)  # the games of the skipped hands, as the site names them
    note: str | None = None  # why a file is not a hand history
    # the file shrank (or changed) since an earlier import read it, or while this one read it: what
    # happened, and what is read again (nothing is lost: the hands stored stay, those read again are counted)
    changed: str | None = None
    # parsed | unchanged (already imported, not read again: counts 0) | grown (parsed from the last known hand)
    # | reread | changed (shorter than, or changed before, what an earlier import read: read again from its
    # start) | "not a hand history" (no hand start of the site read in it: skipped, nothing found)
    status: str = "parsed"
    reading: str = "detected"  # how the site was chosen: detected from the content, or forced (--site)
    looks_like: str | None = None  # with --site: the site the content is detected as, where another
    totals: dict[str, int] = field(default_factory=dict)

    def balanced(self) -> bool:
        return self.hands_found == self.stored + self.duplicates + self.skipped + self.failed + self.incomplete

    def file_totals(self) -> dict[str, int]:
        return self.totals or {name: getattr(self, name) for name in COUNTS}

    def as_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "site": self.site,
            "status": self.status,
            "reading": self.reading,
            "looks_like": self.looks_like,
            **{name: getattr(self, name) for name in COUNTS},
            "already_stored": self.already_stored,
            "completed": self.completed,
            "failures": [{"line": f.line, "reason": f.reason, "kind": f.kind} for f in self.failures],
            "incomplete_hands": [{"line": f.line, "reason": f.reason, "kind": f.kind} for f in self.incomplete_hands],
            "conflicts": [conflict.as_json() for conflict in self.conflicts],
            "duplicate_ids": self.duplicate_ids,
            "skipped_games": self.skipped_games,
            "note": self.note,
            "changed": self.changed,
        }

    def keep_duplicate_ids(self, hand_ids: list[str]) -> None:
        room = KEPT_DUPLICATE_IDS - len(self.duplicate_ids)
        if room > 0:
            self.duplicate_ids.extend(hand_ids[:room])


@dataclass
class ImportProgress:
    """How far an import is, as the importer tells it after each chunk and file: hands found so far
    (each one stored, a duplicate, skipped or failed), files done, and bytes read (on disk: an
    archive's compressed bytes) of ``bytes_total``, from which a time left can be estimated."""

    files_total: int = 0
    bytes_total: int = 0
    files_done: int = 0
    hands_found: int = 0
    stored: int = 0
    failed: int = 0
    bytes_done: int = 0


@dataclass
class ImportReport:
    files: list[FileReport] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)  # sources that could not be opened, with the reason
    ignored: list[str] = field(default_factory=list)  # files of the folders named not read for their names

    def total(self, name: str) -> int:
        return sum(getattr(report, name) for report in self.files)

    @property
    def failed(self) -> int:
        return self.total("failed") + len(self.unreadable)

    @property
    def wrong_site(self) -> list[FileReport]:
        """The files read as a --site in which no hand of it starts, though they look like another
        site's: nothing done where it was asked (exit 1)."""
        return [report for report in self.files if report.looks_like and report.status == NOT_A_HAND_HISTORY]

    @property
    def conflicts(self) -> list[Conflict]:
        return [conflict for report in self.files for conflict in report.conflicts]

    def as_json(self) -> dict[str, Any]:
        totals = {name: self.total(name) for name in COUNTS}
        totals["files"] = len(self.files)
        totals["unreadable"] = len(self.unreadable)
        totals["conflicts"] = len(self.conflicts)
        totals["wrong_site"] = len(self.wrong_site)
        totals["not_hand_histories"] = sum(1 for r in self.files if r.status == NOT_A_HAND_HISTORY) + len(self.ignored)
        return {"totals": totals, "files": [r.as_json() for r in self.files], "unreadable": self.unreadable,
                "ignored": self.ignored}


class ProgressTracker:
    """Tells ``listener`` how far an import is after each chunk and file: hands found, stored and
    failed (the done files' sums kept, the files in flight summed again: a tell costs the few files
    in flight, not every file), files done, bytes read (on disk, of ``bytes_total``)."""

    #: the counts of the progress, summed from the files' reports
    SUMMED = ("hands_found", "stored", "failed")

    def __init__(self, files_total: int, bytes_total: int, listener: Callable[[ImportProgress], None] | None) -> None:
        self.listener = listener
        self.progress = ImportProgress(files_total, bytes_total)
        self.finished_bytes = 0
        self.done_sums = dict.fromkeys(self.SUMMED, 0)
        self.in_flight: dict[int, tuple[FileReport, float]] = {}  # id of a file's report -> (it, its bytes read)

    def started(self, report: FileReport) -> None:
        self.in_flight[id(report)] = (report, 0.0)

    def chunk_done(self, report: FileReport, bytes_read: float) -> None:
        """A chunk of the file is stored, ``bytes_read`` of the file read so far."""
        self.in_flight[id(report)] = (report, bytes_read)
        self._tell()

    def file_done(self, size: int, report: FileReport | None = None) -> None:
        """A file of ``size`` bytes on disk is done (stored, unchanged, skipped; without a report: unreadable)."""
        if report is not None:
            self.in_flight.pop(id(report), None)
            for name in self.SUMMED:
                self.done_sums[name] += getattr(report, name)
        self.finished_bytes += size
        self.progress.files_done += 1
        self._tell()

    def _tell(self) -> None:
        if self.listener is None:
            return
        done = self.progress
        flying = list(self.in_flight.values())
        done.hands_found, done.stored, done.failed = (
            self.done_sums[name] + sum(getattr(report, name) for report, _ in flying) for name in self.SUMMED)
        done.bytes_done = min(done.bytes_total, self.finished_bytes + int(sum(read for _, read in flying)))
        self.listener(done)


def count_chunk(report: FileReport, result: ChunkResult, known: Collection[str], own: Collection[str]) -> None:
    """Account a chunk's items in its file's report: ``known`` are its hands stored before (duplicates,
    but for ``own``: stored by this very file at this very place by an earlier, shorter or interrupted
    read, which this read does not find again; the file's totals count them as the hands it stored)."""
    report.keep_duplicate_ids([copy.hand_id for copy in result.repeats] + [hand_id for hand_id in known if hand_id not in own])
    skipped_hands = result.tables.get("skipped_hands")
    if skipped_hands is not None and skipped_hands.num_rows:
        for game in skipped_hands["game"].to_pylist():
            report.skipped_games[str(game)] = report.skipped_games.get(str(game), 0) + 1
    report.hands_found += result.found - len(own)
    report.stored += len(result.hand_ids) - len(known)
    report.duplicates += result.duplicates + len(known) - len(own)
    report.already_stored += len(own)
    report.skipped += result.skipped
    report.failed += len(result.failures)
    report.failures.extend(Failure(*failure) for failure in result.failures)
    report.failures.extend(Failure(0, note) for note in result.notes)  # (line 0: a note, no hand failed)
    report.incomplete += len(result.incomplete)
    report.incomplete_hands.extend(Failure(*failure) for failure in result.incomplete)


def file_counts(report: FileReport) -> dict[str, int]:
    """The counts of a file's ``files`` row for this read: what it found, and the hands an earlier read
    stored at the same places (see :func:`count_chunk`)."""
    counts = {name: getattr(report, name) for name in COUNTS}
    counts["stored"] += report.already_stored
    counts["hands_found"] += report.already_stored
    return counts


def not_a_history(report: FileReport, note: str) -> None:
    """Mark a file that holds no hand: skipped, nothing found, no failure (its decoding notes are
    about text that is no hand: dropped)."""
    report.status, report.note = NOT_A_HAND_HISTORY, note
    report.failures = [failure for failure in report.failures if not failure.reason.startswith("decoding:")]
