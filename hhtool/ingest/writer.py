"""Write: a file's parsed chunks into the store, less the hands stored before, a transaction per
WRITE_HANDS hands; the file's last chunk goes with its ``files`` row, so a files row always means the
whole file is stored. The counting is :mod:`hhtool.ingest.accounting`'s; this module moves rows."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import nullcontext
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from hhtool.ingest.accounting import FileReport, count_chunk, file_counts
from hhtool.ingest.chunks import HAND, ChunkResult
from hhtool.ingest.conflicts import CopyChecker
from hhtool.ingest.judged_alone import JUDGED_ALONE
from hhtool.ingest.meanwhile import left_out
from hhtool.ingest.provisional import completes
from hhtool.model import hand_identity
from hhtool.store import Store, player_facts_cache
from hhtool.store.facts_rows import COVERED_TABLE, ROWS_TABLE
from hhtool.store.replaced_hands import forget_hand
from hhtool.store.stored_copies import NEW_ONLY, CopyAt, conflict_table, stored_copies
from hhtool.store.tables import next_key, shifted

#: hands of one file written in one transaction at most: DuckDB writes inserts this big straight
#: into compressed row groups (measured: 2x faster and 40 % smaller than transactions of 2,000)
WRITE_HANDS = 10_000
#: the stats facts a chunk brings (its workers tabulated them), written only through ``facts``
FACTS_TABLES = (ROWS_TABLE, COVERED_TABLE)
#: called inside a transaction with its hands' rows (stored keys) and the carried tables (``CARRIED``, what
#: the workers judged of them): the import's cross-hand pass
JudgeOf = Callable[[pa.Table, dict[str, pa.Table]], object]
#: the chunks' tables handed to the pass, not stored
CARRIED = (JUDGED_ALONE,)
#: a file's last chunk: its ``files`` row, made once the counts are final (from them and how its tail was counted)
FileRow = Callable[[dict[str, int], list[str]], dict[str, pa.Table]]


class FileWriter:
    """Writes one file's chunks, grouped up to WRITE_HANDS hands per transaction."""

    def __init__(self, store: Store, first: Sequence[tuple[str, Sequence[Any]]] = (),
                 facts: player_facts_cache.BatchFacts | None = None, judge: JudgeOf | None = None) -> None:
        self.store = store
        self.facts = facts  # the stats facts of a transaction's hands, written with them (summed after the import)
        self.judge = judge  # the cross-hand pass of a transaction's hands, committed with them
        self.first = list(first)  # statements for the file's first transaction (a grown file: drop re-read rows)
        self.checker = CopyChecker(store)
        self.candidates: list[CopyAt] = []  # second copies of stored hands whose text differs: checked at the end
        self.report: FileReport | None = None  # the file's (write_chunk): hands stored meanwhile are counted there
        self.tail_ids: list[str | None] = []  # the hands of the files row's tail, item by item
        self.completing: set[str] = set()  # hands whose cut copy `first` removes (hhtool.ingest.provisional)
        self._tables: dict[str, list[pa.Table]] = {}
        self._pending: set[tuple[str, str]] = set()  # identities accounted as stored but not written yet
        self._hands = 0
        self._next_key = 0  # the batch's own hand numbers (hk) so far: each chunk's are moved past them

    def copies_of(self, site: str, hand_ids: list[str], origins: dict[str, str]) -> dict[str, CopyAt]:
        """The stored copy of each of ``hand_ids`` already stored (or about to be: written first)."""
        probes = [(hand_id, *hand_identity(site, hand_id, origins.get(hand_id))) for hand_id in hand_ids]
        if self._pending and any((isite, iid) in self._pending for _, isite, iid in probes):
            self.flush()
        return stored_copies(self.store, probes)

    def add(self, site: str | None, new_ids: list[str], tables: dict[str, pa.Table], last: bool,
            origins: dict[str, str] | None = None) -> None:
        moved = next_key(tables)
        tables = shifted(tables, self._next_key)
        self._next_key += moved
        for name, table in tables.items():
            if table.num_rows:
                self._tables.setdefault(name, []).append(table)
        if site:
            self._pending.update(hand_identity(site, hand_id, (origins or {}).get(hand_id)) for hand_id in new_ids)
        self._hands += len(new_ids)
        if last or self._hands >= WRITE_HANDS:
            self.flush()

    def flush(self) -> None:
        """Write what is held in one transaction; a batch of hands is a :meth:`Store.batch` scope: the
        file is given back once it is committed (and its facts, and its judgement), a reader's turn."""
        with self.store.batch() if self._hands else nullcontext():
            self._flush()

    def _flush(self) -> None:
        if self._tables or self.first:
            tables = {name: pa.concat_tables(parts) for name, parts in self._tables.items()}
            # (hands another import stored since copies_of looked: left out, counted; hhtool.ingest.meanwhile)
            tables = left_out(self.store, tables, self.report, self.tail_ids, self.candidates, self.completing)
            facts = self.facts
            if facts is None:  # (facts not stored: the rows the workers tabulated are not written)
                tables = {name: table for name, table in tables.items() if name not in FACTS_TABLES}
            self.store.write_tables(tables, new_only=NEW_ONLY, first=self.first,
                                    derived=None if facts is None else facts.tables_for, then=self.judge,
                                    carried=CARRIED)
        self._tables, self._pending, self._hands, self.first, self._next_key = {}, set(), 0, [], 0
        self.completing = set()


def write_chunk(writer: FileWriter, report: FileReport, result: ChunkResult, file_row: FileRow | None = None) -> None:
    """Account a chunk's hands in the file's report and hand them, less those already stored, to the
    writer; ``file_row`` marks the file's last chunk."""
    writer.report = report
    known = writer.copies_of(result.site, result.hand_ids, result.origins) if result.site and result.hand_ids else {}
    tables = result.tables
    own: set[str] = set()  # stored before from this very place of this file: an interrupted or shorter read
    if known and report.status == "grown":  # a provisional last hand the grown file completes: replaced
        for hand_id, (file, first, last, sha) in _locations(result.tables["hands"], set(known)).items():
            if result.site and completes(known[hand_id], result.site, file, first, last, sha):
                writer.first.extend(forget_hand(writer.store, known.pop(hand_id).site, hand_id))
                writer.completing.add(hand_id)
                report.completed += 1
    if known:  # their rows go, in every table keyed by the chunk's hand numbers (hk)
        tables = _without(tables, set(known))
        for hand_id, (file, first, last, sha) in _locations(result.tables["hands"], set(known)).items():
            stored = known[hand_id]
            if (stored.file, stored.first_line) == (file, first):
                own.add(hand_id)
            if stored.sha256 != sha or stored.site != result.site:
                assert result.site is not None
                writer.candidates.append(CopyAt(result.site, hand_id, file, first, last, sha,
                                                result.origins.get(hand_id)))
    writer.candidates.extend(copy for copy in result.repeats)
    count_chunk(report, result, known, own)
    new_ids = [hand_id for hand_id in result.hand_ids if hand_id not in known]
    if file_row is None:
        writer.add(result.site, new_ids, tables, last=False, origins=result.origins)
        return
    tail = [("duplicates" if hand_id in known and hand_id not in own else "stored") if kind == HAND else kind
            for kind, hand_id in result.tail]
    writer.tail_ids = [hand_id for _, hand_id in result.tail]
    conflicts: dict[str, pa.Table] = {}
    if writer.candidates:  # compare with everything of this file stored first
        writer.add(result.site, new_ids, tables, last=True, origins=result.origins)
        tables, new_ids = {}, []
        rows, report.conflicts = writer.checker.resolve(writer.candidates)
        writer.checker.forget()
        conflicts = {"copy_conflicts": conflict_table(rows)}
    writer.add(result.site, new_ids, {**tables, **conflicts, **file_row(file_counts(report), tail)}, last=True,
               origins=result.origins)


def _locations(table: pa.Table, hand_ids: set[str]) -> dict[str, tuple[str, int, int, str]]:
    """(file, first line, last line, raw sha256) of some hands of a chunk's ``hands`` table."""
    chosen = table.filter(pc.is_in(table["hand_id"], value_set=pa.array(sorted(hand_ids), pa.string())))
    columns = [chosen[name].to_pylist() for name in ("hand_id", "file", "first_line", "last_line", "raw_sha256")]
    return {hand_id: (file, first, last, sha) for hand_id, file, first, last, sha in zip(*columns, strict=True)}


def _without(tables: dict[str, pa.Table], hand_ids: set[str]) -> dict[str, pa.Table]:
    """A chunk's tables less the rows of ``hand_ids``, in every table keyed by its hand numbers (hk)."""
    hands = tables["hands"]
    drop = hands.filter(pc.is_in(hands["hand_id"], value_set=pa.array(sorted(hand_ids), pa.string())))["hk"]
    return {name: table.filter(pc.invert(pc.is_in(table["hk"], value_set=drop.combine_chunks())))
            if "hk" in table.column_names else table for name, table in tables.items()}
