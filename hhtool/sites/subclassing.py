"""The run-time stand-in for mypyc's class marks (``mypy_extensions.mypyc_attr``), which the site modules
use where interpreted code may subclass a class (a test's variant of a site's parser). In the compiled
build (hatch_build.py) mypyc reads the mark at compile time and no code runs; in pure Python, where
mypy_extensions need not be installed, this no-op takes its place."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def mypyc_attr(*_attributes: str, **_flags: object) -> Callable[[T], T]:
    """A class decorator that leaves the class as it is."""
    def mark(cls: T) -> T:
        return cls
    return mark
