"""Ctrl-C during an import: stop soon, keeping what was parsed.

A Ctrl-C used to be a KeyboardInterrupt wherever the import happened to be: the results parsed and
replayed but not yet written (a transaction holds up to 10,000 hands) were lost, and the process
pool's running chunks were waited for (≈13 s). Here a Ctrl-C only asks the import to stop
(:attr:`CtrlC.requested`). It interrupts at once only what may be given up without loss (reading a
file, parsing in this process, waiting for a worker: :meth:`CtrlC.abandonable`); the importer then
writes every result that came back, cancels the rest and raises KeyboardInterrupt itself. A second
Ctrl-C interrupts wherever the import is, as before.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hhtool.ingest.accounting import ImportReport


class ImportInterrupted(KeyboardInterrupt):
    """A Ctrl-C that stopped an import once it had written what came back: ``report`` accounts for
    the hands written (a watch adds them to its sums; every hand stays accounted for)."""

    def __init__(self, report: ImportReport) -> None:
        super().__init__()
        self.report = report


class CtrlC:
    """Whether a Ctrl-C asked the import to stop, and where it may interrupt at once."""

    def __init__(self) -> None:
        self.requested = False
        self._abandonable = 0  # depth of the sections a Ctrl-C interrupts at once

    @contextmanager
    def installed(self) -> Iterator[CtrlC]:
        """Hear Ctrl-C while the block runs (in the main thread only: elsewhere no signal arrives),
        then put the previous handler back."""
        if threading.current_thread() is not threading.main_thread():
            yield self
            return
        previous: Any = signal.signal(signal.SIGINT, self._heard)
        try:
            yield self
        finally:
            signal.signal(signal.SIGINT, previous)

    @contextmanager
    def abandonable(self) -> Iterator[None]:
        """A section whose work may be given up (nothing in it is written): a Ctrl-C raises
        KeyboardInterrupt in it at once."""
        if self.requested:
            raise KeyboardInterrupt
        self._abandonable += 1
        try:
            yield
        finally:
            self._abandonable -= 1

    def check(self) -> None:
        """KeyboardInterrupt if a Ctrl-C asked to stop (heard where it could not interrupt)."""
        if self.requested:
            raise KeyboardInterrupt

    def _heard(self, signum: int, frame: FrameType | None) -> None:
        again = self.requested
        self.requested = True
        if again or self._abandonable:
            raise KeyboardInterrupt
