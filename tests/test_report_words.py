"""The dispute report and `hhtool show` write every action with the amounts the history wrote (issue
#33): each site's raise line as that site writes it, a winner who did not show as "doesn't show hand".
Each case runs the commands on a real history of the corpus (or a bundled sample) and finds the
history's own numbers in the output."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from tests.inputs import SAMPLES, require_corpus

runner = CliRunner()


def _store(tmp_path: Path, history: Path) -> str:
    db = str(tmp_path / "d.duckdb")
    result = runner.invoke(app, ["import", str(history), "--db", db, "-q"])
    assert result.exit_code in (0, 1), result.output
    return db


def _outputs(db: str, hand_id: str) -> dict[str, str]:
    """The desk's report, the player's copy and `show`, as text."""
    runs = {"desk": ["audit", "--db", db, "--explain", hand_id], "player": ["audit", "--db", db, "--explain", hand_id,
                                                                            "--for", "player"],
            "show": ["show", "--db", db, hand_id]}
    outputs = {}
    for name, arguments in runs.items():
        result = runner.invoke(app, arguments, env={"COLUMNS": "80"})
        assert result.exit_code == 0, result.output
        outputs[name] = result.output
    return outputs


#: (site folder, file, hand id, the history's raise line as the report must write it, a wrong reading)
CORPUS_RAISES = [
    ("PokerStars", "8-Game-2max-STT-play-100-201306.homeGame.shootout.txt", "99632561862", "Hero raises 80 chips to 160 chips",
     "raises 160 chips to 160 chips"),
    # the bet faced is the bring-in's raise: the chips put in ($680) are not the history's $400
    ("PokerStars", "7-StudHL-USD-400-800-201701.3bet.fix.txt", "164954571644", "Player0 raises $400.00 to $800.00",
     "raises $680.00"),
    ("Bovada", "7-StudHL-USD - RING - $5-$10, $1.25 Ante - 201404.txt", "2844383701",
     "Seat+5 raises $7.50 to $10.00", "raises $5.00 to $10.00"),
    ("PartyPoker", "7-StudHL-USD-10-20.201202.wins.lo.pot.txt", "11480841734", "Player0 raises $17.00 to $20.00",
     "raises $10.00 to $20.00"),
    ("FullTilt", "10Game-6max-USD-2.50-5.201104.Sample.txt", "29704938956", "grimyreaper1 raises to $7.50",
     "raises $5.00 to $7.50"),
    ("Merge", "7-StudHL-USD-0.25-0.50-201307.no.null.xml", "70969727-130", "Player5 raises to $0.50", "raises $0.50 to"),
    ("iPoker", "7-StudHL-EUR-0.05-0.10-201405.txt", "5710056302", "Hero raises to €0.30", "raises €0.20 to"),
]


@pytest.mark.parametrize(("folder", "name", "hand_id", "words", "wrong"), CORPUS_RAISES,
                         ids=[f"{row[0]}-{row[2]}" for row in CORPUS_RAISES])
def test_a_raise_is_written_with_the_histories_amounts(tmp_path: Path, folder: str, name: str, hand_id: str,
                                                       words: str, wrong: str) -> None:
    history = require_corpus(folder, name)
    for form, output in _outputs(_store(tmp_path, history), hand_id).items():
        assert words in output, (form, output)
        assert wrong not in output, (form, output)


def test_acr_raise_states_the_chips_put_in_and_the_total(tmp_path: Path) -> None:
    history = SAMPLES / "winning" / "7Stud-HL-8max-USD-0.50-1.00-202402.CASHID-TN-Tarrow GAMETYPE.txt"
    assert history.read_text().startswith("Hand #2011460051 ")
    for form, output in _outputs(_store(tmp_path, history), "2011460051").items():
        assert "Ivel raises $2.00 to $2.00" in output, (form, output)  # line 35: he faced a $1.00 bet


def test_a_winner_who_did_not_show_is_worded_as_the_history_words_him(tmp_path: Path) -> None:
    history = require_corpus("PokerStars", "7-StudHL-USD-0.04-0.08-200911.txt")
    db = _store(tmp_path, history)
    shown = _outputs(db, "35874487284")["show"]
    assert "rdiezchang doesn't show hand" in shown
    assert "not_shown" not in shown and "[]" not in shown
    assert "*** no showdown ***" in shown
    forum = runner.invoke(app, ["show", "--db", db, "35874487284", "--format", "forum"]).output
    assert "rdiezchang doesn't show hand" in forum and "[]" not in forum


def test_the_site_is_named_in_words_and_tournament_chips_carry_their_unit(tmp_path: Path) -> None:
    party = _outputs(_store(tmp_path, require_corpus("PartyPoker", "7-StudHL-USD-10-20.201202.wins.lo.pot.txt")),
                     "11480841734")
    for form in ("desk", "player"):
        assert "Hand PartyPoker #11480841734" in party[form], party[form]
        assert "partypoker" not in party[form].split("The hand, street by street")[0].split("Rules profile:")[0]
    (tmp_path / "t").mkdir()
    stars = require_corpus("PokerStars", "8-Game-2max-STT-play-100-201306.homeGame.shootout.txt")
    tournament = _outputs(_store(tmp_path / "t", stars), "99632561862")
    for form in ("desk", "player"):
        assert "posts the ante 8 chips" in tournament[form], tournament[form]
    assert "PokerStars hand #99632561862" in tournament["show"] and "Player0 bets 40 chips" in tournament["show"]
    assert "Seat 2 Hero, stack 1869 chips: put in 460 chips, showed" in tournament["player"]
