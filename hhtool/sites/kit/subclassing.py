"""mypyc's class mark (``mypy_extensions.mypyc_attr``) for the site modules, which use it where
interpreted code may subclass a compiled class (a test's variant of a site's parser). mypyc reads the
mark at compile time (hatch_build.py) and the compiled classes never call it; in pure Python it is a
decorator that leaves the class as it is, and a no-op stands in where mypy_extensions (mypy's) is not
installed. This module itself is never compiled."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

try:
    from mypy_extensions import mypyc_attr
except ImportError:  # pure Python without mypy: nothing reads the mark
    def mypyc_attr(*attrs: str, **kwattrs: object) -> Callable[[Any], Any]:  # type: ignore[misc]
        """A class decorator that leaves the class as it is."""
        def mark(cls: Any) -> Any:
            return cls
        return mark

__all__ = ["mypyc_attr"]
