"""`hhtool import PATH…`"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from enum import StrEnum
from typing import TYPE_CHECKING

import typer
from rich.markup import escape

from hhtool.cli.common import (
    DB_OPTION,
    EXIT_FINDINGS,
    EXIT_INTERRUPTED,
    EXIT_OK,
    STRUCTURES_OPTION,
    choices,
    database,
    err,
    failure,
    info,
    live_progress,
    out,
    rules_option,
    site_option,
)
from hhtool.cli.output import print_text_summary, printable
from hhtool.service.config import desk_structures, watch_targets
from hhtool.service.errors import UsageError
from hhtool.service.importing import ImportOptions, import_paths, watch_paths
from hhtool.service.stores import stored_since_open

if TYPE_CHECKING:
    from rich.progress import TaskID

    from hhtool.service.importing import FileReport, ImportProgress


class ImportFormat(StrEnum):
    text = "text"
    json = "json"


SITE_OPTION = site_option("Read every file as this site instead of detecting it from the content")
RULES_OPTION = rules_option("Rule profile for the replay (default: each site's own)")
FORMAT_HELP = f"{choices(ImportFormat)}."


#: $HHTOOL_PROGRESS: auto (a bar on a terminal's stderr, nothing otherwise), lines (a plain line on stderr
#: at most every second, even on a pipe or a log file) or off
PROGRESS_ENV = "HHTOOL_PROGRESS"
PROGRESS_MODES = ("auto", "lines", "off")
#: seconds between two plain progress lines
LINE_EVERY = 1.0


def progress_mode() -> str:
    """"bar", "lines" or "off", from $HHTOOL_PROGRESS and whether stderr is a terminal."""
    chosen = os.environ.get(PROGRESS_ENV, "auto").strip().lower() or "auto"
    if chosen not in PROGRESS_MODES:
        from hhtool.service.errors import SettingError

        raise SettingError(f"${PROGRESS_ENV} must be one of {', '.join(PROGRESS_MODES)}, not {chosen!r}")
    if chosen == "auto":
        return "bar" if live_progress() else "off"
    return chosen


def clock_text(seconds: float) -> str:
    """``0:07``, ``12:30``, ``1:02:03``."""
    whole = max(round(seconds), 0)
    hours, rest = divmod(whole, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def describe_progress(progress: ImportProgress, elapsed: float) -> str:
    """Hands found so far, their rate, files done, and the time left: an estimate from the bytes
    read so far (of all files' bytes on disk), as if the rest reads at the same speed."""
    rate = progress.hands_found / elapsed if elapsed > 0 else 0.0
    if progress.bytes_done >= progress.bytes_total > 0:
        left = "finishing"
    elif progress.bytes_done > 0 and elapsed > 0:
        left = f"~{clock_text((progress.bytes_total - progress.bytes_done) * elapsed / progress.bytes_done)} left"
    else:
        left = "estimating time left"
    return (f"{progress.hands_found:,} hands, {rate:,.0f} hands/s, {progress.files_done}/{progress.files_total} "
            f"files, {left}")


class ImportProgressView:
    """How far an import is, on stderr: a bar (bytes read) with the hands found, hands per second,
    files done and time left on a terminal, plain lines with ``mode`` "lines", nothing "off"
    (:func:`progress_mode`). It keeps the last progress heard either way, for the Ctrl-C summary."""

    def __init__(self, mode: str | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        from rich.progress import BarColumn, Progress, TextColumn

        self.mode = mode or progress_mode()
        self.clock = clock
        self.started = clock()
        self.last_line = -LINE_EVERY
        self.files_total = self.files_done = 0
        self.bar = Progress(TextColumn("importing"), BarColumn(bar_width=16), TextColumn("{task.description}"),
                            console=err, disable=self.mode != "bar", transient=True)
        self.task: TaskID | None = None

    def start(self, files: int) -> None:
        self.started = self.clock()
        self.files_total = files
        if self.mode == "bar":
            self.bar.start()
            self.task = self.bar.add_task(f"0 hands, 0/{files} files", total=None)

    def update(self, progress: ImportProgress) -> None:
        self.files_total, self.files_done = progress.files_total, progress.files_done
        elapsed = self.clock() - self.started
        text = describe_progress(progress, elapsed)
        if self.task is not None:
            self.bar.update(self.task, description=text, total=max(progress.bytes_total, 1),
                            completed=progress.bytes_done)
        elif self.mode == "lines" and elapsed - self.last_line >= LINE_EVERY:
            self.last_line = elapsed
            err.print(f"importing: {text}", markup=False, highlight=False)

    def done(self) -> None:
        if self.task is not None:
            self.bar.stop()
            self.task = None


def tell_interrupted(progress: ImportProgressView, stored: int | None) -> None:
    """What a Ctrl-C left: the hands stored (each one whole), the files done, and how to resume."""
    hands = "some hands may have been stored" if stored is None else f"{stored:,} hands were stored before that"
    err.print(f"interrupted; {hands}, each one whole, and {progress.files_done} of {progress.files_total} files "
              "done: run the same command again to resume where it stopped (stored hands and files are skipped)",
              markup=False, highlight=False)


def print_file_pass(report: FileReport) -> None:
    """With -v: one line per file a --watch pass read (what this pass found: a grown file's new part),
    and its failures and conflicting copies; nothing for a file imported before and unchanged."""
    if report.status != "unchanged":
        whole = report.file_totals()["hands_found"]
        out.print(f"{escape(printable(report.path))}: {report.hands_found} hands found = {report.stored} stored + "
                  f"{report.duplicates} duplicates + {report.skipped} skipped + {report.failed} failed"
                  f" + {report.incomplete} incomplete" + (f" ({whole} in the file)" if report.status == "grown" else ""),
                  highlight=False)
    if report.changed:  # (cut or rewritten in place: read again)
        out.print(f"  [yellow]{escape(report.changed)}[/yellow]", highlight=False)
    for failed in report.failures:
        out.print(printable(f"  [red]failed[/red] {escape(report.path)}:{failed.line}: {escape(failed.reason)}"),
                  highlight=False)
    for conflict in report.conflicts:
        out.print(printable(f"  [red]conflicting copy[/red] {escape(conflict.site)} hand {escape(conflict.hand_id)}: "
                            f"{escape(conflict.second)} differs from {escape(conflict.first)}"), highlight=False)


def run_watch(paths: list[str], db: str | None, options: ImportOptions, interval: float, from_config: bool) -> None:
    """Watch until Ctrl-C: one status line (:mod:`hhtool.cli.watch_view`), the problems above it; a
    watched path that does not exist is warned about (a typo: the close names beside it)."""
    from hhtool.cli.output import terminal_width
    from hhtool.cli.watch_view import WatchStatus

    status = WatchStatus(width=terminal_width)
    where = " (a watch entry of the config file)" if from_config else ""

    def heard(report: FileReport) -> None:
        if status.verbose:
            print_file_pass(report)
        else:
            status.file_problems(report)
        status.heard(report)

    def missing(what: str) -> None:
        err.print(f"[yellow]warning:[/yellow] {escape(printable(what))}{where}; watched in case it appears",
                  highlight=False)

    try:
        try:
            summary = watch_paths(
                database(db), paths, options, interval, heard, on_problem=status.unreadable_file,
                on_watching=lambda: info(f"watching {escape(printable(', '.join(paths)))} every {interval:g} s; Ctrl-C stops",
                                         stderr=True),
                on_missing=missing)
        except UsageError as error:
            if from_config and str(error).startswith("nothing to watch"):
                raise UsageError(f"{error}: fix the watch entries of the config file (`hhtool config`)") from None
            raise
    finally:
        status.end()
    for report in summary.latest.values():  # a hand still cut off when the watch ends never completed
        for hand in report.incomplete_hands:
            out.print(printable(f"  [yellow]incomplete[/yellow] {escape(report.path)}:{hand.line}: "
                                f"{escape(hand.reason)} (kept in import_errors)"), highlight=False)
    sums = summary.totals()  # the last line: what the whole watch did, its failed hands included
    out.print(f"stopped: {sums['hands_found']} hands found = {sums['stored']} stored + {sums['duplicates']} duplicates"
              f" + {sums['skipped']} skipped + {sums['failed']} failed + {sums['incomplete']} incomplete",
              highlight=False)


def register(app: typer.Typer) -> None:
    @app.command("import")
    def import_command(
        paths: list[str] | None = typer.Argument(None, help="Files, folders (searched recursively) or glob patterns "
                                                 "(default: the watch folders of the config file: `hhtool config`)."),
        db: str | None = DB_OPTION,
        site: str | None = SITE_OPTION,
        rules: str | None = RULES_OPTION,
        output_format: ImportFormat = typer.Option(ImportFormat.text, "--format", help=FORMAT_HELP),
        watch_mode: bool = typer.Option(False, "--watch", help="Keep polling the paths for new and growing files; Ctrl-C stops."),
        interval: float = typer.Option(2.0, "--interval", min=0.05, help="Seconds between polls in --watch mode."),
        jobs: int = typer.Option(os.cpu_count() or 1, "--jobs", "-j", min=1, help="Processes for parsing and replay."),
        dask: str | None = typer.Option(None, "--dask", metavar="ADDRESS",
                                        help="Run on a Dask cluster: a scheduler address, or 'local' for a LocalCluster."),
        structures: str | None = STRUCTURES_OPTION,
    ) -> None:
        """Import hand histories into the database; each hand is replayed under its rule profile.

        On a terminal, stderr shows the hands found so far, hands per second, files done and the time
        left (an estimate from the bytes read so far); $HHTOOL_PROGRESS=lines prints that as a line a
        second even on a pipe, =off never. Files that are not hand histories (no line starts a hand of
        any site) are skipped and said so, never failed.

        Exit code 0 when nothing failed, 1 when some hands failed (all others stored) or a file read
        with --site holds no hand of it but looks like another site's history (named), 2 on usage errors,
        3 when the store cannot be read or written, 130 on Ctrl-C (what was stored stays: the same
        command again resumes where it stopped). --watch shows one status line (time, hands stored today,
        last file, problems; -v: each file's counts instead) and ends only with Ctrl-C: 130, its last
        line the hands it found, failed ones included.
        """
        options = ImportOptions(site=site, rules=rules, jobs=jobs, dask=dask, structures=desk_structures(structures))
        from_config = not paths
        paths = watch_targets(paths or [])
        if watch_mode:
            run_watch(paths, db, options, interval, from_config)
            raise typer.Exit(EXIT_INTERRUPTED)  # a watch ends only by Ctrl-C
        progress = ImportProgressView()
        try:
            report = import_paths(database(db), paths, options, progress)
        except (Exception, KeyboardInterrupt) as error:
            if failure(error)[0] != EXIT_INTERRUPTED:
                raise
            progress.done()
            tell_interrupted(progress, stored_since_open())
            raise typer.Exit(EXIT_INTERRUPTED) from None
        if output_format is ImportFormat.json:
            sys.stdout.write(json.dumps(report.as_json(), indent=2) + "\n")
        else:
            print_text_summary(report)
        # exit 1 only for real failures: a truncated last hand is reported but expected of live files
        # (a --site that found nothing in a file of another site did nothing asked of it: 1 as well)
        raise typer.Exit(EXIT_FINDINGS if report.failed or report.wrong_site else EXIT_OK)


__all__ = ["register"]
