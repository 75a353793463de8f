"""Judging a stored hand: the profile chosen by the one rule (:func:`hhtool.replay.profile_for`, the
origin site of a converted history included), the replay under it, and the dispute view; used by
`show`, `audit --explain` and `audit --rules`."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hhtool.service.errors import CannotWrite, UsageError
from hhtool.service.importing import check_rules
from hhtool.service.stores import Database
from hhtool.store import Store
from hhtool.store.filters import HandFilter
from hhtool.store.load import load_hands

if TYPE_CHECKING:
    from hhtool.model import Hand
    from hhtool.replay import ChosenProfile, ReplayResult, RuleProfile
    from hhtool.replay.user_structures import UserStructures
    from hhtool.reports.dispute import Report

#: hands replayed again under --rules per transaction
REREPLAY_BATCH = 2000


def judge(hand: Hand, rules: str | RuleProfile | None = None,
          desk: UserStructures | None = None) -> tuple[ChosenProfile, ReplayResult]:
    """The profile that judges ``hand`` (``rules`` when the user gave one, else its site's) and its replay
    (with ``desk``, the user's structures file: its rake schedule judges the rake)."""
    from hhtool.replay import profile_for, replay

    chosen = profile_for(hand, rules, desk)
    return chosen, replay(hand, chosen)


def stored_hands(store: Store, hand_filter: HandFilter) -> Iterator[Hand]:
    where, params = hand_filter.sql()
    return load_hands(store, where, params)


def the_stored_hand(store: Store, hand_id: str, site: str | None) -> Hand:
    """The one stored hand with this id (on ``site``); UsageError when none is stored, or when several
    sites share the id (the message names them: add --site)."""
    hands = list(stored_hands(store, HandFilter(sites=(site.lower(),) if site else (), hand_id=hand_id)))
    if not hands:
        raise UsageError(f"no stored hand {hand_id!r}" + (f" on {site}" if site else ""))
    if len(hands) > 1:  # (stored_hands orders them by site)
        raise UsageError(f"hand {hand_id!r} exists on {', '.join(h.site for h in hands)}; add --site")
    return hands[0]


@dataclass(frozen=True)
class ShownHand:
    """A stored hand as `show` describes it (plain data, also its JSON, naming the profile that
    judged it), with the hand for rendering."""

    hand: Hand
    described: dict[str, Any]


def show_hand(database: Database, hand_id: str, site: str | None, rules: str | None, hide_hole: bool,
              desk: UserStructures | None = None) -> ShownHand:
    """The one stored hand with this id (UsageError when there is none, or one on several sites),
    replayed under ``rules`` or its own profile (and judged again with ``desk``, the user's structures file)."""
    from hhtool.reports.dispute import judgement_of, stored_facts
    from hhtool.reports.dispute.stored import with_judged_stakes
    from hhtool.reports.show import describe_hand

    check_rules(rules)  # a wrong --rules is a usage error, before the store is opened
    with database.open(read_only=True) as store:
        hand = the_stored_hand(store, hand_id, site)
        chosen, result = judge(hand, rules, desk)
        facts = stored_facts(store, hand, chosen.name, desk)
    # the judgement of record, as `audit --explain` and the web page read it (the replay only draws the hand)
    result = judgement_of(hand, result, facts.judgement, bool(facts.copies), facts.cross_hand, chosen.profile)
    if facts.cross_hand is not None:  # judged in memory: the stakes as the pass judged them, with their sources
        hand = with_judged_stakes(hand, facts.cross_hand.values)
    described = {**describe_hand(hand, result, hide_hole), "profile": chosen.name}
    if not hide_hole:  # the equities read every live hand's down cards: none while they are hidden
        described["allin"] = _allin_view(hand, chosen.profile)
    return ShownHand(hand, described)


def show_page(database: Database, hand_id: str, site: str | None, rules: str | None, hide_hole: bool,
              desk: UserStructures | None = None) -> str:
    """`show --format html`: the one stored hand with this id as a page of its own holding the
    dispute page's replayer (judged as `show` judges it: ``rules`` or its own profile)."""
    from hhtool.replay import profile_for
    from hhtool.reports.dispute import report_of_stored_hand
    from hhtool.reports.dispute.replayer import allin_fragment
    from hhtool.reports.dispute.replayer_page import replayer_page

    check_rules(rules)
    with database.open(read_only=True) as store:
        hand = the_stored_hand(store, hand_id, site)
        chosen = profile_for(hand, rules, desk)
        report = report_of_stored_hand(store, hand, chosen, desk)
    allin = "" if hide_hole else allin_fragment(_allin_view(hand, chosen.profile), hand.stakes.unit,
                                                   hand.stakes.currency)
    return replayer_page(report, hide_hole, allin)


def allin_page_fragment(database: Database, hand_id: str, site: str | None) -> str:
    """The all-in section of the web hand page (its site's profile), "" for a hand with none."""
    from hhtool.replay import profile_for
    from hhtool.reports.dispute.replayer import allin_fragment

    with database.open(read_only=True) as store:
        hand = the_stored_hand(store, hand_id, site)
    return allin_fragment(_allin_view(hand, profile_for(hand).profile), hand.stakes.unit, hand.stakes.currency)


def _allin_view(hand: Hand, profile: RuleProfile) -> dict[str, Any]:
    from hhtool.equity.allin import allin_view

    return allin_view(hand, profile)


def explain_stored(store: Store, hand_id: str, site: str | None, rules: str | None,
                   desk: UserStructures | None = None) -> Report:
    """`audit --explain`: the dispute report of the one stored hand with this id (on ``site``), under
    ``rules`` or its own profile; UsageError when none is stored, or when several sites share the id."""
    from hhtool.replay import profile_for
    from hhtool.reports.dispute import report_of_stored_hand

    hand = the_stored_hand(store, hand_id, site)
    return report_of_stored_hand(store, hand, profile_for(hand, rules, desk), desk)


def write_dispute_pages(store: Store, directory: str, keys: Iterable[tuple[str, str]], rules: str | None,
                        desk: UserStructures | None = None) -> int:
    """`audit --report DIR`: one dispute page per hand of ``keys`` and an index (judged with ``desk``, the
    user's structures file, as `audit --explain` is); the pages written."""
    from hhtool.reports.dispute.pages import write_pages

    try:
        return write_pages(store, directory, keys, rules, desk)
    except OSError as error:
        raise CannotWrite(directory, error) from error


def rereplay(store: Store, rules: str, hand_filter: HandFilter, desk: UserStructures | None = None) -> str:
    """Judge the matching stored hands under another profile and store each whole judgement beside the
    others: the replay and the cross-hand pass (against their tables' other hands) complete it, and one
    transaction a batch stores it; the profile's name."""
    from hhtool.ingest.cross_hand import judge_batch
    from hhtool.replay import load_profile
    from hhtool.replay.judgement import profiles_with

    try:
        profile = load_profile(rules)
    except (KeyError, FileNotFoundError, ValueError) as error:
        raise UsageError(f"rule profile {rules!r}: {error}") from error
    def completed(hks: list[int]) -> int:
        return judge_batch(store, hks, desk, profile=profile.name, profiles=profiles_with(profile))

    batch: list[tuple[Any, Any, str]] = []
    for hand in stored_hands(store, hand_filter):
        chosen, result = judge(hand, profile, desk)
        batch.append((hand, result, chosen.name))
        if len(batch) >= REREPLAY_BATCH:
            store.replace_replay(batch, then=completed)
            batch = []
    if batch:
        store.replace_replay(batch, then=completed)
    return profile.name


def profile_catalog() -> list[tuple[str, str]]:
    """(name, where it comes from) of every built-in profile (``--rules list``)."""
    from hhtool.replay import profile_catalog as catalog

    return catalog()
