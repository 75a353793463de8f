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
>>> format_buy_in(1000, 100, 0, 100, "USD"), format_buy_in(100, 9, 0, 1, "PLAY"), format_named(200, 1, "PLAY")
('$10+$1', '100+9 PLAY', '200 PLAY')
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


def format_named(amount: int, unit: int, currency: str | None) -> str:
    """An amount stated in a currency of its own (a tournament's prize): as :func:`format_money`, but a
    currency counted in whole units other than chips keeps its code (``200 PLAY``, ``50 FPP``), where
    :func:`format_money` prints it bare as chips; ``None`` (a currency nobody stated) the bare number.

    >>> format_named(1234, 100, "USD"), format_named(50, 1, "FPP"), format_named(400, 1, "CHIPS"), format_named(7, 1, None)
    ('$12.34', '50 FPP', '400', '7')
    """
    text = format_money(amount, unit, currency)
    if unit <= 1 and currency not in (None, "CHIPS") and not currency_symbol(currency or ""):
        return f"{text} {currency}"
    return text


def format_at_table(amount: int, unit: int, currency: str | None) -> str:
    """An amount in play at a table, with its unit always said: money as :func:`format_money` writes
    it, tournament chips counted ("460 chips", "1 chip"), where :func:`format_money` prints them bare.

    >>> format_at_table(460, 1, "CHIPS"), format_at_table(-1, 1, None), format_at_table(8, 100, "USD")
    ('460 chips', '-1 chip', '$0.08')
    """
    text = format_named(amount, unit, currency)
    if unit <= 1 and currency in (None, "CHIPS"):
        return f"{text} chip{'' if abs(amount) == 1 else 's'}"
    return text


def format_buy_in(amount: int, fee: int, bounty: int, unit: int, currency: str | None) -> str:
    """A tournament's buy-in as sites write it, its parts joined by "+": the prize-pool part, then a
    knockout's bounty, then the fee (PokerStars' order; a fee of 0 is left out unless a bounty comes
    before it); every part without decimals when all are whole. A currency without a symbol is named
    after the parts; nothing paid is ``freeroll``.

    >>> format_buy_in(20000, 1500, 5000, 100, "USD"), format_buy_in(98, 12, 0, 100, "USD")
    ('$200+$50+$15', '$0.98+$0.12')
    >>> format_buy_in(500, 50, 0, 100, "GBP"), format_buy_in(50, 0, 0, 1, "FPP"), format_buy_in(0, 0, 0, 1, None)
    ('£5.00+£0.50', '50 FPP', 'freeroll')
    """
    parts = [amount, bounty, fee] if bounty else [amount, fee] if fee else [amount]
    if not any(parts):
        return "freeroll"
    whole = all(part % unit == 0 for part in parts)
    symbol = currency_symbol(currency or "")
    text = "+".join(("-" if part < 0 else "") + symbol + _number(part, unit, drop_zero_fraction=whole) for part in parts)
    return text if symbol or currency is None else f"{text} {currency}"


def site_amount(amount: int, unit: int, symbol: str = "", *, symbol_first: bool = False) -> str:
    """An amount as a site's client prints it: whole amounts without decimals, the ``symbol`` after the
    number (Winamax's ``28.90€``) or, with ``symbol_first``, before it and after the sign (``-$1``)."""
    sign = "-" if amount < 0 else ""
    number = _number(amount, unit, drop_zero_fraction=True)
    return f"{sign}{symbol}{number}" if symbol_first else f"{sign}{number}{symbol}"
