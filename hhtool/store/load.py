"""Stored rows → hand model values, so stored hands can be replayed again (another rule
profile, the dispute view) without the original files."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

from hhtool.model import (
    Action,
    ActionKind,
    Award,
    Card,
    Deal,
    Half,
    Hand,
    Note,
    Restated,
    Restatement,
    Seat,
    ShownHand,
    ShowStatus,
    Source,
    Stakes,
    StakeSource,
    StatedPot,
    Street,
    Structure,
    UncalledReturn,
)
from hhtool.store import Store

#: hands loaded per round trip to the database
LOAD_CHUNK = 5000


def _card(text: str | None) -> Card | None:
    return Card.parse(text) if text and text != "??" else None  # "??": a card the history hides (cards_text)


def _group(rows: list[tuple[Any, ...]]) -> dict[tuple[str, str], list[tuple[Any, ...]]]:
    grouped: dict[tuple[str, str], list[tuple[Any, ...]]] = defaultdict(list)
    for row in rows:
        grouped[(row[0], row[1])].append(row[2:])
    return grouped


def load_hands(store: Store, where: str = "TRUE", params: Sequence[Any] = ()) -> Iterator[Hand]:
    """Hands matching a SQL condition on ``hands`` (alias ``h``), in (site, hand_id) order."""
    keys = store.run(f"SELECT h.site, h.hand_id FROM hands h WHERE {where} ORDER BY h.site, h.hand_id", list(params))
    for start in range(0, len(keys), LOAD_CHUNK):
        yield from _load_chunk(store, keys[start:start + LOAD_CHUNK])


def _load_chunk(store: Store, keys: list[tuple[Any, ...]]) -> Iterator[Hand]:
    import pyarrow as pa

    wanted = pa.table({"site": [k[0] for k in keys], "hand_id": [k[1] for k in keys]})
    store.con.register("wanted_hands", wanted)
    try:
        def rows(table: str, columns: str, order: str) -> dict[tuple[str, str], list[tuple[Any, ...]]]:
            return _group(store.run(
                f"SELECT t.site, t.hand_id, {columns} FROM {table} t JOIN wanted_hands w "
                f"ON t.site = w.site AND t.hand_id = w.hand_id ORDER BY t.site, t.hand_id, {order}"
            ))

        hands = rows("hands", "t.*", "t.first_line")
        seats = rows("seats", "seat, player, stack, sitting_out, line", "seq")
        cards = rows("cards", "player, street, face, card, line", "seq")
        actions = rows("actions", "street, player, kind, amount, to_amount, all_in, line", "seq")
        returns = rows("returns", "street, player, amount, line", "seq")
        showdown = rows("showdown", "player, status, cards, high_text, low_text, line", "seq")
        awards = rows("awards", "player, amount, pot, half, line", "seq")
        stated = rows("stated_pots", "pot, amount, after_rake, line", "seq")
        restated = rows("restatements", "fact, player, street, amount, cards, text, line", "seq")
        columns = [d[0] for d in store.con.execute("SELECT * FROM hands LIMIT 0").description]
    finally:
        store.con.unregister("wanted_hands")
    for key in keys:
        key = (key[0], key[1])
        record = dict(zip(columns, hands[key][0], strict=True))
        hand = _hand(record, seats[key], cards[key], actions[key], returns[key], showdown[key], awards[key])
        if key in stated or key in restated:
            hand = replace(hand, stated_pots=tuple(StatedPot(p[0], p[1], p[2], p[3]) for p in stated.get(key, ())),
                           restatements=tuple(_restatement(r) for r in restated.get(key, ())))
        yield hand


def _restatement(row: tuple[Any, ...]) -> Restatement:
    fact, player, street, amount, cards, text, line = row
    return Restatement(Restated(fact), player, None if street is None else Street(street), amount,
                       tuple(_card(c) for c in cards.split(" ")) if cards else (), text, line)


def _hand(h: dict[str, Any], seats: list[tuple[Any, ...]], cards: list[tuple[Any, ...]], actions: list[tuple[Any, ...]],
          returns: list[tuple[Any, ...]], showdown: list[tuple[Any, ...]], awards: list[tuple[Any, ...]]) -> Hand:
    stakes = Stakes(
        ante=h["ante"], bring_in=h["bring_in"], small_bet=h["small_bet"], big_bet=h["big_bet"], currency=h["currency"],
        unit=h["unit"], structure=Structure(h["structure"]), is_tournament=h["is_tournament"],
        table_size=h["table_size"], ante_source=StakeSource(h["ante_source"]),
        bring_in_source=StakeSource(h["bring_in_source"]), bets_source=StakeSource(h["bets_source"]),
    )
    return Hand(
        site=h["site"],
        hand_id=h["hand_id"],
        source=Source(h["file"], h["first_line"], h["last_line"], h["raw_sha256"]),
        stakes=stakes,
        seats=tuple(Seat(s[0], s[1], s[2], s[3], s[4]) for s in seats),
        actions=tuple(Action(Street(a[0]), a[1], ActionKind(a[2]), a[3], a[4], a[5], a[6]) for a in actions),
        deals=_deals(cards),
        uncalled=tuple(UncalledReturn(Street(r[0]), r[1], r[2], r[3]) for r in returns),
        showdown=tuple(
            ShownHand(s[0], ShowStatus(s[1]), tuple(_card(c) for c in s[2].split(" ")) if s[2] else (), s[3], s[4], s[5])
            for s in showdown
        ),
        awards=tuple(Award(a[0], a[1], a[2], Half(a[3]), a[4]) for a in awards),
        started_at=h["started_at"],
        timezone=h["timezone"],
        table_name=h["table_name"],
        tournament_id=h["tournament_id"],
        hero=h["hero"],
        game_label=h["game_label"] or "",
        total_pot=h["total_pot"],
        rake=h["rake"],
        fees=h["fees"],
        dealer_seat=h["dealer_seat"],
        community_card=_card(h["community_card"]),
        origin_site=h["origin_site"],
        notes=_notes(h["notes"], h["note_lines"]),
    )


def _notes(texts: list[str] | None, lines: list[int | None] | None) -> tuple[Note, ...]:
    """The hand's notes; a hand stored before notes kept their line has none (NULL)."""
    texts = texts or []
    return tuple(Note(text, line) for text, line in zip(texts, lines or [None] * len(texts), strict=True))


def _deals(cards: list[tuple[Any, ...]]) -> tuple[Deal, ...]:
    """Regroup card rows (player, street, face, card, line) into one Deal per statement."""
    deals: list[Deal] = []
    current: tuple[str, int, int] | None = None
    down: list[Card | None] = []
    up: list[Card | None] = []
    for player, street, face, card, line in cards:
        if (player, street, line) != current:
            if current is not None:
                deals.append(Deal(Street(current[1]), current[0], tuple(down), tuple(up), current[2]))
            current, down, up = (player, street, line), [], []
        (down if face == "down" else up).append(_card(card))
    if current is not None:
        deals.append(Deal(Street(current[1]), current[0], tuple(down), tuple(up), current[2]))
    return tuple(deals)
