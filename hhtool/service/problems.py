"""`hhtool problems`: what an import could not read (``import_errors``: file, lines, reason), the
checks a replay could not run (``unverifiable``, under each hand's own profile: site, hand id, check,
reason, line) and the defects of histories whose hands were stored anyway (a date that is none: the
hand's ``bad_date`` note with its line; a file read in two encodings: its ``files.encoding``), without SQL.

A filter value the store does not know (a site, a file) is a usage error naming it, with close
matches; a known one with no problem is an empty list, which is an answer, not an error.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from difflib import get_close_matches
from typing import Any

import polars as pl

from hhtool.ingest.reader import MIXED
from hhtool.model import NoteTopic
from hhtool.service.choices import ProblemKind
from hhtool.service.filters import NothingMatched
from hhtool.service.stores import Database
from hhtool.store import Store

#: the columns of either kind of problem, as one table (csv, json and --out write this)
COLUMNS = ("problem", "file", "first_line", "last_line", "line", "site", "hand_id", "code", "reason", "profile")
IMPORT_ERROR = "import_error"
UNVERIFIABLE = "unverifiable"
DEFECT = "defect"
#: the codes of the defects (a hand's note topic, or what a file's row says)
MIXED_ENCODING = "mixed_encoding"
DEFECT_CODES = (NoteTopic.BAD_DATE.value, MIXED_ENCODING)


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


_TYPES = pl.Schema({name: pl.Int64 if name.endswith("line") else pl.Utf8 for name in COLUMNS})


def _empty() -> pl.DataFrame:
    return pl.DataFrame(schema=_TYPES)


def _conditions(column_site: str, column_file: str, sites: Sequence[str], file: str | None
                ) -> tuple[list[str], list[Any]]:
    where: list[str] = []
    params: list[Any] = []
    if sites:
        where.append(f"{column_site} IN ({', '.join('?' for _ in sites)})")
        params.extend(sites)
    if file:
        where.append(f"strpos({column_file}, ?) > 0")  # a part of the path: as the summary shows it, or whole
        params.append(file)
    return where, params


def _select(store: Store, sql: str, where: list[str], params: list[Any], order: str, limit: int | None
            ) -> tuple[pl.DataFrame, int]:
    condition = " AND ".join(where) or "TRUE"
    total = int(store.run(f"SELECT count(*) FROM ({sql}) WHERE {condition}", params)[0][0])
    bounded = f" LIMIT {int(limit)}" if limit is not None else ""
    frame = store.frame(f"SELECT * FROM ({sql}) WHERE {condition} ORDER BY {order}{bounded}", params)
    return (frame.select(COLUMNS).cast(_TYPES) if frame.height else _empty()), total


_ERRORS = f"""SELECT '{IMPORT_ERROR}' AS problem, file, first_line, last_line, line, site, hand_id, kind AS code,
                     reason, NULL::VARCHAR AS profile
              FROM import_errors"""
# under the profile the hand's verdict is under (a replay under another profile, by audit --rules, is not its verdict)
_UNVERIFIABLE = f"""SELECT '{UNVERIFIABLE}' AS problem, h.file, h.first_line, h.last_line, u.line, u.site, u.hand_id,
                           u.check_code AS code, u.reason, u.profile
                    FROM unverifiable u JOIN hands h ON u.site = h.site AND u.hand_id = h.hand_id
                    WHERE u.profile = h.rules_profile"""


# a stored hand's bad_date notes, each at its line; a file whose lines were read in two encodings (the
# import's summary named them; the files row keeps how it was read)
_DEFECTS = f"""SELECT '{DEFECT}' AS problem, file, first_line, last_line, line, site, hand_id, topic AS code,
                      text AS reason, NULL::VARCHAR AS profile
               FROM (SELECT file, first_line, last_line, site, hand_id, unnest(notes) AS text,
                            unnest(note_lines) AS line, unnest(note_topics) AS topic
                     FROM hands WHERE list_contains(note_topics, '{NoteTopic.BAD_DATE.value}'))
               WHERE topic = '{NoteTopic.BAD_DATE.value}'
               UNION ALL
               SELECT '{DEFECT}', path, NULL, NULL, NULL, site, NULL, '{MIXED_ENCODING}',
                      'read as {MIXED}: its lines that are not UTF-8 as cp1252, the others as UTF-8 (the '
                      || 'import''s summary named them)', NULL
               FROM files WHERE encoding = '{MIXED}'"""


def _require_known(store: Store, sites: Sequence[str], file: str | None, code: str | None) -> None:
    """NothingMatched for a site, file or check code the store has never seen."""
    known_sites = [str(row[0]) for row in store.run(
        "SELECT DISTINCT site FROM hands UNION SELECT DISTINCT site FROM import_errors WHERE site IS NOT NULL")]
    for site in sites:
        if site not in known_sites:
            raise NothingMatched(f"no site {site!r} in the store{_close_to(site, known_sites)}")
    if file and not store.run("SELECT 1 FROM files WHERE strpos(path, ?) > 0 UNION ALL "
                              "SELECT 1 FROM import_errors WHERE strpos(file, ?) > 0 LIMIT 1", [file, file]):
        raise NothingMatched(f"no imported file's path holds {file!r}")
    if code:
        known_codes = [str(row[0]) for row in store.run("SELECT DISTINCT check_code FROM unverifiable")]
        kinds = [str(row[0]) for row in store.run("SELECT DISTINCT kind FROM import_errors")]
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
        def chosen(query: str, order: str) -> tuple[pl.DataFrame, int]:
            where, params = _conditions("site", "file", sites, file)
            if code:
                where.append("code = ?")
                params.append(code)
            return _select(store, query, where, params, order, limit)

        errors, unverifiable, defects = _empty(), _empty(), _empty()
        errors_total = unverifiable_total = defects_total = 0
        if kind in (ProblemKind.errors, ProblemKind.all):
            errors, errors_total = chosen(_ERRORS, "file, first_line, line")
        if kind in (ProblemKind.unverifiable, ProblemKind.all):
            unverifiable, unverifiable_total = chosen(_UNVERIFIABLE, "file, first_line, line NULLS FIRST, code")
        if kind in (ProblemKind.defects, ProblemKind.all):
            defects, defects_total = chosen(_DEFECTS, "file, first_line NULLS FIRST, line NULLS FIRST, code")
    return Problems(errors, unverifiable, errors_total, unverifiable_total, kind, defects, defects_total)


__all__ = ["COLUMNS", "ProblemKind", "Problems", "problems"]
