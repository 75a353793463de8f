"""The dispute report a floor supervisor can send to a player: one hand's verdict in plain words,
the hand street by street, the pots, the rules' award beside the site's and every finding with
its rule, as text, JSON or one self-contained web page (:mod:`.html`).

:func:`build_report` makes the typed :class:`~.model.Report`; :func:`report_of_stored_hand`
adds what the store knows (table context, conflicting copies)."""

from __future__ import annotations

from hhtool.model import Hand
from hhtool.replay.profiles import ChosenProfile
from hhtool.replay.user_structures import UserStructures
from hhtool.reports.choices import REPORT_FORMATS
from hhtool.reports.dispute.build import build_report
from hhtool.reports.dispute.customer import CustomerCopy, customer_copy
from hhtool.reports.dispute.model import Report
from hhtool.reports.dispute.stored import StoredFacts, judgement_of, stored_facts
from hhtool.reports.dispute.text import render_text
from hhtool.store import Store

#: the formats :func:`render` writes


def report_of_stored_hand(store: Store, hand: Hand, chosen: ChosenProfile, desk: UserStructures | None = None) -> Report:
    return build_report(hand, chosen, stored_facts(store, hand, chosen.name, desk))


__all__ = ["REPORT_FORMATS", "CustomerCopy", "Report", "StoredFacts", "build_report", "customer_copy", "judgement_of",
           "render",
           "render_text", "report_of_stored_hand", "stored_facts"]


def render(report: Report | CustomerCopy, report_format: str) -> str:
    """The report, the desk's or the player's copy, as ``text``, ``json`` or ``html``."""
    if isinstance(report, CustomerCopy):
        from hhtool.reports.dispute import customer_out

        return {"json": customer_out.render_json, "html": customer_out.render_html}.get(
            report_format, customer_out.render_text)(report)
    if report_format == "json":
        from hhtool.reports.dispute.json_out import render_json

        return render_json(report)
    if report_format == "html":
        from hhtool.reports.dispute.html import render_html

        return render_html(report)
    return render_text(report)
