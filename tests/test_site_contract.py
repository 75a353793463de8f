"""The contract between each grammar (grammars/*.lark) and its site module, and the one split every
site has.

* Every terminal a grammar hands on is read by the site's table, by a common line or is declared
  order-only; every reader names a terminal its grammar has; the named capture groups a reader
  declares are ones the terminal's regex names; the ``SEAT`` line names its ``player``
  (:func:`hhtool.sites.kit.line_site.contract_problems`).
* A reader's declaration is itself checked against its code: the names it reads (``token["player"]``,
  ``token.get("all_in")``, ``token.has("seats")``) must be declared, and it reads no group by place
  (``token.groups[3]``, ``a, b, c = token.groups``). (Helpers a reader hands the token to are not followed.)
* Each check is shown to fail on a deliberately broken table.
* ``split(lines, file, offset)`` numbers lines alike for every site, and a site that declares it
  splits at hand starts splits a file cut into blocks at :meth:`hand_starts` as it splits it whole.
"""

from __future__ import annotations

import ast
import copy
import inspect
import re
import textwrap
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from hhtool.ingest.reader import read_file
from hhtool.sites import all_parsers, detect
from hhtool.sites.ipoker import IPokerParser
from hhtool.sites.kit.base import SiteParser, Splitting
from hhtool.sites.kit.common_lines import COMMON_LINES
from hhtool.sites.kit.line_rules import LineRule, LineTable, named
from hhtool.sites.kit.line_site import LineSiteParser, contract_problems
from hhtool.sites.kit.lines import LineToken, grammar_names
from hhtool.sites.pokerstars import PokerStarsParser
from tests.site_helpers import SAMPLES

LINE_FORMATS: list[LineSiteParser[Any]] = [
    fmt for parser in all_parsers() for fmt in parser.line_formats() if isinstance(fmt, LineSiteParser)
]


def _format_id(fmt: LineSiteParser[Any]) -> str:
    return f"{fmt.name}:{fmt.grammar_name}"


def test_every_grammar_file_is_read_by_a_site() -> None:
    assert sorted(fmt.grammar_name for fmt in LINE_FORMATS) == sorted(grammar_names())


def test_line_sites_are_the_nine_with_a_grammar() -> None:
    line_sites = {parser.name for parser in all_parsers() if parser.line_formats()}
    assert line_sites == {"pokerstars", "fulltilt", "partypoker", "bovada", "winamax", "ongame", "absolute",
                          "kingsclub", "winning"}
    assert {parser.name for parser in all_parsers()} - line_sites == {"ipoker", "merge", "phh"}


@pytest.mark.parametrize("fmt", LINE_FORMATS, ids=_format_id)
def test_grammar_and_table_agree(fmt: LineSiteParser[Any]) -> None:
    assert contract_problems(fmt) == []


# ---------------------------------------------------------------- the check fails on broken tables


def _broken(build: Callable[[LineTable[Any]], object], **declared: Any) -> LineSiteParser[Any]:
    """A PokerStars parser whose table is PokerStars' own, changed by ``build``."""
    table: LineTable[Any] = LineTable()
    table.rules = dict(PokerStarsParser.lines.rules)
    build(table)
    broken = type("Broken", (PokerStarsParser,), {"lines": table, **declared})
    return broken()  # type: ignore[no-any-return]


def _reads_nothing(b: object, facts: object, token: LineToken) -> None:
    """A reader for the broken tables."""


def test_a_reader_of_a_terminal_the_grammar_lacks_is_reported() -> None:
    broken = _broken(lambda table: table.on("NO_SUCH_LINE")(_reads_nothing))
    assert contract_problems(broken) == ["NO_SUCH_LINE: the site reads it, but grammar pokerstars has no such terminal"]


def test_a_reader_of_an_ignored_terminal_is_reported() -> None:
    broken = _broken(lambda table: table.on("NOISE")(_reads_nothing))
    assert contract_problems(broken) == [
        "NOISE: the site reads it, but grammar pokerstars has no such terminal (it is %ignore'd)"]


def test_a_terminal_nobody_reads_is_reported() -> None:
    broken = _broken(lambda table: table.rules.pop("CAPPED"))
    assert contract_problems(broken) == ["CAPPED: no reader (neither the site's, a common line nor order-only)"]


def test_a_reader_wanting_other_capture_groups_is_reported() -> None:
    def build(table: LineTable[Any]) -> None:
        table.rules["TABLE"] = named(_reads_nothing, ("table", "button"))  # PokerStars' TABLE names no button
    assert contract_problems(_broken(build)) == [
        "TABLE: its reader reads the groups button, table; grammar pokerstars's regex does not name button"]


def test_a_common_line_the_grammar_writes_differently_is_reported() -> None:
    # PokerStars' SEAT is the common one; make the common reader want a group the grammar does not name
    def build(table: LineTable[Any]) -> None:
        table.rules["SEAT"] = named(COMMON_LINES["SEAT"].read, ("seat", "player", "stack", "bounty"))
    assert contract_problems(_broken(build)) == [
        "SEAT: its reader reads the groups bounty, player, seat, stack; grammar pokerstars's regex does not name bounty"]


def test_a_reader_wanting_one_of_two_names_the_grammar_lacks_is_reported() -> None:
    def build(table: LineTable[Any]) -> None:
        table.rules["BETS"] = COMMON_LINES["RAISES"]  # BETS names the amount, neither a "to" nor an "added"
    assert contract_problems(_broken(build)) == [
        "BETS: its reader reads the groups player, [added], [all_in], [to]; grammar pokerstars's regex "
        "does not name added or to"]


def test_a_seat_line_naming_no_player_is_reported() -> None:
    grammar = copy.copy(PokerStarsParser().grammar())
    grammar.names = {**grammar.names, "SEAT": {"seat": 0, "stack": 2}}
    broken = _broken(lambda table: table.rules.__setitem__("SEAT", LineRule(_reads_nothing)),
                     grammar=lambda self: grammar)
    assert contract_problems(broken) == [
        "SEAT: the regex names no player group (the seated player's name, which later lines are read against)"]


# ---------------------------------------------------------------- readers read what they declare


def _group_reads(read: Callable[..., None]) -> tuple[set[str], bool]:
    """(the group names a reader reads, whether it reads any group by place), from its source:
    ``token["name"]``, ``token.get("name")``, ``token.has("name")``; ``token.groups``."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(read)))
    function = next(node for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                    and node.name == read.__name__)
    names: set[str] = set()
    by_place = False
    for node in ast.walk(function):
        if (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)
                and isinstance(node.value, ast.Name) and node.value.id == "token"):
            names.add(node.slice.value)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("get", "has")
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "token"
                and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            names.add(node.args[0].value)
        elif isinstance(node, ast.Attribute) and node.attr == "groups":
            by_place = True
    return names, by_place


def reader_problems(terminal: str, rule: LineRule) -> list[str]:
    """Where a reader's code reads groups its declaration does not grant."""
    if rule.read is None:
        return []
    names, by_place = _group_reads(rule.read)
    problems = [f"{terminal}: {rule.read.__name__} reads the group {name!r} but declares {rule.wants}"
                for name in sorted(names - rule.declared)]
    if by_place:
        problems.append(f"{terminal}: {rule.read.__name__} reads groups by place (token.groups), not by name")
    return problems


@pytest.mark.parametrize("fmt", LINE_FORMATS, ids=_format_id)
def test_readers_read_only_declared_groups(fmt: LineSiteParser[Any]) -> None:
    assert [problem for terminal, rule in fmt.rules().items() for problem in reader_problems(terminal, rule)] == []


def test_a_reader_reading_an_undeclared_name_or_by_place_is_reported() -> None:
    def reads_more(b: object, facts: object, token: LineToken) -> None:
        print(token["table"], token.get("seats"), token.get("button"))

    def reads_by_place(b: object, facts: object, token: LineToken) -> None:
        fields, line = token.groups, token.number
        print(fields[2], line)

    assert reader_problems("TABLE", named(reads_more, ("table",), ("seats",))) == [
        "TABLE: reads_more reads the group 'button' but declares table, [seats]"]
    assert reader_problems("TABLE", named(reads_more, ("table",), ("seats", "button"))) == []
    assert reader_problems("TABLE", named(reads_by_place, ("table",))) == [
        "TABLE: reads_by_place reads groups by place (token.groups), not by name"]


# ---------------------------------------------------------------- one split


def _sample_lines() -> list[tuple[SiteParser, Path, list[str]]]:
    found = []
    for path in sorted(SAMPLES.rglob("*")):
        if path.is_file():
            lines = list(read_file(path).lines)
            parser = detect(lines)
            assert parser is not None, path
            found.append((parser, path, lines))
    return found


SAMPLE_LINES = _sample_lines()


def test_every_site_has_a_sample_file() -> None:
    assert {parser.name for parser, _, _ in SAMPLE_LINES} == {parser.name for parser in all_parsers()}


@pytest.mark.parametrize(("parser", "path", "lines"), SAMPLE_LINES, ids=[str(p.relative_to(SAMPLES)) for _, p, _ in SAMPLE_LINES])
def test_split_numbers_lines_from_the_offset(parser: SiteParser, path: Path, lines: list[str]) -> None:
    """Every site's split takes (lines, file, offset): a file's lines given after 7 lines of others
    split into the same hands, 7 lines further on."""
    whole = list(parser.split(lines, str(path)))
    shifted = list(parser.split(lines, str(path), 7))
    assert whole
    assert [(raw.first_line + 7, raw.lines, raw.header) for raw in whole] == [
        (raw.first_line, raw.lines, raw.header) for raw in shifted]


def splits_alike_in_blocks(parser: SiteParser, lines: list[str], file: str) -> bool:
    """Whether the file cut into one block per hand start (each split with its offset) gives the
    hands the whole file gives."""
    starts = [0, *parser.hand_starts(lines)[1:], len(lines)]
    in_blocks = [raw for start, stop in pairwise(starts)
                 for raw in parser.split(lines[start:stop], file, start)]
    return in_blocks == list(parser.split(lines, file))


@pytest.mark.parametrize("parser", [p for p in all_parsers() if p.splitting is Splitting.AT_HAND_STARTS],
                         ids=lambda parser: parser.name)
def test_declared_splitting_holds(parser: SiteParser) -> None:
    samples = [(path, lines) for site, path, lines in SAMPLE_LINES
               if site is parser and len(parser.hand_starts(lines)) > 1]
    assert samples, "a sample with several hands is needed to test it"
    for path, lines in samples:
        assert splits_alike_in_blocks(parser, lines, str(path)), path


def test_streaming_follows_the_declaration() -> None:
    assert {parser.name: parser.can_stream for parser in all_parsers()} == dict.fromkeys(
        (parser.name for parser in all_parsers()), True)  # no site needs a whole file today
    assert not type("WholeFile", (PokerStarsParser,), {"splitting": Splitting.WHOLE_FILE})().can_stream


def test_a_wrongly_declared_splitting_is_caught() -> None:
    """iPoker's session header comes once, before the games: a file cut at each game loses it, so a
    parser declaring iPoker splits at hand starts fails the check the declared ones pass."""

    class WronglyDeclared(IPokerParser):
        splitting = Splitting.AT_HAND_STARTS
        hand_start = re.compile(r".*<game\b")

    path = next(p for parser, p, _ in SAMPLE_LINES if parser.name == "ipoker")
    lines = list(read_file(path).lines)
    wrong = WronglyDeclared()
    assert len(wrong.hand_starts(lines)) > 1
    assert not splits_alike_in_blocks(wrong, lines, str(path))
