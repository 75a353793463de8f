"""Issue #25, "Notes and tags": `hhtool note HAND_ID "text"`, `note --player NAME`, `hhtool tag
HAND_ID NAME`, `hands --tag NAME`, the player's notes under `stats --player`, the hand's tags and
notes under `show`; kept in the store by the hand's (site, hand_id), so that a re-import (a grown
file's hand replaced) keeps them, and written by `hhtool export`. Every test runs the commands."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest
from rich.cells import cell_len
from typer.testing import CliRunner, Result

from hhtool.cli import app
from hhtool.service import notes as service
from hhtool.service.errors import UsageError
from hhtool.service.stores import Database
from tests.inputs import copy_store
from tests.test_growing_files import cut_in_summary, hand

runner = CliRunner()
#: two hands and a player of the PokerStars samples
HAND, OTHER, PLAYER = "250010000119", "250010000118", "wheel4life"
#: a note a hostile user (or a pasted chat line) might write: escapes, HTML, a line separator, a tab
HOSTILE = "\x1b[2J\x1b]0;owned\x07<script>alert('x')</script>\u2028next\tline & <b>bold</b>\nsecond line"


@pytest.fixture
def db(pokerstars_samples_store: Path, tmp_path: Path) -> str:
    return str(copy_store(pokerstars_samples_store, tmp_path / "notes.duckdb"))


def run(db: str, *args: str) -> Result:
    return runner.invoke(app, [*args, "--db", db], env={"COLUMNS": "80"})


def ok(db: str, *args: str) -> str:
    result = run(db, *args)
    assert result.exit_code == 0, (args, result.output, result.stderr)
    return result.stdout


def refused(db: str, *args: str, code: int = 2) -> str:
    """The one line on stderr of a command refused with exit ``code``."""
    result = run(db, *args)
    assert result.exit_code == code, (args, result.output)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output, result.stderr
    return lines[0]


@pytest.mark.slow
def test_a_note_on_a_hand_is_written_listed_shown_and_deleted(db: str) -> None:
    assert ok(db, "note", HAND).strip() == f"no notes on hand {HAND} yet"
    assert ok(db, "note", HAND, "bring-in with a buried pair; should have completed").strip() == \
        f"note 1 added to hand {HAND} (pokerstars)"
    ok(db, "note", HAND, "villain showed A-2-3 later")
    listed = ok(db, "note", HAND).splitlines()
    assert listed[0] == f"notes on hand {HAND}:"
    assert listed[1].startswith("  #1 ") and listed[1].endswith("UTC  bring-in with a buried pair; should have completed")
    assert listed[2].startswith("  #2 ") and "villain showed A-2-3 later" in listed[2]
    shown = ok(db, "show", HAND)
    assert "notes:\n" in shown and "villain showed A-2-3 later" in shown
    assert "notes" in json.loads(ok(db, "show", HAND, "--format", "json"))
    assert ok(db, "note", "--delete", "1").strip() == "note 1 deleted"
    assert [note["id"] for note in json.loads(ok(db, "note", HAND, "--format", "json"))] == [2]
    assert refused(db, "note", "--delete", "1").startswith("error: no note 1 ")
    assert "villain" not in ok(db, "show", OTHER)  # (another hand's notes are its own)


def test_an_unknown_hand_is_one_line_exit_2_with_the_ids_a_typo_away(db: str) -> None:
    typo = HAND[:-2] + HAND[-1] + HAND[-2]  # two digits swapped
    for command in (["note", typo, "text"], ["note", typo], ["tag", typo, "bluff"], ["tag", typo]):
        line = refused(db, *command)
        assert line.startswith(f"error: no stored hand '{typo}'; did you mean "), line
        assert f"'{HAND}'" in line, line
    assert refused(db, "note", "1", "text") == "error: no stored hand '1'"  # nothing close: no guess
    with duckdb.connect(db, read_only=True) as con:
        assert con.execute("SELECT count(*) FROM notes").fetchall() == [(0,)]
        assert con.execute("SELECT count(*) FROM hand_tags").fetchall() == [(0,)]


def test_bad_input_is_refused_before_anything_is_written(db: str) -> None:
    assert refused(db, "note", HAND, "   ") == "error: a note needs some text"
    assert refused(db, "note", HAND, "x" * 10_001) == "error: a note holds at most 10,000 characters, not 10,001"
    assert refused(db, "note") .startswith("error: give a hand")
    assert refused(db, "tag", HAND, "fine", "big pot") == \
        "error: a tag is lower-case letters, digits, '_' and '-' (at most 40), not 'big pot'"
    assert refused(db, "tag", HAND, "x" * 41).startswith("error: a tag is lower-case")
    assert refused(db, "note", "--player", "wheel4lif", "text") == \
        "error: no player 'wheel4lif' in the store; did you mean 'wheel4life'?"
    assert refused(db, "hands", "--tag", "no such").startswith("error: --tag: a tag is lower-case")
    assert ok(db, "tag").strip() == "no tags yet: `hhtool tag HAND_ID NAME` tags a hand"  # ('fine' was not written)


def test_hostile_note_text_is_stored_as_written_and_shown_as_text(db: str) -> None:
    ok(db, "note", HAND, HOSTILE)
    ok(db, "note", "--player", PLAYER, HOSTILE)
    with duckdb.connect(db, read_only=True) as con:
        assert con.execute("SELECT text FROM notes ORDER BY id").fetchall() == [(HOSTILE,), (HOSTILE,)]
    for output in (ok(db, "note", HAND), ok(db, "show", HAND), ok(db, "stats", "--player", PLAYER),
                   ok(db, "note", "--player", PLAYER)):
        assert not any(char in output for char in "\x1b\x07\u2028\t"), repr(output)
        said = " ".join(output.split())  # (the text wraps at 80 columns)
        assert "?[2J?]0;owned?<script>alert('x')</script>?next?line & <b>bold</b>" in said  # "?": a control character
        assert not [line for line in output.splitlines() if cell_len(line) > 80]
    # the note's own line break is a line of its own, under the text's first line
    listed = ok(db, "note", HAND).splitlines()
    assert listed[-1].strip() == "second line" and listed[-1].startswith(" " * 10)
    assert json.loads(ok(db, "note", HAND, "--format", "json"))[0]["text"] == HOSTILE


def test_a_long_note_wraps_to_80_columns_losing_no_word(db: str) -> None:
    text = " ".join(f"word{n}" for n in range(60)) + " " + "x" * 150
    ok(db, "note", HAND, text)
    shown = ok(db, "note", HAND).splitlines()[1:]
    assert len(shown) > 3 and max(cell_len(line) for line in shown) <= 80
    assert "".join(line.split("UTC", 1)[-1].strip() for line in shown).replace(" ", "") == text.replace(" ", "")


def test_tags_list_hands_with_every_tag_asked_and_come_off_again(db: str) -> None:
    assert ok(db, "tag", HAND, "#Bluff", "big-pot").strip() == f"hand {HAND}: tagged bluff, big-pot"
    ok(db, "tag", OTHER, "bluff")
    ok(db, "tag", OTHER, "bluff")  # twice: still one tag
    assert ok(db, "tag", HAND).strip() == "tags: big-pot, bluff"
    assert ok(db, "tag").splitlines() == ["big-pot       1 hand", "bluff         2 hands"]
    listed = ok(db, "hands", "--tag", "bluff", "--columns", "id")
    assert HAND in listed and OTHER in listed and "2 rows" in listed
    both = ok(db, "hands", "--tag", "BLUFF", "--tag", "big-pot", "--columns", "id")
    assert HAND in both and OTHER not in both and "1 row" in both
    assert refused(db, "hands", "--tag", "bluf") == "error: no tag 'bluf' in the store; did you mean 'bluff'?"
    assert "tags: big-pot, bluff" in ok(db, "show", HAND)
    assert json.loads(ok(db, "show", HAND, "--format", "json"))["tags"] == ["big-pot", "bluff"]
    assert ok(db, "tag", HAND, "bluff", "--remove").strip() == f"hand {HAND}: removed bluff"
    result = run(db, "tag", HAND, "bluff", "--remove")  # nothing to remove: said, exit 1
    assert result.exit_code == 1 and result.stdout.strip() == f"hand {HAND} had no tag bluff"
    assert HAND not in ok(db, "hands", "--tag", "bluff", "--columns", "id")


def test_stats_player_shows_the_players_notes_under_the_table(db: str) -> None:
    before = ok(db, "stats", "--player", PLAYER)
    assert "notes" not in before
    ok(db, "note", "--player", PLAYER, "calls down light; never bluffs the river")
    ok(db, "note", "--player", PLAYER, "--site", "pokerstars", "on Stars: opens every door ace")
    after = ok(db, "stats", "--player", PLAYER)
    assert after.startswith(before.rstrip("\n"))  # the table as it was, the notes under it
    block = after[len(before.rstrip("\n")):].strip().splitlines()
    assert block[0] == f"notes on {PLAYER}:"
    assert block[1].endswith("UTC  calls down light; never bluffs the river")
    assert "(pokerstars only)" in block[2] and block[2].endswith("on Stars: opens every door ace")
    # a file, a format for programs: the rows only
    assert "notes on" not in ok(db, "stats", "--player", PLAYER, "--format", "csv")
    # an alias's notes are its own and its site names'
    ok(db, "alias", "add", "Wheel", f"pokerstars:{PLAYER}")
    ok(db, "note", "--player", "Wheel", "the person behind wheel4life")
    grouped = ok(db, "stats", "--player", "Wheel")
    assert "notes on Wheel:" in grouped and "calls down light" in grouped and "the person behind" in grouped
    on_site = ok(db, "stats", "--player", "Wheel", "--site", "pokerstars")
    assert "on Stars: opens every door ace" in on_site and "the person behind" in on_site


@pytest.mark.slow
def test_a_reimport_keeps_notes_and_tags_even_when_the_hand_is_replaced(tmp_path: Path) -> None:
    """A client still writing its file: the last hand, read cut, is stored; the grown file's import
    replaces it (new rows, a new store number) and its notes and tags stay with it."""
    path, db = tmp_path / "live.txt", str(tmp_path / "live.duckdb")
    before = hand(1) + "\n\n" + hand(2) + "\n\n"
    written, rest = cut_in_summary(hand(3), 2)
    path.write_text(before + written)
    ok(db, "import", str(path))
    with duckdb.connect(db, read_only=True) as con:
        [(last, key)] = con.execute("SELECT hand_id, hk FROM hands ORDER BY hk DESC LIMIT 1").fetchall()
    ok(db, "note", last, "the turn check-raise")
    ok(db, "tag", last, "review")
    ok(db, "note", "--player", "gashpor", "sticky")
    path.write_text(before + written + rest + "\n\n" + hand(4))
    assert '"completed": 1' in ok(db, "import", str(path), "--format", "json")
    again = tmp_path / "copy.txt"  # the same hands again, from another file (with one more line)
    again.write_text(path.read_text() + "\n")
    assert '"duplicates": 4' in ok(db, "import", str(again), "--format", "json")
    with duckdb.connect(db, read_only=True) as con:
        assert con.execute("SELECT hk FROM hands WHERE hand_id = ?", [last]).fetchall() != [(key,)]  # replaced
    shown = ok(db, "show", last)
    assert "tags: review" in shown and "the turn check-raise" in shown
    assert last in ok(db, "hands", "--tag", "review", "--columns", "id")
    assert "sticky" in ok(db, "note", "--player", "gashpor")


def test_export_writes_the_notes_and_tags(db: str, tmp_path: Path) -> None:
    ok(db, "note", HAND, HOSTILE)
    ok(db, "note", "--player", PLAYER, "tight")
    ok(db, "tag", HAND, "bluff")
    out = tmp_path / "export"
    ok(db, "export", str(out))
    notes = pq.read_table(out / "notes" / "part-00000.parquet").to_pylist()
    assert [(n["id"], n["target"], n["site"], n["key"], n["text"]) for n in notes] == [
        (1, "hand", "pokerstars", HAND, HOSTILE), (2, "player", None, PLAYER, "tight")]
    tags = pq.read_table(out / "hand_tags" / "part-00000.parquet").to_pylist()
    assert [(t["site"], t["hand_id"], t["tag"]) for t in tags] == [("pokerstars", HAND, "bluff")]


def test_the_service_api_the_web_app_uses(db: str) -> None:
    """hhtool.service.notes as agreed with the web app (/work/briefs/notes_api.md)."""
    database = Database(db)
    note = service.add_note(database, "hand", HAND, "text")
    assert (note.id, note.target, note.key, note.site, note.text) == (1, "hand", HAND, "pokerstars", "text")
    assert note.created.tzinfo is not None and note.created.utcoffset() is not None
    assert service.notes_for(database, "hand", HAND, "PokerStars") == [note]
    player = service.add_note(database, "player", PLAYER, "p", site="pokerstars")
    assert (player.id, player.site) == (2, "pokerstars")
    assert service.notes_for(database, "player", PLAYER) == [player]
    assert service.delete_note(database, 2) and not service.delete_note(database, 2)
    assert service.add_tag(database, HAND, " #Review ") == "review"
    assert service.add_tag(database, OTHER, "review") == "review"
    assert service.tags_for(database, HAND) == ["review"]
    assert service.all_tags(database) == [("review", 2)]
    assert service.remove_tag(database, HAND, "review") and not service.remove_tag(database, HAND, "review")
    with pytest.raises(UsageError, match="did you mean"):
        service.add_tag(database, HAND + "0", "x")
    with pytest.raises(UsageError, match="on a hand or a player"):
        service.add_note(database, "table", "x", "y")  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="no stored hand"):
        service.notes_for(database, "hand", HAND, site="fulltilt")


def test_show_out_keeps_the_tags_and_notes_and_the_shared_formats_leave_them_out(db: str, tmp_path: Path) -> None:
    ok(db, "tag", HAND, "review")
    ok(db, "note", HAND, "a private read on the villain")
    text, page = tmp_path / "hand.txt", tmp_path / "hand.html"
    ok(db, "show", HAND, "--out", str(text))
    written = text.read_text()
    assert "tags: review\nnotes:\n" in written and "a private read on the villain" in written
    described = json.loads(ok(db, "show", HAND, "--format", "json"))
    assert described["tags"] == ["review"] and [n["text"] for n in described["notes"]] == ["a private read on the villain"]
    ok(db, "show", HAND, "--format", "json", "--out", str(tmp_path / "hand.json"))
    assert json.loads((tmp_path / "hand.json").read_text())["tags"] == ["review"]
    post = ok(db, "show", HAND, "--format", "forum")
    assert "review" not in post and "private read" not in post  # a post is for others to read
    ok(db, "show", HAND, "--format", "html", "--out", str(page))
    assert "private read" not in page.read_text()
