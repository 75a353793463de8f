"""`hhtool problems`: what an import could not read (``import_errors``: file, lines, reason), the
checks a replay could not run (``unverifiable``, under each hand's own profile: site, hand id, check,
reason, line) and the defects of histories whose hands were stored anyway (a date that is none: the
hand's ``bad_date`` note with its line; a file read in two encodings: its ``files.encoding``); the rows
are the store's (:mod:`hhtool.store.problems`). Beside them (``--kind all``), the time zones assumed: one
row per site and zone label whose hands' times are read in a zone the histories do not name
(:func:`hhtool.clock.reading_of`), with the count of hands.

A filter value the store does not know (a site, a file) is a usage error naming it, with close
matches; a known one with no problem is an empty list, which is an answer, not an error.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from difflib import get_close_matches

import polars as pl

from hhtool.clock import reading_of
from hhtool.ingest.reader import MIXED
from hhtool.service.choices import ProblemKind
from hhtool.service.filters import NothingMatched
from hhtool.service.stores import Database
from hhtool.store import Store
from hhtool.store import problems as stored
from hhtool.store.problems import ASSUMPTION, COLUMNS, DEFECT_CODES, TIME_ZONE

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
    #: COLUMNS and ``hands``, problem = assumption, code = time_zone: a site's hands (with a zone label or none)
    #: read in a zone no history of them names, and how many
    zones: pl.DataFrame = field(default_factory=lambda: _empty())

    def combined(self) -> pl.DataFrame:
        """Every kind as one table (the import errors first, the defects, then the zones assumed, whose count
        of hands is in ``hands``; the other rows are one hand or file each)."""
        zones = self.zones.select(*COLUMNS).cast(_empty().schema) if self.zones.height else _empty()
        return pl.concat([self.errors, self.unverifiable, self.defects, zones], how="vertical").with_columns(
            hands=pl.Series([None] * (self.errors.height + self.unverifiable.height + self.defects.height)
                            + (self.zones["hands"].to_list() if self.zones.height else []), dtype=pl.Int64))


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
        if code not in known_codes and code not in kinds and code not in DEFECT_CODES and code != TIME_ZONE:
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
        zones = (_assumed_zones(store, sites) if kind is ProblemKind.all and not file and code in (None, TIME_ZONE)
                 else _empty())
    return Problems(errors, unverifiable, errors_total, unverifiable_total, kind, defects, defects_total, zones)


def _assumed_zones(store: Store, sites: Sequence[str]) -> pl.DataFrame:
    """One row per site and zone label whose hands are read in an assumed zone, with the count of hands."""
    rows = []
    for site, label, hands in stored.stated_zones(store, sites):
        assumed = reading_of(site, label).assumed
        if assumed is not None:
            rows.append({"problem": ASSUMPTION, "site": site, "code": TIME_ZONE, "hands": hands, "reason": assumed})
    if not rows:
        return _empty()
    return pl.DataFrame(rows).with_columns(*(pl.lit(None).alias(name) for name in COLUMNS if name not in rows[0]))


__all__ = ["COLUMNS", "ProblemKind", "Problems", "problems"]
