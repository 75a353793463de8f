"""The statements that undo what an earlier import stored about a file's lines, for the import that reads
them again (a file grown, changed in place, or read the other way: :mod:`hhtool.ingest.files` decides
which, and from which line). They run in that import's first transaction of the file, so a kill leaves
the earlier reading or the new one. A stored hand is never removed here: a stored hand never changes."""

from __future__ import annotations

from typing import Any

Statements = list[tuple[str, list[Any]]]


def read_again(path: str, sha256: str, start_line: int) -> Statements:
    """Statements removing the files row of ``path`` read as the bytes ``sha256``, and what that reading
    stored about the file's lines from ``start_line`` on (its failures, skipped hands and conflicting
    second copies), which this import reads again."""
    return [("DELETE FROM import_errors WHERE file = ? AND first_line >= ?", [path, start_line]),
            ("DELETE FROM skipped_hands WHERE file = ? AND first_line >= ?", [path, start_line]),
            ("DELETE FROM copy_conflicts WHERE second_file = ? AND second_first_line >= ?", [path, start_line]),
            ("DELETE FROM files WHERE path = ? AND sha256 = ?", [path, sha256])]


__all__ = ["Statements", "read_again"]
