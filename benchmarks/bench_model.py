"""What the model's objects cost to build, and parse and replay alone per hand, in the build that runs.

Usage:
    .venv/bin/hhtool simulate --hands 3000 --seed 1 --out /tmp/sim3k.txt
    .venv/bin/python benchmarks/bench_model.py /tmp/sim3k.txt [--repeats 7]

Prints which build of hhtool runs (pure Python or compiled with mypyc), then medians over
``--repeats`` passes of CPU time (``time.process_time``: the machine is shared): nanoseconds to build
one object of each model class the site modules build per line, and microseconds per hand to parse
the file's hands (grammar, site module and builder: ``parser.parse``), to run the line grammar alone,
and to replay them (``replay`` under the site's profile). Run it under both builds to compare them.
The garbage collector runs as in an import (enabled; each pass starts from a collected heap).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from hhtool import build
from hhtool.ingest.reader import read_file
from hhtool.model import Action, ActionKind, Award, Card, Deal, Half, Hand, Seat, ShownHand, ShowStatus, Street
from hhtool.replay import profile_for_site, replay
from hhtool.sites import detect
from hhtool.sites.kit.line_site import LineSiteParser

OBJECTS_PER_PASS = 100_000


def median_of(repeats: int, run: Callable[[], None], count: int, scale: float) -> float:
    """Median CPU time of ``run`` per item (``count`` items a pass), times ``scale``."""
    passes = []
    for _ in range(repeats):
        gc.collect()
        start = time.process_time()
        run()
        passes.append((time.process_time() - start) / count * scale)
    return statistics.median(passes)


def object_costs(repeats: int) -> dict[str, float]:
    """Nanoseconds to build one object of each per-line model class, positional arguments as the builder passes them."""
    card = Card.parse("Ah")
    makers: dict[str, Callable[[], object]] = {
        "Action": lambda: Action(Street.FIFTH, "player", ActionKind.BET, 8, 8, False, 12),
        "Deal": lambda: Deal(Street.FIFTH, "player", (), (card,), 11),
        "Seat": lambda: Seat(3, "player", 139, False, 3),
        "Award": lambda: Award("player", 37, 0, Half.HIGH, 40),
        "ShownHand": lambda: ShownHand("player", ShowStatus.SHOWN, (card, card), "a pair", None, 38),
    }
    costs = {}
    for name, make in makers.items():
        def run(make: Callable[[], object] = make) -> None:
            for _ in range(OBJECTS_PER_PASS):
                make()
        costs[name] = median_of(repeats, run, OBJECTS_PER_PASS, 1e9)
    return costs


def per_hand_costs(path: Path, repeats: int) -> dict[str, float]:
    """Microseconds per hand: parse (grammar + site module + builder), the line grammar alone, replay."""
    decoded = read_file(path)
    parser = detect([line for line in decoded.lines[:400] if line.strip()][:40])
    if parser is None:
        raise SystemExit(f"{path}: no site parser recognises this file")
    raws = list(parser.split(decoded.lines, str(path)))
    hands = [hand for raw in raws if isinstance(hand := parser.parse(raw), Hand)]
    pairs = [(hand, profile_for_site(hand.site)) for hand in hands]
    costs = {}

    def parse() -> None:
        for raw in raws:
            parser.parse(raw)
    costs["parse"] = median_of(repeats, parse, len(raws), 1e6)
    if isinstance(parser, LineSiteParser):
        grammar = parser.grammar()

        def grammar_only() -> None:
            for raw in raws:
                grammar.parse(raw.text, raw.first_line)
        costs["line grammar"] = median_of(repeats, grammar_only, len(raws), 1e6)

    def replay_all() -> None:
        for hand, profile in pairs:
            replay(hand, profile)
    costs["replay"] = median_of(repeats, replay_all, len(pairs), 1e6)
    return costs


def main() -> None:
    arguments = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    arguments.add_argument("file", type=Path, help="a history file (e.g. from hhtool simulate)")
    arguments.add_argument("--repeats", type=int, default=7)
    options = arguments.parse_args()
    print(f"build: {build()}; median of {options.repeats} passes, CPU time")
    for name, cost in object_costs(options.repeats).items():
        print(f"  {name}: {cost:.0f} ns per object")
    for name, cost in per_hand_costs(options.file, options.repeats).items():
        print(f"  {name}: {cost:.1f} us per hand")


if __name__ == "__main__":
    main()
