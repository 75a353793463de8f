"""`hhtool show` as a stud replayer and a hand to share, run as a user runs it (80 columns): every
player's whole board on each street, the 7th street's down card marked as down, the showdown's
readings broken between their parts; `--format forum` (plain text for a poker forum, at most 72
columns, a hostile name harmless); `--format html` (the dispute page's replayer on a page of its
own; the browser half is in test_show_replayer_browser.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from tests.test_site_pokerstars import SPLIT_HAND

runner = CliRunner()
SAMPLES = Path(__file__).resolve().parents[1] / "sample_histories"
PARTY = SAMPLES / "partypoker" / "PP-184220-USD-2-4-Stud-HiLo-201203.txt"  # hand 11612330015: Hero to 7th street
#: a name as hostile as a site lets through: an escape sequence, forum markup, HTML, a line break, a
#: right-to-left override and a bell
HOSTILE = "\x1b[31mgash[b]por[/b]<script>x</script>\u2028\u202e\x07"


def stored(tmp_path: Path, text: str | None = None, source: Path | None = None) -> str:
    path = source or tmp_path / "h.txt"
    if text is not None:
        path.write_text(text)
    db = str(tmp_path / "s.duckdb")
    imported = runner.invoke(app, ["import", str(path), "--db", db])
    assert imported.exit_code == 0, imported.output
    return db


def show(db: str, *args: str, columns: int = 80) -> str:
    result = runner.invoke(app, ["show", *args, "--db", db], env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.output
    return result.output


def street(text: str, label: str) -> list[str]:
    """The lines of one street of `show`'s text."""
    return text.split(f"*** {label} street ***\n")[1].split("***")[0].splitlines()


def test_each_street_shows_every_players_whole_board(tmp_path: Path) -> None:
    text = show(stored(tmp_path, SPLIT_HAND), "35874576282")
    assert "cards: [down | up | 7th street's down card]" in text
    # 4th street: u.pressure's Td 2c against gashpor's 4h 8d, Hero's 5h Qc: the whole boards, not the card of the street
    assert street(text, "4th")[:3] == ["  u.pressure: [(Ts) (Kc) | Td 2c]", "  gashpor: [(2d) (5c) | 4h 8d]",
                                       "  Hero: [7c 3s | 5h Qc]"]
    assert street(text, "6th")[:2] == ["  u.pressure: [(Ts) (Kc) | Td 2c Ah Kd]", "  gashpor: [(2d) (5c) | 4h 8d 6s 3c]"]
    assert street(text, "7th")[:2] == ["  u.pressure: [(Ts) (Kc) | Td 2c Ah Kd | (9s)]",
                                       "  gashpor: [(2d) (5c) | 4h 8d 6s 3c | (Jh)]"]
    assert max(len(line) for line in text.splitlines()) <= 80


@pytest.mark.slow
def test_the_heros_seventh_street_card_is_marked_down(tmp_path: Path) -> None:
    text = show(stored(tmp_path, source=PARTY), "11612330015")
    # before: "Hero: [9c]" on 7th street, read as one more up card
    assert "  Hero: [4h 6c | 5h 7s Ad 8h | 9c]" in street(text, "7th")
    assert "  Hero: [4h 6c | 5h 7s Ad 8h]" in street(text, "6th")
    hidden = show(stored(tmp_path, source=PARTY), "11612330015", "--hide-hole")
    assert "  Hero: [?? ?? | 5h 7s Ad 8h | ??]" in street(hidden, "7th")


def test_showdown_readings_break_between_their_parts(tmp_path: Path) -> None:
    db = stored(tmp_path, SPLIT_HAND)
    showdown = show(db, "35874576282").split("*** showdown ***\n")[1].splitlines()
    # before: "...; low:" at the end of a line and "none" alone on the next
    assert showdown[:4] == ["  u.pressure shows [Ts Kc Td 2c Ah Kd 9s]", "    high: two pair, Kings and Tens; low: none",
                            "  gashpor shows [2d 5c 4h 8d 6s 3c Jh]", "    high: a straight, Deuce to Six; low: 6,5,4,3,2"]
    narrow = show(db, "35874576282", columns=44).split("*** showdown ***\n")[1].splitlines()
    assert narrow[:3] == ["  u.pressure shows [Ts Kc Td 2c Ah Kd 9s]", "    high: two pair, Kings and Tens;", "    low: none"]


def forum(db: str, *args: str) -> str:
    result = runner.invoke(app, ["show", *args, "--db", db, "--format", "forum"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output  # before: exit 2, "forum" is not a format
    return result.output


def test_forum_post_is_plain_text_within_72_columns(tmp_path: Path) -> None:
    post = forum(stored(tmp_path, SPLIT_HAND), "35874576282")
    lines = post.splitlines()
    assert max(len(line) for line in lines) <= 72
    assert not re.search(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]", post)  # no colour, no escape
    assert lines[0] == "7 Card Stud Hi/Lo Limit, $0.04/$0.08 (ante $0.01, bring-in $0.02)"
    assert "Seat 5: Hero ($2.00) - hero" in lines
    fourth = post.split("*** 4TH STREET ***\n")[1].split("\n\n")[0].splitlines()
    # the opponents' down cards stay unseen until the showdown: the post is the hero's view
    assert fourth[:3] == ["  u.pressure: [?? ?? | Td 2c]", "  gashpor: [?? ?? | 4h 8d]", "  Hero: [7c 3s | 5h Qc]"]
    assert "  gashpor bets $0.04 (pot $0.19)" in fourth and "  Hero folds (pot $0.19)" in fourth
    assert "  gashpor: [?? ?? | 4h 8d 6s 3c | ??]" in post
    showdown = post.split("*** SHOWDOWN ***\n")[1].splitlines()
    assert showdown[:2] == ["  u.pressure shows [Ts Kc Td 2c Ah Kd 9s]", "    high: two pair, Kings and Tens; low: none"]
    assert post.endswith("*** RESULT ***\n  gashpor wins $0.37\nTotal pot $0.39, rake $0.02\n")


def test_forum_post_renders_a_hostile_name_harmless(tmp_path: Path) -> None:
    long_name = "x" * 90
    db = stored(tmp_path, SPLIT_HAND.replace("gashpor", HOSTILE).replace("u.pressure", long_name))
    post = forum(db, "35874576282")
    assert max(len(line) for line in post.splitlines()) <= 72
    assert all(c.isprintable() for c in post.replace("\n", ""))  # no escape, line break, bidi override, bell
    assert "[b]" not in post and "<script>" not in post and "[/b]" not in post
    tail = len(stored_name(db)) - len("\x1b[31mgash[b]por[/b]<script>x</script>")  # the line break, override, bell
    harmless = "?(31mgash(b)por(/b)‹script›x‹/script›" + "?" * tail
    assert f"  {harmless}: [?? ?? | 4h 8d]" in post and f"{harmless} wins $0.37" in post
    assert "".join(line.strip() for line in post.split("*** 3RD STREET ***\n")[1].splitlines()[:2]).startswith(long_name)


def test_out_writes_the_post_to_a_file(tmp_path: Path) -> None:
    db = stored(tmp_path, SPLIT_HAND)
    out = tmp_path / "post.txt"
    result = runner.invoke(app, ["show", "35874576282", "--db", db, "--format", "forum", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert result.stdout == f"wrote {out}\n"  # (as every --out says it, `graph` first: #25)
    assert out.read_text() == forum(db, "35874576282")


def stored_name(db: str) -> str:
    """The hostile name as the store holds it (the reader may have trimmed its end)."""
    described = json.loads(runner.invoke(app, ["show", "35874576282", "--db", db, "--format", "json"]).stdout)
    name = next(seat["player"] for seat in described["seats"] if seat["player"].startswith("\x1b"))
    assert isinstance(name, str)
    return name


def page_data(page: str) -> dict:  # type: ignore[type-arg]
    found = re.search(r'<script type="application/json" class="replay-data">(.*?)</script>', page)
    assert found, "the page carries the replayer's steps"
    return json.loads(found.group(1))  # type: ignore[no-any-return]


def test_html_is_the_dispute_pages_replayer_on_a_page_of_its_own(tmp_path: Path) -> None:
    db = stored(tmp_path, SPLIT_HAND)
    result = runner.invoke(app, ["show", "35874576282", "--db", db, "--format", "html"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output  # before: exit 2, "html" is not a format
    page = result.stdout
    assert page.startswith("<!DOCTYPE html>") and '<section class="replayer">' in page
    assert page.count("<script") == 2 and "http://" not in page and "https://" not in page and "url(" not in page
    data = page_data(page)
    assert data["players"] == ["u.pressure", "gashpor", "Hero"]
    fourth = next(step for step in data["steps"] if step["words"] == "4th street: the cards are dealt")
    assert [(c["card"], c["face"]) for c in fourth["cards"]["u.pressure"]] == [
        (None, "down"), (None, "down"), ("Td", "up"), ("2c", "up")]
    assert [c["card"] for c in fourth["cards"]["Hero"]] == ["7c", "3s", "5h", "Qc"]
    hidden = runner.invoke(app, ["show", "35874576282", "--db", db, "--format", "html", "--hide-hole"]).stdout
    fourth = next(step for step in page_data(hidden)["steps"] if step["words"] == "4th street: the cards are dealt")
    assert [c["card"] for c in fourth["cards"]["Hero"]] == [None, None, "5h", "Qc"]


def test_html_replayer_names_carry_no_control_character(tmp_path: Path) -> None:
    # the text `show` prints a name's control characters as "?"; the replayer's labels do the same
    db = stored(tmp_path, SPLIT_HAND.replace("gashpor", HOSTILE))
    text = show(db, "35874576282")
    data = page_data(runner.invoke(app, ["show", "35874576282", "--db", db, "--format", "html"]).stdout)
    shown = re.sub(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202e]", "?", stored_name(db))
    same = "?[31mgash[b]por[/b]<script>x</script>??"  # ESC, U+2028 and U+202E (#34: it reversed the text) as "?" in both
    assert shown.startswith(same) and f"  {same}: [(2d) (5c) | 4h]" in text
    assert f"{same} brings in for $0.02 pot $0.05" in " ".join(text.split())  # a long name keeps the pot apart
    assert shown in data["players"] and any(step["words"].startswith(f"{shown} brings in") for step in data["steps"])
    words = " ".join(step["words"] for step in data["steps"]) + " ".join(data["players"])
    assert not re.search(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202e]", words)


def test_the_pages_and_the_terminal_show_a_control_character_alike() -> None:
    from hhtool.cli.output import printable as terminal
    from hhtool.reports.show import printable as page

    every = "".join(map(chr, range(0x00, 0x250))) + "\u2028\u2029\u202e"
    assert page(every) == terminal(every)
