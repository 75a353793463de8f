"""Write a simulated hand as PokerStars text, line for line as the PokerStars client exports
Seven Card Stud Hi/Lo cash hands (and as ``grammars/pokerstars.lark`` reads them).

The writer prints what the :class:`~hhtool.model.Hand` says, right or wrong: faults injected into
the model come out as the text a faulty site would have written. Lines that PokerStars ends with
a blank (seat lines, checks, folds, mucks, the total pot line) keep that blank.

>>> dollars, chips = amounts_as_printed(Stakes(1, 2, 4, 8, "USD")), amounts_as_printed(Stakes(1, 2, 4, 8, "CHIPS", 1))
>>> dollars(4), dollars(100), dollars(5112564), chips(40)
('$0.04', '$1', '$51125.64', '40')
"""

from __future__ import annotations

from collections.abc import Callable

from hhtool.model import Action, ActionKind, Card, Hand, ShownHand, ShowStatus, Stakes, Street, cards_text
from hhtool.money import currency_symbol, site_amount
from hhtool.simulate.dealer import MAX_BETS, SimulatedHand
from hhtool.simulate.faults import repeated_cards, restated_won

Money = Callable[[int], str]
_MARKERS = {
    Street.THIRD: "*** 3rd STREET ***",
    Street.FOURTH: "*** 4th STREET ***",
    Street.FIFTH: "*** 5th STREET ***",
    Street.SIXTH: "*** 6th STREET ***",
    Street.SEVENTH: "*** RIVER ***",
}
_FOLDED_ON = {3: "3rd Street", 4: "4th Street", 5: "5th Street", 6: "6th Street", 7: "River"}


def amounts_as_printed(stakes: Stakes) -> Money:
    """Amounts as PokerStars (and Full Tilt) print them: ``$0.04``, whole amounts without decimals
    (``$1``), chips bare."""
    symbol = "" if stakes.unit == 1 else currency_symbol(stakes.currency)
    return lambda amount: site_amount(amount, stakes.unit, symbol, symbol_first=True)


def _cards(cards: tuple[Card | None, ...] | list[Card]) -> str:
    return cards_text(tuple(cards))


def describe_shown(high: str | None, low: str | None) -> str:
    """A shown hand's description as PokerStars and Full Tilt print it: ``HI: ...; LO: ...``."""
    return f"HI: {high}" + (f"; LO: {low}" if low else "")


class PokerStarsWriter:
    name = "pokerstars"

    def write(self, simulated: SimulatedHand) -> str:
        """The hand's text followed by the three empty lines PokerStars puts between hands."""
        return "\n".join(self.lines(simulated)) + "\n\n\n\n"

    def lines(self, simulated: SimulatedHand) -> list[str]:
        hand = simulated.hand
        stakes = hand.stakes
        unit, currency = stakes.unit, stakes.currency
        m = amounts_as_printed(stakes)

        out: list[str] = []
        when = hand.started_at
        stamp = f"{when:%Y/%m/%d} {when.hour}:{when:%M:%S}" if when else "2026/01/01 0:00:00"
        code = f" {currency}" if unit != 1 else ""
        out.append(f"PokerStars Hand #{hand.hand_id}:  {hand.game_label} ({m(stakes.small_bet or 0)}/"
                   f"{m(stakes.big_bet or 0)}{code}) - {stamp} {hand.timezone or 'ET'}")
        out.append(f"Table '{hand.table_name}' {stakes.table_size or 8}-max")
        for seat in hand.seats:
            out.append(f"Seat {seat.seat}: {seat.player} ({m(seat.stack or 0)} in chips) ")
        for action in hand.actions:
            if action.kind is ActionKind.ANTE:
                out.append(f"{action.player}: posts the ante {m(action.amount)}" + (" and is all-in" if action.all_in else ""))
        shown_at_showdown = [s for s in hand.showdown if s.status is not ShowStatus.NOT_SHOWN]
        deal_lines = self._deal_lines(hand)
        for street in Street:
            deals = [deal for deal in hand.deals if deal.street is street]
            actions = [a for a in hand.actions if a.street is street and a.kind is not ActionKind.ANTE]
            community = street is Street.SEVENTH and hand.community_card is not None
            if not deals and not actions and not community:
                continue
            out.append(_MARKERS[street] + (f" [{hand.community_card}]" if community else ""))
            out.extend(deal_lines[street])
            out.extend(self._action_lines(hand, street, m))
            for ret in hand.uncalled:
                if ret.street is street:
                    out.append(f"Uncalled bet ({m(ret.amount)}) returned to {ret.player}")
        if shown_at_showdown:
            out.append("*** SHOW DOWN ***")
            for shown in shown_at_showdown:
                if shown.status is ShowStatus.MUCKED:
                    out.append(f"{shown.player}: mucks hand ")
                else:
                    description = describe_shown(shown.high_text, shown.low_text)
                    out.append(f"{shown.player}: shows [{_cards(shown.cards)}] ({description})")
            out.extend(self._collect_lines(simulated, m))
            if not any(shown.low_text for shown in shown_at_showdown if shown.status is ShowStatus.SHOWN):
                out.append("No low hand qualified")
        else:
            out.extend(self._collect_lines(simulated, m))
            out.extend(f"{s.player}: doesn't show hand " for s in hand.showdown if s.status is ShowStatus.NOT_SHOWN)
        out.append("*** SUMMARY ***")
        pots = [pot.amount for pot in hand.stated_pots] or simulated.pot_amounts  # a fault may state other amounts
        if len(pots) > 1:
            parts = [f"Main pot {m(pots[0])}."] + [f"Side pot-{i} {m(amount)}." for i, amount in enumerate(pots[1:], 1)]
            out.append(f"Total pot {m(hand.total_pot or 0)} {' '.join(parts)} | Rake {m(hand.rake or 0)} ")
        else:
            out.append(f"Total pot {m(hand.total_pot or 0)} | Rake {m(hand.rake or 0)} ")
        if hand.community_card is not None:
            out.append(f"Board [{hand.community_card}]")
        out.extend(summary_seat_lines(hand, m, self._folded, self._mucked))
        return out

    @staticmethod
    def _deal_lines(hand: Hand) -> dict[Street, list[str]]:
        """The "Dealt to" lines of every street: the hero sees his whole hand, the others' upcards
        only; from 4th street on, the cards so far in one bracket and the new card in another."""
        lines: dict[Street, list[str]] = {street: [] for street in Street}
        repeated = repeated_cards(hand)
        for deal in hand.deals:
            street = deal.street
            is_hero = deal.player == hand.hero
            new = (*deal.down, *deal.up) if is_hero else deal.up
            if street is Street.THIRD:
                lines[street].append(f"Dealt to {deal.player} [{_cards(new)}]")
            elif street is not Street.SEVENTH or is_hero:  # an opponent's 7th-street card is not printed
                lines[street].append(f"Dealt to {deal.player} [{_cards(repeated[(deal.player, street)])}] [{_cards(new)}]")
        return lines

    @staticmethod
    def _action_lines(hand: Hand, street: Street, fmt: Money) -> list[str]:
        lines: list[str] = []
        highest = 0
        aggressive = 0
        brought_in = False
        for action in hand.actions:
            if action.street is not street or action.kind is ActionKind.ANTE:
                continue
            suffix = " and is all-in" if action.all_in else ""
            name = action.player
            kind = action.kind
            if kind is ActionKind.BRING_IN:
                brought_in = True
                lines.append(f"{name}: brings in for {fmt(action.amount)}{suffix}")
            elif kind is ActionKind.CHECK:
                lines.append(f"{name}: checks ")
            elif kind is ActionKind.FOLD:
                lines.append(f"{name}: folds ")
            elif kind is ActionKind.CALL:
                lines.append(f"{name}: calls {fmt(action.amount)}{suffix}")
            elif kind is ActionKind.BET or (kind is ActionKind.COMPLETE and not brought_in):
                lines.append(f"{name}: bets {fmt(action.amount)}{suffix}")
            else:  # a raise, or the completion of a bring-in, which PokerStars writes as a raise
                lines.append(f"{name}: raises {fmt(action.to_amount - highest)} to {fmt(action.to_amount)}{suffix}")
            highest = max(highest, action.to_amount)
            if kind.is_aggressive:
                aggressive += 1
                if aggressive == MAX_BETS:
                    lines.append("Betting is capped")
        return lines

    @staticmethod
    def _collect_lines(simulated: SimulatedHand, fmt: Money) -> list[str]:
        several = len(simulated.pot_amounts) > 1
        lines = []
        for award in simulated.hand.awards:
            where = "pot" if not several else ("main pot" if award.pot == 0 else f"side pot-{award.pot}")
            lines.append(f"{award.player} collected {fmt(award.amount)} from {where}")
        return lines

    @staticmethod
    def _folded(hand: Hand, fold: Action) -> str:
        name = fold.player
        put_in_third = any(a.player == name and a.street is Street.THIRD and a.amount
                           and a.kind is not ActionKind.ANTE for a in hand.actions)
        quiet = " (didn't bet)" if fold.street is Street.THIRD and not put_in_third else ""
        return f"folded on the {_FOLDED_ON[int(fold.street)]}{quiet}"

    @staticmethod
    def _mucked(hand: Hand, shown: ShownHand) -> str:
        return f"mucked [{_cards(shown.cards)}]"


def summary_seat_lines(hand: Hand, fmt: Money, folded: Callable[[Hand, Action], str],
                       mucked: Callable[[Hand, ShownHand], str], after_collected: str = "") -> list[str]:
    """The summary's "Seat N: name ..." lines, which PokerStars and Full Tilt word alike but for a
    fold (``folded``), a muck (``mucked``) and what follows an unshown win's amount."""
    shows = {s.player: s for s in hand.showdown}
    said_won = restated_won(hand)
    lines = []
    for seat in hand.seats:
        name = seat.player
        fold = next((a for a in hand.actions if a.player == name and a.kind is ActionKind.FOLD), None)
        won = said_won.get(name, hand.collected_by(name))
        shown = shows.get(name)
        if fold is not None:
            said = folded(hand, fold)
        elif shown is not None and shown.status is ShowStatus.SHOWN:
            result = f"won ({fmt(won)})" if won else "lost"
            said = f"showed [{_cards(shown.cards)}] and {result} with {describe_shown(shown.high_text, shown.low_text)}"
        elif shown is not None and shown.status is ShowStatus.MUCKED:
            said = mucked(hand, shown)
        else:
            said = f"collected ({fmt(won)}){after_collected}"
        lines.append(f"Seat {seat.seat}: {name} {said}")
    return lines


WRITER = PokerStarsWriter()
