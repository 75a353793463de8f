"""The dispute report and `hhtool show` write every action with the amounts the history wrote (issue
#33): each site's raise line as that site writes it, a winner who did not show as "doesn't show hand".
Each case runs the commands on a real history of the corpus (or a bundled sample) and finds the
history's own numbers in the output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from tests.dispute_helpers import explain, imported, side_pot_hand
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


@pytest.mark.slow
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


@pytest.mark.slow
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


def _bigger_mucks() -> str:
    """Hand #200 with Bigger mucking his 6-5-4-3-A low at the showdown: Big, the only high shown
    that beats Shorty's, is paid both pots whole."""
    hand = side_pot_hand()
    for old, new in (
        ("Bigger: shows [Ah 6d Qs 4d 5d Ac 3d] (HI: a pair of Aces; LO: 6,5,4,3,A)", "Bigger: mucks hand"),
        ("Big collected $15 from side pot\nBigger collected $15 from side pot\n", "Big collected $30 from side pot\n"),
        ("Big collected $9 from main pot\nBigger collected $9 from main pot\n", "Big collected $18 from main pot\n"),
        ("and won ($24) with HI: three of a kind", "and won ($48) with HI: three of a kind"),
        ("Seat 6: Bigger showed [Ah 6d Qs 4d 5d Ac 3d] and won ($24) with HI: a pair of Aces; LO: 6,5,4,3,A",
         "Seat 6: Bigger mucked [Ah 6d Qs 4d 5d Ac 3d]"),
    ):
        assert old in hand
        hand = hand.replace(old, new)
    return hand


def test_the_copy_addressed_to_a_player_shows_and_evaluates_his_mucked_low(tmp_path: Path) -> None:
    db, _ = imported(tmp_path, _bigger_mucks())
    unaddressed = explain(db, "200", "--for", "player")
    assert "Ah 6d Qs 4d 5d Ac 3d" not in unaddressed and "?? ?? Qs 4d 5d Ac ??" in unaddressed
    to_him = explain(db, "200", "--for", "player", "--player", "Bigger")
    words = " ".join(to_him.split())
    assert to_him.startswith("To Bigger, about your hand:")
    assert "You mucked Ah 6d Qs 4d 5d Ac 3d: your best high was a pair of Aces, and you had the low 6-5-4-3-A." in words
    # nobody else showed a low: his would have taken the low half of each pot he could win
    for pot in ("the main pot", "side pot 1"):
        assert (f"In {pot}, shown, your high would have lost the high half against three of a kind, Kings (Big) "
                "and your low would have won the low half (no other low was shown).") in words, words
    assert "cards: Ah 6d Qs 4d 5d Ac 3d" in to_him  # his own cards, in the players' list too
    as_json = json.loads(explain(db, "200", "--for", "player", "--player", "Bigger", "--format", "json"))
    assert as_json["addressed_to"] == "Bigger" and as_json["mucked"]["low"]["words"] == "6,5,4,3,A"
    assert [(c["pot"], c["half"], c["outcome"]) for c in as_json["mucked"]["chances"]] == [
        ("main pot", "high", "would have lost"), ("main pot", "low", "would have won"),
        ("side pot 1", "high", "would have lost"), ("side pot 1", "low", "would have won")]


def test_a_name_the_hand_does_not_hold_is_refused_with_the_names_close_to_it(tmp_path: Path) -> None:
    db, _ = imported(tmp_path, side_pot_hand())
    wrong = runner.invoke(app, ["audit", "--db", db, "--explain", "200", "--for", "player", "--player", "bigger"])
    assert wrong.exit_code == 2 and "did you mean 'Bigger'?" in wrong.output and "Traceback" not in wrong.output
    assert len(wrong.output.strip().splitlines()) == 1, wrong.output
    desk = runner.invoke(app, ["audit", "--db", db, "--explain", "200", "--player", "Bigger"])
    assert desk.exit_code == 2 and "add --for player" in desk.output


def test_both_copies_answer_first_in_one_screen(tmp_path: Path) -> None:
    db, _ = imported(tmp_path, side_pot_hand())
    main = ("Main pot $18.00: Big won the high half ($9.00) with three of a kind, Kings; Bigger won the low half ($9.00) "
            "with 6-5-4-3-A.")
    side = "Side pot 1 $30.00: Big won the high half ($15.00) with three of a kind, Kings; Bigger won the low half"
    owed = "The rules give Big $24.00 and Bigger $24.00, and the site paid the same."
    for form in ("desk", "player"):
        first_screen = " ".join(" ".join(explain(db, "200", "--for", form).splitlines()[:24]).split())
        assert main in first_screen and side in first_screen and owed in first_screen, (form, first_screen)
    player = explain(db, "200", "--for", "player", "--player", "Shorty")
    summary = player.split("The details:")[0].rstrip().splitlines()
    assert len(summary) <= 24, summary
    said = " ".join(" ".join(summary).split())
    assert "In the main pot you lost the high half to three of a kind, Kings and lost the low half to 6-5-4-3-A." in said
    assert "Side pot 1 was not yours to win" in said


@pytest.mark.slow
def test_a_player_who_showed_and_won_is_never_said_not_to_have_contested(tmp_path: Path) -> None:
    stars = require_corpus("PokerStars", "8-Game-2max-STT-play-100-201306.homeGame.shootout.txt")
    outputs = _outputs(_store(tmp_path, stars), "99632561862")  # Player0 mucked; Hero showed his full house
    for form in ("desk", "player"):
        assert "did not contest" not in outputs[form]
        assert "Hero won the whole pot (920 chips) with a full house, Sixes full of Deuces." in " ".join(
            outputs[form].split())


def test_a_practice_learnt_from_one_hand_is_counted_for_the_desk_and_not_credited_to_the_site(tmp_path: Path) -> None:
    """Winning's odd chip to the low half rests on its one split in the corpus (hand #693975843 itself)."""
    history = require_corpus("Winning", "7-Stud-HL-8max-USD-1.00-2.00-201608.HH00000000 G0.txt")
    outputs = _outputs(_store(tmp_path, history), "693975843")
    desk, player = (" ".join(outputs[form].split()) for form in ("desk", "player"))
    assert "ChazDazzle won the low half ($3.53) with 7-6-4-2-A" in desk  # the odd cent went low
    assert "parameters that mattered: odd_unit_hi_lo = low (learnt from 1 hand)" in desk
    assert ("Reading applied (the rules leave this open): a chip that cannot be split between the high and the low "
            "half goes to the low half.") in player
    assert "Practice: a chip that cannot be split" not in player and "practice observed" not in player
    as_json = json.loads(runner.invoke(app, ["audit", "--db", str(tmp_path / "d.duckdb"), "--explain", "693975843",
                                             "--format", "json"]).output)
    assert as_json["profile"]["learnt_from"] == {"odd_unit_hi_lo": 1}
