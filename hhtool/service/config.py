"""The user's config file: the default database and the folders `import --watch` follows.

Where it is: ``$HHTOOL_CONFIG`` when set, else ``$XDG_CONFIG_HOME/hhtool/config.toml`` (an
``XDG_CONFIG_HOME`` that is not an absolute path is ignored, as the XDG spec says), else
``~/.config/hhtool/config.toml``. A missing file is no config; a file named by ``$HHTOOL_CONFIG``
must exist. The file is TOML with three keys::

    database = "~/poker/hhtool.duckdb"
    watch = ["~/PokerStars/HandHistory", "/mnt/histories/fulltilt"]
    structures = "~/poker/structures.toml"   # the desk's levels and rake (docs/structures.md)

``~`` is the home folder; any other relative path is taken from the config file's folder (so a path
in the file means the same file whichever folder a command runs in). The database is the file's
third choice: ``--db`` wins, then ``$HHTOOL_DB``, then ``database`` here, then ``./hhtool.duckdb``.
A malformed file, an unknown key or a value of the wrong type is a :class:`ConfigError` (a usage
error: one line naming the file and the problem, exit 2).
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import get_close_matches
from pathlib import Path
from typing import TYPE_CHECKING

from hhtool.service.errors import CannotWrite, UsageError

if TYPE_CHECKING:
    from hhtool.replay.user_structures import UserStructures

CONFIG_ENV = "HHTOOL_CONFIG"
XDG_ENV = "XDG_CONFIG_HOME"
KEYS = ("database", "watch", "structures")

TEMPLATE = """\
# hhtool's config file (TOML). Remove the leading '#' of a line to use it.
# `hhtool config` shows where this file is and what each value comes from.
#
# ~ is your home folder; other relative paths are taken from this file's folder.

# The database every command uses when neither --db nor $HHTOOL_DB names one
# (else ./hhtool.duckdb in the folder the command runs in).
# database = "~/poker/hhtool.duckdb"

# The folders `hhtool import --watch` (and `hhtool import`) read when given no PATH.
# watch = ["~/PokerStars/HandHistory", "~/Full Tilt Poker/HandHistory"]

# Your sites' levels, forced bets and rake schedules (docs/structures.md): with it, the forced bets
# and rake no history states are checked against it, not assumed. --structures FILE wins over it.
# structures = "~/poker/structures.toml"
"""


class ConfigError(UsageError):
    """The config file cannot be used as written: the message names the file and the problem (``key``:
    the key whose value is wrong, when that is the problem)."""

    def __init__(self, message: str, key: str | None = None) -> None:
        super().__init__(message)
        self.key = key


@dataclass(frozen=True)
class UserConfig:
    """What the config file says (nothing when there is none): paths already resolved."""

    path: Path
    exists: bool
    database: str | None = None
    watch: tuple[str, ...] = ()
    structures: str | None = None


@dataclass(frozen=True)
class Setting:
    """One effective value and where it came from (``--db``, ``$HHTOOL_DB``, the config file, the default)."""

    value: str
    source: str


def config_path() -> Path:
    """Where the config file is (or would be)."""
    named = os.environ.get(CONFIG_ENV, "").strip()
    if named:
        return Path(named).expanduser()
    xdg = os.environ.get(XDG_ENV, "").strip()
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".config"
    return base / "hhtool" / "config.toml"


def load_config() -> UserConfig:
    """The config file's values; ConfigError when it cannot be read or says something hhtool does not know."""
    path = config_path()
    if not path.exists():
        if os.environ.get(CONFIG_ENV, "").strip():
            raise ConfigError(f"config file {path} (named by ${CONFIG_ENV}) does not exist; "
                              f"`hhtool config --init` writes one")
        return UserConfig(path, exists=False)
    try:
        table = tomllib.loads(path.read_bytes().decode("utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"config file {path} is not valid TOML: {error}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"config file {path} is not UTF-8 text") from None
    except OSError as error:
        raise ConfigError(f"config file {path} cannot be read: {error.strerror or error}") from None
    for key in table:
        if key not in KEYS:
            close = get_close_matches(key, KEYS, n=1)
            hint = f"did you mean {close[0]!r}? " if close else ""
            raise ConfigError(f"config file {path}: unknown key {key!r} ({hint}the keys are {', '.join(KEYS)})")
    database = table.get("database")
    if database is not None and (not isinstance(database, str) or not database.strip()):
        raise ConfigError(f"config file {path}: database must be a file name in quotes, e.g. "
                          f"database = \"~/poker/{_default_db()}\", not {_shown(database)}")
    watch = table.get("watch", [])
    if isinstance(watch, str):
        watch = [watch]
    if not isinstance(watch, list) or not all(isinstance(item, str) and item.strip() for item in watch):
        raise ConfigError(f"config file {path}: watch must be a list of folders in quotes, e.g. "
                          f"watch = [\"~/PokerStars/HandHistory\"], not {_shown(watch)}")
    structures = table.get("structures")
    if structures is not None and (not isinstance(structures, str) or not structures.strip()):
        raise ConfigError(f"config file {path}: structures must be a file name in quotes, e.g. "
                          f"structures = \"~/poker/structures.toml\", not {_shown(structures)}", "structures")
    return UserConfig(path, exists=True, database=_resolved(database, path) if database else None,
                      watch=tuple(_resolved(folder, path) for folder in watch),
                      structures=_resolved(structures, path) if structures else None)


def _shown(value: object) -> str:
    """A TOML value as the user wrote it, near enough (its Python spelling, cut short)."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _resolved(text: str, config_file: Path) -> str:
    """``~`` is the home folder, another relative path is the config file's folder's; ``:memory:`` stays."""
    if text == ":memory:":
        return text
    path = Path(text).expanduser()
    return str(path if path.is_absolute() else config_file.parent / path)


def _default_db() -> str:
    from hhtool.store import DEFAULT_DB

    return DEFAULT_DB


def configured_database() -> str | None:
    """The database the config file names, if any (ConfigError when the file is malformed)."""
    return load_config().database


def database_setting(option: str | None) -> Setting:
    """The database a command with ``--db option`` opens, and which of the four places chose it."""
    from hhtool.store import chosen_db_path

    path, source = chosen_db_path(option, configured_database)
    named = {"config": f"the config file ({config_path()})", "default": "the default (in the current folder)"}
    return Setting(path, named.get(source, source))


def structures_setting(option: str | None) -> Setting | None:
    """The structures file a command with ``--structures option`` reads, and where it was named; None: none."""
    if option:
        return Setting(option, "--structures")
    try:
        named = load_config().structures
    except ConfigError as error:
        # a config file hhtool cannot read does not stop a command that needs nothing of it (its database
        # named by --db): `hhtool config` and the commands that read its database say what is wrong
        if error.key == "structures":
            raise
        return None
    return Setting(named, f"the config file ({config_path()})") if named else None


def desk_structures(option: str | None) -> UserStructures | None:
    """The user's structures file read and validated (``--structures`` wins over the config file's
    ``structures``); None when neither names one; UsageError with the file's one-line error otherwise."""
    from hhtool.replay.user_structures import StructuresError, load_structures

    setting = structures_setting(option)
    if setting is None:
        return None
    try:
        return load_structures(setting.value)
    except StructuresError as error:
        named = "" if setting.source == "--structures" else f" (named by {setting.source})"
        raise UsageError(f"{error}{named}") from None


@dataclass(frozen=True)
class ConfigView:
    """What `hhtool config` shows: where the file is (``located_by``: why there), whether it is
    there, and each effective value with its source."""

    path: Path
    located_by: str
    exists: bool
    database: Setting
    watch: tuple[str, ...]
    structures: Setting | None = None


def describe(option: str | None = None) -> ConfigView:
    """The config file and the values in force for a command given ``--db option``; ConfigError when
    the file is malformed (its one line is what there is to show)."""
    config = load_config()
    xdg = os.environ.get(XDG_ENV, "").strip()
    if os.environ.get(CONFIG_ENV, "").strip():
        located_by = f"named by ${CONFIG_ENV}"
    elif xdg and Path(xdg).is_absolute():
        located_by = f"under ${XDG_ENV}"
    else:
        located_by = f"the default place: ${XDG_ENV} is {'not an absolute path' if xdg else 'not set'}"
    return ConfigView(config.path, located_by, config.exists, database_setting(option), config.watch,
                      structures_setting(None))


def watch_targets(paths: Sequence[str]) -> list[str]:
    """What `import` reads: the paths given, else the config file's watch folders; UsageError when
    neither names any."""
    if paths:
        return list(paths)
    config = load_config()
    if not config.watch:
        where = (f"in the config file {config.path}" if config.exists
                 else f"in a config file at {config.path} (`hhtool config --init` writes one)")
        raise UsageError(f"nothing to import: give PATH…, or list the folders as watch = [\"…\"] {where}")
    return list(config.watch)


def write_template(force: bool = False) -> Path:
    """Write the commented template where the config file belongs; UsageError when a file is
    already there (unless ``force``)."""
    path = config_path()
    if path.exists() and not force:
        raise UsageError(f"config file {path} already exists; edit it, or pass --force to replace it with the template")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(TEMPLATE, encoding="utf-8")
    except OSError as error:
        raise CannotWrite(path, error) from None
    return path


__all__ = [
    "CONFIG_ENV",
    "ConfigError",
    "ConfigView",
    "Setting",
    "UserConfig",
    "config_path",
    "configured_database",
    "database_setting",
    "describe",
    "desk_structures",
    "load_config",
    "structures_setting",
    "watch_targets",
    "write_template",
]
