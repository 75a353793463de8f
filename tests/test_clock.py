"""One clock for every site (#35 item 1): each history's wall time and zone label read as one UTC
instant (``hhtool.clock``), stored in ``hands.started_utc`` by the import and by the migration of an
older store alike."""

from __future__ import annotations

import csv
import io
import re
import shutil
from datetime import datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import duckdb
import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.clock import UnknownZone, instant_of, reading_of, shown, user_zone, utc_instant
from hhtool.store import Store, schema
from tests.inputs import SAMPLES


@pytest.mark.parametrize(("site", "wall", "label", "utc"), [
    ("pokerstars", datetime(2020, 7, 1, 11, 25), "ET", datetime(2020, 7, 1, 15, 25)),  # EDT, UTC-4
    ("pokerstars", datetime(2020, 1, 15, 10, 25), "ET", datetime(2020, 1, 15, 15, 25)),  # EST, UTC-5
    ("partypoker", datetime(2012, 3, 13, 21, 14), "EDT", datetime(2012, 3, 14, 1, 14)),
    ("partypoker", datetime(2012, 7, 13, 21, 14), "EST", datetime(2012, 7, 14, 1, 14)),  # the label's place's rules
    ("ongame", datetime(2020, 7, 1, 18, 25), "GMT+0300", datetime(2020, 7, 1, 15, 25)),  # a fixed offset
    ("ongame", datetime(2010, 9, 7, 21, 12), "GMT-0530", datetime(2010, 9, 8, 2, 42)),
    ("fulltilt", datetime(2011, 4, 7, 20, 13), "CET", datetime(2011, 4, 7, 18, 13)),  # CEST that day
    ("fulltilt", datetime(2011, 1, 7, 20, 13), "CET", datetime(2011, 1, 7, 19, 13)),
    ("winamax", datetime(2016, 11, 12, 23, 4), "UTC", datetime(2016, 11, 12, 23, 4)),
    ("absolute", datetime(2009, 3, 18, 19, 10), "(ET)", datetime(2009, 3, 18, 23, 10)),
    ("phh", datetime(2020, 7, 1, 12, 0), "Asia/Tokyo", datetime(2020, 7, 1, 3, 0)),  # a PHH file's IANA name
    ("bovada", datetime(2014, 4, 6, 19, 50), None, datetime(2014, 4, 6, 23, 50)),  # the site's default: ET
    ("ipoker", datetime(2014, 5, 10, 18, 2), None, datetime(2014, 5, 10, 18, 2)),  # none documented: UTC
])
def test_each_sites_stated_time_is_one_utc_instant(site: str, wall: datetime, label: str | None,
                                                    utc: datetime) -> None:
    assert utc_instant(site, wall, label) == utc


def test_a_history_naming_no_zone_or_an_unknown_one_is_read_in_the_sites_default_as_an_assumption() -> None:
    assert reading_of("pokerstars", "ET").assumed is None
    assert reading_of("ongame", "GMT+0300").assumed is None
    bovada = reading_of("bovada", None)
    assert bovada.zone == ZoneInfo("America/New_York")
    assert bovada.assumed == "no zone stated; read as ET, its server time, as fpdb reads it"
    odd = reading_of("pokerstars", "XYZT")
    assert odd.assumed == "zone 'XYZT' unknown; read as ET, the zone its other headers name"
    assert reading_of("ipoker", None).assumed == "no zone stated; read as UTC, as no zone is documented"
    assert utc_instant("pokerstars", None, "ET") is None


def test_the_users_zone_is_validated_and_times_go_both_ways() -> None:
    paris = user_zone("Europe/Paris")
    assert shown(datetime(2020, 7, 1, 15, 25), paris) == datetime(2020, 7, 1, 17, 25)
    assert instant_of(datetime(2020, 7, 1, 17, 25), paris) == datetime(2020, 7, 1, 15, 25)
    assert instant_of(datetime(2020, 1, 1), paris) == datetime(2019, 12, 31, 23, 0)
    with pytest.raises(UnknownZone, match="'Mars/Olympus' is not a time zone"):
        user_zone("Mars/Olympus")
    assert user_zone(None).utcoffset(datetime(2020, 1, 1)) is not None  # the machine's
    assert shown(None, timezone(timedelta(hours=1))) is None


def test_the_import_stores_the_utc_instant_beside_the_historys_own_time(pokerstars_samples_store: Path) -> None:
    with Store(str(pokerstars_samples_store), read_only=True) as store:
        rows = store.run("SELECT site, started_at, timezone, started_utc FROM hands")
    assert rows and all(row[3] == utc_instant(row[0], row[1], row[2]) for row in rows)
    assert any(row[1] != row[3] for row in rows)  # ET is never UTC: the history's own text is kept apart


def test_an_older_store_is_upgraded_with_every_stored_hands_instant(pokerstars_samples_store: Path,
                                                                     tmp_path: Path) -> None:
    path = tmp_path / "older.duckdb"
    shutil.copy(pokerstars_samples_store, path)
    with duckdb.connect(str(path)) as con:
        fresh = con.execute("SELECT site, hand_id, started_utc FROM hands ORDER BY ALL").fetchall()
        before = schema.MIGRATIONS.index(schema.STARTED_UTC)  # the store as the version before wrote it
        con.execute("ALTER TABLE hands DROP COLUMN started_utc")
        con.execute("UPDATE schema_version SET version = ?", [before])
    with Store(str(path)) as store:
        assert store.run("SELECT max(version) FROM schema_version") == [(schema.CURRENT_VERSION,)]
        migrated = store.run("SELECT site, hand_id, started_utc FROM hands ORDER BY ALL")
    assert migrated == fresh
    assert sum(row[2] is not None for row in migrated) == len(migrated) > 100


# ------------------------------------------------------------------ two sites, one clock: the commands
runner = CliRunner()
POKERSTARS_HAND = "".join((SAMPLES / "pokerstars" / "handwritten-scoop-and-side-pot.txt").read_text().splitlines(True)[:52])
ONGAME_HAND = "".join((SAMPLES / "ongame" / "7-StudHL-USD-0.25-0.50-written.txt").read_text().splitlines(True)[:38])


def _two_sites(folder: Path) -> Path:
    """Two PokerStars hands at 11:25 and 11:27 ET and an OnGame hand at 18:26 GMT+0300 between them, on a
    summer day: 15:25, 15:26 and 15:27 UTC (as wall times OnGame's is seven hours later than both)."""
    folder.mkdir()
    stars = [POKERSTARS_HAND.replace("#900000000001", f"#90000000000{n}").replace("2009/11/26 10:25:13 ET", when)
             for n, when in ((1, "2020/07/01 11:25:13 ET"), (2, "2020/07/01 11:27:40 ET"))]
    assert all("2020/07/01" in hand for hand in stars)
    (folder / "stars.txt").write_text("\n\n\n".join(stars) + "\n", encoding="utf-8")
    ongame = ONGAME_HAND.replace("Tue Sep 07 21:12:05 GMT+0200 2010", "Wed Jul 01 18:26:05 GMT+0300 2020")
    assert "2020" in ongame
    (folder / "ongame.txt").write_text(ongame + "\n", encoding="utf-8")
    return folder


@pytest.fixture
def two_sites(tmp_path: Path) -> tuple[str, dict[str, str]]:
    config = tmp_path / "config.toml"
    config.write_text('timezone = "Europe/Paris"\n', encoding="utf-8")
    env = {"COLUMNS": "80", "HHTOOL_CONFIG": str(config)}
    db = str(tmp_path / "two.duckdb")
    imported = runner.invoke(app, ["import", str(_two_sites(tmp_path / "hh")), "--db", db, "--jobs", "1"], env=env)
    assert imported.exit_code == 0 and "3 stored" in imported.output, imported.output
    assert runner.invoke(app, ["alias", "add", "Me", "pokerstars:Hero", "ongame:Hero", "--db", db], env=env).exit_code == 0
    return db, env


def test_two_sites_hands_at_the_same_instant_are_one_session_in_the_right_order(
        two_sites: tuple[str, dict[str, str]]) -> None:
    db, env = two_sites
    sessions = runner.invoke(app, ["sessions", "--player", "Me", "--db", db], env=env)
    assert sessions.exit_code == 0, sessions.output
    rows = [line for line in sessions.output.splitlines() if "2020-07-01" in line]
    assert len(rows) == 1, sessions.output  # one sitting, not one per site seven hours apart
    assert "2020-07-01 17:25" in rows[0] and " 3 " in rows[0], rows  # from 15:25 UTC, in Paris (UTC+2)
    assert max(map(len, sessions.output.splitlines())) <= 80
    listed = runner.invoke(app, ["hands", "--player", "Me", "--db", db], env=env)
    assert listed.exit_code == 0, listed.output
    rows = [line.split()[:3] for line in listed.output.splitlines() if "2020-07-01" in line]
    assert rows == [  # newest first, on one clock, shown in the user's zone
        ["900000000002", "2020-07-01", "17:27"], ["R5-80412233-14", "2020-07-01", "17:26"],
        ["900000000001", "2020-07-01", "17:25"]], listed.output
    assert max(map(len, listed.output.splitlines())) <= 80
    table = runner.invoke(app, ["hands", "--player", "Me", "--db", db, "--format", "csv"], env=env)
    assert "2020-07-01T17:27:40.000000,Europe/Paris," in table.output  # the zone the time is shown in
    with Store(db, read_only=True) as store:  # the history's own time and label, as written, stay in the store
        assert store.run("SELECT started_at, timezone FROM hands WHERE hand_id = '900000000002'") == [
            (datetime(2020, 7, 1, 11, 27, 40), "ET")]


def test_from_and_to_are_days_of_the_users_zone(two_sites: tuple[str, dict[str, str]], tmp_path: Path) -> None:
    db, env = two_sites
    tokyo = tmp_path / "tokyo.toml"  # 15:25 UTC is 00:25 on 2 July in Tokyo
    tokyo.write_text('timezone = "Asia/Tokyo"\n', encoding="utf-8")
    for zone, day, found in ((env, "2020-07-01", 3), ({**env, "HHTOOL_CONFIG": str(tokyo)}, "2020-07-02", 3),
                             ({**env, "HHTOOL_CONFIG": str(tokyo)}, "2020-07-01", 0)):
        listed = runner.invoke(app, ["hands", "--db", db, "--from", day, "--to", day, "--format", "csv"], env=zone)
        assert sum(f"{day}T" in line for line in listed.output.splitlines()) == found, (zone, day, listed.output)
        stats = runner.invoke(app, ["stats", "--player", "Me", "--db", db, "--from", day, "--to", day,
                                    "--format", "csv"], env=zone)
        if found:
            assert f"Me,USD,100,{found}," in stats.output, (zone, day, stats.output)
        else:
            assert stats.exit_code == 2 and "no stored hand matches" in stats.output, (zone, day, stats.output)


def test_problems_says_each_sites_assumed_zone_once_with_its_count(tmp_path: Path) -> None:
    db = str(tmp_path / "zones.duckdb")
    env = {"COLUMNS": "80"}
    for site in ("bovada", "ipoker", "pokerstars"):
        assert runner.invoke(app, ["import", str(SAMPLES / site), "--db", db, "--jobs", "1"], env=env).exit_code == 0
    shown = runner.invoke(app, ["problems", "--db", db], env=env)
    assert shown.exit_code == 0, shown.output
    lines = shown.output.splitlines()
    start = lines.index("time zones assumed: 2")
    assert [line.split(None, 2) for line in lines[start + 3:]] == [
        ["bovada", "4", "no zone stated; read as ET, its server time, as fpdb reads it"],
        ["ipoker", "3", "no zone stated; read as UTC, as no zone is documented"]], shown.output  # not one per hand
    assert max(map(len, lines)) <= 80
    stars = runner.invoke(app, ["problems", "--db", db, "--site", "pokerstars"], env=env)
    assert stars.exit_code == 0 and "time zones assumed" not in stars.output  # its headers name ET
    rows = runner.invoke(app, ["problems", "--db", db, "--format", "csv", "--code", "time_zone"], env=env)
    assert rows.exit_code == 0, rows.output
    assert rows.output.splitlines()[1:] == [
        "assumption,,,,,bovada,,time_zone,\"no zone stated; read as ET, its server time, as fpdb reads it\",,4",
        "assumption,,,,,ipoker,,time_zone,\"no zone stated; read as UTC, as no zone is documented\",,3"]


def test_stats_by_month_is_the_month_of_the_users_zone(tmp_path: Path) -> None:
    """Hands at 18:30 ET on 30 November (23:30 UTC: 00:30 on 1 December in Paris) and at 10:25 ET the day
    before: `stats --by month` counts the first in December for a Paris user, in November for a New York one
    and for UTC (the stored sums' own month is the UTC one)."""
    folder = tmp_path / "hh"
    folder.mkdir()
    stars = [POKERSTARS_HAND.replace("#900000000001", f"#90000000000{n}").replace("2009/11/26 10:25:13 ET", when)
             for n, when in ((1, "2020/11/30 18:30:00 ET"), (2, "2020/11/29 10:25:13 ET"))]
    assert all("2020/11/" in hand for hand in stars)
    (folder / "stars.txt").write_text("\n\n\n".join(stars) + "\n", encoding="utf-8")
    db = str(tmp_path / "months.duckdb")
    assert runner.invoke(app, ["import", str(folder), "--db", db, "--jobs", "1"]).exit_code == 0
    for zone, months in (("Europe/Paris", {"2020-11": 1, "2020-12": 1}), ("America/New_York", {"2020-11": 2}),
                         ("UTC", {"2020-11": 2})):
        config = tmp_path / f"{zone.replace('/', '_')}.toml"
        config.write_text(f'timezone = "{zone}"\n', encoding="utf-8")
        env = {"COLUMNS": "80", "HHTOOL_CONFIG": str(config)}
        shown = runner.invoke(app, ["stats", "--player", "Hero", "--db", db, "--by", "month", "--format", "csv"],
                              env=env)
        assert shown.exit_code == 0, shown.output
        rows = list(csv.DictReader(io.StringIO(shown.output)))
        assert {row["month"]: int(row["hands"]) for row in rows} == months, (zone, shown.output)
        table = runner.invoke(app, ["stats", "--player", "Hero", "--db", db, "--by", "month"], env=env)
        assert table.exit_code == 0 and all(month in table.output for month in months), (zone, table.output)
        assert max(map(len, table.output.splitlines())) <= 80


def test_the_table_view_and_lists_of_hands_compare_instants_not_wall_times(
        two_sites: tuple[str, dict[str, str]], monkeypatch: pytest.MonkeyPatch) -> None:
    """The OnGame hand's wall time (18:26 GMT+0300) is seven hours after the PokerStars ones (11:25, 11:27 ET),
    yet it is between them (15:26 UTC): the table view counts its minutes from the newest instant and shows
    both tables, newest first, in the user's zone; `violations --by hand` and the hands two players shared
    show the user's zone too."""
    starlette_testclient = pytest.importorskip("starlette.testclient")
    from hhtool.service.opponents import against
    from hhtool.service.serving import HeldStore
    from hhtool.service.stores import Database
    from hhtool.store.filters import HandFilter
    from hhtool.web.app import create_app

    db, env = two_sites
    monkeypatch.setenv("HHTOOL_CONFIG", env["HHTOOL_CONFIG"])  # (Europe/Paris: UTC+2 that day)
    held = HeldStore(Database(db))
    try:
        with starlette_testclient.TestClient(create_app(held, {"testserver"}, token="t0ken")) as client:
            page = client.get("/tables").text
    finally:
        held.close()
    headings = re.findall(r"<h2>(.*?)</h2>", page, re.S)
    assert [heading.split(" <span")[0] for heading in headings] == ["Dawn II", "Lublin"], headings
    assert "· 17:27 Europe/Paris" in headings[0] and "· 17:26 Europe/Paris" in headings[1], headings
    assert "(2020-07-01 17:27 Europe/Paris)" in page
    shared = against(Database(db), HandFilter(), "Hero", "gashpor")  # (the two PokerStars hands, newest first)
    assert [hand.started_at for hand in shared.hands] == [datetime(2020, 7, 1, 17, 27, 40),
                                                          datetime(2020, 7, 1, 17, 25, 13)], shared.hands
