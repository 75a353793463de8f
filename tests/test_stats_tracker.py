"""`hhtool stats` read like a tracker's (#25): one header pattern explained in --help, money with its
currency, bb/100 by default, `--by stakes` fitted at 80 columns, HTML like the table, and the
3rd-street starting-hand groups of `--by start`. Each test runs the command."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rich.cells import cell_len
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.reports.starting_hands import start_group, start_order
from hhtool.reports.stats import output_keys
from hhtool.reports.stats_columns import HEADERS, OLD_HEADERS
from tests.inputs import SAMPLES

runner = CliRunner()
WIDTH = 80
#: the header pattern: a lowercase abbreviation with no space (a street's number last), or bb/100
HEADER = re.compile(r"^(?:[a-z0-9]+|(?:ev)?bb/100)$")


@pytest.fixture(scope="module")
def samples(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Every site's sample histories: several players at several stakes (0.04/0.08 … 2.50/5), USD and EUR."""
    path = tmp_path_factory.mktemp("all-samples") / "samples.duckdb"
    result = runner.invoke(app, ["import", str(SAMPLES), "--db", str(path), "--jobs", "1", "-q"])
    assert result.exit_code == 0, result.output
    return str(path)


def stats(db: str, *args: str, width: int = WIDTH) -> list[str]:
    result = runner.invoke(app, ["stats", "--db", db, *args], env={"COLUMNS": str(width)})
    assert result.exit_code == 0, (result.stdout, result.stderr)
    lines = result.stdout.splitlines()
    assert not [line for line in lines if cell_len(line) > width], lines
    return lines


@pytest.mark.slow
def test_every_column_has_a_header_of_one_pattern_and_the_old_names_still_work(samples: str) -> None:
    assert {key for key in output_keys() if not key.endswith(("_count", "_opportunities"))} <= set(HEADERS)
    bad = {key: header for key, header in HEADERS.items() if not HEADER.match(header) and key != "player"}
    assert not bad, bad
    records = stats(samples, "--all", "--limit", "1", "--game", "cash", "--site", "pokerstars")
    labels = [line.split(":")[0].strip() for line in records[1:]]
    assert "aggression_4th" not in labels and "agg4" in labels and "fcomp" in labels and "lowq" in labels
    money = ("net ", "sdnet ", "nsdnet ", "rake ", "evnet ", "luck ")  # a money header and its currency
    assert all(HEADER.match(label) or label.startswith(money) or label == "player" for label in labels), labels
    for old in OLD_HEADERS:  # the headers of before are still names of their columns
        if old not in ("check-raise", "fold to cbet", "door"):  # (--by street's, --by door-card's)
            assert len(stats(samples, "--columns", f"player,{old}", "--limit", "1")) == 4, old


def test_help_explains_each_column_and_the_bring_in_in_vpip() -> None:
    result = runner.invoke(app, ["stats", "--help"], env={"COLUMNS": str(WIDTH)})
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())
    assert "see docs/stats.md" not in text
    for key in output_keys():
        if key.endswith(("_count", "_opportunities")):
            continue
        header = HEADERS[key]
        assert re.search(rf"(^|[ ,]){re.escape(header)}( =|,)", text), (key, header)
    assert "bring-in nobody completed" in text and "trackers that divide by hands" in text
    assert "three to a low" in text and "buried pair" in text


def test_net_names_its_currency_and_bb_per_100_is_a_default_column(samples: str) -> None:
    cash = stats(samples, "--site", "pokerstars", "--game", "cash")
    assert re.split(r"\s{2,}", cash[0].strip())[-2:] == ["net $", "bb/100"]
    mixed = stats(samples, "--player", "Hero")  # USD and EUR rows: the currency column, money spelled with it
    assert mixed[0].split()[:2] == ["player", "ccy"] and "net" in mixed[0]
    assert any("$" in line for line in mixed[2:]) and any("€" in line for line in mixed[2:])


def test_tournament_chips_say_so(tmp_path: Path, corpus: Path) -> None:
    db = str(tmp_path / "t.duckdb")
    source = corpus / "PokerStars" / "8-Game-2max-STT-play-100-201306.homeGame.shootout.txt"
    assert runner.invoke(app, ["import", str(source), "--db", db, "-q"]).exit_code == 0
    lines = stats(db)
    assert "net chips" in lines[0] and "$" not in "".join(lines)


def test_by_stakes_fits_80_columns_by_leaving_columns_out(samples: str) -> None:
    lines = stats(samples, "--by", "stakes")
    assert not lines[0].startswith("──") and "stakes" in lines[0].split()  # a table, not records
    assert "left out to fit" in lines[-1] and "scoop" in lines[-1]
    stakes = {match for line in lines[2:] for match in re.findall(r"\b\d+(?:\.\d+)?/\d+(?:\.\d+)?\b", line)}
    assert {"0.04/0.08", "0.25/0.50", "0.05/0.10"} <= stakes, stakes  # as `hands` prints them
    assert "0.25/0.5" not in stakes and "0.05/0.1" not in stakes


def test_html_is_the_terminal_table(samples: str, tmp_path: Path) -> None:
    out = tmp_path / "s.html"
    result = runner.invoke(app, ["stats", "--db", samples, "--site", "pokerstars", "--game", "cash", "--limit", "3",
                                 "--out", str(out)])
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    headers = re.findall(r"<th>(.*?)</th>", page)
    assert headers == ["player", "hands", "vpip", "raise3", "agg5", "wtsd", "wsd", "scoop", "net $", "bb/100"]
    cells = re.findall(r'<td class="n">(.*?)</td>', page)
    assert any(cell.endswith("%") for cell in cells) and not any(re.fullmatch(r"0\.\d{4,}", c) for c in cells)
    assert "vpip_count" not in page and "net_won" not in page


# ------------------------------------------------------------------ --by start


@pytest.mark.parametrize(("cards", "group"), [
    ("Qs Qd Qh", "rolled-up trips"),
    ("Ts Td 3h", "buried pair T"),
    ("As 4d 4h", "split pair 4"),
    ("Kd 5c Ks", "split pair K"),
    ("Ah 2h 3h", "three to a low"),  # suited and connected too: a low first
    ("8c 7d 6s", "three to a low"),
    ("9c 7c 2c", "three to a flush"),
    ("9c 8d 7s", "three to a straight"),
    ("Ac Kd Qh", "three to a straight"),
    ("Ac 3d 9h", "high cards, door 9"),
    ("2c 9d Kh", "high cards, door K"),
    ("As Ks", "unknown"),
    (None, "unknown"),
])
def test_start_groups(cards: str | None, group: str) -> None:
    assert start_group(cards) == group


def test_start_groups_order() -> None:
    groups = ["high cards, door 2", "three to a low", "split pair A", "buried pair 2", "buried pair A", "rolled-up trips"]
    assert sorted(groups, key=start_order) == list(reversed(groups))


def test_by_start_shows_hands_vpip_net_and_bb_per_100_per_group(samples: str) -> None:
    lines = stats(samples, "--by", "start", "--player", "Hero", "--site", "pokerstars")
    assert re.split(r"\s{2,}", lines[0].strip()) == ["player", "start", "hands", "vpip", "net $", "bb/100"]
    groups = [re.split(r"\s{2,}", line.strip())[1] for line in lines[2:-1]]
    assert "three to a low" in groups and any(g.startswith("buried pair ") for g in groups)
    assert groups == sorted(groups, key=start_order)
    hands = sum(int(re.split(r"\s{2,}", line.strip())[2]) for line in lines[2:-1])
    total = stats(samples, "--player", "Hero", "--site", "pokerstars", "--columns", "hands")
    assert hands == int(total[2].split()[0])  # every hand in one group
    csv_text = runner.invoke(app, ["stats", "--db", samples, "--by", "start", "--player", "Hero", "--format", "csv"]).stdout
    assert csv_text.splitlines()[0].startswith("player,currency,unit,start,hands")
