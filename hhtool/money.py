"""Money as text. Amounts are integers in the smallest unit (:attr:`hhtool.model.Stakes.unit` of them
make one currency unit); these functions only print them, exactly, never through a float.

Two spellings, for two readers:

* :func:`format_money` is an amount for a person reading hhtool's own output: always with the
  unit's decimals, the currency's symbol in front (or its code behind when it has no symbol), or the
  bare number where the currency is shown beside it (a stats column).
* :func:`site_amount` is an amount the way a site's client prints it (whole amounts without
  decimals, the symbol before or after): for notes that quote a site's line and for the simulator's
  writers, whose text must read like the site's.

>>> format_money(37, 100, "USD"), format_money(-1250, 100, "EUR"), format_money(400, 1, "CHIPS")
('$0.37', '-€12.50', '400')
>>> format_money(1250, 100, "PLAY"), format_money(-1234, 100), format_money(5, 1000, "USD")
('12.50 PLAY', '-12.34', '$0.005')
>>> site_amount(2890, 100, "€"), site_amount(-610, 100, "€"), site_amount(75, 1)
('28.90€', '-6.10€', '75')
>>> site_amount(137, 100, "$", symbol_first=True), site_amount(-100, 100, "$", symbol_first=True)
('$1.37', '-$1')
"""

from __future__ import annotations

#: the symbol a currency code is printed with; a code not here is printed after the amount
CURRENCY_SYMBOLS: dict[str, str] = {"USD": "$", "EUR": "€", "GBP": "£", "CAD": "C$"}


def currency_symbol(currency: str) -> str:
    """``$`` for ``USD``; ``""`` for a currency without a symbol (chips, play money, other codes)."""
    return CURRENCY_SYMBOLS.get(currency, "")


def _number(amount: int, unit: int, *, drop_zero_fraction: bool) -> str:
    """``abs(amount)`` in currency units: ``12.50``, or ``12`` for a whole amount when asked."""
    whole, fraction = divmod(abs(amount), unit)
    if unit <= 1 or (drop_zero_fraction and fraction == 0):
        return str(whole)
    return f"{whole}.{fraction:0{len(str(unit)) - 1}d}"


def format_money(amount: int, unit: int, currency: str | None = None) -> str:
    """An amount for a person: ``$0.08``, ``-€12.50``, ``12.50 PLAY``; chips (``unit`` 1) bare,
    ``400``. Without ``currency`` (the caller shows it beside the number) the number alone, ``-12.34``."""
    sign = "-" if amount < 0 else ""
    number = _number(amount, unit, drop_zero_fraction=False)
    if unit <= 1 or currency is None:
        return f"{sign}{number}"
    symbol = currency_symbol(currency)
    return f"{sign}{symbol}{number}" if symbol else f"{sign}{number} {currency}"


def site_amount(amount: int, unit: int, symbol: str = "", *, symbol_first: bool = False) -> str:
    """An amount as a site's client prints it: whole amounts without decimals, the ``symbol`` after the
    number (Winamax's ``28.90€``) or, with ``symbol_first``, before it and after the sign (``-$1``)."""
    sign = "-" if amount < 0 else ""
    number = _number(amount, unit, drop_zero_fraction=True)
    return f"{sign}{symbol}{number}" if symbol_first else f"{sign}{number}{symbol}"
