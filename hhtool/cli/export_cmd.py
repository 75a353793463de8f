"""`hhtool export`: the store's tables as partitioned Parquet (the layout a cluster import writes),
or stored hands as PHH (the PokerKit project's hand history notation, variant F7S/8)."""

from __future__ import annotations

import re
from enum import StrEnum
from pathlib import Path
from typing import Any

import typer

from hhtool.cli.common import DB_OPTION, EXIT_ERROR, EXIT_STORE, err, open_store, out
from hhtool.store.schema import HAND_TABLES, REPLAY_TABLES

EXPORTED_TABLES = ("files", "hands", *HAND_TABLES, *REPLAY_TABLES, "import_errors", "skipped_hands")
_UNSAFE_IN_NAME = re.compile(r"[^A-Za-z0-9._-]+")


class ExportFormat(StrEnum):
    parquet = "parquet"
    phh = "phh"


def hand_filter(site: str | None, hand: str | None, player: str | None) -> tuple[str, list[Any]]:
    """SQL condition on ``hands`` (alias h) for the export filters."""
    conditions, params = ["TRUE"], []
    if site:
        conditions.append("h.site = ?")
        params.append(site.lower())
    if hand:
        conditions.append("h.hand_id = ?")
        params.append(hand)
    if player:
        conditions.append("EXISTS (SELECT 1 FROM seats s WHERE s.site = h.site AND s.hand_id = h.hand_id AND s.player = ?)")
        params.append(player)
    return " AND ".join(conditions), params


def phh_file_name(site: str, hand_id: str, taken: set[str]) -> str:
    """``<site>-<hand id>.phh`` with characters a file name should not hold replaced; unique in ``taken``.

    >>> taken = set()
    >>> phh_file_name("merge", "81234567/2", taken), phh_file_name("merge", "81234567:2", taken)
    ('merge-81234567_2.phh', 'merge-81234567_2-2.phh')
    """
    stem = _UNSAFE_IN_NAME.sub("_", f"{site}-{hand_id}")
    name, number = f"{stem}.phh", 1
    while name in taken:
        number += 1
        name = f"{stem}-{number}.phh"
    taken.add(name)
    return name


def export_phh(store: Any, target: Path, where: str, params: list[Any], user_fields: bool = True) -> tuple[int, list[str]]:
    """Write matching hands to ``target``: one ``.phhs`` when it ends so, else a folder of ``.phh``
    files. Returns (hands written, "site hand: reason" of each hand PHH cannot express)."""
    from hhtool.phh import PhhExportError, hand_to_phh
    from hhtool.store.load import load_hands

    written, refused = 0, []
    single = target.suffix.lower() == ".phhs"
    if single:
        target.parent.mkdir(parents=True, exist_ok=True)
        sink = target.open("w", encoding="utf-8", newline="\n")
    else:
        target.mkdir(parents=True, exist_ok=True)
    taken: set[str] = set()
    try:
        for hand in load_hands(store, where, params):
            try:
                text = hand_to_phh(hand, str(written + 1) if single else None, user_fields)
            except PhhExportError as error:
                refused.append(f"{hand.site} {hand.hand_id}: {error}")
                continue
            if single:
                sink.write(("\n" if written else "") + text)
            else:
                (target / phh_file_name(hand.site, hand.hand_id, taken)).write_text(text, encoding="utf-8", newline="\n")
            written += 1
    finally:
        if single:
            sink.close()
    return written, refused


def register(app: typer.Typer) -> None:
    @app.command("export")
    def export_command(
        out_dir: str | None = typer.Argument(None, help="parquet: folder to write <table>/part-00000.parquet into."),
        output_format: ExportFormat = typer.Option(ExportFormat.parquet, "--format", help="parquet or phh."),
        target: str | None = typer.Option(None, "--out", help="phh: a folder (one .phh per hand) or a FILE.phhs."),
        site: str | None = typer.Option(None, "--site", help="phh: only hands of this site."),
        hand: str | None = typer.Option(None, "--hand", help="phh: only the hand with this id."),
        player: str | None = typer.Option(None, "--player", help="phh: only hands this player sat in."),
        plain: bool = typer.Option(False, "--plain", help="phh: leave out hhtool's _hhtool_* fields."),
        db: str | None = DB_OPTION,
    ) -> None:
        """Export the stored hands, findings and import errors (parquet), or the hands as PHH."""
        if output_format is ExportFormat.phh:
            _export_phh(out_dir, target, site, hand, player, plain, db)
            return
        if out_dir is None or target or site or hand or player or plain:
            err.print("[red]error:[/red] --format parquet takes a folder argument and no --out or filters")
            raise typer.Exit(EXIT_ERROR)
        from hhtool.parquet_export import export_parquet

        with open_store(db, read_only=True) as store:
            try:
                counts = export_parquet(store, out_dir, EXPORTED_TABLES)
            except OSError as error:
                err.print(f"[red]error:[/red] cannot write {out_dir}: {error}")
                raise typer.Exit(EXIT_STORE) from error
        out.print(", ".join(f"{name} {rows}" for name, rows in counts.items()), highlight=False)


def _export_phh(out_dir: str | None, target: str | None, site: str | None, hand: str | None, player: str | None,
                plain: bool, db: str | None) -> None:
    if out_dir is not None or target is None:
        err.print("[red]error:[/red] --format phh writes to --out DIR or --out FILE.phhs (no folder argument)")
        raise typer.Exit(EXIT_ERROR)
    where, params = hand_filter(site, hand, player)
    with open_store(db, read_only=True) as store:
        try:
            written, refused = export_phh(store, Path(target), where, params, user_fields=not plain)
        except OSError as error:
            err.print(f"[red]error:[/red] cannot write {target}: {error}")
            raise typer.Exit(EXIT_STORE) from error
    for reason in refused:
        err.print(f"[yellow]not exported:[/yellow] {reason}", highlight=False)
    out.print(f"{written} hands written to {target}" + (f"; {len(refused)} not expressible in PHH" if refused else ""),
              highlight=False)
