"""§7 of issue 18: a named profile for every rulebook the rules document cites — 888poker (S000)
and the Spanish/Romanian text (S003/S004) — each tried through `hhtool audit --rules` on a hand
that breaks it and one that keeps it; `--rules list` names every profile and where it comes from."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.replay import PROFILES, load_profile, replay
from hhtool.replay.profiles import PROFILE_ALIASES, profile_from_mapping
from hhtool.reports.phh_writer import hand_to_phh
from tests.replay_helpers import CLEAN, build_hand, edit, with_stakes

runner = CliRunner()

# C shows Jc Jd (an open pair) on 4th street and bets the big bet there: the Stud-high double bet.
DOUBLE_BET = edit(edit(edit(edit(CLEAN, "C bet 4\nA call\nB call", "C bet 8\nA call\nB call"),
                            "collect C 45", "collect C 51"), "collect B 44", "collect B 50"), "total 91", "total 103")
# the same big bet with no pair showing (Td instead of Jd): no rulebook allows it
DOUBLE_BET_NO_PAIR = edit(DOUBLE_BET, "C Jd", "C Td")
# a bring-in of a quarter of the small bet (Full Tilt's practice), not 888poker's half
QUARTER_BRING_IN = edit(edit(CLEAN, "bring=2", "bring=1"), "A bring 2", "A bring 1")
# fourth raise on 3rd street: one bet and three raises is the cap everywhere here
FIVE_BETS = """
seats A=500 B=500 C=500
antes
3rd A [Kd Qd] 2c, B [Ah 3h] 5s, C [Ks Kh] Jc
A bring 2
B complete 4
C raise 8
A raise 12
B raise 16
C raise 20
A fold
B fold
return C 4
collect C 47
rake 0
"""
# two deuces: by suit B's 2c brings in; by position (the Spanish text) A, nearer the dealer's left
TIE_BY_POSITION = """
seats A=100 B=100
antes
3rd A [Kd Qd] 2h, B [Ks Qs] 2c
A bring 2
B fold
return A 2
collect A 2
rake 0
"""
TIE_BY_SUIT = edit(TIE_BY_POSITION, "A bring 2\nB fold\nreturn A 2\ncollect A 2", "B bring 2\nA fold\nreturn B 2\ncollect B 2")


def audit(tmp_path: Path, script: str, rules: str) -> tuple[int, str]:
    """Import the hand (a PHH export, as any site's hand would be) and audit it under ``rules``."""
    path = tmp_path / "hand.phhs"
    path.write_text(hand_to_phh(build_hand(script, site="pokerstars", hand_id="9"), key="9"), encoding="utf-8")
    db = tmp_path / "s.duckdb"
    db.unlink(missing_ok=True)
    result = runner.invoke(app, ["audit", str(path), "--db", str(db), "--rules", rules, "--format", "jsonl"])
    codes = sorted({line.split('"code": "')[1].split('"')[0] for line in result.output.splitlines() if '"code"' in line})
    return result.exit_code, ",".join(codes)


CASES = [
    # (profile, hand, exit code, codes reported)
    ("888poker", DOUBLE_BET, 0, ""),
    ("888poker", DOUBLE_BET_NO_PAIR, 1, "BET_SIZE"),
    ("888poker", CLEAN, 0, ""),  # b = $0.02 = half the $0.04 small bet
    ("888poker", QUARTER_BRING_IN, 1, "BRING_IN_AMOUNT"),
    ("888poker", FIVE_BETS, 1, "RAISE_CAP"),
    ("spanish", TIE_BY_POSITION, 0, ""),
    ("spanish", TIE_BY_SUIT, 1, "BRING_IN_PLAYER"),
    ("spanish", DOUBLE_BET, 0, ""),
    ("romanian", DOUBLE_BET_NO_PAIR, 1, "BET_SIZE"),
    ("romanian", FIVE_BETS, 1, "RAISE_CAP"),
    # the rules document's defaults judge the same hands the other way
    ("default", DOUBLE_BET, 1, "BET_SIZE"),
    ("default", QUARTER_BRING_IN, 0, ""),
    ("default", TIE_BY_POSITION, 1, "BRING_IN_PLAYER"),
    ("default", TIE_BY_SUIT, 0, ""),
]


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "script", "exit_code", "codes"), CASES)
def test_rulebook_profiles_through_the_audit_command(tmp_path: Path, rules: str, script: str, exit_code: int,
                                                     codes: str) -> None:
    assert audit(tmp_path, script, rules) == (exit_code, codes)


def test_the_bring_in_fraction_is_checked_only_where_a_profile_asserts_it() -> None:
    hand = build_hand(QUARTER_BRING_IN)
    assert [v.message for v in replay(hand, PROFILES["888poker"]).violations] == [
        "the table's bring-in is $0.01; 888poker's rules have it at 1/2 of the $0.04 small bet ($0.02)"]
    assert all(profile.bring_in_fraction is None for name, profile in PROFILES.items() if name != "888poker")
    for bring_in, allowed in ((2, True), (3, True), (1, False)):  # half of a 5-unit small bet: 2 or 3 units
        odd = with_stakes(build_hand(CLEAN), small_bet=5, big_bet=10, bring_in=bring_in)
        fraction = [v for v in replay(odd, PROFILES["888poker"]).violations if "888poker's rules" in v.message]
        assert (fraction == []) is allowed, bring_in
    custom = profile_from_mapping({"base": "default", "bring_in_fraction": [1, 4]})
    assert not [v for v in replay(hand, custom).violations if v.code == "BRING_IN_AMOUNT"]
    with pytest.raises(ValueError, match="bring_in_fraction"):
        profile_from_mapping({"bring_in_fraction": [3, 2]})


def test_rules_list_names_every_profile_and_its_source() -> None:
    result = runner.invoke(app, ["audit", "--rules", "list"])
    assert result.exit_code == 0, result.output
    lines: list[str] = []  # each profile's row, its wrapped source (the lines under it, indented) joined back
    for line in result.output.splitlines():
        if line.startswith(" ") and lines:
            lines[-1] += " " + line.strip()
        else:
            lines.append(line)
    for name, profile in PROFILES.items():
        assert profile.source, name
        assert any(line.split()[0] == name and profile.source in line for line in lines if line.strip()), name
    joined = " ".join(result.output.split())  # (a source wraps under its row at 80 columns)
    assert "(also: romanian)" in joined and "(also: 888)" in joined
    for alias, target in PROFILE_ALIASES.items():
        assert load_profile(alias) is PROFILES[target]
    assert "S000" in next(line for line in lines if line.startswith("888poker"))
    assert "S003/S004" in next(line for line in lines if line.startswith("spanish"))
