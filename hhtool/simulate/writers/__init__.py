"""Hand writers: one module per site, each exposing ``WRITER`` with ``name`` and ``write(hand) -> str``.

PokerStars, Full Tilt and PHH are written; a new site is a new module listed in :data:`WRITERS`.
"""

from __future__ import annotations

from typing import Protocol

from hhtool.simulate.dealer import SimulatedHand
from hhtool.simulate.writers import fulltilt, phh, pokerstars


class HandWriter(Protocol):
    name: str

    def write(self, simulated: SimulatedHand) -> str: ...


WRITERS: dict[str, HandWriter] = {writer.name: writer for writer in (pokerstars.WRITER, fulltilt.WRITER, phh.WRITER)}


def writer_for(site: str) -> HandWriter:
    try:
        return WRITERS[site.lower()]
    except KeyError:
        raise KeyError(f"no writer for site {site!r}; known: {', '.join(sorted(WRITERS))}") from None
