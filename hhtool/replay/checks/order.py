"""R7 who opens 4th–7th street (best exposed board; all-in best board passes to the next active
player) and clockwise turn order within every round (all-in and folded players skipped).
The 3rd-street opener is the bring-in check's business."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

from hhtool.model import SUIT_CHARS, Card, Hand, Street
from hhtool.replay.checks.common import Finding, street_name, violation
from hhtool.replay.engine import ReplayState, Round, clockwise_from
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


def _board_cards(state: ReplayState, hand: Hand, player: str, street: Street, profile: RuleProfile) -> list[Card | None]:
    through = Street.SIXTH if street is Street.SEVENTH else street
    cards = list(state.board(player, through))
    if street is Street.SEVENTH:
        if profile.exposed_7th_opener == "all_upcards":
            cards += list(state.upcards.get(player, {}).get(Street.SEVENTH, ()))
        if hand.community_card is not None and profile.common_card_opener == "include":
            cards.append(hand.community_card)
    return cards


def expected_opener(hand: Hand, state: ReplayState, rnd: Round, profile: RuleProfile) -> tuple[str | None, str]:
    """(opener, why) or (None, why it cannot be told)."""
    boards: dict[str, list[Card]] = {}
    needed = min(int(rnd.street), 6) - 2
    for player in rnd.live_at_start:
        cards = _board_cards(state, hand, player, rnd.street, profile)
        own = [c for c in cards if c != hand.community_card]
        if len(own) < needed or any(c is None for c in cards):
            return None, f"{player}'s upcards on {street_name(rnd.street)} are not all printed"
        boards[player] = [c for c in cards if c is not None]

    strengths = {player: board_strength(cards) for player, cards in boards.items()}

    def key(player: str) -> tuple[tuple[int, tuple[int, ...]], tuple[int, int]]:
        if profile.opener_tie == "suit":
            return strengths[player], max((c.rank, SUIT_CHARS.index(c.suit)) for c in boards[player])
        return strengths[player], (0, -rnd.live_at_start.index(player))

    candidates = [p for p in rnd.live_at_start if profile.allin_opener == "next_active" or p in rnd.active_at_start]
    if not candidates:
        return None, "nobody can act"
    best = max(candidates, key=key)
    strength = strengths[best]
    why = f"{best} shows the best board ({_CATEGORY_NAMES[strength[0]]}: {' '.join(map(str, boards[best]))})"
    if best in rnd.active_at_start:
        return best, why
    following = next((p for p in clockwise_from(state.order, best) if p in rnd.active_at_start), None)
    return following, f"{why} but is all-in, so the next active player opens"


def check_order(hand: Hand, state: ReplayState, profile: RuleProfile) -> Iterator[Finding]:
    unverifiable_reported = False
    for rnd in state.rounds:
        if not rnd.steps:
            continue
        first = rnd.steps[0]
        if rnd.street is not Street.THIRD and first.player in first.active_before:
            opener, why = expected_opener(hand, state, rnd, profile)
            if opener is None:
                if not unverifiable_reported:
                    unverifiable_reported = True
                    yield Unverifiable("ACTION_ORDER", f"the opener cannot be told: {why}")
            elif opener != first.player:
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
