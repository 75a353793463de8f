"""Who holds a database file another process wants: DuckDB's conflict message names the holder's
program and PID; its command line (``/proc/PID/cmdline``, else ``ps``) says what it is doing, so that
a waiting command can say "an import (hhtool import --watch hands, PID 1234) is writing a batch"."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

#: DuckDB's words for another process holding the file (checked once the path is cut out of the
#: message, so that a path which itself contains "lock" is not taken for a lock conflict)
_LOCK_CONFLICT = re.compile(r'Could not set lock on file "": Conflicting lock is held in (?P<program>.*?)'
                            r'(?: \(PID (?P<pid>\d+)\))?(?P<rest>\. However, you would be able to open this database '
                            r'in read-only mode|\. See also|$)', re.DOTALL)
#: the hhtool commands that write the store (the others only read it)
_WRITERS = {"import": "an import", "audit": "an audit"}
#: characters of a command line shown at most
_SHOWN = 60


@dataclass(frozen=True)
class Holder:
    """The process holding the file: its PID and program as DuckDB names them, its command line
    when it can be read, and whether it holds the file for writing (else it only reads it)."""

    pid: int | None
    program: str
    argv: tuple[str, ...]
    writing: bool

    def hhtool_command(self) -> list[str] | None:
        """The arguments after ``hhtool`` (``hhtool …``, ``python -m hhtool …``), or None."""
        for index, argument in enumerate(self.argv):
            if Path(argument).name in ("hhtool", "hhtool.exe"):
                return list(self.argv[index + 1:])
            if argument == "-m" and self.argv[index + 1:index + 2] in (["hhtool"], ["hhtool.cli"]):
                return list(self.argv[index + 2:])
        return None

    def command(self) -> str:
        """The holder's command line, shortened to fit a message line."""
        arguments = self.hhtool_command()
        if arguments is not None:
            text = shlex.join(["hhtool", *arguments])
        else:
            text = shlex.join(self.argv) if self.argv else self.program
        text = "".join(character if character.isprintable() else "?" for character in text)
        return text if len(text) <= _SHOWN else text[:_SHOWN - 1] + "…"

    def role(self) -> str:
        arguments = self.hhtool_command()
        if arguments is None:
            return "another program"
        return _WRITERS.get(_command_word(arguments), "an hhtool command" if self.writing else "a reader")

    def describe(self) -> str:
        """``an import (hhtool import --watch hands, PID 1234)``"""
        return f"{self.role()} ({self.command()}" + (f", PID {self.pid})" if self.pid is not None else ")")

    def doing(self) -> str:
        """What it does with the file, as far as can be told."""
        if not self.writing:
            return "is reading it"
        return "is writing a batch" if self.role() in _WRITERS.values() else "has it open for writing"


def _command_word(arguments: list[str]) -> str:
    """The command in hhtool's arguments: the first word that is not an option (or --db's value)."""
    words = iter(arguments)
    for argument in words:
        if argument == "--db":
            next(words, None)
        elif not argument.startswith("-"):
            return argument
    return ""


def holder_of(error: BaseException, path: str, read_only: bool) -> Holder | None:
    """The holder when ``error`` says another process holds ``path``; None for any other error.
    The path is cut out first: it may contain any word. A reader is only ever kept out by a writer;
    a writer is kept out by readers too, and DuckDB then adds that read-only mode would work."""
    text = str(error)
    expanded = os.path.expanduser(path)
    for spelling in sorted({os.path.realpath(expanded), os.path.abspath(expanded), expanded, path}, key=len, reverse=True):
        text = text.replace(f'"{spelling}"', '""')
    match = _LOCK_CONFLICT.search(text)
    if match is None:
        return None
    pid = int(match.group("pid")) if match.group("pid") else None
    writing = read_only or not match.group("rest").startswith(". However")
    return Holder(pid, match.group("program").strip(), command_line(pid) if pid is not None else (), writing)


def command_line(pid: int) -> tuple[str, ...]:
    """A process's arguments: from /proc where there is one (Linux), else from ``ps``; () when
    neither can tell (the process ended, another user's process on a locked-down system)."""
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        raw = b""
    if raw:
        return tuple(part.decode("utf-8", "replace") for part in raw.rstrip(b"\0").split(b"\0"))
    ps = shutil.which("ps")
    if ps is None or Path("/proc/self").exists():  # (with /proc, an empty cmdline means the process is gone)
        return ()
    try:
        shown = subprocess.run([ps, "-o", "args=", "-p", str(pid)], capture_output=True, text=True, timeout=2,
                               check=False).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ()
    return tuple(shown.split()) if shown else ()
