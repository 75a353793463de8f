"""`hhtool export --format phh` as a user runs it: --plain writes only PokerKit's own fields, and
every hand written that PokerKit cannot replay is named with its reason (judged by PokerKit where
it is installed, by the rules hhtool knows it refuses where it is not)."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from tests.inputs import SAMPLES

pokerkit = pytest.importorskip("pokerkit")

runner = CliRunner()
POKERSTARS = SAMPLES / "pokerstars" / "handwritten-scoop-and-side-pot.txt"  # clean hands, times in ET
PARTYPOKER = SAMPLES / "partypoker" / "PP-184220-USD-2-4-Stud-HiLo-201203.txt"  # opponents' up cards hidden
#: the PartyPoker sample's hands whose history hides an up card PokerKit needs to choose who acts
HIDDEN_UP_CARDS = {"11612328841", "11612330015", "11612331907", "11612333350"}


def store_of(tmp_path: Path, *files: Path) -> str:
    db = str(tmp_path / "e.duckdb")
    result = runner.invoke(app, ["import", *map(str, files), "--db", db])
    assert result.exit_code == 0, result.output
    return db


def test_plain_phh_holds_only_pokerkit_fields_and_loads_without_a_warning(tmp_path: Path) -> None:
    db = store_of(tmp_path, POKERSTARS)
    out = tmp_path / "plain.phhs"
    result = runner.invoke(app, ["export", "--format", "phh", "--plain", "--out", str(out), "--db", db])
    assert result.exit_code == 0, result.output
    text = out.read_text()
    assert "time_zone_abbreviation" not in text and "_hhtool_" not in text
    assert "# times in ET" in text  # the abbreviation kept for a reader, as a comment
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # PokerKit warns of every field it does not know
        histories = list(pokerkit.HandHistory.loads_all(text))
    assert histories and all(history.venue == "pokerstars" for history in histories)
    full = tmp_path / "full.phhs"  # the legal counterpart: without --plain, hhtool's fields stay
    assert runner.invoke(app, ["export", "--format", "phh", "--out", str(full), "--db", db]).exit_code == 0
    assert "time_zone_abbreviation" in full.read_text() and "_hhtool_site" in full.read_text()


def _listed(output: str) -> set[str]:
    return {line.split(": ", 2)[1].split()[1] for line in output.splitlines()
            if line.startswith("exported, not replayable in PokerKit: ")}


@pytest.mark.slow
@pytest.mark.parametrize("pokerkit_installed", [True, False])
def test_hands_pokerkit_cannot_replay_are_named_with_their_reason(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                   pokerkit_installed: bool) -> None:
    if not pokerkit_installed:
        monkeypatch.setitem(sys.modules, "pokerkit", None)  # `import pokerkit` fails: hhtool's own rules judge
    db = store_of(tmp_path, PARTYPOKER, POKERSTARS)
    out = tmp_path / "hands"
    result = runner.invoke(app, ["export", "--format", "phh", "--plain", "--out", str(out), "--db", db],
                           terminal_width=80)
    assert result.exit_code == 0, result.output
    assert _listed(result.output) == HIDDEN_UP_CARDS  # the clean PokerStars hand is not among them
    assert "up card is hidden" in result.output or "PokerKit refuses" in result.output
    assert f"{len(HIDDEN_UP_CARDS)} written that PokerKit cannot replay" in result.output
    assert ("PokerKit is not installed" in result.output) is not pokerkit_installed
    assert all((out / f"partypoker-{hand_id}.phh").is_file() for hand_id in HIDDEN_UP_CARDS)  # written all the same
    assert len(list(out.glob("pokerstars-*.phh"))) >= 2  # the legal counterpart: written, and not listed
    clean = runner.invoke(app, ["export", "--format", "phh", "--out", str(tmp_path / "one.phhs"), "--db", db,
                                "--site", "pokerstars"])
    assert clean.exit_code == 0 and not _listed(clean.output) and "PokerKit can replay every one" in clean.output
