"""Stakes not stated for the game (issue 18 §6: some tournament exports state only "Limit"): the
small and big bet are inferred from the betting (source ``inferred``) and sizes are judged against
them only where the inference is unambiguous."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.model import Hand, StakeSource
from hhtool.replay import replay
from hhtool.sites import parser_for
from tests.site_helpers import only_hand, parse_text

runner = CliRunner()


def tourney(hand_id: int, *, complete: int = 20, fourth: int = 20, fifth: int = 40, level: str = "Level I") -> str:
    """A PokerStars tournament hand whose header has no stakes: Carol completes, bets 4th and 5th street."""
    pot = 6 + 5 + 2 * complete + 2 * fourth
    return "\n".join([
        f"PokerStars Hand #{hand_id}: Tournament #99, $1+$0.10 USD 7 Card Stud Hi/Lo Limit - {level} - "
        "2009/11/26 10:25:13 ET",
        "Table '99 1' 8-max", "Seat 1: Alice (1500 in chips)", "Seat 3: Bob (1500 in chips)",
        "Seat 5: Carol (1500 in chips)", "Alice: posts the ante 2", "Bob: posts the ante 2", "Carol: posts the ante 2",
        "*** 3rd STREET ***", "Dealt to Alice [Td]", "Dealt to Bob [2h]", "Dealt to Carol [7c 3s 5h]",
        "Bob: brings in for 5", f"Carol: raises {complete - 5} to {complete}", f"Alice: calls {complete}", "Bob: folds",
        "*** 4th STREET ***", "Dealt to Alice [Td] [2c]", "Dealt to Carol [7c 3s 5h] [Qc]",
        f"Carol: bets {fourth}", f"Alice: calls {fourth}",
        "*** 5th STREET ***", "Dealt to Alice [Td 2c] [6s]", "Dealt to Carol [7c 3s 5h Qc] [Ah]",
        f"Carol: bets {fifth}", "Alice: folds", f"Uncalled bet ({fifth}) returned to Carol",
        f"Carol collected {pot} from pot", "*** SUMMARY ***", f"Total pot {pot} | Rake 0",
        "Seat 1: Alice folded on the 5th Street", "Seat 3: Bob folded on the 3rd Street",
        f"Seat 5: Carol collected ({pot})", "", "",
    ])


def parse(text: str) -> Hand:
    return only_hand(parse_text(parser_for("pokerstars"), text))


def size_findings(hand: Hand) -> tuple[list[tuple[str, str, str]], list[str]]:
    result = replay(hand)
    return ([(v.code, v.expected, v.actual) for v in result.violations if v.code == "BET_SIZE"],
            [u.reason for u in result.unverifiable if u.check == "BET_SIZE"])


def test_bets_inferred_from_completion_and_big_streets() -> None:
    hand = parse(tourney(1))
    assert (hand.stakes.small_bet, hand.stakes.big_bet, hand.stakes.bets_source) == (20, 40, StakeSource.INFERRED)
    assert (hand.stakes.currency, hand.stakes.unit, hand.stakes.is_tournament) == ("CHIPS", 1, True)
    assert size_findings(hand) == ([], [])


def test_sizes_are_judged_against_unambiguous_inferred_bets() -> None:
    # 3rd street says 20, 5th street 40: a 4th-street bet of 40 without an open pair is the wrong size
    hand = parse(tourney(2, fourth=40))
    assert (hand.stakes.small_bet, hand.stakes.big_bet) == (20, 40)
    assert size_findings(hand) == ([("BET_SIZE", "20", "40")], [])


def test_ambiguous_betting_leaves_the_sizes_unverifiable() -> None:
    hand = parse(tourney(3, fifth=50))  # 20 on 3rd street, 50 on 5th: not 1:2
    assert (hand.stakes.small_bet, hand.stakes.big_bet, hand.stakes.bets_source) == (None, None, StakeSource.INFERRED)
    violations, reasons = size_findings(hand)
    assert violations == []
    assert reasons == ["the header states no small or big bet and the betting does not settle them; the header states "
                       "no bets: small/big bet inferred from the betting (the betting's "
                       "small bet 20 and big bet 50 are not in the fixed-limit ratio 1:2; 4th-street increments of 20 "
                       "do not settle the small bet)"]


def test_stated_stakes_are_not_inferred() -> None:
    text = tourney(4).replace(" - Level I - ", " - Level I (20/40) - ")
    hand = parse(text)
    assert (hand.stakes.small_bet, hand.stakes.big_bet, hand.stakes.bets_source) == (20, 40, StakeSource.HEADER)
    assert not any("inferred" in note.text for note in hand.notes)


def test_a_cash_header_without_stakes_is_still_an_error() -> None:
    text = tourney(5).replace("Tournament #99, $1+$0.10 USD ", "")
    outcome = parse_text(parser_for("pokerstars"), text)[0]
    assert "no stakes in header" in getattr(outcome, "reason", "")


def test_show_says_the_bets_are_inferred(tmp_path: Path) -> None:
    path = tmp_path / "t.txt"
    path.write_text(tourney(6))
    db = str(tmp_path / "i.duckdb")
    assert runner.invoke(app, ["import", str(path), "--db", db]).exit_code == 0
    result = runner.invoke(app, ["show", "6", "--db", db])
    assert result.exit_code == 0 and "20/40" in result.output and "bets: inferred" in result.output, result.output
