"""JSON text that is safe on a terminal: the one rule for every JSON hhtool prints or writes.

JSON keeps non-ASCII text as written (``ensure_ascii=False``: a name reads ``Jürgen``), and escapes
C0 control characters itself; but it leaves the C1 controls (U+0080–U+009F: U+009B is a terminal's
CSI, U+009D its OSC) and the line and paragraph separators (U+2028, U+2029, which some readers take
for line breaks) as they are. A hostile player name holding them reached the terminal raw through
``--format json`` (#28, item 9): they are written as ``\\u`` escapes, which every JSON reader decodes.

>>> dumps({"name": "A\\u009b31mB\\u2028C", "who": "Jürgen"})
'{"name": "A\\\\u009b31mB\\\\u2028C", "who": "Jürgen"}'
"""

from __future__ import annotations

import json
from typing import Any

#: each character JSON leaves raw that a terminal or a reader may act on, to its escape
_ESCAPES = {code: f"\\u{code:04x}" for code in (*range(0x80, 0xA0), 0x2028, 0x2029)}


def dumps(value: Any, indent: int | None = None) -> str:
    """``json.dumps`` with non-ASCII text kept, C1 controls and U+2028/U+2029 escaped."""
    return json.dumps(value, indent=indent, ensure_ascii=False).translate(_ESCAPES)
