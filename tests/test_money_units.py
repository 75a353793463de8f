"""Issue #35 items 5-7, run as a user runs them at 80 columns: big bets across currencies (`graph --unit
bb`), net and bb/100 of opposite signs explained (`stats`), money sorted within its currency (`hands --sort
pot`), a tournament's profit, ROI and in-the-money with the unknown said (`tournaments`, the `finishes`
view), and every listing's long text wrapped in place, never cut with "…"."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from tests.inputs import SAMPLES
from tests.tournament_hands import stars_hand
from tests.tracker_hands import ann_folds, ann_steals

runner = CliRunner()
WIDTH = {"COLUMNS": "80"}


def _scaled(text: str) -> str:
    """The hand at $4/$8 (every amount of the $0.04/$0.08 hand a hundred times larger)."""
    for small, large in (("$0.01", "$1"), ("$0.02", "$2"), ("$0.04", "$4"), ("$0.06", "$6"), ("$0.08", "$8"),
                         ("$5 in chips", "$500 in chips")):
        text = text.replace(small, large)
    return text


def _in_euro(text: str) -> str:
    return text.replace("$", "€").replace(" USD)", " EUR)")


#: Ann: three steals at $0.04/$0.08 (+$0.09: +1.125 big bets), one fold at $4/$8 (-$3: -0.375 big bets),
#: so net -$2.91 and +0.75 big bets in USD; one steal at €0.04/€0.08 (+€0.03: +0.375 big bets)
ANN = (ann_steals(8001, "2024/03/01 20:00:00", "Alpha"), ann_steals(8002, "2024/03/01 20:01:00", "Alpha"),
       ann_steals(8003, "2024/03/01 20:02:00", "Alpha"), _scaled(ann_folds(8004, "2024/03/01 20:03:00", "Big")),
       _in_euro(ann_steals(8005, "2024/03/01 20:04:00", "Euro")))


def run(*args: str, code: int = 0) -> str:
    result = runner.invoke(app, list(args), env=WIDTH)
    assert result.exit_code == code, (result.stdout, result.stderr)
    return result.stdout if code == 0 else result.stderr


def fits(text: str) -> list[str]:
    """The lines, each asserted within 80 columns and with no text cut with "…"."""
    lines = text.splitlines()
    assert not [line for line in lines if len(line) > 80], [line for line in lines if len(line) > 80]
    assert not [line for line in lines if "…" in line], [line for line in lines if "…" in line]
    return lines


@pytest.fixture(scope="module")
def ann(tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = tmp_path_factory.mktemp("ann")
    (folder / "ann.txt").write_text("\n\n".join(ANN), encoding="utf-8")
    path = str(folder / "a.duckdb")
    run("import", str(folder / "ann.txt"), "--db", path, "--jobs", "1")
    return path


@pytest.fixture(scope="module")
def samples(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("samples") / "s.duckdb")
    run("import", str(SAMPLES), "--db", path, "--jobs", "1")
    return path


def test_graph_in_big_bets_adds_up_currencies_and_keeps_money_apart(ann: str, tmp_path: Path) -> None:
    out = tmp_path / "w.html"
    run("graph", "--db", ann, "--player", "Ann", "--unit", "bb", "--out", str(out))
    page = out.read_text(encoding="utf-8")
    expected = Fraction(3 * 3, 8) + Fraction(-300, 800) + Fraction(3, 8)  # each hand over its own big bet
    assert f"Winnings of Ann: {float(expected):+.2f} big bets (-$2.91, €0.03) over 5 hands" in page
    assert "€0.03" in page and "-$2.91" in page  # each currency's own total, never one sum of both
    total = re.search(r"<tr><th>Total</th><td>([^<]*)</td><td>([^<]*)</td></tr>", page)
    assert total and total.group(1) == "-$2.91, €0.03" and abs(Fraction(total.group(2)) - expected) <= Fraction(1, 200)
    rows = re.findall(r'<tr id="hand-\d+">(.*?)</tr>', page)
    assert len(rows) == 5 and "<td>€0.03</td>" in rows[-1] and "<td>-$3.00</td>" in rows[3]
    refused = run("graph", "--db", ann, "--player", "Ann", "--out", str(out), code=2)
    assert "several currencies" in refused and "--unit bb" in refused and len(refused.strip().splitlines()) == 1
    run("graph", "--db", ann, "--player", "Ann", "--currency", "eur", "--out", str(out))
    assert "Winnings of Ann: 0.03 EUR over 1 hands" in out.read_text(encoding="utf-8")


def test_stats_says_why_net_and_bb_per_100_have_opposite_signs(ann: str) -> None:
    lines = fits(run("stats", "--db", ann, "--player", "Ann"))
    usd = next(line for line in lines if line.startswith("Ann") and "USD" in line)
    assert "-$2.91" in usd and usd.split()[-1] == "18.75"  # +0.75 big bets over 4 hands
    note = " ".join(line.strip() for line in lines[lines.index(next(x for x in lines if "but" in x)):])
    assert "Ann ($): net -$2.91 but +18.75 bb/100" in note and "--by stakes" in note
    assert sum("but" in line for line in lines) == 1
    by_stakes = fits(run("stats", "--db", ann, "--player", "Ann", "--by", "stakes"))
    assert not any(" but " in line for line in by_stakes)  # each stakes' net and bb/100 agree
    data = json.loads(run("stats", "--db", ann, "--player", "Ann", "--format", "json"))
    assert "but" not in json.dumps(data)  # the note is for the terminal's reader, not in the data


def test_hands_sort_pot_orders_within_each_currency_and_says_so(ann: str) -> None:
    lines = fits(run("hands", "--db", ann, "--sort", "pot"))
    pots = [line.split()[-2] for line in lines if re.match(r"\d{4} ", line)]
    assert pots == ["€0.06", "$6.00", "$0.06", "$0.06", "$0.06"]  # EUR before USD, each largest first
    assert "sorted by currency (EUR, USD), then pot" in " ".join(lines)
    ascending = [line.split()[-2] for line in fits(run("hands", "--db", ann, "--sort", "pot", "--asc"))
                 if re.match(r"\d{4} ", line)]
    assert ascending == ["€0.06", "$0.06", "$0.06", "$0.06", "$6.00"]
    usd_only = fits(run("hands", "--db", ann, "--sort", "pot", "--min-pot", "1"))  # (the \$6 pot alone)
    assert not any("sorted by currency" in line for line in usd_only)


@pytest.fixture(scope="module")
def tournaments_db(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Three tournaments of Hero: 2nd for $1.47 on $0.98+$0.12; out in 5th, no prize named, on $1+$0.10;
    one whose buy-in no hand states and whose finish none states."""
    folder = tmp_path_factory.mktemp("tournaments")
    hands = [stars_hand(),
             stars_hand("$1+$0.10 USD ", "{hero} finished the tournament in 5th place\n", hand_id=241636097100,
                        tournament="3540610600", minute=30),
             stars_hand("", "", hand_id=241636097200, tournament="3540610700", minute=35)]
    (folder / "t.txt").write_text("\n\n".join(hands), encoding="utf-8")
    path = str(folder / "t.duckdb")
    run("import", str(folder / "t.txt"), "--db", path, "--jobs", "1")
    return path


def test_tournaments_profit_roi_and_in_the_money_with_the_unknown_said(tournaments_db: str) -> None:
    lines = fits(run("tournaments", "--db", tournaments_db))
    rows = {line.split()[0]: line for line in lines if re.match(r"\s*\d{10} ", line)}
    assert "2nd, $1.47" in rows["3540610518"] and "$0.37" in rows["3540610518"] and "+34%" in rows["3540610518"]
    assert "5th" in rows["3540610600"] and "-$1.10" in rows["3540610600"] and "-100%" in rows["3540610600"]
    assert rows["3540610700"].count("—") >= 3  # buy-in, finish, profit, ROI: unknown, never 0
    said = " ".join(line.strip() for line in lines[lines.index(next(x for x in lines if x.startswith("total"))):])
    # $1.47 - $1.10 (first) and $0 - $1.10 (second): -$0.73 on $2.20
    assert "total in USD, 2 tournaments: profit -$0.73 (won $1.47 for $2.20), ROI -33.2%" in said
    assert "in the money 1 of 2 finishes stated" in said
    assert "1 tournament with no buy-in stated: profit and ROI unknown; no finish stated" in said
    data = {row["tournament_id"]: row for row in json.loads(run("tournaments", "--db", tournaments_db,
                                                                "--format", "json"))}
    assert (data["3540610518"]["cost"], data["3540610518"]["won"], data["3540610518"]["profit"]) == (110, 147, 37)
    assert data["3540610518"]["itm"] is True and data["3540610600"]["itm"] is False
    assert data["3540610700"]["profit"] is None and data["3540610700"]["itm"] is None


def test_the_finishes_view_holds_the_finishes_the_histories_state(tournaments_db: str) -> None:
    rows = json.loads(run("sql", "--db", tournaments_db, "--format", "json",
                          "SELECT tournament_id, player, place, prize, stored_hand FROM finishes "
                          "ORDER BY tournament_id, place"))
    assert [(r["tournament_id"], r["player"], r["place"], r["prize"]) for r in rows] == [
        ("3540610518", "Alice", 1, 293), ("3540610518", "Hero", 2, 147), ("3540610600", "Hero", 5, None)]


def test_a_skipped_hands_finish_is_in_the_finishes_view(tmp_path: Path) -> None:
    """A mixed tournament's finishing hand dealt as another game is skipped, its finish kept: the view shows it."""
    hand = stars_hand().replace("7 Card Stud Hi/Lo Limit", "Razz Limit")
    (tmp_path / "razz.txt").write_text(stars_hand(minute=20, hand_id=241636097001, finish="") + "\n\n" + hand,
                                       encoding="utf-8")
    db = str(tmp_path / "r.duckdb")
    run("import", str(tmp_path / "razz.txt"), "--db", db, "--jobs", "1")
    rows = json.loads(run("sql", "--db", db, "--format", "json",
                          "SELECT player, place, prize, stored_hand FROM finishes ORDER BY place"))
    assert rows == [{"player": "Alice", "place": 1, "prize": 293, "stored_hand": False},
                    {"player": "Hero", "place": 2, "prize": 147, "stored_hand": False}]
    assert "2nd, $1.47" in run("tournaments", "--db", db)


@pytest.mark.parametrize("command", [
    ("hands",), ("hands", "--all"), ("hands", "--player", "Hero", "--all"), ("hands", "--sort", "pot"),
    ("stats",), ("stats", "--by", "stakes"), ("sessions",), ("sessions", "--all"), ("problems",),
    ("violations",), ("violations", "--by", "hand"),
])
def test_every_listing_fits_80_columns_with_nothing_cut(samples: str, command: tuple[str, ...]) -> None:
    text = run(*command, "--db", samples, "--limit", "0") if command[0] in ("hands", "sessions") else \
        run(*command, "--db", samples)
    fits(text)
    assert text.strip()


def test_a_long_table_name_and_a_hostile_name_wrap_whole_in_their_cells(tmp_path: Path) -> None:
    name = "Uber-Long_Player.Name\x1b[31m"
    table = "A Table With A Very Long Name Indeed"
    hand = ann_steals(9001, "2024/03/01 20:00:00", table).replace("Ann", name)
    (tmp_path / "h.txt").write_text(hand, encoding="utf-8")
    db = str(tmp_path / "h.duckdb")
    run("import", str(tmp_path / "h.txt"), "--db", db, "--jobs", "1")
    for command in (("hands", "--all"), ("sessions", "--player", "Dan", "--all"), ("stats",)):
        lines = fits(run(*command, "--db", db))
        assert "\x1b" not in "".join(lines)
        if command[0] == "sessions":  # the table's name, wrapped between its words, every word there in order
            words = " ".join(lines).split()
            at = [words.index(word) for word in ("Table", "Very", "Indeed")]
            assert at == sorted(at)
        if command[0] == "stats":
            assert any(line.startswith("Uber-Long_Player.Name?[31m ") for line in lines)


def test_a_store_of_version_13_gets_the_skipped_finishes_in_its_view(tmp_path: Path) -> None:
    """Migration 14 makes the view again: a store whose view showed only the stored hands' finishes (as
    version 13 made it) shows the skipped hand's after the upgrade, with nothing imported again."""
    import duckdb

    from hhtool.store.schema import CURRENT_VERSION, FINISHES_OF_SKIPPED_HANDS, MIGRATIONS

    hand = stars_hand().replace("7 Card Stud Hi/Lo Limit", "Razz Limit")
    (tmp_path / "razz.txt").write_text(stars_hand(minute=20, hand_id=241636097001, finish="") + "\n\n" + hand,
                                       encoding="utf-8")
    db = str(tmp_path / "r.duckdb")
    run("import", str(tmp_path / "razz.txt"), "--db", db, "--jobs", "1")
    before = MIGRATIONS.index(FINISHES_OF_SKIPPED_HANDS)  # (13: the later migrations run again after it)
    with duckdb.connect(db) as con:  # the view as version 13 had it, and the version
        con.execute("CREATE OR REPLACE VIEW finishes AS SELECT h.site, h.hand_id, x.* EXCLUDE (hk) "
                    "FROM keyed.finishes x JOIN hands h ON h.hk = x.hk")
        con.execute(f"UPDATE schema_version SET version = {before} WHERE version = {CURRENT_VERSION}")
        assert con.execute("SELECT count(*) FROM finishes").fetchone() == (0,)
    rows = json.loads(run("sql", "--db", db, "--format", "json", "SELECT player, place FROM finishes ORDER BY place"))
    assert rows == [{"player": "Alice", "place": 1}, {"player": "Hero", "place": 2}]
