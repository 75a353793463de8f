"""The importing process's serial part at ``--jobs 2``: its CPU µs per hand and where they go (issue #37's
target: ≤ 100 µs a hand, the importing process writing the Arrow it is handed and running the cross-hand pass).

    python benchmarks/profile_serial.py FILE [--jobs 2] [--top 25] [--plain | --steps] [--store DB]

The import runs once in this process (the workers parse, replay and tabulate in their own processes, not
counted). Prints the process's CPU µs per hand (user + system, exact: ``process_time``, the pool's threads
that unpickle results and DuckDB's threads included); without ``--plain`` the import runs under cProfile
and the cumulative CPU µs per hand of the import's steps follow (the profile's own overhead inflates
them; they are for proportions), then the top functions by their own time. ``--plain`` (no profiler) is
the figure to compare; ``--steps`` (no profiler either) adds each step's own CPU, timed around its
function. ``--store DB``: import into a copy of that store (a store that grows: #37) instead of an empty one.
Run it with another checkout's PYTHONPATH for an A/B. (Brought from branch
facts-workers, its steps named as this tree calls them.)
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import shutil
import tempfile
import time
from pathlib import Path

#: (label, module, qualified name) of the steps reported (a step missing from a tree is left out)
STEPS = (
    ("open + cut the file into chunks", "hhtool.ingest.files", "FileOpener.open"),
    ("wait for / receive the workers' results", "hhtool.ingest.loader", "_oldest"),
    ("write a chunk (accounting, copies, the batch's write)", "hhtool.ingest.loader", "write"),
    ("  stored copies of the chunk's hands", "hhtool.ingest.writer", "FileWriter.copies_of"),
    ("  hands stored by another import meanwhile", "hhtool.ingest.meanwhile", "left_out"),
    ("  the batch's transaction (inserts + cross-hand pass)", "hhtool.store", "Store.write_tables"),
    ("    count the batch's forced bets (forced_bet_votes)", "hhtool.store.forced_bet_votes", "add_hands"),
    ("    stats facts: the batch's rows (BatchFacts.tables_for)", "hhtool.store.player_facts_cache",
     "BatchFacts.tables_for"),
    ("    inserts of rows", "hhtool.store", "Store._insert"),
    ("    cross-hand pass (judge_batch)", "hhtool.ingest.cross_hand", "judge_batch"),
    ("      choose the hands to judge", "hhtool.store.forced_bets", "choose"),
    ("      gather their evidence", "hhtool.store.forced_bets", "gather"),
    ("      the levels' patterns", "hhtool.store.forced_bets", "level_patterns"),
    ("      judge (replay)", "hhtool.replay.table_pass", "judge_slice"),
    ("      judgements as rows", "hhtool.ingest.cross_hand", "rows_of"),
    ("      write the judgements", "hhtool.store.judgements", "write_judgements"),
    ("stats facts after the workers stop (refresh)", "hhtool.store.player_facts_cache", "refresh_facts"),
    ("  the import's rows summed", "hhtool.store.player_facts_cache", "sum_stored_rows"),
)


def timed_steps() -> dict[str, list[float]]:
    """Wrap each step's function with a CPU-time accumulator (a few calls per batch: no measurable
    overhead, unlike cProfile's on the pass's many small calls): every name it is reachable by in the
    loaded hhtool modules is replaced; the steps' CPU seconds and calls, by label."""
    import functools
    import importlib
    import sys

    spent: dict[str, list[float]] = {}
    for label, module_name, qualname in STEPS:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError:  # (a step this tree has not)
            continue
        owner: object = module
        *path, name = qualname.split(".")
        for part in path:
            owner = getattr(owner, part, None)
        original = getattr(owner, name, None)
        if original is None:
            continue
        cell = spent.setdefault(label, [0.0, 0])

        def wrapper(*args: object, _original: object = original, _cell: list[float] = cell, **kwargs: object) -> object:
            started = time.process_time()
            try:
                return _original(*args, **kwargs)  # type: ignore[operator]
            finally:
                _cell[0] += time.process_time() - started
                _cell[1] += 1

        functools.update_wrapper(wrapper, original)
        if path:
            setattr(owner, name, wrapper)
            continue
        for loaded in list(sys.modules.values()):
            if getattr(loaded, "__name__", "").startswith("hhtool") and getattr(loaded, name, None) is original:
                setattr(loaded, name, wrapper)
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--plain", action="store_true", help="no profiler: the process's CPU only")
    parser.add_argument("--steps", action="store_true", help="no profiler: the process's CPU and each step's")
    parser.add_argument("--store", type=Path, help="import into a copy of this store (default: an empty one)")
    options = parser.parse_args()
    from hhtool.ingest.executors import LocalExecutor
    from hhtool.ingest.loader import import_sources
    from hhtool.ingest.sources import collect_sources
    from hhtool.store import Store

    steps = timed_steps() if options.steps else {}
    options.plain = options.plain or options.steps

    profile = cProfile.Profile(time.process_time)  # CPU, not wall: the machine is shared
    folder = tempfile.TemporaryDirectory()
    if options.store is not None:
        shutil.copy(options.store, Path(folder.name) / "p.duckdb")
    with folder, Store(str(Path(folder.name) / "p.duckdb")) as store:
        sources = collect_sources([str(options.file)]).sources
        started = time.process_time()
        if not options.plain:
            profile.enable()
        report = import_sources(store, sources, executor=LocalExecutor(options.jobs))
        if not options.plain:
            profile.disable()
        spent = time.process_time() - started
    hands = report.total("stored")
    print(f"{hands:,} hands, --jobs {options.jobs}: the importing process {spent / hands * 1e6:,.0f} CPU µs per hand "
          f"({'plain' if options.plain else 'under the profiler'})")
    if options.steps:
        print("| step | CPU µs per hand | calls |\n|---|---|---|")
        for label, (seconds, calls) in steps.items():
            print(f"| {label} | {seconds / hands * 1e6:,.0f} | {calls:.0f} |")
    if options.plain:
        return
    stats = pstats.Stats(profile)
    table = stats.stats  # type: ignore[attr-defined]
    print("| step | cumulative µs per hand (profiled) |\n|---|---|")
    for label, suffix, name in STEPS:
        total = sum(cumulative for (file, _, function), (_, _, _, cumulative, _) in table.items()
                    if file.endswith(suffix) and function == name)
        print(f"| {label} | {total / hands * 1e6:,.0f} |")
    stats.sort_stats("tottime").print_stats(options.top)


if __name__ == "__main__":
    main()
