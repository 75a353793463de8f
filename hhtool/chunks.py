"""The unit of work of an import: parse, replay and tabulate a run of hands from one file.

``process_chunk`` is a pure function of picklable arguments, so the same code runs in the
importing process, in a process pool (``--jobs``) or on a Dask cluster (``--dask``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

import pyarrow as pa

from hhtool.model import FailedHand, Hand, RawHand, SkippedHand
from hhtool.sites import parser_for
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


@dataclass
class ChunkResult:
    site: str | None
    hand_ids: list[str]  # hands to store, each once (before checking the store for duplicates)
    tables: dict[str, pa.Table]  # rows for every table, for exactly those hands, failures and skips
    found: int = 0
    duplicates: int = 0  # the same hand twice within this chunk
    skipped: int = 0
    failures: list[tuple[int, str]] = field(default_factory=list)
    incomplete: list[tuple[int, str]] = field(default_factory=list)  # a truncated last hand of the file
    last_first_line: int = 0  # first line of the last hand of the chunk (where a grown file resumes)
    deferred: bool = False  # the last hand was left for the next pass (watch mode)


@cache
def _replayer(rules: str | None, enabled: bool) -> Any:
    if not enabled:
        return None
    from hhtool.pipeline import make_replayer

    return make_replayer(rules)


def _may_be_half_written(outcome: FailedHand) -> bool:
    """A failed last hand that ends early, or fails on its very last line (a line being written)."""
    return "ends early" in outcome.reason or outcome.line >= outcome.raw.last_line


def process_chunk(site: str, hands: list[RawHand] | LineBlock, rules: str | None = None, replay: bool = True,
                  defer_half_written_last: bool = False, ends_file: bool = False) -> ChunkResult:
    """Parse, replay and tabulate ``hands`` (split already, or a block of lines to split). When the
    chunk ``ends_file``, a last hand that stops early is *incomplete* (a client stopped writing),
    kept raw but not counted as failed; in watch mode (``defer_half_written_last``) it is left out
    for the next pass instead."""
    parser = parser_for(site)
    replayer = _replayer(rules, replay)
    raws = hands.hands(parser) if isinstance(hands, LineBlock) else hands
    outcomes = [parser.parse(raw) for raw in raws]
    result = ChunkResult(site, [], {})
    if outcomes:
        last = outcomes[-1]
        result.last_first_line = last.source.first_line if isinstance(last, Hand) else last.raw.first_line
        if defer_half_written_last and isinstance(last, FailedHand) and _may_be_half_written(last):
            outcomes.pop()
            result.deferred = True
    truncated_last = None  # a file cut off while being written: its last hand ends early or mid-line
    if ends_file and outcomes and isinstance(outcomes[-1], FailedHand) and _may_be_half_written(outcomes[-1]):
        truncated_last = outcomes[-1]
    stored: dict[str, tuple[Hand, Any, str | None]] = {}
    failures: list[FailedHand] = []
    skipped: list[SkippedHand] = []
    for outcome in outcomes:
        result.found += 1
        if isinstance(outcome, Hand):
            if outcome.hand_id in stored:
                result.duplicates += 1
                continue
            replayed, profile = replayer(outcome) if replayer else (None, None)
            stored[outcome.hand_id] = (outcome, replayed, profile)
        elif isinstance(outcome, SkippedHand):
            skipped.append(outcome)
        else:
            failures.append(outcome)
            target = result.incomplete if outcome is truncated_last else result.failures
            target.append((outcome.line, outcome.reason))
    result.skipped = len(skipped)
    items = list(stored.values())
    result.hand_ids = list(stored)
    result.tables = {
        **hand_rows(items),
        **replay_rows([item for item in items if item[1] is not None]),
        "import_errors": failure_rows(failures),
        "skipped_hands": skipped_rows(skipped),
    }
    return result


def failure_chunk(failure: FailedHand) -> ChunkResult:
    """A chunk holding one failure found before parsing (e.g. a file no site recognises)."""
    return ChunkResult(failure.site, [], {"import_errors": failure_rows([failure])}, found=1,
                       failures=[(failure.line, failure.reason)], last_first_line=failure.raw.first_line)
