"""`hhtool import PATH…`"""

from __future__ import annotations

import json
import os
import sys
import threading
from enum import StrEnum
from typing import TYPE_CHECKING

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from hhtool.cli.common import (
    DB_OPTION,
    EXIT_ERROR,
    EXIT_FINDINGS,
    EXIT_OK,
    IMPORT_MEMORY_ENV,
    err,
    open_store,
    out,
    stderr_is_terminal,
)

# The pipeline (Lark grammars, the replay engine, the process pool) is imported where it is used,
# so that other commands (stats, sql, show) do not pay for loading it at start-up.
if TYPE_CHECKING:
    from hhtool.importer import FileReport, ImportReport
    from hhtool.sources import Collected
    from hhtool.store import Store

SHOWN_FAILURES = 5
#: DuckDB's buffer pool during an import (its default, 80 % of the machine, lets RSS grow with the store);
#: $HHTOOL_IMPORT_MEMORY (common.IMPORT_MEMORY_ENV) overrides it
DEFAULT_IMPORT_MEMORY = "512MiB"


class ImportFormat(StrEnum):
    text = "text"
    json = "json"


def check_rules(rules: str | None) -> None:
    """Exit 2 before any work when --rules names no profile or a bad TOML file."""
    if rules is None:
        return
    from hhtool.replay import load_profile

    try:
        load_profile(rules)
    except (ValueError, TypeError, OSError) as error:
        err.print(f"[red]error:[/red] rule profile {escape(repr(rules))}: {escape(str(error))}")
        raise typer.Exit(EXIT_ERROR) from error


def resolve_import_paths(paths: list[str], site: str | None) -> Collected:
    """Expand the arguments; exit 2 (usage error) when the site is unknown or nothing matched."""
    from hhtool.sites import site_names
    from hhtool.sources import collect_sources

    if site and site.lower() not in site_names():
        err.print(f"[red]error:[/red] unknown site {escape(repr(site))}; known sites: {', '.join(site_names())}")
        raise typer.Exit(EXIT_ERROR)
    collected = collect_sources(paths)
    for argument in collected.unmatched:
        err.print(f"[yellow]warning:[/yellow] {escape(argument)}: no such file, or no hand-history files in it")
    if not collected.sources and not collected.problems:
        err.print("[red]error:[/red] nothing to import")
        raise typer.Exit(EXIT_ERROR)
    return collected


def run_import(store: Store, collected: Collected, site: str | None, rules: str | None, jobs: int = 1,
               dask: str | None = None) -> ImportReport:
    """Import sources into an open store (shared by `import` and `audit PATH…`)."""
    from hhtool.executors import DaskExecutor, LocalExecutor
    from hhtool.importer import import_sources

    try:
        store.limit_memory(os.environ.get(IMPORT_MEMORY_ENV, DEFAULT_IMPORT_MEMORY))
    except ValueError as error:
        err.print(f"[red]error:[/red] ${IMPORT_MEMORY_ENV}: {error}")
        raise typer.Exit(EXIT_ERROR) from error
    executor = DaskExecutor(dask) if dask else LocalExecutor(jobs)
    with Progress(TextColumn("importing"), BarColumn(), MofNCompleteColumn(), TextColumn("files"),
                  TimeRemainingColumn(), console=err, disable=not stderr_is_terminal(), transient=True) as progress:
        task = progress.add_task("import", total=len(collected.sources))
        report = import_sources(store, collected.sources, site=site, rules=rules, executor=executor,
                                on_file=lambda _: progress.advance(task))
    report.unreadable[:0] = collected.problems
    return report


def print_text_summary(report: ImportReport) -> None:
    found, stored, dup = report.total("hands_found"), report.total("stored"), report.total("duplicates")
    skipped, failed = report.total("skipped"), report.failed
    incomplete = report.total("incomplete")
    conflicts = report.conflicts
    out.print(
        f"{len(report.files)} files: {found} hands found = {stored} stored + {dup} duplicates"
        + (f" ({len(conflicts)} conflicting copies)" if conflicts else "")
        + f" + {skipped} skipped (other games) + {report.total('failed')} failed"
        + (f" + {incomplete} incomplete (a truncated last hand, kept in import_errors)" if incomplete else "")
    )
    shown = 0
    for file_report in report.files:
        for failure in file_report.failures:
            if shown < SHOWN_FAILURES:
                out.print(f"  [red]failed[/red] {escape(file_report.path)}:{failure.line}: {escape(failure.reason)}",
                          highlight=False)
            shown += 1
    for file_report in report.files:
        for hand in file_report.incomplete_hands:
            out.print(f"  [yellow]incomplete[/yellow] {escape(file_report.path)}:{hand.line}: {escape(hand.reason)}",
                      highlight=False)
    for conflict in conflicts[:SHOWN_FAILURES]:
        out.print(f"  [red]conflicting copy[/red] {escape(conflict.site)} hand {escape(conflict.hand_id)}: "
                  f"{escape(conflict.second)} differs from the stored copy {escape(conflict.first)} "
                  f"({escape(conflict.diff[:300])}); `hhtool audit --explain "
                  f"{escape(conflict.hand_id)}` shows both", highlight=False)
    if len(conflicts) > SHOWN_FAILURES:
        out.print(f"  … and {len(conflicts) - SHOWN_FAILURES} more conflicting copies (`hhtool audit --code CONFLICTING_COPY`)")
    for problem in report.unreadable:
        out.print(f"  [red]unreadable[/red] {escape(problem)}", highlight=False)
    if shown > SHOWN_FAILURES:
        out.print(f"  … and {shown - SHOWN_FAILURES} more (see the import_errors table, or --format json)")
    unchanged = [r for r in report.files if r.status == "unchanged"]
    if unchanged:
        out.print(f"{len(unchanged)} files were imported before and read the same way: not read again. To read a file "
                  "again another way, import it with --site SITE (or without --site, to detect the site).")
    if failed:
        out.print(f"[red]{failed} failed[/red]; every other hand was stored.")


def run_watch(paths: list[str], db: str | None, site: str | None, rules: str | None, interval: float) -> None:
    from hhtool.importer import COUNTS
    from hhtool.watch import watch

    stop = threading.Event()
    latest: dict[str, FileReport] = {}  # each file's accounting after its latest pass

    def on_file(report: FileReport) -> None:
        latest[report.path] = report
        totals = report.file_totals()
        if report.status != "unchanged":
            out.print(f"{escape(report.path)}: {totals['hands_found']} hands found = {totals['stored']} stored + "
                      f"{totals['duplicates']} duplicates + {totals['skipped']} skipped + {totals['failed']} failed"
                      f" + {totals['incomplete']} incomplete", highlight=False)
        for failure in report.failures:
            out.print(f"  [red]failed[/red] {escape(report.path)}:{failure.line}: {escape(failure.reason)}", highlight=False)
        for conflict in report.conflicts:
            out.print(f"  [red]conflicting copy[/red] {escape(conflict.site)} hand {escape(conflict.hand_id)}: "
                      f"{escape(conflict.second)} "
                      f"differs from {escape(conflict.first)}", highlight=False)

    with open_store(db) as store:
        err.print(f"watching {escape(', '.join(paths))} every {interval:g} s; Ctrl-C stops")
        try:
            watch(store, paths, interval, stop, on_file, lambda problem: err.print(f"[red]unreadable[/red] {escape(problem)}"),
                  site=site, rules=rules)
        except KeyboardInterrupt:
            stop.set()
    sums = {name: sum(report.file_totals()[name] for report in latest.values()) for name in COUNTS}
    out.print(f"stopped: {sums['hands_found']} hands found = {sums['stored']} stored + {sums['duplicates']} duplicates"
              f" + {sums['skipped']} skipped + {sums['failed']} failed + {sums['incomplete']} incomplete")
    for report in latest.values():  # a hand still cut off when the watch ends never completed
        for hand in report.incomplete_hands:
            out.print(f"  [yellow]incomplete[/yellow] {escape(report.path)}:{hand.line}: {escape(hand.reason)} "
                      "(kept in import_errors)",
                      highlight=False)


def register(app: typer.Typer) -> None:
    @app.command("import")
    def import_command(
        paths: list[str] = typer.Argument(..., help="Files, folders (searched recursively) or glob patterns."),
        db: str | None = DB_OPTION,
        site: str | None = typer.Option(None, "--site", help="Force the site instead of detecting it from the content."),
        rules: str | None = typer.Option(
            None, "--rules", help="Rule profile name or TOML file for the replay (default: each site's own)."
        ),
        output_format: ImportFormat = typer.Option(ImportFormat.text, "--format", help="text or json."),
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
        check_rules(rules)
        if watch_mode:
            run_watch(paths, db, site, rules, interval)
            raise typer.Exit(EXIT_OK)
        collected = resolve_import_paths(paths, site)
        with open_store(db) as store:
            report = run_import(store, collected, site, rules, jobs, dask)
        if output_format is ImportFormat.json:
            sys.stdout.write(json.dumps(report.as_json(), indent=2) + "\n")
        else:
            print_text_summary(report)
        # exit 1 only for real failures: a truncated last hand is reported but expected of live files
        raise typer.Exit(EXIT_FINDINGS if report.failed else EXIT_OK)


__all__ = ["register", "resolve_import_paths", "run_import"]
