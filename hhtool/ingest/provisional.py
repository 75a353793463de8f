"""The last hand of a growing file: stored as read, replaced when the grown file completes it.

A poker client appends a hand line by line, so an import (or a ``--watch`` pass) may read a file
while its last hand is half written. Cut inside a line, that hand is *incomplete* (kept raw, never
stored). Cut at a line boundary inside its summary, it still reads as a whole hand (the summary
only restates the hand), and it is stored: the import cannot tell it from a finished file whose
last hand has no blank line after it, which real exports are. That stored copy is *provisional*:
it is the hand at the files row's ``resume_line``, the one the file's next import reads again when
the file has grown.

That read finds the stored copy at the very place of the very file it reads, and the import only
resumes a file whose bytes up to the size it had then still hash as they did: the stored copy's
text is the start of what the file holds there now. A copy that is longer now was cut off while
written: the completed hand replaces it, in the transaction that stores the completed one (so a
kill leaves one or the other). It is not a duplicate, not "stored before" and never a
conflicting copy. Its stats facts go with it. This module decides that a copy completes a stored one
(:func:`completes`); the statements that remove the cut copy are the store's
(:func:`hhtool.store.replaced_hands.forget_hand`).
"""

from __future__ import annotations

from hhtool.store.stored_copies import CopyAt


def completes(stored: CopyAt, site: str, file: str, first_line: int, last_line: int, sha256: str) -> bool:
    """Whether the copy just read at (file, first_line) completes ``stored``, a copy of the same hand
    read from the same place of the same file by an earlier import of it, before it grew (the caller
    knows it grew: only then is the place's old text known to be the start of the new one)."""
    return (stored.site == site and (stored.file, stored.first_line) == (file, first_line)
            and stored.sha256 != sha256 and stored.last_line <= last_line)

