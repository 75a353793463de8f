"""Pots as the rules settle them: main and side pots from the contributions (R12), rake shared
between them (R15), each pot split high/low with its odd units (R13, R14).

>>> build_pots({"A": 15, "B": 40, "C": 40, "D": 10}, ("A", "B", "C"), ("A", "B", "C", "D"), {"A"})
[(55, ('A', 'B', 'C')), (50, ('B', 'C'))]
>>> share(7, ["A", "B"], 1, "one_each"), share(8, ["A", "B", "C"], 1, "one_each"), share(8, ["A", "B", "C"], 1, "first")
([('A', 4), ('B', 3)], [('A', 3), ('B', 3), ('C', 2)], [('A', 4), ('B', 2), ('C', 2)])
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

from hhtool.evaluation import HighHand, LowHand, best_hands
from hhtool.model import SUIT_CHARS, Card, Hand, ShowStatus, Stakes
from hhtool.money import format_money
from hhtool.replay.profiles import RuleProfile
from hhtool.replay.result import PotResult, ShowdownHand

_MUCKED = ShowStatus.MUCKED  # a module constant: reading it through the enum class is slower


@dataclass(slots=True)  # read-only by convention: a frozen dataclass costs a setattr call per field to build
class Settlement:
    pots: tuple[PotResult, ...]
    awards: Mapping[str, int] | None  # rules award per player; None when some pot is undecided
    hands: tuple[ShowdownHand, ...]
    unverifiable: tuple[str, ...]  # why some pot could not be decided
    deduction: int  # rake + fees taken from the pots
    deduction_source: str  # "stated" or "implied" (from the site's own awards)
    # how the deduction was shared: "as the site states each pot" or "by the profile's <rule> rule"
    rake_split: str = ""
    # where the site's stated per-pot amounts do not fit its total or the contributions: the
    # profile's rake rule was used instead, and the POT_TOTAL check reports each of these
    stated_pot_problems: tuple[StatedPotProblem, ...] = ()


@dataclass(frozen=True, slots=True)
class StatedPotProblem:
    """A stated per-pot amount that the rest of the hand contradicts."""

    expected: str
    actual: str
    message: str
    line: int


def build_pots(
    contributions: Mapping[str, int], live: Sequence[str], order: Sequence[str], all_in: Collection[str] = (),
) -> list[tuple[int, tuple[str, ...]]]:
    """R12: (amount, eligible players) per pot, main pot first. Each all-in level closes a pot;
    a live player who is not all-in is eligible for every pot (an ante he missed does not cut him
    out); adjacent pots with the same eligible set merge; folded players' chips stay in."""
    if len(live) <= 1:
        return [(sum(contributions.values()), tuple(live))]
    top = max([contributions.get(p, 0) for p in live])
    if not [p for p in live if p in all_in]:
        # nobody live is all-in (the usual case): the general path below reduces to one pot up to the top
        # contribution, plus anything a folded player put in above it
        amount = excess = 0
        for contribution in contributions.values():
            if contribution > top:
                excess += contribution - top
                contribution = top
            if contribution > 0:
                amount += contribution
        return [(amount + excess, tuple([p for p in order if p in live]))] if amount else []
    levels = sorted({contributions.get(p, 0) for p in live if p in all_in and contributions.get(p, 0) < top} | {top})
    pots: list[tuple[int, tuple[str, ...]]] = []
    previous = 0
    for level in levels:
        amount = sum([max(0, min(c, level) - previous) for c in contributions.values()])
        eligible = tuple([p for p in order if p in live and (p not in all_in or contributions.get(p, 0) >= level)])
        if pots and pots[-1][1] == eligible:
            amount += pots.pop()[0]
        if amount:
            pots.append((amount, eligible))
        previous = level
    excess = sum([max(0, c - previous) for c in contributions.values()])
    if excess and pots:
        pots[-1] = (pots[-1][0] + excess, pots[-1][1])
    return pots


def allocate(total: int, amounts: Sequence[int], how: str) -> list[int]:
    """Share ``total`` (rake and fees) between pots of ``amounts``.

    >>> allocate(5, [44, 64], "proportional"), allocate(5, [44, 64], "main_pot"), allocate(5, [3, 64], "main_pot")
    ([2, 3], [5, 0], [3, 2])
    """
    if not amounts:
        return []
    if len(amounts) == 1:  # the usual single pot takes it all (an empty one nothing, when shared proportionally)
        return [total] if how != "proportional" or amounts[0] > 0 else [0]
    if how == "proportional":
        whole = sum(amounts)
        if whole <= 0:
            return [0] * len(amounts)
        shares = [total * a // whole for a in amounts]
        by_remainder = sorted(range(len(amounts)), key=lambda i: (-(total * amounts[i] % whole), -amounts[i], i))
        for i in by_remainder[: total - sum(shares)]:
            shares[i] += 1
        return shares
    indexes = list(range(len(amounts))) if how == "main_pot" else list(reversed(range(len(amounts))))
    shares = [0] * len(amounts)
    left = total
    for i in indexes:
        shares[i] = min(left, amounts[i])
        left -= shares[i]
    shares[indexes[-1]] += left
    return shares


def share(amount: int, winners: Sequence[str], unit: int, how: str) -> list[tuple[str, int]]:
    """R14: equal shares; the units left over go one each in tie-break order (``one_each``) or
    all to the first winner (``first``, PokerKit)."""
    if not winners:
        return []
    base = amount // (len(winners) * unit) * unit
    left = amount - base * len(winners)
    result = []
    for winner in winners:
        extra = left if how == "first" else min(unit, left)
        left -= extra
        result.append((winner, base + extra))
    return result


def _suit(card: Card) -> int:
    return SUIT_CHARS.index(card.suit)


def tie_order(
    winners: Sequence[str], half: str, hands: Mapping[str, ShowdownHand], cards: Mapping[str, tuple[Card, ...] | None],
    order: Sequence[str], profile: RuleProfile,
) -> tuple[list[str], str]:
    """Tied winners in the order they receive odd units, and the reason in words."""
    if len(winners) < 2:
        return list(winners), "first in position order"
    position = sorted(winners, key=order.index)
    if profile.odd_unit_tied_half == "position":
        return position, "first in position order"
    if profile.odd_unit_tied_half == "best_card_suit":
        def best_card(player: str) -> tuple[int, int]:
            hand = hands[player]
            chosen = hand.high.cards if half == "high" and hand.high else hand.low.cards if hand.low else ()
            rank: Callable[[Card], int] = (lambda c: c.rank) if half == "high" else (lambda c: c.low_rank)
            return max(((rank(c), _suit(c)) for c in chosen), default=(0, 0))
        return sorted(position, key=best_card, reverse=True), "highest card of the winning five, by suit"
    if half == "high":
        def top(player: str) -> tuple[int, int]:
            return max(((c.rank, _suit(c)) for c in cards[player] or ()), default=(0, 0))
        return sorted(position, key=top, reverse=True), "highest card by suit, all cards"

    def bottom(player: str) -> tuple[int, int]:
        return min(((c.low_rank, _suit(c)) for c in cards[player] or ()), default=(99, 9))
    return sorted(position, key=bottom), "lowest card by suit, all cards"


def split_halves(net: int, profile: RuleProfile) -> tuple[int, int]:
    """(high half, low half) of a pot's net amount; the odd unit goes as ``odd_unit_hi_lo`` says.

    >>> split_halves(75, RuleProfile()), split_halves(75, RuleProfile(odd_unit_hi_lo="low")), split_halves(76, RuleProfile())
    ((38, 37), (37, 38), (38, 38))
    """
    units = net // profile.unit
    bigger = (units - units // 2) * profile.unit
    smaller = units // 2 * profile.unit
    dust = net - bigger - smaller
    if profile.odd_unit_hi_lo == "high":
        return bigger + dust, smaller
    return smaller + dust, bigger


def contenders_of(hand: Hand, live: Sequence[str]) -> tuple[str, ...]:
    """Live players who did not muck (a mucked hand cannot win, R16)."""
    if not hand.showdown:
        return tuple(live)
    mucked = {s.player for s in hand.showdown if s.status is _MUCKED}
    return tuple([p for p in live if p not in mucked])


def evaluate(cards: Mapping[str, tuple[Card, ...] | None], players: Sequence[str]) -> dict[str, ShowdownHand]:
    hands: dict[str, ShowdownHand] = {}
    for player in players:
        known = cards.get(player)
        high: HighHand | None = None
        low: LowHand | None = None
        if known is not None:
            try:
                high, low = best_hands(known)
            except ValueError:  # duplicate cards: the CARDS check reports them
                known = None
        hands[player] = ShowdownHand(player, high, low, known is not None)
    return hands


def settle(
    hand: Hand, profile: RuleProfile, order: Sequence[str], contributions: Mapping[str, int], live: Sequence[str],
    cards: Mapping[str, tuple[Card, ...] | None], returns_in_awards: int, all_in: Collection[str] = (),
) -> Settlement:
    """Settle every pot under the profile. ``returns_in_awards`` is the uncalled amount the site
    reports inside its awards (only for ``uncalled_in_awards`` sites), used to imply an unstated rake."""
    total = sum(contributions.values())
    if hand.rake is not None:
        deduction, source = hand.rake + hand.fees, "stated"
    else:
        implied = total + returns_in_awards - sum([a.amount for a in hand.awards])
        deduction, source = max(0, implied), "implied"
    contenders = contenders_of(hand, live)
    hands = evaluate(cards, contenders if len(contenders) > 1 else ())
    pots, awards, reasons, stated_shares, problems = split_pots(
        hand, profile, order, contributions, live, contenders, hands, cards, all_in, deduction)
    rake_split = ("as the site states each pot" if stated_shares is not None
                  else f"by the profile's {profile.rake_allocation} rule")
    return Settlement(tuple(pots), None if reasons else awards, tuple(hands.values()), tuple(reasons), deduction, source,
                      rake_split, tuple(problems))


def split_pots(
    hand: Hand, profile: RuleProfile, order: Sequence[str], contributions: Mapping[str, int], live: Sequence[str],
    contenders: Sequence[str], hands: Mapping[str, ShowdownHand], cards: Mapping[str, tuple[Card, ...] | None],
    all_in: Collection[str], deduction: int,
) -> tuple[list[PotResult], dict[str, int], list[str], list[int] | None, list[StatedPotProblem]]:
    """The pots of ``contributions`` split between ``contenders`` holding ``hands``, less ``deduction``
    (rake and fees) shared as the site states it or by the profile: the pots, each player's award,
    why a pot is undecided, the rake shares the site's stated pots imply (None: the profile's rule)
    and the problems of those stated pots. :func:`settle` calls it with the hands shown; the all-in
    EV (hhtool.equity.allin) with each possible outcome's, so that both split by this one rule."""
    hand_has_low = any(h.low is not None for h in hands.values())
    context = _Context(hand, profile, order, hands, cards, hand_has_low, min(deduction, sum(contributions.values())))
    raw_pots = build_pots(contributions, live, order, all_in)
    stated_shares, problems = stated_rake_shares(hand, raw_pots, deduction, profile)
    pots, awards, reasons = context.settle(raw_pots, contenders, stated_shares)
    if profile.pots_formed_at == "showdown" and not reasons and len(contenders) > 1:
        # PokerKit forms the pots only from the hands that win something: losing hands are killed
        # first (a hand with no low does not "win" the low half it would share when no low qualifies)
        winners = {player for pot in pots for player, _ in pot.high_shares}
        winners |= {player for pot in pots for player, _ in pot.low_shares if hands[player].low is not None}
        alive = tuple(p for p in live if p in winners)
        if alive != contenders or alive != tuple(live):  # every live hand wins something: the same pots again
            pots, awards, reasons = context.settle(build_pots(contributions, alive, order, all_in), alive)
    return pots, awards, reasons, stated_shares, problems


def stated_rake_shares(
    hand: Hand, raw_pots: Sequence[tuple[int, tuple[str, ...]]], deduction: int, profile: RuleProfile,
) -> tuple[list[int] | None, list[StatedPotProblem]]:
    """The rake each pot paid, as the site's stated per-pot amounts after rake say (a pot's chips less
    what the site says it held), with the problems that keep those amounts from being used: they do
    not add up with the rake to the stated total, name other pots than the contributions make, or
    leave a pot more than its chips or less than its chips minus the whole rake. None (use the
    profile's rake rule) when the site states no per-pot amounts, states them before rake (they then
    only have to match the pots' chips), or they are inconsistent."""
    stated = hand.stated_pots
    if not stated:
        return None, []
    problems: list[StatedPotProblem] = []
    line = stated[0].line
    after_rake = stated[0].after_rake
    unit, currency = hand.stakes.unit, hand.stakes.currency
    amounts = [pot.amount for pot in stated]
    listing = ", ".join(f"{_pot_name(pot.pot)} {format_money(pot.amount, unit, currency)}" for pot in stated)
    if hand.total_pot is not None:
        taken = (hand.rake or 0) + hand.fees if after_rake else 0
        if sum(amounts) + taken != hand.total_pot:
            plus = f" + rake {format_money(taken, unit, currency)}" if after_rake else ""
            stated_total = format_money(hand.total_pot, unit, currency)
            summed = format_money(sum(amounts) + taken, unit, currency)
            problems.append(StatedPotProblem(
                stated_total, summed, f"the stated pots ({listing}){plus} make {summed}, not the stated total pot of "
                f"{stated_total}", line))
    indexes = [pot.pot for pot in stated]
    if indexes != list(range(len(raw_pots))):
        if profile.pots_formed_at == "all_in":  # a profile that forms pots otherwise expects other pots
            made = ", ".join(f"{_pot_name(i)} {format_money(amount, unit, currency)}" for i, (amount, _) in enumerate(raw_pots))
            problems.append(StatedPotProblem(
                f"{len(raw_pots)} pot(s)", f"{len(stated)} pot(s)",
                f"the site states {listing}; the contributions make {made or 'no pot'}", line))
        return None, problems
    shares: list[int] = []
    for pot, (amount, _eligible) in zip(stated, raw_pots, strict=True):
        chips = format_money(amount, unit, currency)
        if not after_rake:
            if pot.amount != amount:
                said = format_money(pot.amount, unit, currency)
                problems.append(StatedPotProblem(chips, said, f"the site states the {_pot_name(pot.pot)} as {said}; "
                                                 f"{chips} went into it", pot.line))
            continue
        rake_share = amount - pot.amount
        if not 0 <= rake_share <= deduction:
            least = format_money(max(0, amount - deduction), unit, currency)
            said = format_money(pot.amount, unit, currency)
            problems.append(StatedPotProblem(
                f"{least}..{chips}", said, f"the site states the {_pot_name(pot.pot)} as {said} after rake; its chips "
                f"({chips}) less at most the rake ({format_money(deduction, unit, currency)}) allow {least} to {chips}",
                pot.line))
        shares.append(rake_share)
    if problems or not after_rake:
        return None, problems
    return shares, problems


@dataclass(slots=True)  # not frozen: a frozen dataclass is slower to build, and this one lives for one call
class _Context:
    hand: Hand
    profile: RuleProfile
    order: Sequence[str]
    hands: Mapping[str, ShowdownHand]
    cards: Mapping[str, tuple[Card, ...] | None]
    hand_has_low: bool
    deduction: int

    def settle(
        self, raw_pots: list[tuple[int, tuple[str, ...]]], contenders: Sequence[str], stated_shares: list[int] | None = None,
    ) -> tuple[list[PotResult], dict[str, int], list[str]]:
        """Split each pot; its rake is what the site's stated amounts imply (``stated_shares``) or,
        where the site states none, the profile's allocation."""
        if stated_shares is not None and len(stated_shares) == len(raw_pots):
            shares_of_rake = stated_shares
        else:
            shares_of_rake = allocate(self.deduction, [amount for amount, _ in raw_pots], self.profile.rake_allocation)
        pots: list[PotResult] = []
        awards: dict[str, int] = {}
        reasons: list[str] = []
        for index, ((amount, eligible), rake_share) in enumerate(zip(raw_pots, shares_of_rake, strict=True)):
            net = amount - rake_share
            in_pot = tuple([p for p in eligible if p in contenders])
            if len(in_pot) <= 1:
                winner = in_pot or eligible[:1]
                if not winner:
                    reasons.append(f"nobody is eligible for the {_pot_name(index)}")
                    pots.append(PotResult(index, amount, rake_share, eligible, in_pot, (), (), False, False))
                    continue
                note = "uncontested" if len(eligible) == 1 else "the other players mucked"
                pots.append(PotResult(index, amount, rake_share, eligible, in_pot, ((winner[0], net),), (), False, True, (note,)))
                awards[winner[0]] = awards.get(winner[0], 0) + net
                continue
            unknown = [p for p in in_pot if not self.hands[p].known]
            if unknown:
                reasons.append(f"{', '.join(unknown)}: cards not shown, so the {_pot_name(index)} cannot be decided")
                pots.append(PotResult(index, amount, rake_share, eligible, in_pot, (), (), False, False))
                continue
            result = _split_pot(index, amount, rake_share, eligible, in_pot, self.hands, self.cards, self.order, self.profile,
                                self.hand_has_low, self.hand.stakes)
            pots.append(result)
            for player, won in (*result.high_shares, *result.low_shares):
                awards[player] = awards.get(player, 0) + won
        return pots, awards, reasons


def _pot_name(index: int) -> str:
    return "main pot" if index == 0 else f"side pot {index}"


def _split_pot(
    index: int, amount: int, rake_share: int, eligible: tuple[str, ...], in_pot: tuple[str, ...],
    hands: Mapping[str, ShowdownHand], cards: Mapping[str, tuple[Card, ...] | None], order: Sequence[str],
    profile: RuleProfile, hand_has_low: bool, stakes: Stakes,
) -> PotResult:
    net = amount - rake_share
    notes: list[str] = []
    # the best high and the best low and who holds them, in one pass (ties in contender order)
    best_high_value = best_low_value = -1
    high_winners: list[str] = []
    low_winners: list[str] = []
    for player in in_pot:
        shown = hands[player]
        if shown.high is not None:
            value = shown.high.value
            if value > best_high_value:
                best_high_value, high_winners = value, [player]
            elif value == best_high_value:
                high_winners.append(player)
        if shown.low is not None:
            value = shown.low.value
            if value > best_low_value:
                best_low_value, low_winners = value, [player]
            elif value == best_low_value:
                low_winners.append(player)
    if not high_winners:
        raise ValueError(f"no high hand among {', '.join(in_pot)}")  # decided pots hold known, evaluated hands
    any_low = bool(low_winners)
    split = any_low or (profile.low_half_exists == "hand" and hand_has_low)
    if not any_low:
        low_winners = list(in_pot)  # PokerKit: with no low in this pot every contender ties for the low half
    if split:
        high_amount, low_amount = split_halves(net, profile)
        if high_amount != low_amount:
            bigger = "high" if high_amount > low_amount else "low"
            odd = format_money(abs(high_amount - low_amount), stakes.unit, stakes.currency)
            notes.append(f"odd {odd} between the halves goes to the {bigger} half")
    else:
        high_amount, low_amount = net, 0
        notes.append("no qualifying low: the high hand takes the whole pot")
    high_order, high_reason = tie_order(high_winners, "high", hands, cards, order, profile)
    high_shares = share(high_amount, high_order, profile.unit, profile.tied_remainder)
    low_shares: list[tuple[str, int]] = []
    if split:
        low_order, low_reason = tie_order(low_winners, "low", hands, cards, order, profile)
        low_shares = share(low_amount, low_order, profile.unit, profile.tied_remainder)
        _note_odd(notes, "low", low_shares, low_reason, stakes)
    _note_odd(notes, "high", high_shares, high_reason, stakes)
    return PotResult(index, amount, rake_share, eligible, in_pot, tuple(high_shares), tuple(low_shares), split, True,
                     tuple(notes))


def _note_odd(notes: list[str], half: str, shares: list[tuple[str, int]], reason: str, stakes: Stakes) -> None:
    if len(shares) > 1 and len({amount for _, amount in shares}) > 1:
        smallest = min(amount for _, amount in shares)
        extra = [f"{player} (+{format_money(amount - smallest, stakes.unit, stakes.currency)})"
                 for player, amount in shares if amount > smallest]
        notes.append(f"tied {half} half: odd units to {', '.join(extra)} — {reason}")


