"""`hhtool show`: the replayer's data and text."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from hhtool.cli import app
from tests.test_site_pokerstars import ALLIN_SIDE_POT, SPLIT_HAND

runner = CliRunner()
# Hero folds on 4th; gashpor bets $0.08 on 4th street (a small-bet street): a BET_SIZE violation there.
OVERBET = SPLIT_HAND.replace("35874576282", "77").replace("gashpor: bets $0.04\nHero: folds\nu.pressure: calls $0.04",
                                                           "gashpor: bets $0.08\nHero: folds\nu.pressure: calls $0.08")


def stored(tmp_path: Path, text: str) -> str:
    (tmp_path / "h.txt").write_text(text)
    db = str(tmp_path / "s.duckdb")
    imported = runner.invoke(app, ["import", str(tmp_path / "h.txt"), "--db", db])
    assert imported.exit_code == 0, imported.output
    return db


def show_json(db: str, *args: str) -> dict:  # type: ignore[type-arg]
    result = runner.invoke(app, ["show", *args, "--db", db, "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_streets_pot_after_each_action_and_awards(tmp_path: Path) -> None:
    shown = show_json(stored(tmp_path, ALLIN_SIDE_POT), "200")
    third = shown["streets"][0]
    assert [row["pot"] for row in third["actions"]] == [600, 1600, 2600, 2800]  # antes 300 first
    assert shown["streets"][-1]["actions"][-1]["pot"] == 4800
    assert {a["player"]: (a["site"], a["rules"]) for a in shown["awards"]} == {"Big": (2400, 2400), "Bigger": (2400, 2400)}
    bigger = next(s for s in shown["showdown"] if s["player"] == "Bigger")
    assert bigger["low"] == "6,5,4,3,A" and bigger["high"] == "a pair of Aces"
    # alone at its table, the hand's own posts are all there is to its ante and bring-in
    assert shown["verdict"] == "unverifiable"
    assert {u["check"] for u in shown["unverifiable"]} == {"ANTE", "BRING_IN_AMOUNT"}


def test_hide_hole_hides_only_opponents_down_cards(tmp_path: Path) -> None:
    db = stored(tmp_path, SPLIT_HAND)
    open_view = show_json(db, "35874576282")
    hidden = show_json(db, "35874576282", "--hide-hole")
    hero_open = next(d for d in open_view["streets"][0]["deals"] if d["player"] == "Hero")
    hero_hidden = next(d for d in hidden["streets"][0]["deals"] if d["player"] == "Hero")
    assert hero_open["down"] == hero_hidden["down"] == ["7c", "3s"]
    opponents = [d["down"] for d in hidden["streets"][0]["deals"] if d["player"] != "Hero"]
    assert opponents == [["??", "??"], ["??", "??"]], opponents  # u.pressure's and gashpor's, hidden
    assert hidden["showdown"] == open_view["showdown"]  # the showdown still shows what was shown


def test_violation_is_shown_beside_its_action(tmp_path: Path) -> None:
    db = stored(tmp_path, OVERBET)
    shown = show_json(db, "77")
    bet = next(row for row in shown["streets"][1]["actions"] if row["kind"] == "bet")
    assert [v["code"] for v in bet["violations"]] == ["BET_SIZE"]
    text = runner.invoke(app, ["show", "77", "--db", db]).output
    assert "gashpor bets $0.08" in text and "BET_SIZE" in text.split("gashpor bets $0.08")[1].split("\n")[1]


def test_unknown_hand_is_an_error(tmp_path: Path) -> None:
    assert runner.invoke(app, ["show", "nope", "--db", stored(tmp_path, SPLIT_HAND)]).exit_code == 2
