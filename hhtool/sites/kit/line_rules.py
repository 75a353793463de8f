"""How a line site declares what its lines mean: a :class:`LineTable` maps each terminal of its
grammar to a reader, a small function ``(builder, facts, token)``, with the named capture groups
it reads (``token["player"]``), so that a test can check every table against its grammar (see tests/test_site_contract.py).
Terminals that only mark the order of a hand ("*** SUMMARY ***") are declared as such: they are
read by nothing, on purpose.

Imports point one way: this module imports only ``base`` and the line tokens.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from hhtool.sites.kit.base import HandBuilder
from hhtool.sites.kit.lines import LineToken

F = TypeVar("F")
#: a line's reader: it records what the line says in the builder or the hand's facts
LineReader = Callable[[HandBuilder, F, LineToken], None]


@dataclass(frozen=True)
class LineRule:
    """A terminal's reader (None: the line only marks the order) and the named capture groups it reads:
    ``needs``, groups the terminal's regex must name; ``may``, ones it may name (read where it does);
    ``one_of``, names of which it must have at least one."""

    read: Callable[[HandBuilder, Any, LineToken], None] | None
    needs: frozenset[str] = frozenset()
    may: frozenset[str] = frozenset()
    one_of: frozenset[str] = frozenset()

    def missing(self, names: Iterable[str]) -> list[str]:
        """What the reader misses among a terminal's group names (empty: nothing)."""
        have = set(names)
        missing = sorted(self.needs - have)
        if self.one_of and not self.one_of & have:
            missing.append(" or ".join(sorted(self.one_of)))
        return missing

    @property
    def declared(self) -> frozenset[str]:
        """Every name the reader may read."""
        return self.needs | self.may | self.one_of

    @property
    def wants(self) -> str:
        return ", ".join([*sorted(self.needs), *(f"[{name}]" for name in sorted(self.may | self.one_of))]) or "nothing"


def named(read: Callable[[HandBuilder, Any, LineToken], None], needs: Iterable[str], may: Iterable[str] = (),
          one_of: Iterable[str] = ()) -> LineRule:
    """The rule of a reader that reads the named groups ``needs`` and, where the terminal has them, ``may``."""
    return LineRule(read, frozenset(needs), frozenset(may), frozenset(one_of))


class LineTable(Generic[F]):
    """A site's own lines: which terminal each reader reads, declared next to the reader with
    :meth:`on`. ``order_only`` lists the terminals that say nothing beyond their place."""

    def __init__(self, order_only: Iterable[str] = ()) -> None:
        self.rules: dict[str, LineRule] = {name: LineRule(None) for name in order_only}

    def on(self, *terminals: str, reads: Iterable[str] = (), may: Iterable[str] = ()) -> Callable[[LineReader[F]], LineReader[F]]:
        """Declare the decorated function the reader of ``terminals``, reading the named groups ``reads``
        (each terminal's regex must name them) and ``may`` (read where named)."""
        reads, may = tuple(reads), tuple(may)

        def register(read: LineReader[F]) -> LineReader[F]:
            for terminal in terminals:
                self.add(terminal, named(read, reads, may))
            return read
        return register

    def add(self, terminal: str, rule: LineRule) -> None:
        """Declare ``rule`` the reader of ``terminal`` (e.g. a common reader for the site's own name
        of a common line: ``BRING_INS`` read as ``BRINGS_IN``)."""
        if terminal in self.rules:
            raise ValueError(f"terminal {terminal} is declared twice")
        self.rules[terminal] = rule
