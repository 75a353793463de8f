"""§4 of issue 18: a check whose input is partly hidden is verifiable when every value the hidden
cards could take (cards seen nowhere in the hand) gives the same answer; `unverifiable` only when a
hidden card could change it. PartyPoker prints no upcard of an opponent; the inline hands hide
whole players the same way (no deal lines)."""

from __future__ import annotations

import random
from itertools import combinations_with_replacement
from pathlib import Path

from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.replay import PROFILES, ReplayResult, Verdict, replay
from hhtool.replay.hidden import rank_multisets
from tests.replay_helpers import build_hand, edit
from tests.test_site_partypoker import parse_one

DEFAULT = PROFILES["default"]
runner = CliRunner()


def findings(result: ReplayResult, code: str) -> tuple[list[str], list[str]]:
    return [v.message for v in result.violations if v.code == code], [u.reason for u in result.unverifiable if u.check == code]


# ---------------------------------------------------------------- R3 bring-in, PartyPoker text

PARTY = """\
Game #11612328841 starts.

#Game No : 11612328841
***** Hand History for Game 11612328841 *****
$2/$4 USD FL 7 Card Stud Hi-Lo - Tuesday, March 13, 21:14:05 EDT 2012
Table Table  184220 (Real Money)
Seat 0 is the button
Total number of players : 4/8
Seat 1: TallPines ( $120 USD )
Seat 2: mrs_ecks ( $64.30 USD )
Seat 5: Hero ( $100 USD )
Seat 6: Cranmore ( $92.40 USD )
TallPines posts ante [$0.25 USD]
mrs_ecks posts ante [$0.25 USD]
Hero posts ante [$0.25 USD]
Cranmore posts ante [$0.25 USD]
** Dealing **
Dealt to Hero [  Kh 9c 7d ]
mrs_ecks opens
mrs_ecks bring-ins [$0.50 USD]
Hero folds
Cranmore folds
TallPines completes [$2 USD]
mrs_ecks folds
TallPines wins $3.50 USD from the main pot.
"""

# the Hero shows the 2c, the lowest card there is: whatever the opponents' upcards, he brings in
HERO_TWO_CLUBS = edit(edit(PARTY, "Kh 9c 7d", "Kh 9c 2c"), "mrs_ecks opens\nmrs_ecks bring-ins [$0.50 USD]\nHero folds\n"
                      "Cranmore folds\nTallPines completes [$2 USD]\nmrs_ecks folds\n",
                      "Hero opens\nHero bring-ins [$0.50 USD]\nCranmore folds\nTallPines completes [$2 USD]\n"
                      "mrs_ecks folds\nHero folds\n")
OPPONENT_OVER_TWO_CLUBS = edit(PARTY, "Kh 9c 7d", "Kh 9c 2c")


def test_hidden_door_cards_cannot_change_the_bring_in_below_the_two_of_clubs() -> None:
    result = replay(parse_one(HERO_TWO_CLUBS))
    assert findings(result, "BRING_IN_PLAYER") == ([], [])


def test_an_opponent_bringing_in_over_the_two_of_clubs_is_a_violation() -> None:
    violations, reasons = findings(replay(parse_one(OPPONENT_OVER_TWO_CLUBS)), "BRING_IN_PLAYER")
    assert violations == ["mrs_ecks opened 3rd street, but Hero shows the lowest upcard 2c, lower than any hidden upcard "
                          "could be"] and reasons == []


def test_a_shown_card_that_a_hidden_one_could_undercut_stays_unverifiable() -> None:
    violations, reasons = findings(replay(parse_one(PARTY)), "BRING_IN_PLAYER")  # the Hero shows the 7d
    assert violations == []
    assert reasons == ["the 3rd-street upcards of TallPines, mrs_ecks and Cranmore are not printed and could be lower "
                       "than Hero's 7d"]


def test_the_audit_command_reports_the_hidden_bring_in_as_checked(tmp_path: Path) -> None:
    path = tmp_path / "party.txt"
    path.write_bytes((HERO_TWO_CLUBS + "\n\n" + OPPONENT_OVER_TWO_CLUBS.replace("11612328841", "11612328842"))
                     .replace("\n", "\r\n").encode("ascii"))
    result = runner.invoke(app, ["audit", str(path), "--db", str(tmp_path / "s.duckdb"), "--format", "jsonl"])
    assert result.exit_code == 1, result.output
    assert '"hand_id": "11612328842", "code": "BRING_IN_PLAYER"' in result.output
    assert '"hand_id": "11612328841"' not in result.output


# ---------------------------------------------------------------- R3 several hidden, ties by position

def _third_only(ups: str, first: str, seats: str = "A=100 B=100 C=100 D=100") -> str:
    return f"""
seats {seats}
stakes ante=1 bring=2 small=4 big=8
antes
3rd {ups}
{first} bring 2
"""


def test_a_hidden_card_below_the_lowest_shown_one_leaves_the_bring_in_open() -> None:
    # A shows the 3c; B and D could hold the 2c, 2d, 2h or 2s
    script = _third_only("A [Kd Qd] 3c, C [Kh Qh] 9s", "A")
    assert findings(replay(build_hand(script), DEFAULT), "BRING_IN_PLAYER") == (
        [], ["the 3rd-street upcards of B and D are not printed and could be lower than A's 3c"])
    # the deuces all seen elsewhere: nothing hidden can be below the 3c
    seen = _third_only("A [2c 2d] 3c, C [2h 2s] 9s", "A")
    assert findings(replay(build_hand(seen), DEFAULT), "BRING_IN_PLAYER") == ([], [])
    # C (9s) can never be the lowest: opening for him is a violation whatever B and D hold
    wrong = _third_only("A [Kd Qd] 3c, C [Kh Qh] 9s", "C")
    violations, _ = findings(replay(build_hand(wrong), DEFAULT), "BRING_IN_PLAYER")
    assert violations == ["C opened 3rd street, but A or B or D must: the 3rd-street upcards of B and D are not printed "
                          "and could be lower than A's 3c"]


def test_ties_by_position_count_the_hidden_players_seat() -> None:
    """The Spanish rules break bring-in ties by position: a hidden 2 ties A's 2c. Seated after A,
    B and D lose that tie; seated before him (A in seat 5), either could win it."""
    after = _third_only("A [Kd Qd] 2c, C [Kh Qh] 9s", "A")
    assert findings(replay(build_hand(after), PROFILES["spanish"]), "BRING_IN_PLAYER") == ([], [])
    before = _third_only("A [Kd Qd] 2c, C [Kh Qh] 9s", "A", seats="A:5=100 B:2=100 C:3=100 D:4=100")
    assert findings(replay(build_hand(before), PROFILES["spanish"]), "BRING_IN_PLAYER") == (
        [], ["the 3rd-street upcards of B and D are not printed and could be lower than A's 2c"])
    # by suit (the default) nothing is below the 2c, wherever the players sit
    assert findings(replay(build_hand(before), DEFAULT), "BRING_IN_PLAYER") == ([], [])


# ---------------------------------------------------------------- R7 opener with hidden boards

# A (hero) brings in with the 2c; C shows kings on 4th; B and D show nothing (a site that hides
# opponents' upcards). All four aces are seen (A holds Ah, C holds Ac Ad, the As is A's 4th card)
# and so are three kings: no two hidden upcards can pair aces or kings, so C's kings open.
OPENER = """
seats A=100 B=100 C=100 D=100
stakes ante=1 bring=2 small=4 big=8
antes
3rd A [Ah Kh] 2c, C [Ac Ad] Kc
A bring 2
B call
C call
D call
4th A As, C Kd
C bet 4
D fold
A fold
B fold
return C 4
collect C 12
rake 0
"""
# B opens instead: whatever B holds, C's kings beat it
OPENER_WRONG = edit(OPENER, "C bet 4\nD fold", "B check\nC bet 4\nD fold")
# the Kh not seen: B could hold Kh Ks, tie C's kings and, seated before C, open
OPENER_OPEN = edit(OPENER, "A [Ah Kh] 2c", "A [Ah Qh] 2c")
# the same, but B's cards are shown (no pair) and only D is hidden: D sits after C, so a tie goes to C
OPENER_TIE_AFTER = edit(edit(OPENER_OPEN, "C [Ac Ad] Kc", "B [9s 8s] 4h, C [Ac Ad] Kc"), "C Kd", "B 5s, C Kd")


def test_hidden_upcards_that_cannot_beat_the_best_shown_board_decide_nothing() -> None:
    result = replay(build_hand(OPENER), DEFAULT)
    assert result.verdict is Verdict.OK, (result.violations, result.unverifiable)


def test_opening_over_a_board_no_hidden_card_can_beat_is_a_violation() -> None:
    violations, reasons = findings(replay(build_hand(OPENER_WRONG), DEFAULT), "ACTION_ORDER")
    assert violations == ["B acted first on 4th street, but C shows the best board (one pair: Kc Kd); no value of the "
                          "hidden upcards of B and D beats it"] and reasons == []


def test_a_hidden_board_that_could_tie_and_win_by_position_stays_unverifiable() -> None:
    violations, reasons = findings(replay(build_hand(OPENER_OPEN), DEFAULT), "ACTION_ORDER")
    assert violations == []
    assert reasons == ["the opener cannot be told: B's upcards on 4th street are not all printed, and a value of them "
                       "could beat C's Kc Kd"]


def test_a_hidden_board_that_can_only_tie_after_the_best_shown_one_decides_nothing() -> None:
    assert findings(replay(build_hand(OPENER_TIE_AFTER), DEFAULT), "ACTION_ORDER") == ([], [])


def test_several_hidden_upcards_at_once() -> None:
    """5th street: C shows trip aces; B and D hide three upcards each, and every ace is seen: the most
    three hidden cards can make is trip kings."""
    script = edit(edit(OPENER, "3rd A [Ah Kh] 2c, C [Ac Ad] Kc", "3rd A [Ah Kh] 2c, C [Qc Qd] Ac"),
                  "4th A As, C Kd\nC bet 4\nD fold\nA fold\nB fold\nreturn C 4\ncollect C 12",
                  "4th A 3s, C Ad\nC check\nD check\nA check\nB check\n5th A 4s, C As\nC bet 8\nD fold\nA fold\n"
                  "B fold\nreturn C 8\ncollect C 12")
    assert findings(replay(build_hand(script), DEFAULT), "ACTION_ORDER") == ([], [])
    # with the Ah unseen, a hidden board could hold it, but not three aces: C still opens
    unseen_ace = edit(script, "A [Ah Kh] 2c", "A [Qh Kh] 2c")
    assert findings(replay(build_hand(unseen_ace), DEFAULT), "ACTION_ORDER") == ([], [])
    # on 4th street (pair of aces shown) the hidden Ah cannot pair a hidden board either: only one ace is unseen
    wrong = edit(script, "C check\nD check\nA check\nB check", "B check\nC check\nD check\nA check")
    violations, _ = findings(replay(build_hand(wrong), DEFAULT), "ACTION_ORDER")
    assert [v.split(",")[0] for v in violations] == ["B acted first on 4th street"]


def test_rank_multisets_are_every_allowed_hand_once_in_either_order() -> None:
    rng = random.Random(5)
    for _ in range(100):
        available = {rank: rng.randint(0, 4) for rank in range(2, 15)}
        for size in range(5):
            expected = sorted(c for c in combinations_with_replacement(sorted(r for r in available if available[r]), size)
                              if all(c.count(r) <= available[r] for r in c))
            for descending in (True, False):
                found = [tuple(sorted(c)) for c in rank_multisets(available, size, descending)]
                assert sorted(found) == expected and len(set(found)) == len(found)
