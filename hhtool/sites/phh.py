"""PHH files (``.phh``: one hand; ``.phhs``: sections ``[1]``, ``[2]``, …), the TOML notation of the
PokerKit project and of poker research datasets. Hands of variant ``F7S/8`` (fixed-limit Seven Card
Stud Hi/Lo) become model hands; every other variant is counted as skipped.

Each hand is read with ``tomllib``; only the cutting of a ``.phhs`` into sections (to keep true
line numbers) looks at lines, and then only at table headers.

What the notation leaves implicit is derived the way PokerKit plays it: a call (``cc``) is the
amount to match, capped by the stack; ``pb`` is the bring-in, capped; ``cbr`` is a street total and
becomes a completion, bet or raise as hhtool's other parsers name them; a bet nobody matched comes
back at the end of its street; an all-in is an action that empties a known stack. Awards are the
``winnings`` field (or, without it, finishing minus starting stacks plus what the player put in),
with the pot and half unknown. Files written by ``hhtool export --format phh`` also carry
``_hhtool_*`` fields (see :mod:`hhtool.reports.phh_writer`); when ``_hhtool_site`` is present those fields are
taken as the site said, so an exported hand reads back as it was stored.

Site name ``phh``. Hand id: the ``_hhtool_hand_id`` field (``<site>:<id>`` for hhtool exports);
otherwise ``<hand>-<digest>``, where ``<hand>`` is the PHH ``hand`` field, or the section key of a
``.phhs``, or ``phh`` for a single ``.phh`` without one, and ``<digest>`` is the first 16 hex digits
of the sha256 of the hand's own text (without its section header). Research datasets number hands
from 1 in every file, so the number alone would collide; the digest of the hand's text (not of
the file) stays the same when the same hand is read from another or a grown file.

Amounts: PHH numbers may be integers or decimals. Integers are kept as they are (unit 1, or the
unit ``_hhtool_stakes`` names); with decimals the hand's unit becomes 10^d for the most decimal
places d in the hand (at least 100 when a currency is given) and every amount is an exact integer
of that unit; the unit is recorded in ``Stakes.unit`` and in a note. Floats are never used.

>>> PARSER.sniff(['variant = "F7S/8"', 'antes = [1, 1]'])
True
>>> [raw.first_line for raw in PARSER.split(["# x", "[1]", 'variant = "FR"', "", "[2]", "a = 1"], "f.phhs")]
[2, 5]
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime, time
from decimal import Decimal
from functools import lru_cache
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
    NoteTopic,
    RawHand,
    Restated,
    Restatement,
    Seat,
    ShownHand,
    ShowStatus,
    Stakes,
    StakeSource,
    StatedPot,
    Street,
    UncalledReturn,
)
from hhtool.sites.kit.base import HandBuilder, HandParseError, SiteParser, Splitting
from hhtool.sites.kit.dates import stated_datetime
from hhtool.sites.kit.stray_bytes import STRAY_CHARACTERS
from hhtool.sites.kit.tournament import exported_tournament

STUD8_VARIANT = "F7S/8"
_VARIANT_KEY = re.compile(r"""^\s*variant\s*=\s*["']""")
_PHH_KEY = re.compile(r"^\s*(?:antes|bring_in|small_bet|starting_stacks|actions|blinds_or_straddles|min_bet)\s*=")
_SECTION = re.compile(r"^\s*\[\s*([^\[\]]+?)\s*\]\s*(?:#.*)?$")
_TOML_LINE = re.compile(r"at line (\d+)")
_KEY_LINE = re.compile(r"^\s*([A-Za-z0-9_-]+)\s*=")
#: a player's n-th card (0-based): its street and whether it lies face up
_CARD_SLOTS: tuple[tuple[Street, bool], ...] = (
    (Street.THIRD, False), (Street.THIRD, False), (Street.THIRD, True),
    (Street.FOURTH, True), (Street.FIFTH, True), (Street.SIXTH, True), (Street.SEVENTH, False),
)
#: the note topics a file hhtool wrote may name (another value is read as a plain note)
_TOPICS = frozenset(topic.value for topic in NoteTopic)
_AMOUNT_FIELDS = ("antes", "bring_in", "small_bet", "big_bet", "starting_stacks", "finishing_stacks", "winnings")


def _is_section(line: str) -> bool:
    return bool(_SECTION.match(line)) and not line.lstrip().startswith("[[")


def _significant(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith("#")


def _top_key(header: str) -> str:
    match = _SECTION.match(header)
    return (match.group(1) if match else header).split(".")[0].strip().strip("\"'")


def parse_phh_cards(text: str, line: int) -> tuple[Card | None, ...]:
    """PHH card notation: two characters a card, ``??`` (or any ``?``) unknown.

    >>> parse_phh_cards("Ah??Tc", 0)
    (Card(rank=14, suit='h'), None, Card(rank=10, suit='c'))
    """
    if len(text) % 2:
        raise HandParseError(line, f"cards {text!r} are not two characters each")
    chunks = [text[i:i + 2] for i in range(0, len(text), 2)]
    try:
        return tuple(None if "?" in chunk else Card.parse(chunk) for chunk in chunks)
    except ValueError as error:
        raise HandParseError(line, f"{error} in {text!r}") from None


class PhhParser(SiteParser):
    name = "phh"

    def sniff(self, head: Sequence[str]) -> bool:
        return any(_VARIANT_KEY.match(line) for line in head) and any(_PHH_KEY.match(line) for line in head)

    splitting = Splitting.IN_ORDER  # a section header may hold a sub-table that stays with its hand

    def holds_hand(self, lines: Iterable[str]) -> bool:
        return any(_VARIANT_KEY.match(line) for line in lines)  # every hand names its variant

    def split(self, lines: Iterable[str], file: str, offset: int = 0) -> Iterator[RawHand]:
        """A ``.phhs`` is cut at its table headers (``[1]``, ``[2]``, …); a sub-table of a section
        (``[1.extra]``) or a user-defined table (``[_extra]``) stays with what it follows. A file
        without headers is one hand; text before the first header is its own (failing) hand.
        Reads the lines once, holding one hand (a file can be streamed through it)."""
        hand: list[str] = []
        first = 0
        started = False
        key: str | None = None
        for index, line in enumerate(lines, offset):
            if line and line[0] in STRAY_CHARACTERS:  # (files put together: TOML allows no mark or NUL there)
                line = line.lstrip(STRAY_CHARACTERS)
            if _is_section(line):
                top = _top_key(line)
                if not (top.startswith("_") or top == key):
                    if started:
                        yield self._raw(hand, 0, len(hand), file, first)
                    hand, first, started, key = [], index, True, top
            elif not started and _significant(line):
                hand, first, started = [], index, True
            if started:
                hand.append(line)
        if started:
            yield self._raw(hand, 0, len(hand), file, first)

    def game_of(self, raw: RawHand) -> tuple[str | None, str, bool]:
        key, fields = _document(raw)
        variant = fields.get("variant")
        if not isinstance(variant, str):
            raise HandParseError(raw.first_line, "no variant field")
        return _hand_id(key, fields, raw), f"PHH {variant}", variant == STUD8_VARIANT

    def parse_stud8(self, raw: RawHand) -> Hand:
        key, fields = _document(raw)
        try:
            return _Reader(raw, fields, _hand_id(key, fields, raw)).hand()
        except (TypeError, AttributeError, ArithmeticError) as error:  # a field of the wrong TOML type
            raise HandParseError(raw.first_line, f"a field has the wrong type: {type(error).__name__}: {error}") from None


@lru_cache(maxsize=4)  # game_of and parse_stud8 read the same hand one after the other
def _document(raw: RawHand) -> tuple[str | None, dict[str, Any]]:
    """(section key or None, the hand's fields); the fields are shared: read them, never change them."""
    try:
        data = tomllib.loads(raw.text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as error:
        at = _TOML_LINE.search(str(error))
        line = raw.first_line + int(at.group(1)) - 1 if at else raw.first_line
        raise HandParseError(line, f"not valid TOML: {error}") from None
    if raw.lines and _is_section(raw.lines[0]):
        if len(data) != 1 or not isinstance(next(iter(data.values())), dict):
            raise HandParseError(raw.first_line, "a .phhs section must hold one hand's fields")
        key = next(iter(data))
        return str(key), data[key]
    return None, data


def _hand_id(key: str | None, fields: dict[str, Any], raw: RawHand) -> str:
    given = fields.get("_hhtool_hand_id")
    if isinstance(given, str) and given:
        return given
    body = raw.lines[1:] if key is not None else raw.lines
    digest = hashlib.sha256("\n".join(body).encode("utf-8")).hexdigest()[:16]
    base = fields.get("hand", key if key is not None else "phh")
    return f"{base}-{digest}"


def _decimals(value: Any) -> int:
    if isinstance(value, Decimal) and value.is_finite():
        exponent = value.normalize().as_tuple().exponent
        return max(0, -exponent) if isinstance(exponent, int) else 0
    return 0


class _Reader:
    """Turns one hand's PHH fields into a model Hand."""

    def __init__(self, raw: RawHand, fields: dict[str, Any], hand_id: str) -> None:
        self.raw = raw
        self.fields = fields
        self.ours = "_hhtool_site" in fields  # written by hhtool: its user fields are the site's word
        self.key_lines = self._key_lines()
        self.notes: list[Note] = []
        self.scale, self.unit = self._units()
        self.b = HandBuilder("phh", raw, unit=self.unit, hand_id=hand_id)

    # ------------------------------------------------------------ helpers

    def _key_lines(self) -> dict[str, int]:
        """File line of each top-level key (for reporting), found by a look at line starts."""
        lines: dict[str, int] = {}
        for offset, text in enumerate(self.raw.lines):
            match = _KEY_LINE.match(text)
            if match and match.group(1) not in lines:
                lines[match.group(1)] = self.raw.first_line + offset
        return lines

    def line(self, key: str) -> int:
        return self.key_lines.get(key, self.raw.first_line)

    def user(self, name: str, default: Any = None) -> Any:
        return self.fields.get("_hhtool_" + name, default)

    def _units(self) -> tuple[int, int]:
        """(multiplier from PHH numbers to model units, the model's unit)."""
        values: list[Any] = []
        for name in _AMOUNT_FIELDS:
            value = self.fields.get(name)
            values += value if isinstance(value, list) else [value]
        for action in self.fields.get("actions", []):
            words = str(action).split("#")[0].split()
            if len(words) == 3 and words[1] == "cbr":
                values.append(_number(words[2], self.line("actions")))
        places = max((_decimals(value) for value in values), default=0)
        stakes = self.user("stakes")
        if isinstance(stakes, dict):
            if places:
                raise HandParseError(self.line("actions"), "hhtool PHH amounts are integers of the stated unit")
            return 1, int(stakes.get("unit", 1))
        if places and "currency" in self.fields:
            places = max(places, 2)
        if places:
            self.notes.append(Note(f"PHH amounts have decimals: stored in units of 1/{10 ** places}"))
        return 10 ** places, 10 ** places

    def amount(self, value: Any, line: int, *, allow_unknown: bool = False) -> int | None:
        if isinstance(value, bool) or not isinstance(value, int | Decimal):
            raise HandParseError(line, f"not an amount: {value!r}")
        if isinstance(value, Decimal) and not value.is_finite():
            if allow_unknown and value > 0:
                return None  # ``inf``: the stack is not known
            raise HandParseError(line, f"not an amount: {value}")
        scaled = value * self.scale
        if scaled != int(scaled) or scaled < 0:
            raise HandParseError(line, f"amount {value} is not a whole number of 1/{self.unit}")
        return int(scaled)

    def money(self, name: str, default: int | None = None) -> int | None:
        value = self.fields.get(name)
        return default if value is None else self.amount(value, self.line(name))

    def per_player(self, name: str, count: int) -> list[Any] | None:
        value = self.fields.get(name)
        if value is None:
            return None
        if not isinstance(value, list) or len(value) != count:
            raise HandParseError(self.line(name), f"{name} must list one value per player ({count})")
        return value

    # ------------------------------------------------------------ the hand

    def hand(self) -> Hand:
        stacks_raw = self.fields.get("starting_stacks")
        if not isinstance(stacks_raw, list) or not stacks_raw:
            raise HandParseError(self.line("starting_stacks"), "starting_stacks missing")
        count = len(stacks_raw)
        self.stacks = [self.amount(v, self.line("starting_stacks"), allow_unknown=True) for v in stacks_raw]
        names = self.per_player("players", count) or [""] * count
        self.names = [str(name) or f"p{index + 1}" for index, name in enumerate(names)]
        seat_numbers = self.per_player("seats", count) or list(range(1, count + 1))
        antes = [self.amount(v, self.line("antes")) or 0 for v in (self.per_player("antes", count) or [0] * count)]
        self._seats(seat_numbers)
        self._antes(antes)
        self._actions()
        self._finish(antes)
        return self.b.build(self._stakes(antes), **self._hand_fields(seat_numbers))

    def _seats(self, seat_numbers: list[Any]) -> None:
        sitting_out = set(self.user("sitting_out", []))
        seats = [Seat(int(number), name, stack, name in sitting_out, self.line("players"))
                 for number, name, stack in zip(seat_numbers, self.names, self.stacks, strict=True)]
        for idle in self.user("idle_seats", []):
            seats.append(Seat(int(idle["seat"]), str(idle["player"]), idle.get("stack"), bool(idle.get("sitting_out")),
                              self.line("_hhtool_idle_seats")))
        for seat in sorted(seats, key=lambda s: s.seat):
            self.b.seat(seat.seat, seat.player, seat.stack, seat.sitting_out, seat.line)

    def _antes(self, antes: list[int]) -> None:
        self.put_in: dict[str, int] = defaultdict(int)
        fixes = self.user("betting", [])
        self.fixes = {int(fix["action"]): fix for fix in fixes if "action" in fix}
        ante_fixes = {str(fix["player"]): fix for fix in fixes if fix.get("ante")}
        self.betting_count = 0
        for name, stack, ante in zip(self.names, self.stacks, antes, strict=True):
            if ante:
                posted = ante if stack is None else min(ante, stack)
                self.put_in[name] += posted
                self._append(Action(Street.THIRD, name, ActionKind.ANTE, posted, posted,
                                    stack is not None and posted == stack, self.line("antes")), ante_fixes.get(name))

    def _append(self, action: Action, fix: dict[str, Any] | None = None) -> Action:
        """Add an action, as the site said it when an hhtool export records a difference."""
        if action.kind is not ActionKind.ANTE:
            fix = self.fixes.get(self.betting_count)
            self.betting_count += 1
        if fix is not None:
            if fix.get("player", action.player) != action.player:
                raise HandParseError(action.line, "_hhtool_betting does not match the actions")
            action = Action(action.street, action.player, ActionKind(fix["kind"]), int(fix["amount"]), int(fix["to"]),
                            bool(fix["all_in"]), action.line)
        self.b.actions.append(action)
        return action

    def left(self, index: int) -> int | None:
        stack = self.stacks[index]
        return None if stack is None else stack - self.put_in[self.names[index]]

    def _actions(self) -> None:
        actions = self.fields.get("actions", [])
        if not isinstance(actions, list):
            raise HandParseError(self.line("actions"), "actions must be an array of strings")
        self.dealt: dict[str, int] = defaultdict(int)
        self.cards: dict[str, list[Card | None]] = defaultdict(list)
        self.street = Street.THIRD
        self.street_total: dict[str, int] = defaultdict(int)
        self.opened = False
        self.shows: dict[str, tuple[ShowStatus, tuple[Card | None, ...], int]] = {}
        self.uncalled: list[UncalledReturn] = []
        position = 0
        for action in actions:
            text = str(action)
            line, position = self._locate(text, position)
            self._do(text, line)
        self._end_street()

    def _locate(self, text: str, start: int) -> tuple[int, int]:
        """The file line of an action string: the next line from ``start`` that contains it."""
        first = max(start, self.line("actions") - self.raw.first_line)
        for offset in range(first, len(self.raw.lines)):
            if text in self.raw.lines[offset]:
                return self.raw.first_line + offset, offset + 1
        return self.line("actions"), start

    def _player(self, word: str, line: int) -> int:
        if not re.fullmatch(r"p\d+", word) or not 1 <= int(word[1:]) <= len(self.names):
            raise HandParseError(line, f"no player {word!r} in this hand")
        return int(word[1:]) - 1

    def _do(self, text: str, line: int) -> None:
        words = text.split("#")[0].split()
        if not words:
            return  # a no-op or a commentary
        if words[0] == "d":
            if len(words) == 4 and words[1] == "dh":
                self._deal(self._player(words[2], line), parse_phh_cards(words[3], line), line)
                return
            raise HandParseError(line, f"stud has no such dealing: {text!r}")
        index = self._player(words[0], line)
        verb, args = (words[1] if len(words) > 1 else ""), words[2:]
        if verb == "sm" and len(args) <= 1:
            self._show(index, args[0] if args else None, line)
        elif verb in ("pb", "cc", "f") and not args:
            self._bet(index, verb, None, line)
        elif verb == "cbr" and len(args) == 1:
            self._bet(index, verb, self.amount(_number(args[0], line), line), line)
        else:
            raise HandParseError(line, f"not a stud action: {text!r}")

    def _deal(self, index: int, cards: tuple[Card | None, ...], line: int) -> None:
        name = self.names[index]
        by_street: dict[Street, tuple[list[Card | None], list[Card | None]]] = {}
        for card in cards:
            slot = self.dealt[name]
            if slot >= len(_CARD_SLOTS):
                raise HandParseError(line, f"{name} is dealt more than seven cards")
            street, face_up = _CARD_SLOTS[slot]
            down, up = by_street.setdefault(street, ([], []))
            (up if face_up else down).append(card)
            self.dealt[name] += 1
            self.cards[name].append(card)
        for street, (down, up) in by_street.items():
            if street > self.street:
                self._end_street()
                self.street = street
                self.b.start_street(street)
                self.street_total, self.opened = defaultdict(int), False
            if self.ours and self._unstated(name, street):
                continue
            self.b.deals.append(Deal(street, name, tuple(down), tuple(up), line))

    def _unstated(self, name: str, street: Street) -> bool:
        """An hhtool export writes a deal line the site did not print (PHH needs every card)."""
        return any(entry.get("player") == name and int(entry.get("street", 0)) == street
                   for entry in self.user("unstated_deals", []))

    def _bet(self, index: int, verb: str, to: int | None, line: int) -> None:
        name, left = self.names[index], self.left(index)
        before = self.street_total[name]

        def cap(amount: int) -> int:
            return amount if left is None else min(amount, left)

        if verb == "f":
            kind, added = ActionKind.FOLD, 0
        elif verb == "pb":
            kind, added = ActionKind.BRING_IN, cap(self.money("bring_in", 0) or 0)
        elif verb == "cc":
            added = cap(max(self.street_total.values(), default=0) - before)
            kind = ActionKind.CALL if added > 0 else ActionKind.CHECK
        else:
            assert to is not None
            added = to - before
            if added <= 0:
                raise HandParseError(line, f"{name} raises to {to}, not above the {before} already in")
            kind = (ActionKind.RAISE if self.opened else
                    ActionKind.COMPLETE if self.street is Street.THIRD else ActionKind.BET)
        all_in = added > 0 and left is not None and added == left
        action = self._append(Action(self.street, name, kind, added, before + added, all_in, line))
        self.put_in[name] += action.amount
        self.street_total[name] = action.to_amount
        self.opened = self.opened or action.kind.is_aggressive

    def _end_street(self) -> None:
        """A bet nobody matched goes back to its owner when the street's betting is over."""
        totals = sorted(self.street_total.items(), key=lambda item: item[1], reverse=True)
        if not totals:
            return
        second = totals[1][1] if len(totals) > 1 else 0
        if totals[0][1] > second:
            name, amount = totals[0][0], totals[0][1] - second
            self.put_in[name] -= amount
            self.uncalled.append(UncalledReturn(self.street, name, amount, self.line("actions")))

    def _show(self, index: int, cards_text: str | None, line: int) -> None:
        name = self.names[index]
        if cards_text is None:
            self.shows[name] = (ShowStatus.MUCKED, (), line)
            return
        cards = tuple(self.cards[name]) if cards_text == "-" else parse_phh_cards(cards_text, line)
        status = ShowStatus.NOT_SHOWN if all(card is None for card in cards) else ShowStatus.SHOWN
        self.shows[name] = (status, cards if status is ShowStatus.SHOWN else (), line)

    # ------------------------------------------------------------ results

    def _finish(self, antes: list[int]) -> None:
        if self.ours:
            self._site_results()
            return
        self.b.uncalled.extend(self.uncalled)
        for name, (status, cards, line) in self.shows.items():
            self.b.showdown.append(ShownHand(name, status, cards, line=line))
        winnings = self.per_player("winnings", len(self.names))
        finishing = self.per_player("finishing_stacks", len(self.names))
        if winnings is not None:
            collected = [self.amount(value, self.line("winnings")) or 0 for value in winnings]
        elif finishing is not None and None not in self.stacks:
            ends = [self.amount(value, self.line("finishing_stacks"), allow_unknown=True) for value in finishing]
            if None in ends:
                collected = []
                self.notes.append(Note("finishing stacks are not all known: no awards"))
            else:
                collected = [end - stack + self.put_in[name]  # type: ignore[operator]
                             for end, stack, name in zip(ends, self.stacks, self.names, strict=True)]
        else:
            collected = []
            self.notes.append(Note("PHH gives neither winnings nor finishing stacks: no awards"))
        for name, amount in zip(self.names, collected, strict=False):
            if amount:
                self.b.award(name, amount, None, Half.UNKNOWN, self.line("winnings" if winnings is not None else
                                                                         "finishing_stacks"))

    def _site_results(self) -> None:
        """An hhtool export: returns, showdown and awards as the site stated them."""
        b = self.b
        for entry in self.user("uncalled", []):
            b.return_uncalled(str(entry["player"]), int(entry["amount"]), self.line("_hhtool_uncalled"),
                              street=Street(int(entry["street"])))
        for entry in self.user("showdown", []):
            cards = parse_phh_cards(str(entry.get("cards", "")), self.line("_hhtool_showdown"))
            b.show(str(entry["player"]), ShowStatus(entry["status"]), cards, entry.get("high"), entry.get("low"),
                   self.line("_hhtool_showdown"))
        for entry in self.user("awards", []):
            pot = entry.get("pot")
            b.awards.append(Award(str(entry["player"]), int(entry["amount"]), None if pot is None else int(pot),
                                  Half(entry.get("half", "unknown")), self.line("_hhtool_awards")))

    def _restated(self) -> dict[str, Any]:
        """An hhtool export: the per-pot amounts and the facts the site stated twice."""
        pots_line, facts_line = self.line("_hhtool_stated_pots"), self.line("_hhtool_restatements")
        pots = tuple(StatedPot(int(p["pot"]), int(p["amount"]), bool(p["after_rake"]), pots_line)
                     for p in self.user("stated_pots", []))
        facts = tuple(
            Restatement(Restated(str(r["fact"])), str(r["player"]), None if r.get("street") is None else Street(int(r["street"])),
                        None if r.get("amount") is None else int(r["amount"]),
                        parse_phh_cards(str(r["cards"]), facts_line) if r.get("cards") else (),
                        None if r.get("text") is None else str(r["text"]), facts_line)
            for r in self.user("restatements", []))
        return {"stated_pots": pots, "restatements": facts}

    def _tournament(self) -> dict[str, Any]:
        """An hhtool export of a tournament hand: the buy-in its header stated and the finishes its lines did."""
        return exported_tournament(self.user("buy_in"), self.user("finishes", []), self.line("_hhtool_finishes"))

    def _stakes(self, antes: list[int]) -> Stakes:
        given = self.user("stakes")
        seat_count = self.fields.get("seat_count")
        table_size = int(seat_count) if isinstance(seat_count, int) else None
        if isinstance(given, dict):
            def value(name: str) -> int | None:
                return None if given.get(name) is None else int(given[name])
            sources = _sources(given)
            return Stakes(value("ante"), value("bring_in"), value("small_bet"), value("big_bet"),
                          str(given.get("currency", "CHIPS")), int(given.get("unit", 1)),
                          is_tournament=bool(given.get("tournament", False)), table_size=table_size,
                          ante_source=sources["ante_source"], bring_in_source=sources["bring_in_source"],
                          bets_source=sources["bets_source"])
        currency = self.fields.get("currency")
        return Stakes(max(antes, default=0), self.money("bring_in"), self.money("small_bet"), self.money("big_bet"),
                      str(currency) if currency else "CHIPS", self.unit, table_size=table_size)

    def _hand_fields(self, seat_numbers: list[Any]) -> dict[str, Any]:
        f, user = self.fields, self.user
        zone = f.get("time_zone_abbreviation") or f.get("time_zone")
        table = f.get("table")
        started_at, problem = _started_at(f)
        if problem is not None:  # at the line of the field its reason names first ("day is out of range…": day)
            named = sorted((problem.find(name), name) for name in ("year", "month", "day") if name in problem)
            self.b.note(problem, self.line(named[0][1] if named else "year"), NoteTopic.BAD_DATE)
        fields: dict[str, Any] = {
            "started_at": started_at,
            "timezone": str(zone) if zone else None,
            "table_name": None if table is None else str(table),
        }
        if self.ours:
            topics = [str(topic) for topic in user("note_topics", [])]
            topics += [""] * (len(user("notes", [])) - len(topics))
            self.b.notes.extend(Note(str(note), None, NoteTopic(topic) if topic in _TOPICS else None)
                                for note, topic in zip(user("notes", []), topics, strict=False))
        else:
            self.b.notes.extend(self.notes)
        if self.ours:
            community = user("community_card")
            fields.update(
                tournament_id=user("tournament_id"), hero=user("hero"), game_label=user("game_label", ""),
                total_pot=user("total_pot"), rake=user("rake"), fees=int(user("fees", 0)),
                dealer_seat=user("dealer_seat"), community_card=Card.parse(community) if community else None,
                origin_site=user("site"), **self._restated(), **self._tournament(),
            )
        else:
            fields["game_label"] = STUD8_VARIANT
            numbers = [int(n) for n in seat_numbers]
            if numbers != sorted(numbers):
                fields["dealer_seat"] = numbers[-1]  # PHH lists players from the dealer's left
        return fields


def _number(text: str, line: int) -> int | Decimal:
    cleaned = text.replace(",", "")
    try:
        return int(cleaned) if re.fullmatch(r"-?\d+", cleaned) else Decimal(cleaned)
    except ArithmeticError:
        raise HandParseError(line, f"not an amount: {text!r}") from None


def _started_at(fields: dict[str, Any]) -> tuple[datetime | None, str | None]:
    """The date the fields state, or (None, why it is none) as :func:`stated_datetime` says it."""
    year, month, day, clock = (fields.get(name) for name in ("year", "month", "day", "time"))
    if not (isinstance(year, int) and isinstance(month, int) and isinstance(day, int)):
        return None, None
    clock = clock if isinstance(clock, time) else time()
    try:
        return datetime(year, month, day, clock.hour, clock.minute, clock.second, clock.microsecond), None
    except (ValueError, OverflowError):
        return stated_datetime(f"{year:04d}/{month:02d}/{day:02d} {clock:%H:%M:%S}", ["%Y/%m/%d %H:%M:%S"])


PARSER = PhhParser()


def _sources(given: dict[str, Any]) -> dict[str, StakeSource]:
    """Where each stakes value came from, as hhtool's PHH writer recorded it (``ante_source``…);
    a file written before those keys existed said ``"source": "forced_bets"`` for ante and
    bring-in taken from the posts."""
    old = StakeSource.POSTED if given.get("source") == "forced_bets" else StakeSource.HEADER
    sources: dict[str, StakeSource] = {}
    for name, fallback in (("ante_source", old), ("bring_in_source", old), ("bets_source", StakeSource.HEADER)):
        value = given.get(name)
        sources[name] = StakeSource(str(value)) if value in StakeSource._value2member_map_ else fallback
    return sources
