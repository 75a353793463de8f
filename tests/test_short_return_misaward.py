"""Issue #24 item 6: money misawarded includes uncalled bets returned short (or over). A player who
gets back less than the unmatched part of his bet lost money the site kept or paid to someone else:
the dispute report says so in its first sentence, its JSON and the report index carry the amount
(the index sorts by it), `violations --by hand` counts it, and each amount is counted once (paid
to another player, paid back with the pot, or inside a site's awards)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from hhtool.cli import app
from tests.dispute_helpers import explain, imported, runner

# Bob's $1.00 on 5th street is not called; the site returns $0.50 and keeps the rest (it pays the
# $2.30 pot, states no rake: POT_TOTAL too)
SHORT_KEPT = """PokerStars Hand #301:  7 Card Stud Hi/Lo Limit ($0.50/$1 USD) - 2017/01/21 16:58:03 ET
Table 'Short' 8-max
Seat 1: Alice ($20 in chips)
Seat 2: Bob ($20 in chips)
Seat 3: Carol ($20 in chips)
Alice: posts the ante $0.10
Bob: posts the ante $0.10
Carol: posts the ante $0.10
*** 3rd STREET ***
Dealt to Alice [3c]
Dealt to Bob [Kd]
Dealt to Carol [9s]
Alice: brings in for $0.25
Bob: completes it to $0.50
Carol: folds
Alice: calls $0.25
*** 4th STREET ***
Dealt to Alice [3c] [4d]
Dealt to Bob [Kd] [Kh]
Bob: bets $0.50
Alice: calls $0.50
*** 5th STREET ***
Dealt to Alice [3c 4d] [7h]
Dealt to Bob [Kd Kh] [2s]
Bob: bets $1
Alice: folds
Uncalled bet ($0.50) returned to Bob
Bob collected $2.30 from pot
Bob: doesn't show hand
*** SUMMARY ***
Total pot $2.80 | Rake $0
Seat 1: Alice folded on the 5th Street
Seat 2: Bob collected ($2.30)
Seat 3: Carol folded on the 3rd Street (didn't bet)
"""

# Carol calls Bob's $1.00 all-in for $0.50; the site returns Bob $0.25 of the $0.50 nobody matched
# and pays the other $0.25 to Carol with the pot she wins
SHORT_TO_WINNER = """PokerStars Hand #302:  7 Card Stud Hi/Lo Limit ($0.50/$1 USD) - 2017/01/21 17:00:00 ET
Table 'Short' 8-max
Seat 1: Alice ($20 in chips)
Seat 2: Bob ($20 in chips)
Seat 3: Carol ($1.60 in chips)
Alice: posts the ante $0.10
Bob: posts the ante $0.10
Carol: posts the ante $0.10
*** 3rd STREET ***
Dealt to Alice [3c]
Dealt to Bob [Kd]
Dealt to Carol [9s]
Alice: brings in for $0.25
Bob: completes it to $0.50
Carol: calls $0.50
Alice: folds
*** 4th STREET ***
Dealt to Bob [Kd] [Kh]
Dealt to Carol [9s] [Ad]
Bob: bets $0.50
Carol: calls $0.50
*** 5th STREET ***
Dealt to Bob [Kd Kh] [2s]
Dealt to Carol [9s Ad] [7c]
Bob: bets $1
Carol: calls $0.50 and is all-in
Uncalled bet ($0.25) returned to Bob
*** 6th STREET ***
Dealt to Bob [Kd Kh 2s] [9c]
Dealt to Carol [9s Ad 7c] [Tc]
*** RIVER ***
*** SHOW DOWN ***
Bob: shows [Qs Jc Kd Kh 2s 9c 8d] (HI: a pair of Kings)
Carol: shows [As Ac 9s Ad 7c Tc 5h] (HI: three of a kind, Aces)
Carol collected $3.80 from pot
*** SUMMARY ***
Total pot $3.80 | Rake $0
Seat 1: Alice folded on the 3rd Street
Seat 2: Bob showed [Qs Jc Kd Kh 2s 9c 8d] and lost with HI: a pair of Kings
Seat 3: Carol showed [As Ac 9s Ad 7c Tc 5h] and won ($3.80) with HI: three of a kind, Aces
"""

# the hand of SHORT_KEPT, but the site pays Bob the $0.50 it did not return with his pot: he has
# all his money (the findings stay, nothing is misawarded)
SHORT_PAID_BACK = (SHORT_KEPT.replace("Hand #301", "Hand #303").replace("Bob collected $2.30", "Bob collected $2.80")
                   .replace("Bob collected ($2.30)", "Bob collected ($2.80)"))

# Winamax pays the uncalled bet with its awards (uncalled_in_awards) and prints no return: Hero's
# 1€ raise is not called (0.60€ of it unmatched), but the site pays him 0.30€ less than pot and return
IN_AWARDS = ("Winamax Poker - CashGame - HandId: #9312001-101-1479001200 - 7-Card Stud Hi/Lo fixed limit (0.20€/1€/2€) "
             "- 2016/11/13 01:40:00 UTC\n") + """Table: 'Carcassonne' 6-max (real money)
Seat 1: Hero (40€)
Seat 2: Lucas (32.50€)
Seat 3: Margaux (25€)
Seat 4: Yann (18.40€)
*** ANTE/BLINDS ***
Hero posts ante 0.20€
Lucas posts ante 0.20€
Margaux posts ante 0.20€
Yann posts ante 0.20€
*** 3rd STREET ***
Dealt to Hero [Kd 9c Qs]
Dealt to Lucas [X X 3d]
Dealt to Margaux [X X 7h]
Dealt to Yann [X X 3c]
Yann brings in 0.40€
Hero raises 1€ to 1€
Lucas folds
Margaux folds
Yann folds
Hero collected 1.10€ from pot(HI)
Hero collected 0.80€ from pot(LO)
*** SUMMARY ***
Total pot 2.20€ | No rake
Seat 1: Hero won 1.90€
"""
IN_AWARDS_ID = "9312001-101-1479001200"


def first_sentence(text: str) -> str:
    """The report's first sentence, its wrapped lines joined."""
    headline = " ".join(text.split("\n\n", 1)[0].split())
    return headline.split(". ", 1)[0]


def explained_json(db: str, hand_id: str) -> Any:
    return json.loads(explain(db, hand_id, "--format", "json"))


def worst_hands(db: str) -> dict[str, int]:
    result = runner.invoke(app, ["violations", "--db", db, "--by", "hand", "--format", "json"])
    assert result.exit_code == 0, result.output
    return {row["hand_id"]: row["misawarded"] for row in json.loads(result.output)}


def index_rows(directory: Path) -> list[tuple[str, str, str]]:
    """(hand id, misawarded as shown, verdict) of each row of the report index, in its order."""
    html = (directory / "index.html").read_text()
    return re.findall(r'<tr><td data-value="\d+" class="num">([^<]*)</td>.*?<a href="[^"]*">([^<]*)</a>.*?'
                      r'<td data-value="[^"]*">([^<]*)</td></tr>', html)


def test_the_first_sentence_names_the_player_and_the_money_returned_short(tmp_path: Path) -> None:
    db, _ = imported(tmp_path, SHORT_KEPT)
    text = explain(db, "301")
    first = first_sentence(text)
    assert not text.startswith("The site's award is correct"), text
    assert first.startswith("The site returned Bob $0.50 less than the $1.00 of his bet that nobody called"), first
    assert "kept" in first
    assert "Uncalled bets returned" in text and re.search(r"Bob +\$1\.00 +\$0\.50 +-\$0\.50", text), text


def test_json_carries_the_misawarded_total_and_each_players_part(tmp_path: Path) -> None:
    db, _ = imported(tmp_path, SHORT_KEPT)
    data = explained_json(db, "301")
    assert data["misawarded"] == {"amount": 50, "text": "$0.50"}
    assert data["misawarded_by_player"] == [{
        "player": "Bob", "award": {"amount": 0, "text": "$0.00"}, "returned": {"amount": -50, "text": "-$0.50"},
        "total": {"amount": -50, "text": "-$0.50"}}]
    assert data["returns"] == [{
        "player": "Bob", "rules": {"amount": 100, "text": "$1.00"}, "site": {"amount": 50, "text": "$0.50"},
        "difference": {"amount": -50, "text": "-$0.50"}, "words": "returned $0.50 too little"}]
    assert "Bob" in data["headline"][0] and "$0.50" in data["headline"][0]


def test_the_index_lists_the_short_return_and_sorts_it_above_a_smaller_misaward(tmp_path: Path) -> None:
    db, _ = imported(tmp_path, SHORT_TO_WINNER + "\n\n\n" + SHORT_KEPT)
    desk = tmp_path / "desk"
    result = runner.invoke(app, ["audit", "--db", db, "--report", str(desk)])
    assert result.exit_code == 1, result.output
    rows = index_rows(desk)
    assert [(hand_id, amount) for amount, hand_id, _ in rows] == [("301", "$0.50"), ("302", "$0.25")], rows
    assert rows[0][2].startswith("Returned Bob $0.50 less than the $1.00")  # (the index drops "The site")
    page = next(path for path in desk.iterdir() if path.name != "index.html" and "301" in path.name).read_text()
    assert 'id="returns"' in page and "returned $0.50 too little" in page


def test_a_short_return_paid_to_another_player_is_counted_once(tmp_path: Path) -> None:
    db, _ = imported(tmp_path, SHORT_TO_WINNER)
    data = explained_json(db, "302")
    assert data["misawarded"]["amount"] == 25  # Bob's $0.25, paid to Carol: not $0.50 with both sides summed
    assert data["headline"] == [
        "The site returned Bob $0.25 less than the $0.50 of his bet that nobody called and paid it to Carol; by the "
        "rules it goes back to Bob."]
    assert [(row["player"], row["total"]["amount"]) for row in data["misawarded_by_player"]] == [("Bob", -25),
                                                                                                ("Carol", 25)]
    assert worst_hands(db) == {"302": 25}


def test_a_short_return_paid_back_with_the_pot_misawards_nothing(tmp_path: Path) -> None:
    db, _ = imported(tmp_path, SHORT_PAID_BACK)
    data = explained_json(db, "303")
    assert data["misawarded"]["amount"] == 0 and data["verdict"] == "violation"
    assert data["headline"][0].endswith("but paid it to him with the pot: he received what the rules give him.")
    assert worst_hands(db) == {"303": 0}


def test_violations_by_hand_counts_the_money_returned_short(tmp_path: Path) -> None:
    db, _ = imported(tmp_path, SHORT_KEPT + "\n\n\n" + SHORT_TO_WINNER)
    assert worst_hands(db) == {"301": 50, "302": 25}
    assert explained_json(db, "301")["misawarded"]["amount"] == 50


def test_a_return_inside_the_sites_awards_is_counted_once(tmp_path: Path) -> None:
    db, _ = imported(tmp_path, IN_AWARDS)
    data = explained_json(db, IN_AWARDS_ID)
    assert data["misawarded"] == {"amount": 30, "text": "€0.30"}
    assert data["returns"] == []  # the site pays returns with its awards: the award table compares them
    assert data["misawarded_by_player"] == [{
        "player": "Hero", "award": {"amount": -30, "text": "-€0.30"}, "returned": {"amount": 0, "text": "€0.00"},
        "total": {"amount": -30, "text": "-€0.30"}}]
    assert data["headline"][0].startswith("The site paid Hero €1.90 for the pot and the €0.60 of his bet that nobody "
                                          "called, €0.30 less than the €2.20")
    assert worst_hands(db) == {IN_AWARDS_ID: 30}
