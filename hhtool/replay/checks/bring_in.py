"""R3 who brings in (lowest upcard, ace high, suits c<d<h<s; a hidden upcard matters only when
it could be lower than the lowest shown one) and R4 how much (the table's
bring-in, less only when it is the player's whole stack; opening for the small bet is checked as a
completion by the bet-size check)."""

from __future__ import annotations

from collections.abc import Iterator

from hhtool.model import SUIT_CHARS, ActionKind, Card, Hand, StakeSource, Street, Structure
from hhtool.replay.checks.common import Finding, money, violation
from hhtool.replay.codes import Code
from hhtool.replay.engine import clockwise_from
from hhtool.replay.forced_bets import BRING_IN_BY_CONTEXT
from hhtool.replay.hidden import hidden_pool, names_of
from hhtool.replay.profiles import RuleProfile
from hhtool.replay.result import Unverifiable
from hhtool.replay.timeline import THIRD, ReplayState

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


def bring_in_candidates(
    state: ReplayState, profile: RuleProfile, hand: Hand | None = None,
) -> tuple[tuple[str, ...], str | None]:
    """(every player who may have to bring in, given what the history hides; why it is not one
    player, or None). A hidden upcard is any card not seen elsewhere in the hand (issue 18 §4):
    it matters only when it could be below the lowest shown upcard. ``hand`` supplies the
    showdown cards (a player who showed his hand has his hidden upcard among them)."""
    known: list[tuple[tuple[int, int], str]] = []
    hidden: list[tuple[int, str]] = []
    dealt_in, upcards = state.dealt_in, state.upcards
    for position, player in enumerate(state.order):
        if player not in dealt_in:
            continue
        by_street = upcards.get(player)
        up = by_street.get(THIRD, ()) if by_street else ()
        if len(up) > 1:
            return (), f"{player} has {len(up)} 3rd-street upcards"
        if up and up[0] is not None:
            known.append((_bring_in_key(up[0], position, profile), player))
        else:
            hidden.append((position, player))
    if not known and not hidden:
        return (), "no 3rd-street upcards"
    lowest = min(known) if known else None
    if not hidden and lowest is not None:
        return (lowest[1],), None
    below: list[str] = []  # hidden upcards that could be the lowest
    lowest_stays = lowest is not None
    for position, player in hidden:
        keys = [_bring_in_key(card, position, profile) for card in hidden_pool(hand, state, player)]
        if not keys:
            return (), f"{player}'s 3rd-street upcard is not printed and no card is left for it"
        if lowest is None or min(keys) < lowest[0]:
            below.append(player)
        if lowest is not None and max(keys) < lowest[0]:
            lowest_stays = False  # every card he could hold is lower: the shown lowest cannot bring in
    candidates = ([lowest[1]] if lowest is not None and lowest_stays else []) + below
    if len(candidates) == 1:
        return tuple(candidates), None
    ordered = tuple(p for p in state.order if p in candidates)
    if lowest is None:
        return ordered, "no 3rd-street upcard is printed"
    lowest_card = upcards[lowest[1]][THIRD][0]
    whose = f"{below[0]}'s 3rd-street upcard is" if len(below) == 1 else f"the 3rd-street upcards of {names_of(below)} are"
    return ordered, f"{whose} not printed and could be lower than {lowest[1]}'s {lowest_card}"


def designated_bring_in(
    state: ReplayState, profile: RuleProfile, hand: Hand | None = None,
) -> tuple[str | None, str | None]:
    """(the player who must bring in, None) or (None, why it cannot be told)."""
    candidates, reason = _candidates(state, profile, hand)
    return (candidates[0], None) if len(candidates) == 1 and reason is None else (None, reason)


def _candidates(state: ReplayState, profile: RuleProfile, hand: Hand | None) -> tuple[tuple[str, ...], str | None]:
    """bring_in_candidates, once per replay: the bring-in check runs first with the hand (its
    showdown narrows hidden cards); the legality check, which has no hand to pass, reuses it. Kept
    by the two fields of the profile they depend on, read here by whichever check asks (a check's
    findings are reused under another reading only when the fields it read are the same: see
    hhtool.replay._Rereading)."""
    rules = (profile.bringin_ace, profile.bringin_tie)
    cached = state.memo.get("bring_in.candidates")
    if isinstance(cached, tuple) and cached[0] == rules and (hand is None or cached[1] is hand):
        return cached[2], cached[3]
    candidates, reason = bring_in_candidates(state, profile, hand)
    if hand is not None:
        state.memo["bring_in.candidates"] = (rules, hand, candidates, reason)
    return candidates, reason


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
    candidates, reason = _candidates(state, profile, hand)
    first = third.steps[0]
    if not candidates:
        yield Unverifiable(Code.BRING_IN_PLAYER, reason or "bring-in player unknown", first.action.line)
        return
    openers = {candidate: first_to_act(state, candidate) for candidate in candidates}
    if first.player in openers.values():
        if len(set(openers.values())) > 1:
            yield Unverifiable(Code.BRING_IN_PLAYER, reason or "bring-in player unknown", first.action.line)
        return  # the right player, or one who may be (a hidden card could be the lowest)
    if None in openers.values():
        return  # nobody could act (everyone all-in from the ante): the actions say otherwise elsewhere
    if len(candidates) > 1:
        either = " or ".join(sorted({p for p in openers.values() if p}))
        yield violation(hand, Code.BRING_IN_PLAYER, Street.THIRD, first.player, either, first.player,
                        f"{first.player} opened 3rd street, but {either} must: {reason}", first.action.line)
        return
    designated = candidates[0]
    expected = openers[designated]
    upcard = state.upcards[designated][Street.THIRD][0]
    if upcard is None:  # the one hidden upcard that must be the lowest (every card left is lower)
        why = f"{designated}'s hidden upcard is lower than every upcard shown"
    else:
        why = f"{designated} shows the lowest upcard {upcard}"
        tied = [p for p in state.dealt_in if p != designated
                and any(c is not None and c.rank == upcard.rank for c in state.upcards.get(p, {}).get(THIRD, ()))]
        if tied and profile.bringin_tie == "position":
            why += f" (tied in rank with {names_of(tied)}; the tie goes to the player nearest the dealer's left)"
        if reason is None and any(c is None for p in state.dealt_in for c in state.upcards.get(p, {}).get(THIRD, (None,))):
            why += ", lower than any hidden upcard could be"
    if expected != designated:
        why += f" but is all-in from the ante, so {expected} acts first"
    yield violation(hand, Code.BRING_IN_PLAYER, Street.THIRD, first.player, expected or "", first.player,
                    f"{first.player} opened 3rd street, but {why}", first.action.line)


def check_bring_in_amount(hand: Hand, state: ReplayState, profile: RuleProfile) -> Iterator[Finding]:
    """R4 against a bring-in the history states, or the cross-hand pass learnt (sources ``context``,
    ``site``, ``structure``). In no-limit and pot-limit games the small bet is the minimum
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
            yield violation(hand, Code.BRING_IN_AMOUNT, Street.THIRD, step.player, f"less than {money(hand, small)}",
                            money(hand, amount), f"{step.player} brought in for {money(hand, amount)}, not below the "
                            f"{_minimum_bet(hand)} {money(hand, small)}", step.action.line)
        else:
            yield _BY_CONTEXT
        return
    if bring_in is None:
        yield Unverifiable(Code.BRING_IN_AMOUNT, "the table's bring-in amount is not stated")
        return
    amount = step.action.amount
    if small is not None and bring_in >= small:
        yield violation(hand, Code.BRING_IN_AMOUNT, Street.THIRD, step.player, f"less than {money(hand, small)}",
                        money(hand, bring_in), f"a bring-in of {money(hand, bring_in)} is not below the {_minimum_bet(hand)} "
                        f"{money(hand, small)}", step.action.line)
    elif amount == bring_in or (amount < bring_in and step.all_in_after):
        return
    else:
        yield violation(hand, Code.BRING_IN_AMOUNT, Street.THIRD, step.player, money(hand, bring_in), money(hand, amount),
                        f"{step.player} brought in for {money(hand, amount)}; the bring-in is {money(hand, bring_in)}"
                        + _LEARNT_FROM.get(hand.stakes.bring_in_source, ""),
                        step.action.line)


#: the finding of every hand whose bring-in is taken from its own post: one value, shared (findings are immutable)
_BY_CONTEXT = Unverifiable(Code.BRING_IN_AMOUNT, BRING_IN_BY_CONTEXT)

_LEARNT_FROM = {StakeSource.CONTEXT: " (as the other hands at the table post it)",
                StakeSource.SITE: " (as the site's other tables at these stakes post it)",
                StakeSource.STRUCTURE: " (by the site's structure for these stakes)",
                StakeSource.USER: " (by your structures file for these stakes)"}


def _minimum_bet(hand: Hand) -> str:
    """What the bring-in must stay below: the small bet, or in no-limit and pot-limit the minimum bet."""
    return "small bet" if hand.stakes.structure is Structure.FIXED_LIMIT else "minimum bet"
