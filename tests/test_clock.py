"""One clock for every site (#35 item 1): each history's wall time and zone label read as one UTC
instant (``hhtool.clock``), stored in ``hands.started_utc`` by the import and by the migration of an
older store alike."""

from __future__ import annotations

import shutil
from datetime import datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import duckdb
import pytest

from hhtool.clock import UnknownZone, instant_of, reading_of, shown, user_zone, utc_instant
from hhtool.store import Store, schema


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
    assert bovada.assumed is not None and "names no zone" in bovada.assumed and "America/New_York" in bovada.assumed
    odd = reading_of("pokerstars", "XYZT")
    assert odd.assumed is not None and "'XYZT' is not known" in odd.assumed
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
