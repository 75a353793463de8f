"""The dealer: plays legal Stud Hi/Lo hands into :class:`hhtool.model.Hand` values.

Rules applied (the defaults of the rules document, as PokerStars plays them):

* antes; 2 down + 1 up on 3rd street, dealt in ascending seat order; the lowest upcard (ace high,
  ties by suit c<d<h<s) brings in; he may instead complete to exactly S;
* completion to S, raises by S on 3rd/4th street and by B on 5th-7th; cap: one bet + 3 raises
  (the bring-in does not count, the completion does);
* 4th-7th street: the best exposed board acts first (pairs, trips, quads, high cards; ace high;
  ties by position); if it belongs to an all-in player, the next active player clockwise opens;
  all-in players are skipped; a folded player gets no more cards;
* all-in for less is always allowed. A short all-in raise closes the raising of that street in
  this simulator (nobody re-raises after it): the hands then stay legal whatever reopening rule an
  auditor applies;
* uncalled bets are returned at the end of each round; side pots from the contribution levels
  of the all-in players, adjacent pots with the same eligible players merged;
* each pot: rake first, then a high half and a low half (odd unit to the high half) when an
  8-or-better low exists in that pot; tied winners share a half equally and its odd units go one
  each, first to the holder of the highest card of the winning five by suit (the rules document's
  default, ``odd_unit_tied_half = best_card_suit``), then by position;
* rake: ``min(cap, floor(total pot * percent))`` for the hand, spread over the pots in proportion
  to their size (rounded down), the units left over going to the largest remainders; or, with
  ``TableConfig.rake_allocation = "main_pot"`` (Full Tilt), all taken from the main pot;
* eight players on 7th street leave four cards: one community card is turned for everybody.

>>> from hhtool.simulate.policy import SimplePolicy
>>> dealer = Dealer(TableConfig(), SimplePolicy())
>>> hand = dealer.play(0).hand
>>> sum(hand.contributed_by(p) for p in hand.players) == sum(a.amount for a in hand.awards) + hand.rake
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta

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
    UncalledReturn,
)
from hhtool.replay.codes import Code
from hhtool.simulate.policy import Move, Policy, Situation, Style
from hhtool.simulate.pots import Evaluated, allocate_rake, build_pots, evaluate, split_pot

DECK: tuple[Card, ...] = tuple(Card(rank, suit) for rank in range(2, 15) for suit in "cdhs")
MAX_BETS = 4  # one bet (or the completion) plus three raises
NAMES: tuple[str, ...] = (
    "gashpor", "denny501", "rdiezchang", "u.pressure", "123smoothie", "TomSludge", "Soroka69",
    "LainaRahat", "geo_441", "Oswood", "joycer01", "terpoox", "Ricky N", "poconoman", "Salm IX",
    "lowball.lou", "8orBetter", "stud_muffin", "QuarterMaster", "MrScoop", "wheel4life", "KJ_offsuit",
    "Ante Up 7", "razzle.dazzle", "Bobo77", "nit-king", "sevenstud", "HiLoHarry", "donk_de_luxe",
    "Fifth Street", "mucker42", "river.rat",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class TableConfig:
    """Stakes and table settings; money in the smallest unit (cents)."""

    small_bet: int = 4
    big_bet: int = 8
    ante: int = 1
    bring_in: int = 2
    unit: int = 100
    currency: str = "USD"
    rake_basis_points: int = 500  # 5%
    rake_cap: int = 300
    min_players: int = 2
    max_players: int = 8
    table_size: int = 8
    hero: str = "Hero"
    site: str = "pokerstars"
    table_name: str = "Alcyone IV"
    short_stack_share: float = 0.3  # share of players sitting with a short stack
    first_hand_id: int = 250_000_000_000
    start_time: datetime = datetime(2026, 11, 29, 10, 22, 32)
    seed: int = 0
    rake_allocation: str = "proportional"  # the target site's profile: proportional, main_pot or last_pot

    def __post_init__(self) -> None:
        if not 0 < self.bring_in < self.small_bet <= self.big_bet:
            raise ValueError("stakes need 0 < bring-in < small bet <= big bet")
        if self.ante < 0 or not 2 <= self.min_players <= self.max_players <= min(8, self.table_size):
            raise ValueError("need ante >= 0 and 2 <= min players <= max players <= 8")
        if self.rake_allocation not in ("proportional", "main_pot", "last_pot"):
            raise ValueError(f"rake allocation {self.rake_allocation!r}: use proportional, main_pot or last_pot")


@dataclass(frozen=True, slots=True)
class InjectedFault:
    """The one rule a faulty hand breaks, as the audit is expected to report it."""

    code: Code
    street: int | None
    player: str | None
    detail: str
    kind: str = ""  # the fault kind when several break the same code ("RESTATED:cards"); "" = the code


@dataclass(frozen=True, slots=True)
class SimulatedHand:
    hand: Hand
    pot_amounts: tuple[int, ...]  # each pot after its rake, main pot first
    pot_eligible: tuple[tuple[str, ...], ...] = ()  # who could win each pot
    fault: InjectedFault | None = None
    pot_rakes: tuple[int, ...] = ()  # the rake taken from each pot, main pot first


@dataclass(slots=True)
class PlayFault:
    """A fault the dealer commits while playing (the rest are applied afterwards, in faults.py)."""

    code: str  # the fault kind: BRING_IN_PLAYER, BRING_IN_AMOUNT(:table), ANTE, ILLEGAL_ACTION, BET_SIZE or RAISE_CAP
    street: int = 3
    injected: InjectedFault | None = None


@dataclass(slots=True)
class _Player:
    name: str
    seat: int
    start: int
    style: Style
    stack: int = 0
    street_put: int = 0
    total_put: int = 0
    folded: bool = False
    all_in: bool = False
    paired: bool = False  # an open pair shows
    down: list[Card] = field(default_factory=list)
    up: list[Card] = field(default_factory=list)

    @property
    def active(self) -> bool:
        return not self.folded and not self.all_in

    def cards(self, community: Card | None = None) -> list[Card]:
        """All the player's cards in dealing order (down, down, up x4, down), plus the community card."""
        cards = self.down[:2] + self.up + self.down[2:]
        return [*cards, community] if community is not None else cards


def board_key(cards: list[Card]) -> tuple[int, ...]:
    """Strength of exposed cards for choosing the first actor: quads > full house (only possible
    with a community card) > trips > two pair > pair > high card; ace high; suits ignored.

    >>> board_key([Card.parse("Ac"), Card.parse("6c")]) > board_key([Card.parse("9d"), Card.parse("3d")])
    True
    """
    counts: dict[int, int] = {}
    for card in cards:
        counts[card.rank] = counts.get(card.rank, 0) + 1
    ordered = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
    shape = [count for _, count in ordered]
    if shape[0] == 4:
        category = 5
    elif shape[0] == 3:
        category = 4 if len(shape) > 1 and shape[1] >= 2 else 3
    elif shape[0] == 2:
        category = 2 if len(shape) > 1 and shape[1] == 2 else 1
    else:
        category = 0
    return (category, *(rank for rank, count in ordered for _ in range(count)))


class Dealer:
    """Plays one hand at a time; each hand depends only on (config.seed, index, attempt)."""

    def __init__(self, config: TableConfig, policy: Policy) -> None:
        self.config = config
        self.policy = policy

    def rng_for(self, index: int, attempt: int = 0) -> random.Random:
        return random.Random(f"hhtool-simulate:{self.config.seed}:{index}:{attempt}")

    def play(self, index: int, attempt: int = 0, fault: PlayFault | None = None) -> SimulatedHand:
        return _HandPlay(self, index, self.rng_for(index, attempt), fault).run()


class _HandPlay:
    """The state of one hand being played."""

    def __init__(self, dealer: Dealer, index: int, rng: random.Random, fault: PlayFault | None) -> None:
        self.config = config = dealer.config
        self.policy = dealer.policy
        self.index = index
        self.rng = rng
        self.fault = fault
        count = rng.randint(config.min_players, config.max_players)
        seats = sorted(rng.sample(range(1, config.table_size + 1), count))
        names = rng.sample(NAMES, count - 1)
        names.insert(rng.randrange(count), config.hero)
        self.players = [self._seat_player(name, seat) for name, seat in zip(names, seats, strict=True)]
        self.by_name = {player.name: player for player in self.players}
        self.deck = list(DECK)
        rng.shuffle(self.deck)
        self.community: Card | None = None
        self.pot = 0  # chips put in so far (before returns)
        self.actions: list[Action] = []
        self.deals: list[Deal] = []
        self.uncalled: list[UncalledReturn] = []
        self.last_aggressor: _Player | None = None  # on the current street
        self.opener: _Player | None = None  # first to act (or would-be first) on the current street

    def _seat_player(self, name: str, seat: int) -> _Player:
        config, rng = self.config, self.rng
        floor = config.ante + config.bring_in + 1  # the bring-in can always be posted
        if rng.random() < config.short_stack_share:
            stack = rng.randint(floor, max(floor, 12 * config.small_bet))
        else:
            stack = rng.randint(20 * config.small_bet, 60 * config.small_bet)
        return _Player(name, seat, stack, self.policy.style(rng), stack=stack)

    # ------------------------------------------------------------ the hand

    def run(self) -> SimulatedHand:
        self._antes_and_third_street()
        for street in (Street.FOURTH, Street.FIFTH, Street.SIXTH, Street.SEVENTH):
            if self._live_count() < 2:
                break
            self._deal(street)
            self._later_round(street)
        return self._finish()

    def _live(self) -> list[_Player]:
        return [player for player in self.players if not player.folded]

    def _live_count(self) -> int:
        return sum(1 for player in self.players if not player.folded)

    def _record(self, street: Street, player: _Player, kind: ActionKind, amount: int = 0) -> None:
        player.stack -= amount
        player.total_put += amount
        self.pot += amount
        if kind is not ActionKind.ANTE:
            player.street_put += amount
        if amount and player.stack == 0:
            player.all_in = True
        to_amount = amount if kind is ActionKind.ANTE else player.street_put
        self.actions.append(Action(street, player.name, kind, amount, to_amount, bool(amount) and player.all_in))

    def _deal(self, street: Street) -> None:
        live = self._live()
        if street is Street.SEVENTH and len(self.deck) < len(live):
            self.community = self.deck.pop()  # the deck is short: one card for everybody
            return
        for player in live:
            card = self.deck.pop()
            if street is Street.SEVENTH:
                player.down.append(card)
                self.deals.append(Deal(street, player.name, (card,), ()))
            else:
                player.paired = player.paired or any(up.rank == card.rank for up in player.up)
                player.up.append(card)
                self.deals.append(Deal(street, player.name, (), (card,)))

    def _antes_and_third_street(self) -> None:
        config = self.config
        fault = self.fault
        off_ante = self._off_ante(fault) if fault is not None and fault.code == "ANTE" else None
        for player in self.players:
            if config.ante:
                ante = off_ante[1] if off_ante is not None and player is off_ante[0] else config.ante
                self._record(Street.THIRD, player, ActionKind.ANTE, min(ante, player.stack))
        for player in self.players:
            player.down = [self.deck.pop(), self.deck.pop()]
            player.up = [self.deck.pop()]
            self.deals.append(Deal(Street.THIRD, player.name, tuple(player.down), tuple(player.up)))
        ranked = sorted(self.players, key=lambda p: p.up[0].bring_in_key)
        bringer = ranked[0]
        if fault is not None and fault.code == "BRING_IN_PLAYER":
            bringer = ranked[1]  # the second-lowest upcard posts instead
            fault.injected = InjectedFault(Code.BRING_IN_PLAYER, 3, bringer.name,
                                           f"{ranked[0].name} has the lowest upcard {ranked[0].up[0]}, "
                                           f"{bringer.name} ({bringer.up[0]}) posts the bring-in")
        round_ = _Round(self, Street.THIRD)
        self.opener = bringer
        situation = self._situation(bringer, round_, is_bring_in=True)
        move = self.policy.decide(situation, bringer.style, self.rng)
        if fault is not None and fault.code in ("BRING_IN_PLAYER", "BRING_IN_AMOUNT", "BRING_IN_AMOUNT:table"):
            move = Move.BRING_IN
        if move is Move.RAISE and bringer.stack > config.small_bet:
            self._record(Street.THIRD, bringer, ActionKind.COMPLETE, config.small_bet)
            round_.current_bet, round_.bets_made = config.small_bet, 1
            self.last_aggressor = bringer
        else:
            amount = config.bring_in
            if fault is not None and fault.code == "BRING_IN_AMOUNT" and bringer.stack > config.small_bet + config.bring_in:
                amount = config.small_bet + config.bring_in  # a bring-in must be smaller than the small bet
                round_.raises_closed = True
                fault.injected = InjectedFault(Code.BRING_IN_AMOUNT, 3, bringer.name,
                                               f"brings in for {amount}, more than the small bet {config.small_bet}")
            elif fault is not None and fault.code == "BRING_IN_AMOUNT:table":
                amount = self._off_bring_in(fault, bringer)
            self._record(Street.THIRD, bringer, ActionKind.BRING_IN, min(amount, bringer.stack))
            round_.current_bet = bringer.street_put
        round_.pending = {p.name for p in self.players if p.active and p is not bringer}
        round_.play(self._next_index(bringer))
        self._return_uncalled(Street.THIRD)

    def _off_ante(self, fault: PlayFault) -> tuple[_Player, int] | None:
        """ANTE fault: one player, not put all-in by it, antes one unit more (or, where the ante is
        over one unit, less) than the table; the other players and hands post the table's ante."""
        ante = self.config.ante
        candidates = [p for p in self.players if p.stack > ante + 1]
        if not ante or not candidates:
            return None
        player = self.rng.choice(candidates)
        amount = self.rng.choice([ante + 1, ante - 1] if ante > 1 else [ante + 1])
        fault.injected = InjectedFault(Code.ANTE, 3, player.name, f"antes {amount} where the table's ante is {ante}", "ANTE")
        return player, amount

    def _off_bring_in(self, fault: PlayFault, bringer: _Player) -> int:
        """BRING_IN_AMOUNT:table fault: the bring-in is one unit over or under the table's, still
        below the small bet and not all-in: wrong only against the other hands at the table."""
        config = self.config
        options = [amount for amount in (config.bring_in + 1, config.bring_in - 1)
                   if 0 < amount < config.small_bet and amount < bringer.stack]
        if not options:
            return config.bring_in  # not possible in this deal: the hand stays clean and is dealt again
        amount = self.rng.choice(options)
        fault.injected = InjectedFault(Code.BRING_IN_AMOUNT, 3, bringer.name,
                                       f"brings in for {amount} where the table's bring-in is {config.bring_in}",
                                       "BRING_IN_AMOUNT:table")
        return amount

    def _next_index(self, player: _Player) -> int:
        return (self.players.index(player) + 1) % len(self.players)

    def _later_round(self, street: Street) -> None:
        for player in self.players:
            player.street_put = 0
        self.last_aggressor = None
        live = self._live()
        if street is Street.SEVENTH and self.community is not None:
            boards = {p.name: board_key([*p.up, self.community]) for p in live}
        else:
            boards = {p.name: board_key(p.up) for p in live}
        best = max(boards.values())
        leader = next(p for p in live if boards[p.name] == best)  # ties: first in position order
        self.opener = leader
        if sum(1 for p in live if p.active) < 2:
            return  # nobody left to bet against: the cards are just dealt
        start = self.players.index(leader)
        while not self.players[start].active:
            start = (start + 1) % len(self.players)
        self.opener = self.players[start]
        round_ = _Round(self, street)
        round_.pending = {p.name for p in live if p.active}
        round_.play(start)
        self._return_uncalled(street)

    def _situation(self, player: _Player, round_: _Round, is_bring_in: bool = False) -> Situation:
        to_call = max(0, round_.current_bet - player.street_put)
        return Situation(
            street=int(round_.street),
            cards=tuple(player.cards()),
            opponents_paired=sum(1 for p in self.players if p.paired and p is not player and not p.folded),
            to_call=to_call,
            pot=self.pot,
            can_raise=is_bring_in or round_.can_raise(player),
            bets_made=round_.bets_made,
            is_bring_in=is_bring_in,
            stack=player.stack,
        )

    def _return_uncalled(self, street: Street) -> None:
        ordered = sorted(self.players, key=lambda p: p.street_put, reverse=True)
        top, second = ordered[0], (ordered[1].street_put if len(ordered) > 1 else 0)
        excess = top.street_put - second
        if excess > 0:
            top.stack += excess
            top.street_put -= excess
            top.total_put -= excess
            self.pot -= excess
            top.all_in = top.stack == 0
            self.uncalled.append(UncalledReturn(street, top.name, excess))

    # ------------------------------------------------------------ the end

    def _finish(self) -> SimulatedHand:
        config = self.config
        live = self._live()
        pots = build_pots([(p.name, p.total_put, not p.folded, p.all_in) for p in self.players])
        total = sum(p.total_put for p in self.players)
        rake = min(config.rake_cap, total * config.rake_basis_points // 10_000)
        rakes = allocate_rake([amount for amount, _ in pots], rake, config.rake_allocation)
        awards: list[Award] = []
        showdown: list[ShownHand] = []
        position = {p.name: i for i, p in enumerate(self.players)}
        if len(live) == 1:
            if total - rake:  # without antes everybody may fold to the bring-in: nothing to collect
                awards.append(Award(live[0].name, total - rake, 0, Half.WHOLE))
            last_street = max(action.street for action in self.actions)
            if last_street > Street.THIRD:
                showdown.append(ShownHand(live[0].name, ShowStatus.NOT_SHOWN))
        else:
            hands = {p.name: evaluate(p.cards(self.community)) for p in live}
            for pot_index in reversed(range(len(pots))):
                amount, eligible = pots[pot_index]
                net = amount - rakes[pot_index]
                awards.extend(split_pot(net, pot_index, eligible, hands, position))
            showdown = self._showdown(live, hands, awards)
        seats = tuple(Seat(p.seat, p.name, p.start) for p in self.players)
        stakes = Stakes(config.ante, config.bring_in, config.small_bet, config.big_bet, config.currency,
                        unit=config.unit, table_size=config.table_size)
        when = config.start_time + timedelta(seconds=45 * self.index + self.rng.randrange(40))
        hand = Hand(
            site=config.site,
            hand_id=str(config.first_hand_id + self.index),
            source=Source("<simulated>", 0, 0, ""),
            stakes=stakes,
            seats=seats,
            actions=tuple(self.actions),
            deals=tuple(self.deals),
            uncalled=tuple(self.uncalled),
            showdown=tuple(showdown),
            awards=tuple(awards),
            started_at=when,
            timezone="ET",
            table_name=config.table_name,
            hero=config.hero,
            game_label="7 Card Stud Hi/Lo Limit",
            total_pot=total,
            rake=rake,
            community_card=self.community,
        )
        pot_amounts = tuple(amount - cut for (amount, _), cut in zip(pots, rakes, strict=True))
        injected = self.fault.injected if self.fault is not None else None
        return SimulatedHand(hand, pot_amounts, tuple(eligible for _, eligible in pots), injected, tuple(rakes))

    def _showdown(self, live: list[_Player], hands: dict[str, Evaluated], awards: list[Award]) -> list[ShownHand]:
        """Who shows first: the last 7th-street aggressor, else the 7th-street opener; then clockwise.
        A player who wins nothing may muck unless somebody is all-in (then all hands are turned up)."""
        first = self.last_aggressor or self.opener or live[0]
        start = self.players.index(first)
        order = [self.players[(start + i) % len(self.players)] for i in range(len(self.players))]
        order = [p for p in order if not p.folded]
        winners = {award.player for award in awards}
        anyone_all_in = any(p.all_in for p in live)
        shown: list[ShownHand] = []
        for number, player in enumerate(order):
            own = tuple(player.cards())
            if number > 0 and not anyone_all_in and player.name not in winners and self.rng.random() < 0.5:
                shown.append(ShownHand(player.name, ShowStatus.MUCKED, own))
                continue
            high, low = hands[player.name]
            shown.append(ShownHand(player.name, ShowStatus.SHOWN, own, high.describe(),
                                   low.describe() if low is not None else None))
        return shown


class _Round:
    """One betting round: whose turn, the current bet, the cap, who still has to act."""

    def __init__(self, play: _HandPlay, street: Street) -> None:
        self.play_ = play
        self.street = street
        config = play.config
        self.increment = config.big_bet if street.is_big_bet else config.small_bet
        self.current_bet = 0
        self.bets_made = 0
        self.pending: set[str] = set()
        self.raises_closed = False
        self.forced = False  # a play fault drives this street

    def can_raise(self, player: _Player) -> bool:
        return not self.raises_closed and self.bets_made < MAX_BETS and player.stack > self.current_bet - player.street_put

    def play(self, start: int) -> None:
        hand = self.play_
        players = hand.players
        fault = hand.fault
        self.forced = fault is not None and fault.injected is None and fault.code in ("BET_SIZE", "RAISE_CAP") \
            and fault.street == self.street and self._fault_possible(fault.code)
        index = start
        while self.pending and hand._live_count() > 1:
            player = players[index % len(players)]
            index += 1
            if player.name not in self.pending:
                continue
            self.pending.discard(player.name)
            if self._illegal_check(player):
                continue
            move = hand.policy.decide(hand._situation(player, self), player.style, hand.rng)
            if self.forced:
                move = self._forced_move(player)
            self._apply(player, move)

    def _illegal_check(self, player: _Player) -> bool:
        """ILLEGAL_ACTION fault: the first player of the chosen street who faces a bet checks. He
        stays due, so he acts again (call or fold) when the turn comes back to him."""
        fault = self.play_.fault
        if fault is None or fault.code != "ILLEGAL_ACTION" or fault.injected is not None or fault.street != self.street:
            return False
        if self.current_bet - player.street_put <= 0:
            return False
        self.play_._record(self.street, player, ActionKind.CHECK)
        fault.injected = InjectedFault(Code.ILLEGAL_ACTION, int(self.street), player.name,
                                       f"checks facing a bet of {self.current_bet}")
        self.pending.add(player.name)
        self.raises_closed = True  # keep the rest of the street plain: calls and folds
        return True

    def _fault_possible(self, code: str) -> bool:
        hand = self.play_
        active = [p for p in hand.players if p.active]
        if len(active) < 2:
            return False
        if code == "BET_SIZE":
            opener = hand.opener
            return self.street > Street.THIRD and opener is not None and opener.stack > 2 * self.increment
        return sum(1 for p in active if p.stack > (MAX_BETS + 2) * self.increment) >= 2

    def _forced_move(self, player: _Player) -> Move:
        fault = self.play_.fault
        assert fault is not None
        if fault.injected is not None:
            return Move.CALL  # after the fault: everybody just calls
        if fault.code == "BET_SIZE":
            return Move.RAISE
        # RAISE_CAP: raise to the cap, then once more
        to_call = self.current_bet - player.street_put
        if player.stack > to_call + self.increment:
            return Move.RAISE
        return Move.CALL

    def _apply(self, player: _Player, move: Move) -> None:
        hand = self.play_
        street = self.street
        to_call = self.current_bet - player.street_put
        if move is Move.FOLD and to_call <= 0 and sum(1 for p in hand.players if p.active) < 3:
            move = Move.CHECK  # a fold with no bet to face only where two players stay to contest any side pot
        if move is Move.FOLD:
            hand._record(street, player, ActionKind.FOLD)
            player.folded = True
            return
        if move is Move.RAISE and (self.can_raise(player) or self._fault_raise(player)):
            self._raise(player)
            return
        if to_call <= 0:
            hand._record(street, player, ActionKind.CHECK)
        else:
            hand._record(street, player, ActionKind.CALL, min(to_call, player.stack))

    def _fault_raise(self, player: _Player) -> bool:
        fault = self.play_.fault
        return (self.forced and fault is not None and fault.code == "RAISE_CAP" and fault.injected is None
                and self.bets_made >= MAX_BETS and player.stack > self.current_bet - player.street_put + self.increment)

    def _raise(self, player: _Player) -> None:
        hand = self.play_
        config = hand.config
        street = self.street
        if street is Street.THIRD and self.bets_made == 0:
            kind, target = ActionKind.COMPLETE, config.small_bet
        elif self.current_bet == 0:
            kind, target = ActionKind.BET, self.increment
        else:
            kind, target = ActionKind.RAISE, self.current_bet + self.increment
        fault = hand.fault
        if self.forced and fault is not None and fault.injected is None:
            if fault.code == "BET_SIZE" and kind is ActionKind.BET:
                target = 2 * self.increment
                fault.injected = InjectedFault(Code.BET_SIZE, int(street), player.name,
                                               f"bets {target} where the bet is {self.increment}")
                self.raises_closed = True
            elif fault.code == "RAISE_CAP" and self.bets_made >= MAX_BETS:
                fault.injected = InjectedFault(Code.RAISE_CAP, int(street), player.name,
                                               f"makes bet number {self.bets_made + 1} after the cap of {MAX_BETS}")
                self.raises_closed = True
        amount = min(target - player.street_put, player.stack)
        hand._record(street, player, kind, amount)
        hand.last_aggressor = player
        reached = player.street_put
        full = reached >= target
        if full:
            self.bets_made += 1
            self.pending = {p.name for p in hand.players if p.active and p is not player}
        else:  # all-in for less: those who already matched must still call the difference
            self.raises_closed = True
            self.pending |= {p.name for p in hand.players if p.active and p is not player and p.street_put < reached}
        self.current_bet = max(self.current_bet, reached)
