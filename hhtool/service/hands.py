"""`hhtool hands`: the stored hands the filters select, one row a hand (with players asked for, a
hand and each of them dealt in), sorted and cut to a limit, with the count of all that matched.

The filters are the one :class:`HandFilter` of every command plus the list's own
(:class:`~hhtool.reports.hand_list.HandChoice`): the hand's verdict under its own profile (a
conflicting copy makes it a violation, as `audit` counts), the player's showdown, the pot. The pot
is what the players put in, less uncalled bets returned (Σ ``results.contributed``): known for every
hand, whether or not the site states a total.
"""

from __future__ import annotations

from decimal import Decimal

from hhtool.replay.result import stored_verdict_sql
from hhtool.reports.hand_list import (
    KEYS,
    LABELS,
    OPTIONAL_COLUMNS,
    PLAYER_KEYS,
    UNCUT_COLUMNS,
    HandChoice,
    Showdown,
    Verdict,
    parse_amount,
    shown_keys,
    terminal_view,
)
from hhtool.reports.listing import Listed, UnknownColumn, column_key, limit_for
from hhtool.reports.stats import TerminalChoice
from hhtool.service.errors import UsageError
from hhtool.service.filters import NoneTogether, NothingMatched, require_matches
from hhtool.service.numbers import MOST_MONEY, amount_refusal, amount_text
from hhtool.service.stats_cache import report_store
from hhtool.service.stores import Database
from hhtool.service.times import in_user_zone, zone_labelled
from hhtool.store import hand_queries
from hhtool.store.filters import HandFilter
from hhtool.store.findings import CONFLICTED
from hhtool.store.hand_queries import ListChoice
from hhtool.store.player_facts_cache import selected_facts

#: a hand's verdict under its own profile as `hands` lists it: the one verdict rule over its stored verdict
VERDICT_SQL = stored_verdict_sql("h.verdict", CONFLICTED, Verdict.not_replayed.value)
#: columns that sort as numbers or dates: largest or newest first unless --asc
DESCENDING_FIRST = ("started_at", "players", "pot", "net", "small_bet", "unit", "first_line", "big_bet")


def hand_choice(verdict: Verdict | None = None, showdown: Showdown | None = None, min_pot: str | None = None,
                max_pot: str | None = None) -> HandChoice:
    """The list's own filters from the option texts; UsageError for a malformed amount or bounds
    that leave no room."""
    low = _pot_bound(min_pot, "--min-pot")
    high = _pot_bound(max_pot, "--max-pot")
    if low is not None and high is not None and low > high:
        raise UsageError(f"--min-pot {min_pot} is above --max-pot {max_pot}: no pot lies between them")
    return HandChoice(verdict=verdict, showdown=showdown, min_pot=low, max_pot=high)


def _pot_bound(text: str | None, option: str) -> Decimal | None:
    """A pot bound as typed (None: not given), within what a pot can be (:data:`MOST_MONEY`)."""
    if text is None:
        return None
    try:
        value = parse_amount(amount_text(text, option), option)
    except ValueError as error:
        raise UsageError(str(error)) from None
    if value > MOST_MONEY:
        raise UsageError(f"{option} {amount_refusal(text)}")
    return value


def list_choice(choice: HandChoice) -> ListChoice:
    """The list's own filters as the store's queries take them."""
    return ListChoice(verdict=None if choice.verdict is None else str(choice.verdict),
                      showdown=None if choice.showdown is None else str(choice.showdown),
                      min_pot=choice.min_pot, max_pot=choice.max_pot)


def list_hands(database: Database, hand_filter: HandFilter, choice: HandChoice | None = None, *,
               sort: str | None = None, descending: bool | None = None, limit: int | None = None,
               terminal: TerminalChoice | None = None) -> Listed:
    """The matching hands sorted by the column ``sort`` names (default: the date; numbers and dates
    largest first, text A to Z, unless ``descending`` says), the first ``limit`` of them, with how
    many matched; with ``terminal``, the columns the terminal shows, spelled for it. NothingMatched
    (a UsageError) when the filters select no hand; UsageError for an unknown column, or a
    showdown asked without a player."""
    choice = choice or HandChoice()
    with_player = bool(hand_filter.players)
    if choice.showdown is not None and not with_player:
        raise UsageError("--showdown is a player's: add --player NAME (whose showdown)")
    keys = [key for key in KEYS if with_player or key not in PLAYER_KEYS]
    try:
        sort_key = column_key(sort, keys, LABELS, "hands") if sort else "started_at"
        chosen = [column_key(name, keys, LABELS, "hands") for name in terminal.columns] if terminal else []
    except UnknownColumn as error:
        raise UsageError(str(error)) from None
    if descending is None:
        descending = sort_key in DESCENDING_FIRST
    listed = list_choice(choice)
    with report_store(database) as store:
        require_matches(store, hand_filter)
        if with_player:
            with selected_facts(store, hand_filter) as (facts, facts_params):
                frame, total, before = hand_queries.player_hands_page(
                    store, facts, facts_params, VERDICT_SQL, listed, sort_key, descending, limit)
        else:
            where, params = hand_filter.sql()
            frame, total, before = hand_queries.hands_page(
                store, where, params, VERDICT_SQL, listed, sort_key, descending, limit)
    if total == 0 and (before or hand_filter != HandFilter() or choice != HandChoice()):  # (asked for nothing: none)
        said = _nothing_said(choice, before, with_player)
        raise (NothingMatched if said == EMPTY_STORE else NoneTogether)(said)
    currencies = sorted(set(frame["currency"].to_list())) if "currency" in frame.columns else []
    order_note = None
    if sort_key in hand_queries.MONEY_SORT_KEYS and len(currencies) > 1:
        order_note = (f"sorted by currency ({', '.join(currencies)}), then {LABELS.get(sort_key, sort_key)} within "
                      "each: amounts of two currencies are never compared")
    frame = zone_labelled(in_user_zone(frame))
    if terminal is not None:
        frame = terminal_view(frame, shown_keys(frame, chosen, terminal.all_columns, with_player))
    else:
        frame = frame.select([key for key in keys if key in frame.columns])
    return Listed(frame, total, order_note)


EMPTY_STORE = "the store holds no hands yet: run `hhtool import PATH` first"


def _nothing_said(choice: HandChoice, before: int, with_player: bool) -> str:
    if before == 0 and with_player:  # (the players were seated in matching hands, but dealt into none of them)
        return "the players asked for were dealt into no hand the filters select"
    if before == 0:
        return EMPTY_STORE
    whose = "of the player's " if with_player else "of the "
    hands = f"{before:,} hand" + ("" if before == 1 else "s")
    return f"none {whose}{hands} the other filters select matches {choice.said()}"


__all__ = ["OPTIONAL_COLUMNS", "UNCUT_COLUMNS", "HandChoice", "Listed", "Showdown", "TerminalChoice", "Verdict",
           "hand_choice", "limit_for", "list_hands"]
