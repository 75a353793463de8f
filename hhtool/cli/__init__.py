"""The command line: a thin face over the service layer (:mod:`hhtool.service`).

Each command lives in its own ``*_cmd.py`` module exposing ``register(app)``: it parses the options,
calls one service function and renders the result (shared options and printing in :mod:`.common`
and :mod:`.output`). A command imports no other command; nothing imports the CLI.
Every command runs under :class:`hhtool.cli.common.GuardedGroup`, where failures become exit codes.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path
from types import FrameType


def _interrupted_while_starting(signum: int, frame: FrameType | None) -> None:
    sys.stderr.write("interrupted\n")
    os._exit(130)


# A Ctrl-C while the libraries load (a command imports its own) would print a traceback from whichever import it
# hit: until a command starts (GuardedGroup restores Python's handler), it just ends the program.
if Path(sys.argv[0]).name == "hhtool" or sys.argv[0].endswith(os.path.join("hhtool", "__main__.py")):
    signal.signal(signal.SIGINT, _interrupted_while_starting)

import importlib  # noqa: E402 - after the handler above, which must come first
import pkgutil  # noqa: E402

import typer  # noqa: E402

from hhtool import __version__  # noqa: E402
from hhtool.cli.common import BEFORE_COMMAND, EXIT_CODES_HELP, GuardedGroup  # noqa: E402

app = typer.Typer(
    name="hhtool",
    help="Import, replay and audit Seven Card Stud Hi/Lo (8 or better) hand histories.",
    epilog=EXIT_CODES_HELP,
    cls=GuardedGroup,
    no_args_is_help=True,
    add_completion=True,  # --install-completion, --show-completion (and `hhtool completion SHELL`)
    context_settings={"help_option_names": ["-h", "--help"]},  # -h as well, as users expect
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"hhtool {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print the version and exit."),
    db: str | None = typer.Option(None, "--db", help="DuckDB file for the command that follows (as its own --db)."),
) -> None:
    """Import, replay and audit Seven Card Stud Hi/Lo (8 or better) hand histories.

    The database is an embedded DuckDB file: --db PATH, or the HHTOOL_DB environment variable, or the
    config file's database (`hhtool config`), or hhtool.duckdb in your data folder (e.g.
    ~/.local/share/hhtool); --db :memory: keeps nothing. --db may come before the command
    (`hhtool --db X stats`) or after it; after it, it wins.
    """
    BEFORE_COMMAND["db"] = db


for _info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
    if _info.name.endswith("_cmd"):
        importlib.import_module(f"{__name__}.{_info.name}").register(app)
