"""The rules a finding rests on, named as the rules document (``stud8-rules.md``) titles them, and
the profile parameters that decide each kind of finding."""

from __future__ import annotations

from hhtool.replay.codes import Code
from hhtool.reports.dispute.model import RuleRef

#: rule number -> its title in the rules document (a test checks each title is there)
RULE_TITLES: dict[str, str] = {
    "R1": "Game, deck, players",
    "R2": "Antes",
    "R3": "Bring-in: who",
    "R4": "Bring-in: amount and options",
    "R5": "3rd-street betting",
    "R6": "Bet sizes per street",
    "R7": "First to act on 4th–7th street",
    "R8": "Raise cap",
    "R9": "Checks and folds",
    "R10": "Uncalled bets",
    "R11": "All-in and short bets (limit)",
    "R12": "Side pots",
    "R13": "Showdown hands",
    "R14": "Pot splitting and odd chips",
    "R15": "Rake",
    "R16": "Showdown order and mucking",
    "R17": "Deck exhaustion",
}

#: finding code -> (what was checked in words, the rules it enforces, the parameters that decide it)
_BY_CODE: dict[Code, tuple[str, tuple[str, ...], tuple[str, ...]]] = {
    Code.ANTE: ("the antes", ("R2",), ()),
    Code.BRING_IN_PLAYER: ("who brings in", ("R3",), ("bringin_ace", "bringin_tie")),
    Code.BRING_IN_AMOUNT: ("the bring-in amount", ("R4",), ("short_bring_in",)),
    Code.ACTION_ORDER: ("who acts first and the turn order", ("R7",), ("opener_tie", "allin_opener", "common_card_opener")),
    Code.ILLEGAL_ACTION: ("whether each action was allowed", ("R5", "R9", "R11"), ("allow_fold_unfaced",)),
    Code.BET_SIZE: ("the size of each bet, raise and call", ("R5", "R6", "R11"),
                 ("fourth_street_double_bet", "reopen_threshold", "raise_after_short_allin")),
    Code.RAISE_CAP: ("the number of raises", ("R8",), ("max_raises", "cap_applies_when", "heads_up_uncap",
                                                   "short_allin_counts_to_cap")),
    Code.STACK: ("the chips each player had", ("R11",), ()),
    Code.ROUND_INCOMPLETE: ("whether each betting round was finished", ("R9",), ()),
    Code.CARDS: ("the cards dealt and shown", ("R1", "R17"), ()),
    Code.POT_TOTAL: ("that every chip is accounted for", ("R15",), ("rake_allocation",)),
    Code.UNCALLED_BET: ("the uncalled bets returned", ("R10",), ()),
    Code.POT_AWARD: ("the award of each pot", ("R12", "R13", "R14"),
                  ("odd_unit_hi_lo", "odd_unit_tied_half", "tied_remainder", "rake_allocation", "pots_formed_at")),
    Code.SHOWDOWN: ("who won at the showdown", ("R13", "R16"), ("low_half_exists",)),
    Code.RESTATED: ("facts the history states twice", (), ()),
    Code.CONFLICTING_COPY: ("other copies of this hand", (), ()),
}


def _facts(code: str) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    if code not in Code._value2member_map_:
        return ("a rule check", (), ())
    return _BY_CODE.get(Code(code), ("a rule check", (), ()))


def topic_of(code: str) -> str:
    return _facts(code)[0]


def rules_of(code: str) -> tuple[RuleRef, ...]:
    return tuple(RuleRef(rule, RULE_TITLES[rule]) for rule in _facts(code)[1])


def parameters_of(code: str) -> tuple[str, ...]:
    return _facts(code)[2]


def rule_words(refs: tuple[RuleRef, ...]) -> str:
    """``"Pot splitting and odd chips (rule R14)"``, joined with "and"; "" for none."""
    parts = [f"{ref.title} (rule {ref.rule})" for ref in refs]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1] if parts else ""
