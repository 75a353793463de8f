"""The pages the one template environment draws, run as a user runs them: the player's copy in HTML
keeps the text copy's order (what was taken from the hand before the rules it rests on), the dispute
page and its index are drawn by the templates (no text lost, every name escaped), at 80 columns."""

from __future__ import annotations

from pathlib import Path

from tests.dispute_helpers import explain, imported, side_pot_hand
from tests.page_text import page_text

#: the player copy's sections, as both copies head them
SECTIONS = ("The hand also departs from the rules", "What could not be checked",
            "Taken from the hand itself (the history does not state it)", "The rules this answer rests on")


def _order(text: str) -> list[str]:
    return sorted((heading for heading in SECTIONS if heading in text), key=text.index)


def test_the_html_player_copy_lists_what_it_assumed_before_the_rules_as_the_text_copy(tmp_path: Path) -> None:
    db, _ = imported(tmp_path, side_pot_hand())
    text = explain(db, "200", "--for", "player")
    out = tmp_path / "copy.html"
    explain(db, "200", "--for", "player", "--format", "html", "--out", str(out))
    shown, _ = page_text(out.read_text(encoding="utf-8"))
    assert _order(text)[-2:] == [SECTIONS[2], SECTIONS[3]]  # the hand #200 copy has both
    assert _order(shown) == _order(text)


def test_the_desk_page_shows_the_text_of_the_golden_page(tmp_path: Path) -> None:
    """What a reader sees of the desk page and its replayer's steps, compared with the golden page's
    (tests/golden, read and not written here): a change of markup leaves them alone."""
    from tests.dispute_helpers import FILE_MARK, GOLDEN

    db, path = imported(tmp_path, side_pot_hand())
    out = tmp_path / "r.html"
    explain(db, "200", "--format", "html", "--out", str(out))
    page = out.read_text(encoding="utf-8").replace(str(path), FILE_MARK)
    text, data = page_text(page)
    golden_text, golden_data = page_text((GOLDEN / "dispute_split_side_pot.html").read_text(encoding="utf-8"))
    assert text == golden_text and data == golden_data
    assert "Main pot $18.00: Big won the high half ($9.00)" in text and len(data) == 1 and data[0]["steps"]


def test_the_report_folder_index_is_drawn_and_escapes_a_hostile_name(tmp_path: Path) -> None:
    hostile = "<b>Sh&orty</b>"
    db, _ = imported(tmp_path, side_pot_hand().replace("Shorty", hostile))
    folder = tmp_path / "reports"
    from typer.testing import CliRunner

    from hhtool.cli import app

    result = CliRunner().invoke(app, ["audit", "--db", db, "--rules", "888poker", "--report", str(folder)],
                                env={"COLUMNS": "80"})
    assert result.exit_code in (0, 1), result.output
    index = (folder / "index.html").read_text(encoding="utf-8")
    text, _ = page_text(index)
    assert "Dispute reports: 1 hands with a violation Sorted by the money misawarded" in text
    page = (folder / "pokerstars-200.html").read_text(encoding="utf-8")
    assert hostile not in page and "&lt;b&gt;Sh&amp;orty&lt;/b&gt;" in page
    assert hostile in page_text(page)[0]  # shown as the text it is
