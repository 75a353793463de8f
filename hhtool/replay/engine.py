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
from dataclasses import dataclass

from hhtool.model import Action, ActionKind, Card, Deal, Hand, ShowStatus, Street, Structure
from hhtool.replay.pots import settle
from hhtool.replay.profiles import RuleProfile
from hhtool.replay.result import BettingFacts
from hhtool.replay.timeline import (
    FIFTH,
    FOURTH,
    SEVENTH,
    STREETS,
    THIRD,
    ReplayState,
    Round,
    Step,
)

_ANTE, _FOLD, _BRING_IN = ActionKind.ANTE, ActionKind.FOLD, ActionKind.BRING_IN
_SHOWN_OR_MUCKED = (ShowStatus.SHOWN, ShowStatus.MUCKED)


def seat_order(hand: Hand, profile: RuleProfile) -> tuple[str, ...]:
    if profile.first_dealt_seat == "lowest_seat":
        return tuple(seat.player for seat in sorted(hand.seats, key=lambda seat: seat.seat))
    return hand.position_order


def clockwise_from(order: Sequence[str], player: str) -> list[str]:
    """Everyone after ``player`` clockwise, ending with ``player`` himself."""
    index = order.index(player)
    return [*order[index + 1:], *order[: index + 1]]


@dataclass(frozen=True, slots=True)
class _Rules:
    """What the walk reads of the stakes and the profile, taken once per hand. A slotted class, not a
    named tuple: :class:`_Betting` reads its fields by name for every action, and a named tuple's
    field read measured 95 ns against 9 ns on 3.11 (3.12: 127 / 30, 3.13: 107 / 69 ns; micro-
    measurement, min of 7); being frozen costs about 1 µs once per hand."""

    small_bet: int | None
    big_bet: int | None
    bring_in: int | None
    fixed_limit: bool
    half_threshold: bool  # R11 reopen_threshold "half": an all-in of half a bet or more counts as full
    short_bring_in_full: bool  # R4: after a short all-in bring-in the others still enter for the full bring-in
    short_all_in_counted: bool  # R8: a short all-in always counts towards the cap
    largest_increase_reference: bool  # PokerKit: full when at least the largest increase of the street
    fourth_street_double_bet: bool  # R6 variant: an open pair on 4th street allows the big bet

    @classmethod
    def of(cls, hand: Hand, profile: RuleProfile) -> _Rules:
        stakes = hand.stakes
        return cls(
            small_bet=stakes.small_bet, big_bet=stakes.big_bet, bring_in=stakes.bring_in,
            fixed_limit=stakes.structure is Structure.FIXED_LIMIT,
            half_threshold=profile.reopen_threshold == "half",
            short_bring_in_full=profile.short_bring_in == "bring_in",
            short_all_in_counted=profile.short_allin_counts_to_cap == "always",
            largest_increase_reference=profile.reopen_reference == "largest_increase",
            fourth_street_double_bet=profile.fourth_street_double_bet,
        )


class _Betting:
    """The bet of the round being walked: the level to match and what the rules count about the
    increases that made it. Read before each action (the step's ``*_before`` values) and moved by
    :meth:`bring_in` and :meth:`increase`."""

    __slots__ = (
        "acted_since_full", "bets", "big_made", "double_bet", "full_level", "increment", "largest_increase",
        "last_increment", "level", "opened", "rules", "short_sum", "third",
    )

    def __init__(self, rules: _Rules, third: bool, increment: int | None, double_bet: bool) -> None:
        self.rules, self.third, self.increment, self.double_bet = rules, third, increment, double_bet
        self.level = self.full_level = self.bets = self.last_increment = self.largest_increase = self.short_sum = 0
        self.opened = self.big_made = False
        self.acted_since_full: set[str] = set()

    def may_raise(self, player: str) -> bool:
        """The betting is open to ``player``: he has not acted since the last full bet or raise
        (PokerKit also reopens it once successive short all-ins add up to a full raise)."""
        return player not in self.acted_since_full or (self.rules.largest_increase_reference and self.short_sum == 0)

    def bring_in(self, to: int, all_in: bool) -> None:
        """The bring-in sets the level (R4: the full bring-in after a short all-in, when the profile says so)."""
        rules = self.rules
        self.level = to
        if rules.short_bring_in_full and all_in and rules.bring_in is not None and to < rules.bring_in:
            self.level = rules.bring_in

    def increase(self, to: int, all_in: bool) -> tuple[bool, bool]:
        """The level rises to ``to``: (full, counted): whether it reopens the betting and whether it
        counts towards the cap."""
        rules, level = self.rules, self.level
        if rules.largest_increase_reference:
            full = to - level >= self.largest_increase
            self.largest_increase = max(self.largest_increase, to - level)
            running = self.short_sum + to - level
            self.short_sum = 0 if full or not all_in or running >= self.largest_increase else running
        elif rules.fixed_limit:
            full = self.fixed_limit_full(to)
        else:
            full = to - self.full_level >= max(self.last_increment, rules.small_bet or 0)
        full = full or not all_in  # only an all-in can be short; an off-size bet is reported, not carried on
        counted = full or rules.short_all_in_counted
        if full:
            raised = to - self.full_level
            self.last_increment = raised if rules.fixed_limit else max(raised, self.last_increment)
            self.full_level = to
            self.acted_since_full = set()
        self.bets += counted
        self.opened = True
        self.level = to
        return full, counted

    def fixed_limit_full(self, to: int) -> bool:
        """R11: a fixed-limit increase is full when it is a whole bet (half of one under the "half"
        threshold); on 3rd street before any completion the reference is the completion itself."""
        rules = self.rules
        small, big, half = rules.small_bet, rules.big_bet, rules.half_threshold
        if self.third and self.full_level == 0:
            full = small is None or (2 * to >= small if half else to >= small)
        else:
            size = (big or self.increment or 0) if self.double_bet and self.big_made else (self.increment or 0)
            raised = to - self.full_level
            full = not size or (2 * raised >= size if half else raised >= size)
        if self.double_bet and big and to - self.full_level >= big:
            self.big_made = True
        return full


class _Walker:
    """One pass over a hand. Speed matters here (every imported hand is replayed): the actions and
    deals are grouped by street once, the pot and the live/active players are kept up to date
    instead of being recomputed, and the turn order uses precomputed rotations of the seat order."""

    __slots__ = (
        "_active", "_active_set", "_live", "all_in", "ante_actions", "by_street", "deals_by_street", "dealt_in",
        "downcards", "folded", "hand", "order", "pot_after_round", "pot_before", "profile", "put_total", "raised_before",
        "returned_total", "returns", "rotations", "rules", "sat_out", "spent", "stacks", "to_call", "upcards",
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
        ante_actions: list[tuple[int, Action]] = []
        # the actions and deals of a street come together: the street's list is looked up when the street changes
        current: Street | None = None
        actions: list[tuple[int, Action]] = []
        for index, action in enumerate(hand.actions):
            player = action.player
            if action.kind is ante_kind:
                antes[player] = antes.get(player, 0) + action.amount
                ante_actions.append((index, action))
                continue
            acted.add(player)
            street = action.street
            if street is not current:
                current = street
                actions = by_street.setdefault(street, [])
            actions.append((index, action))
        self.ante_actions = ante_actions
        deals_by_street: dict[Street, list[Deal]] = {}
        upcards: dict[str, dict[Street, tuple[Card | None, ...]]] = {p: {} for p in order}
        downcards: dict[str, list[Card | None]] = {p: [] for p in order}
        current = None
        deals: list[Deal] = []
        for deal in hand.deals:
            player, street = deal.player, deal.street
            acted.add(player)
            if street is not current:
                current = street
                deals = deals_by_street.setdefault(street, [])
            deals.append(deal)
            dealt_to = upcards.get(player)
            if dealt_to is not None:
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
        self.rules = _Rules.of(hand, profile)
        # the betting facts (result.BettingFacts), recorded as the steps are made: indexed like hand.actions
        count = len(hand.actions)
        self.to_call, self.raised_before, self.pot_before = [0] * count, [0] * count, [0] * count
        self.pot_after_round: list[tuple[int, int]] = []

    # ------------------------------------------------------------ players and chips

    def changed(self) -> None:
        """Someone folded or went all-in: recompute the live and active players."""
        folded, all_in = self.folded, self.all_in
        self._live = tuple([p for p in self.dealt_in if p not in folded])
        self._active = tuple([p for p in self._live if p not in all_in])
        self._active_set = frozenset(self._active)

    def give_back(self, player: str, amount: int) -> None:
        self.returns[player] += amount
        self.returned_total += amount

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
        stacks, spent, returns, all_in_players, new_step = self.stacks, self.spent, self.returns, self.all_in, _new_step
        for index, action in self.ante_actions:
            player, amount = action.player, action.amount
            if player in self.sat_out:  # the ante goes in and comes back: in the totals, not a step
                self.spent[player] += amount
                self.put_total += amount
                self.give_back(player, amount)
                continue
            live, active = self._live, self._active
            pot_before = self.put_total - self.returned_total
            # the chips, as :meth:`walk_round` moves them
            stack = stacks.get(player)
            chips = None if stack is None else stack - spent[player] + returns[player]
            spent[player] = spent.get(player, 0) + amount
            self.put_total += amount
            if player in all_in_players:
                all_in = True
            elif action.all_in or (amount > 0 and chips is not None and chips - amount <= 0):
                all_in_players.add(player)
                all_in = True
                self.changed()
            else:
                all_in = False
            step = new_step(Step)  # field by field: see blank_step
            step.index, step.action, step.player = index, action, player
            step.due, step.round_over = None, False
            step.level_before = step.put_in_before = step.full_level_before = step.bets_before = 0
            step.last_increment_before = 0
            step.opened_before = step.big_increment_before = step.may_raise = False
            step.chips_before, step.pot_before = chips, pot_before
            step.live_before, step.active_before = live, active
            step.increase = step.full = step.counted = False
            step.all_in_after, step.to = all_in, amount
            steps.append(step)
            self.pot_before[index] = pot_before
        return tuple(steps)

    # ------------------------------------------------------------ betting rounds

    def double_bet_allowed(self, street: Street) -> bool:
        if street is not FOURTH or not self.profile.fourth_street_double_bet:
            return False
        for player in self._live:
            ranks = [c.rank for s in (THIRD, FOURTH) for c in self.upcards[player].get(s, ()) if c]
            if len(ranks) == 2 and ranks[0] == ranks[1]:
                return True
        return False

    def still_due(self, put: Mapping[str, int], level: int, acted: set[str]) -> tuple[str, ...]:
        """R9: the active players who still had to act or match when the round ended."""
        if len(self._live) <= 1:
            return ()
        heads_up = len(self._active) <= 1
        # a plain loop: on 3.11 a comprehension is a function call of its own (loop 1.9 µs, comprehension
        # 2.6 µs for four players); from 3.12 on (PEP 709 inlines comprehensions) both cost the same
        # (3.12: 2.0 / 2.0 µs, 3.13: 2.1 / 1.8 µs), so the loop is only worth it on 3.11
        due = []
        for p in self._active:
            if put.get(p, 0) < level or (not heads_up and p not in acted):
                due.append(p)
        return tuple(due)

    def walk_round(self, street: Street, indexed: Sequence[tuple[int, Action]], deals: tuple[Deal, ...]) -> Round:
        """Walk one street. For each action, in turn: (1) whose turn it was, (2) the situation it
        met, (3) its chips, (4) a fold, (5) how it moved the bet, (6) the step recorded; at the end,
        who was still due and what the rules return uncalled."""
        rules = self.rules
        third = street is THIRD
        increment = rules.big_bet if street >= FIFTH else rules.small_bet
        double_bet = self.double_bet_allowed(street)
        betting = _Betting(rules, third, increment, double_bet)
        live_at_start, active_at_start = self._live, self._active
        folded = self.folded
        put: dict[str, int] = {}  # street totals
        acted: set[str] = set()
        steps: list[Step] = []
        previous: str | None = None  # the last legal actor: the turn moves on from him
        last_line = 0 if indexed else max([d.line for d in deals], default=0)  # with actions: the last one's, below
        # what every action reads, as locals; the chips and :meth:`_Betting.may_raise` written out
        # below (a method call per action cost ≈ 8 µs of a simulated hand's ≈ 115 µs walk on 3.11)
        stacks, spent, returns, all_in_players = self.stacks, self.spent, self.returns, self.all_in
        reopens_on_short_sum = rules.largest_increase_reference
        returned_total = self.returned_total  # constant until the round's end (give_back below)
        rotations = self.rotations
        new_step = _new_step  # blank_step's body: a Python call less per action
        to_call_at, raised_at, pot_at = self.to_call, self.raised_before, self.pot_before
        raised = 0  # the steps that raised the street's bet so far (the betting facts' level)
        for index, action in indexed:
            player, kind, amount = action.player, action.kind, action.amount
            if action.line > last_line:
                last_line = action.line
            live_before, active_before = self._live, self._active
            # (1) the turn (R7): the first player clockwise after the last legal actor who still has to act
            # or match the level; None at the round's first action or when nobody has (the round was over)
            due = None
            if previous is not None and len(live_before) > 1:
                active_set, level, heads_up = self._active_set, betting.level, len(active_before) <= 1
                for candidate in rotations[previous]:
                    if candidate in active_set and (put.get(candidate, 0) < level or (not heads_up and candidate not in acted)):
                        due = candidate
                        break
            # (2) the situation, before the action moves anything
            put_before = put.get(player, 0)
            to = put_before + amount
            level_before, full_level_before, opened_before = betting.level, betting.full_level, betting.opened
            bets_before, big_before, last_increment_before = betting.bets, betting.big_made, betting.last_increment
            may_raise = player not in betting.acted_since_full or (reopens_on_short_sum and betting.short_sum == 0)
            pot_before = self.put_total - returned_total
            # (3) the chips: the stack behind before, the pot, who went all-in
            stack = stacks.get(player)
            chips_before = None if stack is None else stack - spent[player] + returns[player]
            spent[player] = spent.get(player, 0) + amount
            self.put_total += amount
            if player in all_in_players:
                all_in, changed = True, False
            elif action.all_in or (amount > 0 and chips_before is not None and chips_before - amount <= 0):
                all_in_players.add(player)
                all_in, changed = True, True
            else:
                all_in, changed = False, False
            # (4) a fold (a second fold by the same player changes nothing)
            if kind is _FOLD and player not in folded:
                folded[player] = street
                changed = True
            # (5) the bet
            increase = full = counted = False
            if kind is _BRING_IN and third and not betting.opened and betting.level == 0:
                betting.bring_in(to, all_in)
            elif to > betting.level:
                increase = True
                full, counted = betting.increase(to, all_in)
            put[player] = to
            acted.add(player)
            betting.acted_since_full.add(player)
            # (6) the step
            step = new_step(Step)
            step.index = index
            step.action = action
            step.player = player
            step.due = due
            step.round_over = previous is not None and due is None
            step.level_before = level_before
            step.put_in_before = put_before
            step.full_level_before = full_level_before
            step.opened_before = opened_before
            step.bets_before = bets_before
            step.big_increment_before = big_before
            step.last_increment_before = last_increment_before
            step.may_raise = may_raise
            step.chips_before = chips_before
            step.pot_before = pot_before
            step.live_before = live_before
            step.active_before = active_before
            step.increase = increase
            step.full = full
            step.counted = counted
            step.all_in_after = all_in
            step.to = to
            steps.append(step)
            owed = level_before - put_before
            to_call_at[index] = owed if owed > 0 else 0
            raised_at[index] = raised
            pot_at[index] = pot_before
            if increase:
                raised += 1
            if player in active_before:
                previous = player  # an illegal actor (folded, all-in) does not move the turn
            if changed:
                self.changed()
        pending = self.still_due(put, betting.level, acted)
        uncalled = self.uncalled(put)
        if uncalled is not None:
            self.give_back(*uncalled)
        self.pot_after_round.append((int(street), self.put_total - self.returned_total))
        # positional, in Round's field order: 14 keyword arguments measured 1.3 µs a round, positional 0.5 (3.11)
        return Round(street, deals, tuple(steps), live_at_start, active_at_start, increment, double_bet, put, betting.level,
                     pending, uncalled, self._live, self._active, last_line)

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
        state = ReplayState(
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
        state.memo[BETTING_FACTS] = BettingFacts(
            to_call=tuple(self.to_call), level_before=tuple(self.raised_before), pot_before=tuple(self.pot_before),
            pot_after_round=tuple(self.pot_after_round), dealt_in=self.dealt_in)
        return state


#: the memo key of the betting facts the walk recorded
BETTING_FACTS = "betting_facts"


def betting_facts(hand: Hand, state: ReplayState) -> BettingFacts:
    """The betting facts reports read (:class:`~.result.BettingFacts`), as the walk recorded them step
    by step (no second pass over the steps): per action the chips to call before it, the steps that
    raised the street's bet before it (``Step.increase``: the bring-in only sets it; whatever the
    profile says about the cap, a short all-in raise is a raise here) and the pot before it; the pot
    after each round once the rules returned what nobody called. ``hand`` is the walked hand."""
    facts = state.memo[BETTING_FACTS]
    assert isinstance(facts, BettingFacts)  # the walk put it there
    return facts


#: Step's own __new__ (see timeline.blank_step), bound once
_new_step = Step.__new__


#: every field of the profile the walk reads (the seat order, the betting's rules, the settlement): a
#: profile equal to another in these fields walks a hand the same. tests/test_replay_engine.py records
#: what walks read and checks that it is among these.
WALK_FIELDS: tuple[str, ...] = (
    "first_dealt_seat", "fourth_street_double_bet", "low_half_exists", "odd_unit_hi_lo", "odd_unit_tied_half",
    "pots_formed_at", "rake_allocation", "reopen_reference", "reopen_threshold", "short_allin_counts_to_cap",
    "short_bring_in", "tied_remainder", "uncalled_in_awards", "unit",
)


def walks_alike(one: RuleProfile, other: RuleProfile) -> bool:
    """Whether every hand walks the same under both profiles (they differ in no :data:`WALK_FIELDS`)."""
    return one is other or all(getattr(one, name) == getattr(other, name) for name in WALK_FIELDS)


def walk(hand: Hand, profile: RuleProfile) -> ReplayState:
    """Replay the hand's betting once and return the timeline the checks read."""
    return _Walker(hand, profile).walk()


