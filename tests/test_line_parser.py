"""The fast LALR driver (hhtool.sites.kit.lines.LineParser) accepts exactly the hands Lark's own
LALR parser accepts, with the same terminals on the same lines, for every grammar in grammars/.

Every text hand of sample_histories/ is run through every grammar, so each grammar sees its own
site's hands (accepted) and the others' (rejected)."""

from __future__ import annotations

import pytest
from lark import Token
from lark.exceptions import UnexpectedInput

from hhtool.ingest.reader import read_file
from hhtool.sites import detect
from hhtool.sites.kit.base import load_grammar
from tests.inputs import REPO, SAMPLES

GRAMMARS = sorted(path.stem for path in (REPO / "grammars").glob("*.lark"))


def sample_hand_texts() -> list[str]:
    texts = []
    for path in sorted(SAMPLES.rglob("*")):
        if not path.is_file() or path.suffix in (".xml", ".phhs", ".json"):
            continue
        decoded = read_file(path)
        parser = detect(decoded.lines)
        assert parser is not None, path
        texts += [raw.text for raw in parser.split(decoded.lines, str(path))]
    return texts


TEXTS = sample_hand_texts()


def lark_tokens(grammar_name: str, text: str) -> list[tuple[str, int]] | None:
    grammar = load_grammar(grammar_name)
    try:
        tree = grammar.lark.parse(text)
    except UnexpectedInput:
        return None
    return [(token.type, token.line) for token in tree.scan_values(lambda value: isinstance(value, Token))]


def line_parser_tokens(grammar_name: str, text: str) -> list[tuple[str, int]] | None:
    try:
        return [(token.type, token.line) for token in load_grammar(grammar_name).parse(text)]
    except UnexpectedInput:
        return None


@pytest.mark.parametrize("grammar_name", GRAMMARS)
def test_line_parser_agrees_with_lark(grammar_name: str) -> None:
    accepted = 0
    for text in TEXTS:
        expected = lark_tokens(grammar_name, text)
        assert line_parser_tokens(grammar_name, text) == expected, text[:200]
        # the same hand again: the second pass runs on remembered parser steps
        assert line_parser_tokens(grammar_name, text) == expected
        accepted += expected is not None
    assert accepted > 0, f"no sample hand is in the {grammar_name} grammar's format"
