"""Issue #28, item 5, for every site but PokerStars (tests/test_edge_text.py has its own): a date the
history states that is no date (day 30 of February) or not in the site's form (a five-digit year) is
never read another way. The hand is stored without a date, and `hhtool problems` lists a ``bad_date``
defect with the file and the date's line. Each case edits the first hand's date of a sample history."""

from __future__ import annotations

import json
from pathlib import Path
from typing import NamedTuple

import duckdb
import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.ingest.reader import read_file
from tests.inputs import SAMPLES, edited

runner = CliRunner()


class DateCase(NamedTuple):
    sample: str  # under sample_histories/
    old: str  # the first hand's date as the sample states it (each time on its line)
    no_such_day: str  # day 30 of February, or a day the month has not ("": a PHH case of one kind)
    five_digit_year: str
    anchor: str = ""  # what else the date's line holds, where the date is stated on more lines than one


CASES = {
    "fulltilt": DateCase("fulltilt/FT-Bramble-2-4-Stud-HiLo-201105.txt", "2011/05/14", "2011/02/30", "12011/05/14"),
    "bovada": DateCase("bovada/BOV-8120331-USD-2-4-Stud-HiLo-201405.txt", "2014-05-02 20:11:09",
                       "2014-02-30 20:11:09", "12014-05-02 20:11:09"),
    "absolute": DateCase("absolute/7-StudHL-USD-0.50-1-written.txt", "2009-04-02 21:15:08",
                         "2009-02-30 21:15:08", "12009-04-02 21:15:08"),
    "kingsclub": DateCase("kingsclub/7-StudHL-USD-40-80-202203.txt", "2022-03-06 20:41:12",
                          "2022-02-30 20:41:12", "12022-03-06 20:41:12"),
    "winning": DateCase("winning/7-Stud-HL-8max-USD-1.00-2.00-201609.HH20160921 G731204518.txt", "2016/9/21 20:4:7",
                        "2016/2/30 20:4:7", "12016/9/21 20:4:7"),
    "winning-acr": DateCase("winning/7Stud-HL-8max-USD-0.50-1.00-202402.CASHID-TN-Tarrow GAMETYPE.txt",
                            "2024/02/11 19:22:05", "2024/02/30 19:22:05", "12024/02/11 19:22:05"),
    "ongame": DateCase("ongame/7-StudHL-USD-0.25-0.50-written.txt", "Sep 07 21:12:05 GMT+0200 2010",
                       "Feb 30 21:12:05 GMT+0200 2010", "Sep 07 21:12:05 GMT+0200 12010"),
    "partypoker": DateCase("partypoker/PP-184220-USD-2-4-Stud-HiLo-201203.txt", "March 13, 21:14:05 EDT 2012",
                           "February 30, 21:14:05 EDT 2012", "March 13, 21:14:05 EDT 12012"),
    "winamax": DateCase("winamax/7-StudHL-6max-EUR-0.20-1-2-written.txt", "2016/11/13 01:40:00",
                        "2016/02/30 01:40:00", "12016/11/13 01:40:00"),
    "ipoker": DateCase("ipoker/7-StudHL-EUR-0.05-0.10-sample-session.xml", "2024-03-02 20:15:04",
                       "2024-02-30 20:15:04", "12024-03-02 20:15:04", anchor="  <startdate>"),
    "merge": DateCase("merge/7-StudHL-USD-0.25-0.50-sample.xml", 'starttime="20240302201504"',
                      'starttime="20240230201504"', 'starttime="120240302201504"'),
    "phh-no-such-day": DateCase("phh/stud8-examples.phhs", "day = 26", "day = 31", ""),  # of November
    "phh-five-digit-year": DateCase("phh/stud8-examples.phhs", "year = 2009", "", "year = 12009"),
}


def _stored(db: Path) -> dict[str, object]:
    with duckdb.connect(str(db), read_only=True) as connection:
        return dict(connection.execute("SELECT hand_id, started_at FROM hands").fetchall())


def _imported(path: Path, db: Path) -> dict[str, object]:
    result = runner.invoke(app, ["import", str(path), "--db", str(db)])
    assert result.exit_code == 0, result.output  # a history defect is no failure (README, Conventions)
    return _stored(db)


@pytest.mark.slow
@pytest.mark.parametrize(("site", "kind"), [
    pytest.param(site, kind, id=f"{site}-{kind}")
    for site, case in CASES.items() for kind in ("no_such_day", "five_digit_year") if getattr(case, kind)])
def test_an_impossible_date_keeps_the_hand_without_one_and_is_listed_with_its_line(
        tmp_path: Path, site: str, kind: str) -> None:
    case = CASES[site]
    sample = SAMPLES / case.sample
    lines = list(read_file(sample).lines)
    number = next(index for index, line in enumerate(lines) if case.old in line and case.anchor in line)
    original = tmp_path / "original" / sample.name
    original.parent.mkdir()
    original.write_text("\n".join(lines) + "\n", encoding="utf-8")
    lines[number] = edited(lines[number], case.old, getattr(case, kind))
    history = tmp_path / "edited" / sample.name
    history.parent.mkdir()
    history.write_text("\n".join(lines) + "\n", encoding="utf-8")

    before = _imported(original, tmp_path / "original.duckdb")
    after = _imported(history, tmp_path / "edited.duckdb")
    assert None not in before.values()
    # every hand stored; the edited one without a date (never moved to another one), the others as before
    assert after.keys() == before.keys()
    [undated] = [hand_id for hand_id, started_at in after.items() if started_at is None]
    assert {hand_id: when for hand_id, when in after.items() if hand_id != undated} == {
        hand_id: when for hand_id, when in before.items() if hand_id != undated}

    result = runner.invoke(app, ["problems", "--db", str(tmp_path / "edited.duckdb"), "--code", "bad_date",
                                 "--format", "json"])
    assert result.exit_code == 0, result.output
    defects = json.loads(result.stdout)
    assert defects, "no bad_date defect listed"
    for defect in defects:
        assert (defect["problem"], defect["code"], defect["hand_id"], defect["line"]) == (
            "defect", "bad_date", undated, number + 1)
        assert str(defect["file"]).endswith(sample.name) and "edited" in str(defect["file"])
        assert "not a date: " in str(defect["reason"])
