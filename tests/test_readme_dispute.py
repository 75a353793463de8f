"""Issue #25: the README's dispute section runs as written. Every `hhtool` command of its bash blocks
is run in order (in a fresh folder, on the repository's samples), and every text the section quotes
(*"…"*) after a block appears in the output of that block's commands: printed, redirected to a file
(`> FILE`) or written by `--out` (a web page read as its text)."""

from __future__ import annotations

import html
import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from tests.inputs import REPO, SAMPLES

runner = CliRunner()
SECTION = "### Answering a dispute (support desk)"
BLOCK = re.compile(r"```bash\n(.*?)```", re.DOTALL)
QUOTE = re.compile(r'\*"(.+?)"\*', re.DOTALL)


def flat(text: str) -> str:
    return " ".join(text.split())


def section() -> str:
    readme = (REPO / "README.md").read_text()
    start = readme.index(SECTION)
    end = readme.index("\n### ", start + len(SECTION))
    return readme[start:end]


def blocks_and_quotes(text: str) -> list[tuple[list[str], list[str]]]:
    """Each bash block's hhtool commands, with the quotes between it and the next block."""
    found = []
    matches = list(BLOCK.finditer(text))
    for number, match in enumerate(matches):
        after = text[match.end():matches[number + 1].start() if number + 1 < len(matches) else len(text)]
        commands = [line for line in match.group(1).splitlines() if line.startswith("hhtool ")]
        found.append((commands, [flat(quote) for quote in QUOTE.findall(after)]))
    return found


def run(command: str) -> str:
    """The command's output as the README's reader gets it: its stdout, or the file it writes."""
    words = shlex.split(command.replace("sample_histories/", f"{SAMPLES}/"), comments=True)
    assert words[0] == "hhtool", command
    args, target = words[1:], None
    if ">" in args:
        at = args.index(">")
        args, target = args[:at], args[at + 1]
    result = runner.invoke(app, args, env={"COLUMNS": "80"})
    assert result.exit_code == 0, (command, result.output)
    if target:
        Path(target).write_text(result.output)
        return Path(target).read_text()
    if "--out" in args:
        written = Path(args[args.index("--out") + 1]).read_text()
        return result.output + html.unescape(re.sub(r"<[^>]+>", " ", written))
    return result.output


def test_the_section_shows_commands_and_quotes_them() -> None:
    found = blocks_and_quotes(section())
    assert sum(len(commands) for commands, _ in found) >= 4 and sum(len(quotes) for _, quotes in found) >= 4
    assert all(commands for commands, _ in found)


@pytest.mark.slow
def test_every_command_of_the_dispute_section_runs_and_says_what_it_quotes(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for commands, quotes in blocks_and_quotes(section()):
        said = flat(" ".join(run(command) for command in commands))
        for quote in quotes:
            assert quote in said, (commands, quote)
    hand_ids = set(re.findall(r"--explain (\w+)", section())) | set(re.findall(r"\bhand (\d+)\b", section()))
    assert hand_ids == {"200"}, hand_ids  # the example runs one hand and quotes that hand
