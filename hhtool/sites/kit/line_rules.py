"""How a line site declares what its lines mean: a :class:`LineTable` maps each terminal of its
grammar to a reader, a small function ``(builder, facts, token)``, with the number of capture
groups the reader takes from the terminal's regex, so that a test can check every table against
its grammar (see tests/test_site_contract.py). Terminals that only mark the order of a hand
("*** SUMMARY ***") are declared as such: they are read by nothing, on purpose.

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
    """A terminal's reader (None: the line only marks the order) and the fewest and most capture
    groups it reads (None: no bound); the terminal's regex must have a number of groups in between."""

    read: Callable[[HandBuilder, Any, LineToken], None] | None
    fewest: int = 0
    most: int | None = None

    def accepts(self, groups: int) -> bool:
        return self.fewest <= groups and (self.most is None or groups <= self.most)

    @property
    def wants(self) -> str:
        if self.most is None:
            return f"at least {self.fewest}"
        return f"{self.fewest}" if self.fewest == self.most else f"{self.fewest} to {self.most}"


class LineTable(Generic[F]):
    """A site's own lines: which terminal each reader reads, declared next to the reader with
    :meth:`on`. ``order_only`` lists the terminals that say nothing beyond their place."""

    def __init__(self, order_only: Iterable[str] = ()) -> None:
        self.rules: dict[str, LineRule] = {name: LineRule(None) for name in order_only}

    def on(self, *terminals: str, groups: int | tuple[int, int]) -> Callable[[LineReader[F]], LineReader[F]]:
        """Declare the decorated function the reader of ``terminals``, taking ``groups`` capture
        groups from each (an exact number, or the fewest and most)."""
        fewest, most = (groups, groups) if isinstance(groups, int) else groups

        def register(read: LineReader[F]) -> LineReader[F]:
            for terminal in terminals:
                self.add(terminal, LineRule(read, fewest, most))
            return read
        return register

    def add(self, terminal: str, rule: LineRule) -> None:
        """Declare ``rule`` the reader of ``terminal`` (e.g. a common reader for the site's own name
        of a common line: ``BRING_INS`` read as ``BRINGS_IN``)."""
        if terminal in self.rules:
            raise ValueError(f"terminal {terminal} is declared twice")
        self.rules[terminal] = rule
