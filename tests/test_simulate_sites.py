"""The simulator in other sites' formats: Full Tilt text and PHH. Each writer's hands are read back by
the real site parser and replayed under the profile the import pipeline would pick
(``hand.origin_site or hand.site``): clean hands must replay without a violation and balance, and
every fault kind must come back as the violation the sidecar names (plus only the companions
tests/test_simulate.py allows)."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from hhtool.ingest.reader import read_file
from hhtool.model import Hand, ShowStatus
from hhtool.replay import profile_for_site, replay
from hhtool.replay.profiles import RuleProfile
from hhtool.simulate import FAULT_CODES, TableConfig, generate_hands, sidecar_path, simulate_to_file
from hhtool.simulate.policy import CallDownPolicy, SimplePolicy
from hhtool.simulate.writers import WRITERS
from hhtool.simulate.writers.fulltilt import WRITER as FULLTILT
from hhtool.sites import parser_for
from tests.inputs import SAMPLES, require_corpus
from tests.test_simulate import BY_TABLE_CONTEXT, faults_found, parse_file

SITES = ("fulltilt", "phh")
# Fault kinds a format has no place for, with the reason. Full Tilt text states every number the
# faults change; so does a PHH file hhtool writes: the statements PHH has no field for (totals,
# returns, awards, off-notation actions, the stated pots and the restated card lists and "won"
# amounts) travel in its _hhtool_* fields and are checked on re-import as the original was.
NOT_EXPRESSIBLE: dict[str, dict[str, str]] = {"fulltilt": {}, "phh": {}}


def site_config(site: str, **changes: object) -> TableConfig:
    """A table dealt as the site's replay profile says (Full Tilt rakes the main pot only)."""
    return TableConfig(site=site, rake_allocation=profile_for_site(site).rake_allocation, **changes)  # type: ignore[arg-type]


def simulated_id(hand: Hand) -> str:
    """The simulator's hand id: PHH exports read back as ``<site>:<id>``."""
    return hand.hand_id.rpartition(":")[2]


def pipeline_profile(hand: Hand) -> RuleProfile:
    return profile_for_site(hand.origin_site or hand.site)


# ------------------------------------------------------------------ clean hands


@pytest.mark.slow
@pytest.mark.parametrize("site", SITES)
def test_clean_hands_read_back_replay_clean_and_balance(tmp_path: Path, site: str) -> None:
    out = tmp_path / f"clean.{site}"
    config = site_config(site, seed=50)
    count = 300
    stats = simulate_to_file(out, config, SimplePolicy(), count)
    hands = parse_file(out, site)
    assert len(hands) == stats.hands == count
    for situation in ("all_in", "side_pot", "split", "no_low", "uncontested", "mucked"):
        assert stats.features[situation] > 0, situation
    for simulated, hand in zip(generate_hands(config, SimplePolicy(), count), hands, strict=True):
        model = simulated.hand
        assert simulated_id(hand) == model.hand_id
        violations = replay(hand, pipeline_profile(hand)).violations
        assert not violations, [v.message for v in violations]
        put_in = sum(hand.contributed_by(player) for player in hand.players)
        assert hand.total_pot == put_in == model.total_pot
        assert sum(a.amount for a in hand.awards) + (hand.rake or 0) == put_in
        assert [(a.street, a.player, a.kind, a.amount, a.to_amount, a.all_in) for a in hand.actions] == [
            (a.street, a.player, a.kind, a.amount, a.to_amount, a.all_in) for a in model.actions
        ]
        assert [(a.player, a.amount, a.pot, a.half) for a in hand.awards] == [
            (a.player, a.amount, a.pot, a.half) for a in model.awards
        ]
        assert [(u.street, u.player, u.amount) for u in hand.uncalled] == [(u.street, u.player, u.amount) for u in model.uncalled]


def test_phh_hands_come_back_from_the_simulator_site() -> None:
    """The profile the pipeline picks for a simulated PHH hand is the origin site's (``phh``)."""
    hands = list(generate_hands(site_config("phh", seed=2), SimplePolicy(), 5))
    text = "".join(WRITERS["phh"].write(h) for h in hands)
    parser = parser_for("phh")
    lines = tuple(text.rstrip("\n").split("\n"))
    parsed = [parser.parse(raw) for raw in parser.split(lines, "sim.phhs")]
    assert [h.origin_site for h in parsed if isinstance(h, Hand)] == ["phh"] * 5
    assert [simulated_id(h) for h in parsed if isinstance(h, Hand)] == [h.hand.hand_id for h in hands]


def test_fulltilt_eight_players_share_a_community_card(tmp_path: Path) -> None:
    out = tmp_path / "eight.txt"
    config = site_config("fulltilt", min_players=8, max_players=8, seed=4)
    simulate_to_file(out, config, CallDownPolicy(), 20)
    for simulated, hand in zip(generate_hands(config, CallDownPolicy(), 20), parse_file(out, "fulltilt"), strict=True):
        assert simulated.hand.community_card is not None and hand.community_card == simulated.hand.community_card
        assert not replay(hand, profile_for_site("fulltilt")).violations
        for shown in (s for s in hand.showdown if s.status is ShowStatus.SHOWN):
            assert len(shown.cards) == 6


def test_fulltilt_rake_comes_from_the_main_pot(tmp_path: Path) -> None:
    """With side pots the rake allocation can change what players collect: hands dealt as Full Tilt
    rakes replay clean under its profile, the same deals raked proportionally (as PokerStars) do not."""
    main_config = site_config("fulltilt", seed=60, min_players=5)
    proportional = TableConfig(site="fulltilt", seed=60, min_players=5, rake_allocation="proportional")
    assert main_config.rake_allocation == "main_pot"
    profile = profile_for_site("fulltilt")
    differing = 0
    for ours, theirs in zip(generate_hands(main_config, SimplePolicy(), 300), generate_hands(proportional, SimplePolicy(), 300),
                            strict=True):
        if all(ours.hand.collected_by(p) == theirs.hand.collected_by(p) for p in ours.hand.players):
            continue  # the same money to each player: the audit, which checks what each collects, cannot tell
        differing += 1
        assert len(ours.pot_amounts) > 1 and ours.pot_rakes[0] == ours.hand.rake
        summary = next(line for line in FULLTILT.lines(ours) if line.startswith("Total pot "))
        stated = [int(Decimal(m) * 100) for m in re.findall(r"(?:Main|Side) pot(?: #\d)? \$(\d+\.\d\d|\d+)\.", summary)]
        assert sum(stated) == ours.hand.total_pot and stated[1:] == list(ours.pot_amounts[1:])
        assert not replay(_read_one(FULLTILT.lines(ours)), profile).violations
        assert replay(_read_one(FULLTILT.lines(theirs)), profile).violations
    assert differing >= 3


def _read_one(lines: list[str]) -> Hand:
    parser = parser_for("fulltilt")
    (raw,) = list(parser.split(lines, "one.txt"))
    outcome = parser.parse(raw)
    assert isinstance(outcome, Hand), getattr(outcome, "reason", outcome)
    return outcome


# ------------------------------------------------------------------ faults


@pytest.mark.slow
@pytest.mark.parametrize("site", SITES)
def test_fault_round_trip(tmp_path: Path, site: str) -> None:
    out = tmp_path / f"faulty.{site}"
    kinds = [kind for kind in FAULT_CODES if kind not in NOT_EXPRESSIBLE[site] and kind not in BY_TABLE_CONTEXT[site]]
    simulate_to_file(out, site_config(site, seed=41), SimplePolicy(), 10 * len(kinds), 1.0, kinds)
    sidecar = json.loads(sidecar_path(out).read_text(encoding="utf-8"))
    hands = parse_file(out, site)
    assert len(hands) == 10 * len(kinds)
    found = faults_found(hands, sidecar, simulated_id, lambda hand: replay(hand, pipeline_profile(hand)).violations)
    assert set(found) == set(kinds)


# ------------------------------------------------------------------ the Full Tilt text


def _shapes(lines: tuple[str, ...] | list[str]) -> set[str]:
    names = {m.group(1) for line in lines if (m := re.match(r"Seat \d+: (.+?) \(\$[\d.,]+\)", line))}
    shapes = set()
    for line in lines:
        if not line or line.startswith("Full Tilt Poker Game #"):
            continue
        shape = line
        for name in sorted(names, key=len, reverse=True):
            shape = shape.replace(name, "<P>")
        shape = re.sub(r"\[[^\]]*\]", "[<C>]", shape)
        shape = re.sub(r"Seat \d+", "Seat <N>", shape)
        shape = re.sub(r"\$\d+(,\d{3})*(\.\d+)?", "<M>", shape)
        shape = re.sub(r" (with|-) .*$", r" \1 <D>", shape)
        shape = re.sub(r"\] .*, for high.*$", "] <D>", shape)
        shapes.add(shape)
    return shapes


def _stud8_lines(path: Path) -> list[str]:
    parser = parser_for("fulltilt")
    lines: list[str] = []
    for raw in parser.split(read_file(path).lines, str(path)):
        if "Stud H/L" in raw.lines[0]:
            lines.extend(raw.lines)
    return lines


@pytest.mark.slow
def test_every_fulltilt_line_has_a_real_shape(tmp_path: Path) -> None:
    """Each generated line but the header, names, cards, amounts and hand descriptions abstracted,
    is a shape of the real Full Tilt Stud H/L histories or one of the situations they lack."""
    samples = [*sorted(require_corpus("FullTilt").glob("*.txt")), *sorted((SAMPLES / "fulltilt").glob("*.txt"))]
    real: set[str] = set()
    for path in samples:
        real |= _shapes(_stud8_lines(path))
    out = tmp_path / "hands.txt"
    simulate_to_file(out, site_config("fulltilt", seed=4), SimplePolicy(), 1500)
    generated = _shapes(_stud8_lines(out))
    not_in_samples = {  # all-in suffixes, ties, the deck-exhaustion card and numbered side pots
        "<P> brings in for <M>, and is all in", "<P> completes it to <M>, and is all in", "<P> bets <M>, and is all in",
        "<P> raises to <M>, and is all in", "<P> antes <M>, and is all in", "Board: [<C>]",
    }
    numbered = re.compile(r"<P> (wins|ties for) the ((high|low) )?(main |side )?pot( #\d)? \(<M>\)( with <D>)?"
                          r"|Total pot <M> Main pot <M>\.( Side pot( #\d)? <M>\.)+ \| Rake <M>"
                          r"|Seat <N>: <P> folded on [4-7]th St\.")
    unexplained = {s for s in generated - real - not_in_samples if not numbered.fullmatch(s)}
    assert not unexplained, sorted(unexplained)
    assert {"<P> raises to <M>", "<P> completes it to <M>", "Uncalled bet of <M> returned to <P>",
            "<P> is low with <D>"} <= generated & real


# ------------------------------------------------------------------ command line


@pytest.mark.parametrize("site", SITES)
def test_command_line_site_option(tmp_path: Path, site: str) -> None:
    from hhtool.cli.simulate_cmd import register

    app = typer.Typer()
    register(app)

    @app.callback()
    def main() -> None:  # a group, so the command is addressed by name as in hhtool
        pass

    out = tmp_path / f"cli.{site}"
    result = CliRunner().invoke(app, ["simulate", "--hands", "30", "--seed", "3", "--site", site.upper(), "--faults", "0.3",
                                      "--out", str(out)])
    assert result.exit_code == 0, result.output
    hands = parse_file(out, site)
    sidecar = json.loads(sidecar_path(out).read_text(encoding="utf-8"))
    assert len(hands) == 30 and sidecar
    assert {simulated_id(h) for h in hands} >= set(sidecar)
