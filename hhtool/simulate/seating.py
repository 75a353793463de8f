"""Where a seed's hands are played: each seed at its own table on its own day, so that hands simulated
with another seed never join the bundled samples' sessions (seed 1, `sample_histories/pokerstars/
simulated-seed1.txt`: table 'Alcyone IV' from 2026-11-29 10:22:32) nor each other's.

>>> table_for_seed(1)
('Alcyone IV', datetime.datetime(2026, 11, 29, 10, 22, 32))
>>> table_for_seed(0)
('Alcyone III', datetime.datetime(2026, 11, 28, 10, 22, 32))
>>> table_for_seed(2)[0], table_for_seed(5000)[0]
('Alcyone V', 'Alcyone 5003')
"""

from __future__ import annotations

from datetime import datetime, timedelta

#: the samples' seed and where it sat
SAMPLES_SEED = 1
SAMPLES_START = datetime(2026, 11, 29, 10, 22, 32)
#: seeds this many apart share a day (a simulated file of a day's hands is far shorter than a day), never a table
DAYS = 20 * 365

_NUMERALS = ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"), (40, "XL"),
             (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))


def roman(number: int) -> str:
    """``IV`` for 4; a number outside 1..3999 in digits."""
    if not 1 <= number <= 3999:
        return str(number)
    spelled = ""
    for value, letters in _NUMERALS:
        count, number = divmod(number, value)
        spelled += letters * count
    return spelled


def table_for_seed(seed: int) -> tuple[str, datetime]:
    """The table name and first hand's start of ``seed``'s hands: seed 1 where the samples were dealt,
    every other seed at its own table ('Alcyone' and seed + 3) on its own day."""
    offset = seed - SAMPLES_SEED
    return f"Alcyone {roman(seed + 3)}", SAMPLES_START + timedelta(days=offset % DAYS if offset >= 0 else -(-offset % DAYS))


__all__ = ["table_for_seed"]
