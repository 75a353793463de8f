"""Options and output helpers shared by the commands, the store a command names (:func:`database`),
and the one place where a failure becomes an exit code and a one-line message
(:class:`GuardedGroup`, used by the app for every command).

The conventions every command keeps without declaring anything: GuardedGroup gives each command
(and the app, before the command) ``-q/--quiet`` and ``-v/--verbose``, read through :func:`verbosity`
(:func:`info` and :func:`detail` print by it), and help whose value labels are names (``--db DB``,
``--format text|json``), never Python types (``<str>``, ``<bool>``). ``NO_COLOR`` (and output that is
not a terminal) means no escape sequence, help included. A list of choices for an option's help
comes from its one source (:func:`choices`).

Start-up stays light: nothing here (nor in a command module) imports DuckDB, Polars, PyArrow, Lark or
the replay at module level, so `hhtool --help`, a command's --help and completion load none of them; a
command imports the service it calls when it runs. Help that names values from a heavy module (the rule
profiles, the finding codes) is :func:`late_help`, filled in when its command is resolved.
"""

from __future__ import annotations

import errno
import os
import signal
import sys
import threading
import traceback
from collections.abc import Callable, Iterable, Sequence
from enum import Enum, IntEnum
from typing import Any, Literal

import typer
from rich.console import Console
from rich.markup import escape
from typer._click import exceptions as click  # Typer's own Click (it carries one)
from typer.core import TyperGroup

from hhtool.service import stores
from hhtool.service.choices import profile_names, site_names
from hhtool.service.errors import CannotWrite, UsageError
from hhtool.service.numbers import WholeNumber
from hhtool.service.stores import IMPORT_MEMORY_ENV, Database

#: the sites (the registry of site parsers, read without loading them), as the help lists them
SITE_CHOICES = ", ".join(site_names())

#: placeholder -> the help text, from a module too heavy to load for every start
_LATE: dict[str, Callable[[], str]] = {}


def late_help(text: Callable[[], str]) -> str:
    """A placeholder for an option's help that ``text()`` gives when its command is resolved (to run,
    show its help or complete: :meth:`GuardedGroup.resolve_command`), never for `hhtool --help`."""
    key = f"\0late-{len(_LATE)}"
    _LATE[key] = text
    return key


def fill_late(command: Any) -> None:
    """Put the late help of ``command``'s options in place of their placeholders (once)."""
    for param in getattr(command, "params", ()):
        text = _LATE.get(getattr(param, "help", None) or "")
        if text is not None:
            param.help = text()


def _complete_site(incomplete: str) -> list[str]:
    return [name for name in site_names() if name.startswith(incomplete.lower())]


def _complete_rules(incomplete: str) -> list[str]:
    return [name for name in (*profile_names(), "list") if name.startswith(incomplete.lower())]


def site_option(what: str) -> Any:
    """``--site`` with the sites listed after ``what`` (and completed by the shell)."""
    return typer.Option(None, "--site", autocompletion=_complete_site, help=f"{what}: {SITE_CHOICES}.")


def rules_option(what: str) -> Any:
    """``--rules`` with the built-in profiles listed after ``what`` (and completed by the shell)."""
    return typer.Option(None, "--rules", autocompletion=_complete_rules,
                        help=late_help(lambda: f"{what}: {', '.join(profile_names())}; or a TOML file."))


def number_option(rule: WholeNumber, default: Any, *names: str, help: str) -> Any:
    """An option taking a whole number that ``rule`` (:mod:`hhtool.service.numbers`, the one the web
    pages use too) reads and bounds (``default``: a number, None, or ``...`` when it must be given);
    its help ends with the bounds. A value outside is a usage error:
    ``Invalid value for '--limit': wants a whole number from 1 to 1,000,000, not '1e23'``."""

    def parse(text: str) -> int:
        value = rule.read(str(text))
        if value is None:  # (not a ValueError: Typer would put its own words before the reason)
            raise typer.BadParameter(rule.refusal(str(text)))
        return value

    return typer.Option(default, *names, parser=parse, metavar="N", help=f"{help} ({rule.bounds}).")


STRUCTURES_OPTION = typer.Option(None, "--structures", metavar="FILE.toml",
                                 help="Your sites' levels, forced bets and rake schedules (docs/structures.md; "
                                 "default: the config file's structures): what no history states is checked "
                                 "against it, not assumed.")
DB_OPTION = typer.Option(None, "--db", help="DuckDB file (default: $HHTOOL_DB, the config file's database "
                         "(`hhtool config`), or hhtool.duckdb in your data folder; ':memory:' keeps nothing).")
# the hand filter's options: hhtool.cli.filter_options

#: exit codes, shared by every command
EXIT_OK = 0
EXIT_FINDINGS = 1  # some hands failed (import), violations reported (audit)
EXIT_USAGE = 2  # a wrong option, argument, $HHTOOL_* value or SQL statement
EXIT_ERROR = EXIT_USAGE  # the name the commands give their usage errors
EXIT_STORE = 3  # the store (or another file hhtool had to read or write) could not be read or written
EXIT_INTERNAL = 4  # a bug in hhtool
EXIT_INTERRUPTED = 130  # Ctrl-C (128 + SIGINT, as shells report it)

EXIT_CODES_HELP = (
    "Exit codes: 0 ok; 1 some hands failed (import) or violations were reported (audit); 2 usage error "
    "(a bad option, an --out where no file can be made, $HHTOOL_* value or SQL statement); 3 the store, or a "
    "file hhtool had to write, could not be read or written (disk full, damaged database, newer schema, locked "
    "by another process); 4 internal error; 130 interrupted (what was stored stays stored: run the same command "
    "again to resume)."
)
DEBUG_ENV = "HHTOOL_DEBUG"

ColorSystem = Literal["auto", "standard", "256", "truecolor", "windows"]


def no_color() -> bool:
    """``NO_COLOR`` is set to anything but the empty string (https://no-color.org)."""
    return os.environ.get("NO_COLOR", "") != ""


#: no colour system at all under NO_COLOR: Rich's own NO_COLOR handling keeps bold and dim escapes
COLOR_SYSTEM: ColorSystem | None = None if no_color() else "auto"


def _plain_typer_panels() -> None:
    """Under NO_COLOR, Typer's help and usage-error panels without colour (its documented switch). Its
    rich_utils module is loaded only for help and errors: set when one of them is about to be shown."""
    if COLOR_SYSTEM is None:
        import typer.rich_utils

        typer.rich_utils.COLOR_SYSTEM = None

# Tables piped to a file or another program get room instead of an 80-column wrap.
out = Console(soft_wrap=True, width=None if sys.stdout.isatty() else 200, color_system=COLOR_SYSTEM)
err = Console(stderr=True, soft_wrap=True, color_system=COLOR_SYSTEM)


# ------------------------------------------------------------------ -q / -v


class Verbosity(IntEnum):
    QUIET = 0  # errors and the result only
    NORMAL = 1
    VERBOSE = 2  # more detail (an import's line per file)


#: this run's level, set while the command line is parsed (the commands run on a worker thread)
_LEVEL: dict[str, Verbosity] = {"now": Verbosity.NORMAL}


def verbosity() -> Verbosity:
    """How much the command should say: -q, -v (the last one given wins, before or after the command)."""
    return _LEVEL["now"]


def info(*objects: Any, stderr: bool = False, **options: Any) -> None:
    """Print what is not the result (a progress note, "wrote FILE", a summary of work done) unless -q."""
    if verbosity() > Verbosity.QUIET:
        (err if stderr else out).print(*objects, **options)


def detail(*objects: Any, stderr: bool = False, **options: Any) -> None:
    """Print what only -v asks for."""
    if verbosity() >= Verbosity.VERBOSE:
        (err if stderr else out).print(*objects, **options)


def _set_level(level: Verbosity) -> Callable[[bool], None]:
    def given(value: bool) -> None:
        if value:
            _LEVEL["now"] = level
    return given


QUIET_OPTION = typer.Option(False, "--quiet", "-q", callback=_set_level(Verbosity.QUIET),
                            help="Only errors and the result: no progress, notes or summaries.")
VERBOSE_OPTION = typer.Option(False, "--verbose", "-v", callback=_set_level(Verbosity.VERBOSE),
                              help="More detail, e.g. a line per file in an import's summary.")


def _verbosity_params() -> list[Any]:
    """-q and -v as the parameters Typer makes of QUIET_OPTION and VERBOSE_OPTION, passed to no
    command function (their callbacks set the level)."""
    holder = typer.Typer(add_completion=False)

    @holder.command()
    def conventions(quiet: bool = QUIET_OPTION, verbose: bool = VERBOSE_OPTION) -> None:
        """Never run: the options' holder."""

    params = list(typer.main.get_command(holder).params)
    for param in params:
        param.expose_value = False
    return params


# ------------------------------------------------------------------ help: choices and value labels


def choices(values: Iterable[object], last: str = "or") -> str:
    """``a, b or c`` from the one list of an option's values (an enum, the site registry, …)."""
    names = [str(value.value) if isinstance(value, Enum) else str(value) for value in values]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {last} {names[-1]}"


def _value_label(param: Any) -> Callable[..., str | None]:
    """The label of ``param``'s value in the help: its metavar, its choices (a|b), or its name in
    capitals; none for a flag or an argument (its name is shown)."""
    def label(ctx: Any = None) -> str | None:
        if param.param_type_name == "argument" or getattr(param, "is_flag", False) or getattr(param, "count", False):
            return None
        if param.metavar is not None:
            return str(param.metavar)
        descriptor = getattr(param, "type_descriptor", None)
        if descriptor is not None and descriptor.is_choice:
            return "|".join(str(c.value) if isinstance(c, Enum) else str(c) for c in descriptor.choices or ())
        long_names = [opt for opt in param.opts if opt.startswith("--")] or list(param.opts)
        return long_names[0].lstrip("-").upper().replace("-", "_")
    return label


def keep_conventions(command: Any, ctx: Any) -> None:
    """Give ``command`` -q/-v (once) and name-like value labels in its help."""
    if not getattr(command, "_hhtool_conventions", False):
        taken = {opt for param in command.params for opt in param.opts}
        command.params.extend(p for p in _verbosity_params() if not taken & set(p.opts))
        command._hhtool_conventions = True
    for param in command.get_params(ctx):
        if param.param_type_name == "argument" and param.metavar is None:  # HAND_ID, PATHS, as usage lines name them
            param.metavar = (param.name or "").upper()
        if hasattr(param, "display_type_rich") and not getattr(param, "_hhtool_label", False):
            param.display_type_rich = _value_label(param)  # this instance's, in the place of Typer's <type>
            param._hhtool_label = True


#: options given before the command (``hhtool --db X stats``), set by the app's callback on every run
#: (the commands run on a worker thread, where click's context is not at hand)
BEFORE_COMMAND: dict[str, str | None] = {"db": None}


def database(db: str | None) -> Database:
    """The store named by --db (or $HHTOOL_DB, or the default), telling the user on stderr while the
    service waits for another process's lock, warns, or stores report facts first. A --db given
    before the command (``hhtool --db X stats``) counts where the command's own is not given."""
    return Database(db if db is not None else BEFORE_COMMAND["db"], on_wait=_tell_waiting, warn=_warn,
                    on_facts_refresh=_tell_refreshing, on_upgrade=_tell_upgrading)


def _tell_waiting(path: str, holder: str, read_only: bool) -> None:
    what = "read" if read_only else "write"
    err.print(f"waiting for database {path} (to {what} it): {holder}…", highlight=False, markup=False)


def _tell_upgrading(path: str, old: int, new: int) -> None:
    if verbosity() is not Verbosity.QUIET:
        err.print(f"upgrading database {path} from schema version {old} to {new} (once; a large store takes "
                  "a while)…", highlight=False, markup=False)


def _warn(text: str) -> None:
    err.print(f"[yellow]warning:[/yellow] {escape(text)}", highlight=False)


def _tell_refreshing() -> None:
    if stderr_is_terminal() and verbosity() is not Verbosity.QUIET:
        err.print("storing the report facts of hands imported without them (once per hand)…")


def stderr_is_terminal() -> bool:
    return sys.stderr.isatty()


def live_progress() -> bool:
    """Whether a progress display that redraws itself may run: stderr is a terminal, no -q, and no
    NO_COLOR (a redraw is escape sequences, which NO_COLOR rules out as well as colour)."""
    return stderr_is_terminal() and verbosity() is not Verbosity.QUIET and not no_color()


# ------------------------------------------------------------------ failures -> exit codes


def failure(error: BaseException) -> tuple[int, str]:
    """The exit code and one-line message for an error no command handled itself."""
    path = stores.opened_path() or "the database"
    if isinstance(error, KeyboardInterrupt) or _duckdb_saw_ctrl_c(error):
        return EXIT_INTERRUPTED, "interrupted"
    if isinstance(error, UsageError):
        return EXIT_USAGE, str(error)
    if isinstance(error, CannotWrite):
        return EXIT_STORE, str(error)
    from hhtool.service.errors import SchemaTooNew, SettingError, StoreError  # (the store loads: at an error only)

    if isinstance(error, SettingError):
        return EXIT_USAGE, str(error)
    if isinstance(error, StoreError | SchemaTooNew):
        return EXIT_STORE, str(error)
    duckdb = sys.modules.get("duckdb")  # not loaded: the error is none of DuckDB's
    if duckdb is not None and isinstance(error, duckdb.Error | duckdb.InterruptException):
        return _duckdb_failure(error, duckdb, path)
    if isinstance(error, MemoryError):
        return EXIT_STORE, "out of memory"
    if isinstance(error, OSError):
        where = f" {error.filename}" if error.filename else ""
        reason = error.strerror or str(error)
        if error.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
            return EXIT_STORE, f"disk full (or file size limit) writing{where}: {reason}"
        return EXIT_STORE, f"cannot read or write{where}: {reason}"
    return EXIT_INTERNAL, f"internal error: {type(error).__name__}: {error}"


def _duckdb_failure(error: BaseException, duckdb: Any, path: str) -> tuple[int, str]:
    from hhtool.service.errors import duckdb_message, is_damage

    if isinstance(error, duckdb.InterruptException):
        return EXIT_INTERRUPTED, "interrupted"
    if isinstance(error, duckdb.OutOfMemoryException):
        return EXIT_STORE, (f"out of memory working on database {path} ({duckdb_message(error)}); "
                            f"raise ${IMPORT_MEMORY_ENV} or free memory")
    if isinstance(error, duckdb.CatalogException):  # a table or view hhtool's schema has is not in the store
        return EXIT_STORE, (f"database {path} lacks part of hhtool's schema ({duckdb_message(error)}): it is damaged, "
                            "or not an hhtool store")
    if isinstance(error, duckdb.ProgrammingError):  # our own SQL is wrong: a bug, not the store's fault
        return EXIT_INTERNAL, f"internal error: {duckdb_message(error)}"
    message = duckdb_message(error)
    if _disk_full(message):
        return EXIT_STORE, f"disk full (or file size limit) writing database {path}: {message}"
    if is_damage(message):
        return EXIT_STORE, f"database {path} is damaged or truncated: {message}"
    verb = "read or written" if stores.opened_for_writing() else "read"
    return EXIT_STORE, f"database {path} could not be {verb}: {message}"


def _duckdb_saw_ctrl_c(error: BaseException) -> bool:
    """DuckDB turns a Ctrl-C during a query into this RuntimeError rather than a KeyboardInterrupt."""
    return type(error) is RuntimeError and str(error) == "Query interrupted"


def _disk_full(message: str) -> bool:
    return any(words in message for words in ("No space left", "File too large", "Disk quota", "out of disk"))


def report_failure(error: BaseException) -> int:
    """Print the one line for ``error`` (and what a writer had stored); return the exit code."""
    code, message = failure(error)
    # a usage error is found before the work starts: nothing to say of what was stored
    stored = None if isinstance(error, UsageError) else stores.stored_since_open()
    if stored is not None:
        message += (f"; {stored:,} hands were stored before that, each one whole: "
                    "run the same command again to resume (stored hands and files are skipped)")
    if os.environ.get(DEBUG_ENV):  # for whoever investigates: where it came from, above the one line
        traceback.print_exception(error, file=sys.stderr)
    elif code == EXIT_INTERNAL:
        message += f" (a bug in hhtool; {DEBUG_ENV}=1 shows where)"
    if code == EXIT_INTERRUPTED:
        err.print(message, markup=False, highlight=False)
    else:
        err.print(f"[red]error:[/red] {escape(message)}", highlight=False)
    return code


def closed_pipe(error: OSError) -> bool:
    """Whether ``error`` is stdout's reader having gone (`hhtool stats | head`): the reader took what
    it wanted, so the command ends quietly with 0. Then stdout is pointed at the null device, so
    that nothing still buffered fails again at the interpreter's exit."""
    if error.errno != errno.EPIPE:
        return False
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError):  # a stdout without a file descriptor (a test's capture)
        pass
    return True


def _reader_gone(console: Console) -> None:
    """Rich's answer to a closed pipe is SystemExit(1); here it is the error itself, which
    :func:`closed_pipe` turns into a quiet end (every console: ours and Typer's help)."""
    console.quiet = True
    raise BrokenPipeError(errno.EPIPE, "Broken pipe")


Console.on_broken_pipe = _reader_gone  # type: ignore[method-assign,assignment]


class GuardedGroup(TyperGroup):
    """Runs a command so that nothing but its own output and one line reach the user: an error no
    command handled (a full disk, a damaged database, a bad $HHTOOL_* value, Ctrl-C) ends with the
    message and exit code :func:`failure` gives it, never a traceback."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        _LEVEL["now"] = Verbosity.NORMAL  # each run starts at the normal level (a test runs many)
        keep_conventions(self, ctx)
        try:  # (`hhtool --help` prints here)
            return list(super().parse_args(ctx, args))
        except OSError as error:
            if not closed_pipe(error):
                raise
            raise typer.Exit(EXIT_OK) from None

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, windows_expand_args: bool = True, **extra: Any) -> Any:
        """Click's errors (a bad option value, an unknown option or command) as one line, ``error: …``,
        with what to do, instead of Typer's box; exit 2. ``standalone_mode=False`` is left to Click."""
        _plain_typer_panels()
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        try:
            code = super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        except click.NoArgsIsHelpError as error:  # `hhtool` alone: the help, shown already
            sys.exit(error.exit_code)
        except click.ClickException as error:
            err.print(f"[red]error:[/red] {escape(click_error_line(error))}", highlight=False)
            sys.exit(EXIT_USAGE if isinstance(error, click.UsageError) else error.exit_code)
        except typer.Abort:
            err.print("aborted", markup=False, highlight=False)
            sys.exit(EXIT_FINDINGS)
        try:  # what is still buffered, now: a closed pipe found at the interpreter's exit would be "Exception ignored"
            sys.stdout.flush()
        except OSError as error:
            if not closed_pipe(error):
                raise
        sys.exit(code if isinstance(code, int) else EXIT_OK)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            keep_conventions(command, ctx)
        return command

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        """The command to run (or whose help to show, or to complete): its late help filled in."""
        name, command, rest = super().resolve_command(ctx, args)
        fill_late(command)
        return name, command, rest

    def invoke(self, ctx: Any) -> Any:
        stores.command_starts()
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, signal.default_int_handler)  # Ctrl-C is a KeyboardInterrupt from here on
        try:
            return super().invoke(ctx)
        except (Exception, KeyboardInterrupt) as error:  # the one place where errors end
            if _is_cli_control(error):
                raise
            if isinstance(error, OSError) and closed_pipe(error):
                raise typer.Exit(EXIT_OK) from None
            code = report_failure(error)
            raise typer.Exit(code) from None
        finally:
            stores.command_ends()


def click_error_line(error: click.ClickException) -> str:
    """Click's message for ``error`` on one line (its "did you mean" kept), and where to look:
    ``No such option: --form (Possible options: --format, --from, --sort); see 'hhtool stats -h'``."""
    line = " ".join(error.format_message().split()).rstrip(".")
    ctx = getattr(error, "ctx", None)
    if ctx is not None and ctx.command.get_help_option(ctx) is not None:
        see = f"see '{ctx.command_path} {ctx.help_option_names[0]}'"
        line += f" {see[0].upper()}{see[1:]}" if line.endswith("?") else f"; {see}"
    return line


def _is_cli_control(error: BaseException) -> bool:
    """Exit, Abort and usage errors of Typer (and the Click it carries): they already say what happened."""
    return isinstance(error, typer.Exit | typer.Abort) or type(error).__module__.split(".")[0] in ("typer", "click")
