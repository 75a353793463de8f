"""The unit of work of an import: parse, replay and tabulate a run of hands from one file.

``process_chunk`` is a pure function of picklable arguments, so the same code runs in the
importing process, in a process pool (``--jobs``) or on a Dask cluster (``--dask``); a chunk travels
there as a :class:`ChunkWork` value, run by :func:`run_chunk`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

import pyarrow as pa

from hhtool.ingest.allin_step import allin_of
from hhtool.ingest.judged_alone import JUDGED_ALONE, judged_alone, judged_hands, with_judgement
from hhtool.model import FailedHand, FailureKind, Hand, Note, ParseOutcome, RawHand, SkippedHand
from hhtool.replay import betting_of
from hhtool.replay.table_pass import Places
from hhtool.sites import parser_for
from hhtool.sites.kit.stray_bytes import NOTE_PREFIX as STRAY_NOTE
from hhtool.store.facts_rows import COVERED_TABLE, ROWS_TABLE, facts_table
from hhtool.store.stored_copies import CopyAt
from hhtool.store.tables import failure_rows, hand_rows, replay_rows, skipped_rows


@dataclass(frozen=True)
class LineBlock:
    """A run of a file's lines that begins at the file's start or at a hand start, so it splits
    into hands on its own: the importing process only cuts blocks, the worker splits them."""

    file: str
    offset: int  # file index (0-based) of lines[0]
    lines: tuple[str, ...]
    start_line: int = 1  # hands starting before this file line are already stored (a grown file)

    def hands(self, parser: Any) -> list[RawHand]:
        start_line = self.start_line
        return [raw for raw in parser.split(self.lines, self.file, self.offset) if raw.first_line >= start_line]


#: what an item of a file was counted as (``FileReport`` field names), for the files row's tail
HAND = "hand"  # a hand to store: stored or a duplicate, decided against the store


@dataclass
class ChunkResult:
    site: str | None
    hand_ids: list[str]  # hands to store, each once (before checking the store for duplicates)
    tables: dict[str, pa.Table]  # rows for every table, for exactly those hands, failures and skips
    found: int = 0
    duplicates: int = 0  # the same hand twice within this chunk
    skipped: int = 0
    failures: list[tuple[int, str, str]] = field(default_factory=list)  # (line, reason, FailureKind value)
    incomplete: list[tuple[int, str, str]] = field(default_factory=list)  # a truncated last hand of the file
    last_first_line: int = 0  # first line of the last hand of the chunk (where a grown file resumes)
    origins: dict[str, str] = field(default_factory=dict)  # hand id -> origin site, for converted hands
    repeats: list[CopyAt] = field(default_factory=list)  # second copies of a hand within this chunk
    # how the items from last_first_line on were counted (HAND: by hand id, decided against the store)
    tail: list[tuple[str, str | None]] = field(default_factory=list)
    # the whole file holds no hand start of the site: not a hand history, its text no hand at all
    not_hand_history: bool = False
    # what the file's report notes about hands stored: bytes that are no text before a hand start, removed
    notes: list[str] = field(default_factory=list)


@cache
def _replayer(rules: str | None, enabled: bool, structures: str | None = None) -> Any:
    if not enabled:
        return None
    from hhtool.ingest.rule_choice import make_replayer

    return make_replayer(rules, structures)


@cache
def _profiles(rules: str | None) -> Any:
    """The profiles by name as the batch's pass has them (the loader's ``profiles_with``)."""
    from hhtool.replay.judgement import profiles_with
    from hhtool.replay.profiles import load_profile

    return profiles_with(load_profile(rules) if rules else None)


#: lines of a stray run right after a hand's last line tried, one by one, as the hand's next line
MAX_STRAY_PROBES = 20


def _stray_text(parser: Any, failed: FailedHand, at_file_end: bool) -> tuple[Hand, FailedHand] | None:
    """A complete hand followed by lines that belong to no hand (a note, a footer, an editor's
    leftover): the hand, and the stray lines as their own failure. At the end of the file any lines
    the hand does not read are stray; between hands, those after a blank line, and those right after
    the hand's last line when none of them would continue the hand (else a damaged line inside the
    hand stopped the parser, and the hand fails whole: its later lines are no stray text)."""
    raw = failed.raw
    cut = failed.line - raw.first_line  # index in raw.lines of the line the parser stopped at
    if failed.kind is not FailureKind.UNREADABLE or not 0 < cut < len(raw.lines):
        return None
    adjoining = not at_file_end and bool(raw.lines[cut - 1].strip())
    keep = cut
    while keep > 0 and not raw.lines[keep - 1].strip():
        keep -= 1
    if keep == 0:
        return None
    hand = parser.parse(RawHand(raw.file, raw.first_line, raw.lines[:keep], raw.header, raw.header_line))
    if not isinstance(hand, Hand) or (adjoining and _continues(parser, raw, keep)):
        return None
    stray = RawHand(raw.file, failed.line, raw.lines[cut:])
    reason = (f"{failed.site}: {len(stray.lines)} stray line(s) after the complete hand {hand.hand_id} "
              f"(lines {raw.first_line}-{raw.first_line + keep - 1}), not part of any hand: "
              f"{failed.reason.removeprefix(f'{failed.site}: ')}")
    note = Note(f"the {len(stray.lines)} line(s) from here on, after this hand, belong to no hand (kept in import_errors)",
                stray.first_line)
    return replace(hand, notes=(*hand.notes, note)), FailedHand(failed.site, None, failed.line, reason, stray,
                                                                 FailureKind.STRAY_TEXT)


def _continues(parser: Any, raw: RawHand, keep: int) -> bool:
    """Whether some line after ``raw.lines[:keep]`` (a whole hand) reads as that hand's next line,
    or there are too many of them to try (then they are not taken for stray text either)."""
    later = [line for line in raw.lines[keep:] if line.strip()]
    if len(later) > MAX_STRAY_PROBES:
        return True
    head = raw.lines[:keep]
    return any(isinstance(parser.parse(RawHand(raw.file, raw.first_line, (*head, line), raw.header, raw.header_line)), Hand)
               for line in later)


def _cut_in_last_line(outcome: FailedHand) -> bool:
    """Whether a hand fails at its last line, right after its other lines (no blank line between):
    in a file that ends inside that line, the writer stopped in the hand's own line (its summary,
    say), and the hand is the incomplete one, not a whole hand followed by stray text."""
    raw = outcome.raw
    cut = outcome.line - raw.first_line
    return outcome.line >= raw.last_line and 0 < cut < len(raw.lines) and bool(raw.lines[cut - 1].strip())


def _cut_off(outcome: FailedHand, ends_mid_line: bool) -> bool:
    """Whether the file's last item stops because the file was cut off: a hand that ends early, or
    whose very last line fails in a file that ends inside a line (the writer stopped there)."""
    return outcome.kind is FailureKind.ENDS_EARLY or (ends_mid_line and outcome.line >= outcome.raw.last_line)


def process_chunk(site: str, hands: list[RawHand] | LineBlock, rules: str | None = None, replay: bool = True,
                  ends_file: bool = False, ends_mid_line: bool = False, starts_file: bool = False,
                  structures: str | None = None) -> ChunkResult:
    """Parse, replay and tabulate ``hands`` (split already, or a block of lines to split). When the
    chunk ``ends_file``, a last hand cut off (it ends early, or inside its last line when the file
    ``ends_mid_line``) is *incomplete* (a client stopped writing), kept raw but not counted as failed.
    A chunk that is the whole file (it ``starts_file`` and ends it) in which no hand of the site
    starts is *not a hand history* (a README read with --site): nothing in it is found."""
    parser = parser_for(site)
    if starts_file and ends_file and not parser.holds_hand(_lines_of(hands)):
        return ChunkResult(site, [], {}, not_hand_history=True)
    replayer = _replayer(rules, replay, structures)
    raws = hands.hands(parser) if isinstance(hands, LineBlock) else hands
    outcomes: list[ParseOutcome] = []
    parser.prepare(raws)  # a line site reads the chunk's lines natively, at once (hhtool.sites.kit.columns)
    for index, raw in enumerate(raws):
        outcome = parser.parse(raw)
        at_file_end = ends_file and index == len(raws) - 1
        if isinstance(outcome, FailedHand) and not (at_file_end and ends_mid_line and _cut_in_last_line(outcome)):
            split = _stray_text(parser, outcome, at_file_end)
            if split is not None:
                outcomes.extend(split)
                continue
        outcomes.append(outcome)
    result = ChunkResult(site, [], {})
    truncated_last = None  # a file cut off while being written
    if outcomes:
        last_hand = next(outcome for outcome in reversed(outcomes) if not _is_stray(outcome))
        result.last_first_line = last_hand.source.first_line if isinstance(last_hand, Hand) else last_hand.raw.first_line
        last = outcomes[-1]
        if ends_file and isinstance(last, FailedHand) and (_cut_off(last, ends_mid_line)
                                                          or (ends_mid_line and last.kind is FailureKind.STRAY_TEXT)):
            truncated_last = last
    stored: dict[str, tuple[Hand, Any, str | None]] = {}
    failures: list[FailedHand] = []
    skipped: list[SkippedHand] = []
    tail_from = result.last_first_line
    for outcome in outcomes:
        result.found += 1
        first_line = outcome.source.first_line if isinstance(outcome, Hand) else outcome.raw.first_line
        counted: tuple[str, str | None]
        if isinstance(outcome, Hand):
            if outcome.hand_id in stored:
                result.duplicates += 1
                source = outcome.source
                result.repeats.append(CopyAt(outcome.site, outcome.hand_id, source.file, source.first_line,
                                             source.last_line, source.sha256, outcome.origin_site))
                counted = ("duplicates", None)
            else:
                result.notes.extend(f"line {note.line}: {note.text}" for note in outcome.notes
                                    if note.text.startswith(STRAY_NOTE))
                replayed, profile = replayer(outcome) if replayer else (None, None)
                stored[outcome.hand_id] = (outcome, replayed, profile)
                if outcome.origin_site:
                    result.origins[outcome.hand_id] = outcome.origin_site
                counted = (HAND, outcome.hand_id)
        elif isinstance(outcome, SkippedHand):
            skipped.append(outcome)
            counted = ("skipped", None)
        else:
            failures.append(outcome)
            target = result.incomplete if outcome is truncated_last else result.failures
            target.append((outcome.line, outcome.reason, outcome.kind.value))
            counted = ("incomplete" if outcome is truncated_last else "failed", None)
        if first_line >= tail_from:
            result.tail.append(counted)
    result.skipped = len(skipped)
    items = list(stored.values())
    result.hand_ids = list(stored)
    # the hands the pass could only judge as they are judged here: stored with their whole judgement
    # (without the user's structures file, which may name any level: the pass judges every hand then)
    alone = []
    if replayer is not None and structures is None:
        profiles = _profiles(rules)
        places: Places = {}  # (the chunk's tables, made once each)
        for index, (hand, replayed, profile) in enumerate(items):
            judged = (judged_alone(hand, replayed, profile, profiles, places)
                      if replayed is not None and profile is not None else None)
            if judged is not None:
                alone.append((index, judged))
                items[index] = (hand, with_judgement(replayed, judged), profile)
    betting = [betting_of(hand, replayed) for hand, replayed, _ in items]  # (the replay's, else walked)
    allin = [allin_of(hand, replayed, rules) for hand, replayed, _ in items]
    tables = hand_rows(items, betting, allin)
    if replayer is not None:
        tables["hands"], tables[JUDGED_ALONE] = judged_hands(tables["hands"], alone)
    result.tables = {
        **tables,
        **replay_rows(items),  # (the items not replayed have no rows)
        # the stats facts, from what the replay walked (a hand whose walk failed has none, yet is covered)
        ROWS_TABLE: facts_table(items, betting, allin, tables),
        COVERED_TABLE: tables["hands"].select(["hk"]),
        "import_errors": failure_rows(failures),
        "skipped_hands": skipped_rows(skipped),
    }
    return result


@dataclass(frozen=True)
class ChunkWork:
    """A chunk of a file and how to read it: what travels to a worker (picklable), :func:`process_chunk`'s
    arguments by name."""

    site: str
    hands: list[RawHand] | LineBlock  # split already, or a block of lines the worker splits
    rules: str | None = None  # one rule profile for every hand (None: each hand's own)
    replay: bool = True
    ends_file: bool = False  # the file's last chunk
    ends_mid_line: bool = False  # ... and the file's text stops inside a line (a cut last hand)
    starts_file: bool = False  # the file's first chunk, read from its start
    structures: str | None = None  # the user's structures file


def run_chunk(work: ChunkWork) -> ChunkResult:
    """:func:`process_chunk` of a work item: what an executor runs."""
    return process_chunk(work.site, work.hands, work.rules, work.replay, work.ends_file, work.ends_mid_line,
                         work.starts_file, work.structures)


def _lines_of(hands: list[RawHand] | LineBlock) -> Iterator[str]:
    if isinstance(hands, LineBlock):
        return iter(hands.lines)
    return (line for raw in hands for line in raw.lines)


def _is_stray(outcome: ParseOutcome) -> bool:
    return isinstance(outcome, FailedHand) and outcome.kind is FailureKind.STRAY_TEXT


def failure_chunk(failure: FailedHand) -> ChunkResult:
    """A chunk holding one failure found before parsing (e.g. a file no site recognises)."""
    return ChunkResult(failure.site, [], {"import_errors": failure_rows([failure])}, found=1,
                       failures=[(failure.line, failure.reason, failure.kind.value)],
                       last_first_line=failure.raw.first_line, tail=[("failed", None)])
