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
from hhtool.replay.pots import Settlement, settle
from hhtool.replay.profiles import RuleProfile

STREETS = (Street.THIRD, Street.FOURTH, Street.FIFTH, Street.SIXTH, Street.SEVENTH)


@dataclass(frozen=True, slots=True)
class Step:
    """One action and the situation it met. ``*_before`` values are just before the action."""

    index: int  # position in hand.actions
    action: Action
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

    @property
    def player(self) -> str:
        return self.action.player

    @property
    def to(self) -> int:
        return self.put_in_before + self.action.amount


@dataclass(frozen=True, slots=True)
class Round:
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


@dataclass(frozen=True, slots=True)
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
    hole_cards: Mapping[str, tuple[Card, ...] | None]  # a player's seven (or six + common) known cards
    settlement: Settlement  # the pots as the rules settle them

    @property
    def contributions(self) -> dict[str, int]:
        return {player: self.spent[player] - self.returns.get(player, 0) for player in self.dealt_in}

    def round_of(self, street: Street) -> Round | None:
        return next((rnd for rnd in self.rounds if rnd.street is street), None)

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
    def __init__(self, hand: Hand, profile: RuleProfile) -> None:
        self.hand = hand
        self.profile = profile
        self.order = seat_order(hand, profile)
        present = {a.player for a in hand.actions} | {d.player for d in hand.deals}
        self.sat_out = self.sat_out_antes(hand)
        self.dealt_in = tuple(p for p in self.order if p in present and p not in self.sat_out)
        self.stacks = {seat.player: seat.stack for seat in hand.seats}
        self.spent = dict.fromkeys(self.order, 0)
        self.returns = dict.fromkeys(self.order, 0)
        self.folded: dict[str, Street] = {}
        self.all_in: set[str] = set()
        self._live: tuple[str, ...] | None = None
        self._active: tuple[str, ...] | None = None
        self.upcards: dict[str, dict[Street, tuple[Card | None, ...]]] = {p: {} for p in self.order}
        self.downcards: dict[str, list[Card | None]] = {p: [] for p in self.order}
        for deal in hand.deals:
            if deal.player in self.upcards:
                self.upcards[deal.player][deal.street] = self.upcards[deal.player].get(deal.street, ()) + deal.up
                self.downcards[deal.player].extend(deal.down)

    # ------------------------------------------------------------ helpers

    def chips(self, player: str) -> int | None:
        stack = self.stacks.get(player)
        return None if stack is None else stack - self.spent[player] + self.returns[player]

    def live(self) -> tuple[str, ...]:
        if self._live is None:
            self._live = tuple(p for p in self.dealt_in if p not in self.folded)
        return self._live

    def active(self) -> tuple[str, ...]:
        if self._active is None:
            self._active = tuple(p for p in self.live() if p not in self.all_in)
        return self._active

    def changed(self) -> None:
        """Someone folded or went all-in: recompute the live and active players when next asked."""
        self._live = self._active = None

    def pot(self) -> int:
        return sum(self.spent.values()) - sum(self.returns.values())

    def put_money(self, action: Action) -> bool:
        """Move the action's chips; True when the player is all-in afterwards."""
        self.spent[action.player] = self.spent.get(action.player, 0) + action.amount
        left = self.chips(action.player)
        if action.player not in self.all_in and (action.all_in or (left is not None and left <= 0 and action.amount > 0)):
            self.all_in.add(action.player)
            self.changed()
        return action.player in self.all_in

    # ------------------------------------------------------------ antes

    @staticmethod
    def sat_out_antes(hand: Hand) -> dict[str, int]:
        """Players who anted, got the ante back and were never dealt a card nor acted: sitting out,
        not dealt in (R2; Full Tilt prints "Ante of $x returned to" a player who timed out)."""
        antes: dict[str, int] = {}
        for action in hand.actions:
            if action.kind is ActionKind.ANTE:
                antes[action.player] = antes.get(action.player, 0) + action.amount
        acted = {a.player for a in hand.actions if a.kind is not ActionKind.ANTE} | {d.player for d in hand.deals}
        returned: dict[str, int] = {}
        for ret in hand.uncalled:
            returned[ret.player] = returned.get(ret.player, 0) + ret.amount
        return {p: amount for p, amount in antes.items() if p not in acted and amount > 0 and returned.get(p) == amount}

    def antes(self) -> tuple[Step, ...]:
        steps: list[Step] = []
        for index, action in enumerate(self.hand.actions):
            if action.kind is not ActionKind.ANTE:
                continue
            if action.player in self.sat_out:
                self.spent[action.player] += action.amount
                self.returns[action.player] += action.amount
                continue
            live, active = self.live(), self.active()
            chips = self.chips(action.player)
            all_in = self.put_money(action)
            steps.append(Step(
                index, action, None, False, 0, 0, 0, False, 0, False, 0, False, chips, self.pot() - action.amount,
                live, active, False, False, False, all_in,
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

    def walk_round(self, street: Street, indexed: list[tuple[int, Action]], deals: tuple[Deal, ...]) -> Round:
        hand, profile = self.hand, self.profile
        small = hand.stakes.small_bet
        fixed = hand.stakes.structure is Structure.FIXED_LIMIT
        increment = street_increment(hand, street)
        double_bet = self.double_bet_allowed(street)
        live_at_start, active_at_start = self.live(), self.active()
        put: dict[str, int] = {}
        acted: set[str] = set()
        acted_since_full: set[str] = set()
        level = full_level = bets = last_increment = largest_increase = short_sum = 0
        opened = big_made = False
        pk_reference = profile.reopen_reference == "largest_increase"
        previous: str | None = None
        steps: list[Step] = []

        def needs_to_act(player: str) -> bool:
            active = self.active()
            if len(self.live()) <= 1:
                return False
            if len(active) <= 1 and put.get(player, 0) >= level:
                return False  # nobody left to bet against
            return put.get(player, 0) < level or player not in acted

        for index, action in indexed:
            player = action.player
            due: str | None = None
            round_over = False
            if previous is not None:
                due = next((p for p in clockwise_from(self.order, previous) if p in self.active() and needs_to_act(p)), None)
                round_over = due is None
            put_before = put.get(player, 0)
            live_before, active_before = self.live(), self.active()
            chips_before = self.chips(player)
            pot_before = self.pot()
            to = put_before + action.amount
            increase = full = counted = False
            step_level, step_full, step_opened, step_bets, step_big, step_last = (
                level, full_level, opened, bets, big_made, last_increment,
            )
            # PokerKit also lets a player who acted raise again once successive short all-ins add up
            may_raise = player not in acted_since_full or (pk_reference and short_sum == 0)
            all_in = self.put_money(action)
            if action.kind is ActionKind.FOLD and player not in self.folded:
                self.folded[player] = street
                self.changed()
            if action.kind is ActionKind.BRING_IN and street is Street.THIRD and not opened and level == 0:
                level = to
                short = all_in and hand.stakes.bring_in is not None and to < hand.stakes.bring_in
                if short and profile.short_bring_in == "bring_in":
                    level = hand.stakes.bring_in  # others still enter for the full bring-in (R4)
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
                        size = hand.stakes.big_bet or size
                    if street is Street.THIRD and full_level == 0:
                        full = small is None or meets_threshold(to, small, profile)
                    else:
                        full = not size or meets_threshold(to - full_level, size, profile)
                    if double_bet and hand.stakes.big_bet and to - full_level >= hand.stakes.big_bet:
                        big_made = True
                else:
                    reference = max(last_increment, small or 0)
                    full = to - full_level >= reference
                full = full or not all_in  # only an all-in can be short; an off-size bet is reported, not carried on
                counted = full or profile.short_allin_counts_to_cap == "always"
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
                index, action, due, round_over, step_level, put_before, step_full, step_opened, step_bets, step_big,
                step_last, may_raise, chips_before, pot_before, live_before, active_before, increase, full, counted, all_in,
            ))
            if player in active_before:
                previous = player  # an illegal actor (folded, all-in) does not move the turn

        pending = tuple(p for p in self.active() if needs_to_act(p)) if len(self.live()) > 1 else ()
        uncalled = self.uncalled(put)
        if uncalled is not None:
            self.returns[uncalled[0]] += uncalled[1]
        lines = [a.line for _, a in indexed] or [d.line for d in deals] or [0]
        return Round(
            street, deals, tuple(steps), live_at_start, active_at_start, increment, double_bet, dict(put), level,
            pending, uncalled, self.live(), self.active(), max(lines),
        )

    @staticmethod
    def uncalled(put: Mapping[str, int]) -> tuple[str, int] | None:
        """R10: the part of the highest street total nobody else matched."""
        if not put:
            return None
        ranked = sorted(put.items(), key=lambda item: item[1], reverse=True)
        top_player, top = ranked[0]
        second = ranked[1][1] if len(ranked) > 1 else 0
        return (top_player, top - second) if top > second else None

    # ------------------------------------------------------------ cards

    def hole_cards(self) -> dict[str, tuple[Card, ...] | None]:
        """Each player's full hand when every card is known (deals and showdown together)."""
        community = self.hand.community_card
        shown: dict[str, tuple[Card | None, ...]] = {}
        for show in self.hand.showdown:
            if show.cards and show.status in (ShowStatus.SHOWN, ShowStatus.MUCKED):
                shown[show.player] = show.cards
        result: dict[str, tuple[Card, ...] | None] = {}
        for player in self.order:
            dealt = [c for cards in self.upcards[player].values() for c in cards] + self.downcards[player]
            known: list[Card] = []
            for card in [*dealt, *shown.get(player, ())]:
                if card is not None and card != community and card not in known:
                    known.append(card)
            needed = 6 if community is not None else 7
            if len(known) == needed:
                result[player] = tuple(known) + ((community,) if community is not None else ())
            else:
                result[player] = None
        return result

    # ------------------------------------------------------------ the walk

    def walk(self) -> ReplayState:
        antes = self.antes()
        rounds: list[Round] = []
        seen = {a.street for a in self.hand.actions if a.kind is not ActionKind.ANTE} | {d.street for d in self.hand.deals}
        if self.hand.community_card is not None:
            seen.add(Street.SEVENTH)
        last = max(seen, default=Street.THIRD)
        for street in STREETS:
            if street > last:
                break  # streets in between are walked even when empty: a missing round is then reported
            indexed = [(i, a) for i, a in enumerate(self.hand.actions) if a.street is street and a.kind is not ActionKind.ANTE]
            deals = tuple(d for d in self.hand.deals if d.street is street)
            rounds.append(self.walk_round(street, indexed, deals))
        contributions = {p: self.spent[p] - self.returns[p] for p in self.dealt_in}
        hole_cards = self.hole_cards()
        in_awards = sum(self.returns.values()) if self.profile.uncalled_in_awards else 0
        settlement = settle(
            self.hand, self.profile, self.order, contributions, self.live(), hole_cards, in_awards, frozenset(self.all_in),
        )
        return ReplayState(
            order=self.order,
            dealt_in=self.dealt_in,
            sat_out=dict(self.sat_out),
            stacks=dict(self.stacks),
            antes=antes,
            rounds=tuple(rounds),
            folded=dict(self.folded),
            all_in=frozenset(self.all_in),
            spent=dict(self.spent),
            returns=dict(self.returns),
            live_at_end=self.live(),
            upcards={p: dict(streets) for p, streets in self.upcards.items()},
            downcards={p: tuple(cards) for p, cards in self.downcards.items()},
            hole_cards=hole_cards,
            settlement=settlement,
        )


def walk(hand: Hand, profile: RuleProfile) -> ReplayState:
    """Replay the hand's betting once and return the timeline the checks read."""
    return _Walker(hand, profile).walk()
