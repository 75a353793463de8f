"""The hand replayer behind `hhtool show`: a hand street by street, as data and as terminal text.

One function builds a plain description (:func:`describe_hand`, also the JSON output); another
renders it with colours. Hidden cards are ``??``.

The viewer is the hero: the player the site names, or where it names none the one player whose
down cards the history deals face up before the showdown. Any other player's down cards the hand
revealed (shown at the showdown, mucked face up in the summary, or printed in the deals by a site
that reveals them afterwards) are put on the streets they were dealt on, marked "revealed later".
With ``hide_hole`` every down card on the streets is ``??`` (the hero's and those revealed later),
to review the hand as the table saw it; the showdown still shows what was shown.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rich.cells import cell_len
from rich.text import Text

from hhtool.evaluation import best_high, best_low
from hhtool.model import ActionKind, Card, Hand, ShowStatus, Street
from hhtool.money import format_at_table
from hhtool.replay import ReplayResult, betting_of
from hhtool.reports.action_words import SHOW_WORDS, action_words, bets_faced
from hhtool.reports.printable import printable
from hhtool.reports.site_words import site_in_words

SUIT_STYLES = {"c": "green", "d": "blue", "h": "red", "s": "bold"}  # four-colour deck

REVEALED_LEGEND = "(Ah): a card the history printed only later (at the showdown or in the summary)"
# a player at showdown was dealt two down and one up on 3rd, one up on 4th to 6th, one down on 7th
_DEALING_LAYOUT = ((Street.THIRD, 2, 1), (Street.FOURTH, 0, 1), (Street.FIFTH, 0, 1), (Street.SIXTH, 0, 1),
                   (Street.SEVENTH, 1, 0))


def _card(card: Card | None, hidden: bool = False) -> str:
    return "??" if card is None or hidden else str(card)


@dataclass
class _Dealt:
    """One player's cards on one street as the replayer shows them; ``*_later`` flags the cards the
    history printed only after the hand (at the showdown, in the summary)."""

    street: Street
    player: str
    down: list[Card | None] = field(default_factory=list)
    up: list[Card | None] = field(default_factory=list)
    down_later: list[bool] = field(default_factory=list)
    up_later: list[bool] = field(default_factory=list)


def hero_of(hand: Hand) -> str | None:
    """The site's hero, else the one player whose down cards the deals show (None when no one's, or
    several players' are shown: then the history was not dealt to one viewer)."""
    if hand.hero is not None:
        return hand.hero
    known = {d.player for d in hand.deals if any(card is not None for card in d.down)}
    return known.pop() if len(known) == 1 else None


def dealt_cards(hand: Hand, hero: str | None) -> list[_Dealt]:
    """The deals with the cards the hand revealed later put on their streets.

    Shown cards not already on a street fill the player's hidden down cards in the order the
    site lists them (the model keeps dealing order), a 7th-street down card added where the
    history printed no 7th deal; only when the counts match, else the showdown alone shows them.
    A player with no card printed on any street (PartyPoker prints only the hero's) who shows seven
    holds seven unknown cards on their streets: the showdown's list does not say which card was
    dealt where (his door card among them), as the judgement reads it (issue #33), so none is drawn
    on a street as if seen there."""
    dealt: dict[tuple[Street, str], _Dealt] = {}
    for deal in hand.deals:
        entry = dealt.setdefault((deal.street, deal.player), _Dealt(deal.street, deal.player))
        later = deal.player != hero
        entry.down += deal.down
        entry.down_later += [later and card is not None for card in deal.down]
        entry.up += deal.up
        entry.up_later += [False] * len(deal.up)
    for shown in hand.showdown:
        if shown.player == hero:
            continue
        known = [c for c in shown.cards if c is not None and c != hand.community_card]
        own = [entry for (_, player), entry in sorted(dealt.items()) if player == shown.player]
        placed = {card for entry in own for card in (*entry.down, *entry.up) if card is not None}
        unplaced = [card for card in known if card not in placed]
        if not unplaced:
            continue
        if not placed:
            if len(known) == 7 and not own:  # his cards, but which one was dealt where the history never says
                for street, downs, ups in _DEALING_LAYOUT:
                    dealt[(street, shown.player)] = _Dealt(street, shown.player, [None] * downs, [None] * ups,
                                                           [False] * downs, [False] * ups)
            continue
        slots = [(entry, index) for entry in own for index, card in enumerate(entry.down) if card is None]
        seventh = dealt.get((Street.SEVENTH, shown.player))
        reached_seventh = any(e.street is Street.SIXTH for e in own) and hand.community_card is None
        if reached_seventh and (seventh is None or not seventh.down) and len(slots) + 1 == len(unplaced):
            seventh = dealt.setdefault((Street.SEVENTH, shown.player), _Dealt(Street.SEVENTH, shown.player))
            seventh.down.append(None)
            seventh.down_later.append(False)
            slots.append((seventh, len(seventh.down) - 1))
        if len(slots) != len(unplaced):
            continue
        for (entry, index), card in zip(slots, unplaced, strict=True):
            entry.down[index] = card
            entry.down_later[index] = True
    order = {player: index for index, player in enumerate(hand.position_order)}
    return sorted(dealt.values(), key=lambda e: (e.street, order.get(e.player, len(order))))


def describe_hand(hand: Hand, result: ReplayResult | None, hide_hole: bool = False) -> dict[str, Any]:
    """Everything the replayer shows, as plain data (money in smallest units)."""
    money = lambda amount: format_at_table(amount, hand.stakes.unit, hand.stakes.currency)  # noqa: E731 - a local shorthand
    violations_by_line: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for violation in result.violations if result else ():
        violations_by_line[violation.line].append(
            {"code": violation.code, "player": violation.player, "message": violation.message,
             "expected": violation.expected, "actual": violation.actual})
    streets: list[dict[str, Any]] = []
    # the pot, the chips to call and the bet level as the replay engine found them (a hand shown
    # without a replay is walked for them; None where even the walk failed)
    betting = result.betting if result is not None and result.betting is not None else betting_of(hand)
    pot_after_round = dict(betting.pot_after_round) if betting else {}
    antes = [a for a in hand.actions if a.kind is ActionKind.ANTE]
    faced = bets_faced(hand.actions)
    hero = hero_of(hand)
    all_dealt = dealt_cards(hand, hero)
    for street in Street:
        deals = [d for d in all_dealt if d.street is street]
        actions = [(i, a) for i, a in enumerate(hand.actions) if a.street is street and a.kind is not ActionKind.ANTE]
        returns = [r for r in hand.uncalled if r.street is street]
        if not deals and not actions and not returns:
            continue
        rows = []
        for index, action in actions:
            text = f"{action.player} {action_words(action, faced[index], hand.site, money)}"
            rows.append({"player": action.player, "kind": action.kind.value, "amount": action.amount,
                         "to_amount": action.to_amount, "all_in": action.all_in,
                         "pot": betting.pot_before[index] + action.amount if betting else None,
                         "to_call": betting.to_call[index] if betting else None,
                         "level_before": betting.level_before[index] if betting else None, "line": action.line,
                         "text": text,
                         "violations": violations_by_line.get(action.line, [])})
        for ret in returns:
            # the site's return line, beside the pot once the rules returned what nobody called
            rows.append({"player": ret.player, "kind": "uncalled_return", "amount": -ret.amount,
                         "pot": pot_after_round.get(int(street)),
                         "line": ret.line, "text": f"uncalled {money(ret.amount)} returned to {ret.player}",
                         "violations": violations_by_line.get(ret.line, [])})
        streets.append({
            "street": int(street), "label": street.label,
            "deals": [{"player": d.player, "down": [_card(c, hide_hole) for c in d.down],
                       "up": [_card(c) for c in d.up],
                       "down_revealed_later": [later and not hide_hole for later in d.down_later],
                       "up_revealed_later": d.up_later} for d in deals],
            "actions": rows,
        })
    showdown = []
    for shown in hand.showdown:
        known = tuple(c for c in shown.cards if c is not None)
        entry: dict[str, Any] = {"player": shown.player, "status": shown.status.value, "words": SHOW_WORDS[shown.status],
                                 "cards": [_card(c) for c in shown.cards], "site_high": shown.high_text,
                                 "site_low": shown.low_text}
        if shown.status is ShowStatus.SHOWN and 5 <= len(known) <= 7 and len(set(known)) == len(known):
            high, low = best_high(known), best_low(known)
            entry["high"] = high.describe()
            entry["low"] = low.describe() if low else None
        showdown.append(entry)
    site_awards: dict[str, int] = defaultdict(int)
    for award in hand.awards:
        site_awards[award.player] += award.amount
    rules_awards = {a.player: a.rules_amount for a in result.awards} if result else {}
    awards = [{"player": player, "site": site_awards.get(player, 0), "rules": rules_awards.get(player)}
              for player in hand.players if player in site_awards or player in rules_awards]
    hand_level = [v for line, items in violations_by_line.items() for v in items
                  if line not in {row["line"] for s in streets for row in s["actions"]}]
    return {
        "site": hand.site, "hand_id": hand.hand_id, "game": hand.game_label,
        "started_at": hand.started_at.isoformat(sep=" ") if hand.started_at else None, "timezone": hand.timezone,
        "table": hand.table_name, "currency": hand.stakes.currency, "unit": hand.stakes.unit,
        "stakes": {"ante": hand.stakes.ante, "bring_in": hand.stakes.bring_in, "small_bet": hand.stakes.small_bet,
                   "big_bet": hand.stakes.big_bet, "sources": hand.stakes.provenance},
        "hero": hero, "hole_cards_hidden": hide_hole,
        "seats": [{"seat": s.seat, "player": s.player, "stack": s.stack, "sitting_out": s.sitting_out,
                   "hero": s.player == hero} for s in hand.seats],
        "antes": [{"player": a.player, "amount": a.amount} for a in antes],
        "streets": streets, "showdown": showdown, "awards": awards,
        "total_pot": hand.total_pot, "rake": hand.rake,
        "verdict": result.verdict.value if result else None,
        "other_violations": hand_level,
        "unverifiable": [{"check": u.check, "reason": u.reason, "line": u.line} for u in result.unverifiable] if result else [],
        "assumptions": [{"kind": a.kind.value, "value": a.value, "words": a.words, "line": a.line}
                        for a in result.assumptions] if result else [],
    }


def _cards_text(cards: list[str], later: list[bool] | None = None) -> Text:
    """``[7c 3s]``; a card revealed later in parentheses and dimmed, ``[(Ah) (2d)]``."""
    text = Text("[")
    text.append_text(_card_run(cards, later))
    text.append("]")
    return text


def _card_run(cards: list[str], later: list[bool] | None = None) -> Text:
    text = Text()
    for index, card in enumerate(cards):
        if index:
            text.append(" ")
        if later is not None and later[index]:
            text.append(f"({card})", style="dim " + SUIT_STYLES.get(card[-1], ""))
        else:
            text.append(card, style="dim" if card == "??" else SUIT_STYLES.get(card[-1], ""))
    return text


@dataclass
class Board:
    """One player's cards on the table after a street's deal: the down cards of 3rd street, every up
    card so far, and the down card of 7th street (each card with its "revealed later" flag)."""

    player: str
    down: list[tuple[str, bool]] = field(default_factory=list)
    up: list[tuple[str, bool]] = field(default_factory=list)
    last: list[tuple[str, bool]] = field(default_factory=list)  # 7th street's down card


def boards(described: dict[str, Any]) -> list[list[Board]]:
    """For each described street, the whole board of every player dealt on it (in the street's
    order): what the table saw, and why one of them acts first (the up cards decide)."""
    so_far: dict[str, Board] = {}
    per_street: list[list[Board]] = []
    for street in described["streets"]:
        shown: list[Board] = []
        for deal in street["deals"]:
            board = so_far.setdefault(deal["player"], Board(deal["player"]))
            downs = list(zip(deal["down"], deal["down_revealed_later"], strict=True))
            if street["street"] == int(Street.SEVENTH):
                board.last += downs
            else:
                board.down += downs
            board.up += zip(deal["up"], deal["up_revealed_later"], strict=True)
            shown.append(Board(board.player, list(board.down), list(board.up), list(board.last)))
        per_street.append(shown)
    return per_street


#: how the boards read, said once above the streets
BOARD_LEGEND = "cards: [down | up | 7th street's down card]"


def board_text(board: Board, mark_later: bool = True) -> Text:
    """``[7c 3s | 5h Qc 9d 2s | 8c]``: the down cards, the up cards, the 7th-street down card; without
    ``mark_later`` a card revealed later is ``??`` (what the table saw)."""
    groups = [board.down, board.up] + ([board.last] if board.last else [])
    text = Text("[")
    for index, group in enumerate(groups):
        if index:
            text.append(" | ")
        cards = [card if mark_later or not later else "??" for card, later in group]
        text.append_text(_card_run(cards, [later and mark_later for _, later in group]) if cards else Text("-"))
    text.append("]")
    return text


def _showdown_heading(described: dict[str, Any]) -> str:
    """"showdown" where a player turned cards up or mucked them there; "no showdown" where the last
    player took the pot without showing ("doesn't show hand")."""
    shown = any(entry["status"] != ShowStatus.NOT_SHOWN.value for entry in described["showdown"])
    return "showdown" if shown else "no showdown"


def _showdown_lines(shown: dict[str, Any], width: int | None) -> list[Text]:
    """A player's showdown: the cards, then the hands read; where the line passes ``width`` the
    reading goes under the cards, broken at its "; " (never inside "low: none")."""
    line = Text(f"  {shown['player']} {shown['words']}")
    if shown["cards"]:  # (a player who did not show has no cards to print, not "[]")
        line.append(" ")
        line.append_text(_cards_text(shown["cards"]))
    if "high" not in shown:
        return [line]
    parts = [f"high: {shown['high']};", f"low: {shown['low'] or 'none'}"]
    whole = "  " + " ".join(parts)
    if width is None or cell_len(line.plain + whole) <= width:
        line.append(whole)
        return [line]
    if cell_len("    " + " ".join(parts)) <= width:
        return [line, Text("    " + " ".join(parts))]
    return [line, *(Text("    " + part) for part in parts)]


def render_text(described: dict[str, Any], hand: Hand, width: int | None = None) -> list[Text]:
    """The description as coloured terminal lines; ``width`` (the terminal's) decides where a
    showdown's hand readings break."""
    def money(amount: int | None) -> str:
        return "?" if amount is None else format_at_table(amount, hand.stakes.unit, hand.stakes.currency)

    lines = [Text(f"{site_in_words(described['site'])} hand #{described['hand_id']} — {described['game']}", style="bold")]
    started = " ".join(part for part in (described["started_at"], described["timezone"]) if part)
    where = " · ".join(part for part in (described["table"], started) if part)
    if where:  # the table and the start on a line of their own: with the stakes they pass 80 columns
        lines.append(Text(where))
    stakes = described["stakes"]
    lines.append(Text(f"{money(stakes['small_bet'])}/{money(stakes['big_bet'])}, ante {money(stakes['ante'])}, "
                      f"bring-in {money(stakes['bring_in'])}"))
    lines.append(Text(f"  ({stakes['sources']})", style="dim"))
    for seat in described["seats"]:
        note = " (hero)" if seat["hero"] else ""
        note += " sitting out" if seat["sitting_out"] else ""
        lines.append(Text(f"  Seat {seat['seat']}: {seat['player']} {money(seat['stack'])}{note}"))
    revealed = any(any(d["down_revealed_later"]) or any(d["up_revealed_later"])
                   for street in described["streets"] for d in street["deals"])
    if revealed:
        lines.append(Text(REVEALED_LEGEND, style="dim"))
    if described["hole_cards_hidden"]:
        lines.append(Text("hole cards hidden (--hide-hole): down cards are ?? until the showdown", style="dim"))
    elif described["hero"] is None:
        lines.append(Text("no hero: the history names none and deals no one's down cards face up", style="dim"))
    if described["streets"]:
        lines.append(Text(BOARD_LEGEND, style="dim"))
    for street, street_boards in zip(described["streets"], boards(described), strict=True):
        lines.append(Text(f"*** {street['label']} street ***", style="bold cyan"))
        for board in street_boards:
            line = Text(f"  {board.player}: ")
            line.append_text(board_text(board))
            lines.append(line)
        for action in street["actions"]:
            lines.append(Text(f"  {action['text']}".ljust(45) + f" pot {money(action['pot'])}"))
            for violation in action["violations"]:
                lines.append(Text(f"    ⚠ {violation['code']}: {violation['message']}", style="bold red"))
    if described["showdown"]:
        lines.append(Text(f"*** {_showdown_heading(described)} ***", style="bold cyan"))
    for shown in described["showdown"]:
        lines += _showdown_lines(shown, width)
    lines.append(Text("*** awards: site / rules ***", style="bold cyan"))
    for award in described["awards"]:
        differs = award["rules"] is not None and award["rules"] != award["site"]
        lines.append(Text(f"  {award['player']}: {money(award['site'])} / {money(award['rules'])}",
                          style="bold red" if differs else ""))
    lines.append(Text(f"Total pot {money(described['total_pot'])}, rake {money(described['rake'])}; "
                      f"verdict: {described['verdict']}"))
    for violation in described["other_violations"]:
        lines.append(Text(f"  ⚠ {violation['code']}: {violation['message']}", style="bold red"))
    lines += allin_lines(described.get("allin"), money, width or 80)
    for item in described["unverifiable"]:
        where = "" if item["line"] is None else f" (line {item['line']})"
        lines.append(Text(f"  unverifiable {item['check']}{where}: {item['reason']}", style="yellow"))
    for assumed in described.get("assumptions", []):
        lines.append(Text(f"  assumed: {assumed['words']}"))
    return lines


def allin_lines(allin: dict[str, Any] | None, money: Callable[[int | None], str], width: int) -> list[Text]:
    """The all-in section: each street's equities where every live hand is known, then the all-in EV
    (docs/allin-ev.md) rounded to the smallest unit, or why there is none. Nothing for a hand with
    neither equities nor an all-in."""
    if not allin or (not allin["streets"] and allin["status"] in ("no_all_in", "uncontested")):
        return []
    lines = [Text("*** all-in equity ***", style="bold cyan")]
    for street in allin["streets"]:
        how = "exact" if street["exact"] else "sampled"
        parts = [f"{player} {share:.1%}" for player, share in street["equity"].items()]
        lines += [Text(line) for line in _packed(f"  {Street(street['street']).label}: ", parts, f" ({how})", width)]
    if "ev_net_milli" in allin:
        lines.append(Text(f"  all-in EV, the betting closed on {Street(allin['street']).label} ({allin['words']}, "
                          f"{allin['deals']:,} deals):"))
        evs = allin["ev_net_milli"]  # the live players' (a folded player's is what he put in, lost)
        parts = [f"{player} {money((evs[player] + 500) // 1000)}" for player in allin["players"]]
        lines += [Text(line) for line in _packed("    ", parts, "", width)]
    else:
        lines.append(Text(f"  no all-in EV: {allin['words']}", style="dim"))
    return lines


def _packed(first: str, parts: list[str], last: str, width: int) -> list[str]:
    """``parts`` joined by " · " after ``first``, ``last`` at the end, broken into lines of ``width``."""
    lines, line = [], first
    for index, part in enumerate(parts):
        piece = part + (last if index == len(parts) - 1 else "")
        if line.strip() and len(line) + 3 + len(piece) > width and line != first:
            lines.append(line)
            line = " " * len(first)
        line += ("" if line.strip() == "" or line == first else " · ") + piece
    lines.append(line)
    return lines


# ------------------------------------------------------------------ `show --format forum`

#: the widest line of a forum post: a forum's code box and a phone both show 72 columns whole
FORUM_WIDTH = 72
_MARKUP = str.maketrans({"[": "(", "]": ")", "<": "‹", ">": "›", "`": "'"})


def forum_safe(text: str) -> str:
    """A name as a forum post carries it: control and format characters (escapes, line breaks, the
    bidirectional overrides) as "?", and the brackets a forum reads as markup (``[b]``, ``<a>``, a
    backtick) as look-alikes that are not markup."""
    return "".join(c if c.isprintable() else "?" for c in printable(text)).translate(_MARKUP)


def _wrapped(text: str, width: int, indent: str, first: str = "") -> list[str]:
    """``first`` + ``text`` broken between words into lines of at most ``width`` cells, the
    continuations after ``indent``; a word longer than a line is cut."""
    lines: list[str] = []
    current, fresh = first, True
    for word in text.split(" "):
        candidate = current + word if fresh else f"{current} {word}"
        if cell_len(candidate) > width and not fresh:
            lines.append(current)
            candidate = indent + word
        current, fresh = candidate, False
        while cell_len(current) > width:  # a word longer than a line
            cut = width
            while cell_len(current[:cut]) > width:
                cut -= 1
            lines.append(current[:cut])
            current = indent + current[cut:]
    lines.append(current)
    return lines


def render_forum(described: dict[str, Any], hand: Hand, width: int = FORUM_WIDTH) -> str:
    """The hand as a plain-text post for a poker forum: no colours, no escapes, lines of at most
    ``width`` columns; cards as ``[7c 3s | 5h Qc]`` (down | up), each street with every player's
    board, the actions with amounts and the pot, the showdown and who won. The opponents' down
    cards stay ``??`` until the showdown (the hero's view); ``hole_cards_hidden`` hides the hero's too."""
    def money(amount: int | None) -> str:
        return "?" if amount is None else format_at_table(amount, hand.stakes.unit, hand.stakes.currency)

    def name(player: str) -> str:
        return forum_safe(player)

    out: list[str] = []

    def say(text: str, indent: str = "") -> None:
        out.extend(_wrapped(text, width, indent + "    ", indent))

    stakes = described["stakes"]
    say(f"{forum_safe(described['game'] or 'Stud Hi/Lo')}, {money(stakes['small_bet'])}/{money(stakes['big_bet'])}"
        f" (ante {money(stakes['ante'])}, bring-in {money(stakes['bring_in'])})")
    where = [f"{forum_safe(site_in_words(described['site']))} hand #{forum_safe(described['hand_id'])}"]
    if described["table"]:
        where.append(f"table {forum_safe(described['table'])}")
    if described["started_at"]:
        where.append(" ".join(part for part in (described["started_at"], described["timezone"]) if part))
    say(", ".join(where))
    say("Cards: [down | up | 7th street's down card]; ?? is a card not seen.")
    out.append("")
    for seat in described["seats"]:
        note = " - hero" if seat["hero"] else ""
        note += " - sitting out" if seat["sitting_out"] else ""
        say(f"Seat {seat['seat']}: {name(seat['player'])} ({money(seat['stack'])}){note}")
    if described["antes"]:
        total = sum(a["amount"] for a in described["antes"])
        say(f"Antes: {money(total)} from {len(described['antes'])} players")
    for street, street_boards in zip(described["streets"], boards(described), strict=True):
        out.append("")
        say(f"*** {street['label'].upper()} STREET ***")
        for board in street_boards:
            say(f"{name(board.player)}: {board_text(board, mark_later=False).plain}", "  ")
        for action in street["actions"]:
            text = forum_safe(action["text"])
            say(f"{text} (pot {money(action['pot'])})" if action["pot"] is not None else text, "  ")
    if described["showdown"]:
        out.append("")
        say(f"*** {_showdown_heading(described).upper()} ***")
        for shown in described["showdown"]:
            cards = f" [{' '.join(shown['cards'])}]" if shown["cards"] else ""
            say(f"{name(shown['player'])} {shown['words']}{cards}", "  ")
            if "high" in shown:
                say(f"high: {shown['high']}; low: {shown['low'] or 'none'}", "    ")
    out.append("")
    say("*** RESULT ***")
    for award in described["awards"]:
        say(f"{name(award['player'])} wins {money(award['site'])}", "  ")
    say(f"Total pot {money(described['total_pot'])}, rake {money(described['rake'])}")
    return "\n".join(out) + "\n"
