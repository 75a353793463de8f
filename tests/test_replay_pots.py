"""Pots (R12), rake shares (R15) and hi/lo splitting with odd units and quartering (R13, R14)."""

from __future__ import annotations

from hhtool.replay import PROFILES, RuleProfile, Verdict, replay
from hhtool.replay.pots import allocate, build_pots, share, split_halves
from tests.replay_helpers import QUARTER, SIDE, build_hand, edit

DEFAULT = PROFILES["default"]


def test_side_pot_split_hi_lo_in_each_pot_with_the_odd_cent() -> None:
    result = replay(build_hand(SIDE), DEFAULT)
    assert result.verdict is Verdict.OK, result.violations
    main, side = result.pots
    assert (main.amount, main.rake_share, main.eligible) == (60, 1, ("A", "B", "C"))
    assert (main.high_shares, main.low_shares) == ((("C", 30),), (("A", 29),))
    assert (side.amount, side.rake_share, side.eligible) == (34, 0, ("B", "C"))
    assert (side.high_shares, side.low_shares) == ((("C", 17),), (("B", 17),))
    assert {(a.player, a.rules_amount) for a in result.awards} == {("C", 47), ("A", 29), ("B", 17)}


def test_side_pot_without_a_low_goes_to_the_high_hand() -> None:
    script = edit(SIDE, "7th A [Qc], B [4s], C [3c]", "7th A [Qc], B [Qs], C [3c]")  # B: 8-7-5-3 and no fifth low card
    script = edit(script, "collect C 17 pot=1\ncollect B 17 pot=1", "collect C 34 pot=1")  # the total stays 94
    result = replay(build_hand(script), DEFAULT)
    assert result.verdict is Verdict.OK, result.violations
    side = result.pots[1]
    assert (side.split, side.high_shares, side.low_shares) == (False, (("C", 34),), ())
    assert "no qualifying low" in side.notes[0]


def test_quartering_high_winner_ties_the_low() -> None:
    result = replay(build_hand(QUARTER), DEFAULT)
    assert result.verdict is Verdict.OK, result.violations
    (pot,) = result.pots
    assert pot.high_shares == (("A", 20),)
    assert pot.low_shares == (("A", 10), ("B", 9))  # A's 6s outranks B's 6c for the odd unit of the low half
    assert {(a.player, a.rules_amount) for a in result.awards} == {("A", 30), ("B", 9)}


def test_two_tied_lows_get_a_quarter_each() -> None:
    # C is given the best high (a straight) so A and B only share the low half: 20 high, 19 low → 10 / 9.
    script = edit(QUARTER, "C [9s 9h] 2s", "C [7s 9h] 2s")
    script = edit(edit(script, "7th A [4c], B [4d], C [Th]", "7th A [4c], B [4d], C [8s]"), "C 5d", "C Td")
    script = edit(script, "collect A 30", "collect C 20\ncollect A 10")  # B's 9 stays
    result = replay(build_hand(script), DEFAULT)
    (pot,) = result.pots
    assert pot.high_shares == (("C", 20),), result.hands
    assert pot.low_shares == (("A", 10), ("B", 9))
    assert result.verdict is Verdict.OK, result.violations


def test_build_pots_levels_eligibility_and_folded_money() -> None:
    contributions = {"A": 10, "B": 25, "C": 50, "D": 50, "E": 30}
    pots = build_pots(contributions, ("A", "B", "C", "D"), "ABCDE", {"A", "B"})
    # E folded after putting in 30: his chips stay in the pots he reached, he is eligible for none
    assert pots == [(50, ("A", "B", "C", "D")), (60, ("B", "C", "D")), (55, ("C", "D"))]
    assert sum(amount for amount, _ in pots) == sum(contributions.values())
    # one player left: one pot
    assert build_pots({"A": 5, "B": 9}, ("B",), "AB") == [(14, ("B",))]
    # a live player who missed the ante is not cut out of the pot
    assert build_pots({"A": 40, "B": 41}, ("A", "B"), "AB") == [(81, ("A", "B"))]


def test_rake_allocation_variants() -> None:
    assert allocate(5, [44, 64], "proportional") == [2, 3]  # PokerStars: $0.44 → $0.42, $0.64 → $0.61
    assert allocate(3, [10, 10, 10], "proportional") == [1, 1, 1]
    assert allocate(300, [8510, 1000], "main_pot") == [300, 0]
    assert allocate(5, [44, 64], "last_pot") == [0, 5]
    assert allocate(0, [], "proportional") == []


def test_halves_and_shares_with_a_larger_unit() -> None:
    assert split_halves(75, RuleProfile(unit=5)) == (40, 35)
    assert split_halves(75, RuleProfile(unit=5, odd_unit_hi_lo="low")) == (35, 40)
    assert split_halves(77, RuleProfile(unit=5)) == (42, 35)  # units below the chip stay with the odd half
    assert share(35, ["A", "B"], 5, "one_each") == [("A", 20), ("B", 15)]
    assert share(10, ["A", "B", "C"], 1, "one_each") == [("A", 4), ("B", 3), ("C", 3)]
    assert share(11, ["A", "B", "C"], 1, "first") == [("A", 5), ("B", 3), ("C", 3)]
    assert share(11, ["A", "B", "C"], 1, "one_each") == [("A", 4), ("B", 4), ("C", 3)]
