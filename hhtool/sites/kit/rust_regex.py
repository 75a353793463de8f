"""A line terminal's Python regex written for the native engine (Rust's ``regex`` crate, which Polars runs),
so that a whole column of lines is matched in native code with the very language Python's ``re`` accepts.

The two engines differ where it matters here: with ``re.ASCII`` (every line terminal's flags) ``\\d``,
``\\w``, ``\\s`` and ``\\b`` are ASCII in Python and Unicode in Rust, and Python's IGNORECASE folds only ASCII
letters where Rust's also folds ``K`` (Kelvin) to ``k`` and ``ſ`` to ``s``. So the pattern is not passed on
as text: it is parsed by the stdlib's own regex parser and written out again from the tree, every class
and folded letter spelt out in ASCII. Rust has no lookaround and no backreference: a trailing
``(?=\\n|\\Z)`` (every grammar's end of line) is always true at the end of a whole line and is dropped
exactly; any other lookaround is dropped from the native pattern, which then accepts more than the
terminal (a prefilter), and the terminal is marked for Python's ``re`` on the lines the prefilter passes.
A backreference cannot be written at all (:class:`NotNative`). Every capture group is numbered
``g1``, ``g2``… in the native pattern, in Python's order, so that the groups come back in their places.
"""

from __future__ import annotations

import re
import re._constants as sre_constants  # type: ignore[import-not-found]  # the stdlib regex parser's node kinds
import re._parser as sre_parse  # type: ignore[import-not-found]  # the stdlib's own regex parser
from dataclasses import dataclass
from typing import Any

_C = sre_constants
#: ASCII classes as Python's re.ASCII reads them (inside a bracket, without the brackets)
_CATEGORY_SET = {
    _C.CATEGORY_DIGIT: "0-9",
    _C.CATEGORY_SPACE: "\\t\\n\\x0B\\x0C\\r ",
    _C.CATEGORY_WORD: "0-9A-Za-z_",
}
_NEGATED = {_C.CATEGORY_NOT_DIGIT: _C.CATEGORY_DIGIT, _C.CATEGORY_NOT_SPACE: _C.CATEGORY_SPACE,
            _C.CATEGORY_NOT_WORD: _C.CATEGORY_WORD}
#: the end of a line as every grammar writes it, ``(?=\n|\Z)``, as the parser's tree prints it
_LINE_END = repr(sre_parse.parse(r"(?=\n|\Z)")[0])


class NotNative(ValueError):
    """The pattern uses what the native engine cannot express at all (a backreference, a conditional)."""


@dataclass(frozen=True)
class NativePattern:
    """The native spelling of a terminal's whole-line match: ``pattern`` is anchored at both ends;
    ``exact`` is False where a lookaround was dropped (the pattern is a prefilter, and Python's ``re``
    decides on the lines it passes); ``groups`` is the number of capture groups (``g1``…)."""

    pattern: str
    exact: bool
    groups: int


def native_pattern(pattern: str, flags: int = re.ASCII) -> NativePattern:
    """``pattern`` (as ``re.fullmatch(pattern, line, flags)`` reads it) written for the native engine."""
    parsed = sre_parse.parse(pattern, flags)
    writer = _Writer(ignore_case=bool(parsed.state.flags & re.IGNORECASE), dot_all=bool(parsed.state.flags & re.DOTALL))
    body = writer.sequence(parsed, writer.ignore_case, writer.dot_all, at_end=True)
    return NativePattern(f"^(?:{body})$", writer.exact, parsed.state.groups - 1)


def _escape(char: int) -> str:
    text = chr(char)
    if text.isascii() and (text.isalnum() or text in " _"):
        return text
    if text.isascii() and text.isprintable():
        return "\\" + text
    return f"\\x{{{char:X}}}"


def _folded(char: int) -> str:
    """One literal under ASCII-only IGNORECASE: both cases of an ASCII letter, else itself."""
    text = chr(char)
    if text.isascii() and text.isalpha():
        return f"[{text.lower()}{text.upper()}]"
    return _escape(char)


class _Writer:
    def __init__(self, ignore_case: bool, dot_all: bool) -> None:
        self.ignore_case, self.dot_all = ignore_case, dot_all
        self.exact = True

    def sequence(self, items: Any, fold: bool, dot_all: bool, at_end: bool = False) -> str:
        """``items`` written out; ``at_end``: the sequence ends where the whole match ends (its last item,
        and that item's own last items through groups and alternatives, are at the end of the line)."""
        items = list(items)
        return "".join(self.item(op, av, fold, dot_all, at_end and place == len(items) - 1)
                       for place, (op, av) in enumerate(items))

    def item(self, op: Any, av: Any, fold: bool, dot_all: bool, at_end: bool = False) -> str:
        if at_end and op is _C.ASSERT and repr((op, av)) == _LINE_END:
            return ""  # (?=\n|\Z) at the end of a whole line: always true
        if op is _C.LITERAL:
            return _folded(av) if fold else _escape(av)
        if op is _C.NOT_LITERAL:
            return f"[^{self.set_items([(_C.LITERAL, av)], fold)}]"
        if op is _C.ANY:
            return "(?s:.)" if dot_all else "[^\\n]"
        if op is _C.IN:
            negate = bool(av) and av[0][0] is _C.NEGATE
            inner = self.set_items(av[1:] if negate else av, fold)
            return f"[{'^' if negate else ''}{inner}]"
        if op is _C.CATEGORY:
            return self.category(av)
        if op is _C.BRANCH:
            return "(?:" + "|".join(self.sequence(branch, fold, dot_all, at_end) for branch in av[1]) + ")"
        if op is _C.SUBPATTERN:
            group, add_flags, del_flags, sub = av
            inner_fold = (fold or bool(add_flags & re.IGNORECASE)) and not del_flags & re.IGNORECASE
            inner_dot = (dot_all or bool(add_flags & re.DOTALL)) and not del_flags & re.DOTALL
            body = self.sequence(sub, inner_fold, inner_dot, at_end)
            return f"(?P<g{group}>{body})" if group is not None else f"(?:{body})"
        if op in (_C.MAX_REPEAT, _C.MIN_REPEAT):
            low, high, sub = av
            bound = f"{{{low},}}" if high is _C.MAXREPEAT else f"{{{low},{high}}}"
            return f"(?:{self.sequence(sub, fold, dot_all)}){bound}{'?' if op is _C.MIN_REPEAT else ''}"
        if op is _C.AT:
            return self.at(av)
        if op in (_C.ASSERT, _C.ASSERT_NOT):
            self.exact = False  # the native pattern accepts more; Python's re decides (see the module's doc)
            return ""
        raise NotNative(f"the native engine has no {op}")

    def category(self, category: Any) -> str:
        if category in _CATEGORY_SET:
            return f"[{_CATEGORY_SET[category]}]"
        if category in _NEGATED:
            return f"[^{_CATEGORY_SET[_NEGATED[category]]}]"
        raise NotNative(f"the native engine has no category {category}")

    def set_items(self, items: Any, fold: bool) -> str:
        out: list[str] = []
        for op, av in items:
            if op is _C.LITERAL:
                out.append(_escape(av))
                if fold and chr(av).isascii() and chr(av).isalpha():
                    out.append(_escape(ord(chr(av).swapcase())))
            elif op is _C.RANGE:
                low, high = av
                out.append(f"{_escape(low)}-{_escape(high)}")
                if fold:
                    out += self.swapped_range(low, high)
            elif op is _C.CATEGORY:
                out.append(self.category(av))  # a nested class: Rust reads [a[^0-9]]
            else:
                raise NotNative(f"the native engine has no {op} in a class")
        return "".join(out)

    @staticmethod
    def swapped_range(low: int, high: int) -> list[str]:
        """The other case of the ASCII letters in low..high (IGNORECASE in a class)."""
        out = []
        for first, last in ((ord("a"), ord("z")), (ord("A"), ord("Z"))):
            start, stop = max(low, first), min(high, last)
            if start <= stop:
                out.append(f"{chr(start).swapcase()}-{chr(stop).swapcase()}")
        return out

    def at(self, where: Any) -> str:
        if where in (_C.AT_BEGINNING, _C.AT_BEGINNING_STRING):
            return "^"
        if where in (_C.AT_END, _C.AT_END_STRING):  # a whole line holds no newline: both are its end
            return "$"
        if where is _C.AT_BOUNDARY:
            return "(?-u:\\b)"
        if where is _C.AT_NON_BOUNDARY:
            return "(?-u:\\B)"
        raise NotNative(f"the native engine has no anchor {where}")
