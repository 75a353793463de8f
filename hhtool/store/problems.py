"""The stored problems, as one table of :data:`COLUMNS`: what an import could not read
(``import_errors``), the checks a replay could not run under each hand's own profile
(``unverifiable``) and the defects of histories whose hands were stored anyway (a hand's ``bad_date``
note at its line; a file read in two encodings), each kind chosen by site, a part of the file's path
and code; and the values the store knows of each, for the service to check a request against.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

from hhtool.model import NoteTopic

if TYPE_CHECKING:
    import polars as pl

    from hhtool.store import Store

#: the columns of every kind of problem, as one table
COLUMNS = ("problem", "file", "first_line", "last_line", "line", "site", "hand_id", "code", "reason", "profile")
IMPORT_ERROR = "import_error"
ASSUMPTION = "assumption"
#: the code of a time zone assumed for a site's hands (hhtool.clock): one row per site and zone label
TIME_ZONE = "time_zone"
UNVERIFIABLE = "unverifiable"
DEFECT = "defect"
#: the codes of the defects (a hand's note topic, or what a file's row says)
MIXED_ENCODING = "mixed_encoding"
DEFECT_CODES = (NoteTopic.BAD_DATE.value, MIXED_ENCODING)

Kind = Literal["import_error", "unverifiable", "defect"]

_ERRORS = f"""SELECT '{IMPORT_ERROR}' AS problem, file, first_line, last_line, line, site, hand_id, kind AS code,
                     reason, NULL::VARCHAR AS profile
              FROM import_errors"""
# under the profile the hand's verdict is under (a replay under another profile, by audit --rules, is not its verdict)
_UNVERIFIABLE = f"""SELECT '{UNVERIFIABLE}' AS problem, h.file, h.first_line, h.last_line, u.line, u.site, u.hand_id,
                           u.check_code AS code, u.reason, u.profile
                    FROM unverifiable u JOIN hands h ON u.site = h.site AND u.hand_id = h.hand_id
                    WHERE u.profile = h.rules_profile"""
# a stored hand's bad_date notes, each at its line; a file whose lines were read in two encodings (``?``: the
# encoding the files row names then, and the reason given; the import's summary named them)
_DEFECTS = f"""SELECT '{DEFECT}' AS problem, file, first_line, last_line, line, site, hand_id, topic AS code,
                      text AS reason, NULL::VARCHAR AS profile
               FROM (SELECT file, first_line, last_line, site, hand_id, unnest(notes) AS text,
                            unnest(note_lines) AS line, unnest(note_topics) AS topic
                     FROM hands WHERE list_contains(note_topics, '{NoteTopic.BAD_DATE.value}'))
               WHERE topic = '{NoteTopic.BAD_DATE.value}'
               UNION ALL
               SELECT '{DEFECT}', path, NULL, NULL, NULL, site, NULL, '{MIXED_ENCODING}', ?::VARCHAR, NULL
               FROM files WHERE encoding = ?"""
_QUERIES: dict[Kind, tuple[str, str]] = {  # each kind's rows, and their order
    "import_error": (_ERRORS, "file, first_line, line"),
    "unverifiable": (_UNVERIFIABLE, "file, first_line, line NULLS FIRST, code"),
    "defect": (_DEFECTS, "file, first_line NULLS FIRST, line NULLS FIRST, code"),
}


def problem_rows(store: Store, kind: Kind, sites: Sequence[str], file: str | None, code: str | None,
                 limit: int | None, mixed: tuple[str, str]) -> tuple[pl.DataFrame, int]:
    """The problems of ``kind`` on ``sites`` (none: any), of files whose path holds ``file``, of
    ``code``, in file and line order, at most ``limit`` of them, with how many there are in all.
    ``mixed``: the encoding a file read in two is stored as, and the reason a defect of it gives."""
    query, order = _QUERIES[kind]
    where: list[str] = []
    params: list[Any] = [mixed[1], mixed[0]] if kind == "defect" else []  # (the reason, then the encoding)
    if sites:
        where.append(f"site IN ({', '.join('?' for _ in sites)})")
        params.extend(sites)
    if file:
        where.append("strpos(file, ?) > 0")  # a part of the path: as the summary shows it, or whole
        params.append(file)
    if code:
        where.append("code = ?")
        params.append(code)
    condition = " AND ".join(where) or "TRUE"
    total = int(store.run(f"SELECT count(*) FROM ({query}) WHERE {condition}", params)[0][0])
    bounded = f" LIMIT {int(limit)}" if limit is not None else ""
    frame = store.frame(f"SELECT * FROM ({query}) WHERE {condition} ORDER BY {order}{bounded}", params)
    return (frame.select(COLUMNS).cast(_types()) if frame.height else no_rows()), total


def _types() -> pl.Schema:
    import polars as pl

    return pl.Schema({name: pl.Int64 if name.endswith("line") else pl.Utf8 for name in COLUMNS})


def no_rows() -> pl.DataFrame:
    """An empty table of problems (:data:`COLUMNS`, typed as :func:`problem_rows` gives them)."""
    import polars as pl

    return pl.DataFrame(schema=_types())


def stated_zones(store: Store, sites: Sequence[str]) -> list[tuple[str, str | None, int]]:
    """(site, zone label as the histories state it, hands) of the dated hands, per site and label."""
    where = f"AND site IN ({', '.join('?' for _ in sites)})" if sites else ""
    rows = store.run(f"SELECT site, timezone, count(*) FROM hands WHERE started_at IS NOT NULL {where} "
                     "GROUP BY ALL ORDER BY site, timezone NULLS FIRST", list(sites))
    return [(str(site), None if label is None else str(label), int(count)) for site, label, count in rows]


def problem_sites(store: Store) -> list[str]:
    """The sites of the stored hands and of the import errors."""
    return [str(row[0]) for row in store.run(
        "SELECT DISTINCT site FROM hands UNION SELECT DISTINCT site FROM import_errors WHERE site IS NOT NULL")]


def file_imported(store: Store, part: str) -> bool:
    """Whether the path of an imported file (or one with import errors) holds ``part``."""
    return bool(store.run("SELECT 1 FROM files WHERE strpos(path, ?) > 0 UNION ALL "
                          "SELECT 1 FROM import_errors WHERE strpos(file, ?) > 0 LIMIT 1", [part, part]))


def check_codes(store: Store) -> list[str]:
    """The codes of the checks that could not be run."""
    return [str(row[0]) for row in store.run("SELECT DISTINCT check_code FROM unverifiable")]


def error_kinds(store: Store) -> list[str]:
    """The kinds of the import errors."""
    return [str(row[0]) for row in store.run("SELECT DISTINCT kind FROM import_errors")]


__all__ = ["ASSUMPTION", "COLUMNS", "DEFECT", "DEFECT_CODES", "IMPORT_ERROR", "MIXED_ENCODING", "TIME_ZONE",
           "UNVERIFIABLE", "Kind", "check_codes", "error_kinds", "file_imported", "no_rows", "problem_rows",
           "problem_sites", "stated_zones"]
