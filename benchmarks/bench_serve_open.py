"""What opening the store per request costs `hhtool serve` (#35, item 2): each page asked through the app
(Starlette's TestClient) with the file closed between requests, as `serve` now runs, and with one more
read-only connection kept open for the whole run, as `serve` ran before (every request's connection
then joins that open database instance instead of opening the file). Medians of ``--runs`` after one
warm-up, in CPU time of this process (its threads included) and wall time.

    python benchmarks/bench_serve_open.py --store STORE.duckdb [--runs 15]
"""

from __future__ import annotations

import argparse
import statistics
import time
from contextlib import nullcontext
from typing import Any

PAGES = ("/api/latest", "/hands", "/stats", "/tables")


def measure(client: Any, path: str, runs: int) -> tuple[float, float]:
    client.get(path)
    cpu, wall = [], []
    for _ in range(runs):
        started_cpu, started = time.process_time(), time.perf_counter()
        answer = client.get(path)
        cpu.append(time.process_time() - started_cpu)
        wall.append(time.perf_counter() - started)
        assert answer.status_code == 200, (path, answer.status_code)
    return statistics.median(cpu), statistics.median(wall)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", required=True)
    parser.add_argument("--runs", type=int, default=15)
    options = parser.parse_args()

    from starlette.testclient import TestClient

    from hhtool.service.serving import HeldStore
    from hhtool.service.stores import Database
    from hhtool.store import Store
    from hhtool.web.app import create_app

    held = HeldStore(Database(options.store))
    hands = Store(options.store, read_only=True).run("SELECT count(*) FROM hands")[0][0]
    print(f"{options.store}: {hands:,} hands; medians of {options.runs} (CPU ms / wall ms)")
    print(f"{'page':<14}{'per request':>22}{'kept open':>22}")
    try:
        with TestClient(create_app(held, {"testserver"}, token="t")) as client:
            for path in PAGES:
                results = []
                for kept in (False, True):
                    with Store(options.store, read_only=True) if kept else nullcontext():
                        cpu, wall = measure(client, path, options.runs)
                    results.append(f"{cpu * 1000:9.1f} / {wall * 1000:7.1f}")
                print(f"{path:<14}{results[0]:>22}{results[1]:>22}")
    finally:
        held.close()


if __name__ == "__main__":
    main()
