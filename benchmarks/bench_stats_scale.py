"""`hhtool stats` over a 1M-hand store, built in a minute: CPU (user + system) and wall, median of N runs.

    python benchmarks/bench_stats_scale.py --work /tmp/st1m [--hands 10000] [--copies 100] [--runs 3] [--base DIR]

The store is honest about what `stats` reads: ``--hands`` simulated hands (`hhtool simulate --seed 1`)
are imported once (facts stored with them, as every import does), then each table stats reads is
replicated ``--copies`` times with SQL, copy k under new hand ids (``<id>~k``) and ``k * span`` days later
(span: the days the simulated hands cover), so the store holds copies x hands distinct hands over as
many days: ``hands`` and ``seats`` (the filters and their checks), the facts cache (``player_facts``,
``player_facts_hands``) and the daily and door sums rebuilt from it by the project's own :func:`daily_sums_sql`
(what an import stores). The other hand tables (cards, actions, ...) are not copied: a report never
reads them while the cache covers every hand, which the script checks (needs_refresh is false).

``--base DIR`` names another hhtool source tree (PYTHONPATH first) whose runs alternate with this one's.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path

import duckdb
from bench_startup import compare  # this folder's: the same interleaved runs and table

from hhtool.store import Store
from hhtool.store.facts_storage import ROWS_TABLE
from hhtool.store.player_facts_cache import COVERED_TABLE, FACTS_TABLE, SUMMED, daily_sums_sql, needs_refresh

ROOT = Path(__file__).resolve().parents[1]
#: the tables copied: what `stats` reads (with or without filters) while the cache covers every hand
COPIED = ("hands", "seats", ROWS_TABLE, COVERED_TABLE)


def base_store(work: Path, hands: int) -> Path:
    """The imported simulated hands (made once per ``--hands``)."""
    db = work / f"base-{hands}.duckdb"
    if not db.exists():
        history = work / f"sim-{hands}.txt"
        subprocess.run([sys.executable, "-m", "hhtool", "simulate", "--hands", str(hands), "--seed", "1",
                        "--out", str(history), "--force"], check=True, stdout=subprocess.DEVNULL)
        subprocess.run([sys.executable, "-m", "hhtool", "import", str(history), "--db", str(db), "-q"], check=True)
    return db


def replicate(base: Path, scaled: Path, copies: int) -> int:
    """``scaled``: ``base`` with copies 1..copies-1 of its hands in every table stats reads; its hands."""
    shutil.copyfile(base, scaled)
    con = duckdb.connect(str(scaled))
    con.execute("SET enable_progress_bar = false")
    first, last = con.execute("SELECT min(started_at), max(started_at) FROM hands").fetchone() or (None, None)
    span = (last - first).days + 1 if first is not None and last is not None else 1
    step = int((con.execute("SELECT max(hk) + 1 FROM hands").fetchone() or (1,))[0])
    con.execute("BEGIN TRANSACTION")
    for table in COPIED:
        columns = [row[0] for row in con.execute(f"DESCRIBE {table}").fetchall()]
        shifted = {
            "hk": f"hk + k * {step} AS hk",  # (the facts view joins its rows to their hand by it)
            "hand_id": "hand_id || '~' || k AS hand_id",
            "started_at": f"started_at + to_days(CAST(k * {span} AS INTEGER)) AS started_at",
            "month": f"strftime(started_at + to_days(CAST(k * {span} AS INTEGER)), '%Y-%m') AS month",
        }
        selected = ", ".join(shifted.get(column, column) for column in columns)
        con.execute(f"INSERT INTO {table} SELECT {selected} FROM {table}, range(1, {copies}) copies(k)")
    for table, keys in SUMMED.items():  # the daily and door sums, summed again over every copy
        con.execute(f"DELETE FROM {table}")
        con.execute(f"INSERT INTO {table} BY NAME {daily_sums_sql(f'SELECT * FROM {FACTS_TABLE}', keys)}")
    con.execute("COMMIT")
    con.execute("CHECKPOINT")
    count = int((con.execute("SELECT count(*) FROM hands").fetchone() or (0,))[0])
    con.close()
    with Store(str(scaled), read_only=True) as store:
        if needs_refresh(store):
            raise SystemExit("the copied cache does not cover every hand: stats would refresh it")
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, required=True, help="folder for the histories and stores")
    parser.add_argument("--hands", type=int, default=10_000, help="simulated hands imported")
    parser.add_argument("--copies", type=int, default=100, help="copies of them in the store (100: 1M hands)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--base", type=Path, help="another hhtool source tree to compare with")
    options = parser.parse_args()
    options.work.mkdir(parents=True, exist_ok=True)
    scaled = options.work / f"stats-{options.hands}x{options.copies}.duckdb"
    if not scaled.exists():
        started = time.perf_counter()
        count = replicate(base_store(options.work, options.hands), scaled, options.copies)
        print(f"built {scaled} ({count:,} hands, {scaled.stat().st_size / 1e6:,.0f} MB) "
              f"in {time.perf_counter() - started:.0f} s")
    trees = {"this": ROOT} | ({"base": options.base.resolve()} if options.base else {})
    commands = {
        "stats": ["stats", "--db", str(scaled)],
        "stats --format csv": ["stats", "--db", str(scaled), "--format", "csv"],
        "stats --by month": ["stats", "--db", str(scaled), "--by", "month", "--format", "csv"],
        "--help": ["--help"],
    }
    compare(commands, trees, options.runs)

if __name__ == "__main__":
    main()
