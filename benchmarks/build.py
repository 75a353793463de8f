"""Which build of hhtool a benchmark measured: the pure-Python sources or the compiled (mypyc) one."""

from __future__ import annotations


def measured_build() -> str:
    """``compiled`` when :mod:`hhtool.model` was loaded from a compiled extension module, else
    ``pure Python``. (When hhtool itself says whether it is compiled, point this at that.)"""
    import hhtool.model

    return "compiled" if str(hhtool.model.__file__).endswith((".so", ".pyd")) else "pure Python"
