"""Replay every Stud Hi/Lo hand of the shared corpus under its site's profile.

PokerStars is the reference: every hand must replay with no violation and nothing unverifiable.
Other sites' hands must replay with no violation either; what their histories hide (no rake line,
opponents' upcards) may only make checks unverifiable. Site-practice parameters this needed, each
justified by a real hand, live in the site profiles (profiles.py): Full Tilt takes the rake from
the main pot only (#29705138396); iPoker's per-player "win" includes the returned uncalled bet
(5710077134, 5710079903); Winning/ACR also rakes the main pot only (ACR #1903647457, outside the
corpus); PartyPoker prints no uncalled-bet line, its "wins" include it. No rules violation had to
be excused.
"""

from __future__ import annotations

import importlib.util

import pytest

from hhtool.ingest.reader import read_file
from hhtool.model import Hand
from hhtool.replay import profile_for_site, replay
from tests.inputs import require_corpus
from tests.replay_helpers import beyond_table_context

SITES = {
    "pokerstars": "PokerStars", "fulltilt": "FullTilt", "partypoker": "PartyPoker", "bovada": "Bovada",
    "kingsclub": "KingsClub", "merge": "Merge", "ongame": "OnGame", "absolute": "Absolute", "winamax": "Winamax",
    "winning": "Winning", "ipoker": "iPoker",
}  # fmt: skip

# Unverifiable checks a site's history format explains (never a violation).
ALLOWED_UNVERIFIABLE = {
    "partypoker": {"BRING_IN_PLAYER", "ACTION_ORDER", "POT_TOTAL"},  # opponents' upcards not printed; no rake line
    "bovada": {"POT_TOTAL"},  # "Total Pot($150)" without a rake line
    "merge": {"POT_TOTAL"},  # no rake in the XML
    "ipoker": {"POT_TOTAL"},  # only per-player bet/win totals
}


def corpus_hands(site: str) -> list[Hand]:
    folder = require_corpus(SITES[site])
    if importlib.util.find_spec(f"hhtool.sites.{site}") is None:
        pytest.skip(f"no {site} parser yet")
    from hhtool.sites import parser_for

    parser = parser_for(site)
    hands: list[Hand] = []
    for path in sorted(folder.iterdir()):
        if path.suffix in (".hp", ".json"):
            continue
        decoded = read_file(path)
        for raw in parser.split(decoded.lines, str(path)):
            outcome = parser.parse(raw)
            if isinstance(outcome, Hand):
                hands.append(outcome)
    return hands


def test_every_pokerstars_hand_replays_clean() -> None:
    hands = corpus_hands("pokerstars")
    assert len(hands) == 28  # 7 + the Cardtest copy + 1 + 1 + 18 home-game hands
    for hand in hands:
        result = replay(hand, profile_for_site("pokerstars"))
        assert result.violations == () and not beyond_table_context(result.unverifiable), (hand.hand_id, result)
        assert sum(a.rules_amount for a in result.awards) == sum(a.amount for a in hand.awards)


def test_pokerstars_split_gives_the_odd_cent_to_high() -> None:
    hand = next(h for h in corpus_hands("pokerstars") if h.hand_id == "35874576282")
    result = replay(hand, profile_for_site("pokerstars"))
    (pot,) = result.pots
    assert (pot.amount, pot.rake_share, pot.high_shares, pot.low_shares) == (76, 3, (("u.pressure", 37),), (("gashpor", 36),))
    swapped = replay(hand, profile_for_site("winning"))  # odd unit to low: the site's payout becomes a violation
    assert swapped.codes == ("POT_AWARD", "POT_AWARD")


@pytest.mark.parametrize("site", sorted(set(SITES) - {"pokerstars"}))
def test_other_sites_replay_without_violations(site: str) -> None:
    hands = corpus_hands(site)
    assert hands
    for hand in hands:
        result = replay(hand, profile_for_site(site))
        assert result.violations == (), (hand.hand_id, result.violations)
        unexpected = {u.check for u in beyond_table_context(result.unverifiable)} - ALLOWED_UNVERIFIABLE.get(site, set())
        assert not unexpected, (hand.hand_id, result.unverifiable)


def test_full_tilt_side_pot_rake_comes_from_the_main_pot() -> None:
    hand = next(h for h in corpus_hands("fulltilt") if h.hand_id == "29705138396")
    result = replay(hand, profile_for_site("fulltilt"))
    assert [(p.amount, p.rake_share) for p in result.pots] == [(8510, 300), (1000, 0)]
    assert result.pots[1].high_shares == (("Kilij", 500),) and result.pots[1].low_shares == (("allie3911", 500),)
    proportional = replay(hand, profile_for_site("pokerstars"))
    assert set(proportional.codes) == {"POT_AWARD"}
