"""`hhtool serve`: the store held by the web server for as long as it runs, and the auto-import inside it.

DuckDB shares one database instance between every connection a process opens to the same file with
the same settings, and refuses a second instance with other settings (a reader beside a writer). The
server therefore keeps one connection open for its whole life (:class:`HeldStore`):

* without ``--watch``, a read-only one: every page opens the store read-only, as the CLI's readers do,
  and other readers (the CLI) go on reading the same file; a writer elsewhere waits until it stops;
* with ``--watch``, a writable one: the import thread (:func:`start_watch`, the same
  :func:`hhtool.ingest.watch.watch` as `import --watch`) and the pages share the one instance, whose
  transactions keep each reader's view whole, so a page never waits for a lock; only what pages
  call (the reading service functions) runs on their connections.

:class:`ServedDatabase` is the :class:`Database` the pages hand to the service: its ``open`` gives a
connection of the held instance. A note or tag written from a page without ``--watch`` lets the
read-only instance go for that moment (:meth:`HeldStore.writing`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hhtool.service.stores import Database, open_store

if TYPE_CHECKING:
    from hhtool.ingest.accounting import FileReport
    from hhtool.replay.user_structures import UserStructures
    from hhtool.store import Store

#: seconds between two polls of the watched folders
WATCH_INTERVAL = 1.0


@dataclass(frozen=True)
class ServedDatabase(Database):
    """The store as the pages open it: read-only, or (``writable``: the server imports) a connection
    of the writable instance the server holds."""

    writable: bool = False

    def open(self, read_only: bool = False, config: dict[str, Any] | None = None) -> Store:
        return open_store(self, read_only and not self.writable, config)


@dataclass
class WatchState:
    """What the import inside the server did: the files read, the hands stored, the last problem."""

    files: int = 0
    stored: int = 0
    problems: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def heard(self, report: FileReport) -> None:
        with self.lock:
            self.files += 1
            self.stored += int(getattr(report, "stored", 0))

    def problem(self, text: str) -> None:
        with self.lock:
            self.problems = [*self.problems[-19:], text]


class HeldStore:
    """The connection the server keeps open while it runs (see the module's text); ``close`` ends
    the import thread, if any, then lets the file go."""

    def __init__(self, database: Database, watch: Sequence[str] = (), interval: float = WATCH_INTERVAL,
                 on_problem: Callable[[str], None] | None = None, desk: UserStructures | None = None) -> None:
        from hhtool.service.stats_cache import report_store

        self.watched = tuple(watch)
        self.desk = desk  # the user's structures file: the pages judge with it, and --watch imports with it
        self.database = ServedDatabase(option=database.path, warn=database.warn, writable=bool(self.watched))
        self.state = WatchState()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._on_problem = on_problem
        self._turns = threading.Condition()
        self._readers = 0
        self._writing = False
        if self.watched:
            self._anchor = open_store(self.database, read_only=False)
        else:
            with report_store(Database(option=database.path)):  # the facts of hands left without, stored once
                pass
            self._anchor = open_store(self.database, read_only=True)
        if self.watched:
            self._thread = threading.Thread(target=self._watch, args=(interval,), name="hhtool-serve-watch", daemon=True)
            self._thread.start()

    @property
    def path(self) -> str:
        return self._anchor.path

    def _watch(self, interval: float) -> None:
        from hhtool.ingest.watch import watch

        def problem(text: str) -> None:
            self.state.problem(text)
            if self._on_problem is not None:
                self._on_problem(text)

        try:
            with self.database.open() as store:
                watch(store, list(self.watched), interval, self._stop, self.state.heard, problem, desk=self.desk)
        except Exception as error:  # the pages go on: the import's failure is shown, not fatal
            problem(f"the import stopped: {error}")

    @contextmanager
    def reading(self) -> Iterator[ServedDatabase]:
        """The store for a page's reads (any number at once; none while a note is written)."""
        with self._turns:
            while self._writing:
                self._turns.wait()
            self._readers += 1
        try:
            yield self.database
        finally:
            with self._turns:
                self._readers -= 1
                self._turns.notify_all()

    @contextmanager
    def writing(self) -> Iterator[ServedDatabase]:
        """The store for a note or tag written from a page. Importing, the server holds the writable
        instance and writes through it; else the read-only connection is let go for the write (pages
        wait that moment: no page has a connection open then) and opened again after it."""
        if self.watched:
            yield self.database
            return
        with self._turns:
            while self._writing or self._readers:
                self._turns.wait()
            self._writing = True
        try:
            self._anchor.close()
            try:
                yield self.database
            finally:
                self._anchor = open_store(self.database, read_only=True)
        finally:
            with self._turns:
                self._writing = False
                self._turns.notify_all()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=30)
        self._anchor.close()


def watched_folders(given: Sequence[str] | None, watch_flag: bool) -> tuple[str, ...]:
    """The folders the server imports from: those given to ``--watch``, or (``--watch`` alone) the
    config file's ``watch``; none without ``--watch``. UsageError when ``--watch`` names none and
    the config has none (as `import` says it)."""
    if not watch_flag:
        return ()
    if given:
        return tuple(given)
    from hhtool.service.config import watch_targets

    return tuple(watch_targets([]))


def latest_hand(database: Database) -> dict[str, Any]:
    """A cheap mark of the store's newest hand, which an open page polls: the hands stored and the
    highest hand key (both change when the import stores a hand)."""
    from hhtool.store.known import newest_hand

    with database.open(read_only=True) as store:
        count, key = newest_hand(store)
    return {"hands": count, "key": key}


__all__ = ["WATCH_INTERVAL", "HeldStore", "ServedDatabase", "WatchState", "latest_hand", "watched_folders"]
