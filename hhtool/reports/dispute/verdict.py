"""The verdict in one or two sentences a player understands: who the site paid, which pot and half,
how much, who the rules give it to and why; whose uncalled bet it returned short (or over) and where
the money went — or that the award is correct, or what could not be verified and why."""

from __future__ import annotations

from collections.abc import Callable

from hhtool.reports.dispute.model import AwardRow, ContenderView, Finding, PotView
from hhtool.reports.dispute.settlement import PlayerDifference
from hhtool.reports.site_words import rules_in_words


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


def _return_sentence(row: AwardRow, parts: dict[str, PlayerDifference], money_text: Callable[[int], str]) -> str:
    """An uncalled bet returned otherwise than the rules (R10): to whom, how much, and where the
    difference went as far as the awards show it (back to him with the pot, to another player, or
    nowhere: the site kept it)."""
    player, rules, site = row.player, row.rules.amount, row.site.amount
    own = parts[player]
    if site < rules:
        if site == 0:
            lead = f"The site did not return {player} the {row.rules.text} of his bet that nobody called"
        else:
            lead = (f"The site returned {player} {money_text(rules - site)} less than the {row.rules.text} of his bet "
                    "that nobody called")
        if own.total >= 0:  # his award holds what the return lacks
            return f"{lead}, but paid it to him with the pot: he received what the rules give him."
        others = sorted((r for r in parts.values() if r.player != player and r.total > 0), key=lambda r: -r.total)
        if others and not any(r.award < 0 for r in parts.values()):
            return f"{lead} and paid it to {others[0].player}; by the rules it goes back to {player}."
        if others:  # pot money went wrong too: which part went where the awards cannot tell
            return f"{lead}; by the rules it goes back to him."
        if site == 0:
            return f"{lead} and kept it; by the rules it goes back to him."
        return f"{lead} and kept the difference; by the rules all {row.rules.text} goes back to him."
    extra = money_text(site - rules)
    if rules == 0:
        lead = f"The site returned {player} {row.site.text} as uncalled, but his bet was called: by the rules it stays in the pot"
    else:
        lead = (f"The site returned {player} {row.site.text} as uncalled, {extra} more than the {row.rules.text} of his "
                f"bet that nobody called; by the rules the {extra} stays in the pot")
    if own.total == 0:
        return f"{lead}, and the site paid him that much less from the pot: he received what the rules give him."
    return f"{lead}."


def _inside_sentence(row: AwardRow, own: PlayerDifference, money_text: Callable[[int], str]) -> str:
    """A player paid too little where the site pays his uncalled bet with his award."""
    return (f"The site paid {row.player} {row.site.text} for the pot and the {money_text(own.own_in_award)} of his bet "
            f"that nobody called, {money_text(-own.total)} less than the {row.rules.text} the rules give him.")


def _total_sentence(total: int, paid_to_players: int, returns: bool, money_text: Callable[[int], str]) -> str:
    tables = "the award table and the uncalled bets returned" if returns else "the award table"
    if total == paid_to_players:
        return f"In all {money_text(total)} went to the wrong players (see {tables})."
    kept = money_text(total - paid_to_players)
    return f"In all {money_text(total)} was misawarded, {kept} of it kept by the site (see {tables})."


def _money_sentences(pots: tuple[PotView, ...], awards: tuple[AwardRow, ...], returns: tuple[AwardRow, ...],
                     differences: tuple[PlayerDifference, ...], total: int, money_text: Callable[[int], str]) -> list[str]:
    """The settlement's misawards: the largest first, by pot where the site says which pot it paid,
    an uncalled bet returned otherwise than the rules first when it is the larger; the total after.
    Where the site pays the uncalled bets with its awards, its per-pot amounts hold them: the award
    rows (returns inside on both sides) say it, not the pots."""
    parts = {row.player: row for row in differences}
    judged = sorted((row for row in returns if row.player in parts and parts[row.player].returned),
                    key=lambda row: -abs(row.difference.amount))
    # (the amount a sentence names, or None where the pot sentences name several; the sentence)
    returned = [(abs(row.difference.amount), _return_sentence(row, parts, money_text)) for row in judged]
    paid: list[tuple[int | None, str]] = []
    if any(row.difference.amount for row in awards):
        if any(row.own_in_award for row in differences):
            short = sorted((row for row in awards if row.player in parts and parts[row.player].own_short),
                           key=lambda row: row.difference.amount)
            paid = [(-parts[row.player].total, _inside_sentence(row, parts[row.player], money_text)) for row in short]
            paid += [(None, sentence) for sentence in _player_sentences(pots, awards, money_text)]
        else:
            paid = [(None, sentence) for sentence in
                    _pot_sentences(pots, money_text) or _player_sentences(pots, awards, money_text)]
    largest_award = max((abs(row.difference.amount) for row in awards), default=0)
    returns_first = bool(returned) and returned[0][0] >= largest_award
    sentences: list[tuple[int | None, str]] = [*returned, *paid] if returns_first else [*paid, *returned]
    if not sentences:
        return []
    first_amount, first = sentences[0]
    if len(sentences) > 1 and total and total != first_amount:
        paid_to_players = sum(max(row.total, 0) for row in differences)
        return [first, _total_sentence(total, paid_to_players, bool(returned), money_text)]
    return [first]


def headline(profile: str, pots: tuple[PotView, ...], awards: tuple[AwardRow, ...], findings: tuple[Finding, ...],
             copies: int, money_text: Callable[[int], str], returns: tuple[AwardRow, ...] = (),
             differences: tuple[PlayerDifference, ...] = (), total: int | None = None) -> tuple[str, ...]:
    """``money_text`` writes an amount as a person reads it; ``returns`` are the uncalled bets returned
    per player (rules beside site), ``differences`` each player's settlement beside the rules' and
    ``total`` the misawarded money counted once (default: what the site overpaid in its awards)."""
    violations = [f for f in findings if f.kind == "violation"]
    unverifiable = [f for f in findings if f.kind == "unverifiable"]
    sentences: list[str] = []
    if total is None:
        total = sum(row.difference.amount for row in awards if row.difference.amount > 0)
    if any(row.difference.amount for row in awards) or any(row.returned for row in differences):
        sentences = _money_sentences(pots, awards, returns, differences, total, money_text)
    elif not awards and not all(p.decided for p in pots):
        reason = next((f.message for f in unverifiable if f.topic in ("the award of each pot", "who won at the showdown")),
                      "the history hides cards the decision needs")
        sentences = [f"The award could not be verified: {reason}."]
    elif violations:
        first = violations[0].message.rstrip(".")
        extra = len(violations) - 1
        more = f" (and {extra} more finding{'s' if extra > 1 else ''} below)" if extra else ""
        sentences = [f"The site's award is correct under {rules_in_words(profile)}, but the hand departs from the rules: "
                     f"{first}{more}."]
    elif unverifiable:
        first = unverifiable[0].message.rstrip(".")
        sentences = [f"The site's award is correct under {rules_in_words(profile)}; not everything could be verified: "
                     f"{first}."]
    else:
        sentences = [f"The site's award is correct under {rules_in_words(profile)}."]
    if copies:  # first: the history judged may be the edited copy
        others = "Another copy" if copies == 1 else f"{copies} other copies"
        sentences.insert(0, f"{others} of this hand hold{'s' if copies == 1 else ''} a different history; "
                            "the copies are shown side by side below.")
    return tuple(sentences)
