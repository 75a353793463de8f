"""CPU µs per hand of each step of an import, done once over fresh hands as an import does them
(garbage collection included, under the import's collector settings), beside the collector's share.

    python benchmarks/profile_steps.py bench_data/sim-20000.txt [--hands 10000]

Steps: read + decode, cut into blocks at hand starts, split blocks into hands, parse (line grammar
and site module), replay, tabulate (model → Arrow), the stats facts of the batch's tables
(BatchFacts, what an import now does) and, for comparison, the refresh over the store it replaced,
and the DuckDB write. Each step's time includes the collections it triggered; the collector's own
time is also summed per step (gc.callbacks).
"""

from __future__ import annotations

import argparse
import gc
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

Result = TypeVar("Result")


class Steps:
    def __init__(self) -> None:
        self.cpu: dict[str, float] = {}
        self.gc: dict[str, float] = {}
        self.hands: dict[str, int] = {}  # hands a step went through (the whole file for reading and cutting)
        self._gc_spent = 0.0
        self._gc_started = 0.0
        gc.callbacks.append(self._on_gc)

    def _on_gc(self, phase: str, _info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_started = time.process_time()
        else:
            self._gc_spent += time.process_time() - self._gc_started

    def run(self, name: str, work: Callable[[], Result], hands: int = 0) -> Result:
        gc_before, started = self._gc_spent, time.process_time()
        result = work()
        self.hands[name] = self.hands.get(name, 0) + hands
        self.cpu[name] = self.cpu.get(name, 0.0) + time.process_time() - started
        self.gc[name] = self.gc.get(name, 0.0) + self._gc_spent - gc_before
        return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("path", type=Path)
    parser.add_argument("--hands", type=int, default=10_000, help="hands profiled (the file's first)")
    parser.add_argument("--default-gc", action="store_true", help="CPython's collector settings, not the import's")
    args = parser.parse_args()

    from hhtool.ingest.allin_step import allin_of
    from hhtool.ingest.chunks import LineBlock
    from hhtool.ingest.executors import import_gc
    from hhtool.ingest.files import BATCH_HANDS, line_blocks
    from hhtool.ingest.reader import decode_bytes
    from hhtool.ingest.rule_choice import make_replayer
    from hhtool.ingest.writer import WRITE_HANDS
    from hhtool.model import Hand
    from hhtool.sites import parser_for
    from hhtool.store import Store, player_facts_cache
    from hhtool.store.stored_copies import NEW_ONLY
    from hhtool.store.tables import hand_rows, next_key, replay_rows, shifted

    site = parser_for("pokerstars")
    replayer = make_replayer(None)
    data = args.path.read_bytes()
    steps = Steps()
    with tempfile.TemporaryDirectory() as folder, Store(str(Path(folder) / "p.duckdb")) as store, \
            (import_gc() if not args.default_gc else _nothing()):
        site.parse(next(iter(site.split(decode_bytes(data[:20000]).lines, "warm"))))  # load the grammar
        batch = player_facts_cache.BatchFacts(store)
        in_file = data.count(b"\nPokerStars ") + data.startswith(b"PokerStars ")
        decoded = steps.run("read + decode", lambda: decode_bytes(data), in_file)
        blocks: list[LineBlock] = steps.run("cut into blocks", lambda: list(line_blocks(
            [decoded.lines], site, str(args.path), 1)), in_file)
        done, pending, offset = 0, [], 0
        for block in blocks:
            if done >= args.hands:
                break
            raws = steps.run("split into hands", lambda block=block: block.hands(site))  # type: ignore[misc]
            hands = steps.run("parse", lambda raws=raws: [h for h in map(site.parse, raws) if isinstance(h, Hand)])  # type: ignore[misc]
            items = steps.run("replay", lambda hands=hands: [(h, *replayer(h)) for h in hands])  # type: ignore[misc]
            tables = steps.run("tabulate", lambda items=items: {  # type: ignore[misc]
                **hand_rows(items, [r.betting for _, r, _ in items], [allin_of(h, r, None) for h, r, _ in items]),
                **replay_rows(items)})
            # each chunk numbers its hands from 0 (hk): moved past the batch's earlier ones, as FileWriter.add does
            tables, offset = shifted(tables, offset), offset + next_key(tables)
            pending.append(tables)
            done += len(hands)
            if sum(t["hands"].num_rows for t in pending) >= WRITE_HANDS or done >= args.hands:
                import pyarrow as pa

                joined = {name: pa.concat_tables([t[name] for t in pending]) for name in pending[0]}

                def facts_of(keyed: dict[str, Any]) -> dict[str, Any]:  # inside the write: its keys assigned
                    return steps.run("stats facts, batch tables (now)", lambda: batch.tables_for(keyed))

                before = steps.cpu.get("stats facts, batch tables (now)", 0.0)
                steps.run("DuckDB write", lambda joined=joined: store.write_tables(  # type: ignore[misc]
                    joined, new_only=NEW_ONLY, derived=facts_of))
                steps.cpu["DuckDB write"] -= steps.cpu["stats facts, batch tables (now)"] - before  # (counted apart)
                offset = 0
                pending = []
        # the refresh the batch path replaced, over the same hands: drop the cache, compute it again
        for name in (*player_facts_cache.CACHE_TABLES, player_facts_cache.VERSION_TABLE):
            store.run(f"DROP TABLE {name}")
        steps.run("stats facts, refresh over the store (before)", lambda: player_facts_cache.refresh_facts(store))
    print(f"{done:,} hands, {'default' if args.default_gc else 'import'} collector settings, "
          f"batches of {BATCH_HANDS:,}, transactions of {WRITE_HANDS:,}")
    print("| step | CPU µs per hand | of which GC |\n|---|---|---|")
    total = total_gc = 0.0
    for name, seconds in steps.cpu.items():
        counted = steps.hands[name] or done
        print(f"| {name} | {seconds / counted * 1e6:,.0f} | {steps.gc[name] / counted * 1e6:,.0f} |")
        if "(before)" not in name:
            total, total_gc = total + seconds / counted * done, total_gc + steps.gc[name] / counted * done
    print(f"| **total (now)** | **{total / done * 1e6:,.0f}** | {total_gc / done * 1e6:,.0f} |")
    return 0


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *_: object) -> None:
        return None


if __name__ == "__main__":
    sys.exit(main())
