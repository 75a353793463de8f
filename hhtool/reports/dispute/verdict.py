"""The verdict in one or two sentences a player understands: who the site paid, which pot and half,
how much, who the rules give it to and why — or that the award is correct, or what could not be
verified and why."""

from __future__ import annotations

from collections.abc import Callable

from hhtool.reports.dispute.model import AwardRow, ContenderView, Finding, PotView


def _contender(pot: PotView, player: str) -> ContenderView | None:
    return next((c for c in pot.contenders if c.player == player), None)


def _why(pot: PotView, half: str, winner: str, loser: str) -> str:
    """Why the rules give the half to ``winner`` and not to ``loser``."""
    won = _contender(pot, winner)
    lost = _contender(pot, loser)
    best = None if won is None else (won.low if half == "low" else won.high)
    low = "low " if half == "low" else ""
    own = f"whose {low}{_clause(best.words)}" if best is not None else "the only player who can win it"
    if lost is None:
        return f"{own}; {loser} is not eligible for the {pot.name} (folded, or his chips do not reach it)"
    if lost.standing:
        return f"{own}; {loser} {lost.standing.split(':')[0]}"
    theirs = lost.low if half == "low" else lost.high
    if theirs is None:
        return f"{own} qualifies, while {loser} has no qualifying low (five different ranks, 8 or lower)"
    if best is None:
        return own
    return f"{own} beats {loser}'s {low}{theirs.words.removeprefix('a ')}"


def _clause(words: str) -> str:
    """Hand words inside a sentence: "whose pair of Aces" (no article), "three of a kind, Kings," closes its comma."""
    words = words.removeprefix("a ")
    return words + "," if ", " in words else words


def _half_of(pot: PotView, player: str) -> str | None:
    """The half of the pot the rules give the player ("high", "low", "whole"; None: nothing)."""
    named = [half.name for half in pot.halves if any(w.player == player and w.amount.amount for w in half.winners)]
    if len(named) == 1:
        return named[0]
    return "whole" if named else None


def _pot_phrase(pot: PotView) -> str:
    return "the main pot" if pot.index == 0 else pot.name


def _half_words(pot: PotView, half: str, amount_text: str, amount: int) -> str:
    """"the $0.63 high half of the main pot", "$0.20 of the low half of side pot 1", "all $1.20 of the main pot"."""
    where = _pot_phrase(pot)
    if half == "whole":
        whole = next((h for h in pot.halves if h.name == "whole"), None)
        return f"all {amount_text} of {where}" if whole and whole.amount.amount == amount else f"{amount_text} of {where}"
    view = next((h for h in pot.halves if h.name == half), None)
    if view is not None and view.amount.amount == amount:
        return f"the {amount_text} {half} half of {where}"
    return f"{amount_text} of the {half} half of {where}"


def _pot_sentences(pots: tuple[PotView, ...], money_text: Callable[[int], str]) -> list[str]:
    """Per pot the site states: each underpaid player against the one paid in his place."""
    sentences: list[str] = []
    for pot in pots:
        if pot.site_paid is None or not pot.decided:
            continue
        rules: dict[str, int] = {}
        for part in pot.halves:
            for share in part.winners:
                rules[share.player] = rules.get(share.player, 0) + share.amount.amount
        site = {share.player: share.amount.amount for share in pot.site_paid}
        over = {p: site.get(p, 0) - rules.get(p, 0) for p in set(site) | set(rules) if site.get(p, 0) > rules.get(p, 0)}
        under = {p: rules.get(p, 0) - site.get(p, 0) for p in rules if rules[p] > site.get(p, 0)}
        for owed in sorted(under, key=lambda p: -under[p]):
            half = _half_of(pot, owed) or "whole"
            paid = next((p for p in sorted(over, key=lambda p: -over[p]) if over[p] > 0), None)
            if paid is None:
                amount = under[owed]
                sentences.append(f"The site paid {owed} {money_text(amount)} too little from the {pot.name}; by the "
                                 f"rules {_half_words(pot, half, money_text(amount), amount)} goes to him.")
                continue
            amount = min(under[owed], over[paid])
            over[paid] -= amount
            sentences.append(f"The site paid {_half_words(pot, half, money_text(amount), amount)} to {paid}; by the "
                             f"rules it belongs to {owed}, {_why(pot, half, owed, paid)}.")
        for paid, extra in over.items():  # paid out beyond what the pot holds for anyone
            if extra > 0:
                sentences.append(f"The site paid {paid} {money_text(site[paid])} from {_pot_phrase(pot)}, "
                                 f"{money_text(extra)} more than the rules award ({money_text(rules.get(paid, 0))}).")
    return sentences


def _player_sentences(pots: tuple[PotView, ...], awards: tuple[AwardRow, ...], money_text: Callable[[int], str]) -> list[str]:
    """When the site does not say which pot it paid: each underpaid player against an overpaid one."""
    over = {row.player: row.difference.amount for row in awards if row.difference.amount > 0}
    sentences: list[str] = []
    for row in sorted((r for r in awards if r.difference.amount < 0), key=lambda r: r.difference.amount):
        owed = row.player
        amount = -row.difference.amount
        pot = next((p for p in pots if _half_of(p, owed)), None)
        paid = next((p for p in sorted(over, key=lambda p: -over[p]) if over[p] > 0), None)
        half = None if pot is None else _half_of(pot, owed)
        where = "" if pot is None else f" ({_pot_phrase(pot)})" if half == "whole" else f" ({half} half of {_pot_phrase(pot)})"
        if paid is None:
            sentences.append(f"The site paid {owed} {money_text(amount)} too little{where}.")
            continue
        amount = min(amount, over[paid])
        over[paid] -= amount
        why = "" if pot is None else f", {_why(pot, _half_of(pot, owed) or 'whole', owed, paid)}"
        sentences.append(f"The site paid {money_text(amount)} to {paid} that by the rules belongs to {owed}{where}{why}.")
    for row in awards:
        if over.get(row.player, 0) == row.difference.amount > 0:  # not matched with an underpaid player
            sentences.append(f"The site paid {row.player} {row.site.text}, {money_text(over[row.player])} more than the "
                             f"rules award ({row.rules.text}).")
    return sentences


def headline(profile: str, pots: tuple[PotView, ...], awards: tuple[AwardRow, ...], findings: tuple[Finding, ...],
             copies: int, money_text: Callable[[int], str]) -> tuple[str, ...]:
    """``money_text`` writes an amount as a person reads it."""
    violations = [f for f in findings if f.kind == "violation"]
    unverifiable = [f for f in findings if f.kind == "unverifiable"]
    sentences: list[str] = []
    if any(row.difference.amount for row in awards):
        sentences = _pot_sentences(pots, money_text) or _player_sentences(pots, awards, money_text)
        if len(sentences) > 1:
            total = sum(row.difference.amount for row in awards if row.difference.amount > 0)
            sentences = [sentences[0], f"In all {money_text(total)} went to the wrong players (see the award table)."]
    elif not awards and not all(p.decided for p in pots):
        reason = next((f.message for f in unverifiable if f.topic in ("the award of each pot", "who won at the showdown")),
                      "the history hides cards the decision needs")
        sentences = [f"The award could not be verified: {reason}."]
    elif violations:
        first = violations[0].message.rstrip(".")
        extra = len(violations) - 1
        more = f" (and {extra} more finding{'s' if extra > 1 else ''} below)" if extra else ""
        sentences = [f"The site's award is correct under the rules of {profile}, but the hand departs from the rules: "
                     f"{first}{more}."]
    elif unverifiable:
        first = unverifiable[0].message.rstrip(".")
        sentences = [f"The site's award is correct under the rules of {profile}; not everything could be verified: "
                     f"{first}."]
    else:
        sentences = [f"The site's award is correct under the rules of {profile}."]
    if copies:  # first: the history judged may be the edited copy
        others = "Another copy" if copies == 1 else f"{copies} other copies"
        sentences.insert(0, f"{others} of this hand hold{'s' if copies == 1 else ''} a different history; "
                            "the copies are shown side by side below.")
    return tuple(sentences)
