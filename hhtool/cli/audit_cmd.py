"""`hhtool audit [PATH…]`: replay hands under a rule profile and report every violation."""

from __future__ import annotations

import csv
import json
import sys
from enum import StrEnum
from typing import Any

import typer
from rich.table import Table

from hhtool.cli.common import DB_OPTION, EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, err, open_store, out
from hhtool.cli.export_cmd import hand_filter
from hhtool.cli.import_cmd import check_rules, print_text_summary, resolve_import_paths, run_import
from hhtool.store import Store, StoreError
from hhtool.store.context import has_never_judged, judge_never_judged, judge_table_context
from hhtool.store.load import load_hands

VIOLATION_KEYS = ("site", "hand_id", "code", "street", "player", "expected", "actual", "message", "file", "line")


class AuditFormat(StrEnum):
    table = "table"
    jsonl = "jsonl"
    csv = "csv"


def rereplay(store: Store, rules: str, where: str, params: list[Any]) -> str:
    """Replay stored hands under another profile and store its findings beside the others."""
    from hhtool.replay import load_profile, profile_for, replay

    try:
        profile = load_profile(rules)
    except (KeyError, FileNotFoundError, ValueError) as error:
        err.print(f"[red]error:[/red] rule profile {rules!r}: {error}")
        raise typer.Exit(EXIT_ERROR) from error
    batch: list[tuple[Any, Any, str]] = []
    for hand in load_hands(store, where, params):
        chosen = profile_for(hand, profile)
        batch.append((hand, replay(hand, chosen), chosen.name))
        if len(batch) >= 2000:
            store.replace_replay(batch)
            batch = []
    if batch:
        store.replace_replay(batch)
    return profile.name


#: a hand with a conflicting copy is a violation whatever its replay says: the copy judged may be the edited one
CONFLICTED = "EXISTS (SELECT 1 FROM copy_conflicts c WHERE c.site = h.site AND c.hand_id = h.hand_id)"


def verdict_counts(store: Store, where: str, params: list[Any], profile: str | None) -> dict[str, int]:
    if profile is None:
        rows = store.run(f"""SELECT CASE WHEN {CONFLICTED} THEN 'violation' ELSE coalesce(h.verdict, 'not replayed') END,
                                    count(*) FROM hands h WHERE {where} GROUP BY 1""", params)
        return {str(verdict): int(n) for verdict, n in rows}
    rows = store.run(
        f"""SELECT CASE WHEN {CONFLICTED} OR EXISTS (SELECT 1 FROM violations v WHERE v.site = h.site
                                     AND v.hand_id = h.hand_id AND v.profile = ?) THEN 'violation'
                        WHEN EXISTS (SELECT 1 FROM unverifiable u WHERE u.site = h.site AND u.hand_id = h.hand_id
                                     AND u.profile = ?) THEN 'unverifiable'
                        ELSE 'ok' END, count(*)
            FROM hands h WHERE {where} GROUP BY 1""",
        [profile, profile, *params],
    )
    return {str(verdict): int(n) for verdict, n in rows}


def violations(store: Store, where: str, params: list[Any], code: str | None, player: str | None,
               profile: str | None) -> list[dict[str, Any]]:
    """The violations of the matching hands under the profile, with each conflicting copy as a
    CONFLICTING_COPY finding (expected: the kept copy, actual: the other one)."""
    profile_condition = "v.profile = h.rules_profile" if profile is None else "v.profile = ?"
    replayed = f"""SELECT v.site, v.hand_id, v.code, v.street, v.player, v.expected, v.actual, v.message, v.file,
                          v.line, h.started_at
                   FROM violations v JOIN hands h ON v.site = h.site AND v.hand_id = h.hand_id
                   WHERE {profile_condition} AND {where}"""
    values: list[Any] = ([] if profile is None else [profile]) + params
    if code:
        replayed += " AND v.code = ?"
        values.append(code.upper())
    if player:
        replayed += " AND v.player = ?"
        values.append(player)
    copies = f"""SELECT c.site, c.hand_id, 'CONFLICTING_COPY', NULL, NULL, c.first_file || ':' || c.first_first_line,
                        c.second_file || ':' || c.second_first_line,
                        'another copy of this hand differs (' || c.kind || '): ' || c.diff, c.second_file,
                        c.second_first_line, h.started_at
                 FROM copy_conflicts c JOIN hands h ON c.site = h.site AND c.hand_id = h.hand_id WHERE {where}"""
    if (code and code.upper() != "CONFLICTING_COPY") or player:
        copies += " AND FALSE"  # a conflict is about the whole hand, not one player's action
    sql = f"""SELECT site, hand_id, code, street, player, expected, actual, message, file, line
              FROM ({replayed} UNION ALL {copies}) ORDER BY started_at NULLS LAST, site, hand_id, line"""
    return [dict(zip(VIOLATION_KEYS, row, strict=True)) for row in store.run(sql, values + params)]


def print_violations(rows: list[dict[str, Any]], output_format: AuditFormat) -> None:
    if output_format is AuditFormat.jsonl:
        for row in rows:
            sys.stdout.write(json.dumps(row) + "\n")
    elif output_format is AuditFormat.csv:
        writer = csv.DictWriter(sys.stdout, fieldnames=list(VIOLATION_KEYS), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    else:
        table = Table(title=f"{len(rows)} violations" if rows else None)
        for key in ("hand_id", "code", "street", "player", "expected", "actual", "message", "line"):
            table.add_column(key, overflow="fold")
        for row in rows:
            table.add_row(*("" if row[key] is None else str(row[key]) for key in
                            ("hand_id", "code", "street", "player", "expected", "actual", "message", "line")))
        if rows:
            out.print(table)


def explain_hands(store: Store, hand_id: str, site: str | None, rules: str | None, report_format: str,
                  out_file: str | None) -> None:
    from hhtool.reports.dispute import HandLookupError, render, report_of

    try:
        report = report_of(store, hand_id, site, rules)
    except HandLookupError as error:
        err.print(f"error: {error}", highlight=False, markup=False)
        raise typer.Exit(EXIT_ERROR) from error
    write_output(render(report, report_format), out_file)


def write_output(text: str, out_file: str | None) -> None:
    if out_file is None:
        sys.stdout.write(text)
        return
    try:
        with open(out_file, "w", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as error:
        err.print(f"error: cannot write {out_file}: {error.strerror}", highlight=False, markup=False)
        raise typer.Exit(EXIT_ERROR) from error


def judge_old_store_once(db: str | None) -> None:
    """A store from before the table-context pass gets its forced bets judged once, briefly as a
    writer, so that a reading audit reports the current judgement; where it cannot be written the
    audit goes on with what is stored and says so."""
    with open_store(db, read_only=True) as store:
        if not has_never_judged(store):
            return
    try:
        with open_store(db) as store:
            judge_never_judged(store)
    except StoreError as error:
        err.print(f"warning: the forced bets of hands imported by an older hhtool are not judged yet ({error})",
                  highlight=False, markup=False)


def list_profiles() -> None:
    """Every built-in profile with one line on where it comes from (``--rules list``)."""
    from hhtool.replay import profile_catalog

    catalog = profile_catalog()
    width = max(len(name) for name, _ in catalog)
    for name, source in catalog:
        out.print(f"{name:<{width}}  {source}", highlight=False, markup=False)
    out.print("Or a TOML file: --rules my.toml (a [profile] table; 'base' names a built-in).",
              highlight=False, markup=False)


def formats(given: str, explain_id: str | None) -> tuple[str, AuditFormat]:
    """(--explain report format, audit listing format) from --format; a wrong one is a usage error."""
    report_formats = ("text", "json", "html")
    if explain_id:
        chosen = "text" if given == "table" else given
        if chosen not in report_formats:
            err.print(f"error: --format {given!r} with --explain; use text, json or html", highlight=False, markup=False)
            raise typer.Exit(EXIT_ERROR)
        return chosen, AuditFormat.table
    if given not in AuditFormat.__members__:
        err.print(f"error: --format {given!r}; use table, jsonl or csv", highlight=False, markup=False)
        raise typer.Exit(EXIT_ERROR)
    return "text", AuditFormat(given)


def register(app: typer.Typer) -> None:
    @app.command("audit")
    def audit_command(
        paths: list[str] = typer.Argument(None, help="Import these first (files, folders, globs); none: audit the store."),
        db: str | None = DB_OPTION,
        hand: str | None = typer.Option(None, "--hand", help="Only this site hand id."),
        site: str | None = typer.Option(None, "--site", help="Only this site."),
        code: str | None = typer.Option(None, "--code", help="Only this violation code, e.g. POT_AWARD."),
        player: str | None = typer.Option(None, "--player", help="Only violations by this player."),
        rules: str | None = typer.Option(
            None, "--rules", help="Replay under this profile (name or TOML file); '--rules list' lists the profiles."),
        explain_id: str | None = typer.Option(None, "--explain", metavar="HAND_ID",
                                              help="Explain one hand's pots and awards step by step."),
        output_format: str = typer.Option("table", "--format",
                                          help="table, jsonl or csv; with --explain: text, json or html."),
        out_file: str | None = typer.Option(None, "--out", help="With --explain: write the report to this file."),
        report_dir: str | None = typer.Option(None, "--report", metavar="DIR",
                                              help="Write one dispute page per hand with a violation, and an index."),
    ) -> None:
        """Re-verify bring-in, action order, bet sizes, caps, all-ins, pots and hi/lo splits.

        Exit code 0 when no violation is reported, 1 when some are, 2 on usage errors, 3 when the store fails.
        """
        if rules == "list":
            list_profiles()
            raise typer.Exit(EXIT_OK)
        check_rules(rules)
        report_format, output_format = formats(output_format, explain_id)
        files = resolve_import_paths(paths, None) if paths else None
        reading = not files and not rules  # audit without PATH or --rules only reads
        if reading and not explain_id:
            judge_old_store_once(db)
        with open_store(db, read_only=reading) as store:
            if files:
                report = run_import(store, files, None, rules, jobs=1)
                if output_format is AuditFormat.table:
                    print_text_summary(report)
            if explain_id:
                explain_hands(store, explain_id, site, rules, report_format, out_file)
                raise typer.Exit(EXIT_OK)
            if not reading:
                judge_never_judged(store)  # a store from before the table-context pass: judge its forced bets once
            where, params = hand_filter(site, hand, None)
            # Under --rules every matching stored hand is replayed again, duplicates of earlier imports included.
            profile = rereplay(store, rules, where, params) if rules else None
            if profile:  # the forced bets of those hands against their tables' other hands, under that profile
                judge_table_context(store, where, params, profile)
            rows = violations(store, where, params, code, player, profile)
            counts = verdict_counts(store, where, params, profile)
            if report_dir:
                from hhtool.reports.dispute.pages import write_pages

                try:
                    written = write_pages(store, report_dir, {(row["site"], row["hand_id"]) for row in rows}, rules)
                except OSError as error:
                    err.print(f"error: cannot write {report_dir}: {error.strerror}", highlight=False, markup=False)
                    raise typer.Exit(EXIT_ERROR) from error
                err.print(f"wrote {written} dispute pages and index.html to {report_dir}", highlight=False, markup=False)
        print_violations(rows, output_format)
        if output_format is AuditFormat.table:
            summary = ", ".join(f"{n} {verdict}" for verdict, n in sorted(counts.items()))
            out.print(f"{sum(counts.values())} hands audited: {summary or 'none stored'}; {len(rows)} violations reported")
        raise typer.Exit(EXIT_FINDINGS if rows else EXIT_OK)


__all__ = ["EXIT_ERROR", "register"]
