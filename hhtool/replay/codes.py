"""Every finding code, declared once: the checks emit these values, the store keeps them as text,
the reports and ``--code`` offer them by name. A code names what is judged (the rule), for a
violation and for an unverifiable check alike.

>>> Code.POT_AWARD.rule
'R12–R14 pot award per player'
>>> Code("ANTE") is Code.ANTE, Code("pot_award") is Code.POT_AWARD, f"{Code.STACK}"
(True, True, 'STACK')
"""

from __future__ import annotations

from enum import StrEnum


class Code(StrEnum):
    """A finding's code; its value is the text stored in ``violations.code`` and ``unverifiable.check_code``."""

    ANTE = "ANTE"
    BRING_IN_PLAYER = "BRING_IN_PLAYER"
    BRING_IN_AMOUNT = "BRING_IN_AMOUNT"
    ACTION_ORDER = "ACTION_ORDER"
    ILLEGAL_ACTION = "ILLEGAL_ACTION"
    BET_SIZE = "BET_SIZE"
    RAISE_CAP = "RAISE_CAP"
    STACK = "STACK"
    ROUND_INCOMPLETE = "ROUND_INCOMPLETE"
    CARDS = "CARDS"
    POT_TOTAL = "POT_TOTAL"
    UNCALLED_BET = "UNCALLED_BET"
    POT_AWARD = "POT_AWARD"
    SHOWDOWN = "SHOWDOWN"
    RESTATED = "RESTATED"
    CONFLICTING_COPY = "CONFLICTING_COPY"
    REPLAY = "REPLAY"

    @classmethod
    def _missing_(cls, value: object) -> Code:
        """A code in any case (``pot_award``); anything else is refused with the codes it could be."""
        if isinstance(value, str) and value.upper() in cls._value2member_map_:
            return cls(value.upper())
        raise ValueError(f"{value!r} is not a finding code; the codes are {CODE_NAMES}")

    @property
    def rule(self) -> str:
        """What the code enforces, with the rule numbers of stud8-rules.md."""
        return RULES[self]


#: every code, in declaration order, for messages and help texts
CODE_NAMES = ", ".join(Code)

RULES: dict[Code, str] = {
    Code.ANTE: "R2 antes",
    Code.BRING_IN_PLAYER: "R3 bring-in player",
    Code.BRING_IN_AMOUNT: "R4 bring-in amount",
    Code.ACTION_ORDER: "R7 opener and clockwise turn order",
    Code.ILLEGAL_ACTION: "R5/R9/R11 action not allowed in that situation",
    Code.BET_SIZE: "R5/R6/R11 bet, raise or call of the wrong size",
    Code.RAISE_CAP: "R8 raise cap",
    Code.STACK: "chips put in beyond the stack, or all-in with chips left",
    Code.ROUND_INCOMPLETE: "R9 betting round ended before everyone acted and matched",
    Code.CARDS: "R1/R17 cards dealt or shown",
    Code.POT_TOTAL: "R15 money conservation and stated total pot",
    Code.UNCALLED_BET: "R10 uncalled bet returned",
    Code.POT_AWARD: "R12–R14 pot award per player",
    Code.SHOWDOWN: "R13/R16 showdown winner",
    Code.RESTATED: "a fact the history states twice (cards, summary, amounts, hand descriptions) stated differently",
    Code.CONFLICTING_COPY: "another copy of this hand (same site and hand id) holds a different history",
    Code.REPLAY: "the replay itself could not run on the hand (an internal error: the hand is unverifiable)",
}

#: codes no rule check in :mod:`hhtool.replay.checks` emits, and who does
EMITTED_OUTSIDE_CHECKS: dict[Code, str] = {
    Code.CONFLICTING_COPY: "the import's copy comparison (table copy_conflicts), listed by `audit`",
    Code.REPLAY: "hhtool.ingest.rule_choice, when replaying a hand raises",
}
