"""Deciding, once a file's hands are stored, whether its second copies of stored hands conflict.

The importer counts a second copy of a stored hand as a duplicate straight away (the first copy is
kept either way) and notes where it lies; when the copies' raw texts differ, this module reads both
again (the first from the store and its file, the second from the file being imported), compares
them (:func:`hhtool.ingest.copy_compare.compare_copies`) and returns the conflicts to store. Conflicts are rare,
so the work is done only for them, never for every hand.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hhtool.ingest.copy_compare import compare_copies
from hhtool.ingest.reader import decode_bytes
from hhtool.model import Hand, RawHand, hand_identity
from hhtool.sites import parser_for
from hhtool.store import Store
from hhtool.store.load import load_hands
from hhtool.store.stored_copies import CopyAt, stored_copies


@dataclass(frozen=True, slots=True)
class Conflict:
    """A conflict as the import summary reports it."""

    site: str
    hand_id: str
    first: str  # file:first-last
    second: str
    kind: str
    diff: str

    def as_json(self) -> dict[str, Any]:
        return {"site": self.site, "hand_id": self.hand_id, "first": self.first, "second": self.second,
                "kind": self.kind, "diff": self.diff}


class CopyChecker:
    """Resolves a file's candidate copies against the store; reads each file at most once."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._lines: dict[str, Sequence[str] | None] = {}
        self._raws: dict[tuple[str, str], dict[int, RawHand]] = {}

    def provide(self, path: str, lines: Sequence[str]) -> None:
        """The lines of a file already in memory (the file being imported)."""
        self._lines[path] = lines

    def forget(self) -> None:
        self._lines.clear()
        self._raws.clear()

    def _lines_of(self, path: str) -> Sequence[str] | None:
        if path not in self._lines:
            try:
                self._lines[path] = decode_bytes(Path(path).read_bytes()).lines
            except (OSError, ValueError):
                self._lines[path] = None
        return self._lines[path]

    def _text_at(self, path: str, first_line: int, last_line: int, sha256: str | None = None) -> str | None:
        lines = self._lines_of(path)
        if lines is None or last_line > len(lines):
            return None
        text = "\n".join(lines[first_line - 1:last_line])
        if sha256 is not None and hashlib.sha256(text.encode("utf-8", "replace")).hexdigest() != sha256:
            return None  # the file changed since: this is not the stored copy's text any more
        return text

    def _hand_at(self, copy: CopyAt) -> Hand | None:
        parser = parser_for(copy.site)
        key = (copy.site, copy.file)
        if key not in self._raws:
            lines = self._lines_of(copy.file)
            self._raws[key] = {raw.first_line: raw for raw in parser.split(lines, copy.file)} if lines is not None else {}
        raw = self._raws[key].get(copy.first_line)
        if raw is None:
            return None
        kept = raw.lines[:copy.last_line - copy.first_line + 1]  # without stray lines the import cut off
        outcome = parser.parse(RawHand(raw.file, raw.first_line, kept, raw.header, raw.header_line))
        return outcome if isinstance(outcome, Hand) else None

    def resolve(self, candidates: Sequence[CopyAt]) -> tuple[list[dict[str, Any]], list[Conflict]]:
        """Conflict rows (``copy_conflicts``) and their report lines for these second copies."""
        rows: list[dict[str, Any]] = []
        conflicts: list[Conflict] = []
        for copy in candidates:
            probe = (copy.hand_id, *hand_identity(copy.site, copy.hand_id, copy.origin_site))
            stored = stored_copies(self.store, [probe]).get(copy.hand_id)
            if stored is None or (stored.sha256 == copy.sha256 and stored.site == copy.site):
                continue  # the very same text: a plain duplicate
            found = self._compare(stored, copy)
            if found is None:
                continue
            kind, diff, first_text, second_text = found
            rows.append({
                "site": stored.site, "hand_id": stored.hand_id, "first_file": stored.file,
                "first_first_line": stored.first_line, "first_last_line": stored.last_line,
                "first_sha256": stored.sha256, "second_site": copy.site, "second_hand_id": copy.hand_id,
                "second_file": copy.file, "second_first_line": copy.first_line, "second_last_line": copy.last_line,
                "second_sha256": copy.sha256, "kind": kind, "diff": diff, "first_text": first_text,
                "second_text": second_text,
            })
            conflicts.append(Conflict(stored.site, stored.hand_id, f"{stored.file}:{stored.first_line}-{stored.last_line}",
                                      f"{copy.file}:{copy.first_line}-{copy.last_line}", kind, diff))
        return rows, conflicts

    def _compare(self, stored: CopyAt, copy: CopyAt) -> tuple[str, str, str | None, str] | None:
        second_text = self._text_at(copy.file, copy.first_line, copy.last_line)
        second = self._hand_at(copy)
        if second is None or second_text is None:
            return None  # cannot happen for a hand just read; never invent a conflict
        first = next(load_hands(self.store, "h.site = ? AND h.hand_id = ?", [stored.site, stored.hand_id]), None)
        first_text = self._text_at(stored.file, stored.first_line, stored.last_line, stored.sha256)
        verdict = compare_copies(first, first_text, second, second_text)
        if verdict is None:
            return None
        kind, diff = verdict
        if stored.file == copy.file and stored.first_line == copy.first_line:
            kind = "grown"  # the first copy was read while the client was still writing the hand
        return kind, diff, first_text, second_text
