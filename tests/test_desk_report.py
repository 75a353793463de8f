"""Issue #25, the dispute desk: the web page's street-by-street table keeps the history's order (the
antes before the deal), and the report index (`audit --report DIR`) reads at a glance: the date on
one line, each headline without what every row repeats, the largest misaward first."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from typer.testing import CliRunner

from hhtool.cli import app
from tests.dispute_helpers import explain, imported, misawarded, side_pot_hand
from tests.test_cli_audit import MISPAID
from tests.test_show import OVERBET

runner = CliRunner()


class Rows(HTMLParser):
    """The text of each row of one table (by id), a list of its cells' texts."""

    def __init__(self, table_id: str) -> None:
        super().__init__()
        self.table_id, self.inside, self.rows = table_id, False, []  # type: list[list[str]]
        self.cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table" and ("id", self.table_id) in attrs:
            self.inside = True
        elif self.inside and tag == "tr":
            self.rows.append([])
        elif self.inside and tag in ("td", "th"):
            self.cell = []
        elif self.inside and tag == "span" and ("class", "card back") in attrs and self.cell is not None:
            self.cell.append("??")

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self.inside = False
        elif self.inside and tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append(" ".join("".join(self.cell).split()))
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def table_rows(page: str, table_id: str) -> list[list[str]]:
    parser = Rows(table_id)
    parser.feed(page)
    return parser.rows


def test_the_street_table_lists_the_antes_before_the_deal_as_the_history_does(tmp_path: Path) -> None:
    db, _ = imported(tmp_path, side_pot_hand())
    out = tmp_path / "r.html"
    explain(db, "200", "--format", "html", "--out", str(out))
    rows = table_rows(out.read_text(), "streets")
    third = rows[rows.index(["3rd street"]) + 1:]
    happened = [row[1] for row in third[:7]]
    assert happened[:3] == ["posts the ante $1.00"] * 3, happened
    assert [text.startswith("dealt") for text in happened[3:6]] == [True] * 3 and happened[6].startswith("brings in")
    lines = [int(row[3]) for row in rows if len(row) == 4 and row[3].isdigit()]
    assert lines == sorted(lines)  # every row in the order of the history's lines
    text = explain(db, "200")  # the text report had it right: the same order
    ante, dealt = text.index("posts the ante $1.00"), text.index("gets down ?? ?? up 2c")
    assert ante < dealt


def index_store(tmp_path: Path) -> str:
    """Three hands with a violation: $9.00 misawarded (#200), $0.18 (#4242), none but an overbet (#77)."""
    text = "\n\n\n".join([MISPAID, OVERBET, misawarded(side_pot_hand())])
    db, _ = imported(tmp_path, text)
    return db


def test_the_report_index_is_sorted_by_the_money_and_says_each_hand_in_its_own_words(tmp_path: Path) -> None:
    db = index_store(tmp_path)
    out = tmp_path / "findings"
    result = runner.invoke(app, ["audit", "--db", db, "--report", str(out)])
    assert result.exit_code == 1, result.output
    page = (out / "index.html").read_text()
    rows = table_rows(page, "index")[1:]
    assert [(row[0], row[2]) for row in rows] == [("$9.00", "200"), ("$0.18", "4242"), ("$0.00", "77")]
    lines = [row[5] for row in rows]
    assert lines[0].startswith("Paid the $9.00 high half of the main pot to Shorty; by the rules it belongs to Big")
    assert lines[1].startswith("Paid ") and "u.pressure" in lines[1]
    assert lines[2] == "gashpor bets to $0.08 on 4th street; the limit allows $0.04 (and 3 more)."
    for line in lines:  # what every row said again is said once, above the table
        assert not line.startswith("The site") and "under the rules of" not in line, line
    assert "each under the rules of PokerStars" in page
    assert re.search(r"td\.date \{ white-space: nowrap; \}", page)  # a date on one line (the browser test sees it)
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", row[3]) for row in rows), rows
