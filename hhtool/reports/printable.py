"""The one rule for text hhtool shows that it did not write itself (a player's name, a file or archive
member's name, a note, a history's line): every character a terminal or a page would act on instead
of showing is shown as "?".

Those are the controls (C0, DEL and C1: an escape sequence's start, a bell, a line break, a tab), the
line and paragraph separators (U+2028, U+2029) and the bidirectional marks, embeddings, overrides and
isolates (U+061C, U+200E/F, U+202A–U+202E, U+2066–U+2069: ``\\u202e`` shows the text after it reversed).
The terminal's commands, the import's summary, ``--watch``'s status line and the web pages' notes
all go through :func:`printable`; the text stored stays as it was given.

>>> printable("x\\x1b]0;PWN\\x07.txt"), printable("evil\\u202eexe.txt"), printable("a\\r\\nb", lines=True)
('x?]0;PWN?.txt', 'evil?exe.txt', 'a\\nb')
"""

from __future__ import annotations

import re

_UNSHOWN = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def printable(text: str, *, lines: bool = False) -> str:
    """``text`` with every character of the module's rule as "?"; with ``lines``, the line breaks
    (``\\n``, or ``\\r\\n`` as a browser's form sends them) of a text of several lines are kept, as ``\\n``."""
    if lines:
        return "\n".join(_UNSHOWN.sub("?", line) for line in text.replace("\r\n", "\n").split("\n"))
    return _UNSHOWN.sub("?", text)


__all__ = ["printable"]
