"""Build :class:`~hhtool.model.Hand` values for replay tests from a small script, one statement
per line, so a test reads like a hand history and its line numbers are the script's own.

Statements (amounts are ints in smallest units; ``?`` = not printed)::

    seats A=100 B=100 C=?          # seats 1, 2, 3 in order; A:5=100 gives seat 5
    stakes ante=1 bring=2 small=4 big=8 [structure=no_limit] [unit=1] [dealer=3]
    antes                          # everyone posts the ante (a stack below it posts all, all-in)
    ante A 1 [allin]
    3rd A [Kd Qd] 2c, B [?? ??] 5s # 3rd-street deal: [down] up; later streets: 4th A 9d, ...; 7th A [9s]
    street 5th                     # move to a street without dealing
    A bring 2 | A complete 4 | A bet 4 | A raise 8 | A call [3] | A check | A fold   (+ "allin")
                                   # complete/bet/raise give the street total ("to"); call adds
    return A 4                     # uncalled bet returned
    show A [cards] | muck A [cards] | noshow A
    collect A 45 [high|low|whole] [pot=1]
    rake 2 | fees 1 | total 91 | community 7c

>>> hand = build_hand('''
... seats A=10 B=10
... stakes ante=1 bring=2 small=4 big=8
... antes
... 3rd A [?? ??] 2c, B [?? ??] 5s
... A bring 2
... B fold
... return A 2
... collect A 2
... rake 0
... ''')
>>> [a.kind.value for a in hand.actions], hand.uncalled[0].line
(['ante', 'ante', 'bring_in', 'fold'], 8)
"""

from __future__ import annotations

import re
from dataclasses import replace

from hhtool.model import (
    Action,
    ActionKind,
    Award,
    Card,
    Deal,
    Half,
    Hand,
    Seat,
    ShownHand,
    ShowStatus,
    Source,
    Stakes,
    Street,
    Structure,
    UncalledReturn,
)
from hhtool.replay import Unverifiable
from hhtool.replay.forced_bets import ANTE_BY_CONTEXT, BRING_IN_BY_CONTEXT

_STREETS = {"3rd": Street.THIRD, "4th": Street.FOURTH, "5th": Street.FIFTH, "6th": Street.SIXTH, "7th": Street.SEVENTH}
_KINDS = {
    "bring": ActionKind.BRING_IN, "complete": ActionKind.COMPLETE, "bet": ActionKind.BET, "raise": ActionKind.RAISE,
    "call": ActionKind.CALL, "check": ActionKind.CHECK, "fold": ActionKind.FOLD,
}  # fmt: skip


def _amount(text: str) -> int | None:
    return None if text == "?" else int(text)


def _cards(text: str) -> tuple[Card | None, ...]:
    return tuple(None if part == "??" else Card.parse(part) for part in text.split())


class _Builder:
    def __init__(self) -> None:
        self.seats: list[Seat] = []
        self.stakes = Stakes(1, 2, 4, 8, "USD")
        self.dealer: int | None = None
        self.actions: list[Action] = []
        self.deals: list[Deal] = []
        self.uncalled: list[UncalledReturn] = []
        self.showdown: list[ShownHand] = []
        self.awards: list[Award] = []
        self.rake: int | None = None
        self.fees = 0
        self.total: int | None = None
        self.community: Card | None = None
        self.street = Street.THIRD
        self.put: dict[str, int] = {}

    def statement(self, text: str, line: int) -> None:
        words = text.split()
        head = words[0]
        if head == "seats":
            for number, word in enumerate(words[1:], start=1):
                name, stack = word.split("=")
                seat = number
                if ":" in name:
                    name, seat_text = name.split(":")
                    seat = int(seat_text)
                self.seats.append(Seat(seat, name, _amount(stack), False, line))
        elif head == "stakes":
            values = dict(word.split("=") for word in words[1:])
            self.stakes = Stakes(
                ante=_amount(values.get("ante", "1")), bring_in=_amount(values.get("bring", "2")),
                small_bet=_amount(values.get("small", "4")), big_bet=_amount(values.get("big", "8")),
                currency=values.get("currency", "USD"), unit=int(values.get("unit", "100")),
                structure=Structure(values.get("structure", "fixed_limit")),
            )
            self.dealer = int(values["dealer"]) if "dealer" in values else None
        elif head == "antes":
            for seat in self.seats:
                ante = self.stakes.ante or 0
                short = seat.stack is not None and seat.stack <= ante
                amount = min(ante, seat.stack) if seat.stack is not None else ante
                self.actions.append(Action(Street.THIRD, seat.player, ActionKind.ANTE, amount, amount, short, line))
        elif head == "ante":
            amount = int(words[2])
            self.actions.append(Action(Street.THIRD, words[1], ActionKind.ANTE, amount, amount, "allin" in words, line))
        elif head in _STREETS:
            self.new_street(_STREETS[head])
            for part in " ".join(words[1:]).split(","):
                if part.strip():
                    self.deal(part.strip(), line)
        elif head == "street":
            self.new_street(_STREETS[words[1]])
        elif head == "return":
            self.uncalled.append(UncalledReturn(self.street, words[1], int(words[2]), line))
        elif head in ("show", "muck", "noshow"):
            status = {"show": ShowStatus.SHOWN, "muck": ShowStatus.MUCKED, "noshow": ShowStatus.NOT_SHOWN}[head]
            bracket = re.search(r"\[([^\]]*)\]", text)
            cards = _cards(bracket.group(1)) if bracket else (self.dealt(words[1]) if head == "show" else ())
            self.showdown.append(ShownHand(words[1], status, cards, None, None, line))
        elif head == "collect":
            half, pot = Half.UNKNOWN, 0
            for word in words[3:]:
                if word.startswith("pot="):
                    pot = int(word[4:])
                else:
                    half = Half(word)
            self.awards.append(Award(words[1], int(words[2]), pot, half, line))
        elif head == "rake":
            self.rake = _amount(words[1])
        elif head == "fees":
            self.fees = int(words[1])
        elif head == "total":
            self.total = int(words[1])
        elif head == "community":
            self.community = Card.parse(words[1])
        else:
            self.action(words, line)

    def new_street(self, street: Street) -> None:
        self.street = street
        self.put = {}

    def deal(self, part: str, line: int) -> None:
        player, rest = part.split(None, 1)
        bracket = re.match(r"\[([^\]]*)\]\s*(.*)", rest)
        down, up = (_cards(bracket.group(1)), _cards(bracket.group(2))) if bracket else ((), _cards(rest))
        self.deals.append(Deal(self.street, player, down, up, line))

    def dealt(self, player: str) -> tuple[Card | None, ...]:
        """A player's cards in dealing order (2 down, 4 up, 1 down)."""
        deals = [d for d in self.deals if d.player == player]
        first = [c for d in deals if d.street is Street.THIRD for c in d.down]
        ups = [c for d in deals for c in d.up]
        last = [c for d in deals if d.street is Street.SEVENTH for c in d.down]
        return (*first, *ups, *last)

    def action(self, words: list[str], line: int) -> None:
        player, verb = words[0], words[1]
        kind = _KINDS[verb]
        all_in = "allin" in words
        numbers = [int(w) for w in words[2:] if w.isdigit()]
        before = self.put.get(player, 0)
        level = max(self.put.values(), default=0)
        if kind in (ActionKind.CHECK, ActionKind.FOLD):
            added = 0
        elif kind is ActionKind.CALL:
            added = numbers[0] if numbers else level - before
        elif kind is ActionKind.BRING_IN:
            added = numbers[0]
        else:
            added = numbers[0] - before
        self.put[player] = before + added
        self.actions.append(Action(self.street, player, kind, added, before + added, all_in, line))

    def build(self, site: str, hand_id: str, last_line: int) -> Hand:
        return Hand(
            site=site, hand_id=hand_id, source=Source("test.txt", 1, last_line, "0" * 64), stakes=self.stakes,
            seats=tuple(self.seats), actions=tuple(self.actions), deals=tuple(self.deals), uncalled=tuple(self.uncalled),
            showdown=tuple(self.showdown), awards=tuple(self.awards), total_pot=self.total, rake=self.rake, fees=self.fees,
            dealer_seat=self.dealer, community_card=self.community, game_label="7 Card Stud Hi/Lo Limit",
        )


def build_hand(script: str, site: str = "test", hand_id: str = "1") -> Hand:
    """A Hand from a script (see the module docstring). Line n of the script is line n of the hand."""
    builder = _Builder()
    lines = script.split("\n")
    for number, text in enumerate(lines, start=1):
        body = text.split("#", 1)[0].strip()
        if body:
            builder.statement(body, number)
    return builder.build(site, hand_id, len(lines))


def line_of(script: str, fragment: str) -> int:
    """The script line (1-based, as in the built hand) where ``fragment`` starts; the fragment may
    span lines and must occur once."""
    assert script.count(fragment) == 1, f"{fragment!r} occurs {script.count(fragment)} times"
    return script[: script.index(fragment)].count("\n") + 1


def edit(script: str, old: str, new: str) -> str:
    """Replace one unique fragment of a script (keeps every other line where it was); an edit that
    changes nothing is refused (say what stays in a comment instead)."""
    assert script.count(old) == 1, f"{old!r} occurs {script.count(old)} times"
    assert old != new, f"the edit changes nothing: {old!r} is replaced by itself"
    return script.replace(old, new)


def with_stakes(hand: Hand, **changes: object) -> Hand:
    return replace(hand, stakes=replace(hand.stakes, **changes))


# A clean three-handed hand to all seven streets with a hi/lo split and an odd cent:
# A brings in (2c), B completes, C (pair of jacks showing) opens 4th–7th, A folds on 5th,
# C wins high with kings and jacks, B low with 6-5-4-3-A. Pot 91, rake 2: high 45, low 44.
CLEAN = """
seats A=100 B=100 C=100
stakes ante=1 bring=2 small=4 big=8
antes
3rd A [Kd Qd] 2c, B [Ah 3h] 5s, C [Ks Kh] Jc
A bring 2
B complete 4
C call
A call
4th A 9d, B 4d, C Jd
C bet 4
A call
B call
5th A Tc, B 6c, C 8h
C bet 8
A fold
B raise 16
C call
6th B 8s, C 2d
C check
B bet 8
C call
7th B [9s], C [3c]
C check
B bet 8
C call
show B
show C
collect C 45
collect B 44
rake 2
total 91
"""


# A short stack all-in on 5th street: main pot 60 (A, B, C), side pot 34 (B, C). C wins high in
# both, A the main low (6-4-3-2-A), B the side low (8-7-5-4-3). Rake 1, shared in proportion to the
# pots, comes from the main pot: main 59 → 30 / 29, side 34 → 17 / 17.
SIDE = """
seats A=20 B=100 C=100
stakes ante=1 bring=2 small=4 big=8
antes
3rd A [Ad 3d] 2c, B [7d 8d] 5s, C [Ks Kh] Jc
A bring 2
B complete 4
C raise 8
A call
B call
4th A 4h, B 9c, C Jd
C bet 4
A call
B call
5th A 6h, B Th, C 8h
C bet 8
A call 7 allin
B call
6th A Kd, B 3s, C 2h
C bet 8
B call
7th A [Qc], B [4s], C [3c]
C bet 8
B call
show C
show B
show A
collect C 17 pot=1
collect B 17 pot=1
collect C 30
collect A 29
rake 1
total 94
"""

# Quartering: A wins high with kings and ties B for the low (6-4-3-2-A), C has nothing. Pot 39, no
# rake: high 20 to A, low 19 split 10 / 9 between A and B; the odd unit of the low half goes by
# the profile's tie-break (spades 6 of A's low five beats B's clubs 6; B holds the lower ace by suit).
QUARTER = """
seats A=100 B=100 C=100
stakes ante=1 bring=2 small=4 big=8
antes
3rd A [Kc Ks] 6s, B [8c 9c] 6c, C [9s 9h] 2s
C bring 2
A complete 4
B call
C call
4th A Ah, B Ad, C Qs
A check
B check
C check
5th A 2h, B 2d, C Jh
A bet 8
B call
C call
6th A 3d, B 3h, C 5d
A check
B check
C check
7th A [4c], B [4d], C [Th]
A check
B check
C check
show A
show B
show C
collect A 30
collect B 9
rake 0
"""


#: what a hand replayed on its own (no store, so no table context) leaves to the store's table-context
#: pass: the ante and bring-in the site does not state (tests/test_table_context.py judges those)
TABLE_CONTEXT_PLACEHOLDERS = {("ANTE", ANTE_BY_CONTEXT), ("BRING_IN_AMOUNT", BRING_IN_BY_CONTEXT)}


def beyond_table_context(unverifiable: tuple[Unverifiable, ...]) -> list[Unverifiable]:
    """The unverifiable checks of a hand replayed alone, less those the table-context pass decides."""
    return [u for u in unverifiable if (u.check, u.reason) not in TABLE_CONTEXT_PLACEHOLDERS]
