"""One hand's replayer as a page of its own (`hhtool show HAND_ID --format html`): the dispute
page's replayer (:func:`.replayer.replayer_fragment`), the hand's header and its result, with the
style sheet and the script inline (no network, no external font), readable on a phone."""

from __future__ import annotations

from html import escape

from hhtool.reports.dispute.assets import CSS, JS
from hhtool.reports.dispute.model import Report
from hhtool.reports.dispute.replayer import replayer_fragment
from hhtool.reports.printable import printable
from hhtool.reports.site_words import site_in_words


def _e(text: object) -> str:
    """History text as page text: escaped, its control characters "?" (as the replayer's names)."""
    return escape(printable(str(text)), quote=True)


def result_fragment(report: Report) -> str:
    """Who put in what, how each player ended, what the site paid and what the rules award."""
    awards = {row.player: row for row in report.awards}
    rows = []
    for player in report.players:
        if player.status == "not dealt in":
            continue
        award = awards.get(player.player)
        paid = award.site.text if award else ""
        rules = award.rules.text if award else ""
        rows.append(f"<tr><td>{_e(player.player)}</td><td>{_e(player.status)}</td>"
                    f'<td class="num">{_e(player.put_in.text)}</td><td class="num">{_e(paid)}</td>'
                    f'<td class="num">{_e(rules)}</td></tr>')
    verdict = "".join(f"<p>{_e(sentence)}</p>" for sentence in report.headline)
    return ('<section class="result"><h2>Result</h2><div class="scroll"><table id="result"><tr><th>Player</th>'
            '<th>Ended</th><th class="num">Put in</th><th class="num">Site paid</th>'
            f'<th class="num">Rules</th></tr>{"".join(rows)}</table></div>'
            f'<div id="verdict" class="verdict {_e(report.verdict)}">{verdict}</div></section>')


def replayer_page(report: Report, hide_hole: bool = False, allin: str = "") -> str:
    """The page; ``allin``: the all-in section (:func:`.replayer.allin_fragment`), after the result."""
    title = f"Hand {site_in_words(report.site)} #{report.hand_id} — replay"
    meta = [report.game, f"table {report.table}" if report.table else "", report.started_at or "",
            f"stakes {report.stakes}"]
    header = (f"<section><h1>{_e(title)}</h1><p class=\"meta\">"
              + " · ".join(_e(part) for part in meta if part) + "</p></section>")
    body = "\n".join((header, replayer_fragment(report, hide_hole), result_fragment(report), allin))
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
            "script-src 'unsafe-inline'; img-src data:\">"
            f"<title>{_e(title)}</title><style>{CSS}</style></head>\n<body><main>\n{body}\n</main>"
            f"<script>{JS}</script></body></html>\n")
