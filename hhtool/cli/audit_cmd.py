"""`hhtool audit [PATH…]`: replay hands under a rule profile and report every violation."""

from __future__ import annotations

import csv
import json
import sys
from enum import StrEnum
from typing import TYPE_CHECKING, Any, cast

import typer
from rich.table import Table
from rich.text import Text

from hhtool.cli.common import (
    DB_OPTION,
    EXIT_ERROR,
    EXIT_FINDINGS,
    EXIT_OK,
    choices,
    database,
    err,
    info,
    late_help,
    out,
    rules_option,
    site_option,
)
from hhtool.cli.output import fit_lines, print_text_summary, printable, terminal_width, write_text
from hhtool.service.choices import REPORT_FORMATS, code_names, finding_code

if TYPE_CHECKING:
    from hhtool.service.verdicts import Code

#: the columns of the terminal table (the other formats carry every key)
TABLE_KEYS = ("hand_id", "code", "street", "player", "expected", "actual", "message", "line")


class AuditFormat(StrEnum):
    table = "table"
    jsonl = "jsonl"
    csv = "csv"


SITE_OPTION = site_option("Only this site")
RULES_OPTION = rules_option("Replay under this profile ('--rules list' lists them with their sources)")
FORMAT_HELP = f"{choices(AuditFormat)}; with --explain: {choices(REPORT_FORMATS)}."
CODE_HELP = late_help(lambda: f"Only this code: {code_names()}.")


def print_violations(rows: list[dict[str, Any]], output_format: AuditFormat) -> None:
    from hhtool.service.verdicts import VIOLATION_KEYS

    if output_format is AuditFormat.jsonl:
        for row in rows:
            sys.stdout.write(json.dumps(row) + "\n")
    elif output_format is AuditFormat.csv:
        writer = csv.DictWriter(sys.stdout, fieldnames=list(VIOLATION_KEYS), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    else:
        table = Table(title=f"{len(rows)} violations" if rows else None)
        for key in TABLE_KEYS:
            table.add_column(key, overflow="fold")
        for row in rows:
            table.add_row(*("" if row[key] is None else str(row[key]) for key in TABLE_KEYS))
        if rows:
            out.print(table)


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
        player: str | None = typer.Option(None, "--player", help="Only violations by this player."),
        rules: str | None = RULES_OPTION,
        explain_id: str | None = typer.Option(None, "--explain", metavar="HAND_ID",
                                              help="Explain one hand's pots and awards step by step."),
        output_format: str = typer.Option("table", "--format", help=FORMAT_HELP),
        out_file: str | None = typer.Option(None, "--out", help="With --explain: write the report to this file."),
        report_dir: str | None = typer.Option(None, "--report", metavar="DIR",
                                              help="Write one dispute page per hand with a violation, and an index."),
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
        on_imported = print_text_summary if listing is AuditFormat.table else None
        if explain_id:
            report = audit.explain(database(db), paths or [], explain_id, site, rules, on_imported)
            rendered = render(report, report_format)  # JSON escapes its own text; text and HTML carry names as written
            write_text(rendered if report_format == "json" else printable(rendered, lines=True), out_file)
            raise typer.Exit(EXIT_OK)
        chosen = hand_filter(sites=site, hand_id=hand or None)
        found_code = cast("Code | None", code)  # the parser made it a Code
        outcome = audit.audit(database(db), paths or [], chosen, found_code, player, rules, on_imported, report_dir)
        if outcome.pages is not None:
            info(f"wrote {outcome.pages} dispute pages and index.html to {report_dir}", stderr=True, highlight=False,
                 markup=False)
        print_violations(outcome.violations, listing)
        if listing is AuditFormat.table:
            summary = ", ".join(f"{n} {verdict}" for verdict, n in sorted(outcome.verdicts.items()))
            info(f"{sum(outcome.verdicts.values())} hands audited: {summary or 'none stored'}; "
                      f"{len(outcome.violations)} violations reported")
        raise typer.Exit(EXIT_FINDINGS if outcome.violations else EXIT_OK)


__all__ = ["EXIT_ERROR", "register"]
