"""Issue #14's CLI conventions, through the command: -q/-v on every command, shell completion,
NO_COLOR (and no escape sequence off a terminal), choices listed in --help from their one source,
and help at 80 columns without Python type placeholders (<str>, <bool>, <list[str]>)."""

from __future__ import annotations

import os
import pty
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from rich.cells import cell_len
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.reports.dispute import REPORT_FORMATS
from hhtool.service.choices import profile_names, simulated_sites, simulation_policies, site_names
from hhtool.service.reports import Breakdown
from hhtool.service.verdicts import BREAKDOWNS, Code
from tests.inputs import SAMPLES

runner = CliRunner()
HHTOOL = [sys.executable, "-m", "hhtool"]
COMMANDS = sorted(typer.main.get_command(app).commands)  # type: ignore[attr-defined]
#: a Python type where the help should name a value: <str>, <bool>, <list[str]>, <int>, <text|json>
PLACEHOLDER = re.compile(r"<(?:str|bool|int|float|path|Path|datetime|list\[[^>]*\]|tuple[^>]*|[\w-]+(?:\|[\w-]+)+)>")


def help_text(*command: str) -> str:
    result = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    return result.output


def words(text: str) -> str:
    """The help's text with its box drawing and line breaks gone, one space between words."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("help") / "samples.duckdb"
    result = runner.invoke(app, ["--db", str(db), "import", str(SAMPLES), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    return db


# ------------------------------------------------------------------ help


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_help_fits_80_columns_and_names_values_not_types(command: str) -> None:
    text = help_text(*([command] if command else []))
    assert not PLACEHOLDER.findall(text), PLACEHOLDER.findall(text)
    too_wide = [line for line in text.splitlines() if cell_len(line) > 80]
    assert not too_wide, too_wide
    # the names a value takes instead: --db DB, a flag with no label, an enum's choices
    if command == "show":
        assert re.search(r"--db\s+DB\s", text) and re.search(r"--format\s+text\|json\|forum\|html\s", text), text
        assert re.search(r"--hide-hole\s+Hide", text), text


def test_choices_are_listed_from_their_one_source() -> None:
    sites, profiles = set(site_names()), set(profile_names())
    assert {"pokerstars", "winamax", "ipoker"} <= sites and {"default", "wsop", "robert"} <= profiles
    for command in ("audit", "show", "import", "violations", "export", "stats", "graph"):
        listed = set(re.findall(r"[\w-]+", words(help_text(command))))
        assert sites <= listed, (command, sites - listed)
        if command in ("audit", "show", "import"):
            assert profiles <= listed, (command, profiles - listed)
    audit = words(help_text("audit"))
    assert "table, jsonl or csv; with --explain: " + ", ".join(REPORT_FORMATS[:-1]) in audit, audit
    assert all(code.value in audit for code in Code)
    stats = words(help_text("stats"))
    assert all(breakdown.value in stats for breakdown in Breakdown), stats
    violations = words(help_text("violations"))
    assert ", ".join(BREAKDOWNS[:-1]) + " or " + BREAKDOWNS[-1] in violations, violations
    simulate = words(help_text("simulate"))
    assert all(name in simulate for name in (*simulated_sites(), *simulation_policies())), simulate


# ------------------------------------------------------------------ -q and -v


def test_quiet_and_verbose_are_on_every_command() -> None:
    for command in COMMANDS:
        text = help_text(command)
        assert re.search(r"--quiet\s+-q", text) and re.search(r"--verbose\s+-v", text), (command, text)


@pytest.mark.slow
def test_quiet_says_only_the_result_and_verbose_each_file(tmp_path: Path) -> None:
    folder = tmp_path / "histories"
    folder.mkdir()
    for site in ("fulltilt", "bovada"):
        shutil.copy(next((SAMPLES / site).iterdir()), folder / f"{site}.txt")
    db = str(tmp_path / "store.duckdb")

    def imported(*args: str) -> list[str]:
        result = runner.invoke(app, [*args[:args.index("import") + 1], str(folder), "--db", db, "--jobs", "1",
                                     *args[args.index("import") + 1:]])
        assert result.exit_code == 0, result.output
        return result.output.splitlines()

    first = imported("import")
    assert len(first) == 1 and "hands found" in first[0], first  # no line per file without -v
    verbose = "\n".join(imported("import", "-v"))  # (every file read before: a note under the lines)
    for site in ("fulltilt", "bovada"):
        assert re.search(rf"{site}\.txt: 0 stored \(imported before, unchanged: not read again\)", verbose), verbose
    assert "imported before" in "\n".join(imported("import"))
    for args in (["-q", "import"], ["import", "--quiet"], ["-v", "import", "-q"]):  # before or after; the last wins
        quiet = imported(*args)
        assert len(quiet) == 1 and "hands found" in quiet[0], (args, quiet)
    assert "imported before" in "\n".join(imported("import"))  # the level does not outlive its run


@pytest.mark.slow
def test_quiet_graph_writes_and_says_nothing(store: Path, tmp_path: Path) -> None:
    target = tmp_path / "w.html"
    said = runner.invoke(app, ["graph", "--db", str(store), "--player", "Hero", "--currency", "USD", "--out", str(target)])
    assert said.exit_code == 0 and "wrote" in said.output, said.output
    target.unlink()
    quiet = runner.invoke(app, ["graph", "-q", "--db", str(store), "--player", "Hero", "--currency", "USD",
                                "--out", str(target)])
    assert quiet.exit_code == 0 and quiet.output == "" and target.is_file(), quiet.output


# ------------------------------------------------------------------ completion


def completion_env(**extra: str) -> dict[str, str]:
    return {**os.environ, "COLUMNS": "80", **extra}


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_show_completion_prints_the_shells_script(shell: str) -> None:
    # (Typer's switch for a shell named on the command line instead of detected from the parent process)
    env = completion_env(_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION="1")
    done = subprocess.run([*HHTOOL, "--show-completion", shell], capture_output=True, text=True, env=env, check=False,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert "_HHTOOL_COMPLETE" in done.stdout and f"complete_{shell}" in done.stdout, done.stdout


def complete(words_typed: str) -> list[str]:
    env = completion_env(_HHTOOL_COMPLETE="complete_bash", COMP_WORDS=words_typed,
                         COMP_CWORD=str(len(words_typed.split()) - 1))
    done = subprocess.run(HHTOOL, capture_output=True, text=True, env=env, check=False, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


@pytest.mark.slow
def test_completion_completes_commands_options_and_sites() -> None:
    assert complete("hhtool sta") == ["stats"]
    assert complete("hhtool zzz") == []
    assert "--quiet" in complete("hhtool show --qu")
    assert complete("hhtool show --site winam") == ["winamax"]
    assert set(complete("hhtool audit --rules w")) == {"winamax", "winning", "wsop"}


# ------------------------------------------------------------------ NO_COLOR


def on_terminal(args: list[str], no_color: bool) -> bytes:
    """What the command writes to a terminal (a pseudo-terminal: stdout and stderr alike)."""
    env = {key: value for key, value in os.environ.items() if key not in ("NO_COLOR", "FORCE_COLOR", "GITHUB_ACTIONS")}
    env.update(COLUMNS="80", **({"NO_COLOR": "1"} if no_color else {}))
    main, side = pty.openpty()
    process = subprocess.Popen([*HHTOOL, *args], stdin=side, stdout=side, stderr=side, env=env, close_fds=True)
    os.close(side)
    chunks = []
    while True:
        try:
            data = os.read(main, 65536)
        except OSError:  # the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    process.wait(timeout=60)
    os.close(main)
    return b"".join(chunks)


@pytest.mark.slow
def test_no_color_means_no_escape_sequence_on_a_terminal(store: Path) -> None:
    for args in (["--db", str(store), "show", "200", "--site", "pokerstars"],  # bold, dim and coloured cards
                 ["show", "--help"],  # Typer's rich help
                 ["show"],  # a usage error's panel
                 ["--db", str(store), "audit", "--code", "BET_SIZE"]):
        coloured, plain = on_terminal(args, no_color=False), on_terminal(args, no_color=True)
        assert b"\x1b[" in coloured, (args, coloured[:200])  # the counterpart: a terminal gets colour
        assert b"\x1b" not in plain and plain.strip(), (args, plain[:300])


@pytest.mark.slow
def test_no_escape_sequence_off_a_terminal(store: Path) -> None:
    env = {key: value for key, value in os.environ.items() if key not in ("NO_COLOR", "FORCE_COLOR", "GITHUB_ACTIONS")}
    for args in (["--db", str(store), "show", "200", "--site", "pokerstars"], ["show", "--help"], ["show"]):
        done = subprocess.run([*HHTOOL, *args], capture_output=True, env=env, check=False, timeout=60)
        assert b"\x1b" not in done.stdout + done.stderr and (done.stdout + done.stderr).strip(), args


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash to source the completion script in")
def test_bash_sources_the_script_and_completes(tmp_path: Path) -> None:
    # the whole round as a user's shell makes it: the script printed, sourced, then asked as <TAB> asks
    launcher = tmp_path / "hhtool"
    launcher.write_text(f'#!/bin/sh\nexec {sys.executable} -m hhtool "$@"\n', encoding="utf-8")
    launcher.chmod(0o755)
    script = ('source <(hhtool --show-completion bash); '
              'COMP_WORDS=(hhtool show --site par); COMP_CWORD=3; _hhtool_completion hhtool; echo "${COMPREPLY[@]}"; '
              'COMP_WORDS=(hhtool stats --by ""); COMP_CWORD=3; _hhtool_completion hhtool; echo "${COMPREPLY[@]}"')
    env = completion_env(PATH=f"{tmp_path}{os.pathsep}{os.environ.get('PATH', '')}",
                         _TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION="1")
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env, check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["partypoker", " ".join(breakdown.value for breakdown in Breakdown)], done.stdout
