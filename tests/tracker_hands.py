"""Small legal PokerStars Stud Hi/Lo hands heads-up between Ann (seat 1) and Dan (seat 4) at $0.04/$0.08,
ante $0.01, bring-in $0.02, at the times and tables a test chooses: what `hands` and `sessions` are
checked on with exact numbers.

* :func:`ann_steals`: Dan brings in, Ann completes, Dan folds: Ann +$0.03, Dan -$0.03, pot $0.06.
* :func:`ann_folds`: Ann brings in, Dan completes, Ann folds: Ann -$0.03, Dan +$0.03 (+$0.04 with
  ``dan_ante`` "0.02", a wrong ante the table's other hands judge a violation), pot $0.06 ($0.07).
"""

from __future__ import annotations


def _hand(hand_id: int, when: str, table: str, body: str, total: str, dan_ante: str = "0.01") -> str:
    lines = [f"PokerStars Hand #{hand_id}:  7 Card Stud Hi/Lo Limit ($0.04/$0.08 USD) - {when} ET",
             f"Table '{table}' 8-max", "Seat 1: Ann ($5 in chips)", "Seat 4: Dan ($5 in chips)",
             "Ann: posts the ante $0.01", f"Dan: posts the ante ${dan_ante}", "*** 3rd STREET ***",
             body.strip("\n"), "*** SUMMARY ***", f"Total pot ${total} | Rake $0"]
    return "\n".join(lines) + "\n"


def ann_steals(hand_id: int, when: str, table: str) -> str:
    return _hand(hand_id, when, table, """
Dealt to Ann [Kc]
Dealt to Dan [2h]
Dan: brings in for $0.02
Ann: raises $0.02 to $0.04
Dan: folds
Uncalled bet ($0.02) returned to Ann
Ann collected $0.06 from pot
Ann: doesn't show hand
""", "0.06")


def ann_folds(hand_id: int, when: str, table: str, dan_ante: str = "0.01") -> str:
    pot = "0.07" if dan_ante == "0.02" else "0.06"
    return _hand(hand_id, when, table, f"""
Dealt to Ann [2h]
Dealt to Dan [Kc]
Ann: brings in for $0.02
Dan: raises $0.02 to $0.04
Ann: folds
Uncalled bet ($0.02) returned to Dan
Dan collected ${pot} from pot
Dan: doesn't show hand
""", pot, dan_ante)


#: Ann's evening: at Alpha 20:00:00 (+3), 20:10:00 (-3, Dan's ante wrong), 20:29:59 (+3), a break of
#: exactly 30 minutes, 20:59:59 (+3), 21:05:00 (+3); at Beta 20:05:00 (-3), alone at its table
EVENING = (
    ann_steals(7001, "2024/03/01 20:00:00", "Alpha"),
    ann_folds(7002, "2024/03/01 20:10:00", "Alpha", dan_ante="0.02"),
    ann_steals(7003, "2024/03/01 20:29:59", "Alpha"),
    ann_steals(7004, "2024/03/01 20:59:59", "Alpha"),
    ann_steals(7005, "2024/03/01 21:05:00", "Alpha"),
    ann_folds(7006, "2024/03/01 20:05:00", "Beta"),
)
