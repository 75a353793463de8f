"""hhtool: import, replay and audit Seven Card Stud Hi/Lo hand histories."""

from importlib.machinery import EXTENSION_SUFFIXES
from importlib.util import find_spec

__version__ = "0.1.0"


def build() -> str:
    """Which build of hhtool runs: ``"compiled"`` when its hot modules (the model, the replay, the line
    driver) are extension modules built by mypyc (``HHTOOL_COMPILE=1 pip install .``), ``"pure Python"``
    otherwise. Asked of hhtool.model's file without importing it; the other compiled modules are built with it.
    """
    spec = find_spec("hhtool.model")
    origin = spec.origin if spec is not None else None
    return "compiled" if origin is not None and origin.endswith(tuple(EXTENSION_SUFFIXES)) else "pure Python"
