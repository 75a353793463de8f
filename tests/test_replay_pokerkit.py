"""Differential test: random legal fixed-limit Stud Hi/Lo hands played by PokerKit, converted to
hhtool Hands, replayed under the ``pokerkit`` profile: same pots, same winners, same payouts, and
no violation.

The converter writes PokerKit's money flow the way a site history would. Two translations are
needed, both leaving every final stack unchanged: when all but one player fold, PokerKit hands the
survivor his whole outstanding street bet back, where a site returns only the part nobody matched
and pays the rest with the pot; and PokerKit gives back an ante nobody else could match (the
others all-in for less), which the rules (R2, R12) put in a side pot only its owner can win — the
converter prints both as awards.
"""

from __future__ import annotations

import random
from collections import defaultdict

import pytest

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
from hhtool.replay import PROFILES, ReplayResult, replay

pokerkit = pytest.importorskip("pokerkit")

HANDS = 2000
STAKES = ((1, 2, 4, 8), (1, 2, 5, 10), (2, 3, 10, 20), (5, 10, 40, 80))


def play(rng: random.Random) -> tuple[object, tuple[int, ...], tuple[int, int, int, int]]:
    """One PokerKit hand with random legal actions: (final state, starting stacks, stakes)."""
    automation = pokerkit.Automation
    automations = (
        automation.ANTE_POSTING, automation.BET_COLLECTION, automation.BLIND_OR_STRADDLE_POSTING,
        automation.CARD_BURNING, automation.HOLE_DEALING, automation.BOARD_DEALING,
        automation.HOLE_CARDS_SHOWING_OR_MUCKING, automation.HAND_KILLING, automation.CHIPS_PUSHING,
        automation.CHIPS_PULLING,
    )
    players = rng.randint(2, 6)  # six players and the burns use at most 47 cards: no reshuffled muck
    ante, bring_in, small, big = rng.choice(STAKES)
    stacks = tuple(rng.choice((rng.randint(1, 12 * small), rng.randint(12 * small, 60 * small))) for _ in range(players))
    random.seed(rng.random())  # PokerKit shuffles with the random module
    state = pokerkit.FixedLimitSevenCardStudHighLowSplitEightOrBetter.create_state(
        automations, True, ante, bring_in, small, big, stacks, players, mode=pokerkit.Mode.CASH_GAME,
    )
    while state.status:
        options: list[tuple[str, float]] = []
        if state.can_post_bring_in():
            options.append(("bring_in", 0.8))
        if state.can_complete_bet_or_raise_to():
            options.append(("raise", 0.3))
        if state.can_check_or_call():
            options.append(("call", 0.55))
        if state.can_fold() and (state.checking_or_calling_amount or 0) > 0:
            options.append(("fold", 0.15))
        if not options:
            raise AssertionError(f"PokerKit is waiting for something this test does not do: {state.operations[-1]}")
        choice = rng.choices([name for name, _ in options], [weight for _, weight in options])[0]
        if choice == "bring_in":
            state.post_bring_in()
        elif choice == "raise":
            state.complete_bet_or_raise_to()
        elif choice == "call":
            state.check_or_call()
        else:
            state.fold()
    return state, stacks, (ante, bring_in, small, big)


def _card(card: object) -> Card:
    return Card.parse(f"{card.rank}{card.suit}")  # type: ignore[attr-defined]


def to_hand(state: object, stacks: tuple[int, ...], stakes: tuple[int, int, int, int], hand_id: str) -> Hand:
    """Write a finished PokerKit hand as a site history would."""
    ops = pokerkit
    names = [f"p{i}" for i in range(len(stacks))]
    actions: list[Action] = []
    dealt: dict[tuple[int, Street], tuple[list[Card], list[Card], int]] = {}
    uncalled: list[UncalledReturn] = []
    shown: list[ShownHand] = []
    awards: list[Award] = []
    cards_seen = [0] * len(stacks)
    put = [0] * len(stacks)
    total = [0] * len(stacks)
    street, opened, antes_done = Street.THIRD, False, False
    for line, op in enumerate(state.operations, start=len(stacks) + 1):  # type: ignore[attr-defined]
        if isinstance(op, ops.AntePosting):
            total[op.player_index] += op.amount
            all_in = total[op.player_index] == stacks[op.player_index]
            actions.append(Action(Street.THIRD, names[op.player_index], ActionKind.ANTE, op.amount, op.amount, all_in, line))
        elif isinstance(op, ops.BetCollection):
            if not antes_done:  # an ante above everyone else's (the others all-in for less) comes back
                antes_done = True
                antes = [sum(a.amount for a in actions if a.player == name) for name in names]
                awards += [Award(names[i], a - c, None, Half.WHOLE, line) for i, (a, c) in enumerate(zip(antes, op.bets,
                                                                                                        strict=True)) if a > c]
                continue
            _returns(op.bets, put, names, street, line, uncalled, awards)
            put = [0] * len(stacks)
        elif isinstance(op, ops.HoleDealing):
            index = op.player_index
            new_street = Street.THIRD if cards_seen[index] < 3 else Street(cards_seen[index] + 1)
            if new_street != street:
                street, opened = new_street, False
                put = [0] * len(stacks)
            down, up, _ = dealt.setdefault((index, street), ([], [], line))
            for card, face_up in zip(op.cards, op.statuses, strict=True):
                (up if face_up else down).append(_card(card))
            cards_seen[index] += len(op.cards)
        elif isinstance(op, ops.BringInPosting | ops.CompletionBettingOrRaisingTo | ops.CheckingOrCalling | ops.Folding):
            index = op.player_index
            if isinstance(op, ops.Folding):
                kind, added = ActionKind.FOLD, 0
            elif isinstance(op, ops.BringInPosting):
                kind, added = ActionKind.BRING_IN, op.amount
            elif isinstance(op, ops.CheckingOrCalling):
                kind, added = (ActionKind.CALL if op.amount else ActionKind.CHECK), op.amount
            else:
                kind = ActionKind.RAISE if opened else ActionKind.COMPLETE if street is Street.THIRD else ActionKind.BET
                opened, added = True, op.amount - put[index]
            put[index] += added
            total[index] += added
            all_in = added > 0 and total[index] == stacks[index]
            actions.append(Action(street, names[index], kind, added, put[index], all_in, line))
        elif isinstance(op, ops.HoleCardsShowingOrMucking):
            cards = tuple(_card(c) for c in op.hole_cards)
            shown.append(ShownHand(names[op.player_index], ShowStatus.SHOWN if cards else ShowStatus.MUCKED, cards, line=line))
        elif isinstance(op, ops.ChipsPushing):
            half = {None: Half.WHOLE, 0: Half.HIGH, 1: Half.LOW}[op.hand_type_index]
            awards += [Award(names[i], amount, op.pot_index, half, line) for i, amount in enumerate(op.amounts) if amount]
    if any(put):  # a street whose bets were never collected (everyone else folded)
        _returns(tuple(0 for _ in put), put, names, street, len(state.operations) + len(stacks), uncalled, awards)  # type: ignore[attr-defined]
    deals = [Deal(street_of, names[index], tuple(down), tuple(up), first)
             for (index, street_of), (down, up, first) in sorted(dealt.items(), key=lambda item: item[1][2])]
    ante, bring_in, small, big = stakes
    in_pot = sum(a.amount for a in actions) - sum(r.amount for r in uncalled)
    return Hand(
        site="pokerkit", hand_id=hand_id, source=Source("pokerkit", 1, len(state.operations) + len(stacks) + 1, "0" * 64),  # type: ignore[attr-defined]
        stakes=Stakes(ante, bring_in, small, big, "CHIPS", unit=1), seats=tuple(Seat(i + 1, n, s, False, i + 1) for i, (n, s) in
                                                                             enumerate(zip(names, stacks, strict=True))),
        actions=tuple(actions), deals=tuple(deals), uncalled=tuple(uncalled), showdown=tuple(shown), awards=tuple(awards),
        total_pot=in_pot, rake=0,
    )


def _returns(collected: tuple[int, ...], put: list[int], names: list[str], street: Street, line: int,
             uncalled: list[UncalledReturn], awards: list[Award]) -> None:
    """PokerKit's returns at a bet collection, written as the unmatched part plus (for a lone
    survivor) the matched part he wins back with the pot."""
    given_back = [p - c for p, c in zip(put, collected, strict=True)]
    if not any(given_back):
        return
    ranked = sorted(range(len(put)), key=lambda i: put[i], reverse=True)
    top, second = ranked[0], (put[ranked[1]] if len(ranked) > 1 else 0)
    unmatched = put[top] - second
    for index, amount in enumerate(given_back):
        extra = amount - (unmatched if index == top else 0)
        assert extra >= 0 and (index == top or amount == 0), (put, collected)
        if index == top and unmatched:
            uncalled.append(UncalledReturn(street, names[index], unmatched, line))
        if extra:
            awards.append(Award(names[index], extra, 0, Half.WHOLE, line))


def pokerkit_payouts(state: object, stacks: tuple[int, ...], hand: Hand) -> dict[str, int]:
    """What each player got back: final stack less what he kept behind."""
    final = state.stacks  # type: ignore[attr-defined]
    return {f"p{i}": final[i] - (stacks[i] - sum(a.amount for a in hand.actions if a.player == f"p{i}"))
            for i in range(len(stacks))}


def pokerkit_pots(state: object) -> dict[int, dict[tuple[int, str], int]]:
    """pot index -> {(hand type, player): amount} from the chips pushings (hand type -1 = whole)."""
    pots: dict[int, dict[tuple[int, str], int]] = defaultdict(dict)
    for op in state.operations:  # type: ignore[attr-defined]
        if isinstance(op, pokerkit.ChipsPushing):
            kind = -1 if op.hand_type_index is None else op.hand_type_index
            for i, amount in enumerate(op.amounts):
                if amount:
                    pots[op.pot_index][(kind, f"p{i}")] = pots[op.pot_index].get((kind, f"p{i}"), 0) + amount
    return pots


def rules_payouts(result: ReplayResult, hand: Hand) -> dict[str, int]:
    paid = {seat.player: 0 for seat in hand.seats}
    for pot in result.pots:
        for player, amount in (*pot.high_shares, *pot.low_shares):
            paid[player] += amount
    return paid


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore:There is no reason for this player to fold")
def test_random_pokerkit_hands_replay_identically() -> None:
    rng = random.Random(20240613)
    profile = PROFILES["pokerkit"]
    showdowns = side_pots = splits = 0
    for number in range(HANDS):
        state, stacks, stakes = play(rng)
        hand = to_hand(state, stacks, stakes, str(number))
        result = replay(hand, profile)
        assert result.violations == (), (number, result.violations)
        assert result.unverifiable == (), (number, result.unverifiable)
        returned = {p: sum(r.amount for r in hand.uncalled if r.player == p) for p in hand.players}
        paid = rules_payouts(result, hand)
        assert {p: paid[p] + returned[p] for p in paid} == pokerkit_payouts(state, stacks, hand), number
        live = [p for p in hand.players if not any(a.player == p and a.kind is ActionKind.FOLD for a in hand.actions)]
        if len(live) < 2:
            continue
        showdowns += 1
        theirs = pokerkit_pots(state)
        if any(k[0] < 0 for v in theirs.values() for k in v):
            continue  # PokerKit found a single live hand after killing the losers and pushed the pots undivided
        contested = [pot.amount for pot in result.pots if pot.index in theirs or len(pot.eligible) > 1]
        assert sorted(sum(v.values()) for v in theirs.values()) == sorted(contested), number
        for pot in result.pots:
            if pot.index not in theirs and len(pot.eligible) == 1:
                continue  # an ante nobody else could match: PokerKit gives it back before forming pots
            pushed = theirs[pot.index]
            totals: dict[str, int] = defaultdict(int)
            for (_, player), amount in pushed.items():
                totals[player] += amount
            mine: dict[str, int] = defaultdict(int)
            for player, amount in (*pot.high_shares, *pot.low_shares):
                mine[player] += amount
            assert dict(totals) == {p: a for p, a in mine.items() if a}, number
            if pot.split:  # the same winners and amounts in each half
                assert {k: a for k, a in pushed.items()} == {
                    **{(0, p): a for p, a in pot.high_shares if a}, **{(1, p): a for p, a in pot.low_shares if a}}, number
        side_pots += len(result.pots) > 1
        splits += any(pot.split for pot in result.pots)
    assert showdowns > HANDS // 10 and side_pots > 20 and splits > 50, (showdowns, side_pots, splits)
