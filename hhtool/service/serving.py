"""`hhtool serve`: how the web server opens the store, and the auto-import inside it.

DuckDB lets one process write a file and keeps every other process out meanwhile; readers share it.
Within one process every connection to the same file with the same settings shares one database
instance, and a second instance with other settings (a reader beside a writer) is refused. So:

* without ``--watch`` the server holds nothing between requests (:class:`HeldStore`, the name kept
  from when it held the file for its whole life): a page's request opens the store read-only, every
  service call of that request (and of the requests running beside it) shares that instance, and the
  last request to finish closes it, so that an ``hhtool import --watch`` in another terminal takes
  the file between pages. A page that finds the importer writing a batch waits for it (the store's
  own bounded wait, $HHTOOL_LOCK_TIMEOUT) and then reads: it never fails because an import runs.
  Pages that overlap without a pause would keep the file open for ever: once the instance has been
  open :data:`LONG_OPEN` seconds, new requests wait until the running ones finish, the file is let
  go for :data:`GAP` seconds (an importer retries every 0.1 s), and then opened again. An importer
  thus waits at most about the longest page query running when it asked, plus that second;
* with ``--watch`` the server is the importer: it keeps one writable instance while it runs, the
  import thread (:func:`start_watch`, the same :func:`hhtool.ingest.watch.watch` as `import
  --watch`) and the pages share it, and DuckDB's transactions keep each reader's view whole, so a
  page never waits for a lock. Another process cannot open the file meanwhile.

:class:`ServedDatabase` is the :class:`Database` the pages hand to the service: its ``open`` gives a
connection of the instance open for the request. A note or tag written from a page without
``--watch`` waits for the running pages, opens the store for writing for that moment and closes it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hhtool.service.stores import Database, open_store

if TYPE_CHECKING:
    from hhtool.ingest.accounting import FileReport
    from hhtool.replay.user_structures import UserStructures
    from hhtool.store import Store

#: seconds between two polls of the watched folders
WATCH_INTERVAL = 1.0
#: seconds the pages may keep the file open without a pause before new requests wait for a gap
LONG_OPEN = 1.0
#: seconds the file is left free after such a stretch: an importer waiting for it retries every 0.1 s
GAP = 0.3


@dataclass(frozen=True)
class ServedDatabase(Database):
    """The store as the pages open it: read-only, or (``writable``: the server imports) a connection
    of the writable instance the server holds."""

    writable: bool = False

    def open(self, read_only: bool = False, config: dict[str, Any] | None = None) -> Store:
        return open_store(self, read_only and not self.writable, config)


@dataclass(frozen=True)
class Imported:
    """One file the import inside the server read: its name, the hands it stored, when (UTC)."""

    file: str
    hands: int
    at: datetime

    def text(self) -> str:
        """"imported 12 hands from X at 14:02" (the time in this machine's zone)."""
        return f"imported {self.hands:,} hand{'s' if self.hands != 1 else ''} from {self.file} at " \
               f"{self.at.astimezone().strftime('%H:%M')}"


@dataclass
class WatchState:
    """What the import inside the server did: the files read, the hands stored, the last file that
    stored hands, the last problems."""

    files: int = 0
    stored: int = 0
    last: Imported | None = None
    problems: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def heard(self, report: FileReport) -> Imported | None:
        """Count one imported file; the :class:`Imported` it makes when it stored hands, else None."""
        hands = report.stored
        with self.lock:
            self.files += 1
            self.stored += hands
            if hands:
                self.last = Imported(Path(report.path).name or report.path, hands, datetime.now(UTC))
                return self.last
        return None

    def problem(self, text: str) -> None:
        with self.lock:
            self.problems = [*self.problems[-19:], text]

    def status(self) -> dict[str, Any]:
        """What a page's top bar shows: the hands stored since the server started, the last file that
        stored any (and the words for it), the last problem."""
        with self.lock:
            last, problem = self.last, (self.problems[-1] if self.problems else None)
            return {"stored": self.stored, "files": self.files, "problem": problem,
                    "text": "importing: nothing new yet" if last is None else last.text(),
                    "last": None if last is None else {"file": last.file, "hands": last.hands, "at": last.at.isoformat()}}


class HeldStore:
    """The store as the server opens it (see the module's text); ``close`` ends the import thread, if
    any, then lets the file go."""

    def __init__(self, database: Database, watch: Sequence[str] = (), interval: float = WATCH_INTERVAL,
                 on_problem: Callable[[str], None] | None = None,
                 on_import: Callable[[Imported], None] | None = None, desk: UserStructures | None = None) -> None:
        from hhtool.service.stats_cache import report_store

        self.watched = tuple(watch)
        self.desk = desk  # the user's structures file: the pages judge with it, and --watch imports with it
        self.database = ServedDatabase(option=database.path, warn=database.warn, writable=bool(self.watched))
        self.state = WatchState()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._on_problem, self._on_import = on_problem, on_import
        self._turns = threading.Condition()
        self._readers = 0
        self._writing = False
        self._draining = False  # the pages kept the file LONG_OPEN: new ones wait for the gap
        self._opened_at = 0.0
        self._closed_at = 0.0
        self._long = False
        self._anchor: Store | None = None
        if self.watched:
            self._anchor = open_store(self.database, read_only=False)
        else:
            with report_store(Database(option=database.path)):  # the facts of hands left without, stored once
                pass
            # (checked once, then let go: the path, the schema, the file's length)
            open_store(self.database, read_only=True).close()
        self._path = self.database.path
        if self.watched:
            self._thread = threading.Thread(target=self._watch, args=(interval,), name="hhtool-serve-watch", daemon=True)
            self._thread.start()

    @property
    def path(self) -> str:
        return self._path

    @property
    def holds_file(self) -> bool:
        """Whether the server has the file open now (always while it imports; else only during requests)."""
        return self._anchor is not None

    def _watch(self, interval: float) -> None:
        from hhtool.ingest.watch import watch

        def problem(text: str) -> None:
            self.state.problem(text)
            if self._on_problem is not None:
                self._on_problem(text)

        def heard(report: FileReport) -> None:
            imported = self.state.heard(report)
            if imported is not None and self._on_import is not None:
                self._on_import(imported)

        try:
            with self.database.open() as store:
                watch(store, list(self.watched), interval, self._stop, heard, problem, desk=self.desk)
        except Exception as error:  # the pages go on: the import's failure is shown, not fatal
            problem(f"the import stopped: {error}")

    @contextmanager
    def reading(self) -> Iterator[ServedDatabase]:
        """The store for a request's reads (any number at once; none while a note is written)."""
        if self.watched:
            yield self.database
            return
        with self._turns:
            while self._writing or self._draining:
                self._turns.wait()
            if self._anchor is None:
                self._open_for_pages()
            self._readers += 1
            if time.monotonic() - self._opened_at >= LONG_OPEN:
                self._draining = True
        try:
            yield self.database
        finally:
            with self._turns:
                self._readers -= 1
                if not self._readers:
                    self._let_go()
                self._turns.notify_all()

    def _open_for_pages(self) -> None:
        """(Under ``_turns``.) Open the file read-only, after the gap a long stretch earns an importer;
        while an importer writes a batch, wait for it (the store's bounded wait)."""
        if self._long:
            time.sleep(max(0.0, self._closed_at + GAP - time.monotonic()))
        self._anchor = open_store(self.database, read_only=True)
        self._opened_at = time.monotonic()

    def _let_go(self) -> None:
        """(Under ``_turns``, no reader left.) Close the file so that another process can take it."""
        anchor, self._anchor = self._anchor, None
        if anchor is not None:
            anchor.close()
        self._closed_at = time.monotonic()
        self._long = self._draining or self._closed_at - self._opened_at >= LONG_OPEN
        self._draining = False

    @contextmanager
    def writing(self) -> Iterator[ServedDatabase]:
        """The store for a note or tag written from a page. Importing, the server holds the writable
        instance and writes through it; else, once no page reads, the service opens it for writing
        (waiting, as any writer, while an importer writes a batch) and closes it again."""
        if self.watched:
            yield self.database
            return
        with self._turns:
            while self._writing or self._readers:
                self._turns.wait()
            self._writing = True
        try:
            yield self.database
        finally:
            with self._turns:
                self._writing = False
                self._turns.notify_all()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=30)
        with self._turns:
            if self._anchor is not None:
                self._anchor.close()
                self._anchor = None


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


__all__ = ["GAP", "LONG_OPEN", "WATCH_INTERVAL", "HeldStore", "Imported",
           "ServedDatabase", "WatchState", "latest_hand", "watched_folders"]
