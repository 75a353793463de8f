"""Shared XML helpers for the XML-format sites (iPoker sessions, Merge/Carbon fragments).

These sites have no Lark grammar: their files are read with a real XML parser,
``defusedxml``, which refuses DTDs, entity declarations and external references, so a
hostile file cannot expand entities or reach the network. Three things are shared:

* :func:`split_games` cuts a file's decoded lines into one ``RawHand`` per ``<game>``
  element, by a lexical scan for the element's start and end tags rather than one
  parse of the whole file, so a malformed game cannot break its neighbours (a tag in a
  comment, CDATA section or processing instruction is text, and ends no game). When a
  game's tags share a line with other markup (iPoker writes ``</game><game
  gamecode=...>`` on one line) the edge lines are cut at the tags: the hand's text is
  exactly the element, and its first/last line are the file's lines. Each hand also
  carries, in ``RawHand.header``/``header_line``, the file header (the iPoker session
  ``<general>``, the Merge ``<description/>``) every game of the file needs to know
  its game and stakes.
* :class:`XmlSiteParser` is the sites' common skeleton: it splits with :func:`split_games`
  and reads a hand's ``<game>`` start tag (:meth:`~XmlSiteParser.start_attributes`) and whole
  element (:meth:`~XmlSiteParser.game_tree`); a site declares where its file header starts.
* :func:`parse_xml` parses a piece of text (wrapping fragments in a synthetic root)
  and remembers, for every element, the file line of its start tag.

>>> tree = parse_xml('<a x="1">\\n  <b/><b/>\\n</a>', first_line=10)
>>> [tree.line_of(b) for b in tree.root.iter("b")]
[11, 11]
>>> parse_xml('<!DOCTYPE a [<!ENTITY e "boom">]><a>&e;</a>', first_line=1)
Traceback (most recent call last):
...
hhtool.sites.kit.base.HandParseError: line 1: XML declares a DTD or entity, which is refused
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterable, Iterator
from dataclasses import replace
from functools import cache
from typing import ClassVar

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import XMLParser

from hhtool.model import CUT_LINE_MARK, Action, ActionKind, FailureKind, RawHand, Street
from hhtool.sites.kit.base import HandBuilder, HandParseError, SiteParser, Splitting
from hhtool.sites.kit.stray_bytes import STRAY_CHARACTERS

SYNTHETIC_ROOT = "hhtool-fragments"
_DECLARATION = re.compile(r"<\?xml[^>]*\?>")
#: what text between games may hold and still be none: blanks, byte-order marks and NULs
_BLANK_OR_STRAY = " \t\r\n\f\v" + STRAY_CHARACTERS
#: a game's start or end tag, or the start of markup whose text is no tag (a comment, a CDATA
#: section, a processing instruction: a ``</game>`` in them ends nothing)
_GAME_TAG = re.compile(r"<game\b|</game\s*>|<!--|<!\[CDATA\[|<\?")
_OPAQUE_END = {"<!--": "-->", "<![CDATA[": "]]>", "<?": "?>"}
_GAME_START_TAG = re.compile(r"<game\b[^>]*>")
_GAME_CLOSED = re.compile(r"</game\s*>\s*\Z")


class LocatedTree:
    """A parsed element tree that knows the file line of every element's start tag."""

    def __init__(self, root: ElementTree.Element, lines: dict[ElementTree.Element, int]) -> None:
        self.root = root
        self._lines = lines

    def line_of(self, element: ElementTree.Element) -> int:
        return self._lines[element]


class _LineRecordingBuilder(ElementTree.TreeBuilder):
    """Tree builder noting expat's current line as each start tag is read."""

    def __init__(self, line_offset: int) -> None:
        super().__init__()
        self.line_offset = line_offset
        self.parser: XMLParser | None = None
        self.lines: dict[ElementTree.Element, int] = {}

    def start(self, tag: str, attrs: dict[str, str]) -> ElementTree.Element:
        element = super().start(tag, attrs)
        assert self.parser is not None
        self.lines[element] = self.line_offset + self.parser.parser.CurrentLineNumber
        return element


def parse_xml(text: str, first_line: int, *, fragment: bool = False) -> LocatedTree:
    """Parse ``text`` whose first line is file line ``first_line``.

    ``fragment=True`` wraps the text in a synthetic root element (on the same line, so
    line numbers do not move) for files that are a sequence of elements without a root.
    The XML declaration is removed: the reader has already decoded the bytes, and its
    ``encoding`` may be wrong (iPoker declares utf-8 for cp1252 bytes).
    """
    body = _DECLARATION.sub("", text, count=1)
    if fragment:
        body = f"<{SYNTHETIC_ROOT}>{body}</{SYNTHETIC_ROOT}>"
    builder = _LineRecordingBuilder(first_line - 1)
    parser = XMLParser(target=builder, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    builder.parser = parser
    try:
        parser.feed(body)
        root = parser.close()
    except ElementTree.ParseError as error:
        relative_line = error.position[0] if error.position else 1
        raise HandParseError(first_line + relative_line - 1, f"malformed XML: {error}") from None
    except DefusedXmlException:
        raise HandParseError(first_line, "XML declares a DTD or entity, which is refused") from None
    return LocatedTree(root, builder.lines)


def attribute(element: ElementTree.Element, name: str, line: int) -> str:
    """A required attribute, or a parse error naming the element and its line."""
    value = element.get(name)
    if value is None:
        raise HandParseError(line, f"<{element.tag}> has no {name!r} attribute")
    return value


def record_all_in(builder: HandBuilder, player: str, amount: int, remaining: int, small_bet: int | None,
                  line: int) -> Action:
    """Record an action the site only calls "all-in" (iPoker type 7, Merge ALL_IN).

    What the amount means is not documented, so the player's stack decides: an all-in
    puts in everything left, so if ``amount`` equals the chips left it is the chips
    added; if ``amount`` less what the player already has in on this street equals
    them, it is the street total ("to"); otherwise it is read as chips added and a note
    says so. Then the kind follows from the amounts:

    * a street total not above the highest bet is a CALL (a short call when below);
    * on 3rd street with nothing in yet, a total below the small bet is the BRING_IN;
    * anything else increases the bet: :meth:`HandBuilder.increase` names it
      completion, bet or raise (a short all-in raise is still a RAISE; whether it
      reopens the betting is the replay engine's question).
    """
    before = builder.put_in(player)
    if amount == remaining or before == 0:
        added = amount
    elif amount - before == remaining:
        added = amount - before
    else:
        added = amount
    if added != remaining:
        builder.note(f"all-in by {player} for {amount} does not match the {remaining} left in the stack", line)
    to = before + added
    highest = builder.highest_bet()
    if to <= highest:
        return builder.act(player, ActionKind.CALL, added=added, all_in=True, line=line)
    if builder.street is Street.THIRD and highest == 0 and small_bet is not None and to < small_bet:
        return builder.act(player, ActionKind.BRING_IN, added=added, all_in=True, line=line)
    return builder.increase(player, added=added, all_in=True, line=line)


def chips_left(builder: HandBuilder, player: str, stack: int | None) -> int | None:
    """The chips a player still has behind: starting stack less everything put in so far."""
    if stack is None:
        return None
    return stack - sum(action.amount for action in builder.actions if action.player == player)


def game_start_tag(raw: RawHand) -> str:
    """The ``<game …>`` start tag a hand cut by :func:`split_games` begins with; a hand that does
    not begin with one is text outside the games."""
    first = raw.lines[0] if raw.lines else ""
    match = _GAME_START_TAG.match(first)
    if match is None:
        raise HandParseError(raw.first_line, f"text outside any <game> element: {first[:120]!r}")
    return match.group()


def require_closed_game(raw: RawHand) -> None:
    """A hand whose ``<game>`` element never closes is incomplete (a truncated file)."""
    if not _GAME_CLOSED.search(raw.text):
        raise HandParseError(raw.last_line, "hand ends early (truncated or incomplete <game> element)", FailureKind.ENDS_EARLY)


class XmlSiteParser(SiteParser):
    """Base of the XML sites: a file is cut into one hand per ``<game>`` element, each carrying the
    file header in force before it. A site sets ``header_start`` (and ``ignorable``, the markup
    outside the games it expects: see :func:`split_games`)."""

    splitting = Splitting.IN_ORDER  # a game's file header comes before it, once
    header_start: ClassVar[re.Pattern[str]]
    ignorable: ClassVar[re.Pattern[str] | None] = None
    #: the attribute of a ``<game>`` start tag holding the hand id: a real hand starts with it (a
    #: text that only mentions ``<game>``, a README, holds no hand)
    id_attribute: ClassVar[str]

    def split(self, lines: Iterable[str], file: str, offset: int = 0) -> Iterator[RawHand]:
        yield from split_games(lines, file, self.header_start, self.ignorable, offset=offset)

    def holds_hand(self, lines: Iterable[str]) -> bool:
        return holds_game(lines, self.id_attribute)

    @staticmethod
    def start_attributes(raw: RawHand) -> dict[str, str]:
        """The attributes of the ``<game>`` start tag the hand begins with, without reading the rest."""
        tag = game_start_tag(raw)
        return dict(parse_xml(tag if tag.endswith("/>") else tag + "</game>", raw.first_line).root.attrib)

    @staticmethod
    def game_tree(raw: RawHand) -> LocatedTree:
        """The hand's whole ``<game>`` element; one that never closes ends early."""
        require_closed_game(raw)
        return parse_xml(raw.text, raw.first_line)


#: text outside any game kept at most, in characters, before it is reported as it stands
MAX_OUTSIDE_CHARS = 8 << 20
#: a <game> element longer than this (real ones are a few KB) is cut and fails with the reason
MAX_GAME_CHARS = 16 << 20


class _Window:
    """The lines of a file from the first one still needed, addressed by (file index, column)."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.first = 0  # file index of lines[0]

    def between(self, start: tuple[int, int], stop: tuple[int, int]) -> str:
        if start >= stop:
            return ""
        (start_index, start_col), (stop_index, stop_col) = start, stop
        lines, first = self.lines, self.first
        if start_index == stop_index:
            return lines[start_index - first][start_col:stop_col]
        middle = lines[start_index - first + 1: stop_index - first]
        return "\n".join([lines[start_index - first][start_col:], *middle, lines[stop_index - first][:stop_col]])

    def drop_before(self, index: int) -> None:
        if index - self.first > 256:
            self.lines = self.lines[index - self.first:]
            self.first = index


def holds_game(lines: Iterable[str], id_attribute: str) -> bool:
    """Whether a ``<game>`` element naming its hand in ``id_attribute`` starts in these lines (a file
    with none holds no hand: a bare ``<game>`` is a text about the format, not a hand).

    >>> holds_game(["an XML `<game>` over 16 MiB"], "gamecode"), holds_game(['<game gamecode="7">'], "gamecode")
    (False, True)
    """
    start = _game_start_naming(id_attribute)
    return any("<game" in line and start.search(line) is not None for line in lines)


@cache
def _game_start_naming(id_attribute: str) -> re.Pattern[str]:
    return re.compile(rf"<game\s[^>]*\b{re.escape(id_attribute)}\s*=\s*[\"'][^>]*>")


def _game_tags(line: str, opaque: str | None) -> tuple[list[re.Match[str]], str | None]:
    """The game tags of ``line`` outside comments, CDATA sections and processing instructions, and
    the end of the one still open at its end (``opaque``: the one open at its start)."""
    tags: list[re.Match[str]] = []
    at = 0
    while True:
        if opaque is not None:
            end = line.find(opaque, at)
            if end < 0:
                return tags, opaque
            at, opaque = end + len(opaque), None
        match = _GAME_TAG.search(line, at)
        if match is None:
            return tags, None
        at = match.end()
        opaque = _OPAQUE_END.get(match.group())
        if opaque is None:
            tags.append(match)


def split_games(lines: Iterable[str], file: str, header_start: re.Pattern[str],
                ignorable: re.Pattern[str] | None = None, offset: int = 0) -> Iterator[RawHand]:
    """One RawHand per ``<game>`` element, in file order, reading the lines once (a file can be
    streamed through it: only the game being cut and the text since the last one are held).

    ``header_start`` finds where a file header begins in text outside the games (a new
    header between games replaces the old one); ``ignorable`` removes expected markup
    outside the games (the closing ``</session>``). Any other text outside the games,
    a stray ``</game>`` or a game left open (truncated file, or a new ``<game>`` before
    the end tag) is still yielded, so that parsing reports it instead of losing it; text
    outside the games longer than MAX_OUTSIDE_CHARS is reported in pieces of that size.

    Each hand's ``header`` is the text of the header in force (split into lines) and
    ``header_line`` the file line where it starts; before any header, ``()`` and the first line,
    where it was looked for. ``offset`` is the file index of the first of ``lines``.
    """
    window = _Window()
    header: tuple[str, ...] = ()
    header_line = offset + 1

    def chunk(first_index: int, body: str) -> RawHand:
        stripped = body.lstrip()
        first_index += body[: len(body) - len(stripped)].count("\n")
        return RawHand(file, offset + first_index + 1, tuple(stripped.rstrip().split("\n")), header, header_line)

    def outside(start: tuple[int, int], stop: tuple[int, int]) -> Iterator[RawHand]:
        """Text between games: reports what is neither blank, ignorable nor a header; a header
        found in it becomes the one in force."""
        nonlocal header, header_line
        segment = window.between(start, stop)
        header_match = header_start.search(segment)
        before = segment[: header_match.start()] if header_match else segment
        leftover = ignorable.sub("", before) if ignorable else before
        if _DECLARATION.sub("", leftover).strip(_BLANK_OR_STRAY):  # (a mark: two files put together)
            yield chunk(start[0], before)
        if header_match is not None:
            header = tuple(segment[header_match.start():].rstrip().split("\n"))
            header_line = offset + start[0] + segment[: header_match.start()].count("\n") + 1

    outside_from = (0, 0)  # where the text outside any game begins
    outside_chars = 0
    open_at: tuple[int, int] | None = None
    open_chars = 0  # characters of the open game so far
    index = -1
    held = window.lines
    opaque: str | None = None  # the end of the comment, CDATA section or instruction the scan is in
    for index, line in enumerate(lines):
        held.append(line)
        if opaque is not None or "game" in line or "<!" in line or "<?" in line:
            tags, opaque = _game_tags(line, opaque)
        else:
            tags = []
        for match in tags:
            here, after = (index, match.start()), (index, match.end())
            if open_at is None:
                yield from outside(outside_from, here)
            if match.group().startswith("<game"):
                if open_at is not None:  # the previous game never closed
                    yield chunk(open_at[0], window.between(open_at, here))
                open_at, open_chars = here, -match.start()
            elif open_at is None:  # a closing tag with no game open
                yield chunk(index, window.between(here, after))
                outside_from, outside_chars = after, 0
            else:
                yield chunk(open_at[0], window.between(open_at, after))
                open_at, outside_from, outside_chars = None, after, 0
        if open_at is not None:
            open_chars += len(line) + 1
            if open_chars > MAX_GAME_CHARS and open_at[0] < index:
                cut = chunk(open_at[0], window.between(open_at, (index, len(line))))
                reason = f"{CUT_LINE_MARK}the <game> element is longer than {MAX_GAME_CHARS:,} characters; cut here"
                yield replace(cut, lines=(*cut.lines[:-1], cut.lines[-1] + reason))
                open_at, outside_from, outside_chars = None, (index + 1, 0), 0
        else:
            outside_chars += len(line) + 1
            if outside_chars > MAX_OUTSIDE_CHARS:
                yield from outside(outside_from, (index, len(line)))
                outside_from, outside_chars = (index + 1, 0), 0
        if len(held) > 512:
            window.drop_before((open_at or outside_from)[0])
            held = window.lines
    end = (index, len(window.lines[-1])) if window.lines else (0, 0)
    if open_at is not None:
        yield chunk(open_at[0], window.between(open_at, end))
    else:
        yield from outside(outside_from, end)
