"""Throughput of hhtool.replay.replay: every Stud Hi/Lo hand of ../shared/corpus under its site's
profile, random PokerKit hands (the differential test's generator) under ``pokerkit``, and
optionally the hands of one history file (e.g. ``hhtool simulate --hands 5000 --seed 7``).

Usage: /work/venv/bin/python benchmarks/bench_replay.py [--repeats 5] [--pokerkit 1000] [--file PATH]
       [--no-corpus] [--profile] [--side-by-side PATH [--limit 5000]]

Parsing and PokerKit play are done before timing; only replay() is timed. Prints hands per second
of CPU time (``time.process_time``: the machine is shared, wall clock is printed beside it), the
best of the repeated passes. For the PokerKit hands it also times PokerKit itself replaying the
same hands (same cards, same actions, its automations doing the rest) and prints the ratio.
``--profile`` prints the top of a cProfile of replay() over the chosen hands instead.
``--side-by-side PATH`` runs benchmarks/run.py's PokerKit comparison on a PokerStars file instead (the
first ``--limit`` hands that PokerKit can play, read back from hhtool's PHH export; hhtool's replay as
the importer calls it; median of ``--repeats`` CPU-time rates), e.g. on ``hhtool simulate --seed 1``
hands or on the replicated real hands of benchmarks/real_hands.py.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

from hhtool.ingest.reader import read_file
from hhtool.model import Hand
from hhtool.replay import PROFILES, RuleProfile, profile_for_site, replay
from hhtool.sites import all_parsers, detect

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus"


def corpus_hands() -> list[Hand]:
    hands: list[Hand] = []
    for parser in all_parsers():
        for path in sorted(CORPUS.rglob("*")):
            if not path.is_file() or path.suffix in (".hp", ".json", ".md"):
                continue
            decoded = read_file(path)
            if not parser.sniff([line for line in decoded.lines[:400] if line.strip()][:40]):
                continue
            for raw in parser.split(decoded.lines, str(path)):
                outcome = parser.parse(raw)
                if isinstance(outcome, Hand):
                    hands.append(outcome)
    return hands


def file_hands(path: Path) -> list[Hand]:
    decoded = read_file(path)
    parser = detect([line for line in decoded.lines[:400] if line.strip()][:40])
    if parser is None:
        raise SystemExit(f"{path}: no site parser recognises this file")
    return [outcome for raw in parser.split(decoded.lines, str(path)) if isinstance(outcome := parser.parse(raw), Hand)]


def pokerkit_games(count: int) -> list[tuple[object, tuple[int, ...], tuple[int, int, int, int]]]:
    """(final PokerKit state, starting stacks, stakes) of ``count`` random hands."""
    sys.path.insert(0, str(REPO))
    from tests.test_replay_pokerkit import play

    rng = random.Random(7)
    warnings.simplefilter("ignore")
    return [play(rng) for _ in range(count)]


def pokerkit_hands(count: int) -> list[Hand]:
    from tests.test_replay_pokerkit import to_hand

    return [to_hand(*game, str(number)) for number, game in enumerate(pokerkit_games(count))]


def pokerkit_replayer(games: list[tuple[object, tuple[int, ...], tuple[int, int, int, int]]]) -> Callable[[], None]:
    """A function that has PokerKit replay every game: the recorded deals, burns and player actions
    applied to a fresh state; antes, bet collection, showdown and payouts left to its automations."""
    import pokerkit

    automation = pokerkit.Automation
    automations = (
        automation.ANTE_POSTING, automation.BET_COLLECTION, automation.BLIND_OR_STRADDLE_POSTING,
        automation.HOLE_CARDS_SHOWING_OR_MUCKING, automation.HAND_KILLING, automation.CHIPS_PUSHING,
        automation.CHIPS_PULLING,
    )
    scripts = []
    for state, stacks, (ante, bring_in, small, big) in games:
        steps: list[tuple[str, object]] = []
        for operation in state.operations:  # type: ignore[attr-defined]
            name = type(operation).__name__
            if name == "HoleDealing":
                steps.append(("deal_hole", operation.cards))
            elif name == "CardBurning":
                steps.append(("burn_card", operation.card))
            elif name == "BringInPosting":
                steps.append(("post_bring_in", None))
            elif name == "CompletionBettingOrRaisingTo":
                steps.append(("complete_bet_or_raise_to", operation.amount))
            elif name == "CheckingOrCalling":
                steps.append(("check_or_call", None))
            elif name == "Folding":
                steps.append(("fold", None))
        scripts.append(((ante, bring_in, small, big, stacks), steps))

    def run() -> None:
        for (ante, bring_in, small, big, stacks), steps in scripts:
            state = pokerkit.FixedLimitSevenCardStudHighLowSplitEightOrBetter.create_state(
                automations, True, ante, bring_in, small, big, stacks, len(stacks), mode=pokerkit.Mode.CASH_GAME,
            )
            for method, argument in steps:
                if argument is None:
                    getattr(state, method)()
                else:
                    getattr(state, method)(argument)

    return run


def best_time(run: Callable[[], None], repeats: int) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of the fastest of ``repeats`` passes."""
    cpu, wall = [], []
    for _ in range(repeats):
        start_cpu, start_wall = time.process_time(), time.perf_counter()
        run()
        cpu.append(time.process_time() - start_cpu)
        wall.append(time.perf_counter() - start_wall)
    return min(cpu), min(wall)


def replay_all(hands: list[Hand], profile_of: Callable[[Hand], RuleProfile]) -> Callable[[], None]:
    pairs = [(hand, profile_of(hand)) for hand in hands]

    def run() -> None:
        for hand, profile in pairs:
            replay(hand, profile)

    return run


def report(label: str, count: int, run: Callable[[], None], repeats: int) -> float:
    cpu, wall = best_time(run, repeats)
    print(f"{label}: {count} hands, {count / cpu:,.0f} hands/s CPU ({count / wall:,.0f}/s wall), "
          f"{cpu / count * 1e6:,.0f} us/hand")
    return cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--pokerkit", type=int, default=1000, help="random PokerKit hands (0: none)")
    parser.add_argument("--file", type=Path, help="also time the hands of this history file")
    parser.add_argument("--no-corpus", action="store_true")
    parser.add_argument("--profile", action="store_true", help="cProfile replay() instead of timing it")
    parser.add_argument("--side-by-side", type=Path, help="PokerKit against hhtool on this PokerStars file")
    parser.add_argument("--limit", type=int, default=5000, help="hands of --side-by-side's file")
    options = parser.parse_args()
    warnings.simplefilter("ignore")
    if options.side_by_side:
        sys.path.insert(0, str(REPO / "benchmarks"))
        from build import measured_build
        from run import pokerkit_ratio

        kit = pokerkit_ratio(options.side_by_side, options.limit, options.repeats)
        print(f"{options.side_by_side.name} ({measured_build()}): {kit.get('hands', 0):,.0f} hands, hhtool "
              f"{kit.get('hhtool', 0):,.0f}/CPU-s, PokerKit {kit.get('pokerkit', 0):,.0f}/CPU-s, "
              f"{kit.get('ratio', 0):.1f}x (median of {options.repeats})")
        return
    sets: list[tuple[str, list[Hand], Callable[[Hand], RuleProfile]]] = []
    by_site: Callable[[Hand], RuleProfile] = lambda hand: profile_for_site(hand.site)  # noqa: E731
    if CORPUS.is_dir() and not options.no_corpus:
        sets.append(("corpus", corpus_hands(), by_site))
    if options.file:
        sets.append((options.file.name, file_hands(options.file), by_site))
    games = pokerkit_games(options.pokerkit) if options.pokerkit else []
    if games:
        from tests.test_replay_pokerkit import to_hand

        hands = [to_hand(*game, str(number)) for number, game in enumerate(games)]
        sets.append(("pokerkit random", hands, lambda hand: PROFILES["pokerkit"]))
    if options.profile:
        runs = [replay_all(hands, profile_of) for _, hands, profile_of in sets]
        profiler = cProfile.Profile()
        profiler.runcall(lambda: [run() for run in runs])
        pstats.Stats(profiler).sort_stats("tottime").print_stats(30)
        return
    for label, hands, profile_of in sets:
        if not hands:
            print(f"{label}: no Stud Hi/Lo hands")
            continue
        ours = report(label, len(hands), replay_all(hands, profile_of), options.repeats)
        if label == "pokerkit random":
            theirs = report("  PokerKit replaying the same hands", len(games), pokerkit_replayer(games), 1)
            print(f"  replay() is {theirs / ours:,.1f}x PokerKit (CPU)")


if __name__ == "__main__":
    main()
