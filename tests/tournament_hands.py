"""Small tournament hands for the tests of buy-ins and finishes: a PokerStars heads-up Stud Hi/Lo hand
whose header's buy-in and whose finish lines a test chooses, and a Full Tilt one."""

from __future__ import annotations

STARS_HEADER = ("PokerStars Hand #{hand_id}: Tournament #{tournament}, {buy_in}HORSE (7 Card Stud Hi/Lo Limit) - "
                "Level V (200/400) - 2023/02/05 10:{minute:02d}:51 PT [2023/02/05 13:{minute:02d}:51 ET]")

STARS_BODY = """\
Table '{tournament} 2' 8-max
Seat 1: Alice (8835 in chips)
Seat 6: {hero} (40 in chips)
Alice: posts the ante 40
{hero}: posts the ante 40 and is all-in
*** 3rd STREET ***
Dealt to Alice [6c]
Dealt to {hero} [3h Ah 2s]
Alice: brings in for 60
*** 4th STREET ***
Dealt to Alice [6c] [7h]
Dealt to {hero} [3h Ah 2s] [4d]
*** 5th STREET ***
Dealt to Alice [6c 7h] [As]
Dealt to {hero} [3h Ah 2s 4d] [7d]
*** 6th STREET ***
Dealt to Alice [6c 7h As] [8d]
Dealt to {hero} [3h Ah 2s 4d 7d] [5h]
*** RIVER ***
Dealt to {hero} [3h Ah 2s 4d 7d 5h] [6d]
*** SHOW DOWN ***
Alice: shows [3d 8c 6c 7h As 8d Tc] (HI: a pair of Eights; LO: 8,7,6,3,A)
{hero}: shows [Kh Kd 2s 4d 7d 5h 6d] (HI: a pair of Kings)
Uncalled bet (20) returned to Alice
Alice collected 80 from pot
{finish}*** SUMMARY ***
Total pot 80 | Rake 0
Seat 1: Alice showed [3d 8c 6c 7h As 8d Tc] and won (80) with HI: a pair of Eights; LO: 8,7,6,3,A
Seat 6: {hero} showed [Kh Kd 2s 4d 7d 5h 6d] and lost with HI: a pair of Kings
"""

#: the finish lines of the hand above as PokerStars writes them (the hero out in 2nd, Alice the winner)
STARS_FINISH = ("{hero} finished the tournament in 2nd place and received $1.47.\n"
                "Alice wins the tournament and receives $2.93 - congratulations!\n")


def stars_hand(buy_in: str = "$0.98+$0.12 USD ", finish: str = STARS_FINISH, *, hand_id: int = 241636097024,
               tournament: str = "3540610518", hero: str = "Hero", minute: int = 25) -> str:
    """The hand with ``buy_in`` (as the header writes it, with its trailing blank; "" for none) and
    ``finish`` (the lines after the collect line, ``{hero}`` standing for the hero's name)."""
    header = STARS_HEADER.format(hand_id=hand_id, tournament=tournament, buy_in=buy_in, minute=minute)
    return header + "\n" + STARS_BODY.format(tournament=tournament, hero=hero, finish=finish.format(hero=hero))


TILT_HAND = """\
Full Tilt Poker Game #32412111030: {name} (251332389), Table 1 - 800/1600 Ante 150 - Limit Stud H/L - 18:30:57 ET - 2013/03/31
Seat 1: Alice (4,950)
Seat 6: Hero (17,724)
Alice antes 150
Hero antes 150
*** 3RD STREET ***
Dealt to Alice [Kc]
Dealt to Hero [6s 2c] [6h]
Hero is low with [6h]
Hero brings in for 250
Alice folds
Uncalled bet of 250 returned to Hero
Hero mucks
Hero wins the pot (300)
*** SUMMARY ***
Total pot 300 | Rake 0
Seat 1: Alice folded on 3rd St.
Seat 6: Hero collected (300), mucked
"""
