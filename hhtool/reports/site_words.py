"""Sites and rule profiles by the names a person knows them by.

The store, the command line and JSON keep the short names (``pokerstars``, ``winning``); whatever a
player or the desk reads in a sentence says "PokerStars", "Winning Poker Network". A site's name is
its structures file's ``site_name`` (:func:`hhtool.replay.structures.site_name`, the one table the
findings name sites from too)."""

from __future__ import annotations

from hhtool.replay.structures import site_name

#: the rule profiles that are no site's, as a sentence names them ("correct under Robert's Rules")
RULEBOOK_NAMES: dict[str, str] = {
    "default": "the rules document's defaults", "robert": "Robert's Rules of Poker", "wsop": "the WSOP rules",
    "pokerkit": "PokerKit's rules", "spanish": "the Spanish rules",
}


def site_in_words(site: str) -> str:
    """``PokerStars`` for ``pokerstars``; a site without a structures file as it is named."""
    return site_name(site)


def rules_in_words(profile: str) -> str:
    """The rules a profile stands for, as a sentence names them: "the rules of PokerStars",
    "Robert's Rules of Poker"; a profile of the user's own: "the rules of NAME"."""
    if profile in RULEBOOK_NAMES:
        return RULEBOOK_NAMES[profile]
    return f"the rules of {site_in_words(profile)}"


__all__ = ["RULEBOOK_NAMES", "rules_in_words", "site_in_words"]
