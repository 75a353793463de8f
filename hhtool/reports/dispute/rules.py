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


# ------------------------------------------------------------------ in plain words (the player's copy)

#: each rule as one or two sentences a player reads without the rules document (no numbers, no keys)
RULE_SENTENCES: dict[str, str] = {
    "R1": "Each player gets two cards face down and one face up on 3rd street, one face up on each of 4th, 5th "
          "and 6th street and one face down on 7th street, with a betting round after each.",
    "R2": "Every player dealt in posts the ante before the cards are dealt; the antes go into the pot and do not "
          "count towards a call.",
    "R3": "The player with the lowest upcard brings in; aces count high, and equal ranks are broken by suit.",
    "R4": "The bring-in is a fixed amount below the small bet; the player bringing in posts it or opens for the "
          "full small bet.",
    "R5": "Nobody may check on 3rd street: while only the bring-in is in, the one raise allowed is to complete "
          "to the small bet, and each raise after that adds a small bet.",
    "R6": "On 3rd and 4th street every bet and raise is the small bet; on 5th, 6th and 7th street it is the "
          "big bet.",
    "R7": "From 4th street on, the player whose upcards make the best poker hand acts first (straights and "
          "flushes do not count); then the turn goes round the table.",
    "R8": "A betting round allows one bet and a fixed number of raises; after that the players may only call "
          "or fold.",
    "R9": "A player may check only when no bet is pending, and a betting round ends only when every player "
          "still in has acted and matched the highest bet, or is all-in.",
    "R10": "The part of a bet that nobody called goes back to the player who made it, before the pots are "
           "formed; it is not raked.",
    "R11": "A player may always call or bet all-in for less than the full amount; he can then win only as much "
           "from each other player as he put in himself.",
    "R12": "When a player is all-in for less than the others, the chips he could match make the main pot and "
           "the rest a side pot he cannot win; each pot is decided and split on its own.",
    "R13": "At the showdown the best five of a player's seven cards make his high hand, and five cards of "
           "different ranks, 8 or lower (an ace counts low), make a low; when nobody has a low, the best "
           "high hand takes the whole pot.",
    "R14": "Each pot is split in half between the best high hand and the best low; players tied for a half "
           "share it, and a chip that cannot be split goes to one side as the site's practice says.",
    "R15": "The rake is taken from the pot before it is split, and every chip put in is either returned, paid "
           "to a winner or taken as rake.",
    "R16": "At the showdown a player may show or muck his cards; a mucked hand cannot win.",
    "R17": "When the deck runs out before 7th street, one card is dealt face up in the middle for every player "
           "to use.",
}

#: each profile parameter: its rule (the rules document's section) and each of its values' practice in
#: words (max_raises, a number, is put in words by :func:`practice_words`)
_PARAMETERS: dict[str, tuple[str, dict[str, str]]] = {
    "bringin_ace": ("R3", {
        "high": "an ace counts as the highest upcard when the bring-in is chosen",
        "low": "an ace counts as the lowest upcard when the bring-in is chosen",
    }),
    "bringin_tie": ("R3", {
        "suit": "between equal upcards, the lower suit brings in (clubs, then diamonds, hearts, spades)",
        "position": "between equal upcards, the player first in seat order brings in",
    }),
    "short_bring_in": ("R4", {
        "bring_in": "after a bring-in all-in for less, the others still call the full bring-in",
        "all_in": "after a bring-in all-in for less, the others may call just that amount",
    }),
    "fourth_street_double_bet": ("R6", {
        "False": "an open pair on 4th street does not allow a big bet",
        "True": "an open pair on 4th street allows a big bet",
    }),
    "opener_tie": ("R7", {
        "position": "between equal boards, the player first in seat order acts first",
        "suit": "between equal boards, the highest card by suit acts first",
    }),
    "allin_opener": ("R7", {
        "next_active": "when the best board is all-in, the next player still betting acts first",
        "best_active": "when the best board is all-in, the best board among the players still betting acts first",
    }),
    "common_card_opener": ("R7", {
        "include": "a common card counts towards every board",
        "exclude": "a common card does not count towards the boards",
    }),
    "max_raises": ("R8", {}),
    "cap_applies_when": ("R8", {
        "always": "the raises are capped however many players are in",
        "multiway": "the raises are capped only while three or more players are in",
    }),
    "heads_up_uncap": ("R8", {
        "never": "the cap stays when two players are left",
        "round_start": "the cap lifts on a round that starts with two players",
        "any_time": "the cap lifts as soon as two players are left",
    }),
    "allow_fold_unfaced": ("R9", {
        "True": "a player may fold even when no bet is pending",
        "False": "a player may not fold when no bet is pending",
    }),
    "reopen_threshold": ("R11", {
        "half": "an all-in raise of at least half a bet counts as a full raise",
        "full": "only an all-in raise of a full bet counts as a raise",
    }),
    "short_allin_counts_to_cap": ("R11", {
        "threshold": "a short all-in raise counts towards the cap only if it is a full raise",
        "always": "every all-in raise counts towards the cap",
    }),
    "raise_after_short_allin": ("R11", {
        "complete_to_full": "after a short all-in, the next raise goes to a full bet above the last full level",
        "over_all_in": "after a short all-in, the next raise goes one bet above it",
    }),
    "pots_formed_at": ("R12", {
        "all_in": "a side pot starts at each all-in amount",
        "showdown": "side pots are formed at the showdown from the hands that win",
    }),
    "low_half_exists": ("R13", {
        "pot": "a pot is split only when one of the players who can win it has a low",
        "hand": "every pot is split once any hand shown has a low",
    }),
    "odd_unit_hi_lo": ("R14", {
        "high": "a chip that cannot be split between the high and the low half goes to the high half",
        "low": "a chip that cannot be split between the high and the low half goes to the low half",
    }),
    "odd_unit_tied_half": ("R14", {
        "best_card_suit": "in a tied half, the odd chip goes to the highest card by suit",
        "rr_suit": "in a tied half, the odd chip goes by suit (highest card for the high, lowest for the low)",
        "position": "in a tied half, the odd chip goes to the player first in seat order",
    }),
    "tied_remainder": ("R14", {
        "one_each": "chips left over from a tie go one each to the tied players",
        "first": "chips left over from a tie all go to the first tied player",
    }),
    "rake_allocation": ("R15", {
        "proportional": "the rake is shared between the pots in proportion to their size",
        "main_pot": "the rake is taken from the main pot",
        "last_pot": "the rake is taken from the last side pot",
    }),
}
#: each profile parameter's rule
PARAMETER_RULES: dict[str, str] = {parameter: rule for parameter, (rule, _) in _PARAMETERS.items()}


def practice_words(parameter: str, value: str) -> str:
    """A profile parameter's value as a sentence (a number of raises in words); "" for none known."""
    if parameter == "max_raises":
        return "no limit on the raises" if value == "None" else f"a bet and {value} raises are allowed a round"
    return _PARAMETERS.get(parameter, ("", {}))[1].get(value, "")


def codes_rules(code: str) -> tuple[str, ...]:
    """The rule numbers a finding code rests on."""
    return _facts(code)[1]
