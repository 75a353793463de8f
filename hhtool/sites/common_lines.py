"""What several site modules read alike, beyond :mod:`hhtool.sites.base`'s builder.

Only logic that is the same wherever it appears lives here; a site's quirks stay in its module.
Imports point one way: this module imports only the model and ``base``.

>>> cards_dealt_on(Street.THIRD), cards_dealt_on(Street.SEVENTH)
(3, 1)
>>> structure_named("7 Card Stud Hi/Lo Pot Limit"), structure_named("Limit Stud H/L")
(<Structure.POT_LIMIT: 'pot_limit'>, <Structure.FIXED_LIMIT: 'fixed_limit'>)
>>> pot_number("main pot", None), pot_number("side pot", None), pot_number("Side pot", "2"), pot_number(None, None)
(0, 1, 2, 0)
"""

from __future__ import annotations

from hhtool.model import Stakes, Street, Structure
from hhtool.sites.base import HandBuilder, derive_stakes_from_forced_bets

#: ISO code of a currency symbol in the amounts
CURRENCY_OF_SYMBOL = {"$": "USD", "€": "EUR", "£": "GBP"}


def cards_dealt_on(street: Street) -> int:
    """How many cards a street brings each player: three on 3rd street, then one."""
    return 3 if street is Street.THIRD else 1


def structure_named(text: str) -> Structure:
    """The betting structure a header's words name ("No Limit", "pot limit", "Half Pot Limit"…);
    any other limit is fixed."""
    lowered = text.lower()
    if "no limit" in lowered:
        return Structure.NO_LIMIT
    if "pot limit" in lowered:
        return Structure.POT_LIMIT
    return Structure.FIXED_LIMIT


def pot_number(name: str | None, side_number: str | None) -> int:
    """The model's pot number for a pot a collect line names: 0 for the pot or main pot, N for
    side pot N; a side pot without a number is side pot 1."""
    return int(side_number or 1) if name and name.lower().startswith("side") else 0


def stakes_from_forced_bets(b: HandBuilder, *, small_bet: int | None, big_bet: int | None, currency: str,
                            structure: Structure, is_tournament: bool, table_size: int | None = None,
                            ante: int | None = None) -> Stakes:
    """Stakes for a site whose header gives the bets but not every forced bet: the bring-in, and the
    ante unless the header's ``ante`` is given, as the hand posts them (``source="forced_bets"``).
    A hand where nobody posts a bring-in gets a note that its amount is unknown."""
    posted_ante, bring_in = derive_stakes_from_forced_bets(b.actions)
    if bring_in is None:
        b.note("no bring-in was posted: the bring-in amount is unknown")
    return Stakes(
        ante=posted_ante if ante is None else ante,
        bring_in=bring_in,
        small_bet=small_bet,
        big_bet=big_bet,
        currency=currency,
        unit=b.unit,
        structure=structure,
        is_tournament=is_tournament,
        table_size=table_size,
        source="forced_bets",
    )
