"""Watch mode: import new and growing files while a poker client writes them.

Polls the paths; a file whose size or modification time changed is imported again (the
importer skips the part it already has). Every pass accounts for every hand exactly as
``hhtool import`` does: a half-written last hand is *incomplete* (kept raw in import_errors) until
the file grows, when it is read again and its incomplete row replaced by what it became.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from difflib import get_close_matches
from pathlib import Path

from hhtool.ingest.accounting import FileReport
from hhtool.ingest.loader import import_sources
from hhtool.ingest.sources import collect_sources
from hhtool.ingest.stopping import ImportInterrupted
from hhtool.replay.user_structures import UserStructures
from hhtool.store import Store, StoreLocked

_MAGIC = re.compile(r"[*?\[]")


@dataclass(frozen=True)
class Missing:
    """A watched path that does not exist: the first part of it missing (the folder in which it
    would be), and the names beside it that it is close to, a typo away."""

    argument: str
    missing: str  # the first missing part, as a path
    close: tuple[str, ...] = ()  # paths beside it whose name is close to the missing part's

    def __str__(self) -> str:
        hint = f" (did you mean {' or '.join(self.close)}?)" if self.close else ""
        where = "" if self.missing == self.argument else f": {self.missing} does not exist"
        return f"{self.argument}{where or ' does not exist'}{hint}"


def missing_paths(arguments: Sequence[str]) -> list[Missing]:
    """The watched paths that do not exist (a glob pattern: its fixed folder), each with its first
    missing part and the close names beside it; a path that exists, or a pattern matching nothing
    in a folder that does, is not missing (files may come).

    >>> import tempfile, os
    >>> home = tempfile.mkdtemp(); os.mkdir(os.path.join(home, "HandHistory"))
    >>> [str(m).replace(home, "~") for m in missing_paths([home + "/HandHistroy/Hero", home + "/HandHistory/*.txt"])]
    ['~/HandHistroy/Hero: ~/HandHistroy does not exist (did you mean ~/HandHistory?)']
    """
    found: list[Missing] = []
    for argument in arguments:
        path = Path(argument).expanduser()
        parts = path.parts
        fixed = next((index for index, part in enumerate(parts) if _MAGIC.search(part)), len(parts))
        base = Path(*parts[:fixed]) if fixed else Path(".")
        if base.exists():
            continue
        existing, missing_part = base, base
        while not existing.exists() and existing != existing.parent:
            missing_part, existing = existing, existing.parent
        try:
            beside = [entry.name for entry in existing.iterdir() if entry.is_dir() or entry.is_file()]
        except OSError:
            beside = []
        close = tuple(str(existing / name) for name in get_close_matches(missing_part.name, beside, n=2, cutoff=0.7))
        found.append(Missing(argument, str(missing_part) if missing_part != path else argument, close))
    return found


def watch(store: Store, arguments: Sequence[str], interval: float, stop: threading.Event,
          on_file: Callable[[FileReport], None], on_problem: Callable[[str], None], *, site: str | None = None,
          rules: str | None = None, replay: bool = True, max_passes: int | None = None,
          on_locked: Callable[[str], None] | None = None, desk: UserStructures | None = None) -> int:
    """Poll until ``stop`` is set (or ``max_passes`` passes ran); returns the passes made. Each
    changed file is imported as ``hhtool import`` would (``site``, ``rules``, ``replay``). The store
    is shared between batches: between polls this holds nothing, and readers open the file; a pass
    that cannot take it back in time (another process kept it) is told to ``on_locked`` and the
    file is read again at the next poll (what was written of it stays: it resumes)."""
    store.share_between_batches()
    seen: dict[str, tuple[int, int]] = {}
    reported: set[str] = set()
    passes = 0
    while not stop.is_set() and (max_passes is None or passes < max_passes):
        collected = collect_sources(arguments)
        for problem in collected.problems:
            if problem not in reported:
                reported.add(problem)
                on_problem(problem)
        for source in collected.sources:
            try:
                status = source.fs_path.stat()
            except OSError:
                continue  # deleted between listing and reading: nothing to import
            signature = (status.st_size, status.st_mtime_ns)
            if seen.get(source.name) == signature:
                continue
            # streamed like any import, memory flat; the facts of new hands are stored with them, so
            # stats show them at once
            try:
                with store.batch():  # (given back at the end of the file's import, whatever happened)
                    imported = import_sources(store, [source], site=site, rules=rules, replay=replay, desk=desk)
            except ImportInterrupted as stopped:  # (Ctrl-C: the hands it wrote first are this watch's too)
                for report in stopped.report.files:
                    on_file(report)
                raise
            except StoreLocked as error:
                (on_locked or on_problem)(f"{source.name}: {error}; it is read again at the next poll")
                continue
            for problem in imported.unreadable:
                on_problem(problem)
            if imported.unreadable:
                continue
            seen[source.name] = signature
            for report in imported.files:
                on_file(report)
        passes += 1
        if max_passes is None or passes < max_passes:
            stop.wait(interval)
    return passes
