"""Long fuzz run: import many mutated copies of the bundled sample histories.

    python benchmarks/fuzz_run.py --hands 100000 --seed 1

Every import must keep the accounting invariant (found = stored + duplicates + skipped + failed)
and no exception may escape; the run prints how many hands were examined and how they ended.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hhtool.store import Store
from tests.fuzzing import import_and_check, mutate, sample_texts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=100_000, help="stop after this many hands were found")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    texts = sample_texts()
    totals: Counter[str] = Counter()
    started = time.perf_counter()
    store = Store(":memory:")
    files = 0
    while totals["hands_found"] < args.hands:
        name, text = rng.choice(texts)
        data = mutate(text, rng, rng.randint(1, 4))
        import_and_check(store, f"fuzz/{files}/{name}", data)  # raises on any broken invariant
        row = store.run("SELECT hands_found, stored, duplicates, skipped, failed FROM files ORDER BY imported_at DESC LIMIT 1")
        if row:
            totals.update(dict(zip(("hands_found", "stored", "duplicates", "skipped", "failed"), row[0], strict=True)))
        files += 1
        if files % 1000 == 0:  # keep memory flat: a fresh store now and then
            print(f"{files} files, {dict(totals)}", file=sys.stderr, flush=True)
            store.close()
            store = Store(":memory:")
    elapsed = time.perf_counter() - started
    print(f"{files} mutated files, {dict(totals)} in {elapsed:.0f} s; no exception, invariant held on every import")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
