"""Betting facts (to call, bet level, dealt in) computed once by the replay engine, stored, and read
by the stats and the replayer instead of being derived again."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest

from hhtool.ingest.loader import import_file
from hhtool.ingest.reader import read_file
from hhtool.model import Hand
from hhtool.replay import PROFILES, BettingFacts, profile_for, profile_for_site, replay
from hhtool.replay.engine import betting_facts, walk
from hhtool.replay.timeline import ReplayState
from hhtool.reports.show import describe_hand
from hhtool.sites import detect
from hhtool.store import Store
from hhtool.store.filters import HandFilter
from hhtool.store.player_facts import counted_columns, player_hand_facts
from hhtool.store.player_facts_cache import COVERED_TABLE, refresh_facts
from hhtool.store.schema import BETTING_FACTS
from tests.conftest import SAMPLES
from tests.replay_helpers import build_hand
from tests.test_site_pokerstars import ALLIN_SIDE_POT

# Sums of every counted facts column per site, computed by the facts SQL as it was BEFORE the betting
# facts were stored (it then derived level, facing and dealt-in from the actions in SQL): written once
# by running that code (at commit ac82fa0, `player_hand_facts` over a fresh import of each
# folder) and never rewritten by a test.
GOLDEN = Path(__file__).parent / "golden" / "facts_sums_before_stored_betting.json"


def imported(*roots: Path, replay_hands: bool = True) -> Store:
    store = Store(":memory:")
    warnings.simplefilter("ignore")
    for root in roots:
        for path in sorted(root.rglob("*")):
            if path.is_file() and path.suffix not in (".md", ".json"):
                import_file(store, path, path.read_bytes(), replay=replay_hands, store_facts=False)
    return store


def sums_per_site(store: Store) -> dict[str, dict[str, int]]:
    sums: dict[str, dict[str, int]] = {}
    for row in player_hand_facts(store, HandFilter()).iter_rows(named=True):
        site = sums.setdefault(row["site"], {"rows": 0, **dict.fromkeys(counted_columns(), 0)})
        site["rows"] += 1
        for name in counted_columns():
            site[name] += row[name]
    return sums


def golden(label: str) -> dict[str, Any]:
    expected: dict[str, Any] = json.loads(GOLDEN.read_text())[label]
    return expected


@pytest.mark.slow
def test_stats_of_the_samples_are_what_they_were() -> None:
    assert sums_per_site(imported(SAMPLES)) == golden("sample_histories")


@pytest.mark.slow
def test_stats_of_the_corpus_are_what_they_were(corpus: Path) -> None:
    assert sums_per_site(imported(corpus)) == golden("corpus")


def test_a_store_without_replay_gets_the_same_stats() -> None:
    """Imported without replay, a hand is still walked for its betting facts."""
    assert sums_per_site(imported(SAMPLES, replay_hands=False)) == golden("sample_histories")


@pytest.mark.slow
def test_the_migration_fills_old_rows_as_the_engine_does() -> None:
    """Rows stored before the betting facts get, from the migration's SQL, the values the engine gives."""
    store = imported(SAMPLES)
    query = ("SELECT site, hand_id, seq, to_call, level_before FROM actions ORDER BY ALL",
             "SELECT site, hand_id, player, dealt_in FROM seats ORDER BY ALL")
    from_engine = [store.run(sql) for sql in query]
    assert all(row[-1] is not None for rows in from_engine for row in rows)
    # the tables as that migration found them: (site, hand_id) in every row (the views' rows), first on the path
    store.run("CREATE SCHEMA before_key")
    for name in ("actions", "seats", "cards"):
        store.run(f"CREATE TABLE before_key.{name} AS SELECT * FROM main.{name}")
    store.run("SET search_path = 'before_key,main'")
    store.run("UPDATE actions SET to_call = NULL, level_before = NULL")
    store.run("UPDATE seats SET dealt_in = NULL")
    for statement in BETTING_FACTS[BETTING_FACTS.index("UPDATE"):].split(";"):
        if statement.strip():
            store.run(statement)
    assert [store.run(sql) for sql in query] == from_engine


def test_a_hand_whose_walk_failed_has_no_facts_and_is_still_covered(monkeypatch: pytest.MonkeyPatch,
                                                                    tmp_path: Path) -> None:
    monkeypatch.setattr("hhtool.ingest.chunks.betting_of", lambda hand, result=None: None)
    path = tmp_path / "h.txt"
    path.write_text(ALLIN_SIDE_POT)
    store = Store(":memory:")
    import_file(store, path, path.read_bytes(), replay=False, store_facts=False)
    assert store.run("SELECT count(*), count(to_call), count(level_before) FROM actions")[0][1:] == (0, 0)
    assert store.run("SELECT count(dealt_in) FROM seats")[0][0] == 0
    assert player_hand_facts(store, HandFilter()).height == 0
    assert refresh_facts(store) == 1
    assert store.run(f"SELECT count(*) FROM {COVERED_TABLE}")[0][0] == 1


SHORT_RAISE = build_hand('''
seats A=100 B=100 C=7
stakes ante=1 bring=2 small=4 big=8
antes
3rd A [?? ??] 2c, B [?? ??] 5s, C [?? ??] 9d
A bring 2
B complete 4
C raise 6 allin
A call 4
B call 2
''')


def test_engine_facts_to_call_level_and_pot() -> None:
    facts = betting_facts(SHORT_RAISE, walk(SHORT_RAISE, profile_for_site("pokerstars")))
    # antes, then: bring-in, complete, C's short all-in raise (a raise for the level), A, B
    assert facts.to_call == (0, 0, 0, 0, 2, 4, 4, 2)
    assert facts.level_before == (0, 0, 0, 0, 0, 1, 2, 2)
    assert facts.pot_before == (0, 1, 2, 3, 5, 9, 15, 19)
    assert facts.pot_after_round == ((3, 21),)
    assert facts.dealt_in == ("A", "B", "C")


def test_the_replayer_shows_the_engines_pot_and_to_call_with_or_without_a_replay() -> None:
    for result in (replay(SHORT_RAISE), None):
        rows = describe_hand(SHORT_RAISE, result)["streets"][0]["actions"]
        assert [row["pot"] for row in rows] == [5, 9, 15, 19, 21]
        assert [row["to_call"] for row in rows] == [0, 2, 4, 4, 2]
        assert [row["level_before"] for row in rows] == [0, 0, 1, 2, 2]


def _facts_from_steps(hand: Hand, state: ReplayState) -> BettingFacts:
    """The betting facts derived afresh from the walked steps, in a second pass as the engine did before it
    recorded them while walking: the oracle the recorded facts are compared with."""
    to_call, level, pot_before = [0] * len(hand.actions), [0] * len(hand.actions), [0] * len(hand.actions)
    pot = 0
    for step in state.antes:
        pot_before[step.index] = step.pot_before
        pot = step.pot_before + step.action.amount
    after_round: list[tuple[int, int]] = []
    for rnd in state.rounds:
        raised = 0
        for step in rnd.steps:
            to_call[step.index] = max(0, step.level_before - step.put_in_before)
            level[step.index] = raised
            pot_before[step.index] = pot = step.pot_before
            pot += step.action.amount
            raised += step.increase
        if rnd.uncalled is not None:
            pot -= rnd.uncalled[1]
        after_round.append((int(rnd.street), pot))
    return BettingFacts(tuple(to_call), tuple(level), tuple(pot_before), tuple(after_round), state.dealt_in)


def _every_hand(*roots: Path) -> list[Hand]:
    warnings.simplefilter("ignore")
    hands = []
    for root in roots:
        for path in sorted(root.rglob("*")):
            decoded = read_file(path) if path.is_file() and path.suffix not in (".md", ".json") else None
            parser = decoded and detect([line for line in decoded.lines[:400] if line.strip()][:40])
            if decoded is not None and parser is not None:
                hands += [hand for raw in parser.split(decoded.lines, str(path)) if isinstance(hand := parser.parse(raw), Hand)]
    return hands


def _walked_facts_agree(hands: list[Hand]) -> int:
    for hand in hands:
        for profile in (profile_for(hand, None).profile, PROFILES["pokerkit"]):
            state = walk(hand, profile)
            assert betting_facts(hand, state) == _facts_from_steps(hand, state), (hand.source.file, hand.hand_id)
    return len(hands)


def test_the_facts_the_walk_records_are_those_its_steps_give_on_the_samples() -> None:
    """The walk records the facts as it makes each step (no second pass): every sample hand's, under
    its site's profile and PokerKit's, equal those derived from its steps afterwards."""
    assert _walked_facts_agree(_every_hand(SAMPLES)) > 150


@pytest.mark.slow
def test_the_facts_the_walk_records_are_those_its_steps_give_on_the_corpus(corpus: Path) -> None:
    assert _walked_facts_agree(_every_hand(corpus)) > 40
