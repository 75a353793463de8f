"""The columns of `hhtool stats`: each key's header on the terminal (and in HTML) and its one-line
meaning, the one source of both for the reports and for ``hhtool stats --help``, read from the
catalogue beside this module (``stats_columns.toml``). A light module (no Polars, no DuckDB): the
command line's help reads it.

The keys (csv, json, parquet) stay snake_case and stable; the headers follow one pattern, as a
tracker's do: a short lowercase abbreviation with no space, the street's number last where the
statistic is one street's (``agg5`` is aggression on 5th street, ``cbet4`` the continuation bet on
4th); ``f`` starts a fold-to (``fcomp``, ``fcbet4``), ``bi`` a bring-in's answer (``bifold``),
``stl`` a steal's detail (``stldoor``). A money header is followed by its currency where the rows
share one (``net $``, ``net chips``).

>>> HEADERS["aggression_5th"], HEADERS["fold_to_cbet_4th"], HEADERS["net_won"], HEADERS["bb_per_100"]
('agg5', 'fcbet4', 'net', 'bb/100')
>>> key_named("fold to compl"), key_named("FCOMP"), key_named("agg5"), key_named("nothing") is None
('fold_to_complete', 'fold_to_complete', 'aggression_5th', True)
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ORDINALS = {3: "3rd", 4: "4th", 5: "5th", 6: "6th", 7: "7th"}
LATER = (4, 5, 6, 7)
EVERY = (3, 4, 5, 6, 7)

#: the catalogue: every column a stats row may have, its header and its meaning (data, not code)
SOURCE = Path(__file__).with_name("stats_columns.toml")
_STREETS_OF = {"later": LATER, "every": EVERY}


def _read() -> tuple[list[tuple[str, str, str]], list[tuple[str, str, str, tuple[int, ...]]], list[tuple[str, str, str]]]:
    """(the columns before the street families, the families, the columns after them), from SOURCE."""
    tables = tomllib.loads(SOURCE.read_text(encoding="utf-8"))
    before = [(key, header, meaning) for table in ("head", "third") for key, (header, meaning) in tables[table].items()]
    streets = [(stem, header, meaning, _STREETS_OF[which]) for stem, (header, meaning, which) in tables["streets"].items()]
    after = [(key, header, meaning) for key, (header, meaning) in tables["showdown"].items()]
    return before, streets, after


_BEFORE, _STREETS, _AFTER = _read()
#: the families' order among the keys: saw, aggression, then cbet, fold_to_cbet, check_raise, fold
_BY_STREET_ROWS = {"saw": "saw", "aggression": "agg", "fold": "fold", "cbet": "cbet", "fold_to_cbet": "fcbet",
                   "check_raise": "xr"}


def _catalogue() -> list[tuple[str, str, str]]:
    """(key, header, meaning) of every column a stats row may have, in output order."""
    rows = list(_BEFORE)
    for stem, header, meaning, streets in _STREETS:
        rows += [(f"{stem}_{ORDINALS[s]}", f"{header}{s}", meaning.format(o=f"{ORDINALS[s]} street")) for s in streets]
    return [*rows, *_AFTER]


CATALOGUE = _catalogue()
#: the terminal and HTML header of each key
HEADERS: dict[str, str] = {key: header for key, header, _ in CATALOGUE} | _BY_STREET_ROWS
MEANINGS: dict[str, str] = {key: meaning for key, _, meaning in CATALOGUE}
#: the headers of hhtool before they followed one pattern, and the spellings of issue #36 ("ev net"), still
#: accepted by --columns and --sort
OLD_HEADERS = {"agg5": "aggression_5th", "fold to compl": "fold_to_complete", "low qual": "low_qualified",
               "check-raise": "check_raise", "fold to cbet": "fold_to_cbet", "door": "door_card",
               "ev net": "ev_net_won", "ev bb/100": "ev_bb_per_100"}
#: headers the terminal leaves out, in this order, where the default columns do not fit (before it
#: turns to one record a row)
OPTIONAL_HEADERS = ("scoop", "agg5", "wsd", "raise3", "wtsd")
#: headers never cut on the terminal
UNCUT_HEADERS = ("stakes", "start", "month", "door")


def key_named(name: str) -> str | None:
    """The key a --columns or --sort name means: a key, a header or an old header, in any case."""
    wanted = name.strip().lower()
    for key, header in HEADERS.items():
        if wanted in (key.lower(), header.lower()):
            return key
    return OLD_HEADERS.get(wanted)


def column_help() -> str:
    """The columns for ``hhtool stats --help``: the pattern, then each statistic's header, key and
    meaning (a line each; rates are percentages of the opportunities named after "of")."""
    lines = ["Columns (header = csv key: meaning). Rates are count / opportunities, shown as percentages; "
             "--all adds (count/opportunities). Headers: a short lowercase name, the street's number last "
             "(agg5: aggression on 5th), f = folds to, bi = the bring-in's answer, stl = steal details."]
    grouped: dict[str, str] = {}
    for stem, header, meaning, streets in _STREETS:
        keys = ", ".join(f"{header}{s}" for s in streets)
        grouped[f"{stem}_{ORDINALS[streets[0]]}"] = f"{keys} = {stem}_{ORDINALS[streets[0]]}…: " \
            + meaning.format(o="the street")
    skipped = {f"{stem}_{ORDINALS[s]}" for stem, _, _, streets in _STREETS for s in streets}
    for key, header, meaning in CATALOGUE:
        if key in grouped:
            lines.append(grouped[key])
        elif key not in skipped:
            lines.append(f"{header} = {key}: {meaning}")
    return "\n".join(lines)
