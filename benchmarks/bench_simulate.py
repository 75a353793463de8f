"""Throughput of the hand simulator (one core, pure Python) and its memory over a long stream.

Usage: /work/venv/bin/python benchmarks/bench_simulate.py [--hands 20000] [--seed 1] [--faults 0.1]

Prints hands per second (wall clock and per CPU second, the latter less sensitive to a busy
machine) for playing hands alone, for playing + writing PokerStars text to a file
(what `hhtool simulate` does), and the peak traced memory of the written run, which must not grow
with the number of hands.
"""

from __future__ import annotations

import argparse
import tempfile
import time
import tracemalloc
from pathlib import Path

from hhtool.simulate import Dealer, TableConfig, simulate_to_file
from hhtool.simulate.policy import SimplePolicy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--faults", type=float, default=0.1)
    args = parser.parse_args()
    config = TableConfig(seed=args.seed)

    dealer = Dealer(config, SimplePolicy())
    start, cpu = time.perf_counter(), time.process_time()
    for index in range(args.hands):
        dealer.play(index)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(f"play only:        {args.hands / wall:8.0f} hands/s wall, {args.hands / cpu:8.0f} per CPU second ({args.hands} hands)")

    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "bench.txt"
        start, cpu = time.perf_counter(), time.process_time()
        stats = simulate_to_file(out, config, SimplePolicy(), args.hands, args.faults)
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
        print(f"play+write file:  {args.hands / wall:8.0f} hands/s wall, {args.hands / cpu:8.0f} per CPU second "
              f"({args.hands} hands, {sum(stats.faults.values())} faulty, {out.stat().st_size / 1e6:.1f} MB)")
        for count in (args.hands // 10, args.hands // 2):  # memory must not grow with the count
            tracemalloc.start()
            simulate_to_file(out, config, SimplePolicy(), count, args.faults)
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            print(f"peak traced memory writing {count} hands: {peak / 1e6:.2f} MB")

if __name__ == "__main__":
    main()
