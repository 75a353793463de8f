"""Importing hand histories: the paths asked for, the options checked before any work, and the one
way into the one importer (:func:`_execute` runs :func:`hhtool.ingest.loader.import_sources` with local
worker processes or a Dask cluster as its executor; `--watch` runs it through :mod:`hhtool.ingest.watch`),
shared by `import`, `import --watch` and `audit PATH…`.

The pipeline (Lark grammars, the replay engine, the process pool) is imported where it is used, so
that other commands (stats, sql, show) do not pay for loading it at start-up.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from hhtool.service.errors import UsageError
from hhtool.service.stores import IMPORT_MEMORY_ENV, Database

if TYPE_CHECKING:
    from hhtool.ingest.accounting import FileReport, ImportProgress, ImportReport
    from hhtool.ingest.sources import Collected, Source
    from hhtool.replay.user_structures import UserStructures
    from hhtool.store import Store

#: DuckDB's buffer pool during an import (its default, 80 % of the machine, lets RSS grow with the store);
#: $HHTOOL_IMPORT_MEMORY overrides it
DEFAULT_IMPORT_MEMORY = "512MiB"


@dataclass(frozen=True)
class ImportOptions:
    """How to import: the site forced (None: detected), the profile forced (None: each site's own),
    worker processes, and a Dask scheduler address ("local": a LocalCluster on this machine)."""

    site: str | None = None
    rules: str | None = None
    jobs: int = 1
    dask: str | None = None
    structures: UserStructures | None = None  # the user's structures file, read (see hhtool.service.config.desk_structures)


class Progress(Protocol):
    """Hears how many files an import reads, then how far it is after each chunk of hands and each
    file (:class:`ImportProgress`: hands found, files done, bytes read of all), then that the files
    are read (the facts of the hands left without are stored next)."""

    def start(self, files: int) -> None: ...

    def update(self, progress: ImportProgress) -> None: ...

    def done(self) -> None: ...


def check_rules(rules: str | None) -> None:
    """UsageError before any work when --rules names no profile or a bad TOML file."""
    if rules is None:
        return
    from hhtool.replay import load_profile

    try:
        load_profile(rules)
    except (ValueError, TypeError, OSError) as error:
        raise UsageError(f"rule profile {rules!r}: {error}") from error


def collect_paths(paths: Sequence[str], site: str | None, warn: Callable[[str], None] | None = None) -> Collected:
    """Expand the arguments (files, folders, globs); UsageError when the site is unknown or nothing
    matched. ``warn`` hears of each argument that matched nothing."""
    from hhtool.ingest.sources import collect_sources
    from hhtool.sites import site_names

    if site and site.lower() not in site_names():
        raise UsageError(f"unknown site {site!r}; known sites: {', '.join(site_names())}")
    collected = collect_sources(list(paths))
    for argument in collected.unmatched:
        if warn is not None:
            warn(f"{argument}: no such file, or no hand-history files in it")
    if not collected.sources and not collected.problems and not collected.ignored:
        raise UsageError("nothing to import")
    return collected


def check_options(options: ImportOptions) -> None:
    check_rules(options.rules)
    if options.dask:
        from hhtool.ingest.executors import DaskUnavailable, check_dask_address

        try:
            check_dask_address(options.dask)
        except DaskUnavailable as error:
            raise UsageError(str(error)) from None


def import_paths(database: Database, paths: Sequence[str], options: ImportOptions,
                 progress: Progress | None = None) -> ImportReport:
    """`hhtool import PATH…`: every hand found stored, duplicate, skipped or failed, and the report facts
    of the new hands stored; the report accounts for each."""
    check_options(options)
    collected = collect_paths(paths, options.site, database.warning)
    with database.open() as store:
        return import_into(store, collected, options, progress)


def import_into(store: Store, collected: Collected, options: ImportOptions, progress: Progress | None = None) -> ImportReport:
    """Import the collected sources into an open store, then store the report facts of the new hands."""
    try:
        store.limit_memory(os.environ.get(IMPORT_MEMORY_ENV, DEFAULT_IMPORT_MEMORY))
    except ValueError as error:
        raise UsageError(f"${IMPORT_MEMORY_ENV}: {error}") from error
    store.share_between_batches()  # readers open the store while files are read and parsed
    report = _execute(store, collected.sources, options, progress)
    report.unreadable[:0] = collected.problems
    report.ignored = collected.ignored
    return report


def _execute(store: Store, sources: list[Source], options: ImportOptions, progress: Progress | None) -> ImportReport:
    """Run the one importer over ``sources``, its chunks on a Dask cluster when one is named, else on
    local worker processes; the stats facts refreshed alongside and at the end."""
    from hhtool.ingest.executors import DaskExecutor, DaskUnavailable, LocalExecutor
    from hhtool.ingest.loader import import_sources

    executor = DaskExecutor(options.dask) if options.dask else LocalExecutor(options.jobs)
    try:
        if progress is None:
            return import_sources(store, sources, site=options.site, rules=options.rules, executor=executor,
                                  desk=options.structures)
        progress.start(len(sources))
        try:
            return import_sources(store, sources, site=options.site, rules=options.rules, executor=executor,
                                  on_progress=progress.update, desk=options.structures)
        finally:
            progress.done()
    except DaskUnavailable as error:  # found on connecting, before any chunk was run
        raise UsageError(str(error)) from None


@dataclass
class WatchSummary:
    """Each file's accounting after its latest pass, and what this watch did: each file's totals now
    less what they were before its first pass (an unchanged file adds nothing; a grown one its new part)."""

    latest: dict[str, FileReport] = field(default_factory=dict)
    before: dict[str, dict[str, int]] = field(default_factory=dict)

    def heard(self, report: FileReport) -> None:
        from hhtool.ingest.accounting import COUNTS

        if report.path not in self.before:  # the file's totals less what this pass read of it
            totals = report.file_totals()
            self.before[report.path] = {name: totals[name] - getattr(report, name) for name in COUNTS}
        self.latest[report.path] = report

    def totals(self) -> dict[str, int]:
        from hhtool.ingest.accounting import COUNTS

        return {name: sum(report.file_totals()[name] - self.before[path][name] for path, report in self.latest.items())
                for name in COUNTS}


def watch_paths(database: Database, paths: Sequence[str], options: ImportOptions, interval: float,
                on_file: Callable[[FileReport], None], on_problem: Callable[[str], None],
                on_watching: Callable[[], None] | None = None,
                on_missing: Callable[[str], None] | None = None) -> WatchSummary:
    """`hhtool import --watch`: import new and growing files until Ctrl-C; the facts of new hands are
    stored at once, so `stats` shows them. A path that does not exist is told to ``on_missing`` (with
    the close names beside it: a typo) and watched in case it appears; UsageError when none exists
    (nothing is opened, no store made)."""
    from hhtool.ingest.watch import missing_paths, watch
    from hhtool.sites import site_names

    check_rules(options.rules)
    if options.site and options.site.lower() not in site_names():
        raise UsageError(f"unknown site {options.site!r}; known sites: {', '.join(site_names())}")
    missing = missing_paths(paths)
    if paths and len(missing) == len(paths):
        raise UsageError("nothing to watch: " + "; ".join(str(path) for path in missing))
    for path in missing:
        if on_missing is not None:
            on_missing(str(path))
    stop = threading.Event()
    summary = WatchSummary()

    def heard(report: FileReport) -> None:
        summary.heard(report)
        on_file(report)

    with database.open() as store:
        store.share_between_batches()  # given back now: held again only while a pass writes
        if on_watching is not None:
            on_watching()
        try:  # (the facts of new hands are refreshed at every write: they arrive a few at a time)
            watch(store, list(paths), interval, stop, heard, on_problem, site=options.site, rules=options.rules,
                  on_locked=database.warning, desk=options.structures)
        except KeyboardInterrupt:
            stop.set()
    return summary


# (FileReport, ImportProgress and ImportReport, which the command line renders, are named here for its type hints.)
__all__ = ["DEFAULT_IMPORT_MEMORY", "ImportOptions", "ImportProgress", "Progress", "WatchSummary", "check_rules", "collect_paths",
           "import_into", "import_paths", "watch_paths"]
