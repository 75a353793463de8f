"""Write a simulated hand as Full Tilt Poker text, in the line shapes of the Full Tilt client's Seven
Card Stud Hi/Lo cash histories (hh-formats.md section 2) as ``grammars/fulltilt.lark`` reads them.

Full Tilt differs from PokerStars in ways the writer follows: actions have no colon ("Kilij raises
to $5"), "raises to" and "completes it to" state the street total while "calls" states the chips
added, all-in is ", and is all in", the bring-in is announced by "<name> is low with [card]",
every award names its half and pot ("wins the low main pot"), and the summary's main and side pots
are stated before the rake, which Full Tilt takes from the main pot (give the dealer
``rake_allocation="main_pot"``, as the ``fulltilt`` replay profile says). The real client writes
UTF-16; this writer's text is written as UTF-8 by the simulator (the reader takes either).

Choices where the samples say nothing: deal lines come in seat order (the client puts the hero's
first; seat order keeps the model's dealing order, which the card audit relies on); with more than
one side pot they are numbered "side pot #N" (the grammar's form; the samples show one side pot
only); the deck-exhaustion card is printed only as the summary's "Board: [card]".

>>> WRITER.name
'fulltilt'
"""

from __future__ import annotations

from hhtool.evaluation import best_high, best_low
from hhtool.model import Action, ActionKind, Award, Card, Half, Hand, ShownHand, ShowStatus, Street, cards_text
from hhtool.simulate.dealer import SimulatedHand
from hhtool.simulate.faults import repeated_cards
from hhtool.simulate.writers.pokerstars import Money, amounts_as_printed, describe_shown, summary_seat_lines

_MARKERS = {street: f"*** {street.label.upper()} STREET ***" for street in Street}


def _cards(cards: tuple[Card | None, ...] | list[Card | None]) -> str:
    return cards_text(tuple(cards))


class FullTiltWriter:
    name = "fulltilt"

    def write(self, simulated: SimulatedHand) -> str:
        """The hand's text followed by the blank lines Full Tilt puts between hands."""
        return "\n".join(self.lines(simulated)) + "\n\n\n\n"

    def lines(self, simulated: SimulatedHand) -> list[str]:
        hand = simulated.hand
        stakes = hand.stakes
        m = amounts_as_printed(stakes)

        when = hand.started_at
        stamp = f"{when.hour}:{when:%M:%S} {hand.timezone or 'ET'} - {when:%Y/%m/%d}" if when else "0:00:00 ET - 2026/01/01"
        ante = f" Ante {m(stakes.ante)}" if stakes.ante else ""
        out = [f"Full Tilt Poker Game #{hand.hand_id}: Table {hand.table_name} ({stakes.table_size or 8} max) - "
               f"{m(stakes.small_bet or 0)}/{m(stakes.big_bet or 0)}{ante} - Limit Stud H/L - {stamp}"]
        out.extend(f"Seat {seat.seat}: {seat.player} ({m(seat.stack or 0)})" for seat in hand.seats)
        for action in hand.actions:
            if action.kind is ActionKind.ANTE:
                out.append(f"{action.player} antes {m(action.amount)}" + (", and is all in" if action.all_in else ""))
        deal_lines = self._deal_lines(hand)
        for street in Street:
            actions = [a for a in hand.actions if a.street is street and a.kind is not ActionKind.ANTE]
            community = street is Street.SEVENTH and hand.community_card is not None
            if not deal_lines[street] and not actions and not community:
                continue
            out.append(_MARKERS[street])
            out.extend(deal_lines[street])
            if street is Street.THIRD and actions:
                bringer = actions[0].player
                upcard = next((d.up for d in hand.deals if d.street is Street.THIRD and d.player == bringer), ())
                out.append(f"{bringer} is low with [{_cards(upcard)}]")
            out.extend(self._action_line(action, m) for action in actions)
            out.extend(f"Uncalled bet of {m(r.amount)} returned to {r.player}" for r in hand.uncalled if r.street is street)
        shown = [s for s in hand.showdown if s.status is not ShowStatus.NOT_SHOWN]
        if shown:
            out.append("*** SHOW DOWN ***")
            for entry in shown:
                if entry.status is ShowStatus.MUCKED:
                    out.append(f"{entry.player} mucks")
                else:
                    low = f" and {entry.low_text}, for low" if entry.low_text else ""
                    out.append(f"{entry.player} shows [{_cards(entry.cards)}] {entry.high_text}, for high{low}")
            out.extend(self._win_lines(simulated, m))
            if not any(entry.low_text for entry in shown if entry.status is ShowStatus.SHOWN):
                out.append("No low hand qualified")
        else:  # nobody called: the winner "mucks" (does not show) and wins the pot
            out.extend(f"{award.player} mucks" for award in hand.awards[:1])
            out.extend(self._win_lines(simulated, m))
        out.append("*** SUMMARY ***")
        out.append(self._total_line(simulated, m))
        if hand.community_card is not None:
            out.append(f"Board: [{hand.community_card}]")
        out.extend(summary_seat_lines(hand, m, self._folded, self._mucked, after_collected=", mucked"))
        return out

    @staticmethod
    def _deal_lines(hand: Hand) -> dict[Street, list[str]]:
        """3rd street: the hero's two down cards and upcard, the others' upcard; later, the cards so
        far (the hero's all, the others' upcards) then the new card; others' 7th card is not shown."""
        lines: dict[Street, list[str]] = {street: [] for street in Street}
        repeated = repeated_cards(hand)
        for deal in hand.deals:
            is_hero = deal.player == hand.hero
            if deal.street is Street.THIRD:
                if is_hero:
                    lines[deal.street].append(f"Dealt to {deal.player} [{_cards(deal.down)}] [{_cards(deal.up)}]")
                else:
                    lines[deal.street].append(f"Dealt to {deal.player} [{_cards(deal.up)}]")
                continue
            new = (*deal.down, *deal.up) if is_hero else deal.up
            if new:
                before = repeated[(deal.player, deal.street)]
                lines[deal.street].append(f"Dealt to {deal.player} [{_cards(before)}] [{_cards(new)}]")
        return lines

    @staticmethod
    def _action_line(action: Action, fmt: Money) -> str:
        suffix = ", and is all in" if action.all_in else ""
        name, kind = action.player, action.kind
        if kind is ActionKind.BRING_IN:
            return f"{name} brings in for {fmt(action.amount)}{suffix}"
        if kind is ActionKind.COMPLETE:
            return f"{name} completes it to {fmt(action.to_amount)}{suffix}"
        if kind is ActionKind.BET:
            return f"{name} bets {fmt(action.amount)}{suffix}"
        if kind is ActionKind.RAISE:
            return f"{name} raises to {fmt(action.to_amount)}{suffix}"
        if kind is ActionKind.CALL:
            return f"{name} calls {fmt(action.amount)}{suffix}"
        return f"{name} {'checks' if kind is ActionKind.CHECK else 'folds'}"

    @staticmethod
    def _pot_name(pot: int | None, pot_count: int) -> str:
        if pot_count <= 1 or pot is None:
            return "pot"
        if pot == 0:
            return "main pot"
        return "side pot" if pot_count == 2 else f"side pot #{pot}"

    def _win_lines(self, simulated: SimulatedHand, fmt: Money) -> list[str]:
        hand = simulated.hand
        shown = {s.player: s for s in hand.showdown if s.status is ShowStatus.SHOWN}
        pot_count = len(simulated.pot_amounts)
        lines = []
        for award in hand.awards:
            tied = sum(1 for other in hand.awards if other.pot == award.pot and other.half is award.half) > 1
            half = {Half.HIGH: "high ", Half.LOW: "low "}.get(award.half, "")
            verb = "ties for" if tied else "wins"
            line = f"{award.player} {verb} the {half}{self._pot_name(award.pot, pot_count)} ({fmt(award.amount)})"
            lines.append(line + self._with(award, shown.get(award.player)))
        return lines

    @staticmethod
    def _with(award: Award, shown: ShownHand | None) -> str:
        if shown is None:
            return ""
        text = shown.low_text if award.half is Half.LOW else shown.high_text
        return f" with {text}" if text else ""

    @staticmethod
    def _total_line(simulated: SimulatedHand, fmt: Money) -> str:
        """Full Tilt states each pot before the rake (the rake comes out of the main pot)."""
        hand = simulated.hand
        pots = [pot.amount for pot in hand.stated_pots] or list(simulated.pot_amounts)  # a fault may state others
        total = f"Total pot {fmt(hand.total_pot or 0)}"
        if len(pots) > 1:
            rakes = list(simulated.pot_rakes) or [hand.rake or 0] + [0] * (len(pots) - 1)
            gross = [net + cut for net, cut in zip(pots, rakes, strict=True)]
            names = ["Side pot"] if len(pots) == 2 else [f"Side pot #{i}" for i in range(1, len(pots))]
            parts = [f"Main pot {fmt(gross[0])}."] + [f"{name} {fmt(a)}." for name, a in zip(names, gross[1:], strict=True)]
            total += " " + " ".join(parts)
        return f"{total} | Rake {fmt(hand.rake or 0)}"

    @staticmethod
    def _folded(hand: Hand, fold: Action) -> str:
        return f"folded on {fold.street.label} St."

    @staticmethod
    def _mucked(hand: Hand, shown: ShownHand) -> str:
        """Full Tilt's summary describes a mucked hand: its best high and low, with the common card."""
        community = (hand.community_card,) if hand.community_card is not None else ()
        cards = [c for c in (*shown.cards, *community) if c is not None]
        low = best_low(cards)
        description = describe_shown(best_high(cards).describe(), low.describe() if low else None)
        return f"mucked [{_cards(shown.cards)}] - {description}"


WRITER = FullTiltWriter()
