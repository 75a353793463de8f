"""The parse skeleton of every site whose histories are text lines read by a grammar.

The base owns the steps: load the site's grammar, run it over the hand (every line in an order the
grammar allows, each line a token), read the header into the hand's facts, make the builder,
hand each line to its reader (the site's own or a common one, :data:`~hhtool.sites.kit.common_lines.COMMON_LINES`),
settle the stakes and build. A site module declares only what differs: its grammar's name, a
:class:`~hhtool.sites.kit.line_rules.LineTable` of its own lines, its header reading
(:meth:`LineSiteParser.read_header`), and the quirks that truly differ (:meth:`~LineSiteParser.finish`,
:meth:`~LineSiteParser.stakes`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, ClassVar, Generic, TypeVar

from hhtool.model import Hand, RawHand, SkippedHand, Stakes
from hhtool.sites.kit.base import HandBuilder, HandParseError, SiteParser, load_grammar
from hhtool.sites.kit.common_lines import COMMON_LINES, stakes_from_forced_bets
from hhtool.sites.kit.line_rules import LineRule, LineTable
from hhtool.sites.kit.lines import LineGrammar, LineToken
from hhtool.sites.kit.stated import StatedHand
from hhtool.sites.kit.tournament import FINISHED, finishes_in

F = TypeVar("F", bound=StatedHand)


class LineSiteParser(SiteParser, Generic[F]):
    """A site read by a line grammar. Subclasses set ``grammar_name`` and ``lines`` and implement
    :meth:`read_header`; the rest has defaults."""

    #: the grammar file (grammars/<name>.lark)
    grammar_name: ClassVar[str] = ""
    #: the site's own lines; every other terminal of its grammar must be a common line
    lines: ClassVar[LineTable[Any]] = LineTable()
    #: the site's switch: on, a chunk's lines are read natively, as one column, before its hands are parsed
    #: (:mod:`hhtool.sites.kit.columns`); off, each line is matched by Python's ``re`` as it is met. Off for
    #: every site: the native reading costs more CPU than it saves (benchmarks/RESULTS.md, issue #37, parse);
    #: the same hands either way (tests/test_columns.py)
    columnar: ClassVar[bool] = False

    def __init__(self) -> None:
        self._readers = self._reader_table()

    def rules(self) -> dict[str, LineRule]:
        """Every terminal's rule: the common lines, with the site's own in their place."""
        return {**COMMON_LINES, **self.lines.rules}

    def _reader_table(self) -> dict[str, Callable[[HandBuilder, Any, LineToken], None] | None]:
        return {terminal: rule.read for terminal, rule in self.rules().items()}

    def line_formats(self) -> tuple[LineSiteParser[Any], ...]:
        return (self,)

    def grammar(self) -> LineGrammar:
        return load_grammar(self.grammar_name)

    def prepare(self, raws: Sequence[RawHand]) -> None:
        if self.columnar:
            self.grammar().lex(line for raw in raws for line in raw.lines)

    # ------------------------------------------------------------ what a site declares

    def read_header(self, raw: RawHand) -> F:
        """The hand's facts its header states (hand id, unit, currency, game, time, table, the stakes
        as written), in the site's own facts type. Raise HandParseError on a header it cannot read."""
        raise NotImplementedError

    def finish(self, b: HandBuilder, facts: F) -> None:
        """What the site settles once every line is read (labels, derived returns, checks); by default nothing."""

    def stakes(self, b: HandBuilder, facts: F) -> Stakes:
        """The hand's stakes: the bets (and the ante, if stated) the header states, the rest as posted."""
        stated, line = facts.stated, facts.stated.line
        return stakes_from_forced_bets(
            b,
            small_bet=b.money(stated.small_bet, line) if stated.small_bet is not None else None,
            big_bet=b.money(stated.big_bet, line) if stated.big_bet is not None else None,
            currency=facts.currency,
            structure=facts.structure,
            is_tournament=facts.is_tournament,
            table_size=facts.table_size,
            ante=b.money(stated.ante, line) if stated.ante is not None else None,
        )

    def skipped(self, raw: RawHand, hand_id: str | None, game: str) -> SkippedHand:
        """A hand of another game; one of a tournament whose grammar has a finish line (a mixed game's
        last hand may be dealt as Omaha) keeps the tournament's id and the finishes it states."""
        plain = super().skipped(raw, hand_id, game)
        if FINISHED not in self.lines.rules:
            return plain
        try:
            facts = self.read_header(raw)
            if not facts.is_tournament:
                return plain
            return replace(plain, tournament_id=facts.tournament_id,
                           finishes=finishes_in(self.grammar(), raw, facts.buy_in))
        except (HandParseError, ValueError, KeyError, IndexError):  # a header it cannot read: skipped as it is
            return plain

    # ------------------------------------------------------------ the skeleton

    def parse_stud8(self, raw: RawHand) -> Hand:
        tokens = self.grammar().parse(raw.text, raw.first_line)
        facts = self.read_header(raw)
        facts.tokens = tokens
        b = HandBuilder(self.name, raw, unit=facts.unit, hand_id=facts.hand_id)
        b.notes.extend(facts.notes)
        self.read_lines(b, facts)
        self.finish(b, facts)
        stakes = self.stakes(b, facts)
        return b.build(stakes, **facts.hand_fields())

    def read_lines(self, b: HandBuilder, facts: F) -> None:
        """Hand every line to its terminal's reader, in order (an order-only line has none)."""
        readers = self._readers
        for token in facts.tokens:
            read = readers[token.type]  # the contract test makes sure every terminal has a rule
            if read is not None:
                read(b, facts, token)


def contract_problems(parser: LineSiteParser[Any]) -> list[str]:
    """Where a line site's table and its grammar disagree: a terminal nobody reads (neither the site's,
    a common line nor declared order-only), a reader of a terminal the grammar does not have, a reader
    whose declared named groups the terminal's regex does not name, a ``SEAT`` line that names no
    ``player``. Empty when they agree (tests/test_site_contract.py checks every site)."""
    grammar = parser.grammar()
    counts = grammar.group_counts()
    names = grammar.names
    rules = parser.rules()
    problems = [f"{terminal}: no reader (neither the site's, a common line nor order-only)"
                for terminal in counts if terminal not in rules]
    problems += [f"{terminal}: the site reads it, but grammar {grammar.name} has no such terminal"
                 + (" (it is %ignore'd)" if terminal in grammar.ignored() else "")
                 for terminal in parser.lines.rules if terminal not in counts]
    for terminal in counts:
        rule = rules.get(terminal)
        if rule is None or rule.read is None:
            continue
        missing = rule.missing(names.get(terminal, {}))
        if missing:
            problems.append(f"{terminal}: its reader reads the groups {rule.wants}; grammar {grammar.name}'s regex "
                            f"does not name {', '.join(missing)}")
    if "SEAT" in counts and "player" not in names.get("SEAT", {}):
        problems.append("SEAT: the regex names no player group (the seated player's name, which later lines are read against)")
    return problems
