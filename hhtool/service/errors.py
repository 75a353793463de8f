"""The failures a command may meet, as the service names them: the command line turns each into
its message and exit code (:mod:`hhtool.cli.common`).

The store's own (:class:`StoreError`, :class:`SettingError`, …) are named here too, loaded from
:mod:`hhtool.store` when first asked for, so that importing this module costs no DuckDB.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hhtool.store import SchemaTooNew, SettingError, StoreError, StoreMissing, duckdb_message, is_damage

#: the names this module passes on from hhtool.store
_FROM_STORE = frozenset({"SchemaTooNew", "SettingError", "StoreError", "StoreMissing", "duckdb_message", "is_damage"})


def __getattr__(name: str) -> Any:
    if name in _FROM_STORE:
        return getattr(importlib.import_module("hhtool.store"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class UsageError(ValueError):
    """The request cannot be done as asked (an unknown profile, site or hand, a malformed option
    value): nothing was done, and the message says what to ask instead."""


class CannotWrite(Exception):
    """A file the command was asked to write (an export, a simulated history) could not be written."""

    def __init__(self, target: object, error: OSError) -> None:
        super().__init__(f"cannot write {target}: {error}")
        self.error = error


__all__ = ["CannotWrite", "SchemaTooNew", "SettingError", "StoreError", "StoreMissing", "UsageError", "duckdb_message",
           "is_damage"]
