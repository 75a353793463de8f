"""How a line site declares what its lines mean: a :class:`LineTable` maps each terminal of its
grammar to a reader, a small function ``(builder, facts, token)``, with the named capture groups
it reads (``token["player"]``) — or, for a reader that reads by place, how many groups it takes —
so that a test can check every table against its grammar (see tests/test_site_contract.py).
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
    """A terminal's reader (None: the line only marks the order) and the capture groups it reads:
    by name (``needs``: groups the terminal's regex must name; ``may``: ones it may name, read where
    it does; ``one_of``: names of which it must have at least one), or, for a reader that still reads
    groups by place, the fewest and most groups it takes (``most`` None: no bound)."""

    read: Callable[[HandBuilder, Any, LineToken], None] | None
    fewest: int = 0
    most: int | None = None
    needs: frozenset[str] = frozenset()
    may: frozenset[str] = frozenset()
    one_of: frozenset[str] = frozenset()

    @property
    def by_name(self) -> bool:
        return bool(self.needs or self.may or self.one_of)

    def accepts(self, groups: int) -> bool:
        return self.fewest <= groups and (self.most is None or groups <= self.most)

    def missing(self, names: Iterable[str]) -> list[str]:
        """What a reader by name misses among a terminal's group names (empty: nothing)."""
        have = set(names)
        missing = sorted(self.needs - have)
        if self.one_of and not self.one_of & have:
            missing.append(" or ".join(sorted(self.one_of)))
        return missing

    @property
    def wants(self) -> str:
        if self.by_name:
            return ", ".join([*sorted(self.needs), *(f"[{name}]" for name in sorted(self.may | self.one_of))])
        if self.most is None:
            return f"at least {self.fewest}"
        return f"{self.fewest}" if self.fewest == self.most else f"{self.fewest} to {self.most}"


def named(read: Callable[[HandBuilder, Any, LineToken], None], needs: Iterable[str], may: Iterable[str] = (),
          one_of: Iterable[str] = ()) -> LineRule:
    """The rule of a reader that reads its terminal's groups by name."""
    return LineRule(read, needs=frozenset(needs), may=frozenset(may), one_of=frozenset(one_of))


class LineTable(Generic[F]):
    """A site's own lines: which terminal each reader reads, declared next to the reader with
    :meth:`on`. ``order_only`` lists the terminals that say nothing beyond their place."""

    def __init__(self, order_only: Iterable[str] = ()) -> None:
        self.rules: dict[str, LineRule] = {name: LineRule(None) for name in order_only}

    def on(self, *terminals: str, groups: int | tuple[int, int] | None = None, reads: Iterable[str] = (),
           may: Iterable[str] = ()) -> Callable[[LineReader[F]], LineReader[F]]:
        """Declare the decorated function the reader of ``terminals``: one that reads the named groups
        ``reads`` (each terminal's regex must name them) and ``may`` (read where named), or one that
        takes ``groups`` capture groups by place (an exact number, or the fewest and most)."""
        reads, may = tuple(reads), tuple(may)

        def register(read: LineReader[F]) -> LineReader[F]:
            for terminal in terminals:
                if groups is None:
                    self.add(terminal, named(read, reads, may))
                else:
                    fewest, most = (groups, groups) if isinstance(groups, int) else groups
                    self.add(terminal, LineRule(read, fewest, most))
            return read
        return register

    def add(self, terminal: str, rule: LineRule) -> None:
        """Declare ``rule`` the reader of ``terminal`` (e.g. a common reader for the site's own name
        of a common line: ``BRING_INS`` read as ``BRINGS_IN``)."""
        if terminal in self.rules:
            raise ValueError(f"terminal {terminal} is declared twice")
        self.rules[terminal] = rule
