"""`hhtool equity` run as a user runs it (CliRunner): the table at 80 columns, JSON keys, exact or
sampled, and every bad input as one line with exit code 2."""

from __future__ import annotations

import json

import pytest
from rich.cells import cell_len
from typer.testing import CliRunner

from hhtool.cli import app

runner = CliRunner()
WIDTH = {"COLUMNS": "80", "NO_COLOR": "1"}

#: one card to come for the first player; the second holds queens full: the first wins no high, and
#: a low exactly when his card is one of the 16 fives to eights of the 39 unseen
ONE_CARD = ["As 2d 3h 4c Kd Kh", "Qs Qd Qh Jc Js 9d 9h"]


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["equity", *args], env=WIDTH)
    return result.exit_code, result.output


def test_text_table_fits_80_columns_and_says_exact() -> None:
    code, output = run(*ONE_CARD)
    assert code == 0, output
    lines = output.splitlines()
    assert all(cell_len(line) <= 80 for line in lines)
    assert lines[0].split() == ["player", "cards", "equity", "scoop", "high", "low"]
    # 8/39 = 20.51 %, scoop 0, high 0, low 16/39 = 41.03 %; 31/39 = 79.49 %, scoop 23/39 = 58.97 %
    assert lines[1].split() == ["1", "As", "2d", "3h", "4c", "Kd", "Kh", "20.51", "%", "0.00", "%", "0.00", "%",
                                "41.03", "%"]
    assert lines[2].split() == ["2", "Qs", "Qd", "Qh", "Jc", "Js", "9d", "9h", "79.49", "%", "58.97", "%", "100.00",
                                "%", "0.00", "%"]
    assert lines[3] == "no low: 58.97 %"
    assert lines[-1] == "exact (39 deals)"


def test_json_has_exactly_the_issues_keys() -> None:
    code, output = run(*ONE_CARD, "--format", "json")
    assert code == 0, output
    report = json.loads(output)
    assert set(report) == {"players", "exact", "deals"} and report["exact"] is True and report["deals"] == 39
    first, second = report["players"]
    assert set(first) == set(second) == {"equity", "scoop", "high", "low", "no_low"}
    assert first["equity"] == pytest.approx(8 / 39, abs=1e-12) and second["scoop"] == pytest.approx(23 / 39, abs=1e-12)
    assert first["low"] == pytest.approx(16 / 39, abs=1e-12) and first["no_low"] == pytest.approx(23 / 39, abs=1e-12)


def test_a_big_spot_is_sampled_with_its_margin_and_repeats_for_a_seed() -> None:
    code, output = run("As 2s 3h", "Kd Kc 9s", "7h 8h 9h", "--dead", "7c 8d Qh", "--format", "json")
    assert code == 0, output
    report = json.loads(output)
    assert report["exact"] is False and report["deals"] == 40_000
    assert all(set(player) == {"equity", "scoop", "high", "low", "no_low", "stderr"} for player in report["players"])
    # the default sample gives +-0.5 % at 95 % on any equity
    assert all(1.96 * player["stderr"] <= 0.005 for player in report["players"])
    assert sum(player["equity"] for player in report["players"]) == pytest.approx(1.0)
    assert run("As 2s 3h", "Kd Kc 9s", "7h 8h 9h", "--dead", "7c 8d Qh", "--format", "json")[1] == output
    code, text = run("As 2s 3h", "Kd Kc 9s", "--samples", "2000", "--seed", "4")
    assert code == 0 and text.splitlines()[-1].startswith("\u00b1 ") and text.splitlines()[-1].endswith(
        "% (95 %) over 2,000 samples")
    assert all(cell_len(line) <= 80 for line in text.splitlines())


@pytest.mark.slow
def test_exact_counts_a_spot_past_the_budget() -> None:
    # 35 unseen cards: C(35, 3) * C(32, 2) = 3,246,320 deals, past the 3,000,000 budget
    spot = ["As 2s 3h 5d", "Kd Kc 9s 9h 4c", "--dead", "7c 8d Qh Jc Jd 6s 6h Tc", "--format", "json"]
    assert json.loads(run(*spot)[1])["exact"] is False
    code, output = run(*spot, "--exact")
    assert code == 0, output
    assert json.loads(output)["exact"] is True and json.loads(output)["deals"] == 3_246_320


@pytest.mark.parametrize(("args", "message"), [
    (["As Kd", "As Qd"], "error: As is given twice (player 1 and player 2)"),
    (["As Kd", "Qs Qd", "--dead", "Qd"], "error: Qd is given twice (player 2 and dead)"),
    (["Xx Kd", "Qs Qd"], "error: not a card: 'Xx' (player 1): write rank then suit, e.g. As Td 9c"),
    (["As", "Qs Qd"], "error: player 1 has 1 card: give 2 to 7"),
    (["As Kd Qh Js Tc 9d 8h 7c", "Qs Qd"], "error: player 1 has 8 cards: give 2 to 7"),
    (["As Kd"], "error: need at least 2 players, got 1"),
    (["As Kd", "Qs Qd", "--format", "xml"], "error: --format must be text or json, got 'xml'"),
    (["As Kd", "Qs Qd", "--exact"], "more than the 12,000,000 an exact count can hold: sample it instead"),
    ([f"{r}c {r}d" for r in "23456789TJ"], "more players than the deck can serve"),
    (["As Kd", "Qs Qd", "--samples", "12000001"], "error: --samples must be 1 to 12,000,000, got 12,000,001"),
    (["As Kd", "Qs Qd", "--seed", "-1"], "error: --seed must be 0 or more, got -1"),
    (["As Kd", "Qs Qd", "--samples", "0"], "--samples"),
    (["\x1b[31mAs Kd", "Qs Qd"], "error: not a card: '\\x1b[31mAs' (player 1)"),
])
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    code, output = run(*args)
    assert code == 2, output
    assert len(output.strip().splitlines()) == 1 and message in output and "Traceback" not in output
    assert "\x1b" not in output


def test_help_explains_each_column() -> None:
    result = runner.invoke(app, ["equity", "--help"], env=WIDTH)
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    for column in ("equity, the expected share", "scoop, the chance", "high and low, the chance", "no low, the chance"):
        assert column in text
