"""docs/equity.md's worked examples, run: each `console` block's command prints exactly what the
block shows; each `ev` block's expected winnings are what the replay's own pot rules award, averaged
over the spot's deals (hhtool.replay.pots: split_halves, share, tie_order)."""

from __future__ import annotations

import re
import shlex
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.equity.deals import deal_values
from hhtool.evaluation import cards
from hhtool.replay.pots import evaluate, share, split_halves, tie_order
from hhtool.replay.profiles import RuleProfile

DOC = Path(__file__).resolve().parents[1] / "docs" / "equity.md"
BLOCK = re.compile(r"^```(console|ev)\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def blocks(kind: str) -> list[str]:
    return [body for found, body in BLOCK.findall(DOC.read_text(encoding="utf-8")) if found == kind]


def command_of(line: str) -> list[str]:
    assert line.startswith("$ hhtool "), line
    return shlex.split(line.removeprefix("$ hhtool "))


def test_the_doc_has_its_examples() -> None:
    assert len(blocks("console")) >= 4 and len(blocks("ev")) >= 2


@pytest.mark.parametrize("body", blocks("console"))
def test_each_console_example_prints_what_it_shows(body: str) -> None:
    first, *shown = body.rstrip("\n").split("\n")
    result = CliRunner().invoke(app, command_of(first), env={"COLUMNS": "80", "NO_COLOR": "1"})
    assert result.exit_code == 0, result.output
    assert result.output.rstrip("\n").split("\n") == shown


def award(hands: list[tuple], pots: list[tuple[int, list[int]]], profile: RuleProfile) -> list[int]:
    """Whole units each player takes from each pot of one deal, as the replay splits a showdown."""
    names = [str(number) for number in range(1, len(hands) + 1)]
    seen = dict(zip(names, hands, strict=True))
    showdown = evaluate(seen, names)
    won = dict.fromkeys(names, 0)
    for amount, eligible in pots:
        players = [str(number) for number in eligible]
        best_high = max(showdown[p].high.value for p in players)  # type: ignore[union-attr]
        high_winners = [p for p in players if showdown[p].high.value == best_high]  # type: ignore[union-attr]
        lows = {p: showdown[p].low.value for p in players if showdown[p].low is not None}  # type: ignore[union-attr]
        halves = [("high", high_winners, amount)]
        if lows:
            high_half, low_half = split_halves(amount, profile)
            best_low = max(lows.values())
            halves = [("high", high_winners, high_half), ("low", [p for p in lows if lows[p] == best_low], low_half)]
        for half, winners, units in halves:
            ordered, _ = tie_order(winners, half, showdown, seen, names, profile)
            for player, taken in share(units, ordered, profile.unit, "one_each"):
                won[player] += taken
    return [won[name] for name in names]


@pytest.mark.parametrize("body", blocks("ev"))
def test_each_ev_example_is_what_the_rules_award(body: str) -> None:
    first, *rest = body.rstrip("\n").split("\n")
    arguments = command_of(first)[1:]
    dead = arguments[arguments.index("--dead") + 1] if "--dead" in arguments else ""
    players = [argument for argument in arguments if not argument.startswith("--") and argument != dead]
    pots = [(int(match[1]), [int(p) for p in match[2].split()])
            for line in rest if (match := re.fullmatch(r"pot (\d+): players ([\d ]+)", line))]
    expected = [Fraction(value) for value in next(
        line for line in rest if line.startswith("expected winnings: ")).split(": ")[1].split()]
    values = deal_values([cards(text) for text in players], cards(dead))
    assert values.exact and pots
    total = [Fraction(0)] * len(players)
    for hands in values.cards_of(range(values.deals)):
        for player, won in enumerate(award(hands, pots, RuleProfile())):
            total[player] += won
    assert [won / values.deals for won in total] == expected
    assert sum(expected) == sum(amount for amount, _ in pots)
