"""What `hhtool import --watch` shows while it runs: one status line, the time of the last change,
the hands stored today, the last file that changed and the problems so far:

    20:41:07 · 122 hands stored today · last simulated-seed1.txt: +120 · no problems

On a terminal the line is redrawn in place (a carriage return, no escape sequence); off one (a log
file, a pipe) it is printed once per change, a line each. A problem (a failed hand, a conflicting
copy, an unreadable file) is printed above it, once, as it is met. ``-v`` prints each file's
accounting instead (its full path and counts, the line every pass used to print); ``-q`` prints
no status, only the problems and the last line.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from datetime import date, datetime
from pathlib import PurePath
from typing import TYPE_CHECKING, TextIO

from rich.cells import cell_len, set_cell_size

from hhtool.cli.common import Verbosity, verbosity
from hhtool.reports.printable import printable

if TYPE_CHECKING:
    from hhtool.service.importing import FileReport

#: the width a status line is cut to off a terminal (none: a log keeps it whole)
UNBOUNDED = 10_000


def count(number: int, noun: str) -> str:
    return f"{number:,} {noun}" + ("" if number == 1 else "s")


class WatchStatus:
    """The status of a running watch, drawn to ``stream`` (stdout) as the module says."""

    def __init__(self, stream: TextIO | None = None, *, terminal: bool | None = None,
                 width: Callable[[], int] | None = None, clock: Callable[[], datetime] = datetime.now) -> None:
        self.stream = stream or sys.stdout
        self.terminal = self.stream.isatty() if terminal is None else terminal
        self.width = width or (lambda: UNBOUNDED)
        self.clock = clock
        self.day: date = clock().date()
        self.stored_today = 0
        self.last: str | None = None
        self.failed = self.conflicts = self.unreadable = self.wrong_site = 0
        self.shown = ""  # the last status drawn (without its time): a change draws again
        self.drawn = 0  # the width of the line on the terminal now (to clear it)
        self.quiet = verbosity() is Verbosity.QUIET
        self.verbose = verbosity() is Verbosity.VERBOSE

    # ------------------------------------------------------------------ what is heard

    def heard(self, report: FileReport) -> None:
        """A file a pass read (or found unchanged)."""
        now = self.clock()
        if now.date() != self.day:  # past midnight: a new day's count
            self.day, self.stored_today = now.date(), 0
        if report.status == "unchanged":
            return
        self.stored_today += report.stored
        self.failed += report.failed
        self.conflicts += len(report.conflicts)
        if report.looks_like:
            self.wrong_site += 1
            self.problem(f"another site's history {report.path}: {report.note}")
        changed = report.stored or report.failed or report.incomplete or report.duplicates or report.skipped
        if changed or self.last is None:
            self.last = f"{PurePath(report.path).name}: " + self._what(report)
        self.draw()

    @staticmethod
    def _what(report: FileReport) -> str:
        parts = [f"+{report.stored:,}"]
        parts += [f"{number:,} {what}" for number, what in ((report.duplicates, "duplicates"),
                                                            (report.skipped, "skipped"), (report.failed, "failed"),
                                                            (report.incomplete, "incomplete")) if number]
        return ", ".join(parts)

    def unreadable_file(self, problem: str) -> None:
        self.unreadable += 1
        self.problem(f"unreadable {problem}")
        self.draw()

    def problem(self, line: str) -> None:
        """A problem, printed once above the status line (failed hands, conflicts: :meth:`file_problems`)."""
        self._clear()
        self.stream.write(printable(line) + "\n")
        self.stream.flush()
        if self.terminal and self.shown:
            self._redraw()

    def file_problems(self, report: FileReport) -> None:
        """The failed hands and conflicting copies of a pass, each on its line."""
        for failed in report.failures:
            self.problem(f"  failed {report.path}:{failed.line}: {failed.reason}")
        for conflict in report.conflicts:
            self.problem(f"  conflicting copy {conflict.site} hand {conflict.hand_id}: {conflict.second} "
                         f"differs from {conflict.first}")

    # ------------------------------------------------------------------ the line

    def problems_text(self) -> str:
        parts = [text for number, text in (
            (self.failed, count(self.failed, "failed hand")),
            (self.conflicts, count(self.conflicts, "conflicting copy").replace("copys", "copies")),
            (self.unreadable, count(self.unreadable, "unreadable file")),
            (self.wrong_site, count(self.wrong_site, "file of another site"))) if number]
        return ", ".join(parts) if parts else "no problems"

    def status(self) -> str:
        """The status without its time."""
        last = f" · last {self.last}" if self.last else " · no file yet"
        return f"{count(self.stored_today, 'hand')} stored today{last} · {self.problems_text()}"

    def draw(self) -> None:
        if self.quiet or self.verbose:  # (-v: each file's accounting is the log instead)
            return
        status = printable(self.status())
        if status == self.shown:
            return
        self.shown = status
        self._redraw()

    def _redraw(self) -> None:
        line = f"{self.clock():%H:%M:%S} · {self.shown}"
        if not self.terminal:
            self.stream.write(line + "\n")
        else:
            room = max(self.width() - 1, 20)  # (the last column left free: no wrap)
            if cell_len(line) > room:
                line = set_cell_size(line, room - 1) + "…"
            self.stream.write("\r" + line + " " * max(self.drawn - cell_len(line), 0))
            self.drawn = cell_len(line)
        self.stream.flush()

    def _clear(self) -> None:
        if self.terminal and self.drawn:
            self.stream.write("\r" + " " * self.drawn + "\r")
            self.drawn = 0

    def end(self) -> None:
        """The status line left as it is, the cursor under it (the last lines follow)."""
        if self.terminal and self.drawn:
            self.stream.write("\n")
            self.drawn = 0
            self.stream.flush()


__all__ = ["WatchStatus"]
