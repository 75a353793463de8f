"""Kill campaign: SIGKILL an import at random points, again and again, then re-run it once and
compare every table with an uninterrupted import. Prints one line per kill and the totals (for the
figures an issue's closing note asks for: kills survived, hands lost, tables differing).

    .venv/bin/python benchmarks/kill_run.py --kills 20 --hands 3000 --seed 1

Every ``--facts-every``-th kill (default 3; 0: none) lands between an import's last batch commit
and its facts step (the daily sums' merge, before #28): the import runs with the test hook
``hhtool.ingest.loader.before_facts_step`` installed (``tests.test_reliability.HHTOOL_KILLED_BEFORE_FACTS``;
production code has no switch of its own) and kills itself right there. Each such kill ends
a chain: every table, ``player_facts_daily`` included, is compared with the uninterrupted import's
as the kill left them, and again after a re-run that stores nothing new; the next kill starts a new
store. The other kills land anywhere (after 0 to 8 transactions, then up to 0.2 s more).

Uses the test suite's history (a failed hand, a repeat, an edited copy, a stray line and a
truncated last hand among numbered hands) and its every-table comparison.
"""

from __future__ import annotations

import argparse
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hhtool.store.player_facts_cache import CACHE_TABLES, VERSION_TABLE
from tests.test_reliability import (
    HHTOOL_KILLED_BEFORE_FACTS,
    HHTOOL_SMALL_WRITES,
    history_with_every_outcome,
    run_hhtool,
    tables_of,
)

Tables = dict[str, list[tuple[object, ...]]]


def differing(got: Tables, want: Tables) -> list[str]:
    """The tables whose rows differ (or that one side lacks)."""
    return sorted(name for name in {*got, *want} if got.get(name) != want.get(name))


def keys_twice(tables: Tables) -> int:
    """Rows of ``player_facts_daily`` beyond one per key (its sums' key: every column but the sums)."""
    from hhtool.store.player_facts_cache import DAILY_KEYS

    rows = tables.get("player_facts_daily", [])
    return len(rows) - len({row[:len(DAILY_KEYS)] for row in rows})


def killed_at_random(command: list[str], rng: random.Random) -> bool:
    """Start the import and SIGKILL it after some transactions; whether it was still running."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert process.stdout is not None
    for _ in range(rng.randint(0, 8)):  # after some transactions (0: before the first)
        process.stdout.readline()
    time.sleep(rng.uniform(0, 0.2))
    finished = process.poll() is not None
    process.send_signal(signal.SIGKILL)
    process.wait()
    return not finished


def killed_before_facts(arguments: list[str]) -> bool:
    """Run the import (hhtool's ``arguments``) until it kills itself after its last batch commit; whether it did."""
    done = subprocess.run([*HHTOOL_KILLED_BEFORE_FACTS, *arguments], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL, timeout=1800, check=False)
    return done.returncode == -signal.SIGKILL


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--facts-every", type=int, default=3,
                        help="every Nth kill lands between the last batch commit and the facts step (0: none)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="the killed imports' --jobs (2: a pool parses, and the facts wait for its end)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as folder:
        history = Path(folder) / "big.txt"
        history.write_text(history_with_every_outcome(args.hands))
        reference = str(Path(folder) / "reference.duckdb")
        run_hhtool("import", str(history), "--db", reference, timeout=1800)
        want = tables_of(reference)
        killed = facts_kills = chains = lost = twice = 0
        bad: set[str] = set()
        chain_db = ""

        def end_chain(db: str) -> None:  # a re-run, then every table compared
            nonlocal lost, twice
            run_hhtool("import", str(history), "--db", db, timeout=1800)
            got = tables_of(db)
            bad.update(differing(got, want))
            lost += len(want["hands"]) - len(got["hands"])
            twice += keys_twice(got)

        for number in range(1, args.kills + 1):
            if not chain_db:
                chains += 1
                chain_db = str(Path(folder) / f"killed{chains}.duckdb")
            arguments = ["import", "-j", str(args.jobs), str(history), "--db", chain_db]
            if args.facts_every and number % args.facts_every == 0:
                landed = killed_before_facts(arguments)
                facts_kills += landed
                killed += landed
                got = tables_of(chain_db)  # as the kill left it
                # (with a pool the facts come after the workers stop: before that step the cache lacks them)
                left = [name for name in differing(got, want) if args.jobs == 1 or name not in (*CACHE_TABLES, VERSION_TABLE)]
                bad.update(left)
                twice += keys_twice(got)
                print(f"kill {number}: {'killed' if landed else 'NOT killed'} after the last batch commit, before the "
                      f"facts step; {len(got['hands'])} hands stored, daily keys twice: {keys_twice(got)}, tables "
                      f"differing: {left or 'none'}", flush=True)
                end_chain(chain_db)
                chain_db = ""
                continue
            landed = killed_at_random([*HHTOOL_SMALL_WRITES, *arguments], rng)
            killed += landed
            stored = len(tables_of(chain_db)["hands"]) if Path(chain_db).exists() else 0
            print(f"kill {number}: {'killed' if landed else 'finished before the kill'}, {stored} hands stored",
                  flush=True)
        if chain_db:
            end_chain(chain_db)
        print(f"{killed} kills of {args.kills} landed during an import ({facts_kills} between the last batch commit "
              f"and the facts step), in {chains} chains; after each chain's re-run: {lost} hands lost; "
              f"player_facts_daily keys twice: {twice}; tables differing from an uninterrupted import "
              f"(every table, player_facts_daily included): {sorted(bad) or 'none'}")
        return 1 if bad or lost or twice else 0


if __name__ == "__main__":
    raise SystemExit(main())
