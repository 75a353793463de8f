"""Lines as columns (hhtool.sites.kit.columns): the native reading of a chunk's lines accepts exactly what
Python's ``re`` accepts, terminal by terminal, and a hand parsed from it is the hand parsed without it.

Three levels, each able to fail on its own: every terminal of every grammar on every line (the samples,
the corpus, simulated hands of every text site with a fifth faulty, and hostile lines the two regex
engines read differently unless the translation spells ASCII out); the tokens or the error of every hand
against Lark's own parser; the parsed hand models with the switch on and off, through the import's chunk
function. The lines two terminals match are counted and must occur (else the priority test tests nothing).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from lark import Token
from lark.exceptions import UnexpectedInput
from typer.testing import CliRunner

from hhtool.ingest.chunks import process_chunk
from hhtool.ingest.reader import decode_bytes, read_file
from hhtool.model import Hand, RawHand
from hhtool.simulate.writers import WRITERS
from hhtool.sites import all_parsers, detect, parser_for
from hhtool.sites.kit.columns import ColumnLexer
from hhtool.sites.kit.line_site import LineSiteParser
from hhtool.sites.kit.lines import LineGrammar, grammar_names, lark_error_ends_early, load_grammar
from hhtool.sites.kit.rust_regex import native_pattern
from tests.inputs import CORPUS, SAMPLES, edited

GRAMMARS = grammar_names()
TEXT_SITES = sorted(parser.name for parser in all_parsers() if parser.line_formats())
#: the text sites the simulator writes
SIMULATED_SITES = sorted(set(TEXT_SITES) & set(WRITERS))

#: lines the two engines read differently unless the native pattern spells ASCII out: Unicode digits
#: and spaces, the Kelvin sign and the long s (which Unicode case folding takes for k and s), a word
#: character after a \b, control characters, names holding a line's own words
HOSTILE = [
    "Seat 1: Hero (\u0661\u0662 in chips)", "Seat 1: Hero (12\u00a0in chips)", "Seat 1: Hero (12 in chips)",
    "*** 3rd \u017fTREET ***", "*** SHOW DOWN ***".replace("S", "\u017f"), "*** show down ***", "*** 3RD STREET ***",
    "*** RIVER *** [5H]", "*** RIVER *** [5\u212a]", "Seat 2: A\u00e9 (button) folded\u00e9 on 3rd",
    "Seat 2: x showed\u00e9 [Ah]", "Seat 2: x showed [Ah]", "Hero: calls 5 and is all-in", "Hero: calls\u00a05",
    "A: calls 5: calls 6", "Seat 1: Board: 5 (5 in chips)", "Board: 5", "Full Tilt Poker: hi", "FullTiltPoker: hi",
    "Seat 3: x: y", "chatter: hello", "a\x00b: calls 1", "x\ty: bets 2", "Dealt to \u2028Hero [Ah Kd 2c]",
    "Uncalled bet (\u0665) returned to Hero", "Hero collected 5 from side pot-\u0662", "Hero collected 5 from side pot-2",
    "Total pot 10 | Rake 0", "#Game No : 1", "Trny: 5", "Game #1 starts.", "\u00a0", " ", "\ufeffPokerStars Hand #1: x",
]


def _text_files() -> Iterator[str]:
    folders = [SAMPLES, *([CORPUS] if CORPUS.is_dir() else [])]
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if path.is_file() and path.suffix.lower() not in (".xml", ".phhs", ".phh", ".json", ".md", ".toml"):
                yield str(path)


@cache
def _file_hands() -> tuple[tuple[str, tuple[RawHand, ...]], ...]:
    """(site, hands) of every text history of the samples and the corpus (when present)."""
    found = []
    for path in _text_files():
        lines = read_file(Path(path)).lines
        parser = detect(lines)
        if parser is not None and parser.line_formats():
            found.append((parser.name, tuple(parser.split(lines, path))))
    return tuple(found)


@cache
def _simulated(site: str, hands: int = 150) -> tuple[RawHand, ...]:
    """Simulated hands of ``site`` (a fifth faulty), split as the import splits them."""
    from hhtool.simulate import generate_hands
    from hhtool.simulate.dealer import TableConfig
    from hhtool.simulate.policy import SimplePolicy
    from hhtool.simulate.writers import writer_for

    writer = writer_for(site)
    text = "".join(writer.write(hand) for hand in generate_hands(TableConfig(site=site, seed=37), SimplePolicy(), hands, 0.2))
    return tuple(parser_for(site).split(decode_bytes(text.encode("utf-8")).lines, f"sim-{site}.txt"))


@cache
def _all_lines() -> tuple[str, ...]:
    lines = {line for _, raws in _file_hands() for raw in raws for line in raw.lines}
    for site in SIMULATED_SITES:
        lines.update(line for raw in _simulated(site) for line in raw.lines)
    return tuple(sorted(lines | set(HOSTILE)))


@pytest.mark.parametrize("grammar_name", GRAMMARS)
def test_every_terminal_reads_every_line_as_python_re_does(grammar_name: str) -> None:
    """Each terminal's native match and groups equal ``re.fullmatch``'s on every line (any state's choice
    then is the same: it is the first of the state's terminals, in priority order, that matches)."""
    grammar = LineGrammar(grammar_name)
    terminals = [(name, regex) for name, regex, _, _ in grammar._parser._terminals]
    lexicon = ColumnLexer(terminals).lex(_all_lines())
    matched = 0
    for place, (name, regex) in enumerate(terminals):
        for line in _all_lines():
            if not line:
                continue
            found = regex.fullmatch(line)
            native = bool(lexicon.masks[line] >> place & 1)
            assert native == (found is not None), (name, line)
            if found is not None:
                matched += 1
                assert lexicon.groups[place][line] == found.groups(), (name, line)
    assert matched > 100, f"{grammar_name}: too few lines matched to judge"


def test_hostile_lines_the_engines_read_differently() -> None:
    """The translation, not luck: on each of these lines the pattern passed to Rust as written would answer
    otherwise than Python's ``re`` (with the grammars' ASCII flag); the translated one answers as ``re``."""
    import re

    import polars as pl

    cases = [(r"Seat (\d+): x", "Seat \u0661: x"), (r"(?i:\*\*\* 3rd STREET \*\*\*)", "*** 3rd \u017fTREET ***"),
             (r"a\s+b", "a\u00a0b"), (r"(\w+)!", "\u00e9!"), (r"x (?:showed)\b.*", "x showed\u00e9"),
             (r"(?i:\*\*\* RIVER \*\*\* \[[2-9][cdhs]\])", "*** RIVER *** [5\u017f]")]
    for pattern, line in cases:
        native = native_pattern(pattern)
        python = re.fullmatch(pattern, line, re.ASCII) is not None
        assert native.exact
        assert pl.Series([line]).str.contains(native.pattern)[0] == python, (pattern, line)
        assert pl.Series([line]).str.contains(f"^(?:{pattern})$")[0] != python, f"{pattern!r}: the case shows no difference"


def test_lookarounds_are_decided_by_python_on_the_prefilter() -> None:
    """Full Tilt's and PartyPoker's chat lines have a negative lookahead the native engine lacks: their
    native pattern is a prefilter (not exact), and a line it passes but the lookahead refuses is no chat."""
    for name in ("fulltilt", "partypoker"):
        grammar = LineGrammar(name)
        lexer = ColumnLexer((term, regex) for term, regex, _, _ in grammar._parser._terminals)
        assert lexer.python_decides() == ["CHAT"], name
        place = lexer.names.index("CHAT")
        lexicon = lexer.lex(["Seat 3: x: y", "chatter: hello"])
        assert not lexicon.masks["Seat 3: x: y"] >> place & 1
        assert lexicon.masks["chatter: hello"] >> place & 1
    # the line-end lookahead every terminal ends with is dropped exactly; any other makes a prefilter
    assert native_pattern(r"a(?=\n|\Z)").exact and not native_pattern(r"(?!b)a").exact


def _error(error: UnexpectedInput) -> str:
    """Where a parse stops: the line, or the end (Lark and the driver number the end differently; the
    import reports both as the hand's last line, describe_lark_error)."""
    return "ends early" if lark_error_ends_early(error) else f"error at line {getattr(error, 'line', None)}"


def _lark_tokens(grammar: LineGrammar, text: str) -> list[tuple[str, int | None]] | str:
    try:
        tree = grammar.lark.parse(text)
    except UnexpectedInput as error:
        return _error(error)
    return [(token.type, token.line) for token in tree.scan_values(lambda value: isinstance(value, Token))]


def _columnar_tokens(grammar: LineGrammar, text: str) -> list[tuple[str, int | None]] | str:
    try:
        return [(token.type, token.line) for token in grammar.parse(text)]
    except UnexpectedInput as error:
        return _error(error)


@pytest.mark.parametrize("grammar_name", GRAMMARS)
def test_columnar_driver_agrees_with_lark(grammar_name: str) -> None:
    """Every hand (samples, corpus, simulated) through the driver reading from the lexicon only: the same
    terminals on the same lines as Lark's own LALR parser and contextual lexer, or an error at the same line
    (its kind and words are the Python driver's, compared in test_same_hands_with_the_switch_on_and_off).
    The lines two terminals match (resolved by the state's accepted terminals, then Lark's priority) occur."""
    texts = [raw.text for _, raws in _file_hands() for raw in raws]
    texts += [raw.text for site in SIMULATED_SITES for raw in _simulated(site)]
    columnar = LineGrammar(grammar_name)
    columnar.lex(line for text in texts for line in text.split("\n"))
    lexicon = columnar._parser.lexicon
    assert lexicon is not None
    reference = load_grammar(grammar_name)
    accepted = 0
    for text in texts:
        expected = _lark_tokens(reference, text)
        assert _columnar_tokens(columnar, text) == expected, text[:300]
        accepted += isinstance(expected, list)
    assert accepted > 0, f"no hand is in the {grammar_name} grammar's format"
    ambiguous = sum(1 for mask in lexicon.masks.values() if mask & (mask - 1))
    assert (ambiguous == 0) == (grammar_name in _NO_OVERLAP), f"{grammar_name}: {ambiguous} lines two terminals match"


#: grammars none of whose inputs has a line two of its terminals match (checked: the test fails if one has)
_NO_OVERLAP = frozenset({"absolute", "kingsclub", "winamax", "winning"})


def _outcomes(site: str, raws: tuple[RawHand, ...], columnar: bool) -> list[object]:
    """The chunk function's parse of ``raws`` with the site's switch set, on fresh grammars (nothing remembered)."""
    load_grammar.cache_clear()
    parser = parser_for(site)
    formats = [type(fmt) for fmt in parser.line_formats() if isinstance(fmt, LineSiteParser)]
    saved = {cls: vars(cls).get("columnar") for cls in formats}  # a site's own setting, or None: inherited
    try:
        for cls in formats:
            cls.columnar = columnar
        result = process_chunk(site, list(raws), replay=False)
        parsed = [parser.parse(raw) for raw in raws]
    finally:
        for cls, value in saved.items():
            if value is None:
                del cls.columnar
            else:
                cls.columnar = value
        load_grammar.cache_clear()
    rows = {name: table.to_pylist() for name, table in result.tables.items()}
    return [parsed, result.hand_ids, result.failures, result.skipped, rows]


@pytest.mark.parametrize("site", TEXT_SITES)
def test_same_hands_with_the_switch_on_and_off(site: str) -> None:
    """The hand models, failures (file line and reason) and stored rows of every hand of the site's
    samples, corpus files and simulated hands are the same read as columns and read line by line."""
    raws = tuple(raw for name, hands in _file_hands() if name == site for raw in hands)
    raws += _simulated(site) if site in SIMULATED_SITES else ()
    assert raws
    assert _outcomes(site, raws, True) == _outcomes(site, raws, False)


def test_import_command_reads_columns(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The import command on the samples with every text site's switch on, then off: the same totals, none
    failed, and the lines were read as columns only when the switch was on (one job imports in this process)."""
    from hhtool.cli import app

    totals = {}
    for columnar in (True, False):
        monkeypatch.setattr(LineSiteParser, "columnar", columnar)
        load_grammar.cache_clear()
        result = CliRunner().invoke(app, ["import", str(SAMPLES), "--db", str(tmp_path / f"{columnar}.duckdb"),
                                          "--jobs", "1", "--format", "json"])
        assert result.exit_code == 0, result.output
        totals[columnar] = json.loads(result.output)["totals"]
        lexicon = load_grammar("pokerstars")._parser.lexicon
        assert (lexicon is not None and len(lexicon.masks) > 50) == columnar, "the switch did not decide the path"
    load_grammar.cache_clear()
    assert totals[True] == totals[False]
    assert totals[True]["failed"] == 0 and totals[True]["stored"] > 100, totals


@pytest.mark.parametrize(("old", "new", "terminal"), [
    # NOISE (priority 2) and CALLS both match; where the state accepts a call, Lark's priority reads chat
    ("HiLoHarry: calls $0.02", 'HiLoHarry said, "gl: calls $0.02"\nHiLoHarry: calls $0.02', "NOISE"),
    # SEAT (priority 3) and NOISE both match a seat sitting out; the seat wins
    ("Seat 3: 123smoothie ($0.90 in chips)", "Seat 3: 123smoothie ($0.90 in chips) is sitting out", "SEAT"),
])
def test_a_line_two_terminals_match_is_read_as_lark_reads_it(old: str, new: str, terminal: str) -> None:
    """The resolution, case by case: the terminals the parser state accepts, then Lark's priority order."""
    text = edited(_simulated("pokerstars")[0].text, old, new, 1)
    line = text.split("\n").index(new.split("\n")[0]) + 1
    grammar = LineGrammar("pokerstars")
    grammar.lex(text.split("\n"))
    lexicon = grammar._parser.lexicon
    assert lexicon is not None
    mask = lexicon.masks[new.split("\n")[0]]
    assert mask & (mask - 1), "the line is matched by one terminal only: the case tests nothing"
    expected = _lark_tokens(load_grammar("pokerstars"), text)
    assert isinstance(expected, list)
    assert (terminal, line) in expected or (terminal == "NOISE" and all(at != line for _, at in expected))
    assert _columnar_tokens(grammar, text) == expected


def test_a_full_lexicon_forgets_old_lines_not_the_chunks() -> None:
    """When the lexicon would outgrow its bound it starts afresh with the whole chunk's lines, so every line
    of the hands about to be parsed is still read natively."""
    grammar = LineGrammar("pokerstars")
    hands = _simulated("pokerstars")
    first, second = [line for raw in hands[:20] for line in raw.lines], [line for raw in hands[20:40] for line in raw.lines]
    grammar._parser.MAX_READINGS = len(set(first)) + 5
    grammar.lex(first)
    grammar.lex(second)
    lexicon = grammar._parser.lexicon
    assert lexicon is not None
    assert set(second) - {""} <= set(lexicon.masks), "a line of the chunk was forgotten"
    assert not set(first) - set(second) & set(lexicon.masks), "the old lines were kept past the bound"


@pytest.mark.parametrize("name", ["Hi: calls $0.02", "Seat 1: \u212aelvin", "x said, \"y", "\u0661\u0662 (9 in chips)",
                                  "Dealt to Hero [Ah]", "wheel4life"])
def test_a_hostile_player_name_reads_the_same(name: str) -> None:
    """A player renamed to hold a line's own words, another player's name or non-ASCII digits and letters:
    the hand (or its failure) is the same read as columns and line by line (the lines whose plain reading
    splits the name are read again with the seated name in place, by Python's re, on both paths)."""
    raws = tuple(RawHand(raw.file, raw.first_line, tuple(line.replace("HiLoHarry", name) for line in raw.lines))
                 for raw in _simulated("pokerstars")[:40] if "HiLoHarry" in raw.text)
    assert raws
    on, off = _outcomes("pokerstars", raws, True), _outcomes("pokerstars", raws, False)
    assert on == off
    parsed = on[0]
    assert isinstance(parsed, list) and any(isinstance(outcome, Hand) for outcome in parsed), "no hand parsed"
