"""`hhtool stats` over a big store: the facts cache's refresh cost and the report's time.

    python benchmarks/bench_stats.py --db /tmp/f.duckdb [--copies 10] [--repeats 3]

``--db`` is a store filled by `hhtool import` (e.g. of bench_data/sim-100000.txt). It is copied to a
temporary file; with ``--copies N`` the copy holds N shifted copies of its hands (hand ids suffixed,
dates 45 days apart), a 1M-hand store from a 100k one without importing for an hour. The cache is
dropped, rebuilt by refresh_facts (seconds per 1,000 hands), then `hhtool stats --format json` is
timed end to end (median of the repeats), and `hhtool --help` beside it for the start-up alone.
Nothing here runs in the unit tests.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import duckdb

from hhtool.store import Store
from hhtool.store.player_facts_cache import CACHE_TABLES, VERSION_TABLE, refresh_facts

HAND_TABLES = ("hands", "seats", "cards", "actions", "returns", "showdown", "awards", "results")
HHTOOL = [sys.executable, "-m", "hhtool"]


def make_copies(path: Path, copies: int) -> None:
    """Append copies 1..N-1 of the original hands under new hand ids, dates shifted."""
    con = duckdb.connect(str(path))
    con.execute("SET enable_progress_bar = false")
    for name in (*CACHE_TABLES, VERSION_TABLE):
        con.execute(f"DROP TABLE IF EXISTS {name}")
    for copy in range(1, copies):
        con.execute("BEGIN TRANSACTION")
        for table in HAND_TABLES:
            columns = [row[0] for row in con.execute(f"DESCRIBE {table}").fetchall()]
            shifted = [f"hand_id || '~{copy}' AS hand_id" if column == "hand_id" else
                       f"started_at + INTERVAL {45 * copy} DAY AS started_at" if column == "started_at" else column
                       for column in columns]
            con.execute(f"INSERT INTO {table} SELECT {', '.join(shifted)} FROM {table} WHERE NOT contains(hand_id, '~')")
        con.execute("COMMIT")
    con.close()


def timed_run(args: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True, type=Path)
    parser.add_argument("--copies", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="hhtool-bench-stats-") as scratch:
        path = Path(scratch) / "stats.duckdb"
        shutil.copy(options.db, path)
        make_copies(path, options.copies)
        with Store(str(path)) as store:
            hands = int(store.run("SELECT count(*) FROM hands")[0][0])
            started = time.perf_counter()
            refresh_facts(store)
            refresh = time.perf_counter() - started
            rows = int(store.run("SELECT count(*) FROM player_facts")[0][0])
            daily = int(store.run("SELECT count(*) FROM player_facts_daily")[0][0])
        stats = [timed_run([*HHTOOL, "stats", "--db", str(path), "--format", "json", "--out", "/dev/null"])
                 for _ in range(options.repeats)]
        startup = [timed_run([*HHTOOL, "--help"]) for _ in range(options.repeats)]
    print(f"hands: {hands:,}; player_facts rows: {rows:,}; player_facts_daily rows: {daily:,}")
    print(f"refresh_facts: {refresh:.1f} s = {1000 * refresh / max(hands, 1):.3f} s per 1,000 hands")
    print(f"hhtool stats (json, all players): median {statistics.median(stats):.2f} s of {[round(s, 2) for s in stats]}")
    print(f"hhtool --help (start-up alone): median {statistics.median(startup):.2f} s")


if __name__ == "__main__":
    main()
