"""`hhtool import PATH…`"""

from __future__ import annotations

import json
import os
import sys
from enum import StrEnum
from typing import TYPE_CHECKING

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeRemainingColumn

from hhtool.cli.common import (
    DB_OPTION,
    EXIT_FINDINGS,
    EXIT_OK,
    Verbosity,
    choices,
    database,
    err,
    info,
    live_progress,
    out,
    rules_option,
    site_option,
    verbosity,
)
from hhtool.cli.output import print_text_summary
from hhtool.service.config import watch_targets
from hhtool.service.importing import ImportOptions, import_paths, watch_paths

if TYPE_CHECKING:
    from hhtool.service.importing import FileReport


class ImportFormat(StrEnum):
    text = "text"
    json = "json"


SITE_OPTION = site_option("Read every file as this site instead of detecting it from the content")
RULES_OPTION = rules_option("Rule profile for the replay (default: each site's own)")
FORMAT_HELP = f"{choices(ImportFormat)}."


class ProgressBar:
    """A bar on a terminal's stderr while files are imported (see :func:`live_progress` for when it is not)."""

    def __init__(self) -> None:
        self.bar = Progress(TextColumn("importing"), BarColumn(), MofNCompleteColumn(), TextColumn("files"),
                            TimeRemainingColumn(), console=err, transient=True, disable=not live_progress())
        self.task: TaskID | None = None

    def start(self, files: int) -> None:
        self.bar.start()
        self.task = self.bar.add_task("import", total=files)

    def advance(self, report: FileReport) -> None:
        if self.task is not None:
            self.bar.advance(self.task)

    def done(self) -> None:
        self.bar.stop()


def print_file_pass(report: FileReport) -> None:
    """One line per file a --watch pass read (what this pass found: a grown file's new part), and its
    failures and conflicting copies; nothing for a file imported before and unchanged."""
    if report.status != "unchanged" and verbosity() is not Verbosity.QUIET:
        whole = report.file_totals()["hands_found"]
        out.print(f"{escape(report.path)}: {report.hands_found} hands found = {report.stored} stored + "
                  f"{report.duplicates} duplicates + {report.skipped} skipped + {report.failed} failed"
                  f" + {report.incomplete} incomplete" + (f" ({whole} in the file)" if report.status == "grown" else ""),
                  highlight=False)
    for failure in report.failures:
        out.print(f"  [red]failed[/red] {escape(report.path)}:{failure.line}: {escape(failure.reason)}", highlight=False)
    for conflict in report.conflicts:
        out.print(f"  [red]conflicting copy[/red] {escape(conflict.site)} hand {escape(conflict.hand_id)}: "
                  f"{escape(conflict.second)} "
                  f"differs from {escape(conflict.first)}", highlight=False)


def run_watch(paths: list[str], db: str | None, options: ImportOptions, interval: float) -> None:
    summary = watch_paths(
        database(db), paths, options, interval, print_file_pass,
        on_problem=lambda problem: err.print(f"[red]unreadable[/red] {escape(problem)}"),
        on_watching=lambda: info(f"watching {escape(', '.join(paths))} every {interval:g} s; Ctrl-C stops", stderr=True))
    sums = summary.totals()
    out.print(f"stopped: {sums['hands_found']} hands found = {sums['stored']} stored + {sums['duplicates']} duplicates"
              f" + {sums['skipped']} skipped + {sums['failed']} failed + {sums['incomplete']} incomplete")
    for report in summary.latest.values():  # a hand still cut off when the watch ends never completed
        for hand in report.incomplete_hands:
            out.print(f"  [yellow]incomplete[/yellow] {escape(report.path)}:{hand.line}: {escape(hand.reason)} "
                      "(kept in import_errors)",
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
    ) -> None:
        """Import hand histories into the database; each hand is replayed under its rule profile.

        Exit code 0 when nothing failed, 1 when some hands failed (all others stored), 2 on usage errors,
        3 when the store cannot be read or written, 130 on Ctrl-C (a re-run resumes).
        """
        options = ImportOptions(site=site, rules=rules, jobs=jobs, dask=dask)
        paths = watch_targets(paths or [])
        if watch_mode:
            run_watch(paths, db, options, interval)
            raise typer.Exit(EXIT_OK)
        report = import_paths(database(db), paths, options, ProgressBar())
        if output_format is ImportFormat.json:
            sys.stdout.write(json.dumps(report.as_json(), indent=2) + "\n")
        else:
            print_text_summary(report)
        # exit 1 only for real failures: a truncated last hand is reported but expected of live files
        raise typer.Exit(EXIT_FINDINGS if report.failed else EXIT_OK)


__all__ = ["register"]
