"""What several site modules read alike, beyond :mod:`hhtool.sites.base`'s builder.

Only logic that is the same wherever it appears lives here; a site's quirks stay in its module.
Imports point one way: this module imports only the model and ``base``.

>>> cards_dealt_on(Street.THIRD), cards_dealt_on(Street.SEVENTH)
(3, 1)
"""

from __future__ import annotations

from hhtool.model import Street


def cards_dealt_on(street: Street) -> int:
    """How many cards a street brings each player: three on 3rd street, then one."""
    return 3 if street is Street.THIRD else 1
