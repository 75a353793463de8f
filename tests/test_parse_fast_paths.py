"""The parse step's fast paths give what the plain code they stand for gives (#17): the line driver's
remembered readings (a line read again at a stack whose state accepts the same terminals), the card
reading's one look-up and its str.split cut, and the PokerStars stakes search started late. Each is
compared with the reading it replaces on the sample and corpus hands and on generated texts."""

from __future__ import annotations

import random
import re

import pytest
from lark.exceptions import UnexpectedInput

from hhtool.ingest.reader import read_file
from hhtool.sites import detect
from hhtool.sites.kit.base import HIDDEN_CARDS, parse_cards
from hhtool.sites.kit.lines import LineGrammar, LineParser, LineToken, load_grammar
from hhtool.sites.pokerstars import _STAKES, _stakes_in
from tests.inputs import CORPUS, REPO, SAMPLES

GRAMMARS = sorted(path.stem for path in (REPO / "grammars").glob("*.lark"))


def hand_texts() -> list[str]:
    texts = []
    for root in (SAMPLES, CORPUS):
        for path in sorted(root.rglob("*")) if root.is_dir() else ():
            if not path.is_file() or path.suffix in (".xml", ".phhs", ".json", ".md"):
                continue
            decoded = read_file(path)
            parser = detect(decoded.lines)
            if parser is not None:
                texts += [raw.text for raw in parser.split(decoded.lines, str(path))]
    return texts


TEXTS = hand_texts()


def tokens_of(parser: LineParser, text: str) -> list[tuple[str, str, int, tuple[str | None, ...], int]] | str:
    try:
        found: list[LineToken] = parser.parse(text, 7)
    except UnexpectedInput as error:
        return f"{type(error).__name__} at line {getattr(error, 'line', None)}"
    return [(token.type, token.value, token.line, token.groups, token.number) for token in found]


@pytest.mark.parametrize("grammar_name", GRAMMARS)
def test_remembered_readings_change_nothing(grammar_name: str) -> None:
    """Every hand through a parser that remembers readings (each twice, the second time from memory)
    and through one that forgets each reading at once: the same tokens with the same groups, or the
    same error, for every grammar and every hand (its own site's and the others')."""
    grammar: LineGrammar = load_grammar(grammar_name)
    remembering = LineParser(grammar.lark, grammar.seat_name_group)
    forgetting = LineParser(grammar.lark, grammar.seat_name_group)
    forgetting.MAX_READINGS = 1
    for text in TEXTS:
        expected = tokens_of(forgetting, text)
        assert tokens_of(remembering, text) == expected, text[:200]
        assert tokens_of(remembering, text) == expected, text[:200]


def plain_cards(text: str) -> tuple[object, ...] | str:
    """The card reading as written before the fast path: a regex cut, every part looked up."""
    from hhtool.model import Card

    result: list[object] = []
    try:
        for part in re.split(r"[,\s]+", text.strip()):
            result.append(None if part in set(HIDDEN_CARDS) else Card.parse(part))
    except ValueError as error:
        return str(error)
    if result == [None] and text.strip() == "":
        return ()
    return tuple(result)


def card_texts() -> list[str]:
    pieces = ["Ah", "10d", "x", "X", "-", "??", "null", "", "Tc", "2s", "Zz", ",", " ", "\t", "\u00a0", "\u2003", "\x1c"]
    rng = random.Random(17)
    generated = ["".join(rng.choice(pieces) + rng.choice(["", " ", ",", ", ", "  ", "\u3000"]) for _ in range(rng.randrange(6)))
                 for _ in range(5000)]
    return [*generated, "", " ", "Ah Kd", " Ah  Kd ", "Ah,Kd", ",Ah", "Ah,", "X X 5c", "Ah\u00a0Kd", "1x"]


def test_card_reading_is_the_plain_one() -> None:
    for text in card_texts():
        for _ in range(2):  # the second time from memory
            try:
                got: tuple[object, ...] | str = parse_cards(text)
            except ValueError as error:
                got = str(error)
            assert got == plain_cards(text), repr(text)


def stakes_headers() -> list[str]:
    headers = [text.split("\n", 1)[0] for text in TEXTS if text.startswith("PokerStars")]
    alphabet = "0123456789/$€£., ()ABCDUSEL#:-[]\u0663"
    rng = random.Random(5)
    return [*headers, *["".join(rng.choice(alphabet) for _ in range(rng.randrange(40))) for _ in range(20000)]]


def test_stakes_search_from_its_first_possible_start() -> None:
    found = 0
    for header in stakes_headers():
        plain, fast = _STAKES.search(header), _stakes_in(header)
        assert (plain and (plain.span(), plain.groups())) == (fast and (fast.span(), fast.groups())), header
        found += plain is not None
    assert found > 100  # the generated headers hold stakes often enough for the test to mean something
