"""The driver's pre-tests (hhtool.sites.kit.lines): before a terminal's regex runs on a line, a literal
every match contains is looked for (``in``, or one of several, or in the lowered line for a
case-insensitive part). A pre-test that refused a line its regex matches would change what a line is
read as, so every terminal of every grammar is held to its regex on every line the column tests read
(samples, corpus, simulated hands of every text site, hostile lines); and the pre-tests must refuse
lines, else they test nothing.
"""

from __future__ import annotations

import pytest

from hhtool.sites.kit.lines import LineGrammar, grammar_names, required_literals, required_literals_folded
from tests.test_columns import _all_lines


@pytest.mark.parametrize("grammar_name", grammar_names())
def test_no_pre_test_refuses_a_line_its_regex_matches(grammar_name: str) -> None:
    grammar = LineGrammar(grammar_name)
    refused = matched = 0
    for name, regex, literal, screen in grammar._parser._terminals:
        for line in _all_lines():
            passes = (literal is None or literal in line) and (screen is None or screen(line) is not None)
            if regex.fullmatch(line) is not None:
                matched += 1
                assert passes, (grammar_name, name, line)
            elif not passes:
                refused += 1
    assert matched > 100 and refused > 1000, (grammar_name, matched, refused)


def test_the_markers_case_insensitive_literal_is_looked_for_in_the_lowered_line() -> None:
    grammar = LineGrammar("pokerstars")
    marker = next(term for term in grammar._parser._terminals if term[0] == "THIRD_MARKER")
    _, regex, literal, screen = marker
    assert literal is None and screen is not None
    for line in ("*** 3rd STREET ***", "*** 3RD street ***"):
        assert regex.fullmatch(line) is not None and screen(line) is not None
    assert screen("*** 4th STREET ***") is None


@pytest.mark.parametrize(("pattern", "expected"), [
    # a literal run outside any group, the longest
    (r"(?P<player>.+?): calls (?P<amount>\S+)", ((": calls ",), False)),
    # a branch all of whose alternatives hold a literal beats a one-character run
    (r"(.+?) (finished the tournament|wins the tournament)\b", (("finished the tournament", "wins the tournament"), False)),
    # a branch one of whose alternatives holds none gives nothing: the run stays
    (r"(.+?) (finished|\d+)", ((" ",), False)),
    # an optional group is no requirement
    (r"(?P<player>.+?)(?: and is all-in)?", ((), False)),
    # a case-insensitive group: the literal lowered, looked for in the lowered line
    (r"(?i:\*\*\* SUMMARY \*\*\*)", (("*** summary ***",), True)),
    # a case-sensitive part inside a case-insensitive pattern is looked for as written
    (r"(?i)x(?-i:Total pot) ", (("Total pot",), False)),
    # the whole pattern case-insensitive
    (r"(?i)Dealt to (.+)", (("dealt to ",), True)),
    # a non-ASCII literal in a case-insensitive part is not folded by the line's ASCII flag: no requirement
    (r"(?i:Gewinn\u00e9)", ((), False)),
])
def test_required_literals(pattern: str, expected: tuple[tuple[str, ...], bool]) -> None:
    assert required_literals_folded(pattern) == expected
    assert required_literals(pattern) == (() if expected[1] else expected[0])
