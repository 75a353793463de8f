"""Issue #14: player aliases. One person's names on several sites are grouped as one player:
`stats --player NAME` is one row of all the names' hands, `graph --player NAME` one line, and every
--player filter (violations too) means all the names. `hhtool alias add|list|remove` keeps them in
the store; a wrong site or player is refused with close matches, exit 2. Every test runs the commands."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner, Result

from hhtool.cli import app
from tests.inputs import SAMPLES, copy_store

runner = CliRunner()
#: one person's three names, each on another site (sample histories)
NAMES = ("pokerstars:wheel4life", "fulltilt:dsouza", "partypoker:TallPines")


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("aliases") / "three-sites.duckdb"
    folders = [str(SAMPLES / site) for site in ("pokerstars", "fulltilt", "partypoker")]
    result = runner.invoke(app, ["import", *folders, "--db", str(path), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    return path


@pytest.fixture
def db(imported: Path, tmp_path: Path) -> str:
    return str(copy_store(imported, tmp_path / "copy.duckdb"))


def run(db: str, *args: str) -> Result:
    return runner.invoke(app, [*args, "--db", db], env={"COLUMNS": "80"})


def stats_rows(db: str, *args: str) -> list[dict[str, object]]:
    result = run(db, "stats", "--format", "json", *args)
    assert result.exit_code == 0, result.output
    rows: list[dict[str, object]] = json.loads(result.output)
    return rows


@pytest.mark.slow
def test_stats_of_an_alias_is_one_row_of_every_names_hands(db: str) -> None:
    added = run(db, "alias", "add", "Me", *NAMES)
    assert added.exit_code == 0, added.output
    assert "alias Me: added pokerstars:wheel4life, fulltilt:dsouza, partypoker:TallPines" in added.output
    [person] = stats_rows(db, "--player", "Me")
    # each name asked by its own name keeps its own row: the person's row is their sum
    singles = [stats_rows(db, "--player", name.split(":")[1])[0] for name in NAMES]
    assert person["player"] == "Me"
    for key in ("hands", "net_won", "vpip_count", "vpip_opportunities", "wtsd_count", "rake_paid"):
        assert person[key] == sum(int(row[key]) for row in singles), key  # type: ignore[call-overload]
    with duckdb.connect(db, read_only=True) as con:  # and the hands are the three names' seats, counted apart
        seated = con.execute("SELECT count(*) FROM seats WHERE (site = 'pokerstars' AND player = 'wheel4life') OR "
                             "(site = 'fulltilt' AND player = 'dsouza') OR (site = 'partypoker' AND player = 'TallPines')"
                             ).fetchone()
    assert seated is not None and person["hands"] == seated[0] > 20


def test_stats_without_player_shows_the_person_instead_of_the_names(db: str) -> None:
    assert run(db, "alias", "add", "Me", *NAMES).exit_code == 0
    players = [row["player"] for row in stats_rows(db)]
    assert "Me" in players and not {"wheel4life", "dsouza", "TallPines"} & set(players)
    assert players.count("Me") == 1
    table = run(db, "stats", "--player", "Me", "--by", "stakes")
    assert table.exit_code == 0 and "Me" in table.output, table.output


def test_graph_of_an_alias_is_one_line_of_every_names_hands(db: str, tmp_path: Path) -> None:
    assert run(db, "alias", "add", "Me", *NAMES).exit_code == 0
    [person] = stats_rows(db, "--player", "Me")
    out = tmp_path / "me.html"
    result = run(db, "graph", "--player", "Me", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert f"({person['hands']} hands of Me)" in result.output
    assert "Winnings of Me" in out.read_text(encoding="utf-8")


def test_violations_by_an_alias_are_those_of_every_name(db: str) -> None:
    with duckdb.connect(db) as con:  # a finding against one of the names (the samples have none)
        con.execute("""INSERT INTO keyed.violations SELECT h.hk, h.rules_profile, 'BET_SIZE', 4, 'dsouza',
                       '$4', '$5', 'bet too big', h.file, h.first_line FROM hands h JOIN seats s USING (site, hand_id)
                       WHERE h.site = 'fulltilt' AND s.player = 'dsouza' LIMIT 1""")
    before = run(db, "violations", "--player", "Me", "--by", "player", "--format", "csv")
    assert before.exit_code == 2 and "no player 'Me'" in before.output  # no alias yet
    assert run(db, "alias", "add", "Me", *NAMES).exit_code == 0
    result = run(db, "violations", "--player", "Me", "--by", "player", "--format", "csv")
    assert result.exit_code == 0, result.output
    assert "dsouza,1" in result.output.replace(" ", "")


@pytest.mark.parametrize(("names", "said"), [
    (["pokerstar:wheel4life"], "no hands of site 'pokerstar' in the store; did you mean 'pokerstars'?"),
    (["ipoker:wheel4life"], "no hands of site 'ipoker' in the store (it has fulltilt, partypoker, pokerstars)"),
    (["pokerstars:Wheel4life"], "no player 'Wheel4life' on pokerstars in the store; did you mean 'wheel4life'?"),
    (["pokerstars:wheel4lif"], "did you mean 'wheel4life'?"),
    (["fulltilt:wheel4life"], "no player 'wheel4life' on fulltilt in the store"),
    (["wheel4life"], "'wheel4life' is not SITE:PLAYER (e.g. pokerstars:Hero)"),
    (["pokerstars:"], "is not SITE:PLAYER"),
])
def test_alias_add_refuses_an_unknown_site_or_player_with_close_matches(db: str, names: list[str], said: str) -> None:
    result = run(db, "alias", "add", "Me", *names)
    assert result.exit_code == 2, result.output
    assert said in result.output and "Traceback" not in result.output
    listed = run(db, "alias", "list", "--format", "csv")
    assert listed.output.strip() == "alias,site,player,hands"  # nothing written


def test_a_name_belongs_to_one_person_and_alias_names_differ_in_more_than_case(db: str) -> None:
    assert run(db, "alias", "add", "Me", *NAMES).exit_code == 0
    taken = run(db, "alias", "add", "Other", "fulltilt:dsouza")
    assert taken.exit_code == 2 and "fulltilt:dsouza is already an alias of 'Me'" in taken.output
    twin = run(db, "alias", "add", "me", "fulltilt:MontyZ")
    assert twin.exit_code == 2 and "there is an alias 'Me' already" in twin.output
    again = run(db, "alias", "add", "Me", "fulltilt:dsouza", "fulltilt:MontyZ")
    assert again.exit_code == 0 and "added fulltilt:MontyZ; already had fulltilt:dsouza" in again.output
    for bad in ("", " Me", "a:b"):
        refused = run(db, "alias", "add", bad, "fulltilt:MontyZ")
        assert refused.exit_code == 2 and "an alias is a name" in refused.output


def test_a_name_that_is_both_an_alias_and_a_player_means_the_alias(db: str) -> None:
    """Hero plays on all three sites; the alias Hero groups only the PokerStars one."""
    added = run(db, "alias", "add", "Hero", "pokerstars:Hero")
    assert added.exit_code == 0
    assert "warning: 'Hero' is also a player's name on fulltilt, partypoker, outside this alias" in added.output
    [hero] = stats_rows(db, "--player", "Hero")
    with duckdb.connect(db, read_only=True) as con:
        on_stars = con.execute("SELECT count(*) FROM seats WHERE site = 'pokerstars' AND player = 'Hero'").fetchone()
        everywhere = con.execute("SELECT count(*) FROM seats WHERE player = 'Hero'").fetchone()
    assert on_stars is not None and everywhere is not None and hero["hands"] == on_stars[0] < everywhere[0]
    rows = {str(row["player"]): row["hands"] for row in stats_rows(db)}
    assert rows["Hero"] == on_stars[0]
    assert rows["Hero (fulltilt)"] and rows["Hero (partypoker)"]  # the others keep rows of their own
    assert sum(int(rows[name]) for name in ("Hero", "Hero (fulltilt)", "Hero (partypoker)")) == everywhere[0]  # type: ignore[call-overload]


def test_alias_list_and_remove(db: str) -> None:
    empty = run(db, "alias", "list")
    assert empty.exit_code == 0 and "no aliases yet" in empty.output
    assert run(db, "alias", "add", "Me", *NAMES).exit_code == 0
    listed = run(db, "alias", "list")
    assert listed.exit_code == 0 and "TallPines" in listed.output and "3 rows" in listed.output, listed.output
    assert max(len(line) for line in listed.output.splitlines()) <= 80
    as_json = json.loads(run(db, "alias", "list", "--format", "json").output)
    assert {(row["site"], row["player"]) for row in as_json} == {tuple(name.split(":")) for name in NAMES}
    one = run(db, "alias", "remove", "Me", "partypoker:TallPines")
    assert one.exit_code == 0 and "alias Me: removed partypoker:TallPines" in one.output
    [person] = stats_rows(db, "--player", "Me")
    assert "TallPines" in [row["player"] for row in stats_rows(db)]
    not_in = run(db, "alias", "remove", "Me", "partypoker:TallPines")
    assert not_in.exit_code == 2 and "is not in alias 'Me' (it has fulltilt:dsouza, pokerstars:wheel4life)" in not_in.output
    typo = run(db, "alias", "remove", "Mee")
    assert typo.exit_code == 2 and "no alias 'Mee'; did you mean 'Me'?" in typo.output
    whole = run(db, "alias", "remove", "Me")
    assert whole.exit_code == 0 and "alias Me removed (it grouped fulltilt:dsouza, pokerstars:wheel4life)" in whole.output
    gone = run(db, "stats", "--player", "Me")
    assert gone.exit_code == 2 and "no player 'Me' in the store" in gone.output
    assert person["hands"] and run(db, "alias", "list", "--format", "csv").output.strip() == "alias,site,player,hands"


def test_alias_commands_on_a_missing_store_create_nothing(tmp_path: Path) -> None:
    missing = str(tmp_path / "none.duckdb")
    for args in (["alias", "add", "Me", "pokerstars:Hero"], ["alias", "list"], ["alias", "remove", "Me"]):
        result = run(missing, *args)
        assert result.exit_code == 3 and "no database at" in result.output, result.output
    assert not Path(missing).exists()


def test_a_hostile_player_name_in_an_alias_reaches_the_terminal_harmless(db: str) -> None:
    with duckdb.connect(db) as con:  # a name with an escape sequence, as a hostile history could carry
        con.execute("UPDATE keyed.seats SET player = 'evil\x1b[31m' "
                    "WHERE hk IN (SELECT hk FROM hands WHERE site = 'fulltilt') AND player = 'dsouza'")
    result = run(db, "alias", "add", "Me", "fulltilt:evil\x1b[31m")
    assert result.exit_code == 0 and "\x1b" not in result.output and "evil?[31m" in result.output, result.output
    listed = run(db, "alias", "list")
    assert "\x1b" not in listed.output


def test_an_alias_reads_the_same_from_the_facts_cache_and_from_facts_computed_on_the_fly(db: str) -> None:
    """A store whose facts are not stored (read-only, or written by another tool) computes them per
    report: the alias selects the same rows there (hhtool.store.player_facts.hands_facts_sql)."""
    from hhtool.reports.stats import player_stats
    from hhtool.store import Store
    from hhtool.store.filters import HandFilter
    from hhtool.store.player_facts_cache import CACHE_TABLES, VERSION_TABLE

    assert run(db, "alias", "add", "Me", *NAMES).exit_code == 0
    [cached] = stats_rows(db, "--player", "Me")
    with duckdb.connect(db) as con:
        for name in (*CACHE_TABLES, VERSION_TABLE):
            con.execute(f"DROP TABLE {name}")
    with Store(db, read_only=True) as store:
        computed = player_stats(store, HandFilter(players=("Me",)))
    assert computed.height == 1
    row = computed.row(0, named=True)
    assert {key: row[key] for key in ("player", "hands", "net_won", "vpip_count")} == \
        {key: cached[key] for key in ("player", "hands", "net_won", "vpip_count")}
