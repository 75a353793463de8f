"""The dispute report as one self-contained web page: inline style sheet and script, cards drawn
with CSS, no network access, readable on a phone, printable, with a replayer that steps through the
hand and marks the cards that won each half. Drawn by the templates ``dispute/desk.html`` and its
parts (``dispute/parts.html``, shared with the player's copy and the web hand page) through the one
template environment (:mod:`hhtool.reports.templating`): every text from the history is escaped there."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from hhtool.reports.dispute.answer import learnt, pot_sentences
from hhtool.reports.dispute.assets import CSS, JS
from hhtool.reports.dispute.model import ActionView, DealView, PotView, Report, StreetView, in_history_order
from hhtool.reports.dispute.replayer import replayer_fragment
from hhtool.reports.dispute.rules import rule_words
from hhtool.reports.site_words import site_in_words
from hhtool.reports.templating import fragment, render


def _streets(report: Report) -> list[tuple[StreetView, tuple[DealView | ActionView, ...]]]:
    """Each street with its deals and actions in the history's order (the antes before the deal)."""
    return [(street, in_history_order(street)) for street in report.streets]


def _pot_winners(pot: PotView) -> dict[str, dict[str, tuple[str, ...]]]:
    """player -> card -> the halves of ``pot`` it helped win ("high" for a whole pot)."""
    won: dict[str, dict[str, list[str]]] = {}
    for half in pot.halves:
        for player, cards in half.winning_cards:
            for card in cards:
                won.setdefault(player, {}).setdefault(card, []).append("high" if half.name == "whole" else half.name)
    return {player: {card: tuple(halves) for card, halves in marks.items()} for player, marks in won.items()}


#: what the parts' templates ask of the report besides its values
HELPERS: dict[str, Any] = {"report_streets": _streets, "pot_winners": _pot_winners, "rule_words": rule_words,
                           "learnt": learnt}


def page_values(title: str) -> dict[str, Any]:
    """What every dispute page's frame (``dispute/page.html``) needs: its title, style sheet and script."""
    return {"title": title, "css": CSS, "js": JS, **HELPERS}


def render_html(report: Report) -> str:
    title = f"Hand {site_in_words(report.site)} #{report.hand_id} — dispute report"
    return render("dispute/desk.html", report=report, pot_sentences=pot_sentences(report),
                  replayer=replayer_fragment(report), **page_values(title))


def streets_section(report: Report, with_lines: bool) -> Markup:
    """The hand street by street in the history's order (the antes before the deal); ``with_lines``:
    a column with each row's line of the history."""
    return fragment("dispute/streets.html", report=report, with_lines=with_lines, **HELPERS)
