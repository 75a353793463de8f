"""Model values → Arrow tables, with the column names, order and types of :mod:`hhtool.store.spec`.

A builder gives, per table, the model object each row is made from and, by name, the columns it
computes (the spec's columns without ``of``, as its :class:`Rows` names them in ``given``); the
columns with ``of`` are read from the objects. A column added to the spec with ``of`` is therefore
stored without any edit here; one without ``of`` makes the spec differ from the builder's
``given``, which fails when this module is imported, until the builder computes it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from hashlib import sha256
from itertools import chain, repeat
from operator import attrgetter, itemgetter
from typing import Any, Protocol

import pyarrow as pa
import pyarrow.compute as pc

from hhtool.clock import utc_instant
from hhtool.model import Card, FailedHand, Hand, SkippedHand
from hhtool.store.spec import (
    BIGINT,
    BIGINT_LIST,
    BOOLEAN,
    BUY_IN_COLUMNS,
    INTEGER,
    INTEGER_LIST,
    SKIPPED_FINISH_COLUMNS,
    TIMESTAMP,
    VARCHAR,
    VARCHAR_LIST,
    table,
)

#: the Arrow type of each DuckDB type the spec uses. Fields stay nullable: Arrow does not check a
#: non-null field, DuckDB checks NOT NULL at insert
ARROW_TYPES: dict[str, pa.DataType] = {
    VARCHAR: pa.string(), INTEGER: pa.int32(), BIGINT: pa.int64(), BOOLEAN: pa.bool_(),
    TIMESTAMP: pa.timestamp("us"), VARCHAR_LIST: pa.list_(pa.string()), INTEGER_LIST: pa.list_(pa.int32()),
    BIGINT_LIST: pa.list_(pa.int64()),
}


class SpecMismatch(RuntimeError):
    """A row builder and the table specification disagree on a table's columns."""


def arrow_schema(name: str) -> pa.Schema:
    """The Arrow schema of the rows a builder writes to ``name`` (the spec's columns, in order,
    without those the database fills)."""
    return pa.schema([pa.field(column.name, ARROW_TYPES[column.type]) for column in table(name).built])


class Rows:
    """One table's rows as a builder gathers them: the computed columns (``given``: the spec's
    columns without ``of``) as lists by name, and the model object each row is made from (the
    columns with ``of`` are read from those objects, one C-level pass per column)."""

    def __init__(self, name: str, given: tuple[str, ...]) -> None:
        spec = table(name)
        computed = tuple(column.name for column in spec.built if column.of is None)
        if computed != given:
            raise SpecMismatch(f"the {name} builder gives {given}; the spec's columns without `of` are {computed}")
        self.name, self.given = name, frozenset(given)
        self._fields = [(column.name, ARROW_TYPES[column.type], attrgetter(column.of) if column.of else None)
                        for column in spec.built]

    def table(self, given: dict[str, list[Any]], objects: Sequence[Any] = ()) -> pa.Table:
        if given.keys() != self.given:
            raise SpecMismatch(f"{self.name}: the builder gave {sorted(given)}, the spec wants {sorted(self.given)}")
        return pa.table({name: pa.array(given[name] if read is None else list(map(read, objects)), type=kind)
                         for name, kind, read in self._fields})  # columns of unequal length fail here


def repeated(values: list[Any], counts: list[int]) -> list[Any]:
    """Each value ``count`` times: a hand's key on each of its rows."""
    return list(chain.from_iterable(map(repeat, values, counts)))


class _CardTexts(dict[Any, Any]):
    """A card's text by card, made once per card (``str(card)`` per dealt card was ≈ a tenth of the
    builder's time); ``None`` (a hidden card) maps to the given text."""

    def __init__(self, hidden: str | None) -> None:
        super().__init__({None: hidden})

    def __missing__(self, card: Card) -> str:
        text = self[card] = str(card)
        return text


_DEALT_TEXT = _CardTexts(None).__getitem__  # cards: NULL where the history hides a card
_SHOWN_TEXT = _CardTexts("??").__getitem__  # card lists, as model.cards_text writes them


def _cards_text(cards: tuple[Card | None, ...]) -> str | None:
    """:func:`hhtool.model.cards_text` of a card list (None when empty), from the cached texts."""
    return " ".join(map(_SHOWN_TEXT, cards)) if cards else None


def numbered(counts: list[int]) -> list[int]:
    """0 … count - 1 for each count: ``seq`` within each hand."""
    return list(chain.from_iterable(map(range, counts)))


# enums are stored as they are: pyarrow takes a StrEnum as its text and an IntEnum as its number
HANDS = Rows("hands", ("players", "community_card", "notes", "verdict", "rules_profile", "note_lines", "note_topics",
                      "hk", *BUY_IN_COLUMNS, "allin_ev", "allin_street", "allin_deals",
                      "started_utc"))
SEATS = Rows("seats", ("hk", "seq", "position", "dealt_in"))
CARDS = Rows("cards", ("hk", "seq", "face", "card"))
#: the columns of ``actions`` the builder computes (the rest are read from the Action values)
ACTIONS_GIVEN = ("hk", "seq", "to_call", "level_before")
ACTIONS = Rows("actions", ACTIONS_GIVEN)
RETURNS = Rows("returns", ("hk", "seq"))
SHOWDOWN = Rows("showdown", ("hk", "seq", "cards"))
AWARDS = Rows("awards", ("hk", "seq"))
RESULTS = Rows("results", ("hk", "player", "contributed", "collected", "net", "ev_net"))
STATED_POTS = Rows("stated_pots", ("hk", "seq"))
RESTATEMENTS = Rows("restatements", ("hk", "seq", "cards"))
FINISHES = Rows("finishes", ("hk", "seq"))
VIOLATIONS = Rows("violations", ("hk", "profile"))
UNVERIFIABLE = Rows("unverifiable", ("hk", "profile"))
ASSUMPTIONS = Rows("assumptions", ("hk", "profile"))
RULE_AWARDS = Rows("rule_awards", ("hk", "profile"))
IMPORT_ERRORS = Rows("import_errors", ("raw_sha256",))
SKIPPED_HANDS = Rows("skipped_hands", SKIPPED_FINISH_COLUMNS)


def shifted(tables: dict[str, pa.Table], by: int) -> dict[str, pa.Table]:
    """``tables`` with ``by`` added to every ``hk`` (a batch's own numbers made the store's keys)."""
    if not by:
        return tables
    moved = {}
    for name, rows in tables.items():
        index = rows.schema.get_field_index("hk")
        moved[name] = rows if index < 0 else rows.set_column(
            index, rows.schema.field(index), pc.add(rows.column(index), pa.scalar(by, pa.int64())))
    return moved


def next_key(tables: dict[str, pa.Table]) -> int:
    """One past the largest ``hk`` of a batch's ``hands`` (0 when it has none)."""
    hands = tables.get("hands")
    if hands is None or not hands.num_rows:
        return 0
    return int(pc.max(hands["hk"]).as_py()) + 1


def _keyed(counts: list[int]) -> dict[str, list[Any]]:
    """``hk`` (the hand's place in the batch) and ``seq`` of each row, from each hand's row count."""
    return {"hk": repeated(list(range(len(counts))), counts), "seq": numbered(counts)}


class Betting(Protocol):
    """The betting facts of a hand the tabulator stores (:class:`hhtool.replay.BettingFacts`): per
    action the chips to call and the bet level before it, and who was dealt in."""

    @property
    def to_call(self) -> Sequence[int]: ...

    @property
    def level_before(self) -> Sequence[int]: ...

    @property
    def dealt_in(self) -> Sequence[str]: ...


class AllIn(Protocol):
    """A hand's all-in EV as the tabulator stores it (:class:`hhtool.equity.allin.AllInEv`)."""

    @property
    def status(self) -> str: ...

    @property
    def street(self) -> int: ...

    @property
    def deals(self) -> int: ...

    @property
    def ev_net(self) -> Mapping[str, int]: ...


def hand_rows(items: Sequence[tuple[Hand, Any, str | None]], betting: Sequence[Betting | None],
              allin: Sequence[AllIn | str | None] | None = None) -> dict[str, pa.Table]:
    """Rows for ``hands`` and every per-hand child table. ``items`` = (hand, replay, profile);
    ``betting``, each item's betting facts as the caller has them (None: unknown, stored as NULL);
    ``allin``, each item's all-in EV, or why it has none (a text), or None (not computed).

    ``hk`` is each hand's place in ``items`` (0, 1, …): the importer makes it the store's key by
    adding the next free key when it writes the batch (:meth:`hhtool.store.Store.write_tables`).

    Speed: no container is made per row. A row is its model object (the hand's own tuples are
    extended into one list per table), its ``of`` columns are read per column, keys and ``seq`` are
    made from each hand's row count; a tuple per row, kept alive until the batch is written, made
    the cyclic collector scan them all again and again (≈3x the builder's time with enum values)."""
    counts: dict[str, list[int]] = {name: [] for name in ("seats", "cards", "actions", "returns", "showdown", "awards",
                                                          "results", "stated_pots", "restatements", "finishes")}
    n_seats, n_cards, n_actions, n_returns, n_showdown, n_awards, n_results, n_pots, n_restated, n_finishes = \
        counts.values()
    community: list[str | None] = []
    notes: list[list[str]] = []
    note_lines: list[list[int | None]] = []
    note_topics: list[list[str | None]] = []
    verdicts: list[Any] = []
    profiles: list[str | None] = []
    seats: list[Any] = []
    positions: list[int] = []
    deals: list[Any] = []  # a card's row reads the deal it came in
    faces: list[str] = []
    card_texts: list[str | None] = []
    actions: list[Any] = []
    dealt_in: list[bool | None] = []
    to_call: list[int | None] = []
    level_before: list[int | None] = []
    returns: list[Any] = []
    showdown: list[Any] = []
    shown_cards: list[str | None] = []
    awards: list[Any] = []
    result_players: list[str] = []
    contributed: list[int] = []
    collected_col: list[int] = []
    net: list[int] = []
    stated_pots: list[Any] = []
    restatements: list[Any] = []
    restated_cards: list[str | None] = []
    finishes: list[Any] = []
    ev_net: list[int | None] = []
    allin_status: list[str | None] = []
    allin_street: list[int | None] = []
    allin_deals: list[int | None] = []
    for (hand, replay, profile), facts, ev in zip(items, betting, allin or repeat(None, len(items)), strict=True):
        card = hand.community_card
        community.append(str(card) if card else None)
        notes.append([note.text for note in hand.notes])
        note_lines.append([note.line for note in hand.notes])
        note_topics.append([note.topic for note in hand.notes])
        verdicts.append(replay.verdict if replay is not None else None)
        profiles.append(profile if replay is not None else None)
        n_seats.append(len(hand.seats))
        seats.extend(hand.seats)
        order = {player: index for index, player in enumerate(hand.position_order)}
        positions.extend(order[seat.player] for seat in hand.seats)
        if facts is None:  # unknown (the walk failed): no facts
            dealt_in.extend([None] * len(hand.seats))
            to_call.extend([None] * len(hand.actions))
            level_before.extend([None] * len(hand.actions))
        else:
            players_in = set(facts.dealt_in)
            dealt_in.extend(seat.player in players_in for seat in hand.seats)
            to_call.extend(facts.to_call)
            level_before.extend(facts.level_before)
        dealt = 0
        for deal in hand.deals:  # a deal's down cards, then its up cards, each row reading the deal
            down, up = deal.down, deal.up
            deals.extend(repeat(deal, len(down) + len(up)))
            faces.extend(repeat("down", len(down)))
            faces.extend(repeat("up", len(up)))
            card_texts.extend(map(_DEALT_TEXT, down))
            card_texts.extend(map(_DEALT_TEXT, up))
            dealt += len(down) + len(up)
        n_cards.append(dealt)
        n_actions.append(len(hand.actions))
        actions.extend(hand.actions)
        n_returns.append(len(hand.uncalled))
        returns.extend(hand.uncalled)
        n_showdown.append(len(hand.showdown))
        showdown.extend(hand.showdown)
        shown_cards.extend(_cards_text(s.cards) for s in hand.showdown)
        n_awards.append(len(hand.awards))
        awards.extend(hand.awards)
        n_pots.append(len(hand.stated_pots))
        stated_pots.extend(hand.stated_pots)
        n_restated.append(len(hand.restatements))
        restatements.extend(hand.restatements)
        restated_cards.extend(_cards_text(r.cards) for r in hand.restatements)
        n_finishes.append(len(hand.finishes))
        finishes.extend(hand.finishes)
        put_in: dict[str, int] = defaultdict(int)  # default: a name outside the seats must not break the import
        for action in hand.actions:
            put_in[action.player] += action.amount
        for ret in hand.uncalled:
            put_in[ret.player] -= ret.amount
        collected: dict[str, int] = defaultdict(int)
        for award in hand.awards:
            collected[award.player] += award.amount
        n_results.append(len(hand.seats))
        for player in hand.players:
            result_players.append(player)
            contributed.append(put_in[player])
            collected_col.append(collected[player])
            net.append(collected[player] - put_in[player])
        if ev is None or isinstance(ev, str):
            allin_status.append(ev)
            allin_street.append(None)
            allin_deals.append(None)
            ev_net.extend(repeat(None, len(hand.seats)))
        else:
            allin_status.append(ev.status)
            allin_street.append(int(ev.street))
            allin_deals.append(ev.deals)
            ev_net.extend(ev.ev_net.get(player, 0) for player in hand.players)  # a player not dealt in: 0
    keyed = {name: _keyed(count) for name, count in counts.items()}
    results_key = keyed["results"]
    del results_key["seq"]
    return {
        "hands": HANDS.table({"players": n_seats, "community_card": community, "notes": notes, "verdict": verdicts,
                              "rules_profile": profiles, "note_lines": note_lines,
                              "note_topics": note_topics, "hk": list(range(len(items))),
                              **_buy_in_columns([hand for hand, _, _ in items]), "allin_ev": allin_status,
                              "allin_street": allin_street, "allin_deals": allin_deals,
                              "started_utc": [utc_instant(hand.site, hand.started_at, hand.timezone)
                                              for hand, _, _ in items]},
                             [hand for hand, _, _ in items]),
        "seats": SEATS.table({**keyed["seats"], "position": positions, "dealt_in": dealt_in}, seats),
        "cards": CARDS.table({**keyed["cards"], "face": faces, "card": card_texts}, deals),
        "actions": ACTIONS.table({**keyed["actions"], "to_call": to_call, "level_before": level_before}, actions),
        "returns": RETURNS.table(keyed["returns"], returns),
        "showdown": SHOWDOWN.table({**keyed["showdown"], "cards": shown_cards}, showdown),
        "awards": AWARDS.table(keyed["awards"], awards),
        "results": RESULTS.table({**results_key, "player": result_players, "contributed": contributed,
                                  "collected": collected_col, "net": net, "ev_net": ev_net}),
        "stated_pots": STATED_POTS.table(keyed["stated_pots"], stated_pots),
        "restatements": RESTATEMENTS.table({**keyed["restatements"], "cards": restated_cards}, restatements),
        "finishes": FINISHES.table(keyed["finishes"], finishes),
    }


def _buy_in_columns(hands: Sequence[Hand]) -> dict[str, list[Any]]:
    """The ``hands`` columns of each hand's buy-in (:data:`BUY_IN_COLUMNS`), None where it states none."""
    stated = [hand.buy_in for hand in hands]
    return {column: [None if buy_in is None else getattr(buy_in, field) for buy_in in stated]
            for column, field in zip(BUY_IN_COLUMNS, ("amount", "fee", "bounty", "currency", "unit"), strict=True)}


def replay_rows(items: Sequence[tuple[Hand, Any, str | None]]) -> dict[str, pa.Table]:
    """Rows for the replay tables (``violations``, ``unverifiable``, ``assumptions``, ``rule_awards``) of the items
    replayed (a replay of None has none); ``hk`` is the hand's place in ``items``, as in :func:`hand_rows`."""
    replayed = [(index, replay, profile) for index, (_, replay, profile) in enumerate(items) if replay is not None]
    keys: dict[str, list[Any]] = {"hk": [index for index, _, _ in replayed],
                                  "profile": [profile or "" for _, _, profile in replayed]}
    tables = {}
    for rows, found in ((VIOLATIONS, attrgetter("violations")), (UNVERIFIABLE, attrgetter("unverifiable")),
                        (ASSUMPTIONS, attrgetter("assumptions")), (RULE_AWARDS, attrgetter("awards"))):
        per_hand = [found(replay) for _, replay, _ in replayed]
        counts = list(map(len, per_hand))
        tables[rows.name] = rows.table({key: repeated(column, counts) for key, column in keys.items()},
                                       list(chain.from_iterable(per_hand)))
    return tables


def shown_schema(name: str) -> pa.Schema:
    """The Arrow schema of a keyed table's rows as its view shows them: (site, hand_id) in place of ``hk``."""
    built = arrow_schema(name)
    return pa.schema([pa.field("site", pa.string()), pa.field("hand_id", pa.string()),
                      *(field for field in built if field.name != "hk")])


def replay_table_of(name: str, rows: list[tuple[Any, ...]]) -> pa.Table:
    """Rows of ``violations``, ``unverifiable`` or ``assumptions`` as its view shows them (site, hand_id, then the
    spec's columns after ``hk``) as a typed table."""
    schema = shown_schema(name)
    if rows and len(rows[0]) != len(schema):
        raise SpecMismatch(f"{name}: rows of {len(rows[0])} values for {len(schema)} columns")
    return pa.table({field.name: pa.array(list(map(itemgetter(index), rows)), type=field.type)
                     for index, field in enumerate(schema)})


def failure_rows(failures: Sequence[FailedHand]) -> pa.Table:
    digests = [sha256(failure.raw.text.encode("utf-8", "replace")).hexdigest() for failure in failures]
    return IMPORT_ERRORS.table({"raw_sha256": digests}, failures)


def skipped_rows(skipped: Sequence[SkippedHand]) -> pa.Table:
    """Rows of ``skipped_hands``: a hand's finishes as lists of their fields (NULL where it states none)."""
    fields = ("player", "place", "prize", "currency", "unit", "line")
    return SKIPPED_HANDS.table({column: [[getattr(finish, field) for finish in hand.finishes] if hand.finishes else None
                                         for hand in skipped]
                                for column, field in zip(SKIPPED_FINISH_COLUMNS, fields, strict=True)}, skipped)
