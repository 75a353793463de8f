"""One hand's replayer as a page of its own (`hhtool show HAND_ID --format html`): the dispute
page's replayer (:func:`.replayer.replayer_fragment`), the hand's header and its result, with the
style sheet and the script inline (no network, no external font), readable on a phone; template
``dispute/replayer_page.html``."""

from __future__ import annotations

from hhtool.reports.dispute.html import page_values
from hhtool.reports.dispute.model import Report
from hhtool.reports.dispute.replayer import replayer_fragment
from hhtool.reports.site_words import site_in_words
from hhtool.reports.templating import render


def replayer_page(report: Report, hide_hole: bool = False, allin: str = "") -> str:
    """The page; ``allin``: the all-in section (:func:`.replayer.allin_fragment`), after the result."""
    title = f"Hand {site_in_words(report.site)} #{report.hand_id} — replay"
    meta = [report.game, f"table {report.table}" if report.table else "", report.started_at or "",
            f"stakes {report.stakes}"]
    awards = {row.player: row for row in report.awards}
    results = [(player, awards.get(player.player)) for player in report.players if player.status != "not dealt in"]
    return render("dispute/replayer_page.html", report=report, meta=meta, results=results,
                  replayer=replayer_fragment(report, hide_hole), allin=allin, **page_values(title))
