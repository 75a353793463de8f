"""The values an option may take, each from its one source (the site registry, the built-in rule
profiles, the finding codes, the simulator's writers and policies, the reports' enums), for the
command line's option types, help and completion.

Importing this module is cheap (no DuckDB, Polars, PyArrow, Lark, nor the replay): the enums and
constants come from light modules, and what only a heavy module knows (the profiles, the codes, the
simulator's formats) is a function the command line calls when it needs the value.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

from hhtool.reports.choices import (
    BREAKDOWNS,
    DEFAULT_GAP_MINUTES,
    REPORT_FORMATS,
    Axis,
    Breakdown,
    Showdown,
    Unit,
    Verdict,
)
from hhtool.store.filters import Game

#: what a user's SQL query (`hhtool sql`) gets unless the command asks for more or less: the seconds
#: before it is stopped and the DuckDB memory it may use (the store's confined runner applies them;
#: defined here, where the command line's help can name them without loading DuckDB)
DEFAULT_TIMEOUT = 60.0
DEFAULT_MEMORY = "1GiB"

if TYPE_CHECKING:
    from hhtool.replay.codes import Code


class ProblemKind(StrEnum):
    """`problems --kind`."""

    errors = "errors"
    unverifiable = "unverifiable"
    defects = "defects"
    all = "all"


def site_names() -> tuple[str, ...]:
    """The sites hhtool reads (the registry of site parsers, which names them without loading them)."""
    from hhtool.sites import site_names as registered

    return registered()


def profile_names() -> tuple[str, ...]:
    """The built-in rule profiles (``--rules NAME``; a TOML file is the other choice)."""
    from hhtool.replay import PROFILES

    return tuple(PROFILES)


def code_names() -> str:
    """Every finding code, as ``--code`` lists them."""
    from hhtool.replay.codes import CODE_NAMES

    return CODE_NAMES


def finding_code(text: str) -> Code:
    """The finding code ``text`` names, in any case (ValueError, naming the codes it could be, otherwise)."""
    from hhtool.replay.codes import Code

    return Code(text)


def simulated_sites() -> tuple[str, ...]:
    """The formats ``simulate`` writes."""
    from hhtool.simulate.writers import WRITERS

    return tuple(WRITERS)


def simulation_policies() -> tuple[str, ...]:
    """How the simulated players act (``simulate --policy``)."""
    from hhtool.simulate.policy import POLICIES

    return tuple(POLICIES)


__all__ = ["BREAKDOWNS", "DEFAULT_GAP_MINUTES", "DEFAULT_MEMORY", "DEFAULT_TIMEOUT", "REPORT_FORMATS", "Axis",
           "Breakdown", "Game", "ProblemKind", "Showdown", "Unit", "Verdict", "code_names", "finding_code",
           "profile_names", "simulated_sites", "simulation_policies", "site_names"]
