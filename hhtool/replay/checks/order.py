"""R7 who opens 4th–7th street (best exposed board; all-in best board passes to the next active
player; a hidden upcard matters only when some value of it changes the opener) and clockwise turn
order within every round (all-in and folded players skipped).
The 3rd-street opener is the bring-in check's business."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from operator import attrgetter

from hhtool.model import SUIT_CHARS, Card, Hand
from hhtool.replay.checks.common import Finding, street_name, violation
from hhtool.replay.codes import Code
from hhtool.replay.engine import clockwise_from
from hhtool.replay.hidden import hidden_ranks, names_of, rank_multisets
from hhtool.replay.profiles import RuleProfile
from hhtool.replay.result import Unverifiable
from hhtool.replay.timeline import SEVENTH, SIXTH, THIRD, ReplayState, Round

_CATEGORY_NAMES = ("high card", "one pair", "two pair", "three of a kind", "full house", "four of a kind")


def board_strength(cards: Sequence[Card]) -> tuple[int, tuple[int, ...]]:
    """R7 order of an exposed board: quads > full house > trips > two pair > pair > high card, ace
    high, straights and flushes ignored; ranks by group then from the highest down. A full house
    needs five cards: only a 7th-street board with the common card (R17) has them, and there trips
    with a pair are a full house, as in any poker ranking, not trips with a pair of kickers.

    >>> from hhtool.evaluation import cards
    >>> board_strength(cards("Ac 6c")) > board_strength(cards("9d 3d"))
    True
    >>> board_strength(cards("2c 2d 3h")) > board_strength(cards("As Kd Qh"))
    True
    >>> board_strength(cards("2c 2d 4h 2s 4c")) > board_strength(cards("Ah 6d 4s 4d 4c"))
    True
    """
    return _rank_strength(tuple(sorted([card.rank for card in cards])))


def _rank_strength(ranks: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """:func:`board_strength` of a board given by its ranks, lowest first (suits do not count, R7):
    the groups of equal ranks, largest first and the higher rank first among groups of one size.

    >>> _rank_strength((4, 4, 9, 12, 12)), _rank_strength((2, 3, 3, 3)), _rank_strength((6, 14)), _rank_strength(())
    ((2, (12, 12, 4, 4, 9)), (3, (3, 3, 3, 2)), (0, (14, 6)), (0, ()))
    """
    groups: list[tuple[int, int]] = []  # (size, rank)
    size, last = 0, 0
    for rank in ranks:
        if rank == last:
            size += 1
        else:
            if size:
                groups.append((size, last))
            size, last = 1, rank
    if size:
        groups.append((size, last))
    groups.sort(reverse=True)
    first = groups[0][0] if groups else 0
    second = groups[1][0] if len(groups) > 1 else 0
    if first == 4:
        category = 5
    elif first == 3:
        category = 4 if second == 2 else 3
    elif first == 2:
        category = 2 if second == 2 else 1
    else:
        category = 0
    return category, tuple([rank for size, rank in groups for _ in range(size)])


# board strength by the board's ranks, sorted: the strength depends on the ranks alone and a few
# thousand rank multisets cover every board, so each is ranked once per process
_STRENGTH_OF_RANKS: dict[tuple[int, ...], tuple[int, tuple[int, ...]]] = {}
_SUIT_INDEX = {suit: index for index, suit in enumerate(SUIT_CHARS)}
_RANK = attrgetter("rank")


def _strength(cards: Sequence[Card]) -> tuple[int, tuple[int, ...]]:
    key = tuple(sorted([card.rank for card in cards]))
    strength = _STRENGTH_OF_RANKS.get(key)
    if strength is None:
        strength = _STRENGTH_OF_RANKS[key] = _rank_strength(key)
    return strength


def _find_opener(
    hand: Hand, state: ReplayState, rnd: Round, profile: RuleProfile,
) -> tuple[tuple[str, ...], str | None, dict[str, list[Card]], str]:
    """(who may open, the best board's player, the boards, why): one opener when the history
    decides it (``why`` is "" when the boards are all shown; the best board's player is then
    known), several when hidden upcards leave it open, none when nobody can act."""
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
    hidden: list[tuple[int, str, list[Card], int]] = []  # (position, player, known board cards, hidden upcards)
    best: str | None = None
    best_key: tuple[tuple[int, tuple[int, ...]], tuple[int, int]] | None = None
    for position, player in enumerate(live):
        # the exposed board: upcards through 6th street; on 7th the 7th upcard and the common card as the
        # profile says; a hidden (None) upcard leaves no ranks. One pass over the player's deals, no list
        # of the exposed cards built.
        cards: list[Card] = []
        shown_all = True
        dealt_by_street = upcards.get(player)
        if dealt_by_street:
            for dealt_on, dealt in dealt_by_street.items():
                if dealt_on <= through:
                    for card in dealt:
                        if card is None:
                            shown_all = False
                        else:
                            cards.append(card)
            if exposed_seventh:
                for card in dealt_by_street.get(SEVENTH, ()):
                    if card is None:
                        shown_all = False
                    else:
                        cards.append(card)
        if add_common:
            cards.append(community)  # type: ignore[arg-type]  # add_common: the common card is there
        if not shown_all or len(cards) < needed or not cards or (
                community is not None and len([c for c in cards if c != community]) < needed):
            if any_live or player in active:
                dealt_known = [c for on, dealt in (dealt_by_street or {}).items() if on <= through for c in dealt if c]
                hidden.append((position, player, cards, max(needed - len(dealt_known), 0)))
            continue
        ranks = tuple(sorted(map(_RANK, cards)))
        boards[player] = cards
        if not any_live and player not in active:
            continue
        strength = strengths.get(ranks)
        if strength is None:
            strength = strengths[ranks] = _rank_strength(ranks)
        key = (strength, max([(c.rank, _SUIT_INDEX[c.suit]) for c in cards])) if by_suit else (strength, (0, -position))
        if best_key is None or key > best_key:  # the first of equal keys wins, as max() does
            best, best_key = player, key
    if hidden:
        return _open_with_hidden(hand, state, rnd, profile, boards, hidden, best, best_key)
    if best is None:
        return (), None, {}, "nobody can act"
    if best in active:
        return (best,), best, boards, ""
    following = next((p for p in clockwise_from(state.order, best) if p in active), None)
    return ((following,) if following else ()), best, boards, ""


def _open_with_hidden(
    hand: Hand, state: ReplayState, rnd: Round, profile: RuleProfile, boards: dict[str, list[Card]],
    hidden: list[tuple[int, str, list[Card], int]], best: str | None,
    best_key: tuple[tuple[int, tuple[int, ...]], tuple[int, int]] | None,
) -> tuple[tuple[str, ...], str | None, dict[str, list[Card]], str]:
    """The opener when some boards are partly hidden (§4 of issue 18): a hidden board may be the
    best when some value of its hidden upcards (cards seen nowhere else) beats the best shown
    board, and the best shown board stays best only when every hidden board can also lose to it.
    Boards compare by ranks, so each hidden board is tried over the rank multisets its unseen cards
    allow. Suits (the ``suit`` tie rule) are not enumerated: an equal board may go either way."""
    by_suit = profile.opener_tie == "suit"
    may_be_best: list[str] = []
    shown_stays = best_key is not None
    # (board ranks, hidden count, pool, whether a tie counts, beat or lose) -> answer: players whose
    # boards are hidden alike (PartyPoker: every opponent, nothing shown) share one search
    answers: dict[tuple[tuple[int, ...], int, int, bool, bool], bool] = {}
    for position, player, known, missing in hidden:
        available = hidden_ranks(hand, state, player)
        known_ranks = tuple(sorted([card.rank for card in known]))
        if best_key is None or sum(available.values()) < missing:
            may_be_best.append(player)  # nothing shown to beat, or no cards left to fill his board: anything goes
            continue
        target = best_key[0]
        tie_wins = by_suit or (0, -position) > best_key[1]
        tie_loses = by_suit or (0, -position) < best_key[1]
        beat_key = (known_ranks, missing, id(available), tie_wins, True)
        if beat_key not in answers:
            answers[beat_key] = any(
                s > target or (s == target and tie_wins)
                for s in _strengths(known_ranks, rank_multisets(available, missing, descending=True)))
        if answers[beat_key]:
            may_be_best.append(player)
        if not shown_stays:
            continue  # some hidden board already beats it whatever: no need to ask whether this one can lose
        lose_key = (known_ranks, missing, id(available), tie_loses, False)
        if lose_key not in answers:
            answers[lose_key] = any(
                s < target or (s == target and tie_loses)
                for s in _strengths(known_ranks, rank_multisets(available, missing, descending=False)))
        if not answers[lose_key]:
            shown_stays = False  # whatever his hidden cards, he beats the best shown board
    candidates = ([best] if best is not None and shown_stays else []) + may_be_best
    active = rnd.active_at_start
    openers: list[str] = []
    for candidate in candidates:
        opener = candidate if candidate in active else next((p for p in clockwise_from(state.order, candidate)
                                                               if p in active), None)
        if opener is not None and opener not in openers:
            openers.append(opener)
    street = street_name(rnd.street)
    hidden_names = [player for _, player, _, _ in hidden]
    if len(openers) == 1:
        if candidates == [best]:
            return tuple(openers), best, boards, f"no value of the hidden upcards of {names_of(hidden_names)} beats it"
        if len(candidates) == 1:
            return tuple(openers), None, boards, (f"{candidates[0]}'s board on {street} beats the others whatever "
                                                  "the hidden upcards")
        return tuple(openers), None, boards, f"whichever of {names_of(candidates)} shows the best board, {openers[0]} opens"
    if best is None:
        return tuple(openers), None, boards, f"the upcards of {names_of(hidden_names)} on {street} are not all printed"
    whose = f"{may_be_best[0]}'s upcards" if len(may_be_best) == 1 else f"the upcards of {names_of(may_be_best)}"
    return tuple(openers), None, boards, (f"{whose} on {street} are not all printed, and a value of them could beat "
                                          f"{best}'s {' '.join(map(str, boards[best]))}")


def _strengths(
    known: tuple[int, ...], extras: Iterator[tuple[int, ...]],
) -> Iterator[tuple[int, tuple[int, ...]]]:
    """The strength of the board ``known`` + each of ``extras`` (rank tuples), lazily."""
    for extra in extras:
        key = tuple(sorted(known + extra))
        found = _STRENGTH_OF_RANKS.get(key)
        if found is None:
            found = _STRENGTH_OF_RANKS[key] = _rank_strength(key)
        yield found


def _opener_reason(best: str | None, opener: str | None, boards: dict[str, list[Card]], note: str = "") -> str:
    if best is None:
        return f"{opener} opens: {note}" if note else f"{opener} opens"
    strength = _strength(boards[best])
    why = f"{best} shows the best board ({_CATEGORY_NAMES[strength[0]]}: {' '.join(map(str, boards[best]))})"
    if note:
        why += f"; {note}"
    if opener == best:
        return why
    return f"{why} but is all-in, so the next active player opens"


def check_order(hand: Hand, state: ReplayState, profile: RuleProfile) -> Iterator[Finding]:
    return _order(hand, state, profile, turns=True)


def check_opener(hand: Hand, state: ReplayState, profile: RuleProfile) -> Iterator[Finding]:
    """:func:`check_order` without the turns after each round's first action: what it finds in a hand
    whose steps all came in turn (``checks.steps.steps_all_usual``), which then skips that loop."""
    return _order(hand, state, profile, turns=False)


def _order(hand: Hand, state: ReplayState, profile: RuleProfile, turns: bool) -> Iterator[Finding]:
    unverifiable_reported = False
    for rnd in state.rounds:
        if not rnd.steps:
            continue
        first = rnd.steps[0]
        if rnd.street is not THIRD and first.player in first.active_before:
            openers, best, boards, reason = _find_opener(hand, state, rnd, profile)
            # nobody can be named, or he may be right and a hidden upcard decides
            if not openers or (first.player in openers and len(openers) > 1):
                if not unverifiable_reported:
                    unverifiable_reported = True
                    yield Unverifiable(Code.ACTION_ORDER, f"the opener cannot be told: {reason}", first.action.line)
            elif first.player not in openers:
                if len(openers) == 1:
                    why = _opener_reason(best, openers[0], boards, reason)
                    expected = openers[0]
                else:
                    expected = " or ".join(openers)
                    why = f"{expected} must open ({reason})"
                yield violation(hand, Code.ACTION_ORDER, rnd.street, first.player, expected, first.player,
                                f"{first.player} acted first on {street_name(rnd.street)}, but {why}", first.action.line)
        if not turns:
            continue
        for step in rnd.steps[1:]:
            if step.player not in step.active_before:
                continue  # acting while folded or all-in is an illegal action, reported there
            if step.round_over:
                yield violation(hand, Code.ACTION_ORDER, rnd.street, step.player, "no further action", step.player,
                                f"{step.player} acts on {street_name(rnd.street)} after the betting round was complete",
                                step.action.line)
            elif step.due is not None and step.due != step.player:
                yield violation(hand, Code.ACTION_ORDER, rnd.street, step.player, step.due, step.player,
                                f"{step.player} acts out of turn on {street_name(rnd.street)}: it was {step.due}'s turn",
                                step.action.line)
