"""CPU time of the cross-hand pass alone (the forced bets judged across hands, after an import), per hand.

    python benchmarks/bench_cross_hand.py [--hands 10000] [--tables 1] [--repeat 5]

Imports simulated hands (``--tables`` tables at $0.04/$0.08, so that the table tier answers, or with 0
one hand a table, so that every hand goes on to the site's other tables) into a fresh store, then judges
every hand again ``--repeat`` times, under the import's collector settings, and prints the median CPU µs
per hand (the process's CPU: DuckDB's threads included). On a tree from before hhtool.ingest.cross_hand it
times hhtool.store.context's SQL pass instead, for the before/after comparison.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--tables", type=int, default=1, help="tables the hands are dealt at (0: one hand a table)")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    from hhtool.ingest.executors import import_gc
    from hhtool.ingest.loader import import_file
    from hhtool.simulate import simulate_to_file
    from hhtool.simulate.dealer import TableConfig
    from hhtool.simulate.policy import SimplePolicy
    from hhtool.store import Store

    try:
        from hhtool.ingest.cross_hand import judge_hands as judge
        what = "replay.forced_bets (hhtool.ingest.cross_hand)"
    except ImportError:  # the tree before it
        from hhtool.store.context import judge_table_context as judge  # type: ignore[no-redef]
        what = "store.context (SQL)"
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "sim.txt"
        simulate_to_file(path, TableConfig(seed=1), SimplePolicy(), args.hands)
        text = path.read_text()
        if args.tables != 1:
            count = args.hands if args.tables == 0 else args.tables
            lines = text.split("\n")
            table = 0
            for index, line in enumerate(lines):
                if line.startswith("Table '"):
                    lines[index] = line.replace("Table '", f"Table 'T{table % count} ", 1)
                    table += 1
            text = "\n".join(lines)
        with Store(str(Path(folder) / "b.duckdb")) as store:
            import_file(store, path, text.encode(), store_facts=False)
            times = []
            for _ in range(args.repeat):
                with import_gc():  # as inside an import (hhtool.ingest.loader.import_sources)
                    start = time.process_time()
                    judged = judge(store, "true")
                    times.append(time.process_time() - start)
    per_hand = statistics.median(times) / max(judged, 1) * 1e6
    print(f"{what}: {judged} hands judged, median {statistics.median(times):.3f} s CPU, {per_hand:.1f} µs per hand "
          f"(runs: {', '.join(f'{t:.3f}' for t in times)})")


if __name__ == "__main__":
    main()
