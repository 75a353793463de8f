"""The model's values are immutable by convention (hhtool/model.py says why they are not frozen): nothing
downstream of a site's builder may change a hand. Every sample hand is built, fingerprinted (every field
of every value it holds, read through the dataclass fields: no hash involved), then replayed, explained,
tabulated, shown, reported on and exported; its fingerprint afterwards must be the same."""

from __future__ import annotations

import dataclasses
import pickle
from datetime import datetime
from enum import Enum

import pytest

from hhtool.ingest.reader import read_file
from hhtool.model import Action, ActionKind, Card, Hand, Seat, Street
from hhtool.replay import judged, profile_for
from hhtool.reports.dispute import render
from hhtool.reports.dispute.build import build_report
from hhtool.reports.phh_writer import hand_to_phh
from hhtool.reports.show import describe_hand, render_text
from hhtool.sites import detect
from hhtool.store.tables import hand_rows, replay_rows
from tests.inputs import SAMPLES


def fingerprint(value: object) -> object:
    """A nested tuple of everything ``value`` holds, with each object's type: two values have equal
    fingerprints exactly when they hold the same things (floats and sets never occur in the model)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__, tuple((field.name, fingerprint(getattr(value, field.name)))
                                            for field in dataclasses.fields(value)))
    if isinstance(value, tuple | list):
        return (type(value).__name__, tuple(fingerprint(item) for item in value))
    if isinstance(value, dict):
        return ("dict", tuple((fingerprint(key), fingerprint(item)) for key, item in value.items()))
    if isinstance(value, Enum):
        return (type(value).__name__, value.value)
    if value is None or isinstance(value, str | int | bool | datetime):
        return (type(value).__name__, repr(value))
    raise TypeError(f"the model holds a {type(value).__name__}: extend fingerprint() to cover it")


def sample_hands() -> list[Hand]:
    """Every hand of every sample history of every site."""
    hands: list[Hand] = []
    for path in sorted(p for p in SAMPLES.rglob("*") if p.is_file()):
        decoded = read_file(path)
        parser = detect(decoded.lines)
        if parser is None:
            continue
        hands += [outcome for raw in parser.split(decoded.lines, str(path)) if isinstance(outcome := parser.parse(raw), Hand)]
    return hands


def use_every_way(hand: Hand) -> None:
    """What the import, the audit and the reports do with a built hand."""
    chosen = profile_for(hand, None)
    state, result = judged(hand, chosen)
    hand_rows([(hand, result, chosen.name)], [result.betting])
    replay_rows([(hand, result, chosen.name)])
    render_text(describe_hand(hand, result), hand)
    render_text(describe_hand(hand, result, hide_hole=True), hand)
    report = build_report(hand, chosen, replayed=(state, result))
    for report_format in ("text", "json", "html"):
        render(report, report_format)
    hand_to_phh(hand)
    pickle.loads(pickle.dumps(hand))  # the pool sends hands between processes


def test_the_samples_cover_every_site() -> None:
    sites = {hand.site for hand in sample_hands()}
    assert len(sites) >= 10, sites


@pytest.mark.slow
def test_nothing_changes_a_hand_after_it_is_built() -> None:
    hands = sample_hands()
    before = [fingerprint(hand) for hand in hands]
    for hand in hands:
        use_every_way(hand)
    changed = [hand.hand_id for hand, print_before in zip(hands, before, strict=True) if fingerprint(hand) != print_before]
    assert not changed, f"these hands were changed after they were built: {changed[:10]}"


def test_the_fingerprint_sees_a_change_deep_inside_a_hand() -> None:
    """The check above can fail: a change to one action's amount, or one card of a deal, shows."""
    hand = next(hand for hand in sample_hands() if hand.actions and any(deal.up for deal in hand.deals))
    before = fingerprint(hand)
    action = hand.actions[-1]
    action.amount += 1
    assert fingerprint(hand) != before
    action.amount -= 1
    assert fingerprint(hand) == before
    deal = next(deal for deal in hand.deals if deal.up)
    deal.up = (Card.parse("2c"), *deal.up[1:]) if deal.up[0] != Card.parse("2c") else (Card.parse("3c"), *deal.up[1:])
    assert fingerprint(hand) != before


def test_model_values_compare_and_hash_by_value() -> None:
    """Not frozen, they still compare and hash as frozen dataclasses do, so sets and dict keys of them work."""
    first = Action(Street.FIFTH, "a", ActionKind.BET, 8, 8, False, 12)
    same = Action(Street.FIFTH, "a", ActionKind.BET, 8, 8, False, 12)
    other = dataclasses.replace(first, amount=16, to_amount=16)
    assert first == same and hash(first) == hash(same) and first != other
    assert len({first, same, other}) == 2
    assert {Seat(1, "a", 100): 1}[Seat(1, "a", 100)] == 1
    with pytest.raises(AttributeError):  # slotted: a misspelt field cannot be added
        first.amout = 3  # type: ignore[attr-defined]
    with pytest.raises(dataclasses.FrozenInstanceError):  # a card stays frozen: one value per spelling is shared
        Card.parse("Ah").rank = 2  # type: ignore[misc]
