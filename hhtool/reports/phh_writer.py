"""Hands as PHH: the TOML-based poker hand history notation of the PokerKit project (variant
``F7S/8``, fixed-limit Seven Card Stud Hi/Lo), one ``.phh`` per hand or a ``.phhs`` of sections.

:func:`hand_to_phh` is a pure function of a :class:`~hhtool.model.Hand`. It writes what PHH
carries natively: antes, bring-in, small/big bet, starting stacks (``inf`` when the site does not
print one), every deal (``??`` for a hidden card; a card nobody saw is written for each player
still in so the notation stays complete), the betting in action notation (``pb``, ``cbr`` to the
street total, ``cc``, ``f``), the showdown as ``sm`` actions where PokerKit's state machine asks
for them, players, seats, seat count, table, venue (the site), hand number, time, time zone
abbreviation, currency, finishing stacks and winnings (after rake).

What PHH has no field for goes in user-defined ``_hhtool_*`` fields (the spec's underscore rule),
so that reading the file back restores the hand: the site's stakes and money unit, hero, dealer
seat, total pot, rake, fees, notes, seats not dealt in, each award's pot and half, uncalled
returns, the site's showdown statements, and any action whose site numbers differ from what the
notation implies (a history the audit would flag). Amounts are integers in the hand's smallest
unit (cents for real money); a comment says which.

>>> from hhtool.model import Action, ActionKind, Deal, Seat, Source, Stakes, Street, Card
>>> seats = (Seat(1, "Ann", 100), Seat(2, "Bob", 100))
>>> deals = (Deal(Street.THIRD, "Ann", (None, None), (Card.parse("2c"),)),
...          Deal(Street.THIRD, "Bob", (Card.parse("Ah"), Card.parse("Kd")), (Card.parse("9s"),)))
>>> acts = (Action(Street.THIRD, "Ann", ActionKind.ANTE, 1, 1), Action(Street.THIRD, "Bob", ActionKind.ANTE, 1, 1),
...         Action(Street.THIRD, "Ann", ActionKind.BRING_IN, 2, 2), Action(Street.THIRD, "Bob", ActionKind.COMPLETE, 4, 4),
...         Action(Street.THIRD, "Ann", ActionKind.FOLD, 0, 2))
>>> hand = Hand("demo", "7", Source("f", 1, 9, ""), Stakes(1, 2, 4, 8, "USD"), seats, acts, deals)
>>> text = hand_to_phh(hand)
>>> print(text[text.index("actions ="):text.index("hand =")].strip())
actions = [
  "d dh p1 ????2c",
  "d dh p2 AhKd9s",
  "p1 pb",
  "p2 cbr 4",
  "p1 f",
]
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from hhtool.model import Action, ActionKind, Card, Hand, Restatement, Seat, ShowStatus, Street, Structure

VARIANT = "F7S/8"
#: prefix of hhtool's user-defined fields (PHH: user fields start with an underscore)
USER_PREFIX = "_hhtool_"
#: the fields of PokerKit's own HandHistory (0.7) among those hhtool writes: a plain export writes
#: no others (PokerKit warns of any other field, the spec's time_zone_abbreviation included)
POKERKIT_FIELDS = frozenset({
    "variant", "antes", "bring_in", "small_bet", "big_bet", "starting_stacks", "actions", "hand", "venue", "table",
    "seat_count", "seats", "players", "finishing_stacks", "winnings", "currency", "time", "day", "month", "year",
    "time_zone",
})
#: cards a player holds after each street, and which of them lie face up (PHH/PokerKit order)
_DEALT_FACES: dict[Street, tuple[bool, ...]] = {
    Street.THIRD: (False, False, True),
    Street.FOURTH: (True,),
    Street.FIFTH: (True,),
    Street.SIXTH: (True,),
    Street.SEVENTH: (False,),
}
_BETTING = (ActionKind.BRING_IN, ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE, ActionKind.CALL,
            ActionKind.CHECK, ActionKind.FOLD)


class PhhExportError(ValueError):
    """The hand cannot be written as PHH (e.g. pot-limit stud has no PHH variant)."""


# ---------------------------------------------------------------- TOML values


def toml_string(text: str) -> str:
    r"""A TOML basic string.

    >>> print(toml_string('say "hi"\\ok\t\x7f'))
    "say \"hi\"\\ok\t\u007F"
    """
    out = ['"']
    for char in text:
        if char == '"':
            out.append('\\"')
        elif char == "\\":
            out.append("\\\\")
        elif char == "\t":
            out.append("\\t")
        elif char == "\n":
            out.append("\\n")
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04X}")
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


def toml_value(value: object) -> str:
    """A TOML value for the types the writer uses (None becomes ``inf``: an unknown stack).

    >>> toml_value([1, None, "a"]), toml_value({"pot": 0, "half": "low"}), toml_value(True)
    ('[1, inf, "a"]', '{pot = 0, half = "low"}', 'true')
    """
    if value is None or (isinstance(value, float) and math.isinf(value)):
        return "inf"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key} = {toml_value(item)}" for key, item in value.items() if item is not None) + "}"
    raise TypeError(f"no TOML form for {value!r}")


def cards_notation(cards: Sequence[Card | None]) -> str:
    """PHH card notation: cards run together, ``??`` for an unknown one.

    >>> cards_notation((Card.parse("Ah"), None, Card.parse("Tc")))
    'Ah??Tc'
    """
    return "".join("??" if card is None else str(card) for card in cards)


# ---------------------------------------------------------------- the hand's players


def phh_seats(hand: Hand) -> tuple[list[Seat], list[Seat]]:
    """(PHH players in dealing order, seats not dealt in). A seat marked sitting out still
    counts as a player when it antes, acts or is dealt cards."""
    involved = {action.player for action in hand.actions} | {deal.player for deal in hand.deals}
    by_name = {seat.player: seat for seat in hand.seats}
    players = [by_name[name] for name in hand.position_order if not by_name[name].sitting_out or name in involved]
    idle = [seat for seat in hand.seats if seat not in players]
    return players, idle


@dataclass
class _Table:
    """What the writer tracks while it walks the hand the way PokerKit will."""

    players: list[Seat]
    antes: dict[str, int]
    folded: set[str] = field(default_factory=set)
    put_in: dict[str, int] = field(default_factory=lambda: defaultdict(int))  # chips in, whole hand
    street_total: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    faces: dict[str, list[bool]] = field(default_factory=lambda: defaultdict(list))  # PokerKit's face-up flags
    returned: dict[str, int] = field(default_factory=lambda: defaultdict(int))  # unmatched bets given back
    all_in_showdown: bool = False

    def remaining(self, seat: Seat) -> int | None:
        return None if seat.stack is None else seat.stack - self.put_in[seat.player]

    def active(self) -> list[Seat]:
        return [seat for seat in self.players if seat.player not in self.folded]

    def return_uncalled(self) -> None:
        """A street's bet nobody matched goes back to its owner (PokerKit does this itself)."""
        totals = sorted(self.street_total.items(), key=lambda item: item[1], reverse=True)
        if totals and totals[0][1] > (totals[1][1] if len(totals) > 1 else 0):
            amount = totals[0][1] - (totals[1][1] if len(totals) > 1 else 0)
            self.put_in[totals[0][0]] -= amount
            self.returned[totals[0][0]] += amount

    def with_chips(self) -> list[Seat]:
        return [seat for seat in self.active() if self.remaining(seat) != 0]


def _expected(action: Action, seat: Seat, table: _Table, opened: bool, bring_in: int) -> tuple[ActionKind, int, int, bool]:
    """(kind, amount, to_amount, all_in) a reader of the notation derives for this action."""
    before = table.street_total[seat.player]
    left = table.remaining(seat)
    if action.kind is ActionKind.FOLD:
        return ActionKind.FOLD, 0, before, False
    if action.kind is ActionKind.BRING_IN:
        kind, amount = ActionKind.BRING_IN, bring_in
    elif action.kind in (ActionKind.CALL, ActionKind.CHECK):
        amount = max(table.street_total.values(), default=0) - before
        kind = ActionKind.CALL if amount > 0 else ActionKind.CHECK
    else:
        amount = action.to_amount - before
        kind = ActionKind.RAISE if opened else ActionKind.COMPLETE if action.street is Street.THIRD else ActionKind.BET
    if left is not None and kind is not ActionKind.RAISE and kind is not ActionKind.BET and kind is not ActionKind.COMPLETE:
        amount = min(amount, left)  # a short stack calls or brings in all-in for less
    return kind, amount, before + amount, amount > 0 and left is not None and amount == left


def _notation(action: Action, number: int) -> str:
    if action.kind is ActionKind.BRING_IN:
        return f"p{number} pb"
    if action.kind in (ActionKind.CALL, ActionKind.CHECK):
        return f"p{number} cc"
    if action.kind is ActionKind.FOLD:
        return f"p{number} f"
    return f"p{number} cbr {action.to_amount}"


# ---------------------------------------------------------------- the actions


class _Writer:
    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        players, self.idle = phh_seats(hand)
        antes: dict[str, int] = defaultdict(int)
        for action in hand.actions:
            if action.kind is ActionKind.ANTE:
                antes[action.player] += action.amount
        self.table = _Table(players, antes)
        self.number = {seat.player: index + 1 for index, seat in enumerate(players)}
        self.lines: list[str] = []
        self.fixes: list[dict[str, object]] = []
        self.shown = {shown.player: shown for shown in hand.showdown}
        self.synthesized: list[dict[str, object]] = []  # deal lines the history has no statement for
        self.bring_in = hand.stakes.bring_in or next(
            (a.amount for a in hand.actions if a.kind is ActionKind.BRING_IN and not a.all_in), 0)

    def actions(self) -> list[str]:
        table, hand = self.table, self.hand
        for action in hand.actions:
            if action.kind is ActionKind.ANTE:
                table.put_in[action.player] += action.amount
                seat = hand.seat_of(action.player)
                expected_all_in = seat.stack is not None and table.remaining(seat) == 0
                if action.all_in != expected_all_in or action.to_amount != action.amount:
                    self._fix(action, ante=True)
        betting = [action for action in hand.actions if action.kind in _BETTING]
        for street in Street:
            if street is not Street.THIRD and len(table.active()) < 2:
                break
            self._deal(street)
            table.street_total = defaultdict(int)
            opened = False
            for index, action in enumerate(betting):
                if action.street is street:
                    opened = self._act(index, action, opened)
            table.return_uncalled()
            active = table.active()
            if len(active) < 2:
                break
            if not table.all_in_showdown and len(table.with_chips()) <= 1:
                table.all_in_showdown = True
            if table.all_in_showdown or street is Street.SEVENTH:
                self._showdown(street)
        return self.lines

    def _fix(self, action: Action, index: int | None = None, ante: bool = False) -> None:
        """Record the site's numbers for an action the notation would read otherwise: ``action`` is
        its place among the betting actions (antes are matched by player)."""
        where: dict[str, object] = {"ante": True} if ante else {"action": index}
        self.fixes.append({**where, "player": action.player, "kind": action.kind.value, "amount": action.amount,
                           "to": action.to_amount, "all_in": action.all_in})

    def _deal(self, street: Street) -> None:
        faces = _DEALT_FACES[street]
        for seat in self.table.active():
            down: list[Card | None] = []
            up: list[Card | None] = []
            stated = False
            for deal in self.hand.deals:
                if deal.player == seat.player and deal.street is street:
                    down += deal.down
                    up += deal.up
                    stated = True
            if not stated:
                self.synthesized.append({"player": seat.player, "street": int(street)})
            if street is Street.SEVENTH and not down and self.hand.community_card is not None:
                down = [self.hand.community_card]  # the shared card plays as each player's 7th
            want_down, want_up = faces.count(False), faces.count(True)
            if len(down) > want_down or len(up) > want_up:
                raise PhhExportError(f"{seat.player} is dealt {len(down)} down and {len(up)} up cards on "
                                     f"{street.label} street; stud deals {want_down} down and {want_up} up")
            down += [None] * (want_down - len(down))
            up += [None] * (want_up - len(up))
            cards = down[:2] + up if street is Street.THIRD else up if want_up else down
            self.table.faces[seat.player] += list(faces)
            self.lines.append(f"d dh p{self.number[seat.player]} {cards_notation(cards)}")

    def _act(self, index: int, action: Action, opened: bool) -> bool:
        table = self.table
        seat = next((s for s in table.players if s.player == action.player), None)
        if seat is None:
            raise PhhExportError(f"{action.player} acts but is not dealt in")
        if (action.kind, action.amount, action.to_amount, action.all_in) != _expected(action, seat, table, opened,
                                                                                      self.bring_in):
            self._fix(action, index)
        self.lines.append(_notation(action, self.number[action.player]))
        table.put_in[action.player] += action.amount
        table.street_total[action.player] = action.to_amount
        if action.kind is ActionKind.FOLD:
            table.folded.add(action.player)
        return opened or action.kind.is_aggressive

    def _showdown(self, street: Street) -> None:
        """The ``sm`` actions PokerKit waits for: every player still in with a face-down card,
        after the last street or after each street once betting is over (all-in)."""
        for seat in self.table.active():
            faces = self.table.faces[seat.player]
            if all(faces):
                continue
            count = len(faces)
            shown = self.shown.get(seat.player)
            if street is Street.SEVENTH and shown is not None and shown.status is ShowStatus.MUCKED:
                self.lines.append(f"p{self.number[seat.player]} sm")
                self.table.folded.add(seat.player)
                continue
            if shown is not None and shown.status is ShowStatus.SHOWN and shown.cards:
                cards = list(shown.cards[:count])  # PokerKit takes cards left out as not shown
            else:
                cards = [None] * count  # neither shown nor mucked
            self.table.faces[seat.player] = [card is not None for card in cards]
            self.lines.append(f"p{self.number[seat.player]} sm {cards_notation(cards)}")


# ---------------------------------------------------------------- the fields


def _hand_number(hand_id: str) -> int | str:
    return int(hand_id) if hand_id.isdigit() and len(hand_id) < 19 and (hand_id == "0" or hand_id[0] != "0") else hand_id


def _unit_comment(hand: Hand) -> str:
    stakes = hand.stakes
    if stakes.unit == 1:
        return f"amounts in {stakes.currency.lower()} units"
    return f"amounts in 1/{stakes.unit} {stakes.currency}"


def phh_fields(hand: Hand, user_fields: bool = True) -> list[tuple[str, object]]:
    """The hand's PHH fields in writing order (``actions`` is a list of notation strings);
    ``user_fields=False`` leaves out hhtool's ``_hhtool_*`` fields (plain PHH)."""
    if hand.stakes.structure is not Structure.FIXED_LIMIT:
        raise PhhExportError(f"{hand.stakes.structure.value} stud has no PHH variant (F7S/8 is fixed-limit)")
    writer = _Writer(hand)
    actions = writer.actions()
    players = writer.table.players
    stakes = hand.stakes
    unknown = [name for name in ("bring_in", "small_bet", "big_bet") if getattr(stakes, name) is None]
    small_bet = stakes.small_bet or stakes.bring_in or 1
    big_bet = stakes.big_bet or 2 * small_bet
    fields: list[tuple[str, object]] = [
        ("variant", VARIANT),
        ("antes", [writer.table.antes[seat.player] for seat in players]),
        ("bring_in", writer.bring_in or max(1, small_bet // 2)),
        ("small_bet", small_bet),
        ("big_bet", big_bet),
        ("starting_stacks", [seat.stack for seat in players]),
        ("actions", actions),
        ("hand", _hand_number(hand.hand_id)),
        ("venue", hand.site),
    ]
    if hand.table_name is not None:
        fields.append(("table", hand.table_name))
    if stakes.table_size is not None:
        fields.append(("seat_count", stakes.table_size))
    fields += [("seats", [seat.seat for seat in players]), ("players", [seat.player for seat in players])]
    collected = {seat.player: hand.collected_by(seat.player) for seat in players}
    finishing = [None if seat.stack is None else seat.stack - hand.contributed_by(seat.player) + collected[seat.player]
                 for seat in players]
    # PHH winnings are pot shares: a bet nobody matched that the site paid out with the pot (no
    # return line) comes back as a return when the notation is read, so it is not a winning.
    site_returned: dict[str, int] = defaultdict(int)
    for returned in hand.uncalled:
        site_returned[returned.player] += returned.amount
    winnings = [max(0, collected[seat.player] - max(0, writer.table.returned[seat.player] - site_returned[seat.player]))
                for seat in players]
    fields += [("finishing_stacks", finishing), ("winnings", winnings)]
    if len(stakes.currency) == 3 and stakes.currency.isalpha() and stakes.currency.isupper():
        fields.append(("currency", stakes.currency))
    if hand.started_at is not None:
        when = hand.started_at
        fields += [("time", when.time()), ("day", when.day), ("month", when.month), ("year", when.year)]
    if hand.timezone:
        fields.append(("time_zone" if "/" in hand.timezone else "time_zone_abbreviation", hand.timezone))
    if user_fields:
        return fields + _user_fields(hand, writer, unknown)
    return [(name, value) for name, value in fields if name in POKERKIT_FIELDS]


def _user_fields(hand: Hand, writer: _Writer, unknown: list[str]) -> list[tuple[str, object]]:
    stakes = hand.stakes
    user: list[tuple[str, object]] = [
        ("site", hand.site),
        ("hand_id", f"{hand.site}:{hand.hand_id}"),
        ("stakes", {"ante": stakes.ante, "bring_in": stakes.bring_in, "small_bet": stakes.small_bet,
                    "big_bet": stakes.big_bet, "currency": stakes.currency, "unit": stakes.unit,
                    "tournament": stakes.is_tournament, "ante_source": stakes.ante_source.value,
                    "bring_in_source": stakes.bring_in_source.value, "bets_source": stakes.bets_source.value}),
    ]
    if unknown:
        user.append(("unknown_stakes", unknown))  # the PHH numbers for these were filled in
    optional: list[tuple[str, object]] = [
        ("game_label", hand.game_label or None),
        ("tournament_id", hand.tournament_id),
        ("hero", hand.hero),
        ("dealer_seat", hand.dealer_seat),
        ("total_pot", hand.total_pot),
        ("rake", hand.rake),
        ("fees", hand.fees or None),
        ("community_card", None if hand.community_card is None else str(hand.community_card)),
    ]
    if hand.buy_in is not None:  # a tournament's, as its header stated it
        buy_in = hand.buy_in
        optional.append(("buy_in", {"amount": buy_in.amount, "fee": buy_in.fee, "bounty": buy_in.bounty,
                                    "currency": buy_in.currency, "unit": buy_in.unit}))
    user += [(name, value) for name, value in optional if value is not None]
    sitting_out = [seat.player for seat in writer.table.players if seat.sitting_out]
    lists: list[tuple[str, list[object]]] = [
        ("notes", [note.text for note in hand.notes]),  # the lines are the original file's, not this one's
        ("note_topics", [note.topic.value if note.topic else "" for note in hand.notes] if any(
            note.topic for note in hand.notes) else []),  # what other code acts on ("" for none)
        ("sitting_out", list(sitting_out)),
        ("idle_seats", [{"seat": s.seat, "player": s.player, "stack": s.stack, "sitting_out": s.sitting_out}
                        for s in writer.idle]),
        ("betting", list(writer.fixes)),
        ("unstated_deals", list(writer.synthesized)),
        ("uncalled", [{"street": int(r.street), "player": r.player, "amount": r.amount} for r in hand.uncalled]),
        ("showdown", [{"player": s.player, "status": s.status.value,
                       "cards": cards_notation(s.cards) if s.cards else None, "high": s.high_text, "low": s.low_text}
                      for s in hand.showdown]),
        ("awards", [{"player": a.player, "amount": a.amount, "pot": a.pot, "half": a.half.value} for a in hand.awards]),
        # what the site stated twice, so that a re-import is checked as the original was
        ("stated_pots", [{"pot": p.pot, "amount": p.amount, "after_rake": p.after_rake} for p in hand.stated_pots]),
        ("restatements", [_restatement(r) for r in hand.restatements]),
        ("finishes", [{"player": f.player, "place": f.place, "prize": f.prize, "currency": f.currency, "unit": f.unit}
                      for f in hand.finishes]),
    ]
    user += [(name, value) for name, value in lists if value]
    return [(USER_PREFIX + name, value) for name, value in user]


def _restatement(fact: Restatement) -> dict[str, object]:
    entry: dict[str, object] = {"fact": fact.fact.value, "player": fact.player}
    if fact.street is not None:
        entry["street"] = int(fact.street)
    if fact.amount is not None:
        entry["amount"] = fact.amount
    if fact.cards:
        entry["cards"] = cards_notation(fact.cards)
    if fact.text is not None:
        entry["text"] = fact.text
    return entry


# ---------------------------------------------------------------- text


def _render(name: str, value: object) -> str:
    inline = toml_value(value) if not hasattr(value, "isoformat") else ""
    if isinstance(value, list) and len(value) > 1 and (name == "actions" or isinstance(value[0], dict) or len(inline) > 100):
        return f"{name} = [\n" + "".join(f"  {toml_value(item)},\n" for item in value) + "]"
    if hasattr(value, "isoformat") and not isinstance(value, str):
        return f"{name} = {value.isoformat()}"  # a TOML local time
    return f"{name} = {inline}"


def hand_to_phh(hand: Hand, key: str | None = None, user_fields: bool = True) -> str:
    """The hand as PHH text; with ``key``, as a ``.phhs`` section headed ``[key]``."""
    lines = [f"# hhtool export: {hand.site} hand {hand.hand_id}; {_unit_comment(hand)}"]
    unknown = [name for name in ("bring_in", "small_bet", "big_bet") if getattr(hand.stakes, name) is None]
    if unknown:
        lines.append(f"# the history does not give {', '.join(unknown)}: the value written is a stand-in PHH requires")
    written = phh_fields(hand, user_fields)
    if hand.timezone and not any(name.startswith("time_zone") for name, _ in written):
        lines.append(f"# times in {hand.timezone} (an abbreviation: PokerKit has no field for it)")
    if key is not None:
        lines.insert(0, f"[{key}]")
    lines += [_render(name, value) for name, value in written]
    return "\n".join(lines) + "\n"


def pokerkit_problem(text: str) -> str | None:
    """Why PokerKit (installed: ImportError otherwise) cannot play this PHH hand to its end from the
    file alone, or None when it can. Every deal, bet and show is taken from the file (only the burn
    cards PHH leaves out are supplied): PokerKit's own loader would repair a hand that does not fit
    it (deal '??', check or fold for a player) and so hide what it cannot replay."""
    import warnings

    import pokerkit
    from pokerkit.notation import parse_action

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PokerKit warns of cards it would not have dealt, not of a refusal
        try:
            history = pokerkit.HandHistory.loads(text)
            state = history.create_state()
            for action in history.actions:
                while state.can_burn_card():
                    state.burn_card("??")
                try:
                    parse_action(state, action, history.parse_value)
                except Exception as error:  # PokerKit refuses in many ways; each is the answer
                    return f"PokerKit refuses {action!r}: {_pokerkit_reason(error)}"
        except Exception as error:  # a file it cannot load, whatever the way
            return f"PokerKit cannot load it: {_pokerkit_reason(error)}"
    if state.status:
        return "PokerKit's hand is not over after the last action"
    return None


def hidden_up_card(hand: Hand) -> str | None:
    """The first up card the hand's PHH deals as ``??`` (whose, and on which street), or None. PokerKit
    orders the players by their up cards (the bring-in on 3rd street, who acts first later), so it
    cannot play a hand whose history hides one."""
    writer = _Writer(hand)
    names = [seat.player for seat in writer.table.players]  # p1, p2, … in the notation
    deals: dict[str, int] = defaultdict(int)
    for action in writer.actions():
        parts = action.split()
        if parts[:2] != ["d", "dh"] or len(parts) < 4:
            continue
        player, cards = parts[2], [parts[3][i:i + 2] for i in range(0, len(parts[3]), 2)]
        deals[player] += 1
        street = Street(min(Street.THIRD + deals[player] - 1, Street.SEVENTH))
        up = cards[2:3] if street is Street.THIRD else cards if street < Street.SEVENTH else []
        if "??" in up:
            name = names[int(player[1:]) - 1] if player[1:].isdigit() and 0 < int(player[1:]) <= len(names) else player
            return (f"{name}'s ({player}) {street.name.lower()}-street up card is hidden; "
                    "PokerKit needs it to choose who acts")
    return None


def _pokerkit_reason(error: Exception) -> str:
    if isinstance(error, KeyError):  # ranking or ordering by a card written '??'
        return f"it needs a card the history hides ({type(error).__name__} {error})"
    return f"{type(error).__name__}: {error}"


def hands_to_phhs(hands: Iterable[Hand], user_fields: bool = True) -> str:
    """Several hands as one ``.phhs``: sections ``[1]``, ``[2]``, … separated by a blank line."""
    return "\n".join(hand_to_phh(hand, str(number), user_fields) for number, hand in enumerate(hands, start=1))
