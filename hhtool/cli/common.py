"""Options and output helpers shared by the commands."""

from __future__ import annotations

import sys

import typer
from rich.console import Console

from hhtool.store import Store, StoreLocked, resolve_db_path

DB_OPTION = typer.Option(None, "--db", help="DuckDB file (default: $HHTOOL_DB or ./hhtool.duckdb; ':memory:' keeps nothing).")

#: exit codes, shared by every command
EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2

# Tables piped to a file or another program get room instead of an 80-column wrap.
out = Console(soft_wrap=True, width=None if sys.stdout.isatty() else 200)
err = Console(stderr=True, soft_wrap=True)


def open_store(db: str | None, read_only: bool = False) -> Store:
    path = resolve_db_path(db)
    try:
        return Store(path, read_only=read_only)
    except StoreLocked as error:
        err.print(f"[red]error:[/red] {error}")
        raise typer.Exit(EXIT_ERROR) from error
    except Exception as error:  # a bad path or a file that is not a DuckDB database
        err.print(f"[red]error:[/red] cannot open database {path}: {error}")
        raise typer.Exit(EXIT_ERROR) from error


def stderr_is_terminal() -> bool:
    return sys.stderr.isatty()
