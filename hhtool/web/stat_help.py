"""What the stats page shows of each statistic: the columns, their headers, and the sentence a
header's hover gives (the short form of docs/stats.md, which defines each one)."""

from __future__ import annotations

from typing import Any

#: the columns of each view of the stats page, by their output keys
STAT_COLUMNS: dict[str, tuple[str, ...]] = {
    "player": ("hands", "vpip", "raise_3rd", "steal", "aggression_5th", "cbet_4th", "wtsd", "wsd", "scoop",
               "net_won", "bb_per_100"),
    "street": ("saw", "aggression", "fold", "cbet", "fold_to_cbet", "check_raise"),
    "volume": ("hands", "net_won", "net_won_showdown", "net_won_non_showdown", "bb_per_100", "rake_paid",
               "ev_net_won", "ev_bb_per_100", "luck"),
}

#: key -> (header, what it counts)
STAT_HELP: dict[str, tuple[str, str]] = {
    "player": ("Player", "The player, or the alias grouping his names on several sites."),
    "currency": ("Ccy", "The currency of the hands (chips in tournaments)."),
    "stakes": ("Stakes", "Small bet / big bet."),
    "month": ("Month", "The month the hands were played in."),
    "door_card": ("Door", "The rank of the player's first up card."),
    "start": ("Start", "The player's three 3rd-street cards as a starting-hand group."),
    "street": ("Street", "The street the rates of the row are on."),
    "hands": ("Hands", "Hands the player was dealt in."),
    "vpip": ("VPIP", "Voluntarily put money in the pot: hands with a call, complete or raise on 3rd street, "
                     "of the hands with a 3rd-street decision (the bring-in alone is not voluntary)."),
    "raise_3rd": ("Raise 3rd", "Hands with a complete or raise on 3rd street, of those with a 3rd-street decision."),
    "steal": ("Steal", "Completed first in with a door-card or late-position steal opportunity, of those opportunities."),
    "aggression_5th": ("Agg 5th", "Bets and raises on 5th street, of the player's decisions there."),
    "cbet_4th": ("C-bet 4th", "Bet 4th street after being the last to raise 3rd, of those chances."),
    "wtsd": ("WTSD", "Went to showdown, of the hands in which the player saw 4th street."),
    "wsd": ("W$SD", "Won money at showdown (a quarter counts), of the showdowns."),
    "scoop": ("Scoop", "Won the whole pot at showdown, of the showdowns."),
    "net_won": ("Net", "Money won less money put in, after rake."),
    "net_won_showdown": ("Net SD", "Net won in hands that went to showdown."),
    "net_won_non_showdown": ("Net non-SD", "Net won in the other hands."),
    "bb_per_100": ("BB/100", "Big bets won per 100 hands, each hand in its own big bets."),
    "ev_net_won": ("EV net", "Net with each all-in hand's net replaced by the player's all-in EV: his expected "
                             "winnings when the betting closed, less what he put in."),
    "ev_bb_per_100": ("EV BB/100", "BB/100 of the EV net."),
    "luck": ("Luck", "Net less EV net: what the cards dealt after the all-ins won or lost against expectation."),
    "rake_paid": ("Rake", "The rake and fees attributed to the player, pro rata of what he collected."),
    "saw": ("Saw", "Saw this street, of the hands dealt."),
    "aggression": ("Agg", "Bets and raises on this street, of the player's decisions there."),
    "fold": ("Fold", "Folded on this street, of the hands in which he acted there."),
    "cbet": ("C-bet", "Continuation bet on this street, of the chances."),
    "fold_to_cbet": ("Fold to c-bet", "Folded to a continuation bet, of the times he faced one."),
    "check_raise": ("Check-raise", "Check-raised on this street, of the chances."),
}


def rate_text(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.1f}%"


def header(key: str) -> str:
    return STAT_HELP.get(key, (key.replace("_", " "), ""))[0]


def every_rate(record: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    """(key, header, rate, count/opportunities) of every rate of one stats row."""
    rates = []
    for key in record:
        if key.endswith("_opportunities"):
            stat = key.removesuffix("_opportunities")
            rates.append((stat, header(stat), rate_text(record.get(stat)),
                          f"{record.get(f'{stat}_count', 0)}/{record.get(key, 0)}"))
    return rates
