"""The facts of a hand's money and showdown for :mod:`hhtool.store.facts_rows`: each player's share of the rake
(the facts query's ``rake_floor`` and ``rake_share``) and, for the players who went to showdown, which halves
of the main pot they won (``shown`` … ``outcome``), as the SQL of :mod:`hhtool.store.player_facts` defines them.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from hhtool.model import Half, Hand, ShowStatus
from hhtool.store.player_facts import evaluate_cards

#: (high, low) of a showdown card string the facts can judge, else None (one evaluation per string)
_card_values = cache(evaluate_cards)


def rake_shares(hand: Hand, seated: set[str], put_in: dict[str, int], collected: dict[str, int]) -> dict[str, int]:
    """``rake_floor`` and ``rake_share``: the rake shared pro rata of what each collected, the units left
    by rounding down to the largest remainders (then by name), one each."""
    paid = [(player, collected.get(player, 0)) for player in hand.players if collected.get(player, 0) > 0]
    if not paid:
        return {}
    if hand.rake is not None:
        rake_total = hand.rake + hand.fees
    else:
        rake_total = max(0, sum(put_in.get(p, 0) for p in hand.players) - sum(collected.get(p, 0) for p in hand.players))
    pot = sum(amount for _, amount in paid)
    shares = [(player, *_div_mod(rake_total * amount, pot)) for player, amount in paid]
    left = rake_total - sum(base for _, base, _ in shares)
    paid_by: dict[str, int] = {}
    for place, (player, base, _) in enumerate(sorted(shares, key=lambda share: (-share[2], share[0])), 1):
        paid_by[player] = paid_by.get(player, 0) + base + (1 if place <= left else 0)
    return paid_by


def _div_mod(numerator: int, denominator: int) -> tuple[int, int]:
    """DuckDB's integer ``//`` (truncated toward zero) and ``%`` (the sign of the numerator)."""
    quotient = abs(numerator) // abs(denominator)
    if (numerator >= 0) != (denominator > 0):
        quotient = -quotient
    return quotient, numerator - denominator * quotient


def outcomes(hand: Hand, contenders: list[str], collected: dict[str, int], seated: set[str],
              shown_texts: tuple[list[str | None], int, str | None]) -> dict[str, tuple[str | None, str, bool, bool]]:
    """``shown`` … ``outcome``: per player who went to showdown, (where the halves come from, the
    result, ``low_qualified__o``, ``low_qualified__n``)."""
    texts, at, community = shown_texts
    shown: dict[str, list[Any]] = {}  # player -> [judged, known, high, low, has low text]
    for entry, text in zip(hand.showdown, texts[at:at + len(hand.showdown)], strict=True):
        if text is not None and community is not None and text.count(" ") == 5:
            text = f"{text} {community}"
        evaluated = _card_values(text) if text is not None else None
        values = shown.get(entry.player)
        if values is None:
            values = shown[entry.player] = [False, False, None, None, False]
        if evaluated is not None:
            high, low = evaluated
            values[0] = values[0] or entry.status is ShowStatus.SHOWN
            values[1] = True
            values[2] = high if values[2] is None else max(values[2], high)
            if low is not None:
                values[3] = low if values[3] is None else max(values[3], low)
        if entry.low_text is not None:
            values[4] = True
    blank = [False, False, None, None, False]
    rows = [(player, collected.get(player, 0) if player in seated else 0, *shown.get(player, blank))
            for player in contenders]
    decidable = all(judged or got == 0 for _, got, judged, *_ in rows)
    best_high = max((r[4] for r in rows if r[2] and r[4] is not None), default=None)
    best_low = max((r[5] for r in rows if r[2] and r[5] is not None), default=None)
    high_ties = sum(1 for r in rows if r[2] and r[4] is not None and r[4] == best_high)
    low_ties = sum(1 for r in rows if r[2] and r[5] is not None and r[5] == best_low)
    main = [(award.player, award.half) for award in hand.awards if not award.pot]
    labelled = bool(main) and all(half is not Half.UNKNOWN for _, half in main)
    label_high = len({player for player, half in main if half in (Half.HIGH, Half.WHOLE)})
    label_low = len({player for player, half in main if half is Half.LOW})
    source = "label" if labelled else "cards" if decidable else None
    decided: dict[str, tuple[str | None, str, bool, bool]] = {}
    for player, _, judged, known, high, low, has_low_text in rows:
        if labelled:
            got_high = any(p == player and half in (Half.HIGH, Half.WHOLE) for p, half in main)
            got_low = any(p == player and half is Half.LOW for p, half in main)
            high_half = ("W" if label_high == 1 else "T") if got_high else "L"
            low_half = "N" if label_low == 0 else ("W" if label_low == 1 else "T") if got_low else "L"
        else:
            high_half = ("W" if high_ties == 1 else "T") if judged and high is not None and high == best_high else "L"
            low_half = ("N" if best_low is None else ("W" if low_ties == 1 else "T")
                        if judged and low is not None and low == best_low else "L")
        decided[player] = (source, _result(source, high_half, low_half), has_low_text or known,
                           has_low_text or low is not None)
    return decided


def _result(source: str | None, high: str, low: str) -> str:
    """The ``outcome`` CTE's result of a contender's halves."""
    if source is None:
        return "unknown"
    if high == "W" and low in ("W", "N"):
        return "scoop"
    if high == "W" and low == "L":
        return "high_only"
    if high == "L" and low == "W":
        return "low_only"
    if (high, low) in (("T", "L"), ("L", "T")):
        return "quartered"
    if high == "L" and low in ("L", "N"):
        return "lost"
    return "split"
