"""What `hhtool stats` shows on the terminal and in HTML: the chosen columns as text, headed as
:mod:`hhtool.reports.stats_columns` names them (rates as percentages, money in currency units with
its currency, stakes as `hands` prints them, bb/100 to two places).

>>> stakes_text("0.25/0.5", 100), stakes_text("10/20", 1), stakes_text("0.1/0.2", 100)
('0.25/0.50', '10/20', '0.10/0.20')
>>> currency_label("USD"), currency_label("CHIPS"), currency_label("PLAY")
('$', 'chips', 'PLAY')
"""

from __future__ import annotations

import difflib
from decimal import Decimal, InvalidOperation

import polars as pl

from hhtool.money import currency_symbol, format_money, site_amount
from hhtool.reports.choices import Breakdown
from hhtool.reports.stats import BREAKDOWN_COLUMN, STREET_RATES, TerminalChoice
from hhtool.reports.stats_columns import HEADERS, key_named

#: the terminal's default columns (output keys): they fit 80 columns, the optional ones left out first
DEFAULT_COLUMNS = ("player", "hands", "vpip", "raise_3rd", "aggression_5th", "wtsd", "wsd", "scoop", "net_won",
                   "bb_per_100")
START_COLUMNS = ("player", "start", "hands", "vpip", "net_won", "bb_per_100")
STREET_COLUMNS = ("player", "street", *STREET_RATES)
MONEY_KEYS = ("net_won", "net_won_showdown", "net_won_non_showdown", "rake_paid", "ev_net_won", "luck")


class UnknownColumn(ValueError):
    """A --columns or --sort name that is no column of the stats (the message lists close matches)."""


def column_key(name: str, frame: pl.DataFrame) -> str:
    """The output key ``name`` (a key, a header or an old header, any case) names in ``frame``."""
    key = key_named(name)
    if key is not None and key in frame.columns:
        return key
    wanted = name.strip().lower()
    for column in frame.columns:
        if wanted == column.lower():
            return column
    names = [*frame.columns, *(HEADERS[column] for column in frame.columns if column in HEADERS)]
    close = difflib.get_close_matches(wanted, list(dict.fromkeys(names)), n=3)
    hint = f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else ""
    raise UnknownColumn(f"no stats column {name!r}{hint}; `hhtool stats --help` lists them")


def ordered(frame: pl.DataFrame, sort: str | None = None, limit: int | None = None) -> pl.DataFrame:
    """The rows sorted by the column ``sort`` names (numbers largest first, text A to Z, nulls last;
    else as they come: most hands first), the first ``limit`` of them."""
    if sort:
        key = column_key(sort, frame)
        numeric = frame.schema[key].is_numeric()
        frame = frame.sort(key, descending=numeric, nulls_last=True, maintain_order=True)
    return frame.head(limit) if limit is not None else frame


def currency_label(currency: str) -> str:
    """How a money header names its currency: the symbol, ``chips`` for tournament chips, else the code."""
    if currency == "CHIPS":
        return "chips"
    return currency_symbol(currency) or currency


def stakes_text(stakes: str | None, unit: int) -> str | None:
    """The stakes key (``0.25/0.5``, currency units) as `hands` prints stakes (``0.25/0.50``)."""
    if stakes is None:
        return None
    try:
        amounts = [int(Decimal(part) * unit) for part in stakes.split("/")]
    except (InvalidOperation, ValueError):
        return stakes
    return "/".join(site_amount(amount, unit) for amount in amounts)


def shown_keys(frame: pl.DataFrame, by: Breakdown | None, choice: TerminalChoice) -> list[str]:
    """The keys shown: every statistic with ``--all``, the chosen ones, else the default set (the
    breakdown's column second; the currency where the rows have several)."""
    if choice.all_columns:
        return [key for key in frame.columns
                if not key.endswith(("_count", "_opportunities")) and key not in ("unit", "bb_per_100_hands")]
    if choice.columns:
        return list(dict.fromkeys(column_key(name, frame) for name in choice.columns))
    default = {Breakdown.street: STREET_COLUMNS, Breakdown.start: START_COLUMNS}.get(by, DEFAULT_COLUMNS)  # type: ignore[arg-type]
    keys = [key for key in default if key in frame.columns]
    if by in BREAKDOWN_COLUMN and BREAKDOWN_COLUMN[by] not in keys:
        keys.insert(1, BREAKDOWN_COLUMN[by])
    if frame["currency"].n_unique() > 1:  # money of two currencies is not one column of numbers
        keys.insert(1, "currency")
    return keys


def terminal_view(frame: pl.DataFrame, by: Breakdown | None = None,
                  choice: TerminalChoice | None = None) -> pl.DataFrame:
    """What ``--format table`` prints (and ``--format html`` writes): the chosen columns as text (money
    in currency units under a header naming the currency, rates as percentages; with ``--all`` each
    rate beside its count and opportunities), headed as :data:`HEADERS` names them. The renderer fits
    it to the terminal, leaving out :data:`~hhtool.reports.stats_columns.OPTIONAL_HEADERS`, or shows one record a row."""
    if frame.is_empty():
        return frame
    choice = choice or TerminalChoice()
    keys = shown_keys(frame, by, choice)
    currencies = frame["currency"].unique().to_list() if "currency" in frame.columns else []
    one_currency = currencies[0] if len(currencies) == 1 else None
    columns = []
    for key in keys:
        header = HEADERS.get(key, key)
        if key in MONEY_KEYS and one_currency is not None:
            header = f"{header} {currency_label(one_currency)}"
        columns.append(_shown(frame, key, with_counts=choice.all_columns, one_currency=one_currency).alias(header))
    return frame.select(columns)


def _shown(frame: pl.DataFrame, key: str, with_counts: bool, one_currency: str | None) -> pl.Expr:
    if key in MONEY_KEYS and "unit" in frame.columns:
        def money(row: dict[str, object]) -> str:
            amount, unit = int(row[key]), int(row["unit"])  # type: ignore[call-overload]
            return format_money(amount, unit) if one_currency else format_money(amount, unit, str(row["currency"]))
        return pl.struct([key, "unit", "currency"]).map_elements(money, return_dtype=pl.Utf8)
    if key == "stakes" and "unit" in frame.columns:
        return pl.struct(["stakes", "unit"]).map_elements(
            lambda row: stakes_text(row["stakes"], int(row["unit"])), return_dtype=pl.Utf8)
    if key == "bb_per_100":
        return pl.when(pl.col(key).is_null()).then(pl.lit("-")).otherwise(
            pl.col(key).map_elements(lambda value: f"{value:.2f}", return_dtype=pl.Utf8))
    if f"{key}_opportunities" in frame.columns:  # a rate
        if with_counts:
            return pl.struct([key, f"{key}_count", f"{key}_opportunities"]).map_elements(_percent, return_dtype=pl.Utf8)
        return pl.when(pl.col(key).is_null()).then(pl.lit("-")).otherwise(
            (pl.col(key) * 100).round(1).cast(pl.Utf8) + "%")
    return pl.col(key)


def opposite_sign_notes(frame: pl.DataFrame, by: Breakdown | None = None) -> list[str]:
    """A line for each row whose net and bb/100 have opposite signs, saying why: bb/100 sums each
    hand's net over that hand's own big bet, so a loss at high stakes weighs few big bets against many
    small wins at low stakes (``--by stakes`` shows each stakes' own net and bb/100). Nothing is wrong
    in either number; the line keeps a reader from taking one of them for a sign error."""
    if frame.is_empty() or not {"net_won", "bb_per_100", "unit", "currency"} <= set(frame.columns):
        return []
    notes = []
    group = BREAKDOWN_COLUMN.get(by) if by is not None else None
    for row in frame.iter_rows(named=True):
        net, per_100 = int(row["net_won"]), row["bb_per_100"]
        if per_100 is None or net * per_100 >= 0:
            continue
        where = f", {group} {row[group]}" if group and row.get(group) is not None else ""
        money = format_money(net, int(row["unit"]), str(row["currency"]))
        notes.append(f"{row['player']} ({currency_label(str(row['currency']))}{where}): net {money} but "
                     f"{per_100:+.2f} bb/100")
    if not notes:
        return []
    how = "" if by is Breakdown.stakes else "; --by stakes shows each stakes' own net and bb/100"
    return [*notes, "(not a sign error: bb/100 counts each hand's net in that hand's own big bets, so a loss at "
                    f"high stakes is a few big bets and small wins at low stakes are many{how})"]


def _percent(row: dict[str, object]) -> str:
    """``rate (count/opportunities)`` from a row of the three values, in that order."""
    rate, count, opportunities = list(row.values())[:3]
    if rate is None:
        return f"- (0/{opportunities})"
    return f"{100 * float(rate):.1f}% ({count}/{opportunities})"  # type: ignore[arg-type]


__all__ = ["TerminalChoice", "UnknownColumn", "column_key", "opposite_sign_notes",
           "ordered", "terminal_view"]
