"""R7 who opens 4th–7th street (best exposed board; all-in best board passes to the next active
player) and clockwise turn order within every round (all-in and folded players skipped).
The 3rd-street opener is the bring-in check's business."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

from hhtool.model import SUIT_CHARS, Card, Hand
from hhtool.replay.checks.common import Finding, street_name, violation
from hhtool.replay.engine import SEVENTH, SIXTH, THIRD, ReplayState, Round, clockwise_from
from hhtool.replay.profiles import RuleProfile
from hhtool.replay.result import Unverifiable

_CATEGORY_NAMES = ("high card", "one pair", "two pair", "three of a kind", "four of a kind")


def board_strength(cards: Sequence[Card]) -> tuple[int, tuple[int, ...]]:
    """R7 order of an exposed board: quads > trips > two pair > pair > high card, ace high,
    straights and flushes ignored; ranks by group then from the highest down.

    >>> from hhtool.replay.evaluator import cards
    >>> board_strength(cards("Ac 6c")) > board_strength(cards("9d 3d"))
    True
    >>> board_strength(cards("2c 2d 3h")) > board_strength(cards("As Kd Qh"))
    True
    """
    counts = Counter(card.rank for card in cards)
    groups = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
    sizes = [size for _, size in groups]
    if sizes[:1] == [4]:
        category = 4
    elif sizes[:1] == [3]:
        category = 3
    elif sizes[:2] == [2, 2]:
        category = 2
    elif sizes[:1] == [2]:
        category = 1
    else:
        category = 0
    return category, tuple(rank for rank, size in groups for _ in range(size))


# board strength by the board's ranks, sorted: the strength depends on the ranks alone and a few
# thousand rank multisets cover every board, so each is ranked once per process
_STRENGTH_OF_RANKS: dict[tuple[int, ...], tuple[int, tuple[int, ...]]] = {}
_SUIT_INDEX = {suit: index for index, suit in enumerate(SUIT_CHARS)}


def _strength(cards: Sequence[Card]) -> tuple[int, tuple[int, ...]]:
    key = tuple(sorted([card.rank for card in cards]))
    strength = _STRENGTH_OF_RANKS.get(key)
    if strength is None:
        strength = _STRENGTH_OF_RANKS[key] = board_strength(cards)
    return strength


def _find_opener(
    hand: Hand, state: ReplayState, rnd: Round, profile: RuleProfile,
) -> tuple[str | None, str | None, dict[str, list[Card]], str]:
    """(opener, the best board's player, the boards, "") or (None, None, {}, why the opener cannot be told)."""
    street = rnd.street
    needed = min(int(street), 6) - 2
    community = hand.community_card
    seventh = street is SEVENTH
    through = SIXTH if seventh else street
    exposed_seventh = seventh and profile.exposed_7th_opener == "all_upcards"
    add_common = seventh and community is not None and profile.common_card_opener == "include"
    by_suit = profile.opener_tie == "suit"
    any_live = profile.allin_opener == "next_active"
    live, active = rnd.live_at_start, rnd.active_at_start
    upcards, strengths = state.upcards, _STRENGTH_OF_RANKS
    boards: dict[str, list[Card]] = {}
    best: str | None = None
    best_key: tuple[tuple[int, tuple[int, ...]], tuple[int, int]] | None = None
    for position, player in enumerate(live):
        # the exposed board: upcards through 6th street; on 7th the 7th upcard and the common card as the profile says
        cards: list[Card] = []
        dealt_by_street = upcards.get(player)
        if dealt_by_street:
            for dealt_on, dealt in dealt_by_street.items():
                if dealt_on <= through:
                    cards += dealt  # type: ignore[arg-type]  # a None card is caught just below
            if exposed_seventh:
                cards += dealt_by_street.get(SEVENTH, ())  # type: ignore[arg-type]
        if add_common:
            cards.append(community)  # type: ignore[arg-type]
        try:
            ranks = tuple(sorted([card.rank for card in cards]))
        except AttributeError:  # a hidden (None) upcard
            ranks = ()
        if not ranks or len(cards) < needed or (community is not None and len([c for c in cards if c != community]) < needed):
            return None, None, {}, f"{player}'s upcards on {street_name(street)} are not all printed"
        boards[player] = cards
        if not any_live and player not in active:
            continue
        strength = strengths.get(ranks)
        if strength is None:
            strength = strengths[ranks] = board_strength(cards)
        key = (strength, max([(c.rank, _SUIT_INDEX[c.suit]) for c in cards])) if by_suit else (strength, (0, -position))
        if best_key is None or key > best_key:  # the first of equal keys wins, as max() does
            best, best_key = player, key
    if best is None:
        return None, None, {}, "nobody can act"
    if best in active:
        return best, best, boards, ""
    following = next((p for p in clockwise_from(state.order, best) if p in active), None)
    return following, best, boards, ""


def _opener_reason(best: str, opener: str | None, boards: dict[str, list[Card]]) -> str:
    strength = _strength(boards[best])
    why = f"{best} shows the best board ({_CATEGORY_NAMES[strength[0]]}: {' '.join(map(str, boards[best]))})"
    if opener == best:
        return why
    return f"{why} but is all-in, so the next active player opens"


def expected_opener(hand: Hand, state: ReplayState, rnd: Round, profile: RuleProfile) -> tuple[str | None, str]:
    """(opener, why) or (None, why it cannot be told)."""
    opener, best, boards, reason = _find_opener(hand, state, rnd, profile)
    if best is None:
        return None, reason
    return opener, _opener_reason(best, opener, boards)


def check_order(hand: Hand, state: ReplayState, profile: RuleProfile) -> Iterator[Finding]:
    unverifiable_reported = False
    for rnd in state.rounds:
        if not rnd.steps:
            continue
        first = rnd.steps[0]
        if rnd.street is not THIRD and first.player in first.active_before:
            opener, best, boards, reason = _find_opener(hand, state, rnd, profile)
            if opener is None:
                if not unverifiable_reported:
                    unverifiable_reported = True
                    why = reason if best is None else _opener_reason(best, opener, boards)
                    yield Unverifiable("ACTION_ORDER", f"the opener cannot be told: {why}")
            elif opener != first.player:
                why = _opener_reason(best or opener, opener, boards)
                yield violation(hand, "ACTION_ORDER", rnd.street, first.player, opener, first.player,
                                f"{first.player} acted first on {street_name(rnd.street)}, but {why}", first.action.line)
        for step in rnd.steps[1:]:
            if step.player not in step.active_before:
                continue  # acting while folded or all-in is an illegal action, reported there
            if step.round_over:
                yield violation(hand, "ACTION_ORDER", rnd.street, step.player, "no further action", step.player,
                                f"{step.player} acts on {street_name(rnd.street)} after the betting round was complete",
                                step.action.line)
            elif step.due is not None and step.due != step.player:
                yield violation(hand, "ACTION_ORDER", rnd.street, step.player, step.due, step.player,
                                f"{step.player} acts out of turn on {street_name(rnd.street)}: it was {step.due}'s turn",
                                step.action.line)
