"""The customer copy of a dispute report (`audit --explain ID --for player`): what a player can be
sent as it is. The answer first; each rule the answer and the departures rest on in plain words, with
the site's practice it applies; each departure once; no file, line, rule number or profile key; the
hole cards of players who never showed them hidden (unless the desk asks to show them).

It is made from the desk's :class:`~.model.Report`, so that both say the same thing in the same
sentences (the headline, the findings' messages, the pots)."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from hhtool.replay.codes import Code
from hhtool.replay.forced_bets import NO_SOURCE
from hhtool.reports.dispute.answer import addressed_sentences, evaluate_mucked, few_hands, pot_sentences
from hhtool.reports.dispute.model import (
    ContenderView,
    DealView,
    Finding,
    MuckedHand,
    PlayerView,
    PotView,
    Report,
    StreetView,
)
from hhtool.reports.dispute.rules import (
    PARAMETER_RULES,
    RULE_SENTENCES,
    RULE_TITLES,
    codes_rules,
    practice_words,
    topic_of,
)
from hhtool.reports.dispute.verdict import headline

#: the findings a misaward's answer states (the award, the showdown's winner, the uncalled bets returned):
#: where the answer names the money, they are one departure, not one each
SETTLEMENT_CODES = frozenset({Code.POT_AWARD.value, Code.SHOWDOWN.value, Code.UNCALLED_BET.value})
#: the findings about the history's record rather than the play (a fact stated twice, another copy of
#: the hand): the desk's business, not in the player's copy
RECORD_CODES = frozenset({Code.RESTATED.value, Code.CONFLICTING_COPY.value})
_LINE_IN_BRACKETS = re.compile(r" \((?:line|lines) \d+(?:, \d+)*\)")
_LINE = re.compile(r"\b(?:the )?(?:line|lines) \d+(?:, \d+)*")
#: the profile parameters that matter to the settlement of any hand with these pots (the others only
#: where a finding names them)
_SPLIT, _TIES, _SIDE_POTS, _RAKE = ("odd_unit_hi_lo",), ("odd_unit_tied_half", "tied_remainder"), \
    ("pots_formed_at",), ("rake_allocation",)


@dataclass(frozen=True, slots=True)
class RuleInWords:
    title: str  # "Pot splitting and odd chips"
    sentence: str  # the rule for a player
    practice: tuple[str, ...]  # the site's practice the rule leaves to it, as applied to this hand
    # the reading applied where the site's practice rests on a handful of hands (answer.FEW_HANDS) or
    # fewer: not presented as the site's
    readings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Departure:
    words: str
    rules: tuple[str, ...]  # the titles of the rules it departs from


@dataclass(frozen=True, slots=True)
class CustomerCopy:
    """The report a player can be sent. ``report`` is the desk's, with hole cards nobody showed
    hidden (unless ``hidden_shown``); the renderers draw the hand, the pots and the awards from it
    and nothing that locates the history (file, lines) or names the profile's keys."""

    report: Report
    answer: tuple[str, ...]
    practice_of: str  # where the practice comes from: "PokerStars practice observed in its hand histories"
    rules: tuple[RuleInWords, ...]
    departures: tuple[Departure, ...]  # the departures the answer does not state, each once
    not_verified: tuple[str, ...]
    hidden_shown: bool
    hidden_players: tuple[str, ...]  # the players whose hole cards are hidden
    summary: tuple[str, ...] = ()  # per pot and half whose hand took it; the rules' award beside the site's
    addressed_to: str | None = None  # the player the copy is written to (--player), his cards shown
    to_him: tuple[str, ...] = ()  # what his hand did, said to him ("In the main pot you lost the high half to ...")
    mucked: MuckedHand | None = None  # his mucked hand, evaluated
    assumed: tuple[str, ...] = ()  # the parameters the judgement adopted from the hand's postings, in words


def _down_mask(report: Report, player: str) -> list[bool]:
    """For each card dealt to the player, in dealing order: whether it was dealt face down."""
    mask: list[bool] = []
    for street in report.streets:
        for deal in street.deals:
            if deal.player == player:
                mask += [True] * len(deal.down) + [False] * len(deal.up)
    return mask


def _hidden(cards: tuple[str | None, ...], mask: list[bool]) -> tuple[str | None, ...]:
    if len(mask) != len(cards):  # (not the deal's count: the stud pattern, down down up up up up down)
        mask = [index in (0, 1, 6) for index in range(len(cards))]
    return tuple(None if down else card for card, down in zip(cards, mask, strict=True))


def hide_unshown(report: Report, keep: str | None = None) -> tuple[Report, tuple[str, ...]]:
    """The report with the hole cards of every player who did not show them replaced by None, and
    those players (the desk's history may hold every hole card; the player's copy shows what the
    table saw); ``keep``: the player the copy is addressed to, whose own cards stay."""
    hidden = tuple(p.player for p in report.players if not p.status.startswith("showed") and p.player != keep
                   and any(card is not None for card, down in zip(p.cards, _down_mask(report, p.player), strict=False)
                           if down))
    if not hidden:
        return report, ()
    masks = {player: _down_mask(report, player) for player in hidden}

    def deal(view: DealView) -> DealView:
        return dataclasses.replace(view, down=(None,) * len(view.down)) if view.player in masks else view

    def seat(view: PlayerView) -> PlayerView:
        return dataclasses.replace(view, cards=_hidden(view.cards, masks[view.player])) if view.player in masks else view

    def contender(view: ContenderView) -> ContenderView:
        if view.player not in masks:
            return view
        return dataclasses.replace(view, seven=_hidden(view.seven, masks[view.player]))

    def pot(view: PotView) -> PotView:
        return dataclasses.replace(view, contenders=tuple(map(contender, view.contenders)))

    def street(view: StreetView) -> StreetView:
        return dataclasses.replace(view, deals=tuple(map(deal, view.deals)))

    return dataclasses.replace(report, streets=tuple(map(street, report.streets)),
                               players=tuple(map(seat, report.players)), pots=tuple(map(pot, report.pots))), hidden


def _settlement_parameters(report: Report) -> list[str]:
    """The parameters the settlement of this hand's pots applied: the odd chip between the halves where
    one was left, the tie rules where a half was tied, side pots and the rake's share where there are."""
    notes = [note for pot in report.pots for note in pot.odd_units]
    names: list[str] = []
    if any(note.startswith("odd") for note in notes):
        names += _SPLIT
    if any(note.startswith("tied") for note in notes):
        names += _TIES
    if len(report.pots) > 1:
        names += _SIDE_POTS
        if report.rake.amount:
            names += _RAKE
    return names


def _rules_in_words(report: Report, findings: list[Finding], settled: bool) -> tuple[RuleInWords, ...]:
    """Each rule the answer and the departures rest on, in the order of the rules document, with the
    practice of the profile's parameters that applied to this hand."""
    numbers: list[str] = []
    parameters: list[str] = _settlement_parameters(report) if settled else []
    for finding in findings:
        numbers += [ref.rule for ref in finding.rules]
        if finding.kind == "violation" and not ({ref.rule for ref in finding.rules} & {"R12", "R13", "R14"}):
            parameters += [name for name, _ in finding.parameters]
    if settled:
        numbers += ["R12", "R13", "R14"] if len(report.pots) > 1 else ["R13", "R14"]
    settings = dict(report.profile.parameters)
    rules: list[RuleInWords] = []
    if len(report.pots) < 2:  # no side pot: its rule, and how the rake is shared between pots, say nothing here
        numbers = [number for number in numbers if number != "R12"]
        parameters = [name for name in parameters if name not in (*_SIDE_POTS, *_RAKE)]
    for number in sorted(set(numbers), key=lambda rule: int(rule[1:])):
        applied = [(name, words) for name in dict.fromkeys(parameters) if PARAMETER_RULES.get(name) == number
                   for words in (practice_words(name, settings.get(name, "")),) if words]
        practice = tuple(dict.fromkeys(words for name, words in applied if not few_hands(report.profile, name)))
        readings = tuple(dict.fromkeys(words for name, words in applied if few_hands(report.profile, name)))
        rules.append(RuleInWords(RULE_TITLES[number], RULE_SENTENCES[number], practice, readings))
    return tuple(rules)


def _titles(codes: set[str]) -> tuple[str, ...]:
    numbers = sorted({rule for code in codes for rule in codes_rules(code)}, key=lambda rule: int(rule[1:]))
    return tuple(RULE_TITLES[rule] for rule in numbers)


def without_lines(words: str) -> str:
    """A finding's words without the history's line numbers, which the player's copy does not show."""
    return _LINE.sub("the history", _LINE_IN_BRACKETS.sub("", words))


def _in_player_words(finding: Finding) -> Finding:
    """The finding with its words as the player's copy says them: without line numbers, and what could
    not be verified without the desk's sources (the reason's first clause)."""
    words = without_lines(finding.message)
    if finding.kind == "unverifiable":
        words = words.split(": ")[0]
    return dataclasses.replace(finding, message=words)


def _not_verified(finding: Finding) -> str:
    """What could not be checked and why, without the desk's sources (the table context, the
    structures table): the reason's first clause."""
    reason = _in_player_words(finding).message.rstrip(".")
    topic = finding.topic[:1].upper() + finding.topic[1:]
    return f"{topic} could not be checked: {reason}."


def customer_copy(report: Report, show_hidden: bool = False, player: str | None = None) -> CustomerCopy:
    """The player's copy of ``report``; ``show_hidden`` keeps every hole card the history holds;
    ``player`` (a name of the hand, as the history writes it) addresses it to him: his own cards shown,
    mucked or not, and evaluated where he mucked."""
    shown, hidden = (report, ()) if show_hidden else hide_unshown(report, player)
    mucked = evaluate_mucked(report, player) if player is not None else None
    to_him = addressed_sentences(report, player, mucked) if player is not None else ()
    answer = report.headline[1:] if report.copies else report.headline  # the copies are the desk's business
    violations = [f for f in report.findings if f.kind == "violation"]
    unverifiable = [f for f in report.findings if f.kind == "unverifiable"]
    settled = bool(report.misawarded.amount) or any(f.topic == "the award of each pot" for f in violations)
    # the answer names the settlement's money (who was paid what): its findings are stated there
    money = (any(row.difference.amount for row in report.awards)
             or any(row.difference.amount for row in report.returns))
    if not money:  # the same sentence from the findings in the player's words (no line, no desk source)
        played = tuple(_in_player_words(f) for f in report.findings if _code_of(f) not in RECORD_CODES)
        answer = headline(report.profile.name, report.pots, report.awards, played, 0, str)
    stated = " ".join(answer)
    departures: list[Departure] = []
    said: set[str] = set()
    for finding in violations:
        code = _code_of(finding)
        if (money and code in SETTLEMENT_CODES) or code in RECORD_CODES:
            continue  # the answer states it; the record is the desk's
        words = without_lines(finding.message).rstrip(".") + "."
        if words in said or words.rstrip(".") in stated:  # (the answer names the first departure)
            continue
        said.add(words)
        if code in _PLAIN_START:  # (a message opening with a player's name keeps his spelling)
            words = words[:1].upper() + words[1:]
        departures.append(Departure(words, _titles({code})))
    return CustomerCopy(shown, answer, report.profile.source, _rules_in_words(report, violations,
                                                                               settled or bool(report.awards)),
                        tuple(departures), tuple(dict.fromkeys(_not_verified(f) for f in unverifiable)), show_hidden,
                        hidden, pot_sentences(report), player, to_him, mucked,
                        tuple(without_lines(assumed.words.split(NO_SOURCE)[0]) for assumed in report.assumptions))


#: codes whose message starts with a common word, not a player's name (which keeps its case)
_PLAIN_START = frozenset({Code.POT_TOTAL.value, Code.RESTATED.value, Code.CARDS.value})


def _code_of(finding: Finding) -> str:
    """The finding's code, from the topic :mod:`.rules` gives each code (one topic a code)."""
    return next((code.value for code in Code if topic_of(code.value) == finding.topic), "")


__all__ = ["CustomerCopy", "Departure", "RuleInWords", "customer_copy", "hide_unshown"]
