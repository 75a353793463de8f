"""Two copies of one hand: the same hand, or a conflict (an edited history)?

A hand is identified by (site, hand id) (:func:`hhtool.model.hand_identity`: a PHH file hhtool wrote
names its origin site and id, so ``phh`` hand ``pokerstars:200`` is PokerStars hand ``200`` again). When a second copy of a stored
hand arrives, the first copy is kept, and the two are compared:

* copies in the same format compare as text, normalised only for what a re-export by the site
  changes without changing the history: line endings, encoding (both are decoded text already),
  blanks at the ends of lines, runs of blanks inside a line, and blank lines;
* copies in different formats (a PHH re-export beside the site's text), or a first copy whose text
  is no longer readable, compare by content: seats, stacks, forced bets and stakes, every action,
  every card, returns, showdown and awards (:func:`content_lines`), not line numbers or notes;
* two players' own histories of one hand differ in the hole cards each was dealt: copies with
  different heroes are the same hand when their content agrees wherever both show a card.

Anything else is a conflict, stored with both sources and a line-level diff summary.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Sequence

from hhtool.model import ActionKind, Hand, cards_text, text_lines

#: the blanks a re-export may change (ASCII: a U+2028 or U+00A0 in a name is part of it)
_BLANKS = re.compile(r"[ \t]+")

#: changed lines quoted in a diff summary at most
DIFF_LINES = 6
#: characters of one quoted line at most
QUOTE_CHARS = 120


def normalised_lines(text: str) -> list[str]:
    """A history's lines as a re-export may change them harmlessly: NFC, blanks collapsed, no blank lines.

    >>> normalised_lines("Seat 1:  Bob ($5)  \\n\\n  Seat 2: Al ($4)")
    ['Seat 1: Bob ($5)', 'Seat 2: Al ($4)']
    """
    lines = (" ".join(_BLANKS.split(line.strip(" \t"))) for line in text_lines(unicodedata.normalize("NFC", text)))
    return [line for line in lines if line]


def content_lines(hand: Hand) -> list[str]:
    """The hand's content, one fact a line, in a form that does not depend on the file format."""
    stakes = hand.stakes
    lines = [f"stakes {stakes.structure.value} {stakes.currency}/{stakes.unit} ante {stakes.ante} "
             f"bring-in {stakes.bring_in} bets {stakes.small_bet}/{stakes.big_bet}",
             f"pot {hand.total_pot} rake {hand.rake} fees {hand.fees} community {hand.community_card or '-'}"]
    lines += [f"seat {s.seat} {s.player} stack {s.stack}{' sitting out' if s.sitting_out else ''}"
              for s in sorted(hand.seats, key=lambda seat: seat.seat)]
    # who is dealt first on a street, and the order of antes, showdown and collect lines, are the
    # format's presentation (a PHH file lists them otherwise); the order of the other actions is the history
    lines += sorted(f"deal {int(d.street)} {d.player} down [{cards_text(d.down)}] up [{cards_text(d.up)}]"
                    for d in hand.deals)
    actions = [f"action {int(a.street)} {a.player} {a.kind.value} {a.amount} to {a.to_amount}{' all-in' if a.all_in else ''}"
               for a in hand.actions]
    antes = sum(1 for a in hand.actions if a.kind is ActionKind.ANTE)
    lines += sorted(actions[:antes]) + actions[antes:]  # antes come first, posted together: their order is no fact
    lines += sorted(f"return {int(r.street)} {r.player} {r.amount}" for r in hand.uncalled)
    lines += sorted(f"show {s.player} {s.status.value} [{cards_text(s.cards)}]" for s in hand.showdown)
    lines += sorted(f"award {a.player} {a.amount} pot {a.pot} {a.half.value}" for a in hand.awards)
    return lines


def _views_agree(first: Sequence[str], second: Sequence[str]) -> bool:
    """Equal line by line, where a hidden card (``??``) on either side matches any card."""
    if len(first) != len(second):
        return False
    for a, b in zip(first, second, strict=True):
        if a == b:
            continue
        words_a, words_b = a.split(" "), b.split(" ")
        if len(words_a) != len(words_b) or words_a[0] not in ("deal", "show"):
            return False
        for word_a, word_b in zip(words_a, words_b, strict=True):
            if word_a != word_b and "??" not in (word_a.strip("[]"), word_b.strip("[]")):
                return False
    return True


def diff_summary(first: Sequence[str], second: Sequence[str], what: str = "lines") -> str:
    """Which lines differ, quoted: '2 lines differ (1 changed, 1 added): ...'."""
    changed = added = removed = 0
    quotes: list[str] = []

    def quote(sign: str, line: str) -> None:
        if len(quotes) < DIFF_LINES:
            quotes.append(f"{sign} {line[:QUOTE_CHARS]!r}")

    matcher = difflib.SequenceMatcher(None, list(first), list(second), autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        if tag == "replace":
            changed += max(i2 - i1, j2 - j1)
        elif tag == "delete":
            removed += i2 - i1
        else:
            added += j2 - j1
        for line in first[i1:i2]:
            quote("first:", line)
        for line in second[j1:j2]:
            quote("second:", line)
    parts = [f"{n} {label}" for n, label in ((changed, "changed"), (removed, "only in the first"),
                                             (added, "only in the second")) if n]
    total = changed + added + removed
    if not total:
        return f"no {what} differ"
    counted = f"1 {what.removesuffix('s')} differs" if total == 1 else f"{total} {what} differ"
    return f"{counted} ({', '.join(parts)}): " + "; ".join(quotes)


def compare_copies(first: Hand | None, first_text: str | None, second: Hand, second_text: str) -> tuple[str, str] | None:
    """None when the copies are the same hand; else (how they differ: 'text' or 'content', diff summary)."""
    heroes_differ = first is not None and bool(first.hero and second.hero) and first.hero != second.hero
    same_format = first is not None and first.site == second.site
    if first_text is not None and (same_format or first is None):
        text_a, text_b = normalised_lines(first_text), normalised_lines(second_text)
        if text_a == text_b:
            return None
        if not heroes_differ or first is None:
            return "text", diff_summary(text_a, text_b)
    if first is None:
        return "content", "the first copy can no longer be read"
    content_a, content_b = content_lines(first), content_lines(second)
    if content_a == content_b or (heroes_differ and _views_agree(content_a, content_b)):
        return None
    return "content", diff_summary(content_a, content_b, "facts")
