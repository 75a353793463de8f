"""Time the store's row builders (hhtool.store.tables.hand_rows) and the stats facts of a batch
(hhtool.store.player_facts_cache.BatchFacts.tables_for) on simulated hands.

    python benchmarks/bench_rows.py [--hands 10000] [--repeats 5] [--file PATH]

Hands come from `hhtool simulate --seed 1` (PokerStars format), parsed and replayed once; hand_rows
is timed in batches of the importer's BATCH_HANDS, the batch facts over each batch's tables (an
in-memory store). Prints the median µs per hand. Nothing here runs in the unit tests.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--hands", type=int, default=10_000)
    options.add_argument("--repeats", type=int, default=5)
    options.add_argument("--file", type=Path, help="a simulated file to reuse (default: simulate into a temp folder)")
    args = options.parse_args()

    from hhtool.ingest.files import BATCH_HANDS
    from hhtool.ingest.reader import read_file
    from hhtool.ingest.rule_choice import make_replayer
    from hhtool.model import Hand
    from hhtool.sites import parser_for
    from hhtool.store.tables import hand_rows

    with tempfile.TemporaryDirectory() as folder:
        path = args.file or Path(folder) / "sim.txt"
        if not path.exists():
            subprocess.run([sys.executable, "-m", "hhtool", "simulate", "--hands", str(args.hands), "--seed", "1",
                            "--out", str(path)], check=True, stdout=subprocess.DEVNULL)
        parser = parser_for("pokerstars")
        raws = list(parser.split(read_file(path).lines, str(path)))[:args.hands]
    hands = [hand for hand in map(parser.parse, raws) if isinstance(hand, Hand)]
    replayer = make_replayer(None)
    items = [(hand, *replayer(hand)) for hand in hands]
    batches = [items[start:start + BATCH_HANDS] for start in range(0, len(items), BATCH_HANDS)]

    def one_run(clock: Callable[[], float]) -> float:
        started = clock()
        for batch in batches:
            hand_rows(batch, [replay.betting for _, replay, _ in batch])
        return (clock() - started) / len(items) * 1e6

    one_run(time.perf_counter)  # warm up
    # CPU time beside wall time: on a shared machine the wall clock mostly measures the neighbours
    for label, clock in (("wall", time.perf_counter), ("cpu", time.process_time)):
        runs = [one_run(clock) for _ in range(args.repeats)]
        print(f"hand_rows ({label}): {statistics.median(runs):.1f} µs per hand (median of {args.repeats}; runs "
              f"{', '.join(f'{run:.1f}' for run in runs)}; {len(items)} hands, batches of {BATCH_HANDS})")

    from hhtool.store import Store
    from hhtool.store.player_facts_cache import BatchFacts
    from hhtool.store.tables import replay_rows

    # each batch's hands numbered from 0
    tables = [{**hand_rows(batch, [replay.betting for _, replay, _ in batch]), **replay_rows(batch)} for batch in batches]
    with Store(":memory:") as store:
        facts = BatchFacts(store)
        facts.tables_for(tables[0])  # sets up the cache tables
        runs = []
        for _ in range(args.repeats):
            started = time.process_time()
            for batch_tables in tables:
                facts.tables_for(batch_tables)
            runs.append((time.process_time() - started) / len(items) * 1e6)
    print(f"BatchFacts.tables_for (cpu): {statistics.median(runs):.1f} µs per hand (median of {args.repeats}; runs "
          f"{', '.join(f'{run:.1f}' for run in runs)})")


if __name__ == "__main__":
    main()
