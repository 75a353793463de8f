"""Issue #25, the dispute desk: `audit --explain ID --for player`, the copy a player can be sent as it
is (text, JSON, HTML): the answer first, each rule in plain words with the practice applied, each
departure once, no file, line, rule number or profile key, the hole cards nobody showed hidden
unless the desk asks (`--show-hidden`); `--for desk` (the default) is the desk's report unchanged."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.replay.profiles import CHOICES, RuleProfile
from tests.desk_copy_helpers import HIDDEN_HAND, hidden_hand_store
from tests.dispute_helpers import explain, imported, misawarded, side_pot_hand
from tests.test_show import OVERBET

runner = CliRunner()
EIGHTY = {"COLUMNS": "80"}
#: the words of the profile's keys a player never sees
KEYS = [*CHOICES, *(name for name in RuleProfile.__dataclass_fields__ if "_" in name)]


def rule_words(rule: str) -> str:
    """A rule's title and its sentence, as the player's copy prints them."""
    from hhtool.reports.dispute.rules import RULE_SENTENCES, RULE_TITLES

    return f"{RULE_TITLES[rule]} {RULE_SENTENCES[rule]}"


def rule_title(rule: str) -> str:
    from hhtool.reports.dispute.rules import RULE_TITLES

    return RULE_TITLES[rule]


def flat(text: str) -> str:
    return " ".join(text.split())


def desk_only_words(text: str, history: Path) -> list[str]:
    """What the player's copy must not hold: the history's path or name, line numbers, rule numbers
    and the profile's keys."""
    found = [word for word in (str(history), history.name) if word in text]
    found += re.findall(r"\bR\d{1,2}\b", text) + re.findall(r"\b[Ll]ines? \d+", text)
    found += [key for key in KEYS if re.search(rf"\b{key}\b", text)]
    return found


@pytest.fixture(scope="module")
def mispaid(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """Hand #200 with the high half of the main pot ($9.00) paid to the all-in player."""
    return imported(tmp_path_factory.mktemp("mispaid"), misawarded(side_pot_hand()))


def test_the_player_copy_answers_first_in_plain_words(mispaid: tuple[str, Path]) -> None:
    db, history = mispaid
    result = runner.invoke(app, ["audit", "--db", db, "--explain", "200", "--for", "player"], env=EIGHTY)
    assert result.exit_code == 0, result.output
    text = result.output
    assert text.startswith("The site paid the $9.00 high half of the main pot to Shorty; by the rules it\nbelongs "
                           "to Big, whose three of a kind, Kings, beats Shorty's high card Queen.\n")
    assert not [line for line in text.splitlines() if cell_len(line) > 80]
    assert desk_only_words(text, history) == []
    words = flat(text)
    for rule in ("R12", "R13", "R14"):  # the rules the award rests on: title and sentence, no number
        assert rule_words(rule) in words, rule
    assert "the practice applied: PokerStars practice observed in its hand histories" in words
    assert "Practice: a side pot starts at each all-in amount." in words
    # the misaward once: the answer says it; the three findings the desk lists about it are not repeated
    assert words.count("$9.00 high half") == 1 and "Departures" not in text and "was paid $15.00" not in words
    # the ante nothing states is taken from the hand's own posts (issue #33), said without the desk's sources
    assert "ante $1.00, as all 3 players dealt in posted it; the history does not state the level's ante" in words
    assert "could not be checked" not in words
    assert "table context" not in words and "structures table" not in words


def test_the_desk_form_is_the_default_and_keeps_everything(mispaid: tuple[str, Path]) -> None:
    db, history = mispaid
    desk = explain(db, "200")
    assert explain(db, "200", "--for", "desk") == desk
    for kept in ("rule R12", "odd_unit_hi_lo = high", str(history), "Line 42 of", "Departures from the rules:"):
        assert kept in desk, kept
    assert flat(desk).count("the rules award") == 2  # the desk keeps each finding


def test_a_departure_the_answer_does_not_state_is_listed_once(tmp_path: Path) -> None:
    db, history = imported(tmp_path, OVERBET)
    text = explain(db, "77", "--for", "player")
    words = flat(text)
    assert words.startswith("The site paid gashpor $0.08 too little from the main pot")
    assert words.count("gashpor bets to $0.08 on 4th street; the limit allows $0.04.") == 1
    assert "(rules: 3rd-street betting; Bet sizes per street; All-in and short bets (limit))" in words
    assert "was paid $0.37" not in words  # the answer's money, not again as a departure
    assert rule_words("R6") in words
    assert "Practice: an open pair on 4th street does not allow a big bet." in words
    assert "Side pots" not in words and "shared between the pots" not in words.split("Rake and fees")[0]
    assert desk_only_words(text, history) == []


@pytest.mark.slow
def test_hole_cards_nobody_showed_are_hidden_unless_the_desk_asks(tmp_path: Path) -> None:
    db = hidden_hand_store(tmp_path)
    hand = HIDDEN_HAND
    player = explain(db, hand, "--for", "player")
    assert "Hero gets down ?? ?? up 5h" in player and "7c" not in player and "3s" not in player
    assert "hole cards that were never shown are hidden" in player
    assert "u.pressure: seven cards Ts Kc Td 2c Ah Kd 9s" in flat(player)  # shown cards stay shown
    shown = explain(db, hand, "--for", "player", "--show-hidden")
    assert "Hero gets down 7c 3s up 5h" in shown and "hidden" not in shown
    assert "Hero gets down 7c 3s up 5h" in explain(db, hand)  # the desk sees what the history holds
    data = json.loads(explain(db, hand, "--for", "player", "--format", "json"))
    assert data["form"] == "player" and data["hole_cards_hidden_for"] == ["Hero"]
    assert next(p for p in data["players"] if p["player"] == "Hero")["cards"] == [None, None, "5h", "Qc"]
    out = tmp_path / "copy.html"
    assert explain(db, hand, "--for", "player", "--format", "html", "--out", str(out)) == f"wrote {out}\n"
    page = out.read_text()
    assert '"7c"' not in page and 'data-card="7c"' not in page and "Hole cards that were never shown" in page


def keys_of(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {key for item in value.values() for key in keys_of(item)}
    if isinstance(value, list):
        return {key for item in value for key in keys_of(item)}
    return set()


def test_the_player_copy_as_json_and_html_holds_nothing_of_the_desk(mispaid: tuple[str, Path], tmp_path: Path) -> None:
    db, history = mispaid
    data = json.loads(explain(db, "200", "--for", "player", "--format", "json"))
    assert data["answer"][0].startswith("The site paid the $9.00 high half of the main pot to Shorty")
    assert [rule["title"] for rule in data["rules"]] == [rule_title(r) for r in ("R12", "R13", "R14", "R16")]
    assert data["departures"] == [] and data["misawarded"] == {"amount": 900, "text": "$9.00"}
    assert not keys_of(data) & {"line", "file", "source", "parameters", "findings", "copies", "profile", "rule"}
    assert desk_only_words(json.dumps(data), history) == []
    out = tmp_path / "copy.html"
    explain(db, "200", "--for", "player", "--format", "html", "--out", str(out))
    page = out.read_text()
    visible = re.sub(r"<[^>]+>", " ", page.split("<body>")[1].split('<script type="application/json"')[0])
    assert desk_only_words(visible, history) == [] and ">Line<" not in page
    assert flat(visible).index("The site paid the $9.00") < flat(visible).index("The rules this answer rests on")
    assert flat(visible).count("$9.00 high half") == 1


def test_for_and_show_hidden_are_refused_where_they_mean_nothing(mispaid: tuple[str, Path]) -> None:
    db, _ = mispaid
    for args, said in ((["--explain", "200", "--for", "customer"], "--for 'customer': use desk or player"),
                       (["--explain", "200", "--show-hidden"], "--show-hidden goes with --for player"),
                       (["--for", "player"], "--for and --show-hidden go with --explain HAND_ID")):
        result = runner.invoke(app, ["audit", "--db", db, *args])
        assert result.exit_code == 2 and said in result.output, (args, result.output)
        assert "Traceback" not in result.output


def test_the_assumptions_of_a_lone_hand_leave_the_desk_sources_out_of_the_player_copy(tmp_path: Path) -> None:
    db, history = imported(tmp_path, side_pot_hand())
    desk, player = explain(db, "200"), explain(db, "200", "--for", "player")
    # alone at its level, its ante and bring-in are the hand's own posts, assumed (issue #33): not a hedge
    answer = flat(player).split("Hand PokerStars #200")[0]
    assert answer.startswith("The site's award is correct under the rules of PokerStars."), answer
    assumed = flat(desk).split("Assumed (no source states them; the hand is judged with them):")[1]
    assert "bring-in $3.00, as Shorty brought in for it" in assumed and "is stored" in assumed  # where the desk looked
    said = flat(player).split("Taken from the hand itself (the history does not state it):")[1]
    assert "bring-in $3.00, as Shorty brought in for it; the history does not state the level's bring-in" in said
    assert "is stored" not in player and "table context" not in player and "structures" not in player
    assert desk_only_words(player, history) == []


def test_a_hostile_name_in_the_player_copy_is_text(tmp_path: Path) -> None:
    name = "\x1b[31mEvil\u2028<script>alert(1)</script>"
    db, _ = imported(tmp_path, misawarded(side_pot_hand()).replace("Shorty", name))
    text = explain(db, "200", "--for", "player")
    assert "\x1b" not in text and "\u2028" not in text and "?[31mEvil?<script>" in text
    out = tmp_path / "copy.html"
    explain(db, "200", "--for", "player", "--format", "html", "--out", str(out))
    page = out.read_text()
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    data = json.loads(explain(db, "200", "--for", "player", "--format", "json"))
    assert name in data["answer"][0]  # JSON carries the name as written, escaped by JSON


def test_the_departure_the_answer_names_is_not_listed_again(tmp_path: Path) -> None:
    db, history = imported(tmp_path, side_pot_hand())
    text = explain(db, "200", "--rules", "888poker", "--for", "player")  # 888poker: the bring-in is half the small bet
    words = flat(text)
    assert words.startswith("The site's award is correct under the rules of 888poker, but the hand departs from the "
                            "rules: the table's bring-in is $3.00")
    assert words.count("the table's bring-in is $3.00") == 1 and "also departs" not in words
    assert rule_words("R4") in words and desk_only_words(text, history) == []


def test_each_value_a_profile_allows_has_its_practice_in_words() -> None:
    """The player's copy words the practice of every value of every parameter it names a rule for."""
    from hhtool.reports.dispute.rules import PARAMETER_RULES, practice_words

    for name, rule in PARAMETER_RULES.items():
        assert rule_title(rule), name
        kind = RuleProfile.__dataclass_fields__[name].type
        values = CHOICES.get(name) or (("True", "False") if kind == "bool" else ("None", "3"))
        for value in values:
            assert practice_words(name, str(value)), (name, value)


def test_the_player_copy_puts_the_assumptions_before_the_rules_in_text_and_html(mispaid: tuple[str, Path],
                                                                               tmp_path: Path) -> None:
    """The text copy says what was taken from the hand itself before the rules the answer rests on; the
    HTML copy in the same order."""
    from hhtool.reports.dispute.customer_out import RULES_HEADING

    db, _ = mispaid
    text = explain(db, "200", "--for", "player")
    assumed_heading = "Taken from the hand itself (the history does not state it)"
    assert assumed_heading in text and RULES_HEADING in text
    assert text.index(assumed_heading) < text.index(RULES_HEADING)
    out = tmp_path / "player.html"
    explain(db, "200", "--for", "player", "--format", "html", "--out", str(out))
    page = out.read_text(encoding="utf-8")
    order = [page.index(f'<section id="{name}">') for name in ("assumptions", "rules")]
    assert order == sorted(order), order
