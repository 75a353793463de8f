"""An action and a showdown entry in words, with the amounts the hand's history writes.

The model keeps what every site's line means (the chips an action put in, the street total after
it); the sites write a raise with different numbers, and a reader holding the history must find
the same ones in a report: PokerStars "raises 80 to 160" (the raise over the bet faced, then the
total), Bovada "Raises $7.50 to $10" (the chips put in, then the total), Full Tilt "raises to 160".
:data:`RAISE_FORMS` says which each site writes; a site not listed gets "raises to 160", which no
history contradicts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import StrEnum

from hhtool.model import Action, ActionKind, ShowStatus


class RaiseForm(StrEnum):
    """The numbers a site's raise line writes."""

    OVER_TO = "over_to"  # the raise over the bet faced, then the street total: "raises 80 to 160"
    ADDED_TO = "added_to"  # the chips the raise puts in, then the street total: "Raises $7.50 to $10"
    TO = "to"  # the street total only: "raises to 160"


#: how each site's history writes a raise (checked against the corpus, tests/test_action_words.py);
#: PartyPoker writes only the chips put in ("raises [$17]"), which ADDED_TO states with the total
RAISE_FORMS: dict[str, RaiseForm] = {
    "pokerstars": RaiseForm.OVER_TO,
    "bovada": RaiseForm.ADDED_TO, "absolute": RaiseForm.ADDED_TO, "winning": RaiseForm.ADDED_TO,
    "partypoker": RaiseForm.ADDED_TO,
}

#: a showdown entry's status as the histories word it ("not_shown" is the model's name, no reader's)
SHOW_WORDS: dict[ShowStatus, str] = {
    ShowStatus.SHOWN: "shows", ShowStatus.MUCKED: "mucks", ShowStatus.NOT_SHOWN: "doesn't show hand",
}


def bets_faced(actions: Sequence[Action]) -> list[int]:
    """For each action, the street's bet before it (the highest street total so far; antes are no bet)."""
    faced: list[int] = []
    level, street = 0, None
    for action in actions:
        if action.street is not street:
            level, street = 0, action.street
        faced.append(level)
        if action.kind is not ActionKind.ANTE:
            level = max(level, action.to_amount)
    return faced


def action_words(action: Action, faced: int, site: str, money: Callable[[int], str]) -> str:
    """The action as its history words it, without the player: "raises 80 to 160 and is all-in"."""
    amount, to = money(action.amount), money(action.to_amount)
    if action.kind is ActionKind.RAISE:
        form = RAISE_FORMS.get(site, RaiseForm.TO)
        words = {RaiseForm.OVER_TO: f"raises {money(action.to_amount - faced)} to {to}",
                 RaiseForm.ADDED_TO: f"raises {amount} to {to}", RaiseForm.TO: f"raises to {to}"}[form]
    else:
        words = {
            ActionKind.ANTE: f"posts the ante {amount}",
            ActionKind.BRING_IN: f"brings in for {amount}",
            ActionKind.COMPLETE: f"completes to {to}",
            ActionKind.BET: f"bets {amount}",
            ActionKind.CALL: f"calls {amount}",
            ActionKind.CHECK: "checks",
            ActionKind.FOLD: "folds",
        }[action.kind]
    return words + (" and is all-in" if action.all_in else "")


__all__ = ["RAISE_FORMS", "SHOW_WORDS", "RaiseForm", "action_words", "bets_faced"]
