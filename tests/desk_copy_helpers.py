"""Shared by the customer-copy tests: a hand where a player folds without showing his hole cards."""

from __future__ import annotations

from pathlib import Path

from tests.dispute_helpers import SAMPLE, imported

#: the handwritten sample's first hand: Hero, dealt [7c 3s 5h], folds on 4th street without showing
HIDDEN_HAND = "900000000001"


def hidden_hand_store(tmp_path: Path) -> str:
    text = SAMPLE.read_text()
    db, _ = imported(tmp_path, text[:text.index("PokerStars Hand #200")])
    return db
