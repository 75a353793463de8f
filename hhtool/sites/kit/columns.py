"""Lines as columns: a chunk's lines are matched against every terminal of a line grammar at once, in
native code, before any hand is parsed (issue #37's parse step).

:class:`ColumnLexer` puts the chunk's distinct lines in one Polars column and runs each terminal's regex
over the whole column (``str.contains``, then ``str.extract_groups`` on the lines it matched), in the
native spelling :mod:`hhtool.sites.kit.rust_regex` writes: per line a bit mask of the terminals that match
it (bit *i* = the *i*-th terminal in Lark's priority order) and each matching terminal's groups. That is a
:class:`Lexicon`. The parser's LALR driver (:class:`~hhtool.sites.kit.lines.LineParser`) then reads a line
it has not read before at a given parser state from the lexicon instead of running Python's ``re``: the
terminal is the lowest set bit of (the line's mask & the state's accepted mask), i.e. the highest-priority
terminal among those the state accepts — exactly how Lark's contextual lexer, and the Python driver,
choose between two terminals that match the same line. Everything else is unchanged: the LALR table
decides the order, the same errors name the same lines, player names are resolved against the seated ones
as before (the few lines that need it are read again by Python's ``re`` with a seated name in place).

A terminal the native engine cannot decide alone (a lookaround other than the end of line: Full Tilt's
and Winning's ``CHAT``) is prefiltered natively without it and decided by Python's ``re`` on the lines the
prefilter passes; one it cannot express at all is matched by Python's ``re`` on every line. Never weaker:
``tests/test_columns.py`` keeps the two drivers' readings, tokens and errors equal.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from hhtool.sites.kit.rust_regex import NativePattern, NotNative, native_pattern

#: a grammar with more terminals than one signed 64-bit mask holds keeps the Python matcher
MAX_TERMINALS = 63


@dataclass
class Lexicon:
    """Each distinct line of a chunk: the bit mask of the terminals matching it whole (``masks``), and per
    terminal (by its bit) the groups its regex captured on each line it matched (``groups``)."""

    masks: dict[str, int]
    groups: list[dict[str, tuple[str | None, ...]]] = field(default_factory=list)


@dataclass(frozen=True)
class _Terminal:
    name: str
    regex: re.Pattern[str]  # Python's, as the driver matches it: it decides where native is not exact
    native: NativePattern | None  # None: the native engine cannot express it


class ColumnLexer:
    """The native matcher of one grammar's terminals, given in priority order as ``(name, regex)``."""

    def __init__(self, terminals: Iterable[tuple[str, re.Pattern[str]]]) -> None:
        self.terminals: list[_Terminal] = []
        for name, regex in terminals:
            try:
                native: NativePattern | None = native_pattern(regex.pattern, regex.flags)
            except NotNative:
                native = None
            self.terminals.append(_Terminal(name, regex, native))
        if len(self.terminals) > MAX_TERMINALS:
            raise ValueError(f"{len(self.terminals)} terminals: more than one mask of {MAX_TERMINALS} bits holds")
        self.names = tuple(term.name for term in self.terminals)

    def python_decides(self) -> list[str]:
        """The terminals Python's ``re`` decides (on a native prefilter's lines, or on all)."""
        return [term.name for term in self.terminals if term.native is None or not term.native.exact]

    def lex(self, lines: Iterable[str]) -> Lexicon:
        """The lexicon of ``lines`` (their distinct texts; an empty line has none)."""
        column = pl.Series("line", list(lines), dtype=pl.String).unique()
        frame = pl.DataFrame({"line": column}).filter(pl.col("line") != "")
        line = pl.col("line")
        bits = [pl.when(line.str.contains(term.native.pattern)).then(pl.lit(1 << index, pl.Int64)).otherwise(pl.lit(0, pl.Int64))
                for index, term in enumerate(self.terminals) if term.native is not None]
        frame = frame.with_columns(pl.sum_horizontal(bits).alias("mask") if bits else pl.lit(0, pl.Int64).alias("mask"))
        texts: list[str] = frame["line"].to_list()
        masks = dict(zip(texts, frame["mask"].to_list(), strict=True))
        groups: list[dict[str, tuple[str | None, ...]]] = []
        for index, term in enumerate(self.terminals):
            bit = 1 << index
            if term.native is None or not term.native.exact:
                groups.append(self._python_decides(term, bit, texts if term.native is None
                                                   else frame.filter((pl.col("mask") & bit) != 0)["line"].to_list(), masks))
                continue
            matched = frame.filter((pl.col("mask") & bit) != 0)["line"]
            groups.append(_native_groups(matched, term.native))
        return Lexicon(masks, groups)

    @staticmethod
    def _python_decides(term: _Terminal, bit: int, candidates: list[str],
                        masks: dict[str, int]) -> dict[str, tuple[str | None, ...]]:
        """Python's ``re`` on ``candidates``: the bit kept where it matches, with its groups; cleared elsewhere."""
        found: dict[str, tuple[str | None, ...]] = {}
        for text in candidates:
            match = term.regex.fullmatch(text)
            if match is None:
                masks[text] &= ~bit
            else:
                masks[text] |= bit
                found[text] = match.groups()
        return found


def _native_groups(matched: pl.Series, native: NativePattern) -> dict[str, tuple[str | None, ...]]:
    """Each matched line's capture groups, in Python's order (``g1``…), extracted natively."""
    texts: list[str] = matched.to_list()
    if native.groups == 0:
        return dict.fromkeys(texts, ())
    fields = matched.str.extract_groups(native.pattern).struct.unnest()
    columns: list[Any] = [fields[f"g{number}"].to_list() for number in range(1, native.groups + 1)]
    return dict(zip(texts, zip(*columns, strict=True), strict=True))
