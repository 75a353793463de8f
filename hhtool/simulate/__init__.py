"""Hand-history simulator: legal (or deliberately faulty) Stud Hi/Lo hands in a site's text format.

``dealer`` plays hands into :class:`hhtool.model.Hand` values, ``policy`` decides the players'
moves, ``faults`` breaks one rule in a chosen share of hands, ``writers`` print a hand as a site
would. Hand ``i`` depends only on the seed and ``i``, so a run is reproducible and any hand can be
regenerated alone; hands are written one at a time, so memory does not grow with the count.

>>> parse_amount("0.04", 100), parse_amount("1", 100), parse_rake("5%:3", 100), parse_rake("0", 100)
(4, 100, (500, 300), (0, 0))
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path

from hhtool.model import Half, ShowStatus, Street
from hhtool.simulate.dealer import Dealer, SimulatedHand, TableConfig
from hhtool.simulate.faults import FAULT_CODES, TABLE_CONTEXT_KINDS, faulty_hand
from hhtool.simulate.policy import POLICIES, Policy
from hhtool.simulate.writers import writer_for

__all__ = [
    "FAULT_CODES",
    "POLICIES",
    "Dealer",
    "SimulatedHand",
    "SimulationStats",
    "TableConfig",
    "features",
    "generate_hands",
    "parse_amount",
    "parse_rake",
    "sidecar_path",
    "simulate_to_file",
]


def parse_amount(text: str, unit: int) -> int:
    """A decimal amount ("0.04", "$1.25") in smallest units, exactly (never through float)."""
    try:
        value = Decimal(text.strip().lstrip("$€£")) * unit
    except InvalidOperation:
        raise ValueError(f"not an amount: {text!r}") from None
    if value != value.to_integral_value() or value < 0:
        raise ValueError(f"amount {text!r} is not a whole number of units")
    return int(value)


def parse_rake(text: str, unit: int) -> tuple[int, int]:
    """``"5%"``, ``"5%:3.00"`` (cap in money) or ``"0"`` -> (basis points, cap in units).
    The default cap is 3 currency units."""
    body = text.strip()
    if body in ("0", "0%", "none"):
        return 0, 0
    percent, _, cap = body.partition(":")
    try:
        basis_points = Decimal(percent.rstrip("%")) * 100
    except InvalidOperation:
        raise ValueError(f"not a rake: {text!r} (use e.g. 5%, 5%:3.00 or 0)") from None
    if basis_points != basis_points.to_integral_value() or not 0 <= basis_points <= 10_000:
        raise ValueError(f"rake percent out of range or too precise: {text!r}")
    return int(basis_points), parse_amount(cap, unit) if cap else 3 * unit


def sidecar_path(out: Path) -> Path:
    return out.with_name(out.name + ".faults.json")


def features(simulated: SimulatedHand) -> set[str]:
    """What a hand shows, for statistics and tests: all_in, side_pot, showdown, split, scoop,
    no_low, quartered, tied_high, community_card, uncontested, mucked, capped."""
    hand = simulated.hand
    found: set[str] = set()
    if any(action.all_in for action in hand.actions):
        found.add("all_in")
    if len(simulated.pot_amounts) > 1:
        found.add("side_pot")
    if hand.community_card is not None:
        found.add("community_card")
    if any(sum(1 for a in hand.actions if a.street is street and a.kind.is_aggressive) >= 4 for street in Street):
        found.add("capped")
    at_showdown = any(shown.status is not ShowStatus.NOT_SHOWN for shown in hand.showdown)
    if not at_showdown:
        found.add("uncontested")
        return found
    found.add("showdown")
    if any(shown.status is ShowStatus.MUCKED for shown in hand.showdown):
        found.add("mucked")
    halves: Counter[tuple[int | None, Half]] = Counter((award.pot, award.half) for award in hand.awards)
    if any(half is Half.LOW for _, half in halves):
        found.add("split")
    else:
        found.add("no_low")
    for pot in {award.pot for award in hand.awards}:
        in_pot = [award for award in hand.awards if award.pot == pot]
        if len({a.player for a in in_pot}) == 1 and any(a.half is Half.LOW for a in in_pot):
            found.add("scoop")
    if any(count > 1 and half is Half.LOW for (_, half), count in halves.items()):
        found.add("quartered")
    if any(count > 1 and half is not Half.LOW for (_, half), count in halves.items()):
        found.add("tied_high")
    return found


def generate_hands(
    config: TableConfig, policy: Policy, count: int, fault_rate: float = 0.0,
    fault_codes: Sequence[str] = FAULT_CODES,
) -> Iterator[SimulatedHand]:
    """``count`` hands, lazily. A share ``fault_rate`` of them carries one fault; the codes are
    taken in turn from ``fault_codes`` so every kind appears; a hand whose deals never allow the
    fault in its turn stays clean. A fault judged only against the table's other hands (a wrong
    bring-in below the small bet, a wrong ante) is dealt only while the hands before it that post
    the table's value outnumber, by two, those that do not: each one then has a table context
    that convicts it (a strict majority of the other hands); its turn passes to the next kind."""
    dealer = Dealer(config, policy)
    turn = 0
    tally = _ForcedBetVotes()
    for index in range(count):
        simulated = None
        if fault_rate > 0:
            rng = random.Random(f"hhtool-faults:{config.seed}:{index}")
            if rng.random() < fault_rate:
                code = fault_codes[turn % len(fault_codes)]
                for _ in range(len(fault_codes)):
                    if tally.allows(code):
                        break
                    turn += 1
                    code = fault_codes[turn % len(fault_codes)]
                turn += 1
                if tally.allows(code):
                    simulated = faulty_hand(dealer, index, code, rng)
        if simulated is None:
            simulated = dealer.play(index)
        tally.add(simulated, config)
        yield simulated


@dataclass
class _ForcedBetVotes:
    """How the hands so far vote on the table's bring-in and ante (as hhtool/replay/forced_bets.py
    counts them): a hand that posts the table's value agrees; a faulty post disagrees."""

    agree: Counter[str] = field(default_factory=Counter)
    disagree: Counter[str] = field(default_factory=Counter)

    def allows(self, kind: str) -> bool:
        bet = {"BRING_IN_AMOUNT:table": "bring_in", "ANTE": "ante"}.get(kind)
        return bet is None or self.agree[bet] > self.disagree[bet] + 1

    def add(self, simulated: SimulatedHand, config: TableConfig) -> None:
        kind = simulated.fault.kind or simulated.fault.code if simulated.fault is not None else ""
        for bet, amount in (("bring_in", config.bring_in), ("ante", config.ante)):
            posts = [a for a in simulated.hand.actions if a.kind.value == bet and not a.all_in]
            if kind in TABLE_CONTEXT_KINDS and (bet == "ante") == (kind == "ANTE"):
                self.disagree[bet] += 1
            elif posts and all(a.amount == amount for a in posts):
                self.agree[bet] += 1


@dataclass
class SimulationStats:
    hands: int = 0
    faults: Counter[str] = field(default_factory=Counter)
    features: Counter[str] = field(default_factory=Counter)


def simulate_to_file(
    out: Path, config: TableConfig, policy: Policy, count: int, fault_rate: float | None = None,
    fault_codes: Sequence[str] = FAULT_CODES,
) -> SimulationStats:
    """Write ``count`` hands to ``out`` one at a time; with ``fault_rate`` (even 0) also write the
    sidecar ``out.faults.json``: ``{hand_id: {"code", "street", "player", "detail"}}``."""
    writer = writer_for(config.site)
    stats = SimulationStats()
    sidecar = open(sidecar_path(out), "w", encoding="utf-8") if fault_rate is not None else None  # noqa: SIM115
    try:
        with open(out, "w", encoding="utf-8", newline="\n") as text:
            if sidecar is not None:
                sidecar.write("{")
            for simulated in generate_hands(config, policy, count, fault_rate or 0.0, fault_codes):
                text.write(writer.write(simulated))
                stats.hands += 1
                stats.features.update(features(simulated))
                fault = simulated.fault
                if fault is not None and sidecar is not None:
                    entry = {"code": fault.code, "street": fault.street, "player": fault.player, "detail": fault.detail,
                             "kind": fault.kind or fault.code}
                    separator = "\n" if not stats.faults else ",\n"
                    sidecar.write(f"{separator}{json.dumps(simulated.hand.hand_id)}: {json.dumps(entry)}")
                    stats.faults[fault.kind or fault.code] += 1
            if sidecar is not None:
                sidecar.write("\n}\n")
    finally:
        if sidecar is not None:
            sidecar.close()
    return stats
