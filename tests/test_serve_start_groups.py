"""#26's speed: the starting-hand group is a column of the stored facts and a key of their daily sums,
so `stats --by start` (and the serve page's start tab) sums the daily rows, not every player-hand.
The groups and the numbers are the ones the report gave when it grouped each player-hand's cards in
Python: checked against that grouping (the import's workers tabulate the facts with it) on every ordered
three-card deal, on the samples and on a simulated store, each through the command."""

from __future__ import annotations

import csv
import io
import itertools
from collections import Counter
from pathlib import Path

import duckdb
import pyarrow as pa
import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.store import Store
from hhtool.store.facts_rows import start_group
from hhtool.store.filters import HandFilter
from hhtool.store.player_facts import player_hand_facts
from hhtool.store.player_facts_cache import DAILY_TABLE, FACTS_DEFINITION, VERSION_TABLE, facts_version
from hhtool.store.start_groups import RANKS, UNKNOWN, start_group_sql
from tests.inputs import copy_store, samples_store

runner = CliRunner()


#: the groups as Python makes them: the import's workers tabulate the facts with it (hhtool.store.facts_rows), as
#: the report did before the groups were stored (docs/stats.md)
oracle = start_group


def test_the_sql_groups_every_deal_as_the_python_did() -> None:
    deck = [rank + suit for rank in RANKS for suit in "cdhs"]
    deals = [" ".join(cards) for cards in itertools.permutations(deck, 3)]
    odd = [None, "", "As Ks", "As Ks Kh Kd", "?? Kd Kh", "10h Kd Kh", "ks kd qh", "Xx 2c 3d", "As  Kd Qh"]
    given = [*deals, *odd]
    con = duckdb.connect(":memory:")
    con.register("deals", pa.table({"n": pa.array(range(len(given))), "cards": pa.array(given, pa.string())}))
    found = [row[0] for row in con.execute(f"SELECT {start_group_sql('cards')} FROM deals ORDER BY n").fetchall()]
    assert len(deals) == 52 * 51 * 50
    wrong = [(cards, got, oracle(cards)) for cards, got in zip(given, found, strict=True) if got != oracle(cards)]
    assert wrong == []
    assert found[-1] == UNKNOWN  # (two spaces: the facts join cards with one)
    assert len(Counter(found)) == 1 + 13 + 13 + 3 + 13 + 1


def by_start_csv(db: str, *args: str) -> list[dict[str, str]]:
    result = runner.invoke(app, ["stats", "--db", db, "--by", "start", "--format", "csv", *args])
    assert result.exit_code == 0, result.output
    return list(csv.DictReader(io.StringIO(result.stdout)))


def oracle_rows(db: str) -> dict[tuple[str, str, str], dict[str, int]]:
    """Per player, currency and group: the hands, net and VPIP counts of the facts computed now (not
    the stored ones) with each player-hand's group found by the oracle from its 3rd-street cards."""
    with Store(db, read_only=True) as store:
        facts = player_hand_facts(store, HandFilter())
    totals: dict[tuple[str, str, str], dict[str, int]] = {}
    for row in facts.iter_rows(named=True):
        key = (row["player"], row["currency"], oracle(row["third_cards"]))
        sums = totals.setdefault(key, {"hands": 0, "net_won": 0, "vpip_count": 0, "vpip_opportunities": 0})
        sums["hands"] += 1
        sums["net_won"] += row["net"]
        sums["vpip_count"] += row["vpip__n"]
        sums["vpip_opportunities"] += row["vpip__o"]
    return totals


def reported(rows: list[dict[str, str]]) -> dict[tuple[str, str, str], dict[str, int]]:
    return {(row["player"], row["currency"], row["start"]): {key: int(row[key]) for key in
                                                             ("hands", "net_won", "vpip_count", "vpip_opportunities")}
            for row in rows}


def daily_groups(db: str) -> Counter[str]:
    with duckdb.connect(db, read_only=True) as con:
        return Counter({str(start): int(hands) for start, hands in
                        con.execute(f"SELECT start, sum(hands) FROM {DAILY_TABLE} GROUP BY start").fetchall()})


@pytest.fixture(scope="module")
def samples(tmp_path_factory: pytest.TempPathFactory) -> str:
    return samples_store(tmp_path_factory.mktemp("start-samples"))


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = tmp_path_factory.mktemp("start-simulated")
    written = runner.invoke(app, ["simulate", "--hands", "800", "--seed", "11", "--out", str(folder / "sim.txt"), "-q"])
    assert written.exit_code == 0, written.output
    result = runner.invoke(app, ["import", str(folder / "sim.txt"), "--db", str(folder / "sim.duckdb"), "-q"])
    assert result.exit_code == 0, result.output
    return str(folder / "sim.duckdb")


@pytest.mark.slow
@pytest.mark.parametrize("store", ["samples", "simulated"])
def test_by_start_gives_the_numbers_of_the_per_hand_grouping(store: str, request: pytest.FixtureRequest) -> None:
    db = request.getfixturevalue(store)
    rows = by_start_csv(db)
    assert reported(rows) == oracle_rows(db)
    groups = {row["start"] for row in rows}
    assert UNKNOWN in groups and len(groups) > 5
    # read from the daily sums: they are kept per group, and hold every hand of each
    expected = Counter[str]()
    for (_, _, group), sums in oracle_rows(db).items():
        expected[group] += sums["hands"]
    assert daily_groups(db) == expected


def test_by_start_with_filters_and_the_terminal(samples: str) -> None:
    rows = by_start_csv(samples, "--player", "Hero", "--site", "pokerstars", "--from", "2000-01-01")
    assert {row["player"] for row in rows} == {"Hero"} and sum(int(row["hands"]) for row in rows) > 100
    shown = runner.invoke(app, ["stats", "--db", samples, "--by", "start", "--player", "Hero", "--site", "pokerstars"],
                          env={"COLUMNS": "80"})
    assert shown.exit_code == 0, shown.output
    lines = shown.stdout.splitlines()
    assert lines[0].split()[:3] == ["player", "start", "hands"] and max(len(line) for line in lines) <= 80
    assert any("buried pair" in line for line in lines)


def test_a_store_of_the_older_facts_is_refreshed_with_the_groups(samples: str, tmp_path: Path) -> None:
    db = copy_store(Path(samples), tmp_path / "older.duckdb")
    with duckdb.connect(str(db)) as con:  # as an hhtool before the groups left it: no start column, older version
        con.execute(f"ALTER TABLE {DAILY_TABLE} DROP COLUMN start")
        con.execute(f"UPDATE {VERSION_TABLE} SET version = '{FACTS_DEFINITION - 1}-older'")
    rows = by_start_csv(str(db))
    assert reported(rows) == oracle_rows(str(db))
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute(f"SELECT version FROM {VERSION_TABLE}").fetchall() == [(facts_version(),)]
