"""The dispute report as plain text that fits an 80-column terminal or an e-mail."""

from __future__ import annotations

import textwrap

from hhtool.reports.dispute.answer import learnt, pot_sentences
from hhtool.reports.dispute.model import AwardRow, ContenderView, DealView, Finding, Report, in_history_order
from hhtool.reports.dispute.rules import rule_words
from hhtool.reports.site_words import site_in_words

WIDTH = 80


def _wrap(text: str, indent: str = "", first: str | None = None) -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=indent if first is None else first, subsequent_indent=indent,
                         break_long_words=False, break_on_hyphens=False) or [first or indent]


def _cards(cards: tuple[str | None, ...]) -> str:
    return " ".join("??" if card is None else card for card in cards)


def _contender(c: ContenderView) -> list[str]:
    lines = _wrap(f"{c.player}: seven cards {_cards(c.seven) or 'not known'}", "      ", "    ")
    if c.standing:
        return lines + _wrap(c.standing, "      ")
    if c.high:
        lines += _wrap(f"high: {c.high.words} [{_cards(c.high.cards)}]", "        ", "      ")
    lines += _wrap(f"low: {c.low.words} [{_cards(c.low.cards)}]" if c.low else "low: none (no five different ranks "
                   "8 or lower)", "        ", "      ")
    return lines


def _finding(f: Finding) -> list[str]:
    lines = _wrap(f"- {f.message}", "    ", "  ")
    if f.cited:
        lines += [f"    Line {f.cited.line} of", f"      {f.cited.file}"]
    rules = rule_words(f.rules)
    lines += _wrap(f"Rule: {rules}; checked: {f.topic}." if rules else f"Checked: {f.topic}.", "    ")
    if f.expected or f.actual:
        lines += _wrap(f"The rules expect {f.expected or 'nothing'}; the history has {f.actual or 'nothing'}.", "    ")
    if f.parameters:
        lines += _wrap("Profile parameters: " + ", ".join(f"{k} = {v}" for k, v in f.parameters) + ".", "    ")
    return lines


def _rules_beside_site(heading: str, rows: tuple[AwardRow, ...]) -> list[str]:
    """A table of the rules beside the site per player, or a line per player where names are too long."""
    width = max([len(row.player) for row in rows] + [6])
    if width + 44 <= WIDTH:
        return [heading, f"  {'Player':<{width}}  {'Rules':>10}  {'Site':>10}  {'Site-rules':>11}"] + [
            f"  {row.player:<{width}}  {row.rules.text:>10}  {row.site.text:>10}  {row.difference.text:>11}"
            for row in rows]
    return [heading] + [line for row in rows for line in _wrap(
        f"{row.player}: rules {row.rules.text}, site {row.site.text}, difference {row.difference.text}", "    ", "  ")]


def render_text(report: Report) -> str:
    out: list[str] = []
    for sentence in report.headline:
        out += _wrap(sentence)
    out.append("")
    for sentence in pot_sentences(report):
        out += _wrap(sentence)
    out.append("")
    out += _wrap(f"Hand {site_in_words(report.site)} #{report.hand_id}: {report.game}")
    if report.table or report.started_at:
        out += _wrap(", ".join(part for part in (f"table {report.table}" if report.table else "",
                                                   report.started_at or "") if part))
    out.append(f"Source: lines {report.source.line}-{report.last_line} of")
    out.append(f"  {report.source.file}")
    out += _wrap(f"Stakes: {report.stakes}")
    out += _wrap(f"where from: {report.stakes_source}", "    ", "  ")
    out += _wrap(f"Rules profile: {report.profile.name}. Verdict: {report.verdict}.")
    out += _wrap(f"chosen by {report.profile.chosen_by}" + (f"; {report.profile.source}" if report.profile.source else ""),
                 "    ", "  ")
    if report.profile.parameters:
        out += _wrap("parameters that mattered: " + ", ".join(f"{k} = {v}{learnt(report.profile, k)}"
                                                             for k, v in report.profile.parameters),
                     "    ", "  ")
    forced = [n for n in report.context if n.source != "stated by the site"]
    if forced:
        out += ["", "Forced bets the site does not state, and where they were learnt:"]
        for bet in forced:
            amount = bet.amount.text if bet.amount else "not known"
            out += _wrap(f"{bet.what} {amount}: {bet.source}" + (f"; {bet.detail}" if bet.detail else ""), "    ",
                         "  ")
    out += ["", "The hand, street by street:"]
    out += street_lines(report, with_lines=True)
    out += ["", "Players and their cards:"]
    out += player_lines(report)
    out += pot_lines(report)
    out += award_lines(report)
    violations = [f for f in report.findings if f.kind == "violation"]
    unverifiable = [f for f in report.findings if f.kind == "unverifiable"]
    if violations:
        out += ["", "Departures from the rules:"]
        for f in violations:
            out += _finding(f)
    if unverifiable:
        out += ["", "Could not be verified:"]
        for f in unverifiable:
            out += _finding(f)
    if report.assumptions:
        out += ["", "Assumed (no source states them; the hand is judged with them):"]
        for assumed in report.assumptions:
            out += _wrap(f"- {assumed.words}", "    ", "  ")
    for number, copy in enumerate(report.copies, 1):
        out += ["", f"Another copy of this hand ({number} of {len(report.copies)}) differs by {copy.kind}:"]
        out.append(f"  stored copy (left), lines {copy.stored.first_line}-{copy.stored.last_line} of")
        out.append(f"    {copy.stored.file}")
        out.append(f"  other copy (right), lines {copy.other.first_line}-{copy.other.last_line} of "
                   f"{copy.other.site} hand {copy.other.hand_id}"[:WIDTH])
        out.append(f"    {copy.other.file}")
        out += _wrap(f"what differs: {copy.difference}", "    ", "  ")
        half = (WIDTH - 5) // 2
        left, right = copy.stored.lines, copy.other.lines
        for index in range(max(len(left), len(right))):
            a = left[index] if index < len(left) else ""
            b = right[index] if index < len(right) else ""
            mark = "|" if a == b else "*"
            out.append(f"  {a[:half]:<{half}} {mark} {b[:half]}".rstrip())
            if a != b:  # a differing line in full, each copy's below the other
                out += _wrap(f"stored: {a}", "              ", "      * ")
                out += _wrap(f"other:  {b}", "              ", "        ")
    return "\n".join(out) + "\n"


def street_lines(report: Report, with_lines: bool) -> list[str]:
    """The hand street by street, in the history's order; ``with_lines``: each with its line."""
    out: list[str] = []
    for street in report.streets:
        out.append(f"  {street.label.capitalize()}")
        for event in in_history_order(street):
            where = f" (line {event.line})" if with_lines else ""
            if isinstance(event, DealView):
                shown = " ".join(filter(None, (f"down {_cards(event.down)}" if event.down else "",
                                               f"up {_cards(event.up)}" if event.up else "")))
                out += _wrap(f"{event.player} gets {shown}{where}", "        ", "    ")
            else:
                out += _wrap(f"{event.player} {event.words}; pot {event.pot_after.text}{where}", "        ", "    ")
    return out


def player_lines(report: Report) -> list[str]:
    out: list[str] = []
    for player in report.players:
        stack = f", stack {player.stack.text}" if player.stack else ""
        out += _wrap(f"Seat {player.seat} {player.player}{stack}: put in {player.put_in.text}, {player.status}",
                     "      ", "  ")
        out += _wrap(f"cards: {_cards(player.cards) or 'none known'}", "      ", "    ")
    return out


def pot_lines(report: Report) -> list[str]:
    """The rake, then each pot: who could win it, each contender's five, the halves, the site's payment."""
    out = [""]
    out += _wrap(f"Rake and fees: {report.rake.text} ({report.rake_words}).", "  ")
    for pot in report.pots:
        out.append("")
        rake = f", rake {pot.rake.text}, {pot.net.text} to award" if pot.rake.amount else ""
        out += _wrap(f"{pot.name.capitalize()}: {pot.amount.text}{rake}")
        out += _wrap(f"Eligible: {', '.join(pot.eligible) or 'nobody'}", "    ", "  ")
        for contender in pot.contenders:
            out += _contender(contender)
        if not pot.decided:
            out += _wrap("Not decided: the history hides cards the decision needs.", "    ", "  ")
        for part in pot.halves:
            name = "Whole pot" if part.name == "whole" else f"{part.name.capitalize()} half"
            winners = ", ".join(f"{w.player} {w.amount.text}" for w in part.winners) or "nobody"
            out += _wrap(f"{name} {part.amount.text}: {winners}", "    ", "  ")
        for note in pot.odd_units:
            out += _wrap(f"Odd units: {note}" if note.startswith(("odd", "tied")) else note, "    ", "  ")
        if pot.site_paid is not None:
            paid = ", ".join(f"{s.player} {s.amount.text}" for s in pot.site_paid) or "nobody"
            out += _wrap(f"The site paid: {paid}", "    ", "  ")
    return out


def award_lines(report: Report) -> list[str]:
    """The rules' award beside the site's per player, and the uncalled bets returned where one differs."""
    out = [""]
    if report.awards:
        out += _rules_beside_site("Award per player (the rules beside the site; difference = site - rules):",
                                  report.awards)
    else:
        out.append("Award per player: the rules cannot decide every pot (see above).")
    if any(row.difference.amount for row in report.returns):
        out.append("")
        out += _rules_beside_site("Uncalled bets returned (the rules beside the site; difference = site - rules):",
                                  report.returns)
    return out
