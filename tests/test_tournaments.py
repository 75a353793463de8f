"""`hhtool tournaments` (#25): a row per tournament and player, chips won in chips; run as a command."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from hhtool.cli import app

runner = CliRunner()
SHOOTOUT = ("PokerStars", "8-Game-2max-STT-play-100-201306.homeGame.shootout.txt")
SCHEDULED = ("PokerStars", "7-StudHL-USD-10-1-200906.PT2.export.txt")


def test_tournaments_lists_date_hands_and_chips_won(tmp_path: Path, corpus: Path) -> None:
    db = str(tmp_path / "t.duckdb")
    for parts in (SHOOTOUT, SCHEDULED):
        assert runner.invoke(app, ["import", str(corpus.joinpath(*parts)), "--db", db, "-q"]).exit_code == 0
    result = runner.invoke(app, ["tournaments", "--db", db], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["tournament", "site", "date", "hands", "chips", "won"]
    assert lines[2].split() == ["743144019", "pokerstars", "2013-06-06", "00:20", "18", "416"]  # newest first
    assert lines[3].split()[:3] == ["169962475", "pokerstars", "2009-06-14"] and lines[-1] == "2 rows"
    rows = json.loads(runner.invoke(app, ["tournaments", "--db", db, "--player", "Hero", "--player", "Player0",
                                          "--format", "json"]).stdout)
    won = {(row["tournament_id"], row["player"]): row["chips_won"] for row in rows}
    assert won[("743144019", "Hero")] == 416 and won[("743144019", "Player0")] == -416  # chips change hands
    assert {row["currency"] for row in rows} == {"CHIPS"}


def test_no_tournament_is_said_not_an_error(tmp_path: Path, corpus: Path) -> None:
    db = str(tmp_path / "c.duckdb")
    cash = corpus / "PokerStars" / "7-StudHL-USD-0.04-0.08-200911.Cardtest.txt"
    assert runner.invoke(app, ["import", str(cash), "--db", db, "-q"]).exit_code == 0
    result = runner.invoke(app, ["tournaments", "--db", db])
    assert result.exit_code == 0 and "no tournament hands match" in result.stderr and not result.stdout
