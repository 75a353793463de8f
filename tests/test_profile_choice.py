"""One rule chooses the profile that judges a hand (hhtool.replay.profiles.profile_for): import,
`show` and `audit --explain` agree, also for a history re-imported from a PHH export that carries
the site which dealt it."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.replay import PROFILES, profile_for
from hhtool.reports.phh_writer import hand_to_phh
from tests.replay_helpers import CLEAN, build_hand, edit

runner = CliRunner()

# CLEAN with the odd cent of the split given to the low half, as Winning does (R14): ok under the
# winning profile, a POT_AWARD violation under the rulebook defaults the PHH site would get.
LOW_ODD_CENT = edit(edit(CLEAN, "collect C 45", "collect C 44"), "collect B 44", "collect B 45")


def exported(tmp_path: Path, script: str, site: str) -> str:
    """A PHH export of the hand (carrying ``_hhtool_site``), imported into a fresh store; the store path."""
    hand = build_hand(script, site=site, hand_id="77")
    path = tmp_path / "export.phhs"
    path.write_text(hand_to_phh(hand, key="77"), encoding="utf-8")
    db = str(tmp_path / "s.duckdb")
    result = runner.invoke(app, ["import", str(path), "--db", db])
    assert result.exit_code == 0, result.output
    return db


def stored_verdict(db: str) -> tuple[str, str, str | None]:
    with duckdb.connect(db, read_only=True) as con:
        row = con.execute("SELECT site, rules_profile, verdict FROM hands").fetchone()
    assert row is not None
    return row[0], row[1], row[2]


def show(db: str, *args: str) -> dict:  # type: ignore[type-arg]
    result = runner.invoke(app, ["show", "winning:77", "--db", db, "--format", "json", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)  # type: ignore[no-any-return]


def explain(db: str, *args: str) -> str:
    result = runner.invoke(app, ["audit", "--db", db, "--explain", "winning:77", *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_phh_export_is_judged_by_its_origin_site_everywhere(tmp_path: Path) -> None:
    db = exported(tmp_path, LOW_ODD_CENT, "winning")
    assert stored_verdict(db) == ("phh", "winning", "ok")
    shown = show(db)
    assert shown["verdict"] == "ok" and not shown["other_violations"]
    assert shown["awards"] and all(a["site"] == a["rules"] for a in shown["awards"]), shown["awards"]
    text = explain(db)
    assert "Rules profile: winning. Verdict: ok." in text
    audit = runner.invoke(app, ["audit", "--db", db])
    assert audit.exit_code == 0 and "0 violations reported" in audit.output


def test_an_explicit_profile_judges_the_export_the_same_way_everywhere(tmp_path: Path) -> None:
    db = exported(tmp_path, LOW_ODD_CENT, "winning")
    shown = show(db, "--rules", "default")
    assert shown["verdict"] == "violation"
    assert {v["code"] for v in shown["other_violations"]} == {"POT_AWARD"}
    assert "Rules profile: default. Verdict: violation." in explain(db, "--rules", "default")
    audit = runner.invoke(app, ["audit", "--db", db, "--rules", "default"])
    assert audit.exit_code == 1 and "POT_AWARD" in audit.output


def test_the_legal_counterpart_stays_clean_under_both(tmp_path: Path) -> None:
    db = exported(tmp_path, CLEAN, "pokerstars")  # odd cent to high: every profile's reading
    assert stored_verdict(db) == ("phh", "pokerstars", "ok")
    result = runner.invoke(app, ["show", "pokerstars:77", "--db", db, "--format", "json", "--rules", "default"])
    assert result.exit_code == 0 and json.loads(result.output)["verdict"] == "ok", result.output


def test_profile_for_names_who_chose() -> None:
    hand = build_hand(CLEAN, site="phh")
    site_choice = profile_for(hand)
    assert (site_choice.name, site_choice.explicit) == ("phh", False)  # no recorded practice: rulebook defaults
    assert profile_for(hand, "robert").explicit and profile_for(hand, PROFILES["wsop"]).name == "wsop"


def test_an_unknown_profile_is_a_usage_error_in_show_and_audit(tmp_path: Path) -> None:
    db = exported(tmp_path, CLEAN, "winning")
    for args in (["show", "winning:77", "--db", db, "--rules", "nosuch"],
                 ["audit", "--db", db, "--explain", "winning:77", "--rules", "nosuch"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert "no profile named 'nosuch'" in result.output and "Traceback" not in result.output
