"""Hands judged whole in an import's workers (#37, ``hhtool.ingest.judged_alone``): each gets exactly the
judgement the cross-hand pass gives it, in its own batch and after a later batch of its table changes the
table's vote; a hand whose judgement needs more than its table's majority is left to the pass."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import hhtool.ingest.chunks
import hhtool.ingest.cross_hand
from hhtool.cli import app
from hhtool.ingest.loader import import_sources
from hhtool.ingest.sources import collect_sources
from hhtool.replay.table_pass import HandRow, Patterns, confirmed_alone, judge_alone
from hhtool.store import Store
from tests.inputs import SAMPLES
from tests.test_batch_judgement import judged_afresh, placeholders, snapshot
from tests.test_table_context import stars_hand, write


@pytest.fixture
def confirmed(monkeypatch: pytest.MonkeyPatch) -> list[list[int]]:
    """The hands each batch's pass took as the workers judged them (spied on, not changed)."""
    seen: list[list[int]] = []

    def spy(*args: Any) -> list[int]:
        found = confirmed_alone(*args)
        seen.append(found)
        return found

    monkeypatch.setattr(hhtool.ingest.cross_hand, "confirmed_alone", spy)
    return seen


def import_each(db: str, paths: list[str], after: Any = None) -> None:
    """Import the files in order, one import each (each file a batch), in this process (one job)."""
    for path in paths:
        with Store(db) as store:
            import_sources(store, collect_sources([path]).sources)
        if after is not None:
            after()


def full_state(db: str) -> dict[str, Any]:
    """Every stored judgement (``snapshot``) and every hand's notes and stakes as stored."""
    with Store(db, read_only=True) as store:
        return {**snapshot(db), "stakes": store.run(
            "SELECT hand_id, ante, ante_source, bring_in, bring_in_source, verdict, notes, note_topics FROM hands "
            "ORDER BY hand_id")}


def test_a_later_batch_that_turns_the_table_judges_the_hands_judged_alone_again(
        tmp_path: Path, confirmed: list[list[int]]) -> None:
    """Hands 1-3 ante $0.01, judged alone and kept by their batch's pass; then six hands of the same table
    ante $0.02: the table's majority turns, and hands 1-3 are judged again, as a pass over the whole store
    judges them (violations), in the second batch's transaction."""
    first = write(tmp_path, "a.txt", *[stars_hand(n) for n in range(1, 4)])
    second = write(tmp_path, "b.txt", *[stars_hand(n, antes=(2, 2, 2)) for n in range(4, 10)])
    db = str(tmp_path / "s.duckdb")
    states: list[dict[str, Any]] = []

    def check() -> None:
        state = snapshot(db)
        assert not placeholders(state)
        assert state == judged_afresh(db, tmp_path, f"copy{len(states)}.duckdb")
        states.append(state)

    import_each(db, [first, second], check)
    assert [len(found) for found in confirmed] == [3, 6]  # every hand judged alone, each batch's kept
    verdicts = {hand_id: verdict for hand_id, verdict, *_ in states[1]["hands"]}
    assert verdicts == {**dict.fromkeys("123", "violation"), **dict.fromkeys("456789", "ok")}
    assert [hand_id for hand_id, verdict, *_ in states[0]["hands"] if verdict != "ok"] == []


def test_a_hand_judged_alone_against_its_batch_is_judged_by_the_pass(tmp_path: Path, confirmed: list[list[int]]) -> None:
    """In one batch, two hands ante $0.01 and four $0.02: the workers judge all six alone, the table's
    majority keeps the four; the two are judged by the pass (violations), as afresh."""
    hands = [stars_hand(n, antes=(1, 1, 1) if n < 3 else (2, 2, 2)) for n in range(1, 7)]
    db = str(tmp_path / "s.duckdb")
    import_each(db, [write(tmp_path, "a.txt", *hands)])
    assert [len(found) for found in confirmed] == [4]
    state = snapshot(db)
    assert state == judged_afresh(db, tmp_path, "copy.duckdb")
    assert {hand_id: verdict for hand_id, verdict, *_ in state["hands"]} == {
        "1": "violation", "2": "violation", **dict.fromkeys("3456", "ok")}


@pytest.mark.parametrize("hands", [
    [stars_hand(1, antes=(1, 1, None)), stars_hand(2), stars_hand(3)],  # a player dealt in without an ante
    [stars_hand(1, bring_in=1, bob_stack=2, all_in=True), stars_hand(2), stars_hand(3)],  # all-in posts
])
def test_a_hand_with_findings_is_left_to_the_pass(tmp_path: Path, hands: list[str], confirmed: list[list[int]]) -> None:
    """A hand the pass would find something in (whose words count the table's hands) is not judged alone."""
    db = str(tmp_path / "s.duckdb")
    import_each(db, [write(tmp_path, "a.txt", *hands)])
    with Store(db, read_only=True) as store:
        first = store.run("SELECT hk FROM hands WHERE hand_id = '1'")[0][0]
    assert first not in confirmed[0] and len(confirmed[0]) == 2
    assert snapshot(db) == judged_afresh(db, tmp_path, "copy.duckdb")


def test_judging_alone_changes_no_stored_judgement(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   confirmed: list[list[int]]) -> None:
    """The samples of every site and 300 simulated hands (a fifth faulty), imported with the workers judging
    what they can and with the pass judging every hand: the same rows, stakes and notes."""
    simulated = tmp_path / "sim.txt"
    assert CliRunner().invoke(app, ["simulate", "--hands", "300", "--seed", "3", "--faults", "0.2",
                                    "--out", str(simulated)]).exit_code == 0
    paths = [str(SAMPLES), str(simulated)]
    with_workers = str(tmp_path / "alone.duckdb")
    import_each(with_workers, paths)
    assert sum(map(len, confirmed)) > 300  # (most hands: the check compares something)
    monkeypatch.setattr(hhtool.ingest.chunks, "judged_alone", lambda *args: None)
    by_pass = str(tmp_path / "pass.duckdb")
    import_each(by_pass, paths)
    assert full_state(with_workers) == full_state(by_pass)


def test_the_command_with_two_jobs_stores_what_a_pass_over_the_store_gives(tmp_path: Path,
                                                                          confirmed: list[list[int]]) -> None:
    """`hhtool import --jobs 2` (the workers in their own processes) of two files of one table whose second
    turns the table's ante: every judgement as a pass over the whole store makes it."""
    first = write(tmp_path, "a.txt", *[stars_hand(n) for n in range(1, 4)])
    second = write(tmp_path, "b.txt", *[stars_hand(n, antes=(2, 2, 2)) for n in range(4, 10)])
    db = str(tmp_path / "s.duckdb")
    result = CliRunner().invoke(app, ["import", first, second, "--db", db, "--jobs", "2"])
    assert result.exit_code == 0, result.output
    assert sum(map(len, confirmed)) >= 6
    state = snapshot(db)
    assert state == judged_afresh(db, tmp_path, "copy.duckdb")
    assert [hand_id for hand_id, verdict, *_ in state["hands"] if verdict == "violation"] == ["1", "2", "3"]


def _row(posts: list[tuple[str, str, int, int, bool]], table: str | None = "t") -> HandRow:
    return HandRow(1, "pokerstars", "1", "pokerstars", "f.txt", "pokerstars", "T", None, False, 5, 10, "USD", 100,
                   "fixed_limit", table, "level", False, "posted", "posted", posts, [], [], [], [])


def test_judge_alone_takes_only_what_the_table_majority_decides() -> None:
    antes = [("ante", "a", 1, 3, False), ("ante", "b", 1, 4, False)]
    judged = judge_alone(_row([*antes, ("bring_in", "b", 2, 6, False)]))
    assert judged is not None and (judged.ante, judged.bring_in) == (1, 2)
    assert judged.judgement.values == ((judged.judgement.values[0][0], 1, "context"),
                                       (judged.judgement.values[1][0], 2, "context"))
    assert judge_alone(_row(antes)) is not None and judge_alone(_row(antes)).bring_in is None  # type: ignore[union-attr]
    assert judge_alone(_row(antes, table=None)) is None  # no table: other tiers answer
    assert judge_alone(_row([("ante", "a", 1, 3, False), ("ante", "b", 2, 4, False)])) is None  # a finding
    assert judge_alone(_row([("ante", "a", 1, 3, True)])) is None  # no vote of its own


def test_confirmed_alone_needs_the_same_strict_majority_of_two_hands() -> None:
    alone = [(1, "t", 1, None), (2, "t", 1, 2), (3, "u", 1, None), (4, None, 1, None)]
    two_hands: Patterns = {("t", "ante"): [((1, 1), True, 2)], ("t", "bring_in"): [((2,), True, 1), ((3,), True, 1)],
                 ("u", "ante"): [((1,), True, 1)]}
    assert confirmed_alone(two_hands, alone) == [1]  # 2: no bring-in majority; 3: one hand; 4: no table
    turned: Patterns = {("t", "ante"): [((1,), True, 2), ((2,), True, 3)]}
    assert confirmed_alone(turned, alone[:1]) == []
