"""Which build of hhtool a benchmark measured: the pure-Python sources or the compiled (mypyc) one."""

from __future__ import annotations


def measured_build() -> str:
    """``compiled`` or ``pure Python``: what :func:`hhtool.build` says of the hhtool that runs."""
    import hhtool

    return hhtool.build()
