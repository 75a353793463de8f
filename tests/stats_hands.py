"""Small legal PokerStars Stud Hi/Lo hands, each written to exercise particular statistics.

Stakes $0.04/$0.08, ante $0.01, bring-in $0.02. Seats: Ann 1, Bob 2, Cat 3, Dan 4, Eve 5 (PokerStars
deals by ascending seat). The comment above each hand says what it is for. ``parse`` reads one
such hand, ``load`` imports them into a store.
"""

from __future__ import annotations

from pathlib import Path

from hhtool.ingest.loader import import_file
from hhtool.ingest.reader import decode_bytes
from hhtool.model import Hand
from hhtool.sites import parser_for
from hhtool.store import Store

SEATS5 = ((1, "Ann"), (2, "Bob"), (3, "Cat"), (4, "Dan"), (5, "Eve"))
SEATS4 = SEATS5[:4]


def parse(text: str) -> Hand:
    stars = parser_for("pokerstars")
    hand = stars.parse(next(iter(stars.split(decode_bytes(text.encode()).lines, "t.txt"))))
    assert isinstance(hand, Hand), hand
    return hand


def load(store: Store, folder: Path, *texts: str) -> None:
    """Import each text as a file of its own, through the importer; every hand must parse."""
    for index, text in enumerate(texts):
        path = folder / f"hand{index}-{abs(hash(text))}.txt"
        path.write_text(text, encoding="utf-8")
        report = import_file(store, path, path.read_bytes(), store_facts=False)
        assert report.failed == 0, report.failures


def stars(hand_id: int, day: str, seats: tuple[tuple[int, str], ...], body: str, total: str, rake: str) -> str:
    lines = [f"PokerStars Hand #{hand_id}:  7 Card Stud Hi/Lo Limit ($0.04/$0.08 USD) - {day} 10:00:00 ET",
             "Table 'Stats' 8-max"]
    lines += [f"Seat {seat}: {name} ($5 in chips)" for seat, name in seats]
    lines += [f"{name}: posts the ante $0.01" for _, name in seats]
    lines += [body.strip("\n"), "*** SUMMARY ***", f"Total pot ${total} | Rake ${rake}"]
    return "\n".join(lines) + "\n"


# Dan's King is the highest upcard left to act: a door-card steal everyone folds to.
STEAL_BY_DOOR = stars(9001, "2020/01/05", SEATS5, """
*** 3rd STREET ***
Dealt to Ann [9c]
Dealt to Bob [2d]
Dealt to Cat [5h]
Dealt to Dan [Kc]
Dealt to Eve [7s]
Bob: brings in for $0.02
Cat: folds
Dan: raises $0.02 to $0.04
Eve: folds
Ann: folds
Bob: folds
Uncalled bet ($0.02) returned to Dan
Dan collected $0.09 from pot
Dan: doesn't show hand
""", "0.09", "0")

# Eve completes from late position with the best upcard behind her; the bring-in re-steals, Eve
# 3-bets, the bring-in calls; on 4th Bob check-raises Eve's continuation bet and she folds.
RESTEAL_AND_CHECK_RAISE = stars(9002, "2020/01/06", SEATS5, """
*** 3rd STREET ***
Dealt to Ann [3c]
Dealt to Bob [2c]
Dealt to Cat [Qh]
Dealt to Dan [4d]
Dealt to Eve [6s]
Bob: brings in for $0.02
Cat: folds
Dan: folds
Eve: raises $0.02 to $0.04
Ann: folds
Bob: raises $0.04 to $0.08
Eve: raises $0.04 to $0.12
Bob: calls $0.04
*** 4th STREET ***
Dealt to Bob [2c] [Kd]
Dealt to Eve [6s] [5s]
Bob: checks
Eve: bets $0.04
Bob: raises $0.04 to $0.08
Eve: folds
Uncalled bet ($0.04) returned to Bob
Bob collected $0.36 from pot
Bob: doesn't show hand
""", "0.37", "0.01")

# Bob, due to bring in, completes instead; he c-bets 4th,, Cat check-raises 5th and c-bets 6th;
# at showdown Bob's kings up take the high half and Ann's 8-low the low half (no labels: from cards).
LIMP_AND_HI_LO_SPLIT = stars(9003, "2020/01/07", SEATS5[:3], """
*** 3rd STREET ***
Dealt to Ann [7c]
Dealt to Bob [3d]
Dealt to Cat [4h]
Bob: bets $0.04
Cat: calls $0.04
Ann: calls $0.04
*** 4th STREET ***
Dealt to Ann [7c] [8d]
Dealt to Bob [3d] [Qs]
Dealt to Cat [4h] [Ts]
Bob: bets $0.04
Cat: calls $0.04
Ann: calls $0.04
*** 5th STREET ***
Dealt to Ann [7c 8d] [4s]
Dealt to Bob [3d Qs] [Jd]
Dealt to Cat [4h Ts] [Tc]
Cat: checks
Ann: bets $0.08
Bob: calls $0.08
Cat: raises $0.08 to $0.16
Ann: calls $0.08
Bob: calls $0.08
*** 6th STREET ***
Dealt to Ann [7c 8d 4s] [Kd]
Dealt to Bob [3d Qs Jd] [3h]
Dealt to Cat [4h Ts Tc] [6c]
Cat: bets $0.08
Ann: calls $0.08
Bob: calls $0.08
*** RIVER ***
Cat: checks
Ann: checks
Bob: checks
*** SHOW DOWN ***
Cat: shows [9d 9s 4h Ts Tc 6c 2d] (HI: two pair, Tens and Nines)
Ann: shows [As 2h 7c 8d 4s Kd 9h] (HI: high card Ace; LO: 8,7,4,2,A)
Bob: shows [Kc Kh 3d Qs Jd 3h 5d] (HI: two pair, Kings and Threes)
Bob collected $0.48 from pot
Ann collected $0.47 from pot
""", "0.99", "0.04")

# Heads-up: Ann steals with a King over the bring-in, who calls; nobody has a low (labelled whole).
HEADS_UP_NO_LOW = stars(9004, "2020/01/08", ((1, "Ann"), (4, "Dan")), """
*** 3rd STREET ***
Dealt to Ann [Kc]
Dealt to Dan [2h]
Dan: brings in for $0.02
Ann: raises $0.02 to $0.04
Dan: calls $0.02
*** 4th STREET ***
Dealt to Ann [Kc] [Kd]
Dealt to Dan [2h] [9s]
Ann: bets $0.04
Dan: calls $0.04
*** 5th STREET ***
Dealt to Ann [Kc Kd] [Qs]
Dealt to Dan [2h 9s] [Td]
Ann: checks
Dan: checks
*** 6th STREET ***
Dealt to Ann [Kc Kd Qs] [Js]
Dealt to Dan [2h 9s Td] [Th]
Ann: checks
Dan: bets $0.08
Ann: calls $0.08
*** RIVER ***
Ann: checks
Dan: checks
*** SHOW DOWN ***
Ann: shows [Ah 9d Kc Kd Qs Js 8c] (HI: a pair of Kings)
Dan: shows [Tc 3s 2h 9s Td Th Qd] (HI: three of a kind, Tens)
Dan collected $0.32 from pot
No low hand qualified
""", "0.34", "0.02")

# Checked down three-way: Cat's flush takes the high half, Bob and Eve tie for the low half.
QUARTERED = stars(9005, "2020/02/01", ((2, "Bob"), (3, "Cat"), (5, "Eve")), """
*** 3rd STREET ***
Dealt to Bob [9c]
Dealt to Cat [3h]
Dealt to Eve [Jd]
Cat: brings in for $0.02
Eve: calls $0.02
Bob: calls $0.02
*** 4th STREET ***
Dealt to Bob [9c] [Kd]
Dealt to Cat [3h] [8h]
Dealt to Eve [Jd] [6s]
Bob: checks
Cat: checks
Eve: checks
*** 5th STREET ***
Dealt to Bob [9c Kd] [6h]
Dealt to Cat [3h 8h] [Qh]
Dealt to Eve [Jd 6s] [3c]
Bob: checks
Cat: checks
Eve: checks
*** 6th STREET ***
Dealt to Bob [9c Kd 6h] [3s]
Dealt to Cat [3h 8h Qh] [9s]
Dealt to Eve [Jd 6s 3c] [2h]
Bob: checks
Cat: checks
Eve: checks
*** RIVER ***
Bob: checks
Cat: checks
Eve: checks
*** SHOW DOWN ***
Bob: shows [7s 4c 9c Kd 6h 3s 2d] (HI: high card King; LO: 7,6,4,3,2)
Cat: shows [Ah Th 3h 8h Qh 9s 5h] (HI: a flush, Ace high)
Eve: shows [7c 4d Jd 6s 3c 2h Qc] (HI: high card Queen; LO: 7,6,4,3,2)
Cat collected $0.04 from pot
Bob collected $0.02 from pot
Eve collected $0.02 from pot
""", "0.09", "0.01")

# A capped 3rd street: Ann completes, Bob 2-bets, Cat 3-bets, Ann 4-bets and everyone folds.
FOUR_BET = stars(9006, "2020/02/02", SEATS4, """
*** 3rd STREET ***
Dealt to Ann [Qs]
Dealt to Bob [7h]
Dealt to Cat [9d]
Dealt to Dan [2c]
Dan: brings in for $0.02
Ann: raises $0.02 to $0.04
Bob: raises $0.04 to $0.08
Cat: raises $0.04 to $0.12
Dan: folds
Ann: raises $0.04 to $0.16
Betting is capped
Bob: folds
Cat: folds
Uncalled bet ($0.04) returned to Ann
Ann collected $0.38 from pot
Ann: doesn't show hand
""", "0.38", "0")

# Ann completes, Bob 2-bets, Ann 3-bets and Bob folds to it.
FOLD_TO_THREE_BET = stars(9007, "2020/02/03", SEATS4, """
*** 3rd STREET ***
Dealt to Ann [Qs]
Dealt to Bob [7h]
Dealt to Cat [9d]
Dealt to Dan [2c]
Dan: brings in for $0.02
Ann: raises $0.02 to $0.04
Bob: raises $0.04 to $0.08
Cat: folds
Dan: folds
Ann: raises $0.04 to $0.12
Bob: folds
Uncalled bet ($0.04) returned to Ann
Ann collected $0.22 from pot
Ann: doesn't show hand
""", "0.22", "0")

# Bob c-bets 4th, 5th and 6th: Ann folds to it on 4th, Dan on 5th (after checking); Bob and Cat
# show the same straight with no low and split the pot (labelled whole).
CBETS_AND_SPLIT = stars(9008, "2020/02/04", SEATS4, """
*** 3rd STREET ***
Dealt to Ann [2d]
Dealt to Bob [Jd]
Dealt to Cat [Js]
Dealt to Dan [6h]
Ann: brings in for $0.02
Bob: raises $0.02 to $0.04
Cat: calls $0.04
Dan: calls $0.04
Ann: calls $0.02
*** 4th STREET ***
Dealt to Ann [2d] [5d]
Dealt to Bob [Jd] [Kh]
Dealt to Cat [Js] [Qc]
Dealt to Dan [6h] [7c]
Bob: bets $0.04
Cat: calls $0.04
Dan: calls $0.04
Ann: folds
*** 5th STREET ***
Dealt to Bob [Jd Kh] [2s]
Dealt to Cat [Js Qc] [Kd]
Dealt to Dan [6h 7c] [8s]
Cat: checks
Dan: checks
Bob: bets $0.08
Cat: calls $0.08
Dan: folds
*** 6th STREET ***
Dealt to Bob [Jd Kh 2s] [Qs]
Dealt to Cat [Js Qc Kd] [4s]
Cat: checks
Bob: bets $0.08
Cat: calls $0.08
*** RIVER ***
Cat: checks
Bob: checks
*** SHOW DOWN ***
Cat: shows [9h Th Js Qc Kd 4s 5c] (HI: a straight, Nine to King)
Bob: shows [9c Tc Jd Kh 2s Qs 3c] (HI: a straight, Nine to King)
Bob collected $0.31 from pot
Cat collected $0.30 from pot
No low hand qualified
""", "0.64", "0.03")

ALL_HANDS = (STEAL_BY_DOOR, RESTEAL_AND_CHECK_RAISE, LIMP_AND_HI_LO_SPLIT, HEADS_UP_NO_LOW, QUARTERED, FOUR_BET,
             FOLD_TO_THREE_BET, CBETS_AND_SPLIT)
