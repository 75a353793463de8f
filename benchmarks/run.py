"""The benchmark runner: hhtool's speed, memory and size on simulated hands, beside PokerKit.

    python benchmarks/run.py --sizes 100000,1000000 --repeats 3 [--results benchmarks/RESULTS.md]

Inputs are written by `hhtool simulate` (seed 1, PokerStars format) into bench_data/ and reused.
For each size it reports, as medians over the repeats:
  parse-only, replay-only and store-only hands per CPU-second (in this process),
  end-to-end `hhtool import` hands/s with --jobs 1 and with all cores, the CPU time it used per
  hand (every process: the importing one and the pool's workers), and its peak RSS,
  re-import hands/s (the same files again), database bytes per hand, `hhtool stats` time,
  and PokerKit replaying the same hands (from hhtool's PHH export), as a ratio to hhtool's replay.
Then the same side-by-side on real text (``--real``): the corpus's PokerStars Stud Hi/Lo hands
replicated with new hand numbers (benchmarks/real_hands.py), with their import rate and CPU.
Each run says which build it measured (pure Python or compiled) and the load when it started.
Nothing here runs in the unit tests.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from build import measured_build
from real_hands import replicated

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "bench_data"
HHTOOL = [sys.executable, "-m", "hhtool"]


def median_of(repeats: int, run: Callable[[], float]) -> float:
    return statistics.median(run() for _ in range(repeats))


def simulated(hands: int) -> Path:
    DATA.mkdir(exist_ok=True)
    path = DATA / f"sim-{hands}.txt"
    if not path.exists():
        subprocess.run([*HHTOOL, "simulate", "--hands", str(hands), "--seed", "1", "--out", str(path)], check=True)
    return path


def in_process_rates(path: Path, repeats: int, limit: int) -> dict[str, float]:
    """Parse-only, replay-only and store-only hands/s on the first ``limit`` hands of a file."""
    from hhtool.ingest.chunks import process_chunk
    from hhtool.ingest.files import BATCH_HANDS
    from hhtool.ingest.reader import read_file
    from hhtool.ingest.rule_choice import make_replayer
    from hhtool.ingest.writer import FileWriter
    from hhtool.model import Hand
    from hhtool.sites import parser_for
    from hhtool.store import Store
    from hhtool.store.tables import hand_rows, replay_rows

    parser = parser_for("pokerstars")
    raws = list(parser.split(read_file(path).lines, str(path)))[:limit]

    def parse() -> float:
        started = time.process_time()
        for raw in raws:
            parser.parse(raw)
        return len(raws) / (time.process_time() - started)

    hands = [h for h in (parser.parse(raw) for raw in raws) if isinstance(h, Hand)]
    replayer = make_replayer(None)

    def replay() -> float:
        started = time.process_time()
        for hand in hands:
            replayer(hand)
        return len(hands) / (time.process_time() - started)

    replayed = [(hand, *replayer(hand)) for hand in hands]

    def store() -> float:
        """Tabulate and write as an import does: chunks of BATCH_HANDS, transactions of WRITE_HANDS."""
        with tempfile.TemporaryDirectory() as folder, Store(str(Path(folder) / "s.duckdb")) as db:
            started = time.process_time()
            writer = FileWriter(db)
            for start in range(0, len(replayed), BATCH_HANDS):
                batch = replayed[start:start + BATCH_HANDS]
                tables = {**hand_rows(batch, [r.betting for _, r, _ in batch]), **replay_rows(batch)}
                writer.add("pokerstars", [hand.hand_id for hand, _, _ in batch], tables,
                           last=start + BATCH_HANDS >= len(replayed))
            return len(replayed) / (time.process_time() - started)

    process_chunk("pokerstars", raws[:10])  # warm the caches the same way for every measure
    return {"parse": median_of(repeats, parse), "replay": median_of(repeats, replay),
            "store": median_of(repeats, store), "hands": len(hands)}


def timed_import(path: Path, db: Path, jobs: int) -> tuple[float, int, float]:
    """Seconds, peak RSS (bytes, the largest process) and CPU seconds (every process) of one `hhtool import`."""
    wrapper = (
        f"import sys; sys.path.insert(0, {str(Path(__file__).resolve().parent)!r}); from cputime import run_measured; "
        f"m = run_measured({[*HHTOOL, 'import', str(path), '--db', str(db), '--jobs', str(jobs)]!r}); "
        "print(m.wall, m.peak_rss, m.cpu)"
    )
    output = subprocess.run([sys.executable, "-c", wrapper], check=True, capture_output=True, text=True).stdout
    seconds, rss, cpu = output.split()
    return float(seconds), int(rss), float(cpu)


def end_to_end(path: Path, hands: int, repeats: int, one_job: bool = True) -> dict[str, float]:
    """Import with all cores (and with one job, unless ``one_job`` is False), then re-import the same
    file into the all-cores store, measure its size and time `hhtool stats` on it."""
    results: dict[str, list[float]] = {"e2e_1": [], "e2e_all": [], "cpu_1": [], "cpu_all": [], "reimport": [], "rss": [],
                                       "db_bytes": [], "stats": []}
    runs = ((1, "e2e_1"), (os.cpu_count() or 1, "e2e_all")) if one_job else ((os.cpu_count() or 1, "e2e_all"),)
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as folder:
            for jobs, key in runs:
                db = Path(folder) / f"{key}.duckdb"
                seconds, rss, cpu = timed_import(path, db, jobs)
                results[key].append(hands / seconds)
                results[key.replace("e2e", "cpu")].append(cpu / hands * 1e6)
                results["rss"].append(rss)
                print(f"  import --jobs {jobs}: {hands / seconds:,.0f} hands/s, {cpu / hands * 1e6:,.0f} CPU µs/hand, "
                      f"peak RSS {rss / 2**20:,.0f} MiB, load {os.getloadavg()[0]:.1f}", flush=True)
            store = Path(folder) / "e2e_all.duckdb"
            seconds, _, _ = timed_import(path, store, 1)
            results["reimport"].append(hands / seconds)
            results["db_bytes"].append(store.stat().st_size / hands)
            for _ in range(3):  # the first run pays for a cold file cache
                started = time.perf_counter()
                subprocess.run([*HHTOOL, "stats", "--db", str(store), "--format", "json", "--out", os.devnull],
                               check=True, stdout=subprocess.DEVNULL)
                results["stats"].append(time.perf_counter() - started)
    summary = {key: statistics.median(values) for key, values in results.items() if key != "rss" and values}
    summary["rss"] = max(results["rss"])
    return summary


def pokerkit_ratio(path: Path, limit: int, repeats: int) -> dict[str, float]:
    """PokerKit replaying the same hands (read from hhtool's PHH export) against hhtool's replay."""
    try:
        import pokerkit

        from hhtool.reports.phh_writer import hand_to_phh
    except ImportError as error:
        return {"error": str(error)}  # type: ignore[dict-item]
    import warnings

    from hhtool.ingest.reader import read_file
    from hhtool.ingest.rule_choice import make_replayer
    from hhtool.model import Hand
    from hhtool.sites import parser_for

    parser = parser_for("pokerstars")
    hands = [h for h in (parser.parse(r) for r in list(parser.split(read_file(path).lines, str(path)))[:limit])
             if isinstance(h, Hand)]
    texts, playable = [], []
    with warnings.catch_warnings():  # keep the hands PokerKit can play (it cannot deal a shared 7th card)
        warnings.simplefilter("ignore")
        for hand in hands:
            text = hand_to_phh(hand)
            try:
                for _state in pokerkit.HandHistory.loads(text):
                    pass
            except (ValueError, KeyError, IndexError):
                continue
            texts.append(text)
            playable.append(hand)
    hands = playable
    replayer = make_replayer(None)

    def ours() -> float:
        started = time.process_time()
        for hand in hands:
            replayer(hand)
        return len(hands) / (time.process_time() - started)

    def theirs() -> float:
        started = time.process_time()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for text in texts:
                for _state in pokerkit.HandHistory.loads(text):
                    pass
        return len(texts) / (time.process_time() - started)

    hhtool_rate, pokerkit_rate = median_of(repeats, ours), median_of(repeats, theirs)
    return {"hhtool": hhtool_rate, "pokerkit": pokerkit_rate, "ratio": hhtool_rate / pokerkit_rate, "hands": len(hands)}


def real_text_row(hands: int, repeats: int) -> str:
    """The side-by-side with PokerKit on real text: ``hands`` replicated corpus hands, all replayed
    by both, and their import (all cores) rate and CPU."""
    path = replicated(hands, DATA)
    kit = pokerkit_ratio(path, hands, repeats)
    print(f"pokerkit, real hands: {kit}", flush=True)
    e2e = end_to_end(path, hands, repeats, one_job=True)
    print(f"end to end, real hands: {e2e}", flush=True)
    return ("| real hands | hhtool replay/s | PokerKit replay/s | hhtool ÷ PokerKit | import/s (1 job / all cores) | "
            "import CPU µs/hand (1 job / all cores) |\n|---|---|---|---|---|---|\n"
            f"| {hands:,} ({kit.get('hands', 0):,} played by both) | {kit.get('hhtool', float('nan')):,.0f} | "
            f"{kit.get('pokerkit', float('nan')):,.0f} | {kit.get('ratio', float('nan')):.1f}× | "
            f"{e2e['e2e_1']:,.0f} / {e2e['e2e_all']:,.0f} | {e2e['cpu_1']:,.0f} / {e2e['cpu_all']:,.0f} |")


def machine() -> str:
    def first(path: str, prefix: str) -> str:
        try:
            with open(path, encoding="utf-8") as handle:
                return next((line for line in handle if line.startswith(prefix)), "")
        except OSError:
            return ""

    kb = first("/proc/meminfo", "MemTotal").split()
    memory = f", {int(kb[1]) / 1024 / 1024:.0f} GiB" if len(kb) > 1 else ""
    model = first("/proc/cpuinfo", "model name").partition(":")[2].strip()
    return f"{platform.platform()}, Python {platform.python_version()}, {os.cpu_count()} cores ({model}){memory}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="100000,1000000")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--in-process-limit", type=int, default=20000,
                        help="hands used for the parse/replay/store-only and PokerKit measures")
    parser.add_argument("--results", type=Path, help="append a Markdown section to this file")
    parser.add_argument("--one-job-max", type=int, default=200_000,
                        help="skip the one-job import above this many hands (it takes the longest)")
    parser.add_argument("--real", type=int, default=10_000,
                        help="real PokerStars hands (the corpus's, replicated) for the side-by-side on real text; 0: none")
    args = parser.parse_args()
    lines = [f"### Run of {time.strftime('%Y-%m-%d %H:%M')}, {measured_build()} build, load "
             f"{os.getloadavg()[0]:.1f} at the start, on {machine()}", ""]
    lines.append("| hands | parse/s | replay/s | store/s | import/s (1 job) | import/s (all cores) | "
                 "import CPU µs/hand (1 job / all cores) | re-import/s | "
                 "peak RSS MiB | DB bytes/hand | stats s | PokerKit replay/s | hhtool ÷ PokerKit |")
    lines.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    sizes = [int(s) for s in args.sizes.split(",") if s]
    for size in sizes:
        path = simulated(size)
        rates = in_process_rates(path, args.repeats, min(size, args.in_process_limit))
        print(f"in-process: {rates}", flush=True)
        kit = pokerkit_ratio(path, min(size, args.in_process_limit // 4), args.repeats)
        print(f"pokerkit: {kit}", flush=True)
        e2e = end_to_end(path, size, args.repeats, one_job=size <= args.one_job_max)
        print(f"end to end: {e2e}", flush=True)
        row = (f"| {size:,} | {rates['parse']:,.0f} | {rates['replay']:,.0f} | {rates['store']:,.0f} | "
               f"{e2e.get('e2e_1', float('nan')):,.0f} | {e2e['e2e_all']:,.0f} | "
               f"{e2e.get('cpu_1', float('nan')):,.0f} / {e2e['cpu_all']:,.0f} | {e2e['reimport']:,.0f} | "
               f"{e2e['rss'] / 2**20:,.0f} | "
               f"{e2e['db_bytes']:,.0f} | {e2e['stats']:.2f} | "
               f"{kit.get('pokerkit', float('nan')):,.0f} | {kit.get('ratio', float('nan')):.1f}× |")
        lines.append(row)
        print(row, flush=True)
    if args.real:
        lines.extend(["", real_text_row(args.real, args.repeats)])
    text = "\n".join(lines) + "\n"
    print(text)
    if args.results:
        with args.results.open("a", encoding="utf-8") as handle:
            handle.write("\n" + text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
