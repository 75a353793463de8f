"""`hhtool alias add|list|remove`: one person's names on several sites, grouped as one player."""

from __future__ import annotations

from enum import StrEnum

import typer

from hhtool.cli.common import DB_OPTION, database, err, out
from hhtool.cli.output import OutputFormat, emit_frame, printable


class ListFormat(StrEnum):
    table = "table"
    csv = "csv"
    json = "json"


alias_app = typer.Typer(
    name="alias", no_args_is_help=True, context_settings={"help_option_names": ["-h", "--help"]},
    help="Group one person's names on several sites as one player: `--player NAME` of stats, graph, "
         "violations, audit and export then means all of them (stats shows one row, graph one line). "
         "Aliases are kept in the database, so whoever reads it groups the same names. A name that is "
         "both an alias and a player's means the alias. Names match exactly, as the histories write them.",
)


def _plain(text: object) -> str:
    """No escape sequence or line break from a player's name reaches the terminal."""
    return printable(str(text))


@alias_app.command("add")
def add_command(
    name: str = typer.Argument(..., metavar="NAME", help="The person's name, as --player will ask for it."),
    site_names: list[str] = typer.Argument(..., metavar="SITE:PLAYER...",
                                           help="Each name as a site's histories write it, e.g. pokerstars:Hero."),
    db: str | None = DB_OPTION,
) -> None:
    """Group site names under NAME (creating the alias, or adding to it)."""
    from hhtool.service.aliases import add

    done = add(database(db), name, site_names)
    for warning in done.warnings:
        err.print(f"warning: {_plain(warning)}", markup=False, highlight=False)
    parts = []
    if done.added:
        parts.append("added " + ", ".join(map(str, done.added)))
    if done.already:
        parts.append("already had " + ", ".join(map(str, done.already)))
    out.print(_plain(f"alias {done.person}: {'; '.join(parts)}"), markup=False, highlight=False)


@alias_app.command("list")
def list_command(
    output_format: ListFormat = typer.Option(ListFormat.table, "--format", help="table, csv or json."),
    db: str | None = DB_OPTION,
) -> None:
    """Every alias and its site names, with the hands of each in the database."""
    import polars as pl

    from hhtool.service.aliases import aliases

    found = aliases(database(db))
    if not found and output_format is ListFormat.table:
        out.print("no aliases yet: `hhtool alias add NAME SITE:PLAYER...` groups a person's names", markup=False,
                  highlight=False)
        return
    rows = [{"alias": alias.person, "site": name.site, "player": name.player, "hands": hands}
            for alias in found for name, hands in alias.names]
    frame = pl.DataFrame(rows, schema={"alias": pl.Utf8, "site": pl.Utf8, "player": pl.Utf8, "hands": pl.Int64})
    emit_frame(frame, OutputFormat(output_format.value))


@alias_app.command("remove")
def remove_command(
    name: str = typer.Argument(..., metavar="NAME", help="The alias."),
    site_names: list[str] | None = typer.Argument(None, metavar="[SITE:PLAYER]...",
                                                  help="Only these names (default: the whole alias)."),
    db: str | None = DB_OPTION,
) -> None:
    """Take site names out of an alias, or remove the whole alias (the hands stay)."""
    from hhtool.service.aliases import remove

    removed = ", ".join(map(str, remove(database(db), name, site_names or [])))
    text = f"alias {name}: removed {removed}" if site_names else f"alias {name} removed (it grouped {removed})"
    out.print(_plain(text), markup=False, highlight=False)


def register(app: typer.Typer) -> None:
    app.add_typer(alias_app)


__all__ = ["register"]
