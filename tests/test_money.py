"""The one money formatter (hhtool.money): exact integer arithmetic, one symbol table, and no second
copy of the formatting elsewhere in hhtool."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hhtool.money import format_money, site_amount

HHTOOL = Path(__file__).resolve().parent.parent / "hhtool"


@pytest.mark.parametrize(("amount", "unit", "currency", "text"), [
    (8, 100, "USD", "$0.08"),
    (-1250, 100, "EUR", "-€12.50"),
    (100, 100, "GBP", "£1.00"),
    (250, 100, "CAD", "C$2.50"),
    (1250, 100, "PLAY", "12.50 PLAY"),
    (400, 1, "CHIPS", "400"),
    (-400, 1, "USD", "-400"),
    (5, 1000, "USD", "$0.005"),
    (-1234, 100, None, "-12.34"),
    (0, 100, "USD", "$0.00"),
])
def test_format_money(amount: int, unit: int, currency: str | None, text: str) -> None:
    assert format_money(amount, unit, currency) == text


def test_format_money_is_exact_beyond_float_precision() -> None:
    # 2**60 + 1 cents is not representable as a float; a float path would print ...0.00 or ...0.02
    assert format_money(2**60 + 1, 100, "USD") == "$11529215046068469.77"


@pytest.mark.parametrize(("amount", "unit", "symbol", "first", "text"), [
    (2890, 100, "€", False, "28.90€"),
    (-610, 100, "€", False, "-6.10€"),
    (500, 100, "€", False, "5€"),
    (75, 1, "", False, "75"),
    (137, 100, "$", True, "$1.37"),
    (-100, 100, "$", True, "-$1"),
    (1500, 1, "", True, "1500"),
])
def test_site_amount(amount: int, unit: int, symbol: str, first: bool, text: str) -> None:
    assert site_amount(amount, unit, symbol, symbol_first=first) == text


def test_no_second_money_formatter_in_hhtool() -> None:
    """The digits of a fraction sized from the unit, or a currency-to-symbol table, written anywhere
    but hhtool/money.py is a second formatter that will drift from this one."""
    idioms = re.compile(r":0\{len\(str\(|\"USD\": \"\$\"")
    copies = [str(path.relative_to(HHTOOL)) for path in HHTOOL.rglob("*.py")
              if path.name != "money.py" and idioms.search(path.read_text(encoding="utf-8"))]
    assert copies == []
