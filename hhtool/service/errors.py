"""The failures a command may meet, as the service names them: the command line turns each into
its message and exit code (:mod:`hhtool.cli.common`)."""

from __future__ import annotations

from hhtool.store import SchemaTooNew, SettingError, StoreError, StoreMissing, duckdb_message, is_damage


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
