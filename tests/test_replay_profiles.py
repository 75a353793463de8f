"""Each rule-profile parameter that changes an outcome, shown on a hand where it does; built-in
profiles and TOML loading."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from hhtool.replay import PROFILES, ReplayResult, RuleProfile, Verdict, load_profile, profile_for_site, replay
from hhtool.replay.profiles import UNSETTLED, _load_unsettled
from tests.replay_helpers import CLEAN, QUARTER, SIDE, build_hand, edit, line_of

DEFAULT = PROFILES["default"]


def codes(result: ReplayResult, *wanted: str) -> list[tuple[str, int | None, str | None, int]]:
    """(code, street, player, line) of the violations with these codes, in line order."""
    return [(v.code, v.street, v.player, v.line) for v in result.violations if v.code in wanted]


def run(script: str, profile: RuleProfile) -> ReplayResult:
    return replay(build_hand(script), profile)


# ---------------------------------------------------------------- R8 raise cap


def _third_street(actions: str, players: str = "A B C") -> str:
    """3rd-street betting only (the hand stops there); A brings in with the 2c."""
    ups = {"A": "[Kd Qd] 2c", "B": "[Ah 3h] 5s", "C": "[Ks Kh] Jc"}
    names = players.split()
    return (
        "\nseats " + " ".join(f"{n}=500" for n in names) + "\nantes\n3rd " + ", ".join(f"{n} {ups[n]}" for n in names)
        + "\n" + actions.strip() + "\n"
    )


HEADS_UP_SIX_BETS = _third_street("""
A bring 2
B complete 4
A raise 8
B raise 12
A raise 16
B raise 20
A raise 24
B call
""", "A B")


def test_heads_up_cap_depends_on_the_profile() -> None:
    fifth, sixth = line_of(HEADS_UP_SIX_BETS, "B raise 20"), line_of(HEADS_UP_SIX_BETS, "A raise 24")
    assert codes(run(HEADS_UP_SIX_BETS, PROFILES["pokerstars"]), "RAISE_CAP") == [
        ("RAISE_CAP", 3, "B", fifth), ("RAISE_CAP", 3, "A", sixth)]
    assert codes(run(HEADS_UP_SIX_BETS, PROFILES["robert"]), "RAISE_CAP") == []  # uncapped heads-up
    assert codes(run(HEADS_UP_SIX_BETS, PROFILES["wsop"]), "RAISE_CAP") == []  # round starts heads-up
    capped_four = replace(DEFAULT, max_raises=4)
    assert codes(run(HEADS_UP_SIX_BETS, capped_four), "RAISE_CAP") == [("RAISE_CAP", 3, "A", sixth)]
    assert codes(run(HEADS_UP_SIX_BETS, replace(DEFAULT, max_raises=None)), "RAISE_CAP") == []


BECOMES_HEADS_UP = _third_street("""
A bring 2
B complete 4
C fold
A raise 8
B raise 12
A raise 16
B raise 20
A raise 24
B call
""")


def test_becoming_heads_up_mid_round() -> None:
    fifth, sixth = line_of(BECOMES_HEADS_UP, "B raise 20"), line_of(BECOMES_HEADS_UP, "A raise 24")
    assert [c[3] for c in codes(run(BECOMES_HEADS_UP, DEFAULT), "RAISE_CAP")] == [fifth, sixth]
    assert codes(run(BECOMES_HEADS_UP, PROFILES["robert"]), "RAISE_CAP") == []  # any_time: uncapped once two are left
    assert [c[3] for c in codes(run(BECOMES_HEADS_UP, PROFILES["wsop"]), "RAISE_CAP")] == [sixth]  # round began 3-handed


def test_any_time_uncap_does_not_lift_a_cap_already_reached() -> None:
    script = _third_street("""
A bring 2
B complete 4
C raise 8
A raise 12
B raise 16
C fold
A raise 20
B call
""")
    assert codes(run(script, PROFILES["robert"]), "RAISE_CAP") == [("RAISE_CAP", 3, "A", line_of(script, "A raise 20"))]


def test_cap_parameters_must_agree() -> None:
    with pytest.raises(ValueError):
        RuleProfile(cap_applies_when="multiway")
    with pytest.raises(ValueError):
        RuleProfile(heads_up_uncap="any_time")
    with pytest.raises(ValueError):
        RuleProfile(reopen_threshold="quarter")


# ---------------------------------------------------------------- R11 short all-ins


def _fifth_street(actions: str, stacks: dict[str, int] | None = None) -> str:
    """Four players check to 5th street, where A (pair of deuces showing) opens; the hand stops there."""
    stacks = {"A": 500, "B": 500, "C": 500, "D": 500, **(stacks or {})}
    return f"""
seats A={stacks["A"]} B={stacks["B"]} C={stacks["C"]} D={stacks["D"]}
antes
3rd A [Kd Qd] 2c, B [Ah 3h] 5s, C [Ks Kh] Jc, D [Qs Js] 9h
A bring 2
B call
C call
D call
4th A 2d, B 9c, C 4d, D Th
A check
B check
C check
D check
5th A Kc, B 6c, C 8h, D 3s
{actions.strip()}
"""


# C has 15 chips at 5th street: ante 1 + 2 on 3rd leaves 12.
HALF_RAISE = _fifth_street("A bet 8\nB call\nC raise 12 allin\nD call\nA raise 20\nB call\nD call", {"C": 15})
SHORT_RAISE = _fifth_street("A bet 8\nB call\nC raise 11 allin\nD call\nA raise 19\nB call\nD call", {"C": 14})


def test_reopen_threshold_half_versus_full() -> None:
    raise_line = line_of(HALF_RAISE, "A raise 20")
    assert codes(run(HALF_RAISE, DEFAULT), "ILLEGAL_ACTION", "BET_SIZE") == []  # +4 of 8 is half: reopens, raise to 12 + 8
    full = replace(DEFAULT, reopen_threshold="full")
    assert codes(run(HALF_RAISE, full), "ILLEGAL_ACTION", "BET_SIZE") == [("ILLEGAL_ACTION", 5, "A", raise_line)]
    assert codes(run(HALF_RAISE, PROFILES["pokerkit"]), "ILLEGAL_ACTION", "BET_SIZE") == [("ILLEGAL_ACTION", 5, "A", raise_line)]
    # +3 is below half: the betting is not reopened for A, who already acted
    assert codes(run(SHORT_RAISE, DEFAULT), "ILLEGAL_ACTION") == [("ILLEGAL_ACTION", 5, "A", line_of(SHORT_RAISE, "A raise 19"))]


def test_raise_after_a_short_all_in_goes_to_the_full_level_or_over_the_all_in() -> None:
    to_full = _fifth_street("A bet 8\nB call\nC raise 11 allin\nD raise 16\nA call\nB call", {"C": 14})
    over = edit(to_full, "D raise 16", "D raise 19")
    assert codes(run(to_full, DEFAULT), "BET_SIZE", "ILLEGAL_ACTION") == []  # D had not acted: completes to 8 + 8
    assert codes(run(over, DEFAULT), "BET_SIZE") == [("BET_SIZE", 5, "D", line_of(over, "D raise 19"))]
    assert codes(run(over, PROFILES["pokerkit"]), "BET_SIZE", "ILLEGAL_ACTION") == []  # PokerKit: all-in 11 + 8
    assert codes(run(to_full, PROFILES["pokerkit"]), "BET_SIZE") == [("BET_SIZE", 5, "D", line_of(to_full, "D raise 16"))]


def test_short_all_in_counts_to_the_cap_only_when_the_profile_says() -> None:
    script = _fifth_street("A bet 8\nB raise 16\nC raise 24\nD raise 27 allin\nA raise 32\nB call\nC call", {"D": 30})
    assert codes(run(script, DEFAULT), "RAISE_CAP", "BET_SIZE", "ILLEGAL_ACTION") == []
    counting = replace(DEFAULT, short_allin_counts_to_cap="always")
    assert codes(run(script, counting), "RAISE_CAP") == [("RAISE_CAP", 5, "A", line_of(script, "A raise 32"))]


# ---------------------------------------------------------------- R3 / R7 bring-in and openers


def test_bring_in_ace_and_razz_mirror() -> None:
    script = edit(CLEAN, "A [Kd Qd] 2c, B [Ah 3h] 5s, C [Ks Kh] Jc", "A [Kd Qd] 2c, B [Ah 3h] As, C [Ks Kh] Jc")
    script = edit(script, "5th A Tc, B 6c, C 8h", "5th A Tc, B 5s, C 8h")  # keep B's low 6-5-4-3-A: swap 6c for 5s
    assert codes(run(script, DEFAULT), "BRING_IN_PLAYER") == []  # ace is high: the 2c brings in
    mirror = replace(DEFAULT, bringin_ace="low")  # razz: the highest card, ace low, brings in
    found = run(script, mirror)
    assert [(v.code, v.expected) for v in found.violations if v.code == "BRING_IN_PLAYER"] == [("BRING_IN_PLAYER", "C")]


def _fourth_street_tie(dealer: str = "") -> str:
    return f"""
seats A=100 B=100 C=100
stakes ante=1 bring=2 small=4 big=8{dealer}
antes
3rd A [Kd Qd] 9c, B [Ah 3h] 9h, C [Ks Kh] 2c
C bring 2
A call
B call
4th A 5d, B 5s, C 7d
A check
B check
C check
"""


def test_opener_tie_by_position_or_by_suit() -> None:
    script = _fourth_street_tie()  # A and B both show 9-5
    assert codes(run(script, DEFAULT), "ACTION_ORDER") == []  # A is first in position
    by_suit = replace(DEFAULT, opener_tie="suit")  # B's 9h beats A's 9c
    assert codes(run(script, by_suit), "ACTION_ORDER") == [("ACTION_ORDER", 4, "A", line_of(script, "A check"))]


def test_first_dealt_seat_follows_the_printed_dealer() -> None:
    script = _fourth_street_tie(" dealer=1")  # dealing starts at seat 2: B is first of the tied boards
    assert [c[2] for c in codes(run(script, DEFAULT), "ACTION_ORDER")] == ["A"]
    assert codes(run(script, replace(DEFAULT, first_dealt_seat="lowest_seat")), "ACTION_ORDER") == []


def test_all_in_best_board_passes_the_opening() -> None:
    # A (pair of kings showing) is all-in; next clockwise is B, but C shows the better of the active boards.
    script = """
seats A=3 B=100 C=100 D=100
antes
3rd A [2d 3d] Kd, B [Ah 3h] 4s, C [Ks Qh] Qc, D [8s 7s] 2c
D bring 2
A call 2 allin
B call
C call
4th A Kc, B 5h, C Qd, D 8c
B check
C check
D check
"""
    assert codes(run(script, DEFAULT), "ACTION_ORDER") == []  # next active clockwise from A is B
    best_active = replace(DEFAULT, allin_opener="best_active")
    assert codes(run(script, best_active), "ACTION_ORDER") == [("ACTION_ORDER", 4, "B", line_of(script, "B check"))]


def _common_card_hand() -> str:
    names = "ABCDEFGH"
    downs = ["2c 3c", "4c 5c", "6c 7c", "8c 9c", "Tc Jc", "Qc Kc", "Ac Ad", "Ah As"]
    ups = [["Kd", "Qd", "Jd", "Td"], ["5d", "5h", "3d", "2d"], ["4d", "6d", "7d", "8d"], ["4h", "6h", "7h", "8h"],
           ["4s", "6s", "7s", "8s"], ["2h", "3h", "9h", "Th"], ["2s", "3s", "9s", "Ts"], ["9d", "Jh", "Qh", "Kh"]]
    lines = ["seats " + " ".join(f"{n}=100" for n in names), "stakes ante=0 bring=2 small=4 big=8"]
    lines.append("3rd " + ", ".join(f"{n} [{downs[i]}] {ups[i][0]}" for i, n in enumerate(names)))
    lines += ["F bring 2"] + [f"{n} call" for n in "GHABCDE"]
    for street, index in (("4th", 1), ("5th", 2), ("6th", 3)):
        lines.append(f"{street} " + ", ".join(f"{n} {ups[i][index]}" for i, n in enumerate(names)))
        lines += [f"{n} check" for n in "BCDEFGHA"]  # B's pair of fives shows first
    lines += ["street 7th", "community Ks"] + [f"{n} check" for n in "ABCDEFGH"]  # with the Ks A shows kings
    return "\n".join(lines) + "\n"


def test_common_card_counts_for_the_seventh_street_opener() -> None:
    script = _common_card_hand()
    assert codes(run(script, DEFAULT), "ACTION_ORDER", "CARDS") == []
    exclude = replace(DEFAULT, common_card_opener="exclude")
    found = codes(run(script, exclude), "ACTION_ORDER")
    assert found[0][:3] == ("ACTION_ORDER", 7, "A")


def test_exposed_seventh_card_opener() -> None:
    script = """
seats A=100 B=100
antes
3rd A [Kd Qd] 3c, B [Ah 3h] 2c
B bring 2
A call
4th A 9d, B 9c
A check
B check
5th A 7d, B 7c
A check
B check
6th A 5d, B 5c
A check
B check
7th A [] 4d, B [] 9h
A check
B check
"""
    assert codes(run(script, DEFAULT), "ACTION_ORDER") == []  # 6th-street boards: A's 9-7-5-3 tops 9-7-5-2
    all_up = replace(DEFAULT, exposed_7th_opener="all_upcards")  # B's exposed 9h pairs his board
    assert codes(run(script, all_up), "ACTION_ORDER")[0][:3] == ("ACTION_ORDER", 7, "A")


# ---------------------------------------------------------------- R14 / R15 / R13 splitting


def test_odd_unit_of_a_tied_half() -> None:
    site_paid = {row.player: row.site_amount for row in run(QUARTER, DEFAULT).awards}
    assert site_paid == {"A": 30, "B": 9}
    for profile, expected in ((DEFAULT, {"A": 30, "B": 9}), (PROFILES["pokerkit"], {"A": 30, "B": 9}),
                              (PROFILES["robert"], {"A": 29, "B": 10})):
        rules = {row.player: row.rules_amount for row in run(QUARTER, profile).awards}
        assert rules == expected, profile.name
    assert run(QUARTER, PROFILES["robert"]).codes == ("POT_AWARD", "POT_AWARD")  # B holds the lowest card, the A♦


def test_tie_order_by_position_differs_from_suit() -> None:
    # swap the sixes: B's 6s now outranks A's 6c, so by suit B gets the odd unit, by position A does
    script = edit(edit(QUARTER, "A [Kc Ks] 6s, B [8c 9c] 6c", "A [Kc Ks] 6c, B [8c 9c] 6s"), "collect A 30\ncollect B 9",
                  "collect A 29\ncollect B 10")
    assert run(script, DEFAULT).verdict is Verdict.OK
    by_position = {row.player: row.rules_amount for row in run(script, replace(DEFAULT, odd_unit_tied_half="position")).awards}
    assert by_position == {"A": 30, "B": 9}


def test_rake_allocation_changes_the_side_pot() -> None:
    assert run(SIDE, DEFAULT).verdict is Verdict.OK
    last = run(SIDE, replace(DEFAULT, rake_allocation="last_pot"))
    assert {row.player: row.rules_amount for row in last.awards} == {"A": 30, "B": 16, "C": 47}


def test_low_half_exists_pot_or_hand() -> None:
    script = edit(SIDE, "7th A [Qc], B [4s], C [3c]", "7th A [Qc], B [Qs], C [3c]")  # no low in the side pot
    script = edit(script, "collect C 17 pot=1\ncollect B 17 pot=1", "collect C 34 pot=1")
    assert run(script, DEFAULT).verdict is Verdict.OK
    hand_wide = replace(DEFAULT, low_half_exists="hand")  # PokerKit: A's low makes every pot split
    side = run(script, hand_wide).pots[1]
    assert (side.high_shares, side.low_shares) == ((("C", 17),), (("B", 9), ("C", 8)))


def test_uncalled_bet_inside_the_awards() -> None:
    script = edit(edit(CLEAN, "B bet 8\nC call\nshow B\nshow C", "B bet 8\nC fold\nnoshow B"), "collect C 45\ncollect B 44",
                  "collect B 81")
    script = edit(script, "total 91", "total 83")
    assert run(script, PROFILES["winamax"]).verdict is Verdict.OK
    assert {v.code for v in run(script, DEFAULT).violations} == {"UNCALLED_BET", "POT_AWARD"}


def test_deck_burns_make_seven_players_need_a_common_card() -> None:
    names = "ABCDEFG"
    ups = ["2c 3c 4c 5c", "2d 3d 4d 5d", "2h 3h 4h 5h", "2s 3s 4s 5s", "6c 7c 8c 9c", "6d 7d 8d 9d", "6h 7h 8h 9h"]
    downs = ["Tc Jc", "Td Jd", "Th Jh", "Ts Js", "Qc Kc", "Qd Kd", "Qh Kh"]
    lines = ["seats " + " ".join(f"{n}=100" for n in names), "stakes ante=0 bring=2 small=4 big=8"]
    lines.append("3rd " + ", ".join(f"{n} [{downs[i]}] {ups[i].split()[0]}" for i, n in enumerate(names)))
    lines += ["A bring 2"] + [f"{n} call" for n in names[1:]]
    for street, index in (("4th", 1), ("5th", 2), ("6th", 3)):
        lines.append(f"{street} " + ", ".join(f"{n} {ups[i].split()[index]}" for i, n in enumerate(names)))
        lines += [f"{n} check" for n in "EFGABCD"]
    lines.append("7th " + ", ".join(f"{n} [{c}]" for n, c in zip(names, ["Ac", "Ad", "Ah", "As", "Qs", "Ks", "6s"], strict=True)))
    lines += [f"{n} check" for n in "EFGABCD"]
    script = "\n".join(lines) + "\n"
    assert codes(run(script, DEFAULT), "CARDS") == []  # 49 cards online
    assert [c[:3] for c in codes(run(script, PROFILES["wsop"]), "CARDS")] == [("CARDS", 7, None)]  # + 5 burns = 54


# ---------------------------------------------------------------- built-ins and TOML


def test_builtin_profiles() -> None:
    for site in ("pokerstars", "fulltilt", "partypoker", "bovada", "ipoker", "merge", "ongame", "absolute", "kingsclub",
                 "winamax", "winning", "everleaf"):
        # the recorded profile itself: a site without one gets the rulebook defaults under the site's name
        assert profile_for_site(site) is PROFILES[site], site
    assert profile_for_site("Stars") is PROFILES["pokerstars"] and profile_for_site("ACR") is PROFILES["winning"]
    for name in ("robert", "wsop", "pokerkit"):
        assert load_profile(name) is PROFILES[name]
    unknown = profile_for_site("SomeNewSite")
    assert unknown.name not in PROFILES and unknown.max_raises == DEFAULT.max_raises == 3
    assert PROFILES["winning"].odd_unit_hi_lo == "low" and PROFILES["winamax"].uncalled_in_awards
    assert "max_raises = 3" in DEFAULT.describe()


def test_load_profile_from_toml(tmp_path: Path) -> None:
    path = tmp_path / "club.toml"
    path.write_text('[profile]\nbase = "wsop"\nmax_raises = "none"\nodd_unit_hi_lo = "low"\nunit = 25\n', encoding="utf-8")
    profile = load_profile(str(path))
    assert (profile.name, profile.max_raises, profile.odd_unit_hi_lo, profile.unit, profile.deck_burns) == (
        "club", None, "low", 25, True)
    assert codes(run(HEADS_UP_SIX_BETS, profile), "RAISE_CAP") == []
    bad = tmp_path / "bad.toml"
    bad.write_text('max_raises = 3\nflavour = "vanilla"\n', encoding="utf-8")
    with pytest.raises(ValueError, match="flavour"):
        load_profile(str(bad))
    bad.write_text('odd_unit_hi_lo = "middle"\n', encoding="utf-8")
    with pytest.raises(ValueError, match="odd_unit_hi_lo"):
        load_profile(str(bad))
    bad.write_text("deck_burns = 1\n", encoding="utf-8")
    with pytest.raises(ValueError, match="deck_burns"):
        load_profile(str(bad))
    with pytest.raises(ValueError, match="no profile named"):
        load_profile("no-such-profile")


# ---------------------------------------------------------------- PokerKit's readings


def test_short_bring_in_is_called_for_the_bring_in_or_the_all_in() -> None:
    script = """
seats A=2 B=100 C=100
antes
3rd A [Kd Qd] 2c, B [Ah 3h] 5s, C [Ks Kh] Jc
A bring 1 allin
B call 1
C call 1
"""
    calls = [line_of(script, "B call 1"), line_of(script, "C call 1")]
    assert [c[3] for c in codes(run(script, DEFAULT), "BET_SIZE")] == calls  # WSOP-LA 217: enter for the full 2
    assert codes(run(script, replace(DEFAULT, short_bring_in="all_in")), "BET_SIZE") == []


def test_short_first_bet_reopens_when_measured_against_the_largest_increase() -> None:
    script = _fifth_street("A check\nB check\nC bet 3 allin\nD call\nA raise 11\nB call\nD call", {"C": 6})
    assert codes(run(script, DEFAULT), "ILLEGAL_ACTION") == [("ILLEGAL_ACTION", 5, "A", line_of(script, "A raise 11"))]
    largest = replace(DEFAULT, reopen_reference="largest_increase", raise_after_short_allin="over_all_in")
    assert codes(run(script, largest), "ILLEGAL_ACTION", "BET_SIZE") == []


def test_pots_formed_at_showdown_merge_a_losing_all_in_pot() -> None:
    script = edit(SIDE, "5th A 6h", "5th A 9h")  # A has no low now and wins nothing
    script = edit(script, "collect C 17 pot=1\ncollect B 17 pot=1\ncollect C 30\ncollect A 29",
                  "collect C 17 pot=1\ncollect B 16 pot=1\ncollect C 30\ncollect B 29")
    script = edit(script, "rake 1", "rake 2")  # main 60 - 1 → 30 / 29, side 34 - 1 → 17 / 16
    assert run(script, DEFAULT).verdict is Verdict.OK
    merged = run(script, replace(DEFAULT, pots_formed_at="showdown"))  # one pot of 94 - 2 → 46 / 46
    assert [pot.amount for pot in merged.pots] == [94]
    assert {row.player: row.rules_amount for row in merged.awards} == {"B": 46, "C": 46}


def test_unsettled_readings_file_is_checked_against_the_profile_parameters(tmp_path: Path) -> None:
    """unsettled.toml's readings must set parameters a profile has, to values it allows; the file as
    shipped loads in its order."""
    shipped = Path(__file__).parent.parent / "hhtool" / "replay" / "unsettled.toml"
    assert list(_load_unsettled(shipped)) == list(UNSETTLED) and "opener_tie" in UNSETTLED
    rule = 'what = "w"\nwhy_open = "y"\nreadings = [{{ label = "l", source = "s", values = {{ {values} }} }}]\n'
    for values in ('opener_tie = "seat"', 'no_such_rule = "x"', 'notes = "x"'):
        bad = tmp_path / "unsettled.toml"
        bad.write_text("[opener_tie]\n" + rule.format(values=values), encoding="utf-8")
        with pytest.raises(ValueError, match="which no profile allows"):
            _load_unsettled(bad)
    good = tmp_path / "good.toml"
    good.write_text("[opener_tie]\n" + rule.format(values='opener_tie = "suit"'), encoding="utf-8")
    assert _load_unsettled(good)["opener_tie"].readings[0].values == (("opener_tie", "suit"),)
