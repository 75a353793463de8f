"""What the site parser tests share: reading text, sample histories and corpus files the way the
importer does (bytes in the site's encoding, decoded by the reader, split and parsed), the
single-hand and conservation checks, and the loop over a site's sample histories."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from hhtool.ingest.reader import decode_bytes, read_file
from hhtool.model import FailedHand, Hand, ParseOutcome
from hhtool.sites import detect
from hhtool.sites.kit.base import SiteParser
from tests.inputs import SAMPLES, require_corpus


def parse_lines(parser: SiteParser, lines: Sequence[str], file: str = "inline.txt") -> list[ParseOutcome]:
    """Every hand of these lines, cut by the parser's splitter and parsed."""
    return [parser.parse(raw) for raw in parser.split(lines, file)]


def parse_text(parser: SiteParser, text: str, file: str = "inline.txt", *, encoding: str = "utf-8",
               newline: str = "\n") -> list[ParseOutcome]:
    """The hands of ``text`` written as the site writes its files (``encoding``, ``newline``) and
    read back by the reader."""
    return parse_lines(parser, decode_bytes(text.replace("\n", newline).encode(encoding)).lines, file)


def one_outcome(outcomes: Sequence[ParseOutcome]) -> ParseOutcome:
    """The outcome of text that must hold exactly one hand."""
    assert len(outcomes) == 1, outcomes
    return outcomes[0]


def only_hand(outcomes: Sequence[ParseOutcome]) -> Hand:
    """The one outcome, which must be a parsed Hand."""
    outcome = one_outcome(outcomes)
    assert isinstance(outcome, Hand), outcome
    return outcome


def kinds(outcomes: Sequence[ParseOutcome]) -> Counter[str]:
    """How many Hand, SkippedHand and FailedHand outcomes there are."""
    return Counter(type(outcome).__name__ for outcome in outcomes)


def conserved(hand: Hand, *, total_pot: bool = False) -> bool:
    """Chips put in (less returns) = awards + rake + fees; with ``total_pot`` they must also equal
    the total pot the site states."""
    contributed = sum(hand.contributed_by(player) for player in hand.players)
    balanced = contributed == sum(award.amount for award in hand.awards) + (hand.rake or 0) + hand.fees
    return balanced and (not total_pot or contributed == hand.total_pot)


def sample_files(site: str, pattern: str = "*.txt") -> list[Path]:
    """The site's hand-written sample histories (there must be some)."""
    files = sorted((SAMPLES / site).glob(pattern))
    assert files
    return files


def sample_hands(parser: SiteParser, files: Sequence[Path] | None = None, *, encoding: str | None = None) -> list[Hand]:
    """Every hand of the site's sample histories: each file is detected as the site's (and read
    in ``encoding`` when given) and each of its hands parses to a Hand."""
    hands: list[Hand] = []
    for path in sample_files(parser.name) if files is None else files:
        decoded = read_file(path)
        assert encoding is None or decoded.encoding == encoding, (path, decoded.encoding)
        assert detect(decoded.lines) is parser, path
        for outcome in parse_lines(parser, decoded.lines, str(path)):
            assert isinstance(outcome, Hand), outcome
            hands.append(outcome)
    return hands


def corpus_path(folder: str, name: str) -> Path:
    """A file of ``../shared/corpus/<folder>/``; the test is skipped when the corpus is not there."""
    return require_corpus(folder, name)


def corpus_outcomes(parser: SiteParser, path: Path, *, encoding: str | None = None) -> list[ParseOutcome]:
    """Every hand of a real history file, which must be detected as the parser's site (and read
    in ``encoding`` when given)."""
    decoded = read_file(path)
    assert encoding is None or decoded.encoding == encoding, (path, decoded.encoding)
    assert detect(decoded.lines) is parser, path
    return parse_lines(parser, decoded.lines, str(path))


def catalogued_hands(parser: SiteParser, folder: str, catalogue: dict[str, int]) -> list[Hand]:
    """The Stud Hi/Lo hands of the corpus files in ``catalogue`` (file name -> hand count, as
    ``corpus/SOURCES.md`` lists them): no file may fail a hand and each must hold its count."""
    hands: list[Hand] = []
    for name, count in catalogue.items():
        outcomes = corpus_outcomes(parser, corpus_path(folder, name))
        assert kinds(outcomes)["FailedHand"] == 0, [o for o in outcomes if not isinstance(o, Hand)]
        found = [outcome for outcome in outcomes if isinstance(outcome, Hand)]
        assert len(found) == count, (name, len(found))
        hands += found
    return hands


def failed_at(outcome: ParseOutcome, site: str, line: int, text: str) -> FailedHand:
    """A hand that failed at file line ``line`` with a reason naming the site and quoting ``text``."""
    assert isinstance(outcome, FailedHand), outcome
    assert outcome.line == line, outcome
    assert outcome.reason.startswith(f"{site}:") and text in outcome.reason, outcome.reason
    return outcome
