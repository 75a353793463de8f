"""R3 who brings in (lowest upcard, ace high, suits c<d<h<s) and R4 how much (the table's
bring-in, less only when it is the player's whole stack; opening for the small bet is checked as a
completion by the bet-size check)."""

from __future__ import annotations

from collections.abc import Iterator

from hhtool.model import SUIT_CHARS, ActionKind, Card, Hand, StakeSource, Street, Structure
from hhtool.replay.checks.common import Finding, money, violation
from hhtool.replay.engine import THIRD, ReplayState, clockwise_from
from hhtool.replay.profiles import RuleProfile
from hhtool.replay.result import Unverifiable

_SUIT_INDEX = {suit: index for index, suit in enumerate(SUIT_CHARS)}
_BRING_IN = ActionKind.BRING_IN  # a module constant: reading it through the enum class is slower


def _bring_in_key(card: Card, position: int, profile: RuleProfile) -> tuple[int, int]:
    """Smallest key brings in. The razz mirror (``bringin_ace = "low"``) takes the highest card,
    ace low, K♠ highest."""
    suit = _SUIT_INDEX[card.suit]
    if profile.bringin_ace == "high":
        rank, suit_key = card.rank, suit
    else:
        rank, suit_key = -card.low_rank, -suit
    return (rank, suit_key if profile.bringin_tie == "suit" else position)


def designated_bring_in(state: ReplayState, profile: RuleProfile) -> tuple[str | None, str | None]:
    """(the player who must bring in, None) or (None, why it cannot be told)."""
    best: tuple[tuple[int, int], str] | None = None
    dealt_in, upcards = state.dealt_in, state.upcards
    for position, player in enumerate(state.order):
        if player not in dealt_in:
            continue
        by_street = upcards.get(player)
        up = by_street.get(THIRD, ()) if by_street else ()
        if len(up) != 1 or up[0] is None:
            return None, f"{player}'s 3rd-street upcard is not printed"
        candidate = (_bring_in_key(up[0], position, profile), player)
        if best is None or candidate < best:  # the smallest, as min() would take it
            best = candidate
    if best is None:
        return None, "no 3rd-street upcards"
    return best[1], None


def first_to_act(state: ReplayState, designated: str) -> str | None:
    """The bring-in player, or when he is all-in from the ante the next active player (R4)."""
    third = state.round_of(THIRD)
    active = third.active_at_start if third else ()
    if designated in active:
        return designated
    return next((p for p in clockwise_from(state.order, designated) if p in active), None)


def check_bring_in_player(hand: Hand, state: ReplayState, profile: RuleProfile) -> Iterator[Finding]:
    third = state.round_of(THIRD)
    if third is None or not third.steps:
        return
    designated, reason = designated_bring_in(state, profile)
    if designated is None:
        yield Unverifiable("BRING_IN_PLAYER", reason or "bring-in player unknown")
        return
    expected = first_to_act(state, designated)
    first = third.steps[0]
    if expected is None or first.player == expected:
        return
    upcard = state.upcards[designated][Street.THIRD][0]
    why = f"{designated} shows the lowest upcard {upcard}"
    if expected != designated:
        why += f" but is all-in from the ante, so {expected} acts first"
    yield violation(hand, "BRING_IN_PLAYER", Street.THIRD, first.player, expected, first.player,
                    f"{first.player} opened 3rd street, but {why}", first.action.line)


#: the finding of a hand whose bring-in the history does not state, until the table context judges it
BRING_IN_BY_CONTEXT = "the site does not state the bring-in and no table context is known for this hand"


def check_bring_in_amount(hand: Hand, state: ReplayState, profile: RuleProfile) -> Iterator[Finding]:
    """R4 against a bring-in the history states, or the other hands at the table agree on (source
    ``context``, set by the store). In no-limit and pot-limit games the small bet is the minimum
    bet, and the bring-in must be below it as below a fixed-limit small bet. A bring-in taken from
    the hand's own post is not judged here (see :data:`BRING_IN_BY_CONTEXT`)."""
    third = state.round_of(THIRD)
    if third is None or not third.steps or third.steps[0].action.kind is not _BRING_IN:
        return
    step = third.steps[0]
    bring_in, small = hand.stakes.bring_in, hand.stakes.small_bet
    if hand.stakes.bring_in_source is StakeSource.POSTED:
        # the post cannot prove its own amount, but the stated small (minimum) bet bounds it
        amount = step.action.amount
        if small is not None and amount >= small and not step.all_in_after:
            yield violation(hand, "BRING_IN_AMOUNT", Street.THIRD, step.player, f"less than {money(hand, small)}",
                            money(hand, amount), f"{step.player} brought in for {money(hand, amount)}, not below the "
                            f"{_minimum_bet(hand)} {money(hand, small)}", step.action.line)
        else:
            yield Unverifiable("BRING_IN_AMOUNT", BRING_IN_BY_CONTEXT)
        return
    if bring_in is None:
        yield Unverifiable("BRING_IN_AMOUNT", "the table's bring-in amount is not stated")
        return
    amount = step.action.amount
    if small is not None and bring_in >= small:
        yield violation(hand, "BRING_IN_AMOUNT", Street.THIRD, step.player, f"less than {money(hand, small)}",
                        money(hand, bring_in), f"a bring-in of {money(hand, bring_in)} is not below the {_minimum_bet(hand)} "
                        f"{money(hand, small)}", step.action.line)
    elif amount == bring_in or (amount < bring_in and step.all_in_after):
        return
    else:
        yield violation(hand, "BRING_IN_AMOUNT", Street.THIRD, step.player, money(hand, bring_in), money(hand, amount),
                        f"{step.player} brought in for {money(hand, amount)}; the bring-in is {money(hand, bring_in)}"
                        + (" (as the other hands at the table post it)"
                           if hand.stakes.bring_in_source is StakeSource.CONTEXT else ""),
                        step.action.line)


def _minimum_bet(hand: Hand) -> str:
    """What the bring-in must stay below: the small bet, or in no-limit and pot-limit the minimum bet."""
    return "small bet" if hand.stakes.structure is Structure.FIXED_LIMIT else "minimum bet"
