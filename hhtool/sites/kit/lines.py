"""Driving a line grammar fast: Lark compiles the grammar into its LALR table; this module runs
that table over a hand's lines without building a parse tree.

Site modules only need the lines in order, each with its terminal name and regex groups, and
the assurance that their order is one the grammar allows. So instead of Lark's general parser
(a value stack, a callback and a tree node for every rule), :class:`LineParser` keeps just the
state stack: shift, reduce and goto exactly as Lark's ``feed_token`` does, from Lark's own table.
Lines are matched as Lark's contextual lexer would: only the terminals the current state
accepts, in Lark's priority order, after a cheap test for each pattern's required literal
(:class:`LineMatcher`, one per set of accepted terminals).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from lark import Lark, Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.parsers.lalr_analysis import Shift

from hhtool.model import RawHand
from hhtool.sites.kit.line_matching import LINE_FLAGS as LINE_FLAGS  # re-exported: where the sites found them
from hhtool.sites.kit.line_matching import Candidate as Candidate
from hhtool.sites.kit.line_matching import LineMatcher as LineMatcher
from hhtool.sites.kit.line_matching import Reading as Reading
from hhtool.sites.kit.line_matching import candidate as candidate
from hhtool.sites.kit.line_matching import required_literals as required_literals
from hhtool.sites.kit.line_matching import required_literals_folded as required_literals_folded

if TYPE_CHECKING:
    from hhtool.sites.kit.columns import ColumnLexer, Lexicon

#: no named groups (a terminal whose regex names none)
NO_NAMES: Final[dict[str, int]] = {}


class LineToken:
    """One line of a hand: its terminal name, text, line number (1-based within the hand), the
    groups its terminal's regex captured (so nothing is matched twice), its line number in the
    file (``number``) and its place among the hand's tokens (``index``, for readers that look
    ahead). (Lark's Token is not needed here: no tree is built; a plain slotted object is cheaper.)

    A group the grammar names (``(?P<player>…)``) is read by its name: ``token["player"]`` (a
    KeyError if the terminal has no such group, None if the group did not take part in the match),
    ``token.get("all_in")`` (None as well where the terminal has no such group). ``names`` maps each
    name to its place in ``groups``; it is the terminal's, shared by all its tokens."""

    __slots__ = ("groups", "index", "line", "names", "number", "type", "value")

    def __init__(self, type_: str, value: str, line: int, groups: tuple[str | None, ...], number: int = 0,
                 index: int = 0, names: dict[str, int] = NO_NAMES) -> None:
        self.type, self.value, self.line, self.groups = type_, value, line, groups
        self.number, self.index, self.names = number, index, names

    def __getitem__(self, name: str) -> str | None:
        return self.groups[self.names[name]]

    def get(self, name: str) -> str | None:
        """The named group's text; None where it did not match or the terminal has no such group."""
        place = self.names.get(name)
        return None if place is None else self.groups[place]

    def has(self, name: str) -> bool:
        """Whether the terminal's regex has a group of this name (whether or not it matched)."""
        return name in self.names

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return f"LineToken({self.type!r}, {self.value!r}, line={self.line})"



#: stands for a seated player's name while a line is matched: one private-use character, which every
#: grammar's name pattern accepts and no history writes
NAME_ALIAS = "\ue000"
#: a bound on the name placements tried for one line (a one-letter name can occur many times)
MAX_NAME_PLACEMENTS = 64


def match_naming_seated(matcher: LineMatcher, line: str, names: list[str],
                        ignore: frozenset[str]) -> tuple[str, tuple[str | None, ...]] | None:
    """The reading of ``line`` in which a capture group is exactly one of the seated ``names``
    (longest name first, then leftmost place): each place a name occurs is replaced by
    :data:`NAME_ALIAS`, which no terminal's keywords contain, so a name holding ": ", " calls ",
    brackets or another player's name cannot be split or read as chat. Without such a reading, an
    ignored terminal (chat, noise) that matches with a name in place, else None."""
    ignored: tuple[str, tuple[str | None, ...]] | None = None
    placements = 0
    for name in names:
        start = line.find(name)
        while start != -1 and placements < MAX_NAME_PLACEMENTS:
            placements += 1
            found = matcher.match(line[:start] + NAME_ALIAS + line[start + len(name):])
            if found is not None:
                terminal, groups = found
                if NAME_ALIAS in groups:
                    return terminal, tuple(name if group == NAME_ALIAS else group for group in groups)
                if terminal in ignore and ignored is None:
                    ignored = terminal, ()
            start = line.find(name, start + 1)
    return ignored


def _names_longest(groups: tuple[str | None, ...], line: str, names: list[str]) -> bool:
    """Whether a group of a plain match is the longest seated name the line contains (then the
    plain reading is the resolved one, and the line need not be read again)."""
    for name in names:  # longest first
        if name in line:
            return name in groups
    return True  # no seated name in the line: nothing to resolve


def _read_line(matcher: LineMatcher, line: str, names: list[str], ignore: frozenset[str],
               plain: Reading | None) -> Reading | None:
    """The terminal and groups of a line, given its plain reading ``plain``: that reading when it names the
    longest seated name the line holds (or the line holds none), else the reading
    :func:`match_naming_seated` resolves, falling back to the plain one; None when nothing matches."""
    if not names or (plain is not None and plain[0] not in ignore and _names_longest(plain[1], line, names)):
        return plain
    named = match_naming_seated(matcher, line, names, ignore)
    if named is None or (plain is not None and named[0] in ignore and plain[0] not in ignore):
        return plain
    return named


#: marks a line not read yet in a step's remembered readings (a plain object: only its identity counts)
_UNREAD: Final[Any] = object()


class _Step:
    """One parser stack (states, bottom first) with what the driver needs at it: the terminals its top
    state accepts (in priority order), the plain readings of lines already seen there (shared by every
    stack whose top accepts the same terminals) and the stack each terminal leads to."""

    __slots__ = ("accepted", "following", "matcher", "readings", "stack")

    def __init__(self, stack: tuple[int, ...], matcher: LineMatcher, readings: dict[str, Reading | None],
                 accepted: int = 0) -> None:
        self.stack, self.matcher, self.readings = stack, matcher, readings
        self.accepted = accepted  # the bits (in a lexicon's masks) of the terminals the top state accepts
        self.following: dict[str, _Step] = {}


class LineParser:
    """Validates a hand's lines against a Lark LALR grammar and returns its tokens in order.

    A line grammar's stacks are few and shallow, so each (stack, terminal) step — the reduces
    and the shift Lark's ``feed_token`` would make — is worked out once and then looked up; so is
    each line's plain reading at a stack (which terminal of those its top state accepts matches it
    first, and the groups), a function of the line and the accepted terminals alone: a line met again
    (an action, a marker, a summary line at the same stakes) is not matched again.

    Player names are resolved against the seated ones: each ``SEAT`` line's name group
    (``seat_name_group``) is remembered, and a later line whose plain reading does not hold the
    longest seated name the line contains (a name holding ": ", " calls " or another's name, which
    the plain reading may split) is read again with a seated name in one of its groups
    (:func:`match_naming_seated`), so that a name can hold anything a line's own words hold. Lines
    no seated name resolves keep their plain reading."""

    MAX_TRANSITIONS = 100_000  # a bound on the stacks remembered, should a grammar nest deeply
    MAX_READINGS = 100_000  # a bound on the plain readings remembered (all are forgotten when it is reached)
    MAX_NAME_SETS = 4_096  # a bound on the sets of seated names remembered
    MAX_MEMOS = 64  # a bound on those whose lines' resolutions are remembered (seated in two hands or more)
    MAX_RESOLVED = 1_000  # a bound on the lines remembered per set of seated names

    def __init__(self, lark: Lark, seat_name_group: int = 1, group_names: dict[str, dict[str, int]] | None = None) -> None:
        self._seat_name_group = seat_name_group
        self._group_names = group_names or {}
        table = lark.parser.parser.parser.parse_table
        self._states: dict[int, dict[str, tuple[Any, Any]]] = table.states
        self._start = table.start_states["start"]
        self._end = table.end_states["start"]
        order = sorted(lark.terminals, key=lambda t: (-t.priority, -t.pattern.max_width, -len(t.pattern.value), t.name))
        self._terminals: list[Candidate] = [candidate(t.name, t.pattern.to_regexp()) for t in order]
        self._ignore = frozenset(lark.ignore_tokens)
        self._by_state: dict[int, LineMatcher] = {}
        self._matchers: dict[frozenset[str], LineMatcher] = {}
        self._readings: dict[frozenset[str], dict[str, Reading | None]] = {}
        self._read = 0  # plain readings remembered
        #: per set of seated names (in their order) met before, the lines resolved against it; None: met once
        self._resolved: dict[tuple[str, ...], dict[str, tuple[Reading, Reading | None]] | None] = {}
        self._memos = 0  # sets of names in _resolved with a memo
        self._bit = {term[0]: 1 << place for place, term in enumerate(self._terminals)}
        #: the native readings of the lines met so far (see hhtool.sites.kit.columns), while :meth:`lex` is used
        self.lexicon: Lexicon | None = None
        self._lexer: ColumnLexer | None = None
        self._step_of: dict[tuple[int, ...], _Step] = {}
        self._first = self._step((self._start,))

    def _matcher(self, state: int) -> LineMatcher:
        """The matcher of the terminals ``state`` accepts (one per set of terminals)."""
        accepted = set(self._states[state]) | self._ignore
        candidates = [term for term in self._terminals if term[0] in accepted]
        key = frozenset(term[0] for term in candidates)
        matcher = self._matchers.get(key)
        if matcher is None:
            matcher = self._matchers[key] = LineMatcher(candidates)
        self._by_state[state] = matcher
        return matcher

    def _step(self, stack: tuple[int, ...]) -> _Step:
        """The step of ``stack`` (one per stack while under :attr:`MAX_TRANSITIONS`)."""
        known = self._step_of.get(stack)
        if known is not None:
            return known
        matcher = self._by_state.get(stack[-1]) or self._matcher(stack[-1])
        readings = self._readings.setdefault(frozenset(matcher.names), {})
        step = _Step(stack, matcher, readings, sum(self._bit[name] for name in matcher.names))
        if len(self._step_of) < self.MAX_TRANSITIONS:
            self._step_of[stack] = step
        return step

    def parse(self, text: str, first_line: int = 1) -> list[LineToken]:
        """The hand's lines as tokens; ``first_line`` is the file line of the text's first line."""
        ignore, group_names = self._ignore, self._group_names
        step = self._first
        tokens: list[LineToken] = []
        names: list[str] = []  # seated so far, longest first
        resolutions: dict[str, tuple[Reading, Reading | None]] | None = None  # the lines resolved against these names
        line_no = 0
        for line_no, line in enumerate(text.split("\n"), start=1):
            if not line:
                continue
            plain = step.readings.get(line, _UNREAD)
            if plain is _UNREAD:
                plain = self._plain_reading(step, line)
            if names:
                if resolutions is None:  # names not seated together before: resolved as met, nothing kept
                    # written out rather than _read_line's test: this runs for nearly every line of every hand
                    resolved = False
                    if plain is not None and plain[0] not in ignore:
                        resolved = True
                        for seated in names:  # longest first
                            if seated in line:
                                resolved = seated in plain[1]
                                break
                    if not resolved:
                        plain = _read_line(step.matcher, line, names, ignore, plain)
                else:
                    known = resolutions.get(line)
                    if known is not None and known[0] is plain:  # read so at this table before: at once
                        plain = known[1]
                    else:
                        plain = self._resolve(step, line, names, plain, resolutions)
            if plain is None:
                raise UnexpectedCharacters(text, _offset(text, line_no), line_no, 1,
                                           allowed=set(step.matcher.names))
            name, groups = plain
            if name in ignore:
                continue
            if name == "SEAT":
                self._remember_seated(names, groups)
                resolutions = self._resolutions_for(names)
            token = LineToken(name, line, line_no, groups, first_line + line_no - 1, len(tokens),
                              group_names.get(name, NO_NAMES))
            following = step.following.get(name)
            step = following if following is not None else self._shift(step, token)
            tokens.append(token)
        self._finish(list(step.stack), Token("$END", "", 0, line_no + 1, 1))
        return tokens

    def lex(self, lines: Iterable[str]) -> None:
        """Match the lines not met before against every terminal at once, natively, into :attr:`lexicon`
        (forgotten whole when it would outgrow :attr:`MAX_READINGS`): the lines of the hands about to be
        parsed, so that their readings come from it rather than from Python's ``re`` line by line."""
        from hhtool.sites.kit.columns import ColumnLexer, Lexicon

        if self._lexer is None:
            self._lexer = ColumnLexer((name, regex) for name, regex, _, _ in self._terminals)
            self.lexicon = Lexicon({}, [{} for _ in self._terminals])
        lexicon = self.lexicon
        assert lexicon is not None
        wanted = set(lines)
        fresh = wanted.difference(lexicon.masks)
        if not fresh:
            return
        if len(lexicon.masks) + len(fresh) > self.MAX_READINGS:  # forget the old lines, not this chunk's
            lexicon.masks.clear()
            for found in lexicon.groups:
                found.clear()
            fresh = wanted
        lexed = self._lexer.lex(fresh)
        lexicon.masks.update(lexed.masks)
        for found, more in zip(lexicon.groups, lexed.groups, strict=True):
            found.update(more)

    def _lexicon_reading(self, step: _Step, line: str) -> Reading | Any | None:
        """The line's plain reading at ``step`` from :attr:`lexicon`: the highest-priority terminal among
        those matching the line that the step's state accepts (the lowest bit of both masks); _UNREAD
        for a line the lexicon has not met."""
        lexicon = self.lexicon
        mask = lexicon.masks.get(line) if lexicon is not None else None
        if mask is None:
            return _UNREAD
        chosen = mask & step.accepted
        if not chosen:
            return None
        place = (chosen & -chosen).bit_length() - 1
        return self._terminals[place][0], lexicon.groups[place][line]  # type: ignore[union-attr]

    def _plain_reading(self, step: _Step, line: str) -> Reading | None:
        """The line's plain reading at ``step`` (remembered while under :attr:`MAX_READINGS`): the
        lexicon's where it has met the line, else Python's ``re``'s."""
        plain = self._lexicon_reading(step, line)
        if plain is _UNREAD:
            plain = step.matcher.match(line)
        if self._read >= self.MAX_READINGS:
            for readings in self._readings.values():
                readings.clear()
            self._read = 0
        step.readings[line] = plain
        self._read += 1
        return plain

    def _resolutions_for(self, names: list[str]) -> dict[str, tuple[Reading, Reading | None]] | None:
        """The memo of the lines resolved against these seated names, in this order, from the second hand
        that seats them on (None the first time: a memo of names met once would only cost). A table's
        players sit for many hands, whose lines are then resolved once: on the replicated real hands
        (8 sets of names) the driver's name check fell from ≈ 20 to ≈ 3 µs per hand; on simulated hands,
        seated anew each hand, nothing is kept (issue #37, benchmarks/RESULTS.md)."""
        key = tuple(names)
        if key not in self._resolved:
            if len(self._resolved) >= self.MAX_NAME_SETS:
                self._resolved.clear()
                self._memos = 0
            self._resolved[key] = None
            return None
        found = self._resolved[key]
        if found is None:
            if self._memos >= self.MAX_MEMOS:  # forget every set, as the readings are forgotten
                self._resolved.clear()
                self._memos = 0
                return None
            self._memos += 1
            found = self._resolved[key] = {}
        return found

    def _resolve(self, step: _Step, line: str, names: list[str], plain: Reading | None,
                 resolutions: dict[str, tuple[Reading, Reading | None]]) -> Reading | None:
        """The line's reading with the seated ``names`` resolved (:func:`_read_line`), remembered in
        ``resolutions`` with the plain reading it was made from (the same line at another state, read
        otherwise there, is resolved again: a plain reading is one object per set of accepted terminals)."""
        final = _read_line(step.matcher, line, names, self._ignore, plain)
        if plain is not None and len(resolutions) < self.MAX_RESOLVED:
            resolutions[line] = (plain, final)
        return final

    def _remember_seated(self, names: list[str], groups: tuple[str | None, ...]) -> None:
        seated = groups[self._seat_name_group] if 0 <= self._seat_name_group < len(groups) else None
        if seated and seated not in names:
            names.append(seated)
            names.sort(key=len, reverse=True)

    def _shift(self, step: _Step, token: LineToken) -> _Step:
        """The reduces and the shift that ``token`` causes, from Lark's table (remembered)."""
        states, work = self._states, list(step.stack)
        while True:
            try:
                action, arg = states[work[-1]][token.type]
            except KeyError:
                lark_token = Token(token.type, token.value, 0, token.line, 1)
                raise UnexpectedToken(lark_token, {s for s in states[work[-1]] if s.isupper()}) from None
            if action is Shift:
                work.append(arg)
                break
            size = len(arg.expansion)
            if size:
                del work[-size:]
            work.append(states[work[-1]][arg.origin.name][1])
        following = self._step(tuple(work))
        if len(self._step_of) < self.MAX_TRANSITIONS:
            step.following[token.type] = following
        return following

    def _finish(self, stack: list[int], end: Token) -> None:
        states = self._states
        while True:
            try:
                action, arg = states[stack[-1]]["$END"]
            except KeyError:
                raise UnexpectedToken(end, {s for s in states[stack[-1]] if s.isupper()}) from None
            assert action is not Shift
            size = len(arg.expansion)
            if size:
                del stack[-size:]
            stack.append(states[stack[-1]][arg.origin.name][1])
            if stack[-1] == self._end:
                return


def _offset(text: str, line_no: int) -> int:
    position = 0
    for _ in range(line_no - 1):
        position = text.index("\n", position) + 1
    return position


# ---------------------------------------------------------------- grammars


def _grammar_dir() -> Path:
    here = Path(__file__).resolve().parents[2]  # the hhtool package
    for folder in (here / "grammars", here.parent / "grammars"):
        if folder.is_dir():
            return folder
    raise FileNotFoundError("hhtool grammars/ folder not found next to the package")


def grammar_names() -> tuple[str, ...]:
    """The name of every grammar file in grammars/."""
    return tuple(sorted(path.stem for path in _grammar_dir().glob("*.lark")))


#: a named group in a terminal's regex
_NAMED_GROUP = re.compile(r"(?<!\\)\(\?P<(\w+)>")
#: a line terminal's definition in a grammar file: ``NAME[.priority]: /regex/flags``
_TERMINAL_LINE = re.compile(r"^([A-Z_][A-Z0-9_]*)(?:\.-?\d+)?[ \t]*:[ \t]*/(.*)/[imslux]*[ \t]*$", re.M)


def group_names_of(grammar_text: str) -> dict[str, dict[str, int]]:
    """Each line terminal's named groups, by name: their place among the regex's groups (0-based)."""
    names: dict[str, dict[str, int]] = {}
    for terminal, pattern in _TERMINAL_LINE.findall(grammar_text):
        index = re.compile(pattern).groupindex
        if index:
            names[terminal] = {name: place - 1 for name, place in index.items()}
    return names


def without_group_names(grammar_text: str) -> str:
    """The grammar with every ``(?P<name>`` a plain group: Lark joins a state's terminals into one regex
    for its own lexer, where two terminals naming a group alike would clash. The groups keep their places."""
    return _NAMED_GROUP.sub("(", grammar_text)


class LineGrammar:
    """A site's Lark LALR grammar whose terminals are whole lines.

    Lark compiles the grammar; :class:`LineParser` runs its LALR table over a hand's lines (the
    order must be one the grammar allows) and returns the lines as tokens in order, each with the
    capture groups of its terminal's own regex, so each line format is written once, in the grammar
    file, its values in named groups (``token["player"]``). ``names`` holds each terminal's group names
    (their places); ``seat_name_group`` is the place of the ``SEAT`` line's ``player`` group, the name
    of a seated player (-1 where the grammar names none: a contract problem).
    """

    def __init__(self, name: str) -> None:
        self.name = name
        text = (_grammar_dir() / f"{name}.lark").read_text(encoding="utf-8")
        self.names = group_names_of(text)
        self.lark = Lark(without_group_names(text), parser="lalr", lexer="contextual", maybe_placeholders=False)
        self.seat_name_group = self.names.get("SEAT", {}).get("player", -1)
        self._parser = LineParser(self.lark, self.seat_name_group, self.names)

    def parse(self, text: str, first_line: int = 1) -> list[LineToken]:
        return self._parser.parse(text, first_line)

    def lex(self, lines: Iterable[str]) -> None:
        """Read ``lines`` (those of the hands about to be parsed) natively, all at once (see :meth:`LineParser.lex`)."""
        self._parser.lex(lines)

    def ignored(self) -> frozenset[str]:
        """The terminals the grammar drops (%ignore: chat, noise), which no reader ever sees."""
        return frozenset(self.lark.ignore_tokens)

    def group_counts(self) -> dict[str, int]:
        """How many capture groups each terminal that reaches a reader has (in the grammar's own regex)."""
        ignored = self.ignored()
        return {term.name: re.compile(term.pattern.to_regexp(), LINE_FLAGS).groups
                for term in self.lark.terminals if term.name not in ignored}


@cache
def load_grammar(name: str) -> LineGrammar:
    return LineGrammar(name)


def lark_error_ends_early(error: UnexpectedInput) -> bool:
    """Whether a Lark error says the text stopped before the hand was complete."""
    relative = getattr(error, "line", None) or 1
    return (isinstance(error, UnexpectedEOF) or relative < 1
            or (isinstance(error, UnexpectedToken) and error.token.type == "$END"))


def describe_lark_error(error: UnexpectedInput, raw: RawHand) -> tuple[int, str]:
    """File line and a readable reason for a Lark error on a hand's text."""
    relative = getattr(error, "line", None) or 1
    if lark_error_ends_early(error):
        return raw.last_line, "hand ends early (truncated or incomplete hand)"
    line_no = raw.first_line + relative - 1
    text = raw.lines[relative - 1] if relative - 1 < len(raw.lines) else ""
    expected = sorted(getattr(error, "expected", None) or getattr(error, "allowed", None) or [])
    where = "line not understood" if isinstance(error, UnexpectedCharacters) else "line out of place"
    hint = f" (expected one of: {', '.join(expected[:8])})" if expected else ""
    return line_no, f"{where}: {text[:200]!r}{hint}"
