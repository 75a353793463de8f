"""The dispute report as one self-contained web page: inline style sheet and script, cards drawn
with CSS, no network access, readable on a phone, printable, with a replayer that steps through the
hand and marks the cards that won each half. Every text from the history is escaped."""

from __future__ import annotations

from html import escape

from hhtool.reports.dispute.answer import learnt, pot_sentences
from hhtool.reports.dispute.assets import CSS, JS
from hhtool.reports.dispute.model import AwardRow, DealView, Finding, PotView, Report, in_history_order
from hhtool.reports.dispute.replayer import replayer_fragment
from hhtool.reports.dispute.rules import rule_words
from hhtool.reports.site_words import site_in_words

_SUITS = {"c": "&#9827;", "d": "&#9830;", "h": "&#9829;", "s": "&#9824;"}


def _e(text: object) -> str:
    return escape(str(text), quote=True)


def card_html(card: str | None, won: tuple[str, ...] = ()) -> str:
    if card is None:
        return '<span class="card back" title="hidden card"></span>'
    rank, suit = card[:-1], card[-1]
    colour = "red" if suit in "hd" else "blk"
    marks = "".join(f" won-{half}" for half in won)
    return (f'<span class="card {colour}{marks}" data-card="{_e(card)}"><span>{_e("10" if rank == "T" else rank)}'
            f'</span><span class="suit">{_SUITS.get(suit, _e(suit))}</span></span>')


def _cards(cards: tuple[str | None, ...], won: dict[str, tuple[str, ...]] | None = None) -> str:
    return "".join(card_html(c, (won or {}).get(c or "", ())) for c in cards) or "none known"


def _pot(pot: PotView) -> str:
    won: dict[str, dict[str, list[str]]] = {}
    for half in pot.halves:
        for player, cards in half.winning_cards:
            for card in cards:
                won.setdefault(player, {}).setdefault(card, []).append("high" if half.name == "whole" else half.name)
    rake = f", rake {_e(pot.rake.text)}, {_e(pot.net.text)} to award" if pot.rake.amount else ""
    parts = [f'<div class="pot" id="pot-{pot.index}"><h3>{_e(pot.name.capitalize())}: {_e(pot.amount.text)}{rake}</h3>',
             f"<p>Eligible: {_e(', '.join(pot.eligible) or 'nobody')}</p>"]
    for c in pot.contenders:
        marks = {card: tuple(halves) for card, halves in won.get(c.player, {}).items()}
        line = f'<div class="contender"><b>{_e(c.player)}</b>: {_cards(c.seven, marks)}'
        if c.standing:
            line += f"<br>{_e(c.standing)}"
        else:
            high = f"high: {_e(c.high.words)}" if c.high else "high: none"
            low = f"low: {_e(c.low.words)}" if c.low else "low: none qualifies"
            line += f"<br>{high}; {low}"
        parts.append(line + "</div>")
    if not pot.decided:
        parts.append("<p>Not decided: the history hides cards the decision needs.</p>")
    if pot.halves:
        parts.append('<table class="halves"><tr><th>Half</th><th class="num">Amount</th><th>By the rules</th>'
                     "<th>Winning five</th></tr>")
        for half in pot.halves:
            fives = " ".join(f"{_e(p)}: {_cards(cards)}" for p, cards in half.winning_cards)
            winners = ", ".join(f"{_e(w.player)} {_e(w.amount.text)}" for w in half.winners)
            parts.append(f'<tr><td>{_e(half.name)}</td><td class="num">{_e(half.amount.text)}</td><td>{winners}</td>'
                         f"<td>{fives}</td></tr>")
        parts.append("</table>")
    parts += [f"<p>Odd units: {_e(note)}</p>" for note in pot.odd_units]
    if pot.site_paid is not None:
        paid = ", ".join(f"{_e(s.player)} {_e(s.amount.text)}" for s in pot.site_paid) or "nobody"
        parts.append(f"<p>The site paid: {paid}</p>")
    return "\n".join(parts) + "</div>"


def _finding(f: Finding) -> str:
    where = f" (line {f.cited.line} of {_e(f.cited.file)})" if f.cited else ""
    rules = rule_words(f.rules)
    extra = [f"Rule: {_e(rules)}; checked: {_e(f.topic)}." if rules else f"Checked: {_e(f.topic)}."]
    if f.expected or f.actual:
        extra.append(f"The rules expect {_e(f.expected or 'nothing')}; the history has {_e(f.actual or 'nothing')}.")
    if f.parameters:
        extra.append("Profile parameters: " + ", ".join(f"{_e(k)} = {_e(v)}" for k, v in f.parameters) + ".")
    return f"<li>{_e(f.message)}{where}<br><span class=\"meta\">{' '.join(extra)}</span></li>"


def _rules_beside_site(heading: str, table_id: str, rows: tuple[AwardRow, ...]) -> str:
    cells = "".join(
        f'<tr><td>{_e(r.player)}</td><td class="num">{_e(r.rules.text)}</td><td class="num">{_e(r.site.text)}</td>'
        f'<td class="num{" plus" if r.difference.amount else ""}">{_e(r.difference.text)}</td><td>{_e(r.words)}</td></tr>'
        for r in rows)
    return (f'<section><h2>{_e(heading)}</h2><table id="{_e(table_id)}"><tr><th>Player</th><th class="num">Rules</th>'
            '<th class="num">Site</th><th class="num">Site &minus; rules</th><th></th></tr>'
            f"{cells}</table></section>")


def render_html(report: Report) -> str:
    title = f"Hand {site_in_words(report.site)} #{report.hand_id} — dispute report"
    body: list[str] = []
    body.append(f'<section><h1>{_e(title)}</h1><div id="verdict" class="verdict {_e(report.verdict)}">'
                + "".join(f"<p>{_e(s)}</p>" for s in report.headline) + "</div>"
                + "".join(f'<p class="summary">{_e(s)}</p>' for s in pot_sentences(report)))
    meta = [f"{_e(report.game)}", f"table {_e(report.table)}" if report.table else "", _e(report.started_at or ""),
            f"source {_e(report.source.file)}, lines {report.source.line}-{report.last_line}",
            f"stakes {_e(report.stakes)} ({_e(report.stakes_source)})",
            f"rules profile {_e(report.profile.name)}, chosen by {_e(report.profile.chosen_by)}"
            + (f" ({_e(report.profile.source)})" if report.profile.source else "")]
    if report.profile.parameters:
        meta.append("parameters that mattered: " + ", ".join(f"{_e(k)} = {_e(v)}{_e(learnt(report.profile, k))}"
                                                             for k, v in report.profile.parameters))
    body.append('<p class="meta">' + "<br>".join(m for m in meta if m) + "</p></section>")
    body.append(replayer_fragment(report))
    body.append(streets_section(report, with_lines=True))
    body.append(players_section(report))
    notes = [n for n in report.context if n.source != "stated by the site"]
    if notes:
        items = "".join(f"<li>{_e(n.what)} {_e(n.amount.text if n.amount else 'not known')}: {_e(n.source)}"
                        + (f"; {_e(n.detail)}" if n.detail else "") + "</li>" for n in notes)
        body.append('<section id="context"><h2>Forced bets the site does not state, and where they were learnt</h2>'
                    f'<ul>{items}</ul></section>')
    body.append(pots_section(report))
    body += award_sections(report)
    for kind, heading in (("violation", "Departures from the rules"), ("unverifiable", "Could not be verified")):
        found = [f for f in report.findings if f.kind == kind]
        if found:
            body.append(f'<section class="findings {kind}"><h2>{heading}</h2><ul>{"".join(map(_finding, found))}</ul>'
                        "</section>")
    if report.assumptions:
        items = "".join(f"<li>{_e(assumed.words)}</li>" for assumed in report.assumptions)
        body.append('<section id="assumptions"><h2>Assumed (no source states them; the hand is judged with them)</h2>'
                    f"<ul>{items}</ul></section>")
    for number, copy in enumerate(report.copies, 1):
        def side(lines: tuple[str, ...], other: tuple[str, ...]) -> str:
            return "\n".join(f'<span class="diff">{_e(line)}</span>' if index >= len(other) or other[index] != line
                             else _e(line) for index, line in enumerate(lines))
        body.append(f'<section class="copy"><h2>Another copy of this hand ({number} of {len(report.copies)})</h2>'
                    f"<p>Differs by {_e(copy.kind)}: {_e(copy.difference)}</p><div class=\"copies\">"
                    f"<div><b>Stored copy</b><br><span class=\"meta\">{_e(copy.stored.file)} lines "
                    f"{copy.stored.first_line}-{copy.stored.last_line}</span><pre>{side(copy.stored.lines, copy.other.lines)}"
                    f"</pre></div><div><b>Other copy</b><br><span class=\"meta\">{_e(copy.other.file)} lines "
                    f"{copy.other.first_line}-{copy.other.last_line}</span><pre>{side(copy.other.lines, copy.stored.lines)}"
                    "</pre></div></div></section>")
    return page(title, body)


def streets_section(report: Report, with_lines: bool) -> str:
    """The hand street by street in the history's order (the antes before the deal); ``with_lines``:
    a column with each row's line of the history."""
    columns = 4 if with_lines else 3
    rows = []
    for street in report.streets:
        rows.append(f'<tr class="street"><th colspan="{columns}">{_e(street.label.capitalize())}</th></tr>')
        for event in in_history_order(street):
            line = f'<td class="num">{event.line}</td>' if with_lines else ""
            if isinstance(event, DealView):
                rows.append(f"<tr><td>{_e(event.player)}</td><td>dealt {_cards(event.down + event.up)}"
                            f'</td><td class="num"></td>{line}</tr>')
            else:
                rows.append(f"<tr><td>{_e(event.player)}</td><td>{_e(event.words)}</td>"
                            f'<td class="num">{_e(event.pot_after.text)}</td>{line}</tr>')
    heading = '<th class="num">Line</th>' if with_lines else ""
    return ('<section><h2>The hand, street by street</h2><table id="streets"><tr><th>Player</th>'
            f'<th>What happened</th><th class="num">Pot after</th>{heading}</tr>' + "".join(rows) + "</table></section>")


def players_section(report: Report) -> str:
    seats = "".join(f"<tr><td>{p.seat}</td><td>{_e(p.player)}</td><td>{_cards(p.cards)}</td>"
                    f'<td class="num">{_e(p.put_in.text)}</td><td>{_e(p.status)}</td></tr>' for p in report.players)
    return ('<section><h2>Players and their cards</h2><table id="players"><tr><th>Seat</th><th>Player</th>'
            f'<th>Cards</th><th class="num">Put in</th><th>Status</th></tr>{seats}</table></section>')


def pots_section(report: Report) -> str:
    return (f'<section><h2>Pots</h2><p>Rake and fees: {_e(report.rake.text)} ({_e(report.rake_words)}).</p>'
            f'<div class="pots">{"".join(_pot(p) for p in report.pots)}</div></section>')


def award_sections(report: Report) -> list[str]:
    """The rules' award beside the site's, and the uncalled bets returned where one differs."""
    sections = []
    if report.awards:
        sections.append(_rules_beside_site("Award per player", "awards", report.awards))
    else:
        sections.append('<section><h2>Award per player</h2><p id="awards">The rules cannot decide every pot.</p>'
                        "</section>")
    if any(row.difference.amount for row in report.returns):
        sections.append(_rules_beside_site("Uncalled bets returned", "returns", report.returns))
    return sections


def page(title: str, body: list[str], style: str = "") -> str:
    """The self-contained page: the sections (a replayer among them carries its own steps) and the
    script; ``style``: rules of its own after the common style sheet."""
    # a table wider than a phone scrolls inside its box, never the page
    page = "\n".join(body).replace("<table", '<div class="scroll"><table').replace("</table>", "</table></div>")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
            "script-src 'unsafe-inline'; img-src data:\">"
            f"<title>{_e(title)}</title><style>{CSS}{style}</style></head>\n<body><main>\n" + page
            + f"\n</main><script>{JS}</script></body></html>\n")
