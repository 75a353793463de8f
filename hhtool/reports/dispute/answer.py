"""The answer to "was the pot paid right?" in words, for the first screen of both copies: per pot and
per half whose hand took it and with what, what the rules owe beside what the site paid, and, in the
copy addressed to one player, what his hand did ("you lost the high half to a flush, ace high").

Everything here is read from the desk's :class:`~.model.Report` (its pots as the rules settle them,
its awards); a mucked hand is evaluated here, against the hands that were shown."""

from __future__ import annotations

from hhtool.evaluation import best_high, best_low
from hhtool.model import Card
from hhtool.reports.dispute.model import (
    ContenderView,
    FiveView,
    HalfChance,
    HalfView,
    MuckedHand,
    PotView,
    ProfileView,
    Report,
)

#: a practice learnt from this many of the site's hands or fewer is the best reading known, not the
#: site's known rule: the desk's copy gives the count, the player's copy does not credit the site with it
FEW_HANDS = 5


def learnt(profile: ProfileView, parameter: str) -> str:
    """" (learnt from 1 hand)" beside a parameter the profile took from the site's hands; "" otherwise."""
    hands = dict(profile.learnt_from).get(parameter)
    return "" if hands is None else f" (learnt from {hands} hand{'' if hands == 1 else 's'})"


def few_hands(profile: ProfileView, parameter: str) -> bool:
    """Whether the profile learnt the parameter's practice from a handful of hands or fewer."""
    hands = dict(profile.learnt_from).get(parameter)
    return hands is not None and hands <= FEW_HANDS


def _names(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def hand_words(five: FiveView | None, half: str) -> str:
    """A five in words: the high as the site words it ("three of a kind, Kings"), the low as its
    ranks ("6-5-4-3-A")."""
    if five is None:
        return ""
    return five.words.replace(",", "-") if half == "low" else five.words


def _the(pot_name: str) -> str:
    """A pot's name in a sentence: "the main pot", but "side pot 1" (a numbered pot takes no article)."""
    return pot_name if pot_name[-1:].isdigit() else f"the {pot_name}"


def _contender(pot: PotView, player: str) -> ContenderView | None:
    return next((c for c in pot.contenders if c.player == player), None)


def _took(pot: PotView, half: HalfView) -> str:
    """Who took a half (or the whole pot), how much, and with what."""
    names = _names([share.player for share in half.winners])
    amounts = ", ".join(share.amount.text for share in half.winners)
    what = "the whole pot" if half.name == "whole" else f"the {half.name} half"
    verb = "shared" if len(half.winners) > 1 else "won"
    if half.name == "whole" and len(pot.eligible) == 1:
        return f"{names} took it ({amounts}): nobody else could win it"
    words = [hand_words(c.low if half.name == "low" else c.high, half.name)
             for share in half.winners if (c := _contender(pot, share.player)) is not None]
    known = [w for w in words if w]
    with_what = f" with {' and '.join(dict.fromkeys(known))}" if known else " (no showdown)"
    return f"{names} {verb} {what} ({amounts}){with_what}"


def pot_sentences(report: Report) -> tuple[str, ...]:
    """Each pot in one sentence: "Main pot $18.00: Big won the high half ($9.00) with three of a
    kind, Kings; Bigger won the low half ($9.00) with 6-5-4-3-A."; then the rules beside the site."""
    sentences: list[str] = []
    for pot in report.pots:
        head = f"{pot.name[:1].upper()}{pot.name[1:]} {pot.net.text}"
        if not pot.halves:
            sentences.append(f"{head}: the rules cannot decide it, the cards that would decide it were not shown.")
            continue
        sentences.append(f"{head}: " + "; ".join(_took(pot, half) for half in pot.halves) + ".")
    rules = [row for row in report.awards if row.rules.amount]
    site = [row for row in report.awards if row.site.amount]
    if rules or site:
        owed = _names([f"{row.player} {row.rules.text}" for row in rules]) if rules else "nobody anything"
        if all(not row.difference.amount for row in report.awards):
            sentences.append(f"The rules give {owed}, and the site paid the same.")
        else:
            paid = _names([f"{row.player} {row.site.text}" for row in site]) if site else "nobody"
            sentences.append(f"The rules give {owed}; the site paid {paid}.")
    return tuple(sentences)


def _parsed(cards: tuple[str | None, ...]) -> list[Card] | None:
    if len(cards) < 5 or any(card is None for card in cards):
        return None
    return [Card.parse(card) for card in cards if card is not None]


def _five(cards: list[Card], half: str) -> FiveView | None:
    best = best_low(cards) if half == "low" else best_high(cards)
    return None if best is None else FiveView(best.describe(), tuple(str(card) for card in best.cards))


def evaluate_mucked(report: Report, player: str) -> MuckedHand | None:
    """The player's mucked hand against the hands shown in each pot he could win; None where he did
    not muck, or the history does not hold all his cards."""
    view = next((p for p in report.players if p.player == player), None)
    if view is None or view.status != "mucked":
        return None
    cards = _parsed(view.cards)
    if cards is None or len(set(cards)) != len(cards):
        return None
    high, low = best_high(cards), best_low(cards)
    chances: list[HalfChance] = []
    for pot in report.pots:
        if player not in pot.eligible:
            continue
        shown = [(c.player, parsed) for c in pot.contenders
                 if c.player != player and not c.standing and (parsed := _parsed(c.seven)) is not None]
        best_shown_high = max(((best_high(seven).value, name) for name, seven in shown), default=None)
        lows = [(shown_low.value, name) for name, seven in shown if (shown_low := best_low(seven)) is not None]
        if best_shown_high is not None:
            against = next(c for c in pot.contenders if c.player == best_shown_high[1])
            split = low is not None or bool(lows)  # (with no low anywhere the high takes the whole pot)
            chances.append(HalfChance(pot.name, "high" if split else "whole", _outcome(high.value, best_shown_high[0]),
                                      f"{hand_words(against.high, 'high')} ({against.player})"))
        if low is not None:
            if lows:
                best_low_value, name = max(lows)
                against = next(c for c in pot.contenders if c.player == name)
                chances.append(HalfChance(pot.name, "low", _outcome(low.value, best_low_value),
                                          f"{hand_words(against.low, 'low')} ({name})"))
            else:
                chances.append(HalfChance(pot.name, "low", "would have won", ""))
    return MuckedHand(player, tuple(map(str, cards)), _five(cards, "high"), _five(cards, "low"), tuple(chances))


def _outcome(mine: int, best: int) -> str:
    return "would have won" if mine > best else "would have tied" if mine == best else "would have lost"


def addressed_sentences(report: Report, player: str, mucked: MuckedHand | None) -> tuple[str, ...]:
    """What the player's own hand did, said to him: per pot he could win, each half he won or lost and
    to what; a mucked hand's best high and low and what they would have done."""
    view = next((p for p in report.players if p.player == player), None)
    if view is None:
        return ()
    if view.status.startswith("folded"):
        return (f"You {view.status}, so no pot was yours to win; you put in {view.put_in.text}.",)
    sentences: list[str] = []
    if mucked is not None:
        low = f"the low {hand_words(mucked.low, 'low')}" if mucked.low else "no low (no five different ranks 8 or lower)"
        sentences.append(f"You mucked {' '.join(mucked.cards)}: your best high was {mucked.high.words if mucked.high else '?'}"
                         f", and you had {low}.")
        for pot_name in dict.fromkeys(chance.pot for chance in mucked.chances):
            parts = []
            for chance in (c for c in mucked.chances if c.pot == pot_name):
                what = "the pot" if chance.half == "whole" else f"the {chance.half} half"
                against = f" against {chance.against}" if chance.against else " (no other low was shown)"
                parts.append(f"your {'high' if chance.half == 'whole' else chance.half} {chance.outcome} {what}{against}")
            sentences.append(f"In {_the(pot_name)}, shown, " + " and ".join(parts) + ".")
        if not any(chance.outcome != "would have lost" for chance in mucked.chances):
            sentences.append("A mucked hand cannot win a pot; shown, yours would not have won any part of one.")
        else:
            sentences.append("A mucked hand cannot win a pot: the site could pay only the hands shown.")
        return tuple(sentences)
    for pot in report.pots:
        if player not in pot.eligible:
            sentences.append(f"{_the(pot.name)[:1].upper()}{_the(pot.name)[1:]} was not yours to win: you were all-in for less "
                             "before it was made.")
            continue
        if not pot.halves:
            continue
        parts = []
        for half in pot.halves:
            what = "the pot" if half.name == "whole" else f"the {half.name} half"
            winners = [share.player for share in half.winners]
            if player in winners:
                own = _contender(pot, player)
                five = None if own is None else (own.low if half.name == "low" else own.high)
                with_what = f" with {hand_words(five, half.name)}" if five else ""
                parts.append(f"won {what}{with_what}")
            else:
                theirs = [hand_words(c.low if half.name == "low" else c.high, half.name)
                          for name in winners if (c := _contender(pot, name)) is not None]
                to = " and ".join(dict.fromkeys(w for w in theirs if w)) or _names(winners)
                parts.append(f"lost {what} to {to}")
        sentences.append(f"In {_the(pot.name)} you " + " and ".join(parts) + ".")
    return tuple(sentences)


__all__ = ["FEW_HANDS", "addressed_sentences", "evaluate_mucked", "few_hands", "hand_words", "learnt", "pot_sentences"]
