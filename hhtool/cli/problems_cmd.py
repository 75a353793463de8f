"""`hhtool problems`: the import errors, unverifiable checks and history defects, without SQL."""

from __future__ import annotations

import re
from enum import StrEnum
from typing import TYPE_CHECKING

import typer

from hhtool.cli.common import DB_OPTION, database, number_option
from hhtool.cli.output import (
    UNBOUNDED_WIDTH,
    OutputFormat,
    emit_frame,
    file_format,
    fitted_table,
    shown_path,
    terminal_width,
    write_text,
)
from hhtool.service.choices import ProblemKind
from hhtool.service.numbers import LIMIT

if TYPE_CHECKING:
    import polars as pl

    from hhtool.service.problems import Problems

#: rows of each kind the terminal shows unless --limit says otherwise
TERMINAL_LIMIT = 20


class ProblemsFormat(StrEnum):
    text = "text"
    csv = "csv"
    json = "json"


def _lines_of(frame: pl.DataFrame) -> list[str]:
    return [f"{first}-{last}" if first != last else str(first)
            for first, last in zip(frame["first_line"].to_list(), frame["last_line"].to_list(), strict=True)]


def error_view(frame: pl.DataFrame, width: int = UNBOUNDED_WIDTH) -> pl.DataFrame:
    """The import errors as the terminal shows them: file (as typed), lines, the line it stopped at, why
    (``width`` is the terminal's; the table wraps a long file or reason within its column)."""
    import polars as pl

    files = [shown_path(path) for path in frame["file"].to_list()]  # (whole: the table wraps it in its column)
    return pl.DataFrame({"file": files, "lines": _lines_of(frame),
                         "at": frame["line"], "reason": frame["reason"]}, schema_overrides={"at": pl.Int64})


def unverifiable_view(frame: pl.DataFrame, width: int = UNBOUNDED_WIDTH) -> pl.DataFrame:
    """The unverifiable checks as the terminal shows them: site, hand id, check, why, line."""
    import polars as pl

    return frame.select("site", "hand_id", pl.col("code").alias("check"), "reason", "line")


def defect_view(frame: pl.DataFrame, width: int = UNBOUNDED_WIDTH) -> pl.DataFrame:
    """The defects as the terminal shows them: file, the line, the hand (none for a file's defect),
    what, why."""
    import polars as pl

    files = [shown_path(path) for path in frame["file"].to_list()]
    return pl.DataFrame({"file": files, "at": frame["line"], "hand": frame["hand_id"].fill_null(""),
                         "what": frame["code"], "reason": frame["reason"]}, schema_overrides={"at": pl.Int64})


def render_text(found: Problems, width: int) -> list[str]:
    """Each kind asked for: a title with the count, a table fitting ``width``, and what was left out."""
    lines: list[str] = []
    sections = [("import errors", found.errors, found.errors_total, error_view, ProblemKind.errors),
                ("unverifiable checks", found.unverifiable, found.unverifiable_total, unverifiable_view,
                 ProblemKind.unverifiable),
                ("history defects (stored anyway)", found.defects, found.defects_total, defect_view, ProblemKind.defects)]
    for title, frame, total, view, kind in sections:
        if found.kind not in (kind, ProblemKind.all):
            continue
        if lines:
            lines.append("")
        lines.append(f"{title}: {total}" + (f" (the first {frame.height})" if frame.height < total else ""))
        if frame.height:
            table = fitted_table(view(frame, width), width)
            lines.extend(table[:-1] if re.fullmatch(r"[\d,]+ rows?", table[-1]) else table)  # (the title counts them)
        if frame.height < total:
            lines.append(f"… {total - frame.height} more (a --limit over {frame.height}, or --format csv "
                         "--out FILE for every one)")
    if found.zones.height:  # what the hands' times were read as where no history of them names a zone
        lines += ["", f"time zones assumed: {found.zones.height}"]
        lines.extend(fitted_table(found.zones.select("site", "hands", "reason"), width)[:-1])
    return lines


def register(app: typer.Typer) -> None:
    @app.command("problems")
    def problems_command(
        kind: ProblemKind = typer.Option(ProblemKind.all, "--kind",
                                         help="errors (hands and files an import could not read), unverifiable "
                                              "(checks a replay could not run), defects (what a history states "
                                              "wrongly, its hands stored anyway: a date that is none, a file "
                                              "in two encodings) or all."),
        site: list[str] = typer.Option([], "--site", help="Only this site (repeatable)."),
        file: str | None = typer.Option(None, "--file", help="Only files whose path holds this text."),
        code: str | None = typer.Option(None, "--code",
                                        help="Only this check code (unverifiable), kind of error (errors), "
                                             "defect (bad_date, mixed_encoding) or assumption (time_zone)."),
        limit: int | None = number_option(LIMIT, None, "--limit",
                                          help=f"At most this many of each kind (default: {TERMINAL_LIMIT} on the "
                                               "terminal, every one in csv, json or --out)"),
        output_format: ProblemsFormat | None = typer.Option(
            None, "--format", help="text, csv or json. Default: the one --out's suffix names, else text."),
        out_file: str | None = typer.Option(None, "--out", help="Write to this file; its suffix decides the format."),
        db: str | None = DB_OPTION,
    ) -> None:
        """List what an import could not read (file, lines, reason), the checks a replay could not
        run (site, hand id, check code, reason, line) and the defects of histories whose hands were
        stored anyway (a date that is none, with its file and line; a file read in two encodings),
        without SQL.

        A hand or file that failed is kept raw in the store: `hhtool sql "SELECT raw_text FROM
        import_errors WHERE file = '…'"` shows its text. csv and json give every kind in one table
        (a `problem` column tells them apart) with every line number.
        """
        from hhtool.service.problems import problems

        asked = {ProblemsFormat.text: OutputFormat.table, ProblemsFormat.csv: OutputFormat.csv,
                 ProblemsFormat.json: OutputFormat.json, None: None}[output_format]
        written = file_format(asked, out_file)
        terminal = written is OutputFormat.table
        bound = limit if limit is not None or not terminal or out_file else TERMINAL_LIMIT
        found = problems(database(db), kind, site, file, code, bound)
        if terminal:
            width = UNBOUNDED_WIDTH if out_file else terminal_width()
            write_text("".join(line + "\n" for line in render_text(found, width)), out_file)
            return
        emit_frame(found.combined(), written, out_file)


__all__ = ["register"]
