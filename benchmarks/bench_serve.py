"""`hhtool serve`: the median time of each page over a big store (not a timed test).

    python benchmarks/bench_serve.py --work /tmp/serve1m [--hands 10000] [--copies 100] [--runs 5]
        [--store /work/bench-store-1m.duckdb] [--build-only] [--only TEXT …]

The store: ``--hands`` simulated hands (`hhtool simulate --seed 1`) imported once, then copied
``--copies`` times with SQL (copy k, k x span days later, under the k-th next block of hand ids as a
site numbers them, hand keys shifted past the last, stored copy after copy as an import appends), in
``hands``, every per-hand table (schema ``keyed``: seats, cards, actions, results, …, so that every
copy replays) and the facts cache (``player_facts``, its covered hands, the daily and door sums rebuilt).
The scaled store is built once and reused: ``--store`` names it (default: in ``--work``); it is
built only when that file is missing (``--build-only`` builds it and stops). Each page is asked through
the app (Starlette's TestClient, the store held as `serve` holds it), after one warm-up, ``--runs`` times;
the replayer twice: opened from the whole list and from a player's (its previous/next hands in that list).
``--only`` times the pages whose name holds one of the texts given (e.g. ``--only start sessions``).
"""

from __future__ import annotations

import argparse
import html
import re
import statistics
import sys
import time
from pathlib import Path

import duckdb

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_stats_scale import base_store  # this folder's: the imported simulated hands

from hhtool.store.facts_storage import ROWS_TABLE
from hhtool.store.player_facts_cache import COVERED_TABLE, FACTS_TABLE, SUMMED, daily_sums_sql


def _copied_ids(con: duckdb.DuckDBPyConnection, copies: int) -> str:
    """Copy k's hand ids: numbers as a site's (the next k blocks of as many numbers, written as long),
    so that ids rise with the hands' times as a site's do and DuckDB can skip row groups when a hand
    is looked up by its id; ``<id>~k`` when the ids are not all numbers of one length."""
    low, high, length, numeric = con.execute(
        "SELECT min(hand_id), max(hand_id), max(length(hand_id)), bool_and(regexp_full_match(hand_id, '[0-9]+') "
        "AND length(hand_id) = (SELECT min(length(hand_id)) FROM hands)) FROM hands").fetchone() or (None, None, 0, False)
    if not numeric or low is None:
        return "hand_id || '~' || k AS hand_id"
    block = int(high) - int(low) + 1
    if len(str(int(high) + copies * block)) > int(length):
        return "hand_id || '~' || k AS hand_id"
    return f"lpad(CAST(CAST(hand_id AS HUGEINT) + k * {block} AS VARCHAR), {int(length)}, '0') AS hand_id"


def replicate(base: Path, scaled: Path, copies: int) -> int:
    import shutil

    shutil.copyfile(base, scaled)
    con = duckdb.connect(str(scaled))
    con.execute("SET enable_progress_bar = false")
    first, last = con.execute("SELECT min(started_at), max(started_at) FROM hands").fetchone() or (None, None)
    span = (last - first).days + 1 if first is not None and last is not None else 1
    step = int((con.execute("SELECT max(hk) + 1 FROM hands").fetchone() or (1,))[0])
    shifted = {"hk": f"hk + k * {step} AS hk", "hand_id": _copied_ids(con, copies),
               "started_at": f"started_at + to_days(CAST(k * {span} AS INTEGER)) AS started_at",
               "month": f"strftime(started_at + to_days(CAST(k * {span} AS INTEGER)), '%Y-%m') AS month"}
    con.execute("BEGIN TRANSACTION")
    hands_table = str((con.execute("SELECT table_name FROM duckdb_tables() WHERE table_name IN ('hands', 'hands_keyed')")
                       .fetchone() or ("hands",))[0])
    by_key = [f"keyed.{row[0]}" for row in con.execute(
        "SELECT table_name FROM duckdb_tables() WHERE schema_name = 'keyed' ORDER BY 1").fetchall()]
    for table in (hands_table, *by_key, ROWS_TABLE, COVERED_TABLE):
        columns = [row[0] for row in con.execute(f"DESCRIBE {table}").fetchall()]
        selected = ", ".join(shifted.get(column, column) for column in columns)
        # copy by copy, each in its rows' order: stored as an import stores them (by hand key, dates rising)
        con.execute(f"INSERT INTO {table} SELECT {selected} FROM {table} t, range(1, {copies}) copies(k) ORDER BY k, t.rowid")
    for table, keys in SUMMED.items():  # the daily and door sums, summed again over every copy
        con.execute(f"DELETE FROM {table}")
        con.execute(f"INSERT INTO {table} BY NAME {daily_sums_sql(f'SELECT * FROM {FACTS_TABLE}', keys)}")
    con.execute("COMMIT")
    con.execute("CHECKPOINT")
    count = int((con.execute("SELECT count(*) FROM hands").fetchone() or (0,))[0])
    con.close()
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, required=True)
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--copies", type=int, default=100)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--store", type=Path, help="the scaled store, reused when it exists (built there otherwise)")
    parser.add_argument("--build-only", action="store_true", help="build the scaled store if missing, then stop")
    parser.add_argument("--only", nargs="+", default=[], help="time only the pages whose name holds one of these")
    options = parser.parse_args()
    options.work.mkdir(parents=True, exist_ok=True)
    scaled = options.store or options.work / f"serve-{options.hands}x{options.copies}.duckdb"
    if not scaled.exists():
        started = time.perf_counter()
        building = scaled.with_name(scaled.name + ".building")
        building.unlink(missing_ok=True)
        count = replicate(base_store(options.work, options.hands), building, options.copies)
        building.rename(scaled)  # only a whole store is ever reused
        print(f"built {scaled} ({count:,} hands) in {time.perf_counter() - started:.0f} s", flush=True)
    if options.build_only:
        return

    from starlette.testclient import TestClient

    from hhtool.service.serving import HeldStore
    from hhtool.service.stores import Database
    from hhtool.web.app import create_app

    with duckdb.connect(str(scaled), read_only=True) as con:  # a hand half way through the store, the first day
        middle = "/".join(str(part) for part in (con.execute(
            "SELECT site, hand_id FROM hands WHERE hk = (SELECT max(hk) // 2 FROM hands)").fetchone() or ()))
        first_day = (con.execute("SELECT CAST(min(started_at) AS DATE) FROM hands").fetchone() or ("",))[0]
        opponent = (con.execute("SELECT player FROM results WHERE player <> 'Hero' GROUP BY 1 ORDER BY count(*) DESC "
                                "LIMIT 1").fetchone() or ("",))[0]
    held = HeldStore(Database(str(scaled)))
    client = TestClient(create_app(held, {"testserver"}))
    first = client.get("/hands").text
    cursor = first.split('rel="next" href="/hands?after=')[1].split('"')[0].replace("&amp;", "&")
    hero = "Hero"
    one = first.split('data-href="/hand/')[1].split('"')[0]
    pages = {
        "players (stats)": "/stats", "players by month": "/stats?by=month",
        "players by starting hand": "/stats?by=start", "players by stakes": "/stats?by=stakes",
        "players by door card": "/stats?by=door-card", "players by street": "/stats?by=street",
        "player page": f"/player?player={hero}",
        "player against an opponent": f"/player/against?player={hero}&opponent={opponent}",
        "hands, first page": "/hands", "hands, next page": f"/hands?after={cursor}",
        "hands of a player": f"/hands?player={hero}", "hands, verdict filter": "/hands?verdict=violation",
        "hands of a player, next": f"/hands?player={hero}&after={cursor}~{hero}",
        "replayer (+ prev/next)": f"/hand/{one}", "replayer in a player's list": f"/hand/{one}?player={hero}",
        "replayer, a hand half way": f"/hand/{middle}?player={hero}",
        "sessions": f"/sessions?player={hero}", "sessions, whole history": f"/sessions?player={hero}&from={first_day}",
        "sessions, heroes, whole history": f"/sessions?from={first_day}",
        "graph": f"/graph?player={hero}", "audit by code": "/audit", "problems": "/problems", "latest mark": "/api/latest",
    }
    point = re.findall(r'<a href="([^"]+)" class="point">', client.get(f"/graph?player={hero}").text)[-1]
    pages["graph, a point's hand"] = html.unescape(point)
    pages["graph, big bets by date"] = f"/graph?player={hero}&unit=bb&x=date"
    count = client.get("/api/latest").json()["hands"]
    print(f"{count:,} hands; median of {options.runs} runs after a warm-up (ms):")
    for name, path in pages.items():
        if options.only and not any(text in name for text in options.only):
            continue
        response = client.get(path, follow_redirects=False)
        if response.status_code not in (200, 303):
            print(f"  {name:34} {path}: HTTP {response.status_code}")
            continue
        times = []
        for _ in range(options.runs):
            started = time.perf_counter()
            client.get(path, follow_redirects=False)
            times.append((time.perf_counter() - started) * 1000)
        print(f"  {name:34} {statistics.median(times):8.1f}   {path[:60]}", flush=True)
    held.close()


if __name__ == "__main__":
    main()
