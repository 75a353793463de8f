"""The dispute report as JSON: the :class:`~.model.Report` fields as keys (documented in
docs/dispute-report.md), money as ``{"amount": <smallest units>, "text": "$0.63"}``."""

from __future__ import annotations

import dataclasses
from typing import Any

from hhtool.reports.dispute.answer import pot_sentences
from hhtool.reports.dispute.model import Report
from hhtool.reports.json_safe import dumps

#: bumped when a key is renamed or removed (adding keys keeps the version)
FORMAT_VERSION = 1


def _objects(value: Any) -> Any:
    """Pairs as objects: ``parameters`` as {name: value}, ``winning_cards`` as [{player, cards}]."""
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, item in value.items():
            if key in ("parameters", "learnt_from"):
                out[key] = {name: setting for name, setting in item}
            elif key == "winning_cards":
                out[key] = [{"player": player, "cards": list(cards)} for player, cards in item]
            else:
                out[key] = _objects(item)
        return out
    if isinstance(value, list | tuple):
        return [_objects(item) for item in value]
    return value


def report_dict(report: Report) -> dict[str, Any]:
    return {"format_version": FORMAT_VERSION, **_objects(dataclasses.asdict(report)), "summary": list(pot_sentences(report))}


def render_json(report: Report) -> str:
    return dumps(report_dict(report), indent=2) + "\n"
