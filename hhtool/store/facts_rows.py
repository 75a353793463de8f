"""The stats facts of a chunk's hands, tabulated in Python where the hands are parsed and replayed (the
import's workers), as the ``player_facts`` rows the importing process only appends (issue #37).

One row per player dealt in and hand, with the columns of the facts query of :mod:`hhtool.store.player_facts`,
in its order and types. That SQL stays the definition: the tests hold these rows equal to it on every
column of every row (samples, corpus, simulated hands), and reports still run it for hands stored without
facts. What the SQL derives again from the stored rows is taken here from what the replay walked: each
action's bet level and chips to call and who was dealt in (:class:`hhtool.replay.BettingFacts`, duck-typed:
the store imports nothing of the replay); the hand columns every row repeats are read from the chunk's
``hands`` table as :func:`hhtool.store.tables.hand_rows` built it.

Speed: one pass over a hand's actions; no container per row. The 0/1 and count columns are one integer
matrix, zero but where a row sets a value (its flat index appended once), made into columns at the end; the
hand columns are taken from the ``hands`` table by row (Arrow ``take``), not repeated in Python.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from itertools import repeat
from typing import Any

import numpy as np
import pyarrow as pa

from hhtool.model import ActionKind, Hand
from hhtool.store.facts_storage import ROWS_TABLE, stored_columns
from hhtool.store.player_facts import (
    ALL_STREETS,
    COVERED_TABLE,
    LATER_STREETS,
    OUTCOMES,
    counts_in_query_order,
)

__all__ = ["COVERED_TABLE", "ROWS_TABLE", "facts_table", "rows_schema", "start_group"]
from hhtool.store.facts_showdown import outcomes, rake_shares
from hhtool.store.start_groups import LOW_RANKS, RANKS, UNKNOWN

_ANTE, _BRING_IN, _COMPLETE, _BET, _RAISE, _CALL, _CHECK, _FOLD = (
    ActionKind.ANTE, ActionKind.BRING_IN, ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE, ActionKind.CALL,
    ActionKind.CHECK, ActionKind.FOLD)
_AGGRESSIVE = frozenset((_COMPLETE, _BET, _RAISE))
_ENTERS = frozenset((_COMPLETE, _BET, _RAISE, _CALL))
_DECISIONS = frozenset((_COMPLETE, _BET, _RAISE, _CALL, _CHECK, _FOLD))
_DOOR_RANKS = "23456789TJQKA"

#: the stored types (:func:`hhtool.store.facts_storage.stored_columns`) as Arrow types
_ARROW = {"BIGINT": pa.int64(), "VARCHAR": pa.string(), "UTINYINT": pa.uint8(), "INTEGER": pa.int32()}


@cache
def rows_schema() -> pa.Schema:
    """The Arrow schema of the rows: the stored table's columns and types (``player_facts_rows``)."""
    return pa.schema([pa.field(name, _ARROW[kind], nullable=name not in ("hk", "player"))
                      for name, kind in stored_columns()])


_COUNTS = counts_in_query_order()  # (the SQL definition's counts, in its order)
_WIDTH = len(_COUNTS)
_AT = {name: index for index, name in enumerate(_COUNTS)}  # a count column's place in a row of the matrix
_VPIP_O, _VPIP_N, _RAISE3_O, _RAISE3_N = (_AT[n] for n in ("vpip__o", "vpip__n", "raise_3rd__o", "raise_3rd__n"))
#: per 3rd-street level (1, 2, 3): the (__o, __n) places of the statistics answering it, and the decision each counts
_LEVEL_STATS = {1: ((_AT["fold_to_complete__o"], _AT["fold_to_complete__n"], _FOLD),
                    (_AT["two_bet_3rd__o"], _AT["two_bet_3rd__n"], _RAISE)),
                2: ((_AT["three_bet_3rd__o"], _AT["three_bet_3rd__n"], _RAISE),),
                3: ((_AT["four_bet_3rd__o"], _AT["four_bet_3rd__n"], _RAISE),)}
_FIRST_IN = (_AT["complete_first_in__o"], _AT["limp__o"])
_COMPLETE_FIRST_IN_N, _LIMP_N = _AT["complete_first_in__n"], _AT["limp__n"]
_BRING_IN_COMPLETE_O, _BRING_IN_COMPLETE_N = _AT["bring_in_complete__o"], _AT["bring_in_complete__n"]
_STEAL_DOOR_O, _STEAL_DOOR_N = _AT["steal_door__o"], _AT["steal_door__n"]
_STEAL_POS_O, _STEAL_POS_N = _AT["steal_position__o"], _AT["steal_position__n"]
_STEAL_O, _STEAL_N, _SUCCESS_O, _SUCCESS_N = (_AT[n] for n in ("steal__o", "steal__n", "steal_success__o",
                                                               "steal_success__n"))
_VS_STEAL_O = (_AT["bring_in_fold_to_steal__o"], _AT["bring_in_resteal__o"])
_VS_STEAL_N = {_FOLD: _AT["bring_in_fold_to_steal__n"], _RAISE: _AT["bring_in_resteal__n"]}
_VS_3BET_O, _VS_3BET_N = _AT["fold_to_three_bet_3rd__o"], _AT["fold_to_three_bet_3rd__n"]
_SAW_O = tuple(_AT[f"saw_{street}__o"] for street in ALL_STREETS)  # 1 on every row
#: the ``saw_N__n`` places of a player who saw up to a street (0: none; every hand has 3rd street)
_SAW_UP_TO = {last: tuple(_AT[f"saw_{street}__n"] for street in ALL_STREETS if street <= last) for last in range(8)}
_AGGRESSION_N = {street: _AT[f"aggression_{street}__n"] for street in ALL_STREETS}
_AGGRESSION_O = {street: _AT[f"aggression_{street}__o"] for street in ALL_STREETS}
_FOLD_O = {street: _AT[f"fold_{street}__o"] for street in ALL_STREETS}
_FOLD_N = {street: _AT[f"fold_{street}__n"] for street in ALL_STREETS}
_CBET = {street: (_AT[f"cbet_{street}__o"], _AT[f"cbet_{street}__n"]) for street in LATER_STREETS}
_VS_CBET = {street: (_AT[f"fold_to_cbet_{street}__o"], _AT[f"fold_to_cbet_{street}__n"]) for street in LATER_STREETS}
_CHECK_RAISE = {street: (_AT[f"check_raise_{street}__o"], _AT[f"check_raise_{street}__n"]) for street in LATER_STREETS}
_SEEN_4TH = (_AT["wtsd__o"], _AT["won_saw_4th__o"])
_WTSD_N, _WSD_O, _WSD_N, _WON_4TH_N = (_AT[n] for n in ("wtsd__n", "wsd__o", "wsd__n", "won_saw_4th__n"))
_OUTCOME_O = tuple(_AT[f"{name}__o"] for name in OUTCOMES)
_OUTCOME_N = {name: _AT[f"{name}__n"] for name in OUTCOMES}
_BY_LABEL, _BY_CARDS, _UNKNOWN = _AT["halves_by_label"], _AT["halves_by_cards"], _AT["halves_unknown"]
_LOW_O, _LOW_N = _AT["low_qualified__o"], _AT["low_qualified__n"]


@cache
def start_group(cards: str | None) -> str:
    """The starting-hand group of "down down door" (:func:`hhtool.store.start_groups.start_group_sql`)."""
    if cards is None:
        return UNKNOWN
    parts = cards.split(" ")
    if len(parts) != 3 or any(len(part) != 2 or part[0].upper() not in RANKS for part in parts):
        return UNKNOWN
    first, second, door = (part[0].upper() for part in parts)
    suits = [part[1].lower() for part in parts]
    if first == second == door:
        return "rolled-up trips"
    if first == second:
        return f"buried pair {first}"
    if door in (first, second):
        return f"split pair {door}"
    if all(rank in LOW_RANKS for rank in (first, second, door)):
        return "three to a low"
    if suits[0] == suits[1] == suits[2]:
        return "three to a flush"
    high = [15 - (RANKS.index(rank) + 1) for rank in (first, second, door)]
    low = [1 if rank == "A" else value for rank, value in zip((first, second, door), high, strict=True)]
    if max(high) - min(high) <= 4 or max(low) - min(low) <= 4:
        return "three to a straight"
    return f"high cards, door {door}"


@cache
def _door_rank(card: str) -> int | None:
    """``nullif(strpos('23456789TJQKA', upper(substr(card, 1, 1))), 0) + 1``."""
    found = _DOOR_RANKS.find(card[:1].upper())
    return None if found < 0 or not card else found + 2


class _Columns:
    """The rows being gathered: the per-player columns as lists, the ``hands`` row each comes from, and
    the count columns as flat places in a row-major matrix (``row * width + place``)."""

    __slots__ = ("collected", "counted", "door", "ev_milli", "fold_street", "hand_of", "last_street", "net",
                 "ones", "player", "rake", "start", "third", "went_sd")

    def __init__(self) -> None:
        self.hand_of: list[int] = []
        self.player: list[str] = []
        self.door: list[str | None] = []
        self.third: list[str | None] = []
        self.start: list[str] = []
        self.net: list[int] = []
        self.collected: list[int] = []
        self.rake: list[int] = []
        self.went_sd: list[int] = []
        self.fold_street: list[int | None] = []
        self.last_street: list[int] = []
        self.ev_milli: list[int] = []
        self.ones: list[int] = []  # a 0/1 column set to 1 (set twice: still 1, as the SQL's max)
        self.counted: list[int] = []  # a count column's place, once per unit counted


def facts_table(items: Sequence[tuple[Hand, Any, str | None]], betting: Sequence[Any], allin: Sequence[Any] | None,
                tables: Mapping[str, pa.Table]) -> pa.Table:
    """The facts rows of ``items`` ((hand, replay, profile), with each one's betting facts and all-in EV, as
    :func:`hhtool.store.tables.hand_rows` takes them; ``tables`` the tables it made of them, whose ``hands``
    rows and card texts are read here, not made again). A hand without betting facts (its walk failed) has
    no rows: nobody is known to be dealt in."""
    out = _Columns()
    hands = tables["hands"]
    community = hands["community_card"].to_pylist()
    dealt, dealt_at = _texts_by_hand(tables["cards"], "card", len(items))
    shown, shown_at = _texts_by_hand(tables["showdown"], "cards", len(items))
    for index, ((hand, _, _), facts, ev) in enumerate(zip(items, betting, allin or repeat(None), strict=False)):
        if facts is not None:
            ev_net = None if ev is None or isinstance(ev, str) else ev.ev_net
            _hand_facts(index, hand, facts, ev_net, out, (dealt, dealt_at[index]),
                        (shown, shown_at[index], community[index]))
    return _table(out, hands)


def _texts_by_hand(table: pa.Table, column: str, hands: int) -> tuple[list[str | None], list[int]]:
    """A table's card texts (one per row, the rows of each hand together, as the builder wrote them) and
    the place of each hand's first row."""
    starts = np.zeros(hands + 1, dtype=np.int64)
    np.cumsum(np.bincount(np.asarray(table["hk"].to_pylist(), dtype=np.int64), minlength=hands), out=starts[1:])
    return table[column].to_pylist(), starts.tolist()


def _table(out: _Columns, hands: pa.Table) -> pa.Table:
    """The gathered rows as stored: the hand's key taken from ``hands``, the counts' matrix by column, each
    in its stored type (the view ``player_facts`` adds the hand's columns)."""
    rows = len(out.player)
    columns: dict[str, pa.Array | pa.ChunkedArray] = {
        "hk": hands["hk"].take(pa.array(out.hand_of, pa.int64())), "player": pa.array(out.player, pa.string()),
        "door_card": pa.array(out.door, pa.string()), "third_cards": pa.array(out.third, pa.string()),
        "start": pa.array(out.start, pa.string()), "net": pa.array(out.net, pa.int64()),
        "collected": pa.array(out.collected, pa.int64()), "rake_paid": pa.array(out.rake, pa.int64()),
        "went_sd": pa.array(out.went_sd, pa.uint8()), "fold_street": pa.array(out.fold_street, pa.uint8()),
        "last_street": pa.array(out.last_street, pa.uint8()), "ev_net_milli": pa.array(out.ev_milli, pa.int64())}
    matrix = np.bincount(np.array(out.counted, dtype=np.int64), minlength=rows * _WIDTH).astype(np.int32)
    matrix[np.array(out.ones, dtype=np.int64)] = 1
    counts = matrix.reshape(rows, _WIDTH)
    counts[:, list(_SAW_O)] = 1
    by_column = np.ascontiguousarray(counts.T)
    schema = rows_schema()
    for name in _COUNTS:
        kind = schema.field(name).type
        values = by_column[_AT[name]]
        columns[name] = pa.array(values.astype(np.uint8) if kind == pa.uint8() else values, kind)
    return pa.table([columns[field.name] for field in schema], schema=schema)


def _hand_facts(index: int, hand: Hand, facts: Any, ev_net: Mapping[str, int] | None, out: _Columns,
                dealt_texts: tuple[list[str | None], int], shown_texts: tuple[list[str | None], int, str | None]) -> None:
    """Append the rows of one hand (the ``fate`` CTE's players: those dealt in, by position); ``dealt_texts``
    (and ``shown_texts``): the ``cards`` (``showdown``) texts of the chunk and where the hand's begin."""
    dealt = set(facts.dealt_in)
    order = hand.position_order
    players = [player for player in order if player in dealt]
    if not players:
        return
    n_dealt = len(players)
    idx = {player: place for place, player in enumerate(players)}
    base = len(out.player)
    row_of = {player: base + place for place, player in enumerate(players)}
    ones = out.ones
    # cards (``door``, ``third_cards``, the cards' part of ``streets``)
    door: dict[str, str | None] = {}
    door_line: dict[str, int] = {}
    third: dict[str, list[tuple[bool, str | None]]] = {}
    last_street = 0
    texts, at = dealt_texts
    for deal in hand.deals:
        downs, n = len(deal.down), len(deal.down) + len(deal.up)
        if not n:
            continue
        street = deal.street
        if street > last_street:
            last_street = street
        if street != 3:
            at += n
            continue
        player = deal.player
        held = third.get(player)
        if held is None:
            held = third[player] = []
        held.extend((False, card) for card in texts[at:at + downs])
        held.extend((True, card) for card in texts[at + downs:at + n])
        for card in texts[at + downs:at + n]:
            if player not in door:
                door[player] = None
            if card is not None and (door[player] is None or deal.line < door_line[player]):
                door[player], door_line[player] = card, deal.line
        at += n
    # the actions (``acts``, ``dec``, ``opener``, ``fold``, ``last_aggressor``, ``per_street``): one pass
    opener: str | None = None
    opener_posted = False
    entered: dict[int, int] = {}
    last_level: dict[tuple[int, str], int] = {}
    decided: dict[tuple[int, str], int] = {}
    fold_street: dict[str, int] = {}
    fold_seq: dict[str, int] = {}
    aggressor: dict[int, str] = {}
    third_decisions: list[tuple[int, str, ActionKind, int, bool, int, int]] = []  # seq, player, kind, level, first, nth, entered
    later: list[tuple[int, int, str, ActionKind, int, bool]] = []  # seq, street, player, kind, level, first
    entered_at: list[int] = []  # the seq of each call, raise or complete on 3rd street (``steal``'s success)
    levels, to_call = facts.level_before, facts.to_call
    for seq, action in enumerate(hand.actions):
        kind = action.kind
        if kind is _ANTE:
            continue
        street = action.street
        player = action.player
        if street > last_street:
            last_street = street
        if street == 3 and opener is None:
            opener, opener_posted = player, kind is _BRING_IN
        before = entered.get(street, 0)
        if kind in _ENTERS:
            entered[street] = before + 1
            if street == 3 and kind is not _BET:
                entered_at.append(seq)
        if kind in _AGGRESSIVE:
            aggressor[street] = player
        if kind is _FOLD:
            if player not in fold_seq:
                fold_seq[player] = seq
            if street < fold_street.get(player, 8):
                fold_street[player] = street
        if kind not in _DECISIONS:
            continue
        level = levels[seq]
        key = (street, player)
        nth = decided.get(key, 0) + 1
        decided[key] = nth
        first = last_level.get(key, -1) < level
        last_level[key] = level
        row = row_of.get(player)
        if row is not None:
            flat = row * _WIDTH
            out.counted.append(flat + _AGGRESSION_O[street])
            if kind in _AGGRESSIVE:
                out.counted.append(flat + _AGGRESSION_N[street])
            if to_call[seq] > 0:
                ones.append(flat + _FOLD_O[street])
                if kind is _FOLD:
                    ones.append(flat + _FOLD_N[street])
        if street == 3:
            third_decisions.append((seq, player, kind, level, first, nth, before))
        else:
            later.append((seq, street, player, kind, level, first))
    remaining = sum(1 for player in players if player not in fold_seq)
    hand_last = 7 if remaining >= 2 else (last_street or 3)
    _third_street(hand, players, idx, n_dealt, row_of, door, fold_seq, remaining, opener, opener_posted,
                  third_decisions, entered_at, out)
    _later_streets(later, aggressor, row_of, ones)
    # results, rake, showdown, the per-player columns
    put_in: dict[str, int] = {}
    for action in hand.actions:
        put_in[action.player] = put_in.get(action.player, 0) + action.amount
    for ret in hand.uncalled:
        put_in[ret.player] = put_in.get(ret.player, 0) - ret.amount
    collected: dict[str, int] = {}
    for award in hand.awards:
        collected[award.player] = collected.get(award.player, 0) + award.amount
    seated = set(hand.players)
    rake_paid = rake_shares(hand, seated, put_in, collected)
    went = remaining >= 2
    contenders = [player for player in players if went and player not in fold_seq]
    outcome = outcomes(hand, contenders, collected, seated, shown_texts) if contenders else {}
    for player in players:
        row = row_of[player]
        flat = row * _WIDTH
        out.hand_of.append(index)
        out.player.append(player)
        card = door.get(player)
        out.door.append(card[0].upper() if card else None)
        cards = third.get(player)
        text = None
        if cards is not None and len(cards) == 3 and None not in [c for _, c in cards] \
                and sum(1 for up, _ in cards if up) == 1:
            text = " ".join([c or "" for up, c in cards if not up] + [c or "" for up, c in cards if up])
        out.third.append(text)
        out.start.append(start_group(text))
        in_results = player in seated
        got = collected.get(player, 0) if in_results else 0
        net = got - put_in.get(player, 0) if in_results else 0
        out.net.append(net)
        out.collected.append(got)
        out.rake.append(rake_paid.get(player, 0))
        folded_on = fold_street.get(player)
        went_sd = went and folded_on is None
        out.went_sd.append(int(went_sd))
        out.fold_street.append(folded_on)
        out.last_street.append(hand_last)
        ev = ev_net.get(player, 0) if ev_net is not None and in_results else None
        out.ev_milli.append(ev if ev is not None else net * 1000)
        seen = hand_last if folded_on is None or folded_on > hand_last else folded_on  # the last street he saw
        ones.extend([flat + place for place in _SAW_UP_TO[seen]])
        if seen >= 4:
            ones.extend((flat + _SEEN_4TH[0], flat + _SEEN_4TH[1]))
            if got > 0:
                ones.append(flat + _WON_4TH_N)
        if went_sd:
            ones.extend((flat + _WTSD_N, flat + _WSD_O))
            if got > 0:
                ones.append(flat + _WSD_N)
        decided_halves = outcome.get(player)
        if decided_halves is not None:
            source, result, low_o, low_n = decided_halves
            if result != "unknown":
                ones.extend(flat + place for place in _OUTCOME_O)
                if result in _OUTCOME_N:
                    ones.append(flat + _OUTCOME_N[result])
            else:
                ones.append(flat + _UNKNOWN)
            if source == "label":
                ones.append(flat + _BY_LABEL)
            elif source == "cards":
                ones.append(flat + _BY_CARDS)
            if low_o:
                ones.append(flat + _LOW_O)
            if low_n:
                ones.append(flat + _LOW_N)


def _third_street(hand: Hand, players: list[str], idx: dict[str, int], n_dealt: int, row_of: dict[str, int],
                  door: dict[str, str | None], fold_seq: dict[str, int], remaining: int, opener: str | None,
                  opener_posted: bool, decisions: list[tuple[int, str, ActionKind, int, bool, int, int]],
                  entered_at: list[int], out: _Columns) -> None:
    """The 3rd-street CTEs: ``third``, ``first_in``, ``behind``, ``steal_spot``, ``steal``, ``vs_steal``,
    ``vs_three_bet``, and the opener's ``bring_in_complete``."""
    ones = out.ones
    if opener is not None and opener in row_of:
        flat = row_of[opener] * _WIDTH
        ones.append(flat + _BRING_IN_COMPLETE_O)
        if not opener_posted:
            ones.append(flat + _BRING_IN_COMPLETE_N)
    steal_seq: int | None = None
    raised_at_one: set[str] = set()  # players who 2-bet (raised at level 1), for ``vs_three_bet``
    for seq, player, kind, level, first, nth, before in decisions:
        row = row_of.get(player)
        if row is not None:
            flat = row * _WIDTH
            ones.extend((flat + _VPIP_O, flat + _RAISE3_O))
            if kind in _ENTERS:
                ones.append(flat + _VPIP_N)
                if kind is not _CALL:
                    ones.append(flat + _RAISE3_N)
            if first and level in _LEVEL_STATS:
                for taken, made, wanted in _LEVEL_STATS[level]:
                    ones.append(flat + taken)
                    if kind is wanted:
                        ones.append(flat + made)
            if first and level == 3 and player in raised_at_one:
                ones.append(flat + _VS_3BET_O)
                if kind is _FOLD:
                    ones.append(flat + _VS_3BET_N)
            if nth == 1 and opener is not None and player != opener and before == 0:
                spot = _first_in(seq, player, kind, players, idx, n_dealt, door, fold_seq, opener, flat, ones)
                if kind is _COMPLETE and spot:
                    steal_seq = seq
                    ones.extend((flat + _STEAL_N, flat + _SUCCESS_O))
                    if remaining == 1 and not any(later > seq for later in entered_at):
                        ones.append(flat + _SUCCESS_N)
            if (nth == 1 and before == 1 and opener_posted and player == opener and steal_seq is not None
                    and steal_seq < seq):
                ones.extend(flat + place for place in _VS_STEAL_O)
                if kind in _VS_STEAL_N:
                    ones.append(flat + _VS_STEAL_N[kind])
        if level == 1 and kind is _RAISE:
            raised_at_one.add(player)


def _first_in(seq: int, player: str, kind: ActionKind, players: list[str], idx: dict[str, int], n_dealt: int,
              door: dict[str, str | None], fold_seq: dict[str, int], opener: str, flat: int, ones: list[int]) -> bool:
    """``first_in``, ``behind`` and ``steal_spot`` of a dealt-in player's first-in decision (``flat``: its row);
    whether it is a steal spot (by the door card or by position)."""
    ones.extend((flat + _FIRST_IN[0], flat + _FIRST_IN[1]))
    if kind is _COMPLETE:
        ones.append(flat + _COMPLETE_FIRST_IN_N)
    elif kind is _CALL:
        ones.append(flat + _LIMP_N)
    mine = _door_rank(door[player]) if door.get(player) else None
    by_door = False
    if mine is not None:
        best = 0
        behind = 0
        for other in players:
            if other == player or fold_seq.get(other, seq + 1) <= seq:
                continue
            behind += 1
            card = door.get(other)
            rank = _door_rank(card) if card else None
            if rank is None:
                best = -1
                break
            best = max(best, rank)
        by_door = behind > 0 and best >= 0 and mine > best
    op = idx.get(opener)
    mine_idx = idx[player]
    by_position = op is not None and mine_idx != op and (mine_idx - op + n_dealt) % n_dealt >= n_dealt - 2
    if by_door:
        ones.append(flat + _STEAL_DOOR_O)
        if kind is _COMPLETE:
            ones.append(flat + _STEAL_DOOR_N)
    if by_position:
        ones.append(flat + _STEAL_POS_O)
        if kind is _COMPLETE:
            ones.append(flat + _STEAL_POS_N)
    if by_door or by_position:
        ones.append(flat + _STEAL_O)
        return True
    return False


def _later_streets(later: list[tuple[int, int, str, ActionKind, int, bool]], aggressor: dict[int, str],
                   row_of: dict[str, int], ones: list[int]) -> None:
    """``cbet_spot``, ``vs_cbet`` and ``check_raise`` of the decisions after 3rd street."""
    cbettors: dict[int, list[str]] = {}  # street -> who made a c-bet on it (earlier decisions first)
    checked: dict[tuple[int, str], int] = {}  # a check's (street, player) -> its row's place, awaiting the next decision
    for _, street, player, kind, level, first in later:
        row = row_of.get(player)
        flat = -1 if row is None else row * _WIDTH
        if checked:
            waiting = checked.pop((street, player), None)
            if waiting is not None:  # the player's next decision after his check
                ones.append(waiting + _CHECK_RAISE[street][0])
                if kind is _RAISE:
                    ones.append(waiting + _CHECK_RAISE[street][1])
        if first and level == 0 and aggressor.get(street - 1) == player:
            if kind is _BET:
                cbettors.setdefault(street, []).append(player)
            if row is not None:
                ones.append(flat + _CBET[street][0])
                if kind is _BET:
                    ones.append(flat + _CBET[street][1])
        elif first and level == 1 and row is not None and any(bettor != player for bettor in cbettors.get(street, ())):
            ones.append(flat + _VS_CBET[street][0])
            if kind is _FOLD:
                ones.append(flat + _VS_CBET[street][1])
        if kind is _CHECK and row is not None:
            checked[(street, player)] = flat
