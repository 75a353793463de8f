"""`hhtool audit [PATH…]`: replay hands under a rule profile and report every violation."""

from __future__ import annotations

import csv
import json
import os
import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import typer
from rich.text import Text

from hhtool.cli.common import (
    DB_OPTION,
    EXIT_ERROR,
    EXIT_FINDINGS,
    EXIT_OK,
    STRUCTURES_OPTION,
    choices,
    database,
    err,
    info,
    late_help,
    out,
    rules_option,
    site_option,
)
from hhtool.cli.output import (
    fit_lines,
    fitted_table,
    print_text_summary,
    printable,
    terminal_width,
    write_text,
)
from hhtool.service.choices import REPORT_FORMATS, code_names, finding_code
from hhtool.service.config import desk_structures

if TYPE_CHECKING:
    from hhtool.service.verdicts import Code

#: the columns of the terminal table, each row followed by its file:line and message (the other formats
#: carry every key); a site column leads where the violations come from more than one site
TABLE_KEYS = ("hand_id", "code", "street", "player", "expected", "actual")
#: never cut: what the desk copies into `--explain` and `--code`
UNCUT_KEYS = ("site", "hand_id", "code")
#: moved under the row, beside the message, where the row would not fit with them
UNDER_WHEN_NARROW = ("expected", "actual")
#: the width of the listing on a pipe or in a file when COLUMNS does not say (an e-mail's, a terminal's)
PIPED_WIDTH = 80
#: how far the file:line and message stand in under their row
UNDER_INDENT = 4


class AuditFormat(StrEnum):
    table = "table"
    jsonl = "jsonl"
    csv = "csv"


SITE_OPTION = site_option("Only this site")
RULES_OPTION = rules_option("Replay under this profile ('--rules list' lists them with their sources)")
FORMAT_HELP = f"{choices(AuditFormat)}; with --explain: {choices(REPORT_FORMATS)}."
CODE_HELP = late_help(lambda: f"Only this code: {code_names()}.")


def listing_width() -> int:
    """The width of the violations listing: COLUMNS or the terminal's; on a pipe or in a file without
    COLUMNS, :data:`PIPED_WIDTH` (a wrapped message reads anywhere; no row is ever cut to fit it)."""
    columns = os.environ.get("COLUMNS", "")
    if (columns.isdigit() and int(columns) > 0) or sys.stdout.isatty():
        return terminal_width()
    return PIPED_WIDTH


def _cell(value: Any) -> str:
    return "" if value is None else printable(str(value))


def _where(row: dict[str, Any]) -> str:
    """The file's name and the line, together (`file.txt:123`): the line is ambiguous without its file."""
    name = Path(str(row["file"])).name if row.get("file") else ""
    line = row.get("line")
    if name and line:
        return f"{printable(name)}:{line}"
    return printable(name) or (f"line {line}" if line else "")


def _wrapped(words: list[str], width: int, indent: int) -> list[str]:
    """The words (the first one, a file:line, may hold spaces and is never broken) in lines of at most
    ``width`` cells, each indented ``indent``; a word longer than a line is broken where the line ends."""
    from rich.cells import cell_len, set_cell_size

    room = max(width - indent, 1)
    lines: list[str] = []
    current = ""
    for word in words:
        if current and cell_len(current) + 1 + cell_len(word) <= room:
            current += " " + word
            continue
        if current:
            lines.append(current)
        current = word
        while cell_len(current) > room:  # longer than a line: broken where the line ends
            count = max(len(set_cell_size(current, room).rstrip(" ")), 1)
            lines.append(current[:count])
            current = current[count:]
    if current:
        lines.append(current)
    return [" " * indent + line for line in lines]


def _leading_left(line: str, first: str) -> str:
    """The line with its first cell, ``first``, at the left of its column: a numeric hand id is
    right-aligned by the table, and would stand in from its row's start like the message under it."""
    stripped = line.lstrip(" ")
    if not stripped.startswith(first):
        return line
    room = len(line) - len(stripped)
    return first + " " * room + stripped[len(first):]


def violation_lines(rows: list[dict[str, Any]], width: int) -> list[str]:
    """The violations as a table of at most ``width`` cells: hand ids and codes never cut, each row
    followed by its file:line and message wrapped under it (with the expected and actual values
    where the row has no room for them); where even the row does not fit, a record per violation."""
    import polars as pl
    from rich.cells import cell_len

    keys = [TABLE_KEYS[0], *(("site",) if len({row["site"] for row in rows}) > 1 else ()), *TABLE_KEYS[1:]]
    natural = sum(max(cell_len(key), *(cell_len(_cell(row[key])) for row in rows)) for key in keys)
    under = [key for key in UNDER_WHEN_NARROW if natural + 2 * (len(keys) - 1) > width]
    keys = [key for key in keys if key not in under]
    frame = pl.DataFrame({key: [_cell(row[key]) for row in rows] for key in keys},
                         schema=dict.fromkeys(keys, pl.Utf8))
    table = fitted_table(frame, width, uncut=UNCUT_KEYS, wrap=False)  # (its own lines under a row)
    notes = []
    for row in rows:
        said = "; ".join(f"{key} {_cell(row[key])}" for key in under if row[key] not in (None, ""))
        where = _where(row)
        words = [f"{where}:" if where else "", *_cell(row["message"]).split(), *(f"({said})".split() if said else ())]
        notes.append(_wrapped([word for word in words if word], width, UNDER_INDENT))
    lines: list[str] = []
    if len(table) == len(rows) + 3:  # header, rule, a line a row, "N rows"
        ids = [_cell(row["hand_id"]) for row in rows]
        lines += [_leading_left(table[0], "hand_id"), table[1]]
        for line, hand_id, note in zip(table[2:-1], ids, notes, strict=True):
            lines += [_leading_left(line, hand_id), *note]
        return lines
    record = len(table) // len(rows)  # records: a heading and a line a column, each
    for number, note in enumerate(notes):
        lines += [*table[number * record:(number + 1) * record], *note]
    return lines


def print_violations(rows: list[dict[str, Any]], output_format: AuditFormat) -> None:
    from hhtool.service.verdicts import VIOLATION_KEYS

    if output_format is AuditFormat.jsonl:
        for row in rows:
            sys.stdout.write(json.dumps(row) + "\n")
    elif output_format is AuditFormat.csv:
        writer = csv.DictWriter(sys.stdout, fieldnames=list(VIOLATION_KEYS), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    elif rows:
        lines = violation_lines(rows, listing_width())
        out.print(Text(f"{len(rows)} violation{'' if len(rows) == 1 else 's'}", style="bold"), highlight=False)
        out.print(Text(lines[0], style="bold"), highlight=False)
        for line in lines[1:]:
            out.print(line, highlight=False, markup=False)


def print_profiles() -> None:
    """Every built-in profile with one line on where it comes from (``--rules list``)."""
    from hhtool.service.judging import profile_catalog

    catalog = profile_catalog()
    width = max(len(name) for name, _ in catalog)
    lines = fit_lines([Text(f"{name:<{width}}  {source}") for name, source in catalog], terminal_width(),
                      hanging=width + 2)  # continued under the sources
    lines += fit_lines([Text("Or a TOML file: --rules my.toml (a [profile] table; 'base' names a built-in).")],
                       terminal_width())
    for line in lines:
        out.print(line, highlight=False)


def formats(given: str, explain_id: str | None) -> tuple[str, AuditFormat]:
    """(--explain report format, audit listing format) from --format; a wrong one is a usage error."""
    if explain_id:
        chosen = "text" if given == "table" else given
        if chosen not in REPORT_FORMATS:
            err.print(f"error: --format {given!r} with --explain; use {choices(REPORT_FORMATS)}", highlight=False,
                      markup=False)
            raise typer.Exit(EXIT_ERROR)
        return chosen, AuditFormat.table
    if given not in AuditFormat.__members__:
        err.print(f"error: --format {given!r}; use {choices(AuditFormat)}", highlight=False, markup=False)
        raise typer.Exit(EXIT_ERROR)
    return "text", AuditFormat(given)


def register(app: typer.Typer) -> None:
    @app.command("audit")
    def audit_command(
        paths: list[str] = typer.Argument(None, help="Import these first (files, folders, globs); none: audit the store."),
        db: str | None = DB_OPTION,
        hand: str | None = typer.Option(None, "--hand", help="Only this site hand id."),
        site: str | None = SITE_OPTION,
        code: str | None = typer.Option(None, "--code", parser=finding_code, metavar="CODE", help=CODE_HELP),
        player: str | None = typer.Option(None, "--player",
                                          help="Only violations by this player; with --explain --for player: the "
                                               "player the copy is addressed to (his cards shown, a mucked hand "
                                               "evaluated), as the history writes his name."),
        rules: str | None = RULES_OPTION,
        structures: str | None = STRUCTURES_OPTION,
        explain_id: str | None = typer.Option(None, "--explain", metavar="HAND_ID",
                                              help="Explain one hand's pots and awards step by step."),
        output_format: str = typer.Option("table", "--format", help=FORMAT_HELP),
        out_file: str | None = typer.Option(None, "--out", help="With --explain: write the report to this file."),
        report_dir: str | None = typer.Option(None, "--report", metavar="DIR",
                                              help="Write one dispute page per hand with a violation, and an index."),
        form: str = typer.Option("desk", "--for", metavar="desk|player",
                                 help="With --explain: the desk's report (every finding with its rule number, file "
                                      "and line, the profile's parameters), or the copy a player can be sent (the "
                                      "answer first, the rules in plain words, each departure once, no file or "
                                      "line, hole cards nobody showed hidden)."),
        show_hidden: bool = typer.Option(False, "--show-hidden",
                                         help="With --for player: show every hole card the history holds, "
                                              "shown or not."),
    ) -> None:
        """Re-verify bring-in, action order, bet sizes, caps, all-ins, pots and hi/lo splits.

        Exit code 0 when no violation is reported, 1 when some are, 2 on usage errors, 3 when the store fails.
        """
        from hhtool.reports.dispute import render
        from hhtool.service import audit
        from hhtool.service.filters import hand_filter

        if rules == "list":
            print_profiles()
            raise typer.Exit(EXIT_OK)
        report_format, listing = formats(output_format, explain_id)
        if not explain_id and (form != "desk" or show_hidden):
            err.print("error: --for and --show-hidden go with --explain HAND_ID", highlight=False, markup=False)
            raise typer.Exit(EXIT_ERROR)
        on_imported = print_text_summary if listing is AuditFormat.table else None
        if explain_id:
            report = audit.explain(database(db), paths or [], explain_id, site, rules, on_imported, form, show_hidden,
                                   player, desk_structures(structures))
            rendered = render(report, report_format)  # JSON escapes its own text; text and HTML carry names as written
            write_text(rendered if report_format == "json" else printable(rendered, lines=True), out_file)
            raise typer.Exit(EXIT_OK)
        chosen = hand_filter(sites=site, hand_id=hand or None)
        found_code = cast("Code | None", code)  # the parser made it a Code
        outcome = audit.audit(database(db), paths or [], chosen, found_code, player, rules, on_imported, report_dir,
                              desk_structures(structures))
        if outcome.pages is not None:
            info(f"wrote {outcome.pages} dispute pages and index.html to {report_dir}", stderr=True, highlight=False,
                 markup=False)
        print_violations(outcome.violations, listing)
        if listing is AuditFormat.table:
            summary = ", ".join(f"{n} {verdict}" for verdict, n in sorted(outcome.verdicts.items()))
            said = Text(f"{sum(outcome.verdicts.values())} hands audited: {summary or 'none stored'}; "
                        f"{len(outcome.violations)} violation{'' if len(outcome.violations) == 1 else 's'} reported")
            for line in fit_lines([said], listing_width()):
                info(line.plain, markup=False)
        raise typer.Exit(EXIT_FINDINGS if outcome.violations else EXIT_OK)


__all__ = ["EXIT_ERROR", "register"]
