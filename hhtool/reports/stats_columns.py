"""The columns of `hhtool stats`: each key's header on the terminal (and in HTML) and its one-line
meaning, the one source of both for the reports and for ``hhtool stats --help``. A light module (no
Polars, no DuckDB): the command line's help reads it.

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

ORDINALS = {3: "3rd", 4: "4th", 5: "5th", 6: "6th", 7: "7th"}
LATER = (4, 5, 6, 7)
EVERY = (3, 4, 5, 6, 7)

#: (key, header, meaning) of every column a stats row may have, in output order
_FIXED_HEAD: list[tuple[str, str, str]] = [
    ("player", "player", "the screen name (or the person an alias names)"),
    ("currency", "ccy", "the currency of the row's money (CHIPS: tournament chips, PLAY: play money)"),
    ("unit", "unit", "smallest units per currency unit (100: cents, 1: chips)"),
    ("stakes", "stakes", "--by stakes: small bet/big bet, as `hands` prints them (0.10/0.20)"),
    ("month", "month", "--by month: YYYY-MM of the hand's own timestamp"),
    ("door_card", "door", "--by door-card: rank of the 3rd-street upcard"),
    ("start", "start", "--by start: the 3rd-street starting-hand group (see below)"),
    ("street", "street", "--by street: 3rd ... 7th"),
    ("hands", "hands", "hands dealt in"),
    ("net_won", "net", "money won less money put in (uncalled bets returned), in the row's currency"),
    ("net_won_showdown", "sdnet", "net over hands the player went to showdown"),
    ("net_won_non_showdown", "nsdnet", "net over the other hands (sdnet + nsdnet = net)"),
    ("bb_per_100", "bb/100", "big bets won per 100 hands, each hand in its own big bet"),
    ("bb_per_100_hands", "bbhands", "hands whose big bet is known (bb/100's denominator)"),
    ("rake_paid", "rake", "rake and fees, shared among the players paid in proportion"),
]
_THIRD: list[tuple[str, str, str]] = [
    ("vpip", "vpip", "called, completed or raised on 3rd, of hands with a 3rd-street decision; posting the "
     "bring-in is forced, so a bring-in nobody completed, who then had no decision, is no opportunity "
     "(trackers that divide by hands count it as not VPIP); the bring-in calling a completion is VPIP"),
    ("raise_3rd", "raise3", "completed or raised on 3rd (stud's PFR), of hands with a 3rd-street decision"),
    ("complete_first_in", "cfi", "completed first in (nobody in yet), of first-in decisions"),
    ("limp", "limp", "called the bring-in first in, of first-in decisions"),
    ("bring_in_complete", "bicomp", "completed instead of posting the bring-in, of hands as the bring-in"),
    ("steal", "steal", "completed first in with a door-card or late-position steal spot, of those spots"),
    ("steal_door", "stldoor", "completed first in with the highest upcard still to act, of those spots"),
    ("steal_position", "stlpos", "completed first in from the last two seats before the bring-in, of those"),
    ("steal_success", "stlwon", "steals nobody called or raised, that won the hand on 3rd, of steals"),
    ("bring_in_fold_to_steal", "bifold", "the bring-in folded to a steal, of steals it faced"),
    ("bring_in_resteal", "birest", "the bring-in raised a steal, of steals it faced"),
    ("fold_to_complete", "fcomp", "folded to the completion, of first decisions facing it"),
    ("two_bet_3rd", "2bet3", "raised the completion (the 2-bet), of first decisions facing it"),
    ("three_bet_3rd", "3bet3", "3-bet on 3rd, of first decisions facing a 2-bet"),
    ("four_bet_3rd", "4bet3", "4-bet on 3rd, of first decisions facing a 3-bet"),
    ("fold_to_three_bet_3rd", "f3bet3", "a 2-bettor folded to the 3-bet, of the times he faced it"),
]
_SHOWDOWN: list[tuple[str, str, str]] = [
    ("wtsd", "wtsd", "went to showdown, of hands that saw 4th street"),
    ("wsd", "wsd", "won something at showdown (W$SD), of showdowns"),
    ("won_saw_4th", "wws4", "won something, of hands that saw 4th street"),
    ("scoop", "scoop", "won the whole pot alone (both halves, or high with no low), of judged showdowns"),
    ("high_only", "hionly", "won the high half alone and lost the low, of judged showdowns"),
    ("low_only", "loonly", "won the low half alone and lost the high, of judged showdowns"),
    ("split", "split", "any other share with a tie, of judged showdowns"),
    ("quartered", "qtr", "a tied share of one half and nothing of the other, of judged showdowns"),
    ("low_qualified", "lowq", "had a qualifying low, of showdowns whose low is known"),
    ("halves_by_label", "bylabel", "showdowns judged from the site's high/low labels (a count)"),
    ("halves_by_cards", "bycards", "showdowns judged from the shown cards (a count)"),
    ("halves_unknown", "unjudged", "showdowns that could not be judged (a count)"),
]
#: the per-street families: (key stem, header stem, meaning, streets)
_STREETS: list[tuple[str, str, str, tuple[int, ...]]] = [
    ("saw", "saw", "saw {o}, of hands", LATER),
    ("aggression", "agg", "completes, bets and raises on {o}, of all decisions on it (actions, not hands)", EVERY),
    ("cbet", "cbet", "bet on {o} as the last aggressor of the street before, of those spots", LATER),
    ("fold_to_cbet", "fcbet", "folded to a continuation bet on {o}, of first decisions facing one", LATER),
    ("check_raise", "xr", "check-raised on {o}, of checks followed by another decision", LATER),
    ("fold", "fold", "folded facing a bet (or the bring-in) on {o}, of hands facing one", EVERY),
]
#: the families' order among the keys: saw, aggression, then cbet, fold_to_cbet, check_raise, fold
_BY_STREET_ROWS = {"saw": "saw", "aggression": "agg", "fold": "fold", "cbet": "cbet", "fold_to_cbet": "fcbet",
                   "check_raise": "xr"}


def _catalogue() -> list[tuple[str, str, str]]:
    rows = [*_FIXED_HEAD, *_THIRD]
    for stem, header, meaning, streets in _STREETS:
        rows += [(f"{stem}_{ORDINALS[s]}", f"{header}{s}", meaning.format(o=f"{ORDINALS[s]} street")) for s in streets]
    return [*rows, *_SHOWDOWN]


CATALOGUE = _catalogue()
#: the terminal and HTML header of each key
HEADERS: dict[str, str] = {key: header for key, header, _ in CATALOGUE} | _BY_STREET_ROWS
MEANINGS: dict[str, str] = {key: meaning for key, _, meaning in CATALOGUE}
#: the headers of hhtool before they followed one pattern, still accepted by --columns and --sort
OLD_HEADERS = {"agg5": "aggression_5th", "fold to compl": "fold_to_complete", "low qual": "low_qualified",
               "check-raise": "check_raise", "fold to cbet": "fold_to_cbet", "door": "door_card"}
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
