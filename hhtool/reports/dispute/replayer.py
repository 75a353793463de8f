"""The steps of the web page's replayer, worked out here so that the page only draws them: before
each street's deal, each deal, each action (with the pot after it) and the showdown, where every
player's known cards are face up and the cards that won each half are marked."""

from __future__ import annotations

from typing import Any

from hhtool.reports.dispute.model import DealView, Report, in_history_order

Card = dict[str, Any]  # {"card": "Kd" | None, "face": "up" | "down", "won": ["high", ...]}


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


def replay_steps(report: Report) -> list[dict[str, Any]]:
    players = [p.player for p in report.players if p.status != "not dealt in"]
    held: dict[str, list[Card]] = {player: [] for player in players}
    folded: set[str] = set()
    steps: list[dict[str, Any]] = []
    pot = next((s.actions[0].pot_after.text for s in report.streets if s.actions), "")

    def snapshot(label: str, words: str, pot_text: str, actor: str | None, showdown: bool = False) -> None:
        steps.append({"label": label, "words": words, "pot": pot_text, "actor": actor, "showdown": showdown,
                      "folded": sorted(folded), "cards": {p: [dict(c) for c in held[p]] for p in players}})

    for street in report.streets:
        dealt = False
        for event in in_history_order(street):
            if isinstance(event, DealView):
                if event.player in held:
                    held[event.player] += [{"card": c, "face": "down", "won": []} for c in event.down]
                    held[event.player] += [{"card": c, "face": "up", "won": []} for c in event.up]
                dealt = True
                continue
            if dealt:  # the street's cards, all dealt, as one step
                snapshot(street.label, f"{street.label.capitalize()}: the cards are dealt", pot, None)
                dealt = False
            pot = event.pot_after.text
            if event.words.startswith("folds"):
                folded.add(event.player)
            snapshot(street.label, f"{event.player} {event.words}", pot, event.player)
        if dealt:
            snapshot(street.label, f"{street.label.capitalize()}: the cards are dealt", pot, None)
    won = _winning(report)
    for player_view in report.players:
        player = player_view.player
        if player not in held or player in folded:
            continue
        if player_view.cards and None not in player_view.cards:
            held[player] = [{"card": c, "face": "up", "won": sorted(won.get(player, {}).get(c or "", set()))}
                            for c in player_view.cards]
    winners = "; ".join(f"{pot.name} {half.name}: " + ", ".join(w.player for w in half.winners)
                        for pot in report.pots for half in pot.halves)
    snapshot("showdown", f"Showdown. By the rules: {winners}" if winners else "Showdown", pot, None, showdown=True)
    return steps
