"""RESTATED: every fact a history states twice must agree, and POT_TOTAL for the site's stated
per-pot amounts. A disagreement names both lines ("line 14 ... ; line 9 ...").

What is compared:

* the cumulative card list of a later deal line (``Dealt to X [5c 8d] [Qs]``) with the cards
  dealt to X before;
* the summary seat lines with the play: ``folded on the 4th Street`` with the fold,
  ``showed [..]`` / ``mucked [..]`` with the showdown lines, ``won ($x)`` / ``collected ($x)`` /
  ``lost`` with the collect lines;
* the collect lines of each pot with the amount the site states for it;
* hand descriptions (``HI: a flush, Queen high; LO: 8,6,5,3,A``) with the cards they describe
  (:mod:`.descriptions`); a description that cannot be read is reported unverifiable, not accused.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

from hhtool.evaluation import HighHand, LowHand, best_hands
from hhtool.model import ActionKind, Card, Deal, Hand, Restated, Restatement, ShownHand, ShowStatus, Street, cards_text
from hhtool.replay.checks.common import Finding, money, street_name, violation
from hhtool.replay.checks.descriptions import description_conflict, read_description
from hhtool.replay.codes import Code
from hhtool.replay.profiles import RuleProfile
from hhtool.replay.result import Unverifiable
from hhtool.replay.timeline import ReplayState

# module constants: reading a member through the enum class measured 167 ns against 32 ns for a global
# (3.11), and the summary's loop reads several per restatement of every hand
_CARDS, _FOLDED, _WON, _SHOWED = Restated.CARDS, Restated.FOLDED, Restated.WON, Restated.SHOWED
_SHOWED_OR_MUCKED = frozenset({Restated.SHOWED, Restated.MUCKED})
_WON_OR_LOST = frozenset({Restated.WON, Restated.LOST})
_NET_OR_STACK = frozenset({Restated.NET, Restated.STACK_AFTER})
_SEAT_LINE_FACTS = frozenset({Restated.FOLDED, Restated.SHOWED, Restated.MUCKED, Restated.WON, Restated.LOST})
_SHOWN = ShowStatus.SHOWN


def check_claims(hand: Hand, state: ReplayState, profile: RuleProfile) -> Iterator[Finding]:
    yield from _stated_pots(hand, state)
    if hand.restatements:
        yield from _card_lists(hand)
        yield from _summary(hand, state)
    yield from _pot_collects(hand)
    yield from _descriptions(hand, state)


def _stated_pots(hand: Hand, state: ReplayState) -> Iterator[Finding]:
    for problem in state.settlement.stated_pot_problems:
        yield violation(hand, Code.POT_TOTAL, None, None, problem.expected, problem.actual, problem.message, problem.line)


# ---------------------------------------------------------------- cumulative card lists


def _dealt_before(deals: Sequence[Deal], street: Street) -> tuple[list[Card | None], list[int]]:
    """One player's cards dealt before ``street`` (down before up on each deal) and their lines."""
    cards: list[Card | None] = []
    lines: list[int] = []
    for deal in deals:
        if deal.street < street:
            cards.extend(deal.down)
            cards.extend(deal.up)
            lines.append(deal.line)
    return cards, lines


def repeats(restated: Sequence[Card | None], before: Sequence[Card | None]) -> bool:
    """Whether a restated card list agrees with the cards dealt before: either card for card (a site
    that writes hidden cards as ``X``), or as the cards known before in order (a site that leaves
    hidden cards out). A card one statement hides and the other shows is no disagreement.

    >>> a, b, c = Card.parse("Ah"), Card.parse("5c"), Card.parse("Qs")
    >>> repeats([c], [None, None, c]), repeats([None, None, c], [None, None, c]), repeats([a, b, c], [a, b, c])
    (True, True, True)
    >>> repeats([a], [None, None, c]), repeats([c, a], [None, None, c]), repeats([None, a, c], [None, b, c])
    (False, False, False)
    """
    if tuple(restated) == tuple(before):  # the usual case, decided by identity of the shared Card values
        return True
    if len(restated) == len(before):
        return all(x is None or y is None or x == y for x, y in zip(restated, before, strict=True))
    known = [card for card in before if card is not None]
    return len(restated) == len(known) and all(x is None or x == y for x, y in zip(restated, known, strict=True))


def _card_lists(hand: Hand) -> Iterator[Finding]:
    # per player, the known cards of his deals so far (down before up on each deal), and per (player,
    # street) how many of them were dealt before that street: the usual restatement is those cards,
    # compared by the identity of the shared Card values before anything slower
    known_of: dict[str, list[Card]] = {}
    count_before: dict[tuple[str, Street], int] = {}
    for deal in hand.deals:
        player = deal.player
        known = known_of.get(player)
        if known is None:
            known = known_of[player] = []
        key = (player, deal.street)
        if key not in count_before:
            count_before[key] = len(known)
        for card in deal.down + deal.up:
            if card is not None:
                known.append(card)
    for fact in hand.restatements:
        if fact.fact is not _CARDS or fact.street is None:
            continue
        count = count_before.get((fact.player, fact.street))
        if count is not None and len(fact.cards) == count and fact.cards == tuple(known_of[fact.player][:count]):
            continue
        before, lines = _dealt_before([deal for deal in hand.deals if deal.player == fact.player], fact.street)
        if repeats(fact.cards, before):
            continue
        dealt_words = f"the deal lines before it ({line_list(lines)}) dealt [{cards_text(tuple(before))}]" if lines \
            else "no cards were dealt to him before"
        yield violation(hand, Code.RESTATED, fact.street, fact.player, cards_text(tuple(before)) or "no cards",
                        cards_text(fact.cards),
                        f"line {fact.line} repeats {fact.player}'s earlier cards as [{cards_text(fact.cards)}]; {dealt_words}",
                        fact.line)


# ---------------------------------------------------------------- summary seat lines


def _summary(hand: Hand, state: ReplayState) -> Iterator[Finding]:
    summarised: set[str] = set()
    won: dict[str, list[Restatement]] = {}
    folded_on = state.folded
    first_shown: dict[str, ShownHand] = {}  # each player's first showdown line, the one _shown compares with
    for entry in hand.showdown:
        if entry.player not in first_shown:
            first_shown[entry.player] = entry
    for fact in hand.restatements:
        what = fact.fact
        if what is _CARDS:
            continue
        if what in _SEAT_LINE_FACTS:  # a summary seat line that would say what he won
            summarised.add(fact.player)
        if what is _FOLDED:
            folded = folded_on.get(fact.player)
            if folded is None or (fact.street is not None and fact.street != folded):  # else the play agrees
                yield from _folded(hand, state, fact)
        elif what in _SHOWED_OR_MUCKED:
            first = first_shown.get(fact.player)
            if first is not None and not _shown_agrees(fact, first):
                yield from _shown(hand, fact)
        elif what in _WON_OR_LOST:
            won.setdefault(fact.player, []).append(fact)
        elif what in _NET_OR_STACK:
            yield from _result(hand, fact)
    if not summarised:
        return
    paid_to: dict[str, int] = {}  # what the collect lines pay each player (Hand.collected_by, in one pass)
    for award in hand.awards:
        paid_to[award.player] = paid_to.get(award.player, 0) + award.amount
    for player, facts in won.items():
        unread = [fact for fact in facts if fact.fact is _WON and fact.amount is None]
        if unread:
            yield Unverifiable(Code.RESTATED, f"the summary's amount for {player} cannot be read", unread[0].line)
            continue
        stated = 0
        for fact in facts:
            stated += fact.amount or 0
        paid = paid_to.get(player, 0)
        if stated != paid:
            yield violation(hand, Code.RESTATED, None, player, money(hand, paid), money(hand, stated),
                            f"the summary (line {facts[0].line}) says {player} won {money(hand, stated)}; "
                            f"the collect lines ({_lines_of(hand, player)}) pay him {money(hand, paid)}", facts[0].line)
    for player in summarised - won.keys():
        paid = paid_to.get(player, 0)
        if paid > 0:
            line = min(fact.line for fact in hand.restatements if fact.player == player and fact.fact in _SEAT_LINE_FACTS)
            yield violation(hand, Code.RESTATED, None, player, money(hand, paid), "nothing",
                            f"the summary (line {line}) does not say {player} won anything; the collect lines "
                            f"({_lines_of(hand, player)}) pay him {money(hand, paid)}", line)


def _shown_agrees(fact: Restatement, entry: ShownHand) -> bool:
    """The usual summary "showed [..]" / "mucked [..]": the same as the player's showdown line, told
    without building anything (:func:`_shown` judges the rest)."""
    if (fact.fact is not _SHOWED) != (entry.status is not _SHOWN):
        return False
    return not fact.cards or not entry.cards or entry.line == fact.line or fact.cards == entry.cards


def _result(hand: Hand, fact: Restatement) -> Iterator[Finding]:
    """A summary's net result or chips after the hand against the actions and collect lines."""
    player = fact.player
    net = hand.net_won(player)
    if fact.fact is Restated.NET:
        expected, what = net, "a net result of"
    else:
        stack = next((seat.stack for seat in hand.seats if seat.player == player), None)
        if stack is None:
            return  # no starting stack printed: nothing to add the result to
        expected, what = stack + net, "chips after the hand of"
    stated = fact.amount or 0
    if stated != expected:
        yield violation(hand, Code.RESTATED, None, player, money(hand, expected), money(hand, stated),
                        f"the summary (line {fact.line}) states {what} {money(hand, stated)} for {player}; his actions "
                        f"and collect lines ({_lines_of(hand, player)}) make {money(hand, expected)}", fact.line)


def line_list(lines: Sequence[int]) -> str:
    """``line 9`` or ``lines 9, 12``."""
    return ("line " if len(lines) == 1 else "lines ") + ", ".join(str(line) for line in lines)


def _lines_of(hand: Hand, player: str) -> str:
    lines = [award.line for award in hand.awards if award.player == player]
    return line_list(lines) if lines else "no collect line"


def _folded(hand: Hand, state: ReplayState, fact: Restatement) -> Iterator[Finding]:
    player = fact.player
    folded_on = state.folded.get(player)
    if folded_on is None:
        yield violation(hand, Code.RESTATED, fact.street, player, "no fold", "folded",
                        f"the summary (line {fact.line}) says {player} folded; no line of the play shows him fold",
                        fact.line)
    elif fact.street is not None and fact.street != folded_on:
        fold_lines = [a.line for a in hand.actions if a.player == player and a.kind is ActionKind.FOLD]
        yield violation(hand, Code.RESTATED, fact.street, player, street_name(folded_on), street_name(fact.street),
                        f"the summary (line {fact.line}) says {player} folded on {street_name(fact.street)}; "
                        f"line {fold_lines[0] if fold_lines else '?'} has him fold on {street_name(folded_on)}",
                        fact.line)


def _shown(hand: Hand, fact: Restatement) -> Iterator[Finding]:
    player = fact.player
    entries = [s for s in hand.showdown if s.player == player]
    if not entries:
        return  # the summary is the only statement: nothing to compare
    entry = entries[0]
    said = "showed" if fact.fact is Restated.SHOWED else "mucked"
    if (fact.fact is Restated.SHOWED) != (entry.status is _SHOWN):
        yield violation(hand, Code.RESTATED, None, player, entry.status.value, said,
                        f"the summary (line {fact.line}) says {player} {said}; line {entry.line} says "
                        f"{'he showed' if entry.status is _SHOWN else 'he did not show'}", fact.line)
        return
    if fact.cards and entry.cards and entry.line != fact.line and not _same_cards(fact.cards, entry.cards):
        yield violation(hand, Code.RESTATED, None, player, cards_text(entry.cards), cards_text(fact.cards),
                        f"the summary (line {fact.line}) says {player} {said} [{cards_text(fact.cards)}]; "
                        f"line {entry.line} shows [{cards_text(entry.cards)}]", fact.line)


def _same_cards(a: Sequence[Card | None], b: Sequence[Card | None]) -> bool:
    """The same cards, in any order (a hidden card on either side is no disagreement)."""
    if tuple(a) == tuple(b):
        return True
    known_a = Counter(card for card in a if card is not None)
    known_b = Counter(card for card in b if card is not None)
    if len(a) == len(b) and None not in a and None not in b:
        return known_a == known_b
    return not (known_a - known_b) or not (known_b - known_a)


# ---------------------------------------------------------------- collect lines against stated pots


def _pot_collects(hand: Hand) -> Iterator[Finding]:
    """What the collect lines pay from each pot against what the site says the pot held after rake,
    where every collect line names its pot."""
    stated = [pot for pot in hand.stated_pots if pot.after_rake]
    if not stated or not hand.awards or any(award.pot is None for award in hand.awards):
        return
    for pot in stated:
        paid = [award for award in hand.awards if award.pot == pot.pot]
        total = sum(award.amount for award in paid)
        if total == pot.amount:
            continue
        name = "main pot" if pot.pot == 0 else f"side pot {pot.pot}"
        paying = f"its collect lines ({line_list([award.line for award in paid])}) pay" if paid else "no collect line pays"
        yield violation(hand, Code.RESTATED, None, None, money(hand, pot.amount), money(hand, total),
                        f"line {pot.line} states the {name} as {money(hand, pot.amount)}; {paying} {money(hand, total)}",
                        pot.line)


# ---------------------------------------------------------------- hand descriptions


def _descriptions(hand: Hand, state: ReplayState) -> Iterator[Finding]:
    described: list[tuple[str, tuple[Card | None, ...], str | None, str | None, int]] = []
    for shown in hand.showdown:
        if shown.high_text or shown.low_text:
            described.append((shown.player, shown.cards, shown.high_text, shown.low_text, shown.line))
    for fact in hand.restatements:
        if fact.fact in _SHOWED_OR_MUCKED and fact.text:
            described.append((fact.player, fact.cards, fact.text, None, fact.line))
    if not described:
        return
    community = (hand.community_card,) if hand.community_card is not None else ()
    # the settlement has evaluated every contender's known cards: reuse that where the cards are the same
    settled = {shown.player: (shown.high, shown.low) for shown in state.settlement.hands if shown.high is not None}
    checked: list[tuple[str, tuple[Card | None, ...], tuple[object, ...]]] = []
    for player, cards, high_text, low_text, line in described:
        if not all(cards):  # (a Card is always true, so this finds a hidden card without comparing any)
            continue  # a hidden card: nothing exact to evaluate
        reading = read_description(high_text, low_text)
        said_key = (reading[1], reading[3])
        if any(p == player and c == cards and k == said_key for p, c, k in checked):
            continue  # the summary repeats the show line's words for the same cards: judged once
        checked.append((player, cards, said_key))
        known: tuple[Card, ...] = cards  # type: ignore[assignment]  # no None left
        if community and len(known) == 6 and community[0] not in known:
            known += community  # the 7th-street card shared by everyone when the deck ran short
        if not 5 <= len(known) <= 7:
            continue  # incomplete, or more than a player holds (Bovada lists ten): nothing exact to evaluate
        hole = state.hole_cards.get(player)
        best: tuple[HighHand, LowHand | None]
        # the same cards: Card values are shared (Card.parse), so their identities are compared, not hashed;
        # cards built apart only cost an evaluation
        if player in settled and hole is not None and sorted(map(id, hole)) == sorted(map(id, known)):
            high, low = settled[player]
            assert high is not None
            best = (high, low)
        elif len(set(known)) != len(known):
            continue  # a card shown twice: the CARDS check reports it
        else:
            best = best_hands(known)
        outcome = description_conflict(known, high_text, low_text, best)
        if outcome is None:
            continue
        kind, said, made = outcome
        if kind == "unreadable":
            yield Unverifiable(Code.RESTATED, f"the hand description {said!r} could not be read", line)
        else:
            yield violation(hand, Code.RESTATED, None, player, made, said,
                            f"line {line} describes {player}'s [{cards_text(cards)}] as {said!r}; those cards "
                            f"make {made}", line)
