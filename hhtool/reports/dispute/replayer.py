"""The hand replayer of the web pages: the dispute page's, `show --format html`'s, and any page
that embeds one (:func:`replayer_fragment`; :mod:`.replayer_page` wraps it in a page of its own).

The steps are worked out here so that the page only draws them: before each street's deal, each
deal, each action (with the pot after it) and the showdown. Every step holds every player's whole
board so far, down cards marked as down (the 3rd street's two and the 7th street's one), so the
reader sees why a player acts first; at the showdown every player's known cards are face up and the
cards that won each half are marked, a down card shown there still drawn as a down card. Every step
also holds each player's stack (his starting stack less what he has put in so far, uncalled bets
returned given back) and what he has in front of him: what he has put in on this street, antes left
out (they go straight to the pot); at the showdown each stack gets what the rules award him. A name's
control characters (an escape's ESC, a line break) show as "?", as in the terminal's `show`."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from hhtool.money import format_at_table
from hhtool.reports.dispute.model import DealView, Report, StreetView, in_history_order
from hhtool.reports.printable import printable
from hhtool.reports.templating import fragment, script_json

Card = dict[str, Any]  # {"card": "Kd" | None, "face": "up" | "down", "won": ["high", ...]}
#: street number -> the down and up cards each player still in is dealt on it
_DEALT = {3: (2, 1), 4: (0, 1), 5: (0, 1), 6: (0, 1), 7: (1, 0)}
#: the places of a stud board's down cards in dealing order (3rd street's two, 7th street's one)
_DOWN_PLACES = (0, 1, 6)


def _winning(report: Report) -> dict[str, dict[str, set[str]]]:
    """player -> card -> the halves (over all pots) it helped win."""
    won: dict[str, dict[str, set[str]]] = {}
    for pot in report.pots:
        for half in pot.halves:
            label = "high" if half.name == "whole" else half.name
            for player, cards in half.winning_cards:
                for card in cards:
                    won.setdefault(player, {}).setdefault(card, set()).add(label)
    return won


def replay_steps(report: Report, hide_hole: bool = False) -> list[dict[str, Any]]:
    """The steps, each with every player's cards so far; ``hide_hole`` draws every down card as a
    card's back until the showdown (the hand as the table saw it)."""
    players = [p.player for p in report.players if p.status != "not dealt in"]
    held: dict[str, list[Card]] = {player: [] for player in players}
    folded: set[str] = set()
    steps: list[dict[str, Any]] = []
    pot = next((s.actions[0].pot_after.text for s in report.streets if s.actions), "")
    stacks = {p.player: None if p.stack is None else p.stack.amount for p in report.players}
    put_in = dict.fromkeys(players, 0)
    in_front = dict.fromkeys(players, 0)
    won: dict[str, int] = {}

    def money(amount: int) -> str:
        return format_at_table(amount, report.unit, report.currency)

    def chips(player: str) -> dict[str, str | None]:
        start = stacks.get(player)
        after = None if start is None else start - put_in[player] + won.get(player, 0)
        return {"stack": None if after is None else money(after),
                "front": money(in_front[player]) if in_front[player] else "",
                "won": money(won[player]) if won.get(player) else ""}

    def snapshot(label: str, words: str, pot_text: str, actor: str | None, showdown: bool = False) -> None:
        def seen(card: Card) -> Card:
            return {**card, "card": None} if hide_hole and card["face"] == "down" and not showdown else dict(card)

        steps.append({"label": label, "words": printable(words), "pot": pot_text,
                      "actor": None if actor is None else printable(actor), "showdown": showdown,
                      "folded": sorted(printable(p) for p in folded),
                      "cards": {printable(p): [seen(c) for c in held[p]] for p in players},
                      "chips": {printable(p): chips(p) for p in players}})

    def deal_unprinted(street: StreetView, printed: set[str]) -> None:
        """A player still in whose cards the site does not print on this street (PartyPoker prints
        only the hero's) holds them all the same: drawn as unknown cards, face down or up; a hand
        whose 7th street is one common card (too few cards for everyone) is not told apart here."""
        downs, ups = _DEALT.get(street.street, (0, 0))
        for player in players:
            if player not in printed and player not in folded:
                held[player] += [{"card": None, "face": "down", "won": []}] * downs
                held[player] += [{"card": None, "face": "up", "won": []}] * ups

    for street in report.streets:
        in_front.update(dict.fromkeys(players, 0))  # (a new street: the bets before it are in the pot)
        # in the history's order: the antes posted before the deal, the deals, the rest. A street
        # reached with no deal printed (PokerStars prints the 7th street's down card only to the
        # hero, and no line at all once he folded) is dealt all the same, before its first action
        dealing = not street.deals and bool(street.actions) and street.street > 3
        printed = {deal.player for deal in street.deals}
        filled = False
        for event in in_history_order(street):
            if isinstance(event, DealView):
                if event.player in held:
                    held[event.player] += [{"card": c, "face": "down", "won": []} for c in event.down]
                    held[event.player] += [{"card": c, "face": "up", "won": []} for c in event.up]
                dealing = True
                continue
            if dealing:  # the street's cards, all dealt, as one step
                if not filled:
                    deal_unprinted(street, printed)
                    filled = True
                snapshot(street.label, f"{street.label.capitalize()}: the cards are dealt", pot, None)
                dealing = False
            pot = event.pot_after.text
            if event.player in put_in:
                put_in[event.player] += event.amount.amount
                if not event.words.startswith("posts the ante"):
                    in_front[event.player] += event.amount.amount
            if event.words.startswith("folds"):
                folded.add(event.player)
            snapshot(street.label, f"{event.player} {event.words}", pot, event.player)
        if dealing:
            if not filled:
                deal_unprinted(street, printed)
            snapshot(street.label, f"{street.label.capitalize()}: the cards are dealt", pot, None)
    winning = _winning(report)
    for player_view in report.players:
        player = player_view.player
        if player not in held or player in folded:
            continue
        if player_view.cards and None not in player_view.cards:
            # each card keeps the face it was dealt with: a down card shown now is still a down card
            faces = [card["face"] for card in held[player]]
            if len(faces) != len(player_view.cards):
                faces = ["down" if place in _DOWN_PLACES else "up" for place in range(len(player_view.cards))]
            held[player] = [{"card": c, "face": face, "won": sorted(winning.get(player, {}).get(c or "", set()))}
                            for c, face in zip(player_view.cards, faces, strict=True)]
    in_front.update(dict.fromkeys(players, 0))
    for pot_view in report.pots:
        for half in pot_view.halves:
            for share in half.winners:
                won[share.player] = won.get(share.player, 0) + share.amount.amount
    winners = "; ".join(f"{pot.name} {half.name}: " + ", ".join(w.player for w in half.winners)
                        for pot in report.pots for half in pot.halves)
    snapshot("showdown", f"Showdown. By the rules: {winners}" if winners else "Showdown", pot, None, showdown=True)
    return steps


def replayer_fragment(report: Report, hide_hole: bool = False, heading: str = "Replay") -> Markup:
    """One hand's replayer as an HTML fragment (a ``<section class="replayer">`` that carries its own
    steps as JSON, template ``dispute/replayer.html``), to put in any page whose head holds
    :data:`~.replayer_assets.REPLAYER_CSS` and whose end holds :data:`~.replayer_assets.REPLAYER_JS`.
    Its parts also carry the ids the dispute page has always had (``felt``, ``next``…): one replayer a
    page keeps them unique."""
    players = [printable(p.player) for p in report.players if p.status != "not dealt in"]
    data = {"players": players, "steps": replay_steps(report, hide_hole)}
    return fragment("dispute/replayer.html", heading=heading, hide_hole=hide_hole, data=data)


def _ordinal(street: int) -> str:
    return "3rd" if street == 3 else f"{street}th"


def allin_fragment(allin: dict[str, Any] | None, unit: int, currency: str) -> Markup:
    """The all-in section beside a replayer: each live player's equity on every street where all live
    hands are known, and at the moment the betting closed his all-in EV (docs/allin-ev.md), from
    `show`'s plain view of it (:func:`hhtool.equity.allin.allin_view`). Empty for a hand with neither."""
    from hhtool.money import format_money

    if not allin or (not allin["streets"] and allin["status"] in ("no_all_in", "uncontested")):
        return Markup("")
    players: list[str] = list(allin.get("players") or ())
    for street in allin["streets"]:
        players += [player for player in street["equity"] if player not in players]
    evs = ({player: format_money((milli + 500) // 1000, unit, currency) for player, milli in allin["ev_net_milli"].items()}
           if "ev_net_milli" in allin else None)
    return fragment("dispute/allin.html", allin=allin, players=players, evs=evs, ordinal=_ordinal)


__all__ = ["allin_fragment", "replay_steps", "replayer_fragment", "script_json"]
