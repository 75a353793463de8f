"""Issue #14, `hhtool hands`: the hand list a tracker has, run as a user runs it (at 80 columns): the
filters of stats (a filter matching nothing exits 2 with close matches), verdict, the player's
showdown, pot bounds, sort order, the limit and what it says, the formats, and ids `show` takes."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from rich.cells import cell_len
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.store import Store
from tests.inputs import SAMPLES
from tests.tracker_hands import EVENING

runner = CliRunner()
WIDTH = {"COLUMNS": "80"}


@pytest.fixture(scope="module")
def samples(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Every sample history (twelve sites, ids up to 22 characters, several currencies)."""
    path = str(tmp_path_factory.mktemp("hands") / "all.duckdb")
    result = runner.invoke(app, ["import", str(SAMPLES), "--db", path, "--jobs", "1"])
    assert result.exit_code == 0, result.output
    return path


@pytest.fixture(scope="module")
def evening(tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = tmp_path_factory.mktemp("evening")
    (folder / "evening.txt").write_text("\n\n".join(EVENING), encoding="utf-8")
    path = str(folder / "e.duckdb")
    assert runner.invoke(app, ["import", str(folder / "evening.txt"), "--db", path]).exit_code == 0
    return path


def hands(db: str, *args: str) -> list[dict[str, object]]:
    result = runner.invoke(app, ["hands", "--db", db, "--format", "json", *args], env=WIDTH)
    assert result.exit_code == 0, result.output
    rows: list[dict[str, object]] = json.loads(result.stdout)
    return rows


def stored(db: str, sql: str) -> list[tuple[object, ...]]:
    with Store(db, read_only=True) as store:
        return store.run(sql)


@pytest.mark.slow
@pytest.mark.parametrize(("args", "said"), [
    (["--player", "hero"], "no player 'hero' in the store; did you mean 'Hero'?"),
    (["--site", "pokerstar"], "no site 'pokerstar' in the store; did you mean 'pokerstars'"),
    (["--showdown", "won"], "--showdown is a player's: add --player NAME"),
    (["--min-pot", "lots"], "--min-pot wants an amount in the currency's units"),
    (["--min-pot", "2", "--max-pot", "1"], "--min-pot 2 is above --max-pot 1"),
    (["--sort", "pott"], "no hands column 'pott' (did you mean 'pot'?)"),
])
def test_a_filter_matching_nothing_or_malformed_exits_2_saying_why(samples: str, args: list[str], said: str) -> None:
    result = runner.invoke(app, ["hands", "--db", samples, *args], env=WIDTH)
    assert result.exit_code == 2, result.output
    assert said in result.output and "Traceback" not in result.output


@pytest.mark.parametrize(("args", "said"), [
    (["--player", "Hero", "--from", "2030-01-01"], "no hands match (each value exists, but not in one hand together)"),
    (["--verdict", "violation"], "no hands match (none of the 159 hands the other filters select matches "
                                 "--verdict violation)"),
    (["--player", "Hero", "--min-pot", "1000"], "no hands match (none of the player's 145 hands the other filters "
                                                "select matches --min-pot 1000)"),
])
def test_an_empty_answer_says_no_hands_match_with_exit_0(samples: str, args: list[str], said: str) -> None:
    """(#25: it was exit 2, a usage error, for a question asked rightly whose answer is none.)"""
    result = runner.invoke(app, ["hands", "--db", samples, *args], env=WIDTH)
    assert result.exit_code == 0, result.output
    assert " ".join(result.output.split()) == said and all(len(line) <= 80 for line in result.output.splitlines())


def test_the_terminal_list_fits_80_columns_and_says_what_the_limit_left_out(samples: str) -> None:
    result = runner.invoke(app, ["hands", "--db", samples], env=WIDTH)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert all(cell_len(line) <= 80 for line in lines), max(lines, key=cell_len)
    assert lines[-1] == "showing 50 of 159 hands; --limit N to see more (--limit 0: all)"
    assert lines[0].split() == ["id", "date", "table", "stakes", "seats", "pot", "verdict"]
    assert len([line for line in lines[2:] if "  " in line]) == 50 and lines[-2] == "50 rows"
    everything = runner.invoke(app, ["hands", "--db", samples, "--limit", "0"], env=WIDTH)
    assert "showing" not in everything.output and "159 rows" in everything.output


def test_a_22_character_id_stays_whole_and_the_table_name_goes_first(samples: str) -> None:
    result = runner.invoke(app, ["hands", "--db", samples, "--site", "winamax"], env=WIDTH)
    assert result.exit_code == 0, result.output
    ids = [str(row[0]) for row in stored(samples, "SELECT hand_id FROM hands WHERE site = 'winamax'")]
    assert max(len(i) for i in ids) == 22
    for hand_id in ids:
        assert any(line.startswith(hand_id + " ") for line in result.output.splitlines()), result.output
    assert all(cell_len(line) <= 80 for line in result.output.splitlines())
    assert "(left out to fit: table; --columns or --all shows them)" in result.output


def test_the_listed_id_is_what_show_takes(samples: str) -> None:
    first = runner.invoke(app, ["hands", "--db", samples, "--limit", "1"], env=WIDTH).output.splitlines()[2].split()[0]
    shown = runner.invoke(app, ["show", first, "--db", samples], env=WIDTH)
    assert shown.exit_code == 0 and first in shown.output, shown.output


def test_newest_first_by_default_and_any_column_either_way(samples: str) -> None:
    dates = [row["started_at"] for row in hands(samples, "--limit", "0")]
    assert dates == sorted(dates, key=str, reverse=True) and len(dates) == 159
    pots = [(row["pot"], row["unit"]) for row in hands(samples, "--sort", "pot", "--site", "pokerstars")]
    assert [p for p, _ in pots] == sorted((p for p, _ in pots), reverse=True)  # type: ignore[type-var]
    rising = [row["pot"] for row in hands(samples, "--sort", "pot", "--asc", "--site", "pokerstars")]
    assert rising == sorted(rising) and rising[0] != rising[-1]  # type: ignore[type-var]
    names = [row["table"] for row in hands(samples, "--sort", "table", "--site", "ongame")]
    assert names == ["Gdansk", "Lublin", "Lublin"]  # text A to Z unless --desc
    assert [row["table"] for row in hands(samples, "--sort", "table", "--desc", "--site", "ongame")] == [
        "Lublin", "Lublin", "Gdansk"]


def test_pots_of_every_site_sort_by_their_amount_in_currency_units(samples: str) -> None:
    rows = hands(samples, "--sort", "pot", "--limit", "0")
    # by currency A to Z, then the amount, largest first: euro cents, chips and cents are never compared (#35)
    keys = [(str(row["currency"]), -Fraction(int(row["pot"]), int(row["unit"]))) for row in rows]  # type: ignore[call-overload]
    assert keys == sorted(keys) and len(keys) == 159 and len({currency for currency, _ in keys}) > 1
    usd = [row for row in rows if row["currency"] == "USD"]
    assert (usd[0]["site"], usd[0]["pot"]) == ("kingsclub", 115000)  # $1,150.00, the largest pot in dollars


def test_the_verdict_filter_lists_exactly_the_hands_with_that_verdict(evening: str) -> None:
    assert [row["hand_id"] for row in hands(evening, "--verdict", "violation")] == ["7002"]
    # 7006, alone at table Beta, is judged by the site's other table at the stakes (Alpha's four clean hands)
    assert sorted(str(row["hand_id"]) for row in hands(evening, "--verdict", "ok")) == ["7001", "7003", "7004", "7005",
                                                                                         "7006"]
    verdicts = dict(stored(evening, "SELECT hand_id, verdict FROM hands"))
    assert {row["hand_id"]: row["verdict"] for row in hands(evening)} == verdicts


def test_the_players_net_and_showdown_won_or_lost(samples: str) -> None:
    won = hands(samples, "--player", "Hero", "--site", "pokerstars", "--showdown", "won")
    lost = hands(samples, "--player", "Hero", "--site", "pokerstars", "--showdown", "lost")
    stats = json.loads(runner.invoke(app, ["stats", "--db", samples, "--player", "Hero", "--site", "pokerstars",
                                           "--format", "json"]).stdout)[0]
    assert len(won) == stats["wsd_count"] == 23
    assert len(won) + len(lost) == stats["wsd_opportunities"]
    collected = dict(((str(s), str(h)), int(c)) for s, h, c in stored(
        samples, "SELECT site, hand_id, collected FROM results WHERE player = 'Hero'"))
    assert all(collected[(str(row["site"]), str(row["hand_id"]))] > 0 for row in won)
    assert all(collected[(str(row["site"]), str(row["hand_id"]))] == 0 for row in lost)
    everything = hands(samples, "--player", "Hero", "--site", "pokerstars", "--limit", "0")
    assert sum(int(row["net"]) for row in everything) == 103  # type: ignore[call-overload]  # stats' net_won
    assert {row["showdown"] for row in everything} == {"won", "lost", None}


def test_pot_bounds_are_inclusive_and_exact_in_currency_units(samples: str) -> None:
    rows = hands(samples, "--site", "pokerstars", "--min-pot", "$0.75", "--max-pot", "0.75")
    assert [row["hand_id"] for row in rows] == ["250010000118"] and rows[0]["pot"] == 75
    between = hands(samples, "--site", "pokerstars", "--min-pot", "0.5", "--max-pot", "1", "--limit", "0")
    expected = stored(samples, """SELECT count(*) FROM (SELECT sum(contributed) AS pot FROM results
                                  WHERE site = 'pokerstars' GROUP BY hand_id) WHERE pot BETWEEN 50 AND 100""")
    assert len(between) == expected[0][0] > 1
    assert all(50 <= int(row["pot"]) <= 100 for row in between)  # type: ignore[call-overload]


def test_the_terminal_spells_money_and_out_writes_the_suffixes_format(evening: str, tmp_path: Path) -> None:
    result = runner.invoke(app, ["hands", "--db", evening, "--player", "Ann", "--sort", "id", "--asc"], env=WIDTH)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0].split() == ["id", "date", "table", "stakes", "net", "pot", "verdict"]
    assert "7002  2024-03-01 20:10  Alpha  0.04/0.08  -$0.03  $0.07  violation" in result.output
    out = tmp_path / "new" / "list.csv"
    written = runner.invoke(app, ["hands", "--db", evening, "--player", "Ann", "--out", str(out)])
    assert written.exit_code == 0, written.output
    header, *rows = out.read_text(encoding="utf-8").splitlines()
    assert header.startswith("site,hand_id,started_at") and "net" in header.split(",") and len(rows) == 6
    assert "─" not in out.read_text(encoding="utf-8")


@pytest.mark.slow
def test_an_id_on_two_sites_brings_the_site_column(evening: str, tmp_path: Path) -> None:
    text = (SAMPLES / "fulltilt" / "FT-Bramble-2-4-Stud-HiLo-201105.txt").read_text(encoding="utf-16")
    first_id = text.split("#", 1)[1].split(":", 1)[0]
    other = tmp_path / "ft.txt"
    other.write_text(text.replace(f"#{first_id}:", "#7001:", 1), encoding="utf-8")
    db = str(tmp_path / "two.duckdb")
    runner.invoke(app, ["import", str(other), "--db", db])
    (tmp_path / "e.txt").write_text("\n\n".join(EVENING), encoding="utf-8")
    runner.invoke(app, ["import", str(tmp_path / "e.txt"), "--db", db])
    result = runner.invoke(app, ["hands", "--db", db, "--limit", "0"], env=WIDTH)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0].split()[:2] == ["id", "site"]
    assert sorted(line.split()[1] for line in result.output.splitlines() if line.split()[:1] == ["7001"]) == [
        "fulltilt", "pokerstars"]


def test_a_hostile_player_name_reaches_neither_list_as_escapes_nor_past_80_columns(tmp_path: Path) -> None:
    name = "Z\x1b[31m: calls $5 " + "é李" * 30
    (tmp_path / "e.txt").write_text("\n\n".join(hand.replace("Ann", name) for hand in EVENING), encoding="utf-8")
    db = str(tmp_path / "h.duckdb")
    assert runner.invoke(app, ["import", str(tmp_path / "e.txt"), "--db", db]).exit_code == 0
    for command in (["hands", "--columns", "id,player,net,sd"], ["sessions", "--columns", "player,table,net"]):
        result = runner.invoke(app, [*command, "--db", db, "--player", name], env=WIDTH)
        assert result.exit_code == 0, result.output
        assert "\x1b" not in result.output and "Z?[31m: calls $5" in result.output
        assert all(cell_len(line) <= 80 for line in result.output.splitlines())
        rows = 6 if command[0] == "hands" else 2  # (sessions: 2 sittings)
        # the long name whole, wrapped: in its cell under its row, or in records where it would break a row
        # into more than two lines (#35)
        assert f"\n{rows} rows\n" in result.output or f"── 1 of {rows} " in result.output
        if command[0] == "hands":  # (sessions: the tables' cells wrap beside it, on the same lines)
            assert "".join(result.output.split()).count("é李" * 30) == rows
