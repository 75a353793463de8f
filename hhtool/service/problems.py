"""`hhtool problems`: what an import could not read (``import_errors``: file, lines, reason), the
checks a replay could not run (``unverifiable``, under each hand's own profile: site, hand id, check,
reason, line) and the defects of histories whose hands were stored anyway (a date that is none: the
hand's ``bad_date`` note with its line; a file read in two encodings: its ``files.encoding``); the rows
are the store's (:mod:`hhtool.store.problems`).

A filter value the store does not know (a site, a file) is a usage error naming it, with close
matches; a known one with no problem is an empty list, which is an answer, not an error.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from difflib import get_close_matches

import polars as pl

from hhtool.ingest.reader import MIXED
from hhtool.service.choices import ProblemKind
from hhtool.service.filters import NothingMatched
from hhtool.service.stores import Database
from hhtool.store import Store
from hhtool.store import problems as stored
from hhtool.store.problems import COLUMNS, DEFECT_CODES

#: a defect's reason for a file read in two encodings
_MIXED_REASON = (f"read as {MIXED}: its lines that are not UTF-8 as cp1252, the others as UTF-8 (the import's summary "
                 "named them)")


@dataclass(frozen=True)
class Problems:
    """The problems asked for, at most ``limit`` of each kind, with how many match in all."""

    errors: pl.DataFrame  # COLUMNS, problem = import_error
    unverifiable: pl.DataFrame  # COLUMNS, problem = unverifiable
    errors_total: int
    unverifiable_total: int
    kind: ProblemKind
    defects: pl.DataFrame = field(default_factory=lambda: _empty())  # COLUMNS, problem = defect
    defects_total: int = 0

    def combined(self) -> pl.DataFrame:
        """Every kind as one table (the import errors first, the defects last)."""
        return pl.concat([self.errors, self.unverifiable, self.defects], how="vertical")


def _empty() -> pl.DataFrame:
    return stored.no_rows()


def _require_known(store: Store, sites: Sequence[str], file: str | None, code: str | None) -> None:
    """NothingMatched for a site, file or check code the store has never seen."""
    known_sites = stored.problem_sites(store)
    for site in sites:
        if site not in known_sites:
            raise NothingMatched(f"no site {site!r} in the store{_close_to(site, known_sites)}")
    if file and not stored.file_imported(store, file):
        raise NothingMatched(f"no imported file's path holds {file!r}")
    if code:
        known_codes = stored.check_codes(store)
        kinds = stored.error_kinds(store)
        if code not in known_codes and code not in kinds and code not in DEFECT_CODES:
            raise NothingMatched(f"no problem of code {code!r} in the store"
                                 f"{_close_to(code, known_codes + kinds + list(DEFECT_CODES))}")


def _close_to(value: str, known: list[str]) -> str:
    close = get_close_matches(value, known, n=3, cutoff=0.6) or [name for name in known
                                                                 if name.casefold() == value.casefold()]
    return f"; did you mean {' or '.join(repr(name) for name in close)}?" if close else ""


def problems(database: Database, kind: ProblemKind = ProblemKind.all, sites: Sequence[str] = (),
             file: str | None = None, code: str | None = None, limit: int | None = None) -> Problems:
    """The import errors, unverifiable checks and/or defects (``kind``) of ``sites``, of files whose
    path holds ``file``, of ``code`` (an import error's kind, an unverifiable check's code, or a defect's:
    DEFECT_CODES), at most ``limit`` of each, in file and line order. NothingMatched (a usage error)
    for a value the store does not know."""
    sites = [site.lower() for site in sites]
    with database.open(read_only=True) as store:
        _require_known(store, sites, file, code)

        def chosen(which: stored.Kind) -> tuple[pl.DataFrame, int]:
            return stored.problem_rows(store, which, sites, file, code, limit, mixed=(MIXED, _MIXED_REASON))

        errors, unverifiable, defects = _empty(), _empty(), _empty()
        errors_total = unverifiable_total = defects_total = 0
        if kind in (ProblemKind.errors, ProblemKind.all):
            errors, errors_total = chosen("import_error")
        if kind in (ProblemKind.unverifiable, ProblemKind.all):
            unverifiable, unverifiable_total = chosen("unverifiable")
        if kind in (ProblemKind.defects, ProblemKind.all):
            defects, defects_total = chosen("defect")
    return Problems(errors, unverifiable, errors_total, unverifiable_total, kind, defects, defects_total)


__all__ = ["COLUMNS", "ProblemKind", "Problems", "problems"]
