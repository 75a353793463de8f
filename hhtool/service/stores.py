"""Opening the store for a command: which file (--db, $HHTOOL_DB, the user's config file,
./hhtool.duckdb: :mod:`.config`), waiting while
another process holds it, upgrading an older schema a reader meets, and the record of what the
command opened, so that a failure can say which file and how many hands were stored before it.

A reader pointed at a file that does not exist gets :class:`~hhtool.store.StoreMissing` ("no
database at … yet: run `hhtool import PATH` first") from the store itself.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from hhtool.service.config import configured_database

if TYPE_CHECKING:  # the store (and DuckDB) load when a command opens one, not with the command line
    from hhtool.store import Store

#: DuckDB's buffer pool during an import, overriding the default below
IMPORT_MEMORY_ENV = "HHTOOL_IMPORT_MEMORY"

#: told once when another process holds the file: (path, who holds it and what it does, e.g. "an import
#: (hhtool import --watch hands, PID 1234) is writing a batch", whether this command reads only)
WaitNotice = Callable[[str, str, bool], None]
#: told before an older store is upgraded: (path, its schema version, this hhtool's); an upgrade may
#: rewrite every stored hand's rows (the int64 hand key did), minutes on a large store
UpgradeNotice = Callable[[str, int, int], None]


@dataclass(frozen=True)
class Database:
    """The store a command works on: the --db value as given (None: $HHTOOL_DB or the default), and
    whom the service tells what the user should know while it works: that it waits for another
    process's lock, a warning, that it stores report facts first (a moment's wait), that it upgrades
    an older store's schema first."""

    option: str | None = None
    on_wait: WaitNotice | None = None
    warn: Callable[[str], None] | None = None
    on_facts_refresh: Callable[[], None] | None = None
    on_upgrade: UpgradeNotice | None = None

    def warning(self, text: str) -> None:
        if self.warn is not None:
            self.warn(text)

    def open(self, read_only: bool = False, config: dict[str, Any] | None = None) -> Store:
        return open_store(self, read_only, config)

    @property
    def path(self) -> str:
        from hhtool.store import resolve_db_path

        return resolve_db_path(self.option, configured_database)


@dataclass
class _Opened:
    """What the current command opened."""

    path: str | None = None
    writer: Store | None = None
    hands_before: int | None = None


_opened = _Opened()


def command_starts() -> None:
    """Forget what an earlier command (in the same process, e.g. a test) opened."""
    _opened.path, _opened.writer, _opened.hands_before = None, None, None


def command_ends() -> None:
    _opened.writer = None


def opened_path() -> str | None:
    """The database file the current command opened last, if any."""
    return _opened.path


def opened_for_writing() -> bool:
    return _opened.writer is not None


def open_store(database: Database, read_only: bool = False, config: dict[str, Any] | None = None) -> Store:
    """The store for reading or writing. Every failure to open it is raised (StoreError,
    SettingError, …): the command line turns it into its message and exit code."""
    from hhtool.store import SchemaTooOld, Store, resolve_db_path
    path = resolve_db_path(database.option, configured_database)
    _opened.path = path
    if not read_only:
        _check_import_memory()
    on_wait = _waiting(database.on_wait, path, read_only)
    on_upgrade = None if database.on_upgrade is None else partial(database.on_upgrade, path)
    try:
        store = Store(path, read_only=read_only, on_wait=on_wait, config=config, on_upgrade=on_upgrade)
    except SchemaTooOld:
        _upgrade(path, on_upgrade)
        store = Store(path, read_only=read_only, on_wait=on_wait, config=config)
    if not read_only and path != ":memory:":
        _opened.writer, _opened.hands_before = store, _count_hands(store)
    return store


def _waiting(notice: WaitNotice | None, path: str, read_only: bool) -> Callable[[str], None] | None:
    if notice is None:
        return None
    return lambda holder: notice(path, holder, read_only)


def _upgrade(path: str, on_upgrade: Callable[[int, int], None] | None) -> None:
    """A reader found an older schema: migrate it (briefly as a writer), or say why it cannot."""
    import duckdb

    from hhtool.store import Store, StoreError
    try:
        Store(path, lock_timeout=1.0, on_upgrade=on_upgrade).close()
    except (StoreError, OSError, duckdb.Error) as error:
        raise StoreError(f"database {path} has an older schema and could not be upgraded to read it "
                         f"({error}); run `hhtool import` on it once") from None


def _check_import_memory() -> None:
    text = os.environ.get(IMPORT_MEMORY_ENV)
    if text is not None:
        from hhtool.store import SettingError, memory_size

        try:
            memory_size(text)
        except ValueError as error:
            raise SettingError(f"${IMPORT_MEMORY_ENV}: {error}") from None


def _count_hands(store: Store) -> int | None:
    import duckdb

    from hhtool.store.lookups import hands_count
    try:
        return hands_count(store)
    except (duckdb.Error, IndexError):
        return None


def stored_since_open() -> int | None:
    """Hands stored by this command before it stopped (None: it wrote nothing, or it cannot be told)."""
    if _opened.writer is None or _opened.hands_before is None or _opened.path is None:
        return None
    import duckdb

    from hhtool.store import SchemaTooNew, Store, StoreError
    # the connection may still be open; one given back between batches is not taken again for this
    counted = _count_hands(_opened.writer) if _opened.writer.holds_file else None
    if counted is None:
        try:
            with Store(_opened.path, read_only=True, lock_timeout=0) as store:
                counted = _count_hands(store)
        except (StoreError, SchemaTooNew, OSError, duckdb.Error):
            return None
    return None if counted is None else counted - _opened.hands_before
