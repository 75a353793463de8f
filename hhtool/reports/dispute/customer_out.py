"""The player's copy (:class:`~.customer.CustomerCopy`) as text, JSON and one web page: the answer
first, the rules in plain words, the departures the answer does not state, what could not be
checked, then the hand, the pots and the awards as the desk's report draws them, without its file,
lines, rule numbers and profile keys."""

from __future__ import annotations

import dataclasses
from typing import Any

from hhtool.reports.dispute.customer import CustomerCopy
from hhtool.reports.dispute.html import _e, award_sections, page, players_section, pots_section, streets_section
from hhtool.reports.dispute.json_out import FORMAT_VERSION
from hhtool.reports.dispute.replayer import replayer_fragment
from hhtool.reports.dispute.text import _wrap, award_lines, player_lines, pot_lines, street_lines
from hhtool.reports.json_safe import dumps
from hhtool.reports.site_words import site_in_words

#: the rules' list: each title in bold, its words under it
STYLE = ("\n#rules dl { margin: 0; } #rules dt { font-weight: 600; margin-top: 10px; }"
         " #rules dd { margin: 2px 0 0 14px; } #rules dd .meta { display: block; margin-top: 2px; }\n")
#: what the player reads above the rules, and where a card is hidden
RULES_HEADING = "The rules this answer rests on"
HIDDEN_WORDS = "Hole cards that were never shown are hidden"
#: where the answer ends and the details it rests on begin
DETAILS_HEADING = "The details: the rules, the hand street by street, the pots"


def _practice(words: str) -> str:
    return f"Practice: {words}."


def _reading(words: str) -> str:
    """A choice the rules leave open, applied where the site's own practice is not yet known."""
    return f"Reading applied (the rules leave this open): {words}."


def _practice_source(copy: CustomerCopy) -> str:
    """Where the practices come from, said once above the rules."""
    if not copy.practice_of or not any(rule.practice for rule in copy.rules):
        return ""
    return f"Where a rule leaves the choice to the site, the practice applied: {copy.practice_of}."


def _rule_names(titles: tuple[str, ...]) -> str:
    return ("rule: " if len(titles) == 1 else "rules: ") + "; ".join(titles)


def _hand_words(copy: CustomerCopy) -> list[str]:
    report = copy.report
    when = ", ".join(part for part in (f"table {report.table}" if report.table else "", report.started_at or "")
                     if part)
    return [f"Hand {site_in_words(report.site)} #{report.hand_id}: {report.game}", *([when] if when else []),
            f"Stakes: {report.stakes}"]


def render_text(copy: CustomerCopy) -> str:
    out: list[str] = []
    if copy.addressed_to is not None:
        out += _wrap(f"To {copy.addressed_to}, about your hand:")
    # the answer, one screen: the verdict; each pot's halves and whose hand took them, the rules' award
    # beside the site's; (addressed) what his own hand did
    for sentence in copy.answer:
        out += _wrap(sentence)
    out.append("")
    for sentence in (*copy.summary, *copy.to_him):
        out += _wrap(sentence)
    out.append("")
    for line in _hand_words(copy):
        out += _wrap(line)
    if copy.departures:
        out += ["", "The hand also departs from the rules:"]
        for departure in copy.departures:
            out += _wrap(f"- {departure.words}", "    ", "  ")
            if departure.rules:
                out += _wrap(f"({_rule_names(departure.rules)})", "    ")
    if copy.not_verified:
        out += ["", "What could not be checked:"]
        for words in copy.not_verified:
            out += _wrap(f"- {words}", "    ", "  ")
    if copy.assumed:
        out += ["", "Taken from the hand itself (the history does not state it):"]
        for words in copy.assumed:
            out += _wrap(f"- {words}", "    ", "  ")
    out += ["", DETAILS_HEADING]
    if copy.rules:
        out += ["", f"{RULES_HEADING}:"]
        if _practice_source(copy):
            out += _wrap(_practice_source(copy), "  ")
        for rule in copy.rules:
            out.append(f"  {rule.title}")
            out += _wrap(rule.sentence, "    ")
            for words in rule.practice:
                out += _wrap(_practice(words), "      ", "    ")
            for words in rule.readings:
                out += _wrap(_reading(words), "      ", "    ")
    out += ["", "The hand, street by street:"]
    out += street_lines(copy.report, with_lines=False)
    out += ["", "Players and their cards" + (f" ({HIDDEN_WORDS.lower()}: ??):" if copy.hidden_players else ":")]
    out += player_lines(copy.report)
    out += pot_lines(copy.report)
    out += award_lines(copy.report)
    return "\n".join(out) + "\n"


def _without_lines(value: Any) -> Any:
    """The value with every ``line`` key left out (the history's lines are the desk's)."""
    if isinstance(value, dict):
        return {key: _without_lines(item) for key, item in value.items() if key != "line"}
    if isinstance(value, list | tuple):
        return [_without_lines(item) for item in value]
    return value


def copy_dict(copy: CustomerCopy) -> dict[str, Any]:
    report = copy.report
    whole = dataclasses.asdict(report)
    pots = whole["pots"]
    for pot in pots:
        for half in pot["halves"]:
            half["winning_cards"] = [{"player": player, "cards": list(cards)} for player, cards in half["winning_cards"]]
    return {
        "format_version": FORMAT_VERSION, "form": "player",
        "site": report.site, "hand_id": report.hand_id, "game": report.game, "table": report.table,
        "started_at": report.started_at, "stakes": report.stakes, "verdict": report.verdict,
        "answer": list(copy.answer), "summary": list(copy.summary), "addressed_to": copy.addressed_to,
        "to_him": list(copy.to_him), "mucked": None if copy.mucked is None else dataclasses.asdict(copy.mucked),
        "misawarded": whole["misawarded"],
        "rules": [dataclasses.asdict(rule) for rule in copy.rules], "practice_of": copy.practice_of,
        "departures": [dataclasses.asdict(departure) for departure in copy.departures],
        "not_verified": list(copy.not_verified), "assumptions": list(copy.assumed),
        "hole_cards_hidden_for": list(copy.hidden_players),
        "streets": _without_lines(whole["streets"]), "players": whole["players"], "pots": pots,
        "rake": whole["rake"], "rake_words": report.rake_words, "awards": whole["awards"], "returns": whole["returns"],
    }


def render_json(copy: CustomerCopy) -> str:
    return dumps(copy_dict(copy), indent=2) + "\n"


def render_html(copy: CustomerCopy) -> str:
    report = copy.report
    title = f"Hand {site_in_words(report.site)} #{report.hand_id} — your dispute"
    body = [f'<section><h1>{_e(title)}</h1><div id="verdict" class="verdict {_e(report.verdict)}">'
            + "".join(f"<p>{_e(s)}</p>" for s in copy.answer) + "</div>"
            + "".join(f'<p class="summary">{_e(s)}</p>' for s in (*copy.summary, *copy.to_him))
            + '<p class="meta">' + "<br>".join([_e(report.game), *(_e(line) for line in _hand_words(copy)[1:])])
            + "</p></section>"]
    if copy.departures:
        items = "".join(f"<li>{_e(d.words)}" + (f'<br><span class="meta">{_e(_rule_names(d.rules))}</span>'
                                                 if d.rules else "") + "</li>" for d in copy.departures)
        body.append(f'<section id="departures"><h2>The hand also departs from the rules</h2><ul>{items}</ul></section>')
    if copy.not_verified:
        items = "".join(f"<li>{_e(words)}</li>" for words in copy.not_verified)
        body.append(f'<section id="not-verified"><h2>What could not be checked</h2><ul>{items}</ul></section>')
    if copy.assumed:
        items = "".join(f"<li>{_e(words)}</li>" for words in copy.assumed)
        body.append('<section id="assumptions"><h2>Taken from the hand itself (the history does not state it)</h2>'
                    f"<ul>{items}</ul></section>")
    if copy.rules:  # (after the assumptions, as in the text copy)
        items = "".join(f"<dt>{_e(rule.title)}</dt><dd>{_e(rule.sentence)}"
                        + "".join(f'<span class="meta">{_e(_practice(words))}</span>' for words in rule.practice)
                        + "".join(f'<span class="meta">{_e(_reading(words))}</span>' for words in rule.readings)
                        + "</dd>" for rule in copy.rules)
        source = f'<p class="meta">{_e(_practice_source(copy))}</p>' if _practice_source(copy) else ""
        body.append(f'<section id="rules"><h2>{_e(RULES_HEADING)}</h2>{source}<dl>{items}</dl></section>')
    # the copy's own report: the hole cards it hides are card backs in the replayer too, to the end
    body.append(replayer_fragment(report))
    body.append(streets_section(report, with_lines=False))
    players = players_section(report)
    if copy.hidden_players:
        players = players.replace("</h2>", f'</h2><p class="meta" id="hidden-note">{_e(HIDDEN_WORDS)}.</p>', 1)
    body.append(players)
    body.append(pots_section(report))
    body += award_sections(report)
    return page(title, body, STYLE)
