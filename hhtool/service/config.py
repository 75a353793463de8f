"""The user's config file: the default database, the user's time zone and the folders `import --watch` follows.

Where it is: ``$HHTOOL_CONFIG`` when set, else ``$XDG_CONFIG_HOME/hhtool/config.toml`` (an
``XDG_CONFIG_HOME`` that is not an absolute path is ignored, as the XDG spec says), else
``~/.config/hhtool/config.toml``. A missing file is no config; a file named by ``$HHTOOL_CONFIG``
must exist. The file is TOML with four keys::

    database = "~/poker/hhtool.duckdb"
    timezone = "Europe/Paris"                # times are shown, and --from/--to read, in this zone
    watch = ["~/PokerStars/HandHistory", "/mnt/histories/fulltilt"]
    structures = "~/poker/structures.toml"   # the desk's levels and rake (docs/structures.md)

``~`` is the home folder; any other relative path is taken from the config file's folder (so a path
in the file means the same file whichever folder a command runs in). The database is the file's
third choice: ``--db`` wins, then ``$HHTOOL_DB``, then ``database`` here, then ``hhtool.duckdb`` in the user's
data folder (:func:`hhtool.store.default_db_path`). ``timezone`` is an IANA name; without it, the machine's zone.
A malformed file, an unknown key or a value of the wrong type is a :class:`ConfigError` (a usage
error: one line naming the file and the problem, exit 2).
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import get_close_matches
from pathlib import Path
from typing import TYPE_CHECKING

from hhtool.clock import UnknownZone, machine_zone, user_zone, zone_name
from hhtool.service.errors import CannotWrite, UsageError

if TYPE_CHECKING:
    from datetime import tzinfo

    from hhtool.replay.user_structures import UserStructures

CONFIG_ENV = "HHTOOL_CONFIG"
XDG_ENV = "XDG_CONFIG_HOME"
KEYS = ("database", "timezone", "watch", "structures")

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
    timezone: str | None = None


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
    zone = table.get("timezone")
    if zone is not None:
        if not isinstance(zone, str) or not zone.strip():
            raise ConfigError(f"config file {path}: timezone must be a zone name in quotes, e.g. "
                              f"timezone = \"Europe/Paris\", not {_shown(zone)}", "timezone")
        try:
            user_zone(zone)
        except UnknownZone as error:
            raise ConfigError(f"config file {path}: timezone {error}", "timezone") from None
    structures = table.get("structures")
    if structures is not None and (not isinstance(structures, str) or not structures.strip()):
        raise ConfigError(f"config file {path}: structures must be a file name in quotes, e.g. "
                          f"structures = \"~/poker/structures.toml\", not {_shown(structures)}", "structures")
    return UserConfig(path, exists=True, database=_resolved(database, path) if database else None,
                      watch=tuple(_resolved(folder, path) for folder in watch),
                      structures=_resolved(structures, path) if structures else None, timezone=zone)


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
    named = {"config": f"the config file ({config_path()})", "default": "the default (your data folder)"}
    return Setting(path, named.get(source, source))


def _configured_zone() -> str | None:
    """The config file's ``timezone``, if any (ConfigError naming the key when it is no zone)."""
    try:
        return load_config().timezone
    except ConfigError as error:
        if error.key == "timezone":
            raise
        return None  # a config file broken elsewhere: the commands that need that part say so


def timezone_setting() -> Setting:
    """The zone times are shown and ``--from``/``--to`` read in: the config file's ``timezone``, else the
    machine's."""
    named = _configured_zone()
    if named:
        return Setting(named, f"the config file ({config_path()})")
    return Setting(zone_name(machine_zone()), "the machine's zone (timezone in the config file wins)")


def display_zone() -> tzinfo:
    """The user's zone (:func:`timezone_setting`) as a zone."""
    named = _configured_zone()
    return user_zone(named) if named else machine_zone()


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
    timezone: Setting | None = None


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
                      structures_setting(None), timezone_setting())


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


def _toml(text: str) -> str:
    """A TOML basic string: JSON's escapes are TOML's (backslash, quote, controls as \\uXXXX)."""
    return json.dumps(text, ensure_ascii=False)


def values_in_force(option: str | None = None) -> str:
    """The config file's text holding the values in force for a command given ``--db option``: the database
    (as an absolute path, so it names the same file from any folder), the time zone, the watch folders and the
    structures file where one is named. A config file hhtool cannot read is left out (its values are not in force)."""
    try:
        config = load_config()
    except ConfigError:
        config = UserConfig(config_path(), exists=False)
    database = database_setting(option).value
    if database != ":memory:":
        database = str(Path(database).expanduser().resolve())
    zone = config.timezone or zone_name(machine_zone())
    lines = ["# hhtool's config file (TOML): the values in force when `hhtool config --init` wrote it.",
             "# `hhtool config` shows each value and where it comes from; ~ is your home folder, other",
             "# relative paths are taken from this file's folder.",
             f"database = {_toml(database)}",
             f"timezone = {_toml(zone)}",
             "watch = [" + ", ".join(_toml(folder) for folder in config.watch) + "]"]
    if config.structures:
        lines.append(f"structures = {_toml(config.structures)}")
    return "\n".join(lines) + "\n"


def write_values(option: str | None = None, force: bool = False) -> Path:
    """Write :func:`values_in_force` where the config file belongs; UsageError when a file is already there
    (unless ``force``)."""
    path = config_path()
    if path.exists() and not force:
        raise UsageError(f"config file {path} already exists; edit it, or pass --force to replace it with the "
                         "values in force")
    text = values_in_force(option)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
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
    "display_zone",
    "load_config",
    "structures_setting",
    "timezone_setting",
    "values_in_force",
    "watch_targets",
    "write_values",
]
