"""The command line's edges, the rest of issue #28 item 12: `import --watch` stopped by Ctrl-C ends
with 130 and a last line naming the failed hands; an option error is one line; a `\\` in --db is
kept; U+2028, U+2029 and U+0085 in a player's name are part of the name, not line ends; a comment or
CDATA holding ``</game>`` inside an XML game does not split it."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.ingest.copy_compare import normalised_lines
from hhtool.model import text_lines
from tests.test_reliability import HHTOOL, stop_watch_after_files
from tests.test_site_pokerstars import SPLIT_HAND
from tests.tracker_hands import EVENING

runner = CliRunner()
PLAIN = {"NO_COLOR": "1", "COLUMNS": "80"}

# ------------------------------------------------------------------ Ctrl-C ends a watch


@pytest.mark.slow
def test_a_watch_stopped_by_ctrl_c_exits_130_and_its_last_line_counts_the_failed_hands(tmp_path: Path) -> None:
    """A subprocess, as a user runs it: one hand stored, one stray line failed; Ctrl-C after the
    first pass ends it with 130 (it was 0, failed hands or not) and the summary as its last line."""
    folder = tmp_path / "live"
    folder.mkdir()
    (folder / "a.txt").write_text(SPLIT_HAND + "\n\nleft here by an editor\n")
    process = subprocess.Popen([*HHTOOL, "import", "--watch", str(folder), "--interval", "0.1",
                                "--db", str(tmp_path / "w.duckdb")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None and "watching" in process.stderr.readline()
    stdout, stderr = stop_watch_after_files(process, {"a.txt"})
    assert process.returncode == 130 and "Traceback" not in stderr, stderr
    last = stdout.strip().splitlines()[-1]
    assert last == "stopped: 2 hands found = 1 stored + 0 duplicates + 0 skipped + 1 failed + 0 incomplete", stdout


# ------------------------------------------------------------------ option errors: one line


@pytest.mark.parametrize(("args", "said"), [
    (["stats", "--min-hands", "x"], "Invalid value for '--min-hands'"),
    (["stats", "--bogus"], "No such option: --bogus"),
    (["stats", "--form", "x"], "No such option: --form (Possible options: --format, --from, --sort)"),
    (["stat"], "No such command 'stat'. Did you mean 'stats'?"),
    (["--bogus", "stats"], "No such option: --bogus"),
    (["show"], "Missing argument 'HAND_ID'"),
])
def test_an_option_error_is_one_line_saying_what_to_do_with_exit_2(args: list[str], said: str) -> None:
    """It was Typer's box of five lines, usage first; Click's own words ("did you mean") are kept."""
    result = runner.invoke(app, args, env=PLAIN)
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and said in lines[0], result.output
    assert "'hhtool" in lines[0] and " -h'" in lines[0]  # where the options are told
    assert "Traceback" not in result.output and "╭" not in result.output


def test_help_is_still_shown_and_exits_0() -> None:
    for args in (["--help"], ["stats", "--help"], ["stats", "-h"]):
        result = runner.invoke(app, args, env=PLAIN)
        assert result.exit_code == 0 and "Usage: hhtool" in result.output, (args, result.output)


# ------------------------------------------------------------------ a '\' in --db


def test_a_backslash_in_db_is_kept_never_read_as_a_folder(tmp_path: Path) -> None:
    """On Linux ``a\\b.duckdb`` is one file's name. DuckDB reads its ``\\`` as ``/``: hhtool wrote
    ``a/b.duckdb`` (and then failed, exit 3). Now it names the path as given, says why it cannot
    store there, exits 2, and writes nothing anywhere."""
    (tmp_path / "a").mkdir()
    history = tmp_path / "h.txt"
    history.write_text(SPLIT_HAND)
    db = str(tmp_path / "a\\b.duckdb")
    result = runner.invoke(app, ["import", str(history), "--db", db], env=PLAIN)
    assert result.exit_code == 2, result.output
    line = result.output.strip()
    assert "\n" not in line and line.startswith(f"error: --db {db}: ") and "without '\\'" in line
    assert list((tmp_path / "a").iterdir()) == [] and sorted(p.name for p in tmp_path.iterdir()) == ["a", "h.txt"]


# ------------------------------------------------------------------ U+2028, U+2029, U+0085 in a name


@pytest.mark.slow
@pytest.mark.parametrize("mark", ["\u2028", "\u2029", "\x85"])
def test_a_unicode_line_separator_in_a_name_is_part_of_the_name_and_escaped_on_the_terminal(
        tmp_path: Path, mark: str) -> None:
    """``Ann`` + U+2028: the reader's ``rstrip()`` took it off the line's end, the name no longer
    matched the seat's, and 4 hands of 6 failed ("player 'Ann' is not seated"). Now every hand is
    stored with the name whole, and the terminal shows the mark as "?"."""
    name = f"Ann{mark}"
    history = tmp_path / "e.txt"
    history.write_text("\n\n".join(hand.replace("Ann", name) for hand in EVENING), encoding="utf-8")
    db = str(tmp_path / "u.duckdb")
    result = runner.invoke(app, ["import", str(history), "--db", db], env=PLAIN)
    assert result.exit_code == 0 and "6 stored" in result.output and "0 failed" in result.output, result.output
    with duckdb.connect(db, read_only=True) as con:
        assert {row[0] for row in con.execute("SELECT DISTINCT player FROM seats").fetchall()} == {name, "Dan"}
    for command in (["show", "7001"], ["stats"]):
        shown = runner.invoke(app, [*command, "--db", db], env=PLAIN)
        assert shown.exit_code == 0 and mark not in shown.output and "Ann?" in shown.output, shown.output


def test_text_lines_break_at_cr_and_lf_only() -> None:
    assert text_lines("a\u2028b\x85c\u2029d\x0be\r\nf\rg\n") == ["a\u2028b\x85c\u2029d\x0be", "f", "g"]
    assert normalised_lines("Seat 1:  Ann\u2028 ($5)  \n") == ["Seat 1: Ann\u2028 ($5)"]


# ------------------------------------------------------------------ '</game>' in a comment or CDATA

SAMPLES = Path(__file__).resolve().parent.parent / "sample_histories"
XML_GAMES = {  # a sample of each XML site, its encoding, and its hands
    "merge": (SAMPLES / "merge" / "7-StudHL-USD-0.25-0.50-sample.xml", "utf-8", 4),
    "ipoker": (SAMPLES / "ipoker" / "7-StudHL-EUR-0.05-0.10-sample-session.xml", "cp1252", 3),
}
OPAQUE = {  # markup whose text is no tag, one of them over two lines
    "comment": "\t<!-- the client's note: </game>\n\t<game id=\"not-a-game\"> -->\n",
    "cdata": "\t<![CDATA[ </game> ]]>\n",
    "instruction": "\t<?client </game> ?>\n",
}


@pytest.mark.slow
@pytest.mark.parametrize("site", sorted(XML_GAMES))
@pytest.mark.parametrize("markup", sorted(OPAQUE))
def test_a_game_tag_inside_a_comment_or_cdata_does_not_split_the_game(tmp_path: Path, site: str, markup: str) -> None:
    """Inside the first game: it was cut at the ``</game>`` there (3 failed, or a phantom hand
    skipped); now the game is read whole and every hand of the file is stored."""
    sample, encoding, hands = XML_GAMES[site]
    text = sample.read_bytes().decode(encoding)
    inside = text.index("\n", text.index("<game ")) + 1  # after the first game's start tag
    history = tmp_path / sample.name
    history.write_bytes((text[:inside] + OPAQUE[markup] + text[inside:]).encode(encoding))
    result = runner.invoke(app, ["import", str(history), "--db", ":memory:"], env=PLAIN)
    assert result.exit_code == 0, result.output
    assert f"{hands} hands found = {hands} stored + 0 duplicates + 0 skipped (other games) + 0 failed" in result.output


@pytest.mark.parametrize("where", ["folder", "file"])
def test_a_question_mark_in_db_is_refused_in_one_line_before_anything_is_written(tmp_path: Path, where: str) -> None:
    """DuckDB reads what follows ``?`` in a database path as parameters: the log of ``a?b/x.duckdb`` went
    to ``a.wal?b/x.duckdb`` and the import failed with "cannot rollback - no transaction is active"
    (exit 3) after creating the file; ``y?z.duckdb`` kept its log as ``y.wal?z.duckdb``."""
    history = tmp_path / "h.txt"
    history.write_text(SPLIT_HAND)
    folder = tmp_path / ("a?b" if where == "folder" else "a")
    folder.mkdir()
    db = str(folder / ("x.duckdb" if where == "folder" else "y?z.duckdb"))
    result = runner.invoke(app, ["import", str(history), "--db", db], env=PLAIN)
    assert result.exit_code == 2, result.output
    line = result.output.strip()
    assert "\n" not in line and line.startswith(f"error: --db {db}: ") and "without '?'" in line
    assert list(folder.iterdir()) == []


@pytest.mark.parametrize("command", [["stats", "--format", "json"], ["audit", "--explain", "7001", "--format", "json"],
                                     ["audit", "--explain", "7001", "--for", "player", "--format", "json"]])
def test_c1_controls_and_line_separators_in_a_name_are_escaped_in_json(tmp_path: Path, command: list[str]) -> None:
    """JSON escapes C0 controls but, with non-ASCII text kept as written, left U+009B (a terminal's CSI)
    and U+2028 raw on the desk's terminal; they are ``\\u`` escapes now, and the name reads back whole."""
    name = "Ann\x9b31m\u2028"
    history = tmp_path / "e.txt"
    history.write_text("\n\n".join(hand.replace("Ann", name) for hand in EVENING), encoding="utf-8")
    db = str(tmp_path / "u.duckdb")
    assert runner.invoke(app, ["import", str(history), "--db", db], env=PLAIN).exit_code == 0
    result = runner.invoke(app, [*command, "--db", db], env=PLAIN)
    assert result.exit_code in (0, 1), result.output
    assert "\x9b" not in result.output and "\u2028" not in result.output and "\\u009b" in result.output
    assert name in json.dumps(json.loads(result.output), ensure_ascii=False)
