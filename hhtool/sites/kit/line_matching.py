"""Which terminal reads a line: each terminal's regex, after an exact pre-test (:class:`LineMatcher`).

A line is matched against the terminals its parser state accepts, in Lark's priority order; before a
terminal's regex runs, a literal every match of it contains is looked for (``in``, C's substring search),
so that most terminals cost one substring test. :func:`required_literals_folded` finds that literal with
the stdlib's own regex parser: the most selective of a literal run, one inside a group every match passes
through, or the literals of a branch all of whose alternatives hold one; in a case-insensitive part, in
the lowered line. Imports nothing of ours.
"""

from __future__ import annotations

import re
import re._parser as sre_parse  # type: ignore[import-not-found]  # the stdlib's own regex parser, to find each pattern's required literal
from typing import Any, Final

#: (terminal name, its regex, the one literal every match contains or None, a screen or None: a test that
#: returns None for a line the regex cannot match, where the pre-test is not one plain literal)
Candidate = tuple[str, re.Pattern[str], str | None, Any]


#: a line's terminal and the groups its regex captured
Reading = tuple[str, tuple[str | None, ...]]


#: regex flags for every line terminal: ASCII, so that ``\d`` is 0-9 only (``int`` would read other
#: scripts' digits as numbers the history never wrote). The case-folded pre-tests rely on it too (below)
LINE_FLAGS = re.ASCII


def candidate(name: str, pattern: str) -> Candidate:
    """A terminal with its cheapest exact pre-test: ``in`` for one literal, else a screen (several
    literals, or a literal of a case-insensitive part tested on the lowered line)."""
    literals, folded = required_literals_folded(pattern)
    if len(literals) == 1 and not folded:
        return name, re.compile(pattern, LINE_FLAGS), literals[0], None
    return name, re.compile(pattern, LINE_FLAGS), None, _screen(literals, folded) if literals else None


def _screen(literals: tuple[str, ...], folded: bool) -> Any:
    """A pre-test for any of ``literals`` (on the lowered line where ``folded``), None when the line holds none.

    Plain ``in`` tests one after the other rather than one compiled search of an alternation of the
    literals (what this replaced): CPython's ``re`` has no multi-literal scan, so the alternation is tried
    at every place of the line: 2.9-6.7 µs per line for the 16 literals of PokerStars' NOISE against
    about 1 µs for the 16 ``in`` tests (issue #37)."""
    if folded:
        lowered = literals[0]

        def folded_screen(line: str) -> bool | None:
            return True if lowered in line.lower() else None
        if len(literals) == 1:
            return folded_screen

        def folded_any(line: str) -> bool | None:
            text = line.lower()
            for literal in literals:
                if literal in text:
                    return True
            return None
        return folded_any

    def any_of(line: str) -> bool | None:
        for literal in literals:
            if literal in line:
                return True
        return None
    return any_of




#: a requirement on a line: literals one of which every match contains, and whether they are to be found
#: in the lowered line (a case-insensitive part of the pattern); ((), False) for none
Requirement = tuple[tuple[str, ...], bool]
_NO_REQUIREMENT: Final[Requirement] = ((), False)


def _better(first: Requirement, second: Requirement) -> Requirement:
    """The more selective of two requirements: the longer shortest literal, then fewer literals, then a
    case-sensitive one."""
    if not first[0]:
        return second
    if not second[0]:
        return first
    def rank(requirement: Requirement) -> tuple[int, int, bool]:
        literals, folded = requirement
        return min(map(len, literals)), -len(literals), not folded
    return first if rank(first) >= rank(second) else second


def _requirement(items: Any, ignore_case: bool) -> Requirement:
    """The best requirement of a sequence of the stdlib parser's items, each of which every match passes
    through once: a run of literals, a group (with its own case flags), or a branch all of whose
    alternatives have one (their literals together)."""
    best, run = _NO_REQUIREMENT, ""
    for op, value in [*items, (None, None)]:  # (a sentinel ends the last run)
        if op is sre_parse.LITERAL:
            run += chr(value)
            continue
        if run and (not ignore_case or run.isascii()):  # ASCII folding only: LINE_FLAGS
            best = _better(best, ((run.lower() if ignore_case else run,), ignore_case))
        run = ""
        if op is sre_parse.SUBPATTERN:
            _, add_flags, del_flags, body = value
            inner = (ignore_case or bool(add_flags & re.IGNORECASE)) and not del_flags & re.IGNORECASE
            best = _better(best, _requirement(body, inner))
        elif op is sre_parse.BRANCH:
            branches = [_requirement(branch, ignore_case) for branch in value[1]]
            if all(literals for literals, _ in branches) and len({folded for _, folded in branches}) == 1:
                merged = tuple(dict.fromkeys(literal for literals, _ in branches for literal in literals))
                best = _better(best, (merged, branches[0][1]))
    return best


def required_literals_folded(pattern: str) -> Requirement:
    """Texts of which every match of ``pattern`` contains at least one, for a cheap ``in`` test before
    the regex runs, and whether to look for them in the lowered line (they are then lower-case: the
    pattern's part is case-insensitive, ASCII-folded as :data:`LINE_FLAGS` folds). The most selective
    of: a literal run outside any repetition, one inside a group every match passes through, the
    literals of a branch whose every alternative has one. ((), False) if none.

    >>> required_literals_folded(r"(.+?) (finished the tournament|wins the tournament)\b")
    (('finished the tournament', 'wins the tournament'), False)
    >>> required_literals_folded(r"(?i:\\*\\*\\* SUMMARY \\*\\*\\*)")
    (('*** summary ***',), True)
    """
    try:
        parsed = sre_parse.parse(pattern)
    except re.error:
        return _NO_REQUIREMENT
    return _requirement(parsed, bool(parsed.state.flags & re.IGNORECASE))


def required_literals(pattern: str) -> tuple[str, ...]:
    """The literals of :func:`required_literals_folded` where they are to be found as written (() where
    the best requirement is case-insensitive, or there is none).

    >>> required_literals(r"(.+?): calls ([^ ]+)( and is all-in)?")
    (': calls ',)
    >>> required_literals(r"(?:.+? leaves the table|.+? is connected)(?=\\n|\\Z)")
    (' leaves the table', ' is connected')
    """
    literals, folded = required_literals_folded(pattern)
    return () if folded else literals


class LineMatcher:
    """Which of several terminals (in priority order) matches a whole line first, and its groups: each
    terminal's regex in turn, after a test for a literal every match of it contains (``in`` for one,
    one search for a list of alternatives' literals), so that most terminals cost one substring test.

    (One compiled alternation of the terminals' regexes — ``(?P<T1>…)|(?P<T2>…)``, the matched
    group's name the terminal — was measured in its place and is slower under CPython's ``re``: it has
    no literal pre-test inside an alternation, so each ``(.+?): calls …`` alternative scans the line;
    see benchmarks/RESULTS.md, "Issue #27, parse".)"""

    __slots__ = ("candidates", "names")

    def __init__(self, candidates: list[Candidate]) -> None:
        self.candidates = candidates
        self.names = [term[0] for term in candidates]

    def match(self, line: str) -> Reading | None:
        """The line's terminal and its groups, or None when none matches."""
        for name, regex, literal, screen in self.candidates:
            # written out rather than any(): this loop runs for every line not met before
            if literal is not None:
                if literal not in line:
                    continue
            elif screen is not None and screen(line) is None:
                continue
            found = regex.fullmatch(line)
            if found is not None:
                return name, found.groups()
        return None
