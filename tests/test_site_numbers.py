"""Numbers a history cannot mean (issue #13): a letter inside an amount is a parse failure with its
line on every site, never a dropped character; an amount of 2^63 units or more and a seat, table
size or side-pot number above 2^31 fail their own hand with a reason, and the neighbour hands are
stored. The legal counterparts (the same hands unaltered, the largest numbers the store holds) parse."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.ingest.reader import read_file
from hhtool.model import FailedHand, Hand
from hhtool.sites import detect
from hhtool.sites.kit.base import MAX_AMOUNT, HandParseError, parse_money
from tests.site_helpers import SAMPLES, parse_lines

TEXT_SAMPLES = sorted(path for path in SAMPLES.rglob("*.txt"))
_CALL_AMOUNT = re.compile(r"(?i)\bcalls?\b.*\d")


@pytest.mark.parametrize("path", TEXT_SAMPLES, ids=lambda path: f"{path.parent.name}/{path.name[:24]}")
def test_a_letter_inside_an_amount_fails_the_hand_at_its_line(path: Path) -> None:
    lines = list(read_file(path).lines)
    parser = detect(lines)
    assert parser is not None
    legal = parse_lines(parser, lines, str(path))
    assert legal and all(isinstance(outcome, Hand) for outcome in legal), legal
    index = next(index for index, line in enumerate(lines) if _CALL_AMOUNT.search(line))
    digit = max(position for position, char in enumerate(lines[index]) if char.isdigit())
    lines[index] = lines[index][:digit] + "O" + lines[index][digit:]  # "$0.08" -> "$0.0O8"
    outcomes = parse_lines(parser, lines, str(path))
    failed = [outcome for outcome in outcomes if isinstance(outcome, FailedHand)]
    assert len(outcomes) == len(legal) and len(failed) == 1, (lines[index], failed)
    assert failed[0].line == index + 1, (lines[index], failed[0].line, failed[0].reason)


@pytest.mark.parametrize("text", ["$0.0O8", "1O", "$1,0000", "1.2.3", "$", "12 34", "٣", "1_000", "$5 $6", "5 USDX"])
def test_money_refuses_what_is_not_an_amount(text: str) -> None:
    with pytest.raises(HandParseError):
        parse_money(text, 100)


@pytest.mark.parametrize(("text", "cents"), [("$2.50", 250), ("$1,234.50", 123450), ("€ 2", 200), ("2,50 ", None),
                                             ("1'000", 100000), ("$0.08 USD", 8), ("-$1", -100), ("+0.5", 50)])
def test_money_reads_the_legal_forms(text: str, cents: int | None) -> None:
    if cents is None:  # a decimal comma is not a thousands separator: refused rather than read as 250
        with pytest.raises(HandParseError):
            parse_money(text, 100)
    else:
        assert parse_money(text, 100) == cents


_STARS = SAMPLES / "pokerstars" / "handwritten-scoop-and-side-pot.txt"
TOO_BIG = f"${(MAX_AMOUNT + 1) // 100}.{(MAX_AMOUNT + 1) % 100:02d}"  # 2^63 cents
BIG_SEAT = str(2**31 + 1)


def _stars_hands() -> list[str]:
    text = _STARS.read_text(encoding="utf-8").strip("\n")
    return [block.strip("\n") for block in re.split(r"\n{2,}(?=PokerStars )", text)]


def _broken(kind: str, hand: str) -> str:
    if kind == "amount":  # a stack of 2^63 cents
        return re.sub(r"(Seat 1: [^(]+\()\$[\d.]+", rf"\g<1>{TOO_BIG}", hand, count=1)
    if kind == "seat":
        return re.sub(r"\bSeat 1\b", f"Seat {BIG_SEAT}", hand)
    if kind == "table size":
        return re.sub(r"(\d+)-max", f"{BIG_SEAT}-max", hand, count=1)
    assert kind == "side pot"
    return hand.replace("from side pot", f"from side pot-{BIG_SEAT}")


@pytest.mark.parametrize("kind", ["amount", "seat", "table size", "side pot"])
def test_an_out_of_range_number_fails_its_hand_and_the_neighbours_are_stored(kind: str, tmp_path: Path) -> None:
    hands = _stars_hands()
    assert len(hands) == 2
    target = 1 if kind == "side pot" else 0  # the side pots are in the second hand
    broken = _broken(kind, hands[target])
    assert broken != hands[target]
    # the neighbours: the other sample hand before and after, under other hand ids
    before = re.sub(r"#(\d+)", r"#1\1", hands[1 - target], count=1)
    after = re.sub(r"#(\d+)", r"#2\1", hands[1 - target], count=1)
    path = tmp_path / "hands.txt"
    path.write_text("\n\n\n".join([before, broken, after]) + "\n", encoding="utf-8")
    outcomes = parse_lines(detect(read_file(path).lines), read_file(path).lines, str(path))  # type: ignore[arg-type]
    assert [type(outcome).__name__ for outcome in outcomes] == ["Hand", "FailedHand", "Hand"]
    failed = outcomes[1]
    assert isinstance(failed, FailedHand) and "out of range" in failed.reason, failed
    result = CliRunner().invoke(app, ["import", "--db", str(tmp_path / "s.duckdb"), str(path)])
    assert result.exit_code == 1, result.output
    assert "2 stored" in result.output and "1 failed" in result.output, result.output
    assert "out of range" in result.output, result.output


def test_the_largest_numbers_the_store_holds_are_stored(tmp_path: Path) -> None:
    """The legal counterpart: a stack of 2^63 - 1 units less what the hand moves, seat 2^31 - 1."""
    hand = _stars_hands()[0]
    hand = re.sub(r"(Seat 1: [^(]+\()\$[\d.]+", rf"\g<1>${(MAX_AMOUNT - 10**6) // 100}", hand, count=1)
    hand = re.sub(r"\bSeat 1\b", f"Seat {2**31 - 1}", hand)
    path = tmp_path / "big.txt"
    path.write_text(hand + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["import", "--db", str(tmp_path / "s.duckdb"), str(path)])
    assert result.exit_code == 0, result.output
    assert "1 stored" in result.output, result.output


def test_digits_of_other_scripts_are_not_numbers() -> None:
    """Line patterns are ASCII: 'Seat ٣' is not seat 3 (int() would have read it so)."""
    hand = _stars_hands()[0]
    outcomes = parse_lines(detect(hand.split("\n")), hand.replace("Seat 1: ", "Seat \u0663: ").split("\n"))  # type: ignore[arg-type]
    assert [type(outcome).__name__ for outcome in outcomes] == ["FailedHand"], outcomes
    assert [type(outcome).__name__ for outcome in parse_lines(detect(hand.split("\n")), hand.split("\n"))] == ["Hand"]  # type: ignore[arg-type]
