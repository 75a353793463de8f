"""Stored rows → hand model values, so stored hands can be replayed again (another rule
profile, the dispute view) without the original files."""

from __future__ import annotations

import dataclasses
import enum
import types
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from typing import Any, Union, get_args, get_origin, get_type_hints

from hhtool.model import (
    Action,
    Award,
    BuyIn,
    Card,
    Deal,
    Finish,
    Hand,
    Note,
    NoteTopic,
    Restatement,
    Seat,
    ShownHand,
    Source,
    Stakes,
    StatedPot,
    UncalledReturn,
)
from hhtool.store import Store
from hhtool.store.spec import BUY_IN_COLUMNS, table

#: hands loaded per round trip to the database
LOAD_CHUNK = 5000


def _card(text: str | None) -> Card | None:
    return Card.parse(text) if text and text != "??" else None  # "??": a card the history hides (cards_text)


def _cards(text: str | None) -> tuple[Card | None, ...]:
    return tuple(_card(c) for c in text.split(" ")) if text else ()


def declared_hints(cls: type) -> dict[str, Any]:
    """The model class's field types as its source declares them."""
    return get_type_hints(cls)


def _converter(hint: Any) -> Callable[[Any], Any] | None:
    """How a stored value becomes the model field's: an enum from its value, a tuple from a list."""
    options = [arg for arg in get_args(hint) if arg is not type(None)] if get_origin(hint) in (Union, types.UnionType) \
        else [hint]
    kind = options[0] if len(options) == 1 else None
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return {member.value: member for member in kind}.__getitem__  # ~5x cheaper than calling the enum
    if kind is tuple or get_origin(kind) is tuple:
        return tuple
    return None


class _Maker:
    """Model objects of one class from rows of a table's ``of`` columns (the spec's), by field name:
    a field the spec adds is loaded with no edit here. A NULL where the field is not optional
    leaves the field's default (e.g. ``game_label`` stored before it was required)."""

    def __init__(self, cls: type, table_name: str, prefix: str = "", extra: tuple[str, ...] = ()) -> None:
        columns = [c for c in table(table_name).columns if c.of and c.of.startswith(prefix) and "." not in c.of[len(prefix):]]
        self.cls = cls
        self.columns = [c.name for c in columns]
        self.fields = [c.of[len(prefix):] for c in columns if c.of]
        self.extra = extra  # computed columns selected after these, handed to make() apart
        hints = declared_hints(cls)
        optional = {name for name, hint in hints.items() if type(None) in get_args(hint)}
        defaulted = {f.name for f in dataclasses.fields(cls)
                     if f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING}
        self._convert = [(name, converter) for name in self.fields if (converter := _converter(hints[name])) is not None]
        #: fields a NULL leaves at their default: a nullable column for a field that is not optional
        self._defaulted = [name for name, column in zip(self.fields, columns, strict=True)
                           if column.null and name in defaulted and name not in optional]

    @property
    def select(self) -> str:
        return ", ".join(f"t.{name}" for name in (*self.columns, *self.extra))

    def make(self, row: Sequence[Any], **more: Any) -> Any:
        found = dict(zip(self.fields, row, strict=False))  # the computed columns (``extra``) follow: not zipped
        for name, convert in self._convert:
            value = found[name]
            if value is not None:
                found[name] = convert(value)
        for name in self._defaulted:
            if found[name] is None:
                del found[name]
        return self.cls(**found, **more)


_SEAT = _Maker(Seat, "seats")
_DEAL = _Maker(Deal, "cards", extra=("face", "card"))
_ACTION = _Maker(Action, "actions")
_RETURN = _Maker(UncalledReturn, "returns")
_SHOWN = _Maker(ShownHand, "showdown", extra=("cards",))
_AWARD = _Maker(Award, "awards")
_POT = _Maker(StatedPot, "stated_pots")
_RESTATEMENT = _Maker(Restatement, "restatements", extra=("cards",))
_FINISH = _Maker(Finish, "finishes")
_HAND = _Maker(Hand, "hands", extra=("community_card", "notes", "note_lines", "note_topics", *BUY_IN_COLUMNS))
_SOURCE = _Maker(Source, "hands", prefix="source.")
_STAKES = _Maker(Stakes, "hands", prefix="stakes.")


def _group(rows: list[tuple[Any, ...]]) -> dict[int, list[tuple[Any, ...]]]:
    grouped: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    for row in rows:
        grouped[row[0]].append(row[1:])
    return grouped


def load_hands(store: Store, where: str = "TRUE", params: Sequence[Any] = ()) -> Iterator[Hand]:
    """Hands matching a SQL condition on ``hands`` (alias ``h``), in (site, hand_id) order."""
    keys = store.run(f"SELECT h.hk FROM hands h WHERE {where} ORDER BY h.site, h.hand_id", list(params))
    for start in range(0, len(keys), LOAD_CHUNK):
        yield from _load_chunk(store, keys[start:start + LOAD_CHUNK])


def load_hands_by_key(store: Store, keys: Iterable[tuple[str, str]]) -> Iterator[Hand]:
    """The stored hands of these (site, hand id) keys, in (site, hand_id) order (a key not stored: none)."""
    wanted = [f"{site}\x00{hand_id}" for site, hand_id in keys]  # (no site or id holds a NUL)
    return load_hands(store, "list_contains(?, h.site || chr(0) || h.hand_id)", [wanted])


def _load_chunk(store: Store, keys: list[tuple[Any, ...]]) -> Iterator[Hand]:
    # a temporary table made from a list parameter rather than a registered Arrow table: `show`
    # loads one hand, and PyArrow would cost it more than the rest of the loading
    store.run("CREATE OR REPLACE TEMP TABLE wanted_hands AS SELECT unnest(?::BIGINT[]) AS hk", [[k[0] for k in keys]])
    try:
        def rows(name: str, columns: str, order: str) -> dict[int, list[tuple[Any, ...]]]:
            return _group(store.run(
                f"SELECT t.hk, {columns} FROM {table(name).stored} t JOIN wanted_hands w "
                f"ON t.hk = w.hk ORDER BY t.hk, {order}"
            ))

        hand_columns = f"{_HAND.select}, {_SOURCE.select}, {_STAKES.select}"
        hands = rows("hands", hand_columns, "t.first_line")
        seats = rows("seats", _SEAT.select, "seq")
        cards = rows("cards", _DEAL.select, "seq")
        actions = rows("actions", _ACTION.select, "seq")
        returns = rows("returns", _RETURN.select, "seq")
        showdown = rows("showdown", _SHOWN.select, "seq")
        awards = rows("awards", _AWARD.select, "seq")
        stated = rows("stated_pots", _POT.select, "seq")
        restated = rows("restatements", _RESTATEMENT.select, "seq")
        finished = rows("finishes", _FINISH.select, "seq")
    finally:
        store.run("DROP TABLE IF EXISTS wanted_hands")
    # the hands row: the Hand's own columns, community_card, then Source's and Stakes' columns
    source_at = len(_HAND.columns) + len(_HAND.extra)
    stakes_at = source_at + len(_SOURCE.columns)
    for (key,) in keys:
        row = hands[key][0]
        hand = _HAND.make(
            row[:len(_HAND.columns)],
            community_card=_card(row[len(_HAND.columns)]),
            notes=_notes(*row[len(_HAND.columns) + 1:len(_HAND.columns) + 4]),
            buy_in=_buy_in(*row[len(_HAND.columns) + 4:source_at]),
            finishes=tuple(map(_FINISH.make, finished.get(key, ()))),
            source=_SOURCE.make(row[source_at:stakes_at]),
            stakes=_STAKES.make(row[stakes_at:]),
            seats=tuple(map(_SEAT.make, seats[key])),
            actions=tuple(map(_ACTION.make, actions[key])),
            deals=_deals(cards[key]),
            uncalled=tuple(map(_RETURN.make, returns[key])),
            showdown=tuple(_SHOWN.make(s, cards=_cards(s[-1])) for s in showdown[key]),
            awards=tuple(map(_AWARD.make, awards[key])),
        )
        if key in stated or key in restated:
            hand = replace(hand, stated_pots=tuple(map(_POT.make, stated.get(key, ()))),
                           restatements=tuple(_RESTATEMENT.make(r, cards=_cards(r[-1])) for r in restated.get(key, ())))
        yield hand


def _buy_in(amount: int | None, fee: int | None, bounty: int | None, currency: str | None,
            unit: int | None) -> BuyIn | None:
    """The hand's buy-in from its columns; None where the header stated none (a NULL amount)."""
    if amount is None:
        return None
    return BuyIn(amount, fee or 0, bounty or 0, currency, unit or 1)


def _notes(texts: list[str] | None, lines: list[int | None] | None, topics: list[str | None] | None) -> tuple[Note, ...]:
    """The hand's notes; a hand stored before notes kept their line and topic has none (NULL)."""
    texts = texts or []
    blank: list[None] = [None] * len(texts)
    return tuple(Note(text, line, None if topic is None else NoteTopic(topic))
                 for text, line, topic in zip(texts, lines or blank, topics or blank, strict=True))


def _deals(cards: list[tuple[Any, ...]]) -> tuple[Deal, ...]:
    """Regroup card rows (the deal's columns, face, card) into one Deal per statement."""
    deals: list[Deal] = []
    width = len(_DEAL.columns)
    current: tuple[Any, ...] | None = None
    down: list[Card | None] = []
    up: list[Card | None] = []
    for row in cards:
        of_deal, face, card = row[:width], row[width], row[width + 1]
        if of_deal != current:
            if current is not None:
                deals.append(_DEAL.make(current, down=tuple(down), up=tuple(up)))
            current, down, up = of_deal, [], []
        (down if face == "down" else up).append(_card(card))
    if current is not None:
        deals.append(_DEAL.make(current, down=tuple(down), up=tuple(up)))
    return tuple(deals)
