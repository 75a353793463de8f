"""The list of hands (`hhtool hands`): what a row holds, what the terminal shows of it, and the
list's own filters beside the :class:`~hhtool.store.filters.HandFilter` (verdict, showdown, pot).

A row is a hand, or with players asked for, a hand and one of them dealt in (his net, his showdown).
Money stays in integer smallest units beside ``currency`` and ``unit``; the terminal view spells it
(:func:`hhtool.money.format_money`).

>>> parse_amount("$1.50", "--min-pot"), parse_amount("1,000", "--max-pot"), parse_amount("€2", "--min-pot")
(Decimal('1.50'), Decimal('1000'), Decimal('2'))
>>> parse_amount("-3", "--min-pot")
Traceback (most recent call last):
...
ValueError: --min-pot wants an amount in the currency's units (e.g. 1.50 or $1.50), not '-3'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

import polars as pl

from hhtool.money import format_money, site_amount
from hhtool.reports.choices import Showdown, Verdict

#: (ASCII digits only: ``\d`` alone also reads ``٣``)
_AMOUNT = re.compile(r"^\s*[$€£]?\s*(\d[\d,]*(?:\.\d+)?|\.\d+)\s*(?:[A-Za-z]{3,5})?\s*$", re.ASCII)


def parse_amount(text: str, option: str) -> Decimal:
    """An amount as a user types it, in currency units (``1.50``, ``$1.50``, ``1,000``, ``2 EUR``):
    exact, never through a float."""
    match = _AMOUNT.match(text)
    try:
        if match is None:
            raise InvalidOperation
        return Decimal(match.group(1).replace(",", ""))
    except InvalidOperation:
        raise ValueError(f"{option} wants an amount in the currency's units (e.g. 1.50 or $1.50), not {text!r}") from None


@dataclass(frozen=True)
class HandChoice:
    """The list's filters beyond the HandFilter; None: any. Pot bounds are inclusive, in each hand's
    currency units (chips in a tournament); ``showdown`` is the listed player's."""

    verdict: Verdict | None = None
    showdown: Showdown | None = None
    min_pot: Decimal | None = None
    max_pot: Decimal | None = None

    def said(self) -> str:
        """The filters given, as the options a user typed (for "no hand … matches")."""
        parts = [f"--verdict {self.verdict}" if self.verdict else "", f"--showdown {self.showdown}" if self.showdown else "",
                 f"--min-pot {self.min_pot}" if self.min_pot is not None else "",
                 f"--max-pot {self.max_pot}" if self.max_pot is not None else ""]
        return " ".join(part for part in parts if part)


#: every key of a row, in order (--format csv / json); ``player``, ``net``, ``showdown`` and ``cards``
#: only with players asked for
KEYS = ("site", "hand_id", "started_at", "timezone", "table", "tournament_id", "currency", "unit", "small_bet",
        "big_bet", "players", "pot", "verdict", "rules_profile", "player", "net", "showdown", "cards", "file",
        "first_line")
PLAYER_KEYS = ("player", "net", "showdown", "cards")
#: short headers for the terminal (a key or its label names a column in --columns and --sort)
LABELS = {"hand_id": "id", "started_at": "date", "small_bet": "stakes", "players": "seats", "showdown": "sd",
          "first_line": "line", "tournament_id": "tournament"}
#: the terminal's columns unless --columns or --all choose others: they fit 80 columns for ids of up
#: to 12 characters; ``site`` joins them where an id is on two sites (what `show ID` needs to know)
DEFAULT_COLUMNS = ("hand_id", "started_at", "table", "small_bet", "players", "pot", "verdict")
PLAYER_COLUMNS = ("hand_id", "started_at", "table", "small_bet", "net", "pot", "verdict")
#: left out first where even these do not fit (the table is the first to go)
OPTIONAL_COLUMNS = ("table", "stakes", "seats", "sd", "verdict")
#: never cut on the terminal: the id to copy into `hhtool show`, the date
UNCUT_COLUMNS = ("id", "date", "site", "stakes")
#: --all: every column but those a terminal reader does not need
HIDDEN_FROM_ALL = ("currency", "unit", "big_bet", "timezone", "first_line")


def terminal_view(frame: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    """The columns ``keys`` as the terminal shows them: money spelled with its currency, stakes as
    small/big bet, the date to the minute, headed by the short labels."""
    columns: list[pl.Series] = []
    for key in keys:
        columns.append(pl.Series(LABELS.get(key, key), [_shown(row, key) for row in frame.iter_rows(named=True)],
                                 dtype=pl.Int64 if key in ("players", "first_line") else pl.Utf8))
    return pl.DataFrame(columns)


def _shown(row: dict[str, object], key: str) -> object:
    value = row[key]
    if key in ("pot", "net"):
        return None if value is None else format_money(int(value), int(row["unit"]), str(row["currency"]))  # type: ignore[call-overload]
    if key == "small_bet":
        small, big, unit = row["small_bet"], row["big_bet"], int(row["unit"])  # type: ignore[call-overload]
        if small is None:
            return None
        return f"{site_amount(int(small), unit)}/{'?' if big is None else site_amount(int(big), unit)}"  # type: ignore[call-overload]
    if key == "started_at":
        return None if value is None else f"{value:%Y-%m-%d %H:%M}"
    return value


def shown_keys(frame: pl.DataFrame, columns: list[str], all_columns: bool, with_player: bool) -> list[str]:
    """The keys the terminal shows: ``columns`` as chosen, else every key (``--all``), else the
    default set (with the player's net when players are asked for; the player where several are
    listed; the site where a listed id is on two sites, so `hhtool show ID` needs --site)."""
    if columns:
        return columns
    present = [key for key in KEYS if key in frame.columns and key != "big_bet"]
    if all_columns:
        return [key for key in present if key not in HIDDEN_FROM_ALL]
    keys = list(PLAYER_COLUMNS if with_player else DEFAULT_COLUMNS)
    if with_player and frame["player"].n_unique() > 1:
        keys.insert(1, "player")
    if frame["id_elsewhere"].any():
        keys.insert(1, "site")
    return keys
