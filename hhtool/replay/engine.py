"""The replay state machine: walk a hand once and record, for every action, the betting situation
it met (the bet to match, the player's chips, who was live and who was due, the cap count), and
for every round how it ended (who still had to act, what the rules return uncalled). Checks read
this timeline; none of them walks the hand again.

The engine follows the money the history records: an off-size bet is taken as made, an
out-of-turn action moves the turn to its player, so one error is reported once and the rest of
the hand is still checked. What the rules *require* is decided by the checks; the engine only
applies the profile where the state itself depends on it (whether a short all-in reopens the
betting and counts towards the cap, the 4th-street double bet).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from hhtool.model import Action, ActionKind, Card, Deal, Hand, ShowStatus, Street, Structure
from hhtool.replay.pots import Settlement, settle
from hhtool.replay.profiles import RuleProfile

STREETS = (Street.THIRD, Street.FOURTH, Street.FIFTH, Street.SIXTH, Street.SEVENTH)
# enum members as module constants: reading Street.THIRD through the class costs several times a global
THIRD, FOURTH, FIFTH, SIXTH, SEVENTH = STREETS
_ANTE, _FOLD, _BRING_IN = ActionKind.ANTE, ActionKind.FOLD, ActionKind.BRING_IN
_SHOWN_OR_MUCKED = (ShowStatus.SHOWN, ShowStatus.MUCKED)


# Steps and rounds are read dozens of times per action by the checks: slotted dataclasses, whose
# fields the interpreter reads fastest (a named tuple's take about three times as long), built
# without the per-field setattr call a frozen dataclass pays. Read-only by convention.


@dataclass(slots=True, eq=False)
class Step:
    """One action and the situation it met. ``*_before`` values are just before the action."""

    index: int  # position in hand.actions
    action: Action
    player: str  # action.player
    due: str | None  # whom the clockwise order made due; None at a round's first action or when nobody was
    round_over: bool  # the round was already complete (or everyone else had folded) when it came
    level_before: int  # the street total every player must match
    put_in_before: int  # this player's street total
    full_level_before: int  # street total set by the last full bet/raise; 0 if none (3rd: bring-in only)
    opened_before: bool  # some player had increased the bet this street (the bring-in does not count)
    bets_before: int  # completions/bets/raises counted towards the cap
    big_increment_before: bool  # 4th-street double bet: a big-bet-sized bet or raise has been made
    last_increment_before: int  # size of the last full increase (no-limit / pot-limit minimum raise)
    may_raise: bool  # the betting was open to this player (not closed by a short all-in)
    chips_before: int | None  # chips behind; None when the stack is not printed
    pot_before: int  # all chips put in so far, antes and this street's bets included
    live_before: tuple[str, ...]  # dealt in and not folded, position order
    active_before: tuple[str, ...]  # live and not all-in
    increase: bool  # the action raised the street's bet
    full: bool  # the increase counted as a full bet/raise and reopened the betting
    counted: bool  # the increase counted towards the cap
    all_in_after: bool
    to: int  # the player's street total after the action (put_in_before + action.amount)


@dataclass(slots=True, eq=False)
class Round:
    """One betting round as walked."""

    street: Street
    deals: tuple[Deal, ...]
    steps: tuple[Step, ...]
    live_at_start: tuple[str, ...]
    active_at_start: tuple[str, ...]
    increment: int | None  # fixed-limit bet size of the street (None if the stakes do not say)
    double_bet_allowed: bool  # R6 variant: an open pair on 4th street allows the big bet
    put_in: Mapping[str, int]  # street totals at the end
    level: int
    pending: tuple[str, ...]  # active players who still had to act or match when the round ended
    uncalled: tuple[str, int] | None  # (player, amount) the rules return at the end of the round
    live_at_end: tuple[str, ...]
    active_at_end: tuple[str, ...]
    last_line: int  # the last line of the round (last action, else last deal)


@dataclass(slots=True)  # read-only by convention: a frozen dataclass costs a setattr call per field to build
class ReplayState:
    order: tuple[str, ...]  # every seated player, position order
    dealt_in: tuple[str, ...]
    sat_out: Mapping[str, int]  # anted, got the ante back, never dealt in: player -> ante returned
    stacks: Mapping[str, int | None]
    antes: tuple[Step, ...]
    rounds: tuple[Round, ...]
    folded: Mapping[str, Street]  # player -> street he folded on
    all_in: frozenset[str]
    spent: Mapping[str, int]  # chips put in, antes included, before returns
    returns: Mapping[str, int]  # uncalled chips the rules return
    live_at_end: tuple[str, ...]
    upcards: Mapping[str, Mapping[Street, tuple[Card | None, ...]]]
    downcards: Mapping[str, tuple[Card | None, ...]]
    # a live player's seven (or six + common) known cards, None when some are hidden; only the players
    # live at the end when two or more are (nobody else's cards decide a pot)
    hole_cards: Mapping[str, tuple[Card, ...] | None]
    settlement: Settlement  # the pots as the rules settle them
    # results several checks derive from this state, computed once (e.g. the award table)
    memo: dict[str, object] = field(default_factory=dict, compare=False, repr=False)

    @property
    def contributions(self) -> dict[str, int]:
        return {player: self.spent[player] - self.returns.get(player, 0) for player in self.dealt_in}

    def round_of(self, street: Street) -> Round | None:
        for rnd in self.rounds:
            if rnd.street is street:
                return rnd
        return None

    def board(self, player: str, through: Street) -> tuple[Card | None, ...]:
        """A player's upcards dealt on 3rd..``through`` street."""
        cards: list[Card | None] = []
        for street, dealt in self.upcards.get(player, {}).items():
            if street <= through:
                cards.extend(dealt)
        return tuple(cards)


def seat_order(hand: Hand, profile: RuleProfile) -> tuple[str, ...]:
    if profile.first_dealt_seat == "lowest_seat":
        return tuple(seat.player for seat in sorted(hand.seats, key=lambda seat: seat.seat))
    return hand.position_order


def clockwise_from(order: Sequence[str], player: str) -> list[str]:
    """Everyone after ``player`` clockwise, ending with ``player`` himself."""
    index = order.index(player)
    return [*order[index + 1:], *order[: index + 1]]


def street_increment(hand: Hand, street: Street) -> int | None:
    return hand.stakes.big_bet if street.is_big_bet else hand.stakes.small_bet


def meets_threshold(increase: int, reference: int, profile: RuleProfile) -> bool:
    """Whether an increase counts as a full bet/raise (R11 ``reopen_threshold``)."""
    if profile.reopen_threshold == "half":
        return 2 * increase >= reference
    return increase >= reference


class _Walker:
    """One pass over a hand. Speed matters here (every imported hand is replayed): the actions and
    deals are grouped by street once, the pot and the live/active players are kept up to date
    instead of being recomputed, and the turn order uses precomputed rotations of the seat order."""

    __slots__ = (
        "_active", "_active_set", "_live", "all_in", "ante_actions", "by_street", "deals_by_street", "dealt_in",
        "downcards", "folded", "hand", "order", "profile", "put_total", "returned_total", "returns", "rotations", "rules",
        "sat_out", "spent", "stacks", "upcards",
    )

    def __init__(self, hand: Hand, profile: RuleProfile) -> None:
        self.hand = hand
        self.profile = profile
        order = self.order = seat_order(hand, profile)
        # clockwise rotation after each seat, ending with the seat itself (see clockwise_from)
        self.rotations = {p: order[i + 1:] + order[: i + 1] for i, p in enumerate(order)}
        ante_kind = _ANTE
        by_street: dict[Street, list[tuple[int, Action]]] = {}
        antes: dict[str, int] = {}
        acted: set[str] = set()
        self.ante_actions: list[tuple[int, Action]] = []
        for index, action in enumerate(hand.actions):
            if action.kind is ante_kind:
                antes[action.player] = antes.get(action.player, 0) + action.amount
                self.ante_actions.append((index, action))
            else:
                acted.add(action.player)
                street = action.street
                if street in by_street:
                    by_street[street].append((index, action))
                else:
                    by_street[street] = [(index, action)]
        deals_by_street: dict[Street, list[Deal]] = {}
        upcards: dict[str, dict[Street, tuple[Card | None, ...]]] = {p: {} for p in order}
        downcards: dict[str, list[Card | None]] = {p: [] for p in order}
        for deal in hand.deals:
            player, street = deal.player, deal.street
            acted.add(player)
            if street in deals_by_street:
                deals_by_street[street].append(deal)
            else:
                deals_by_street[street] = [deal]
            if player in upcards:
                dealt_to = upcards[player]
                dealt_to[street] = dealt_to[street] + deal.up if street in dealt_to else deal.up
                downcards[player].extend(deal.down)
        self.by_street, self.deals_by_street = by_street, deals_by_street
        self.upcards, self.downcards = upcards, downcards
        self.sat_out = self.sat_out_antes(hand, antes, acted)
        present = acted | antes.keys()
        self.dealt_in = tuple([p for p in order if p in present and p not in self.sat_out])
        self.stacks = {seat.player: seat.stack for seat in hand.seats}
        self.spent = dict.fromkeys(order, 0)
        self.returns = dict.fromkeys(order, 0)
        self.put_total = self.returned_total = 0  # sums of spent and returns: the pot is their difference
        self.folded: dict[str, Street] = {}
        self.all_in: set[str] = set()
        self._live: tuple[str, ...] = self.dealt_in
        self._active: tuple[str, ...] = self.dealt_in
        self._active_set: frozenset[str] = frozenset(self.dealt_in)
        stakes = hand.stakes
        # what walk_round needs of the stakes and the profile, read once per hand
        self.rules = (
            stakes.small_bet, stakes.big_bet, stakes.bring_in, stakes.structure is Structure.FIXED_LIMIT,
            profile.reopen_threshold == "half", profile.short_bring_in == "bring_in",
            profile.short_allin_counts_to_cap == "always", profile.reopen_reference == "largest_increase",
        )

    # ------------------------------------------------------------ helpers

    def chips(self, player: str) -> int | None:
        stack = self.stacks.get(player)
        return None if stack is None else stack - self.spent[player] + self.returns[player]

    def live(self) -> tuple[str, ...]:
        return self._live

    def active(self) -> tuple[str, ...]:
        return self._active

    def changed(self) -> None:
        """Someone folded or went all-in: recompute the live and active players."""
        folded, all_in = self.folded, self.all_in
        self._live = tuple([p for p in self.dealt_in if p not in folded])
        self._active = tuple([p for p in self._live if p not in all_in])
        self._active_set = frozenset(self._active)

    def pot(self) -> int:
        return self.put_total - self.returned_total

    def give_back(self, player: str, amount: int) -> None:
        self.returns[player] += amount
        self.returned_total += amount

    def put_money(self, action: Action) -> bool:
        """Move the action's chips; True when the player is all-in afterwards."""
        player, amount = action.player, action.amount
        self.spent[player] = self.spent.get(player, 0) + amount
        self.put_total += amount
        all_in = self.all_in
        if player in all_in:
            return True
        if action.all_in:
            all_in.add(player)
            self.changed()
            return True
        if amount > 0:
            left = self.chips(player)
            if left is not None and left <= 0:
                all_in.add(player)
                self.changed()
                return True
        return False

    # ------------------------------------------------------------ antes

    @staticmethod
    def sat_out_antes(hand: Hand, antes: Mapping[str, int], acted: set[str]) -> dict[str, int]:
        """Players who anted, got the ante back and were never dealt a card nor acted: sitting out,
        not dealt in (R2; Full Tilt prints "Ante of $x returned to" a player who timed out).
        ``antes``: ante total per player; ``acted``: players with a deal or a non-ante action."""
        if not hand.uncalled:
            return {}
        returned: dict[str, int] = {}
        for ret in hand.uncalled:
            returned[ret.player] = returned.get(ret.player, 0) + ret.amount
        return {p: amount for p, amount in antes.items() if p not in acted and amount > 0 and returned.get(p) == amount}

    def antes(self) -> tuple[Step, ...]:
        steps: list[Step] = []
        sat_out, stacks, spent, returns, all_in_players = self.sat_out, self.stacks, self.spent, self.returns, self.all_in
        for index, action in self.ante_actions:
            player, amount = action.player, action.amount
            if player in sat_out:
                spent[player] += amount
                self.put_total += amount
                self.give_back(player, amount)
                continue
            live, active = self._live, self._active
            stack = stacks.get(player)
            chips = None if stack is None else stack - spent[player] + returns[player]  # chips(), inlined
            pot_before = self.put_total - self.returned_total
            # put_money(), inlined
            spent[player] = spent.get(player, 0) + amount
            self.put_total += amount
            if player in all_in_players:
                all_in = True
            elif action.all_in or (amount > 0 and chips is not None and chips - amount <= 0):
                all_in_players.add(player)
                self.changed()
                all_in = True
            else:
                all_in = False
            steps.append(Step(
                index, action, player, None, False, 0, 0, 0, False, 0, False, 0, False, chips, pot_before,
                live, active, False, False, False, all_in, amount,
            ))
        return tuple(steps)

    # ------------------------------------------------------------ betting rounds

    def double_bet_allowed(self, street: Street) -> bool:
        if street is not Street.FOURTH or not self.profile.fourth_street_double_bet:
            return False
        for player in self.live():
            ranks = [c.rank for s in (Street.THIRD, Street.FOURTH) for c in self.upcards[player].get(s, ()) if c]
            if len(ranks) == 2 and ranks[0] == ranks[1]:
                return True
        return False

    def walk_round(self, street: Street, indexed: Sequence[tuple[int, Action]], deals: tuple[Deal, ...]) -> Round:
        small, big, bring_in, fixed, half_threshold, short_bring_in_full, always_counted, pk_reference = self.rules
        increment = big if street >= FIFTH else small  # street_increment()
        double_bet = street is FOURTH and self.profile.fourth_street_double_bet and self.double_bet_allowed(street)
        third = street is THIRD
        fold_kind, bring_in_kind = _FOLD, _BRING_IN
        live_at_start, active_at_start = self._live, self._active
        rotations, folded = self.rotations, self.folded
        stacks, spent, returns, all_in_players = self.stacks, self.spent, self.returns, self.all_in
        put_total, returned_total = self.put_total, self.returned_total  # no chips go back before the round ends
        put: dict[str, int] = {}
        acted: set[str] = set()
        acted_since_full: set[str] = set()
        level = full_level = bets = last_increment = largest_increase = short_sum = 0
        opened = big_made = False
        previous: str | None = None
        steps: list[Step] = []
        changed = False  # someone folded or went all-in: the live and active players change after this step

        live_before, active_before, active_set = self._live, self._active, self._active_set  # refreshed by changed()
        last_line = indexed[0][1].line if indexed else 0  # the round's last line: its highest action line
        for index, action in indexed:
            player = action.player
            if action.line > last_line:
                last_line = action.line
            due: str | None = None
            round_over = False
            if previous is not None:
                # the first player clockwise after the last legal actor who still has to act or match
                if len(live_before) > 1:
                    heads_up = len(active_before) <= 1  # nobody left to bet against once level is matched
                    for candidate in rotations[previous]:
                        if candidate in active_set:
                            put_so_far = put.get(candidate, 0)
                            if put_so_far < level or (not heads_up and candidate not in acted):
                                due = candidate
                                break
                round_over = due is None
            put_before = put.get(player, 0)
            amount = action.amount
            stack = stacks.get(player)
            chips_before = None if stack is None else stack - spent[player] + returns[player]
            pot_before = put_total - returned_total
            to = put_before + amount
            increase = full = counted = False
            step_level, step_full, step_opened, step_bets, step_big, step_last = (
                level, full_level, opened, bets, big_made, last_increment,
            )
            # PokerKit also lets a player who acted raise again once successive short all-ins add up
            may_raise = player not in acted_since_full or (pk_reference and short_sum == 0)
            # put_money(), inlined: this runs for every action
            spent[player] = spent.get(player, 0) + amount
            put_total += amount
            if player in all_in_players:
                all_in = True
            elif action.all_in or (amount > 0 and chips_before is not None and chips_before - amount <= 0):
                all_in_players.add(player)
                all_in = changed = True
            else:
                all_in = False
            kind = action.kind
            if kind is fold_kind and player not in folded:
                folded[player] = street
                changed = True
            if kind is bring_in_kind and third and not opened and level == 0:
                level = to
                if short_bring_in_full and all_in and bring_in is not None and to < bring_in:
                    level = bring_in  # others still enter for the full bring-in (R4)
            elif to > level:
                increase = True
                if pk_reference:
                    # PokerKit: full when the increase is at least the largest one of the street so far
                    full = to - level >= largest_increase
                    largest_increase = max(largest_increase, to - level)
                    short_sum = 0 if full or not all_in or short_sum + to - level >= largest_increase else short_sum + to - level
                elif fixed:
                    size = increment or 0
                    if double_bet and big_made:
                        size = big or size
                    if third and full_level == 0:
                        full = small is None or (2 * to >= small if half_threshold else to >= small)
                    else:
                        raised = to - full_level
                        full = not size or (2 * raised >= size if half_threshold else raised >= size)
                    if double_bet and big and to - full_level >= big:
                        big_made = True
                else:
                    reference = max(last_increment, small or 0)
                    full = to - full_level >= reference
                full = full or not all_in  # only an all-in can be short; an off-size bet is reported, not carried on
                counted = full or always_counted
                if full:
                    last_increment = max(to - full_level, last_increment) if not fixed else to - full_level
                    full_level = to
                    acted_since_full = set()
                bets += counted
                opened = True
                level = to
            put[player] = to
            acted.add(player)
            acted_since_full.add(player)
            steps.append(Step(
                index, action, player, due, round_over, step_level, put_before, step_full, step_opened, step_bets, step_big,
                step_last, may_raise, chips_before, pot_before, live_before, active_before, increase, full, counted, all_in, to,
            ))
            if player in active_before:
                previous = player  # an illegal actor (folded, all-in) does not move the turn
            if changed:
                self.changed()
                live_before, active_before, active_set = self._live, self._active, self._active_set
                changed = False

        self.put_total = put_total
        pending: tuple[str, ...] = ()
        if len(self._live) > 1:
            heads_up = len(self._active) <= 1
            still_due = []  # a plain loop: a comprehension costs a function call, too much for a few players
            for p in self._active:
                if put.get(p, 0) < level or (not heads_up and p not in acted):
                    still_due.append(p)
            pending = tuple(still_due)
        uncalled = self.uncalled(put)
        if uncalled is not None:
            self.give_back(*uncalled)
        if not indexed:
            last_line = max([d.line for d in deals]) if deals else 0
        return Round(
            street, deals, tuple(steps), live_at_start, active_at_start, increment, double_bet, put, level,
            pending, uncalled, self._live, self._active, last_line,
        )

    @staticmethod
    def uncalled(put: Mapping[str, int]) -> tuple[str, int] | None:
        """R10: the part of the highest street total nobody else matched (the first player to reach
        the highest total when several did)."""
        top_player: str | None = None
        top = 0
        second: int | None = None
        for player, amount in put.items():
            if top_player is None or amount > top:
                if top_player is not None:
                    second = top
                top_player, top = player, amount
            elif second is None or amount > second:
                second = amount
        if top_player is None:
            return None
        second = 0 if second is None else second
        return (top_player, top - second) if top > second else None

    # ------------------------------------------------------------ cards

    def hole_cards(self, players: Sequence[str]) -> dict[str, tuple[Card, ...] | None]:
        """Each of ``players``' full hand when every card is known (deals and showdown together)."""
        community = self.hand.community_card
        shown: dict[str, tuple[Card | None, ...]] = {}
        for show in self.hand.showdown:
            if show.cards and show.status in _SHOWN_OR_MUCKED:
                shown[show.player] = show.cards
        needed = 6 if community is not None else 7
        community_key = None if community is None else (community.rank, community.suit)
        result: dict[str, tuple[Card, ...] | None] = {}
        for player in players:
            cards = [c for up in self.upcards[player].values() for c in up]
            cards += self.downcards[player]
            cards += shown.get(player, ())
            if len(cards) < needed:
                result[player] = None
                continue
            # distinct known cards in first-seen order, the common card left out (compared by value)
            known: list[Card] = []
            seen: set[tuple[int, str] | None] = {community_key}
            for card in cards:
                if card is not None:
                    key = (card.rank, card.suit)
                    if key not in seen:
                        seen.add(key)
                        known.append(card)
            if len(known) == needed:
                result[player] = tuple(known) + ((community,) if community is not None else ())
            else:
                result[player] = None
        return result

    # ------------------------------------------------------------ the walk

    def walk(self) -> ReplayState:
        antes = self.antes()
        rounds: list[Round] = []
        seen = self.by_street.keys() | self.deals_by_street.keys()
        if self.hand.community_card is not None:
            seen.add(SEVENTH)
        last = max(seen, default=THIRD)
        for street in STREETS:
            if street > last:
                break  # streets in between are walked even when empty: a missing round is then reported
            indexed = self.by_street.get(street, ())
            deals = tuple(self.deals_by_street.get(street, ()))
            rounds.append(self.walk_round(street, indexed, deals))
        contributions = {p: self.spent[p] - self.returns[p] for p in self.dealt_in}
        hole_cards = self.hole_cards(self._live if len(self._live) > 1 else ())
        # a site reporting returns inside its awards does so only where it prints no return line
        in_awards = self.returned_total if self.profile.uncalled_in_awards and not self.hand.uncalled else 0
        all_in = frozenset(self.all_in)
        settlement = settle(self.hand, self.profile, self.order, contributions, self._live, hole_cards, in_awards, all_in)
        return ReplayState(
            order=self.order,
            dealt_in=self.dealt_in,
            sat_out=self.sat_out,
            stacks=self.stacks,
            antes=antes,
            rounds=tuple(rounds),
            folded=self.folded,
            all_in=all_in,
            spent=self.spent,
            returns=self.returns,
            live_at_end=self._live,
            upcards=self.upcards,
            downcards={p: tuple(cards) for p, cards in self.downcards.items()},
            hole_cards=hole_cards,
            settlement=settlement,
        )


def walk(hand: Hand, profile: RuleProfile) -> ReplayState:
    """Replay the hand's betting once and return the timeline the checks read."""
    return _Walker(hand, profile).walk()
