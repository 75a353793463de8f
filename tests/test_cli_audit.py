"""`hhtool audit`: import-then-report, filters, formats, exit codes, re-replay and the dispute view."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.service.verdicts import VIOLATION_KEYS
from tests.inputs import SAMPLES
from tests.test_site_pokerstars import ALLIN_SIDE_POT, SPLIT_HAND

runner = CliRunner()
# The scoop hand with its low half paid to the player who had no low: a wrong award.
MISPAID = SPLIT_HAND.replace("35874576282", "4242").replace(
    "gashpor collected $0.18 from pot", "u.pressure collected $0.18 from pot")


def write(tmp_path: Path, text: str, name: str = "h.txt") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_clean_hands_exit_0(tmp_path: Path) -> None:
    result = runner.invoke(app, ["audit", write(tmp_path, SPLIT_HAND + "\n\n" + ALLIN_SIDE_POT), "--db", ":memory:"])
    assert result.exit_code == 0, result.output
    # each hand is alone at its table and PokerStars does not state the ante or the bring-in: the
    # $0.04/$0.08 hand is judged by the site's structures table; nothing knows the $10/$20 level, whose
    # hand's own agreeing posts are assumed (issue #33) (tests/test_table_context.py and
    # tests/test_structure_tiers.py have the tiers)
    assert "2 hands audited: 2 ok; 0 violations reported" in result.output


def test_violation_exit_1_and_jsonl_has_the_stable_keys(tmp_path: Path) -> None:
    path = write(tmp_path, SPLIT_HAND + "\n\n" + MISPAID)
    result = runner.invoke(app, ["audit", path, "--db", ":memory:", "--format", "jsonl"])
    assert result.exit_code == 1
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert rows and all(tuple(row) == VIOLATION_KEYS for row in rows)
    award = next(row for row in rows if row["code"] == "POT_AWARD" and row["player"] == "u.pressure")
    assert award["hand_id"] == "4242" and award["site"] == "pokerstars" and award["file"] == path
    assert award["actual"] == "$0.18" and award["expected"] == "$0.00"
    assert {row["hand_id"] for row in rows} == {"4242"}


@pytest.mark.slow
def test_filters_and_csv(tmp_path: Path) -> None:
    db = str(tmp_path / "a.duckdb")
    assert runner.invoke(app, ["import", write(tmp_path, SPLIT_HAND + "\n\n" + MISPAID), "--db", db]).exit_code == 0
    everything = runner.invoke(app, ["audit", "--db", db, "--format", "csv"])
    rows = list(csv.DictReader(io.StringIO(everything.output)))
    assert everything.exit_code == 1 and tuple(rows[0]) == VIOLATION_KEYS
    codes = {row["code"] for row in rows}
    only = runner.invoke(app, ["audit", "--db", db, "--format", "csv", "--code", "pot_award"])
    assert only.exit_code == 1, only.output
    assert {row["code"] for row in csv.DictReader(io.StringIO(only.output))} == {"POT_AWARD"} <= codes
    by_player = runner.invoke(app, ["audit", "--db", db, "--format", "jsonl", "--player", "gashpor"])
    players = [json.loads(line)["player"] for line in by_player.output.splitlines()]
    assert by_player.exit_code == 1 and players, by_player.output  # gashpor was wrongly paid nothing: findings
    assert set(players) == {"gashpor"} and {row["player"] for row in rows} - {"gashpor"}  # others filtered out
    clean_hand = runner.invoke(app, ["audit", "--db", db, "--hand", "35874576282"])
    assert clean_hand.exit_code == 0 and "1 hands audited: 1 ok" in clean_hand.output
    other_site = runner.invoke(app, ["audit", "--db", db, "--site", "fulltilt"])  # matches nothing: says so (#14)
    assert other_site.exit_code == 2 and "no site 'fulltilt' in the store" in other_site.output, other_site.output


def test_rules_profile_replays_stored_hands_again(tmp_path: Path) -> None:
    db = str(tmp_path / "r.duckdb")
    assert runner.invoke(app, ["import", write(tmp_path, SPLIT_HAND), "--db", db]).exit_code == 0
    result = runner.invoke(app, ["audit", "--db", db, "--rules", "robert"])
    assert result.exit_code == 0, result.output
    from hhtool.store import Store

    with Store(db) as store:
        assert store.run("SELECT DISTINCT profile FROM rule_awards ORDER BY 1") == [("pokerstars",), ("robert",)]
    assert runner.invoke(app, ["audit", "--db", db, "--rules", "no-such-profile"]).exit_code == 2


@pytest.mark.slow
def test_rules_from_a_toml_file_change_the_verdict(tmp_path: Path) -> None:
    # $0.01 rake from the main pot leaves $17.99 (as the summary states): the site gives the odd cent to
    # the high half (Big)
    hand = ALLIN_SIDE_POT.replace("Rake $0", "Rake $0.01").replace("Main pot $18.", "Main pot $17.99.").replace(
        "Bigger collected $9 from main pot", "Bigger collected $8.99 from main pot").replace(
        "won ($24) with HI: a pair", "won ($23.99) with HI: a pair")
    path = write(tmp_path, hand)
    for odd_unit, expected_exit in (("high", 0), ("low", 1)):
        toml = tmp_path / f"odd-{odd_unit}.toml"
        toml.write_text(f'base = "pokerstars"\nrake_allocation = "main_pot"\nodd_unit_hi_lo = "{odd_unit}"\n')
        result = runner.invoke(app, ["audit", path, "--db", ":memory:", "--rules", str(toml), "--format", "jsonl"])
        assert result.exit_code == expected_exit, result.output
        rows = [json.loads(line) for line in result.output.splitlines() if line.startswith("{")]
        if expected_exit:
            awards = {(row["player"], row["expected"], row["actual"]) for row in rows if row["code"] == "POT_AWARD"}
            assert awards == {("Big", "$23.99", "$24.00"), ("Bigger", "$24.00", "$23.99")}


@pytest.mark.slow
def test_explain_of_a_hand_not_stored_is_a_usage_error(tmp_path: Path) -> None:
    db = str(tmp_path / "e.duckdb")
    assert runner.invoke(app, ["import", str(SAMPLES / "pokerstars"), "--db", db]).exit_code == 0
    missing = runner.invoke(app, ["audit", "--db", db, "--explain", "999"])
    assert missing.exit_code == 2 and "999" in missing.output, missing.output


def test_a_bad_profile_is_a_usage_error_before_any_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('base = "pokerstars"\ncap_applies_when = "multiway"\n')  # needs a heads-up rule too
    path = write(tmp_path, SPLIT_HAND)
    for rules in ("no-such-profile", str(bad)):
        for command in (["import", path], ["audit", path]):
            result = runner.invoke(app, [*command, "--db", ":memory:", "--rules", rules])
            assert result.exit_code == 2 and "rule profile" in result.output, result.output
