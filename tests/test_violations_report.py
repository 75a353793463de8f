"""`hhtool violations`: breakdowns and the worst hands first."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from tests.test_cli_audit import MISPAID
from tests.test_show import OVERBET
from tests.test_site_pokerstars import ALLIN_SIDE_POT, SPLIT_HAND

runner = CliRunner()


def store_with_faults(tmp_path: Path) -> str:
    (tmp_path / "h.txt").write_text("\n\n\n".join([SPLIT_HAND, ALLIN_SIDE_POT, MISPAID, OVERBET]))
    db = str(tmp_path / "v.duckdb")
    assert runner.invoke(app, ["import", str(tmp_path / "h.txt"), "--db", db]).exit_code == 0
    return db


def as_json(db: str, *args: str) -> list[dict]:  # type: ignore[type-arg]
    result = runner.invoke(app, ["violations", "--db", db, "--format", "json", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


@pytest.mark.slow
def test_breakdowns_count_what_the_audit_found(tmp_path: Path) -> None:
    db = store_with_faults(tmp_path)
    audit = [json.loads(line) for line in
             runner.invoke(app, ["audit", "--db", db, "--format", "jsonl"]).output.splitlines()]
    by_code = {row["code"]: row["violations"] for row in as_json(db, "--by", "code")}
    expected: dict[str, int] = {}
    for row in audit:
        expected[row["code"]] = expected.get(row["code"], 0) + 1
    assert by_code == expected and "BET_SIZE" in by_code and "POT_AWARD" in by_code
    assert {row["site"]: row["hands"] for row in as_json(db, "--by", "site")} == {"pokerstars": 2}
    assert sum(row["violations"] for row in as_json(db, "--by", "date")) == len(audit)


def test_worst_hands_first_and_drill_down(tmp_path: Path) -> None:
    db = store_with_faults(tmp_path)
    worst = as_json(db, "--by", "hand")
    assert [row["hand_id"] for row in worst] == sorted((r["hand_id"] for r in worst),
                                                      key=lambda h: -next(r["violations"] for r in worst if r["hand_id"] == h))
    assert {row["hand_id"] for row in worst} == {"4242", "77"}
    mispaid = next(row for row in worst if row["hand_id"] == "4242")
    assert mispaid["misawarded"] == 18  # $0.18 paid to the wrong player: counted once, not on both sides
    detail = as_json(db, "--hand", "77")
    assert detail and all(row["hand_id"] == "77" for row in detail) and "BET_SIZE" in {r["code"] for r in detail}
    only = as_json(db, "--by", "player", "--code", "POT_AWARD")
    assert {row["player"] for row in only} <= {"gashpor", "u.pressure"}


def test_terminal_view_shows_every_breakdown(tmp_path: Path) -> None:
    output = runner.invoke(app, ["violations", "--db", store_with_faults(tmp_path)]).output
    for breakdown in ("by code", "by site", "by player", "by date", "by hand (worst first)"):
        assert breakdown in output


def test_misawarded_money_is_counted_once_and_shown_in_the_currency(tmp_path: Path) -> None:
    db = store_with_faults(tmp_path)
    worst = {row["hand_id"]: row for row in as_json(db, "--by", "hand")}
    # 4242: $0.18 of gashpor's pot paid to u.pressure; 77: gashpor paid $0.08 short, to nobody (no money
    # moved to another player, as the dispute report counts it; POT_TOTAL reports the short pot)
    assert [(worst[h]["misawarded"], worst[h]["currency"], worst[h]["unit"]) for h in ("4242", "77")] == [
        (18, "USD", 100), (0, "USD", 100)]
    assert "POT_TOTAL" in worst["77"]["codes"]
    csv_lines = runner.invoke(app, ["violations", "--db", db, "--by", "hand", "--format", "csv"]).output.splitlines()
    assert csv_lines[0].endswith(",misawarded,currency,unit") and csv_lines[1].endswith(",18,USD,100")
    for args in (["--by", "hand"], []):  # one breakdown, and the terminal's every breakdown
        table = runner.invoke(app, ["violations", "--db", db, *args], terminal_width=80).output
        assert "$0.18" in table and "$0.00" in table
        assert " 36 " not in table and " 18 " not in table and "unit" not in table


def test_violations_out_writes_the_format_its_suffix_names(tmp_path: Path) -> None:
    """`--out` without `--by` writes the code breakdown into the file (it used to print every
    breakdown to the terminal and write nothing)."""
    db = store_with_faults(tmp_path)
    out = tmp_path / "new" / "by-code.csv"
    result = runner.invoke(app, ["violations", "--db", db, "--out", str(out)])
    assert result.exit_code == 0, result.output
    lines = out.read_text().splitlines()
    assert lines[0].startswith("code,") and len(lines) > 1 and "─" not in out.read_text()


def test_a_hands_day_and_start_are_the_users(tmp_path: Path) -> None:
    """Hand 77 at 19:30 ET on 26 November 2009 is 00:30 UTC and 01:30 in Paris on the 27th: `--by date` counts it
    on the user's day and `--by hand` shows its start in the user's zone (it was the history's own wall time)."""
    (tmp_path / "h.txt").write_text(OVERBET.replace("2009/11/26 10:25:13 ET", "2009/11/26 19:30:00 ET"))
    db = str(tmp_path / "v.duckdb")
    assert runner.invoke(app, ["import", str(tmp_path / "h.txt"), "--db", db]).exit_code == 0
    for zone, day, start in (("Europe/Paris", "2009-11-27", "2009-11-27T01:30:00"),
                             ("America/New_York", "2009-11-26", "2009-11-26T19:30:00")):
        config = tmp_path / "config.toml"
        config.write_text(f'timezone = "{zone}"\n', encoding="utf-8")
        env = {"HHTOOL_CONFIG": str(config), "COLUMNS": "80"}
        days = runner.invoke(app, ["violations", "--db", db, "--format", "json", "--by", "date"], env=env)
        assert days.exit_code == 0 and {row["day"] for row in json.loads(days.output)} == {day}, (zone, days.output)
        hands = runner.invoke(app, ["violations", "--db", db, "--format", "json", "--by", "hand"], env=env)
        assert [row["started_at"][:19] for row in json.loads(hands.output)] == [start.replace("T", " ")], (zone, hands.output)
        shown = runner.invoke(app, ["violations", "--db", db, "--by", "hand"], env=env)
        assert shown.exit_code == 0 and start.replace("T", " ")[:16] in shown.output, (zone, shown.output)
