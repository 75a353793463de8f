"""Fault injection: hands that break exactly one rule, once, for testing an auditor.

Every fault starts from a legal hand and changes it in the smallest way that breaks one rule; the
rest of the hand stays consistent so that an auditor which follows the money the history records
(an off-size bet taken as made, an out-of-turn action moving the turn to its player) reports that
one violation. The sidecar names the hand, the code, and the street (3..7, or ``null`` for
hand-level codes) and player (or ``null``) the audit is expected to report.

Per code, what changes and what the sidecar names:

``BRING_IN_PLAYER`` (played) — the player with the *second*-lowest upcard posts the bring-in; the
  action then runs clockwise from him. Street 3, player = the one who posted.
``BRING_IN_AMOUNT`` (played) — the right player brings in for S + b (more than the small bet; the
  PokerStars header carries no bring-in, so only a bring-in of S or more is detectable in a single
  hand). Nobody raises on 3rd street afterwards; calls are for that amount. Street 3, the poster.
``BRING_IN_AMOUNT:table`` (played) — the right player brings in for one unit more or less than the
  table's bring-in b, still below the small bet and not all-in. The hand alone cannot show it where
  the site does not state the bring-in: the other hands of the file, at the same table, do (a table
  context, see :data:`TABLE_CONTEXT_KINDS`). Street 3, the poster.
``ANTE`` (played) — one player, not all-in, antes one unit more (or, with an ante over one unit,
  less) than the table's ante; everyone else, in this hand and the others, posts the table's ante.
  Judged against the header where it states the ante (Full Tilt, PHH), else against the table
  context. Street 3, that player.
``ACTION_ORDER`` (edited) — the last two actions of a betting round, both checks or calls by two
  players, are swapped: the second player acts before the first, who then acts last as the only one
  still due. Street of the round, player = the one who acted early.
``ILLEGAL_ACTION`` (played) — on a street 4..7 the first player who faces a bet checks; he stays
  due and calls or folds when the turn comes back to him (nobody raises after that on the street).
  Street, the player who checked.
``BET_SIZE`` (played) — the opening bet of a street 4..7 is twice the bet size (not all-in); the
  others call or fold, nobody raises. Street, the bettor.
``RAISE_CAP`` (played) — on one street everybody raises to the cap (bet + 3 raises), then one more
  raise is made (not all-in); then calls. Street, the player who made the fifth bet.
``STACK`` (edited) — a player's starting stack is lowered so that his last chip-moving action puts
  in one unit more than he has left. That action is his last in the hand, on the hand's last betting
  street or all-in, of 2 units or more, and a bet, raise or completion (or an all-in call for less),
  so that its size stays right; the player never had a bet returned. Street of that action, the player.
``ROUND_INCOMPLETE`` (edited) — the closing check of a round on street 4..7 (everybody checked) is
  removed: the round ends with that player not having acted. Street, that player.
``CARDS`` (edited) — one card of a player who folds (an upcard dealt on 4th-6th street, or a hero's
  down card) becomes a copy of a card of the same rank visible earlier in the history (so the board
  order and the bring-in do not change). Street where the copy is dealt, its receiver.
``POT_TOTAL`` (edited) — the summary's total pot is one unit too high. Hand level: street and
  player null.
``UNCALLED_BET`` (edited) — an uncalled-bet line returns one unit less than the rules return (the
  total pot and the collections stay as the rules have them). Street of the return, its receiver.
``POT_AWARD`` (edited) — one collect line is one unit too high (so the awards exceed the pot less
  rake by one unit). Hand level: street null, player = the one who collected too much.
``RESTATED:cards`` (edited) — a later deal line's first bracket (the cards dealt to the player
  before, as the writer repeats them) has one card replaced by a card dealt to nobody. Street of that
  deal line, its player. Not expressible where a format repeats no earlier cards (PHH).
``RESTATED:won`` (edited) — a winner's summary seat line says he won one unit more than his collect
  lines pay. Hand level: street null, the winner.
``POT_TOTAL:side_pot`` (edited) — the summary states the first side pot one unit higher than it held,
  so the stated pots no longer add up to the total pot (and no longer match that pot's collect lines,
  a RESTATED companion where the site states pots after rake). Hand level: street and player null.
``SHOWDOWN`` (edited) — in a pot contested at showdown, the high (or whole-pot) share of the single
  best high hand is paid to another shown player of that pot with a worse high hand who wins
  nothing else. Hand level: street null, player = the player paid with the worse hand.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

from hhtool.evaluation import best_high
from hhtool.model import (
    Action,
    ActionKind,
    Award,
    Card,
    Half,
    Hand,
    Restated,
    Restatement,
    Seat,
    ShowStatus,
    StatedPot,
    Street,
    cards_text,
)
from hhtool.replay.codes import Code
from hhtool.simulate.dealer import Dealer, InjectedFault, PlayFault, SimulatedHand

FAULT_CODES: tuple[str, ...] = (
    "BRING_IN_PLAYER", "BRING_IN_AMOUNT", "ACTION_ORDER", "ILLEGAL_ACTION", "BET_SIZE", "RAISE_CAP", "STACK",
    "ROUND_INCOMPLETE", "CARDS", "POT_TOTAL", "UNCALLED_BET", "POT_AWARD", "SHOWDOWN",
    "RESTATED:cards", "RESTATED:won", "POT_TOTAL:side_pot", "BRING_IN_AMOUNT:table", "ANTE",
)  # fmt: skip  (fault kinds: the code each breaks, ":variant" where several break one code)
#: kinds that change a hand's vote on the table's forced bets (see hhtool/replay/forced_bets.py): caught
#: only where most other hands at the table post the table's value
TABLE_CONTEXT_KINDS = frozenset(("BRING_IN_AMOUNT", "BRING_IN_AMOUNT:table", "ANTE"))
MAX_ATTEMPTS = 60  # fresh deals tried before giving up on a fault for one hand

_PLAYED_STREETS: dict[str, tuple[int, ...]] = {
    "BRING_IN_PLAYER": (3,),
    "BRING_IN_AMOUNT": (3,),
    "BRING_IN_AMOUNT:table": (3,),
    "ANTE": (3,),
    "ILLEGAL_ACTION": (4, 5, 6, 7),
    "BET_SIZE": (4, 5, 6, 7),
    "RAISE_CAP": (3, 4, 5, 6, 7),
}


def faulty_hand(dealer: Dealer, index: int, code: str, rng: random.Random) -> SimulatedHand | None:
    """Hand number ``index`` with fault ``code``, or None when no deal in MAX_ATTEMPTS allowed it."""
    if code not in FAULT_CODES:
        raise ValueError(f"unknown fault code {code!r}; known: {', '.join(FAULT_CODES)}")
    for attempt in range(1, MAX_ATTEMPTS + 1):
        if code in _PLAYED_STREETS:
            simulated = dealer.play(index, attempt, PlayFault(code, rng.choice(_PLAYED_STREETS[code])))
            if simulated.fault is not None:
                return simulated
        else:
            edited = _EDITS[code](dealer.play(index, attempt), rng)
            if edited is not None:
                return edited
    return None


def _with(simulated: SimulatedHand, code: Code, street: int | None, player: str | None, detail: str,
          kind: str = "", **changes: object) -> SimulatedHand:
    hand = replace(simulated.hand, **changes)  # type: ignore[arg-type]
    return replace(simulated, hand=hand, fault=InjectedFault(code, street, player, detail, kind))


def _betting(simulated: SimulatedHand, street: Street) -> list[int]:
    return [i for i, a in enumerate(simulated.hand.actions) if a.street is street and a.kind is not ActionKind.ANTE]


def _action_order(simulated: SimulatedHand, rng: random.Random) -> SimulatedHand | None:
    actions = simulated.hand.actions
    candidates = []
    for street in Street:
        indexes = _betting(simulated, street)
        if len(indexes) < 2:
            continue
        first, second = actions[indexes[-2]], actions[indexes[-1]]
        if first.player != second.player and {first.kind, second.kind} <= {ActionKind.CHECK, ActionKind.CALL}:
            candidates.append((indexes[-2], indexes[-1]))
    if not candidates:
        return None
    i, j = rng.choice(candidates)
    swapped = list(actions)
    swapped[i], swapped[j] = swapped[j], swapped[i]
    early = actions[j]
    return _with(simulated, Code.ACTION_ORDER, int(early.street), early.player,
                 f"{early.player} acts before {actions[i].player}", actions=tuple(swapped))


def _round_incomplete(simulated: SimulatedHand, rng: random.Random) -> SimulatedHand | None:
    actions = simulated.hand.actions
    candidates = []
    for street in (Street.FOURTH, Street.FIFTH, Street.SIXTH, Street.SEVENTH):
        indexes = _betting(simulated, street)
        if len(indexes) >= 2 and all(actions[i].kind is ActionKind.CHECK for i in indexes):
            candidates.append(indexes[-1])
    if not candidates:
        return None
    removed = rng.choice(candidates)
    gone = actions[removed]
    return _with(simulated, Code.ROUND_INCOMPLETE, int(gone.street), gone.player,
                 f"{gone.player} never acts on this round", actions=actions[:removed] + actions[removed + 1:])


def _stack(simulated: SimulatedHand, rng: random.Random) -> SimulatedHand | None:
    hand = simulated.hand
    last_street = max(a.street for a in hand.actions)
    returned = {r.player for r in hand.uncalled}
    candidates = []
    for seat in hand.seats:
        mine = [a for a in hand.actions if a.player == seat.player]
        last = mine[-1]
        if seat.player in returned or last.kind is ActionKind.ANTE or last.amount < 2 or seat.stack is None:
            continue
        # a bet, raise or completion (or an all-in call for less) is wrong only for its chips
        clean_size = last.kind.is_aggressive or (last.kind is ActionKind.CALL and last.all_in and _short_call(hand, last))
        if (last.street is last_street or last.all_in) and clean_size:
            candidates.append((seat, last, sum(a.amount for a in mine)))
    if not candidates:
        return None
    seat, last, spent = rng.choice(candidates)
    lowered = spent - 1
    seats = tuple(Seat(s.seat, s.player, lowered, s.sitting_out, s.line) if s is seat else s for s in hand.seats)
    return _with(simulated, Code.STACK, int(last.street), seat.player,
                 f"starts with {lowered} but puts in {spent}", seats=seats)


def _short_call(hand: Hand, call: Action) -> bool:
    """Whether an all-in call put in less than the bet it faced."""
    level = 0
    for action in hand.actions:
        if action is call:
            return call.to_amount < level
        if action.street is call.street and action.kind is not ActionKind.ANTE:
            level = max(level, action.to_amount)
    return False


def _cards(simulated: SimulatedHand, rng: random.Random) -> SimulatedHand | None:
    hand = simulated.hand
    folded = {a.player for a in hand.actions if a.kind is ActionKind.FOLD}
    visible: list[tuple[int, Card]] = []  # (deal index, card) in the order the history shows them
    candidates: list[tuple[int, int, bool]] = []  # (deal index, card position, is an upcard)
    for number, deal in enumerate(hand.deals):
        hero = deal.player == hand.hero
        shown_down = [c for c in deal.down if c is not None] if hero else []
        shown_up = [c for c in deal.up if c is not None] if (deal.street is not Street.SEVENTH) else []
        if deal.player in folded:
            if hero:
                candidates.extend((number, k, False) for k in range(len(deal.down)))
            if Street.FOURTH <= deal.street <= Street.SIXTH:
                candidates.extend((number, k, True) for k in range(len(deal.up)))
        visible.extend((number, card) for card in (*shown_down, *shown_up))
    rng.shuffle(candidates)
    for number, position, is_up in candidates:
        deal = hand.deals[number]
        card = (deal.up if is_up else deal.down)[position]
        assert card is not None
        earlier = [c for n, c in visible if n < number and c.rank == card.rank]
        if not earlier:
            continue
        copy = rng.choice(earlier)
        cards = list(deal.up if is_up else deal.down)
        cards[position] = copy
        changed = replace(deal, up=tuple(cards)) if is_up else replace(deal, down=tuple(cards))
        deals = (*hand.deals[:number], changed, *hand.deals[number + 1:])
        return _with(simulated, Code.CARDS, int(deal.street), deal.player,
                     f"{deal.player} is dealt {copy}, already dealt earlier (instead of {card})", deals=deals)
    return None


def _pot_total(simulated: SimulatedHand, rng: random.Random) -> SimulatedHand | None:
    hand = simulated.hand
    stated = (hand.total_pot or 0) + 1
    return _with(simulated, Code.POT_TOTAL, None, None, f"total pot stated as {stated}, chips put in {hand.total_pot}",
                 total_pot=stated)


def _uncalled_bet(simulated: SimulatedHand, rng: random.Random) -> SimulatedHand | None:
    hand = simulated.hand
    candidates = [i for i, r in enumerate(hand.uncalled) if r.amount >= 2]
    if not candidates:
        return None
    index = rng.choice(candidates)
    ret = hand.uncalled[index]
    wrong = replace(ret, amount=ret.amount - 1)
    uncalled = (*hand.uncalled[:index], wrong, *hand.uncalled[index + 1:])
    return _with(simulated, Code.UNCALLED_BET, int(ret.street), ret.player,
                 f"returned {wrong.amount} instead of {ret.amount}", uncalled=uncalled)


def _pot_award(simulated: SimulatedHand, rng: random.Random) -> SimulatedHand | None:
    hand = simulated.hand
    if not hand.awards:
        return None
    index = rng.randrange(len(hand.awards))
    award = hand.awards[index]
    awards = list(hand.awards)
    awards[index] = replace(award, amount=award.amount + 1)
    return _with(simulated, Code.POT_AWARD, None, award.player, f"collects {award.amount + 1} instead of {award.amount}",
                 awards=tuple(awards))


def _showdown(simulated: SimulatedHand, rng: random.Random) -> SimulatedHand | None:
    hand = simulated.hand
    shown = {s.player: s for s in hand.showdown if s.status is ShowStatus.SHOWN and len(s.cards) >= 6}
    if len(shown) < 2:
        return None
    community = (hand.community_card,) if hand.community_card is not None else ()
    values = {p: best_high([c for c in (*s.cards, *community) if c is not None]).value for p, s in shown.items()}
    for index, award in enumerate(hand.awards):
        if award.half not in (Half.HIGH, Half.WHOLE) or award.player not in shown:
            continue
        if sum(1 for a in hand.awards if a.pot == award.pot and a.half is award.half) != 1:
            continue  # keep it plain: a pot half with one winner, not a tie
        eligible = simulated.pot_eligible[award.pot] if award.pot is not None and award.pot < len(simulated.pot_eligible) else ()
        paid = {a.player for a in hand.awards}
        losers = [p for p in eligible if p in shown and p not in paid and values[p] < values[award.player]]
        if not losers:
            continue
        loser = rng.choice(losers)
        awards = list(hand.awards)
        awards[index] = Award(loser, award.amount, award.pot, award.half, award.line)
        return _with(simulated, Code.SHOWDOWN, None, loser,
                     f"{loser} is paid the high of pot {award.pot} over the better hand of {award.player}",
                     awards=tuple(awards))
    return None


def repeated_cards(hand: Hand) -> dict[tuple[str, Street], tuple[Card | None, ...]]:
    """The first bracket a writer prints on each later deal line: the cards dealt to the player
    before, as the viewer saw them (the hero all of his, the others their upcards); an opponent's
    face-down 7th card gets no line. A CARDS restatement of the hand (a fault) replaces it."""
    repeated: dict[tuple[str, Street], tuple[Card | None, ...]] = {}
    seen: dict[str, list[Card | None]] = {}
    for deal in hand.deals:
        is_hero = deal.player == hand.hero
        so_far = seen.setdefault(deal.player, [])
        new = (*deal.down, *deal.up) if is_hero else deal.up
        if deal.street is not Street.THIRD and new:
            repeated[(deal.player, deal.street)] = tuple(so_far)
        so_far.extend(new)
    for fact in hand.restatements:
        if fact.fact is Restated.CARDS and fact.street is not None:
            repeated[(fact.player, fact.street)] = fact.cards
    return repeated


def restated_won(hand: Hand) -> dict[str, int]:
    """What a WON restatement of the hand (a fault) makes the summary say a player won."""
    return {fact.player: fact.amount or 0 for fact in hand.restatements if fact.fact is Restated.WON}


def _restated_cards(simulated: SimulatedHand, rng: random.Random) -> SimulatedHand | None:
    hand = simulated.hand
    dealt = {card for deal in hand.deals for card in (*deal.down, *deal.up) if card is not None}
    if hand.community_card is not None:
        dealt.add(hand.community_card)
    unused = [Card(rank, suit) for rank in range(2, 15) for suit in "cdhs" if Card(rank, suit) not in dealt]
    candidates = [(key, cards) for key, cards in repeated_cards(hand).items() if any(c is not None for c in cards)]
    if not candidates or not unused:
        return None
    (player, street), cards = rng.choice(candidates)
    position = rng.choice([i for i, card in enumerate(cards) if card is not None])
    altered = list(cards)
    altered[position] = rng.choice(unused)
    fact = Restatement(Restated.CARDS, player, street, cards=tuple(altered))
    return _with(simulated, Code.RESTATED, int(street), player,
                 f"the {street.label}-street deal line repeats {cards_text(cards)} as {cards_text(tuple(altered))}",
                 "RESTATED:cards", restatements=(*hand.restatements, fact))


def _restated_won(simulated: SimulatedHand, rng: random.Random) -> SimulatedHand | None:
    hand = simulated.hand
    winners = sorted({award.player for award in hand.awards if award.amount > 0})
    if not winners:
        return None
    player = rng.choice(winners)
    said = hand.collected_by(player) + 1
    fact = Restatement(Restated.WON, player, amount=said)
    return _with(simulated, Code.RESTATED, None, player, f"the summary says {player} won {said}, one unit more than paid",
                 "RESTATED:won", restatements=(*hand.restatements, fact))


def _side_pot(simulated: SimulatedHand, rng: random.Random) -> SimulatedHand | None:
    amounts = list(simulated.pot_amounts)
    if len(amounts) < 2:
        return None
    amounts[1] += 1
    stated = tuple(StatedPot(index, amount, True) for index, amount in enumerate(amounts))
    return _with(simulated, Code.POT_TOTAL, None, None, f"side pot 1 stated as {amounts[1]}, one unit more than it held",
                 "POT_TOTAL:side_pot", stated_pots=stated)


_EDITS: dict[str, Callable[[SimulatedHand, random.Random], SimulatedHand | None]] = {
    "ACTION_ORDER": _action_order,
    "ROUND_INCOMPLETE": _round_incomplete,
    "STACK": _stack,
    "CARDS": _cards,
    "POT_TOTAL": _pot_total,
    "UNCALLED_BET": _uncalled_bet,
    "POT_AWARD": _pot_award,
    "SHOWDOWN": _showdown,
    "RESTATED:cards": _restated_cards,
    "RESTATED:won": _restated_won,
    "POT_TOTAL:side_pot": _side_pot,
}
