"""Watch mode: import new and growing files while a poker client writes them.

Polls the paths; a file whose size or modification time changed is imported again (the
importer skips the part it already has). Every pass accounts for every hand exactly as
``hhtool import`` does: a half-written last hand is *incomplete* (kept raw in import_errors) until
the file grows, when it is read again and its incomplete row replaced by what it became.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

from hhtool.importer import FileReport, import_sources
from hhtool.sources import collect_sources
from hhtool.store import Store, StoreLocked


def watch(store: Store, arguments: Sequence[str], interval: float, stop: threading.Event,
          on_file: Callable[[FileReport], None], on_problem: Callable[[str], None], *, site: str | None = None,
          rules: str | None = None, replay: bool = True, max_passes: int | None = None,
          on_locked: Callable[[str], None] | None = None) -> int:
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
                imported = import_sources(store, [source], site=site, rules=rules, replay=replay)
            except StoreLocked as error:
                (on_locked or on_problem)(f"{source.name}: {error}; it is read again at the next poll")
                continue
            finally:
                store.release()
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
