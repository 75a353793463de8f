"""The judgement of record is made before the first write (#33): each import batch's hands are committed
with their whole judgement, and the stored hands whose evidence the batch changes are judged again in
that same transaction. A reader between two batches, or an import killed between them, finds only
complete judgements: the same that judging the whole store afresh gives."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from hhtool.ingest.accounting import FileReport
from hhtool.ingest.cross_hand import judge_hands
from hhtool.ingest.loader import import_sources
from hhtool.ingest.sources import collect_sources
from hhtool.replay.forced_bets import ANTE_BY_CONTEXT, BRING_IN_BY_CONTEXT
from hhtool.replay.table_pass import settled_tables
from hhtool.store import Store
from tests.test_table_context import stars_hand, write


def snapshot(db: str) -> dict[str, Any]:
    """Every stored judgement of a store: verdicts and stakes, findings, assumptions."""
    with Store(db, read_only=True) as store:
        run = store.run
        return {
            "hands": run("SELECT hand_id, verdict, ante, ante_source, bring_in, bring_in_source, notes FROM hands "
                         "ORDER BY hand_id"),
            "violations": run("SELECT hand_id, profile, code, player, line, message FROM violations ORDER BY ALL"),
            "unverifiable": run("SELECT hand_id, profile, check_code, reason FROM unverifiable ORDER BY ALL"),
            "assumptions": run("SELECT hand_id, profile, kind, value, words FROM assumptions ORDER BY ALL"),
        }


def judged_afresh(db: str, tmp_path: Path, name: str) -> dict[str, Any]:
    """The judgements a pass over every hand of a copy of the store gives."""
    copy = str(tmp_path / name)
    shutil.copy(db, copy)
    with Store(copy) as store:
        judge_hands(store, "TRUE")
    return snapshot(copy)


def placeholders(state: dict[str, Any]) -> list[Any]:
    return [row for row in state["unverifiable"] if row[3] in (ANTE_BY_CONTEXT, BRING_IN_BY_CONTEXT)]


def import_watched(db: str, paths: list[str], on_file: Any) -> None:
    with Store(db) as store:
        store.share_between_batches()  # as the CLI's import: readers may open the file between batches
        import_sources(store, collect_sources(paths).sources, on_file=on_file)


@pytest.mark.parametrize("evidence_first", [True, False])
def test_a_reader_between_batches_sees_only_complete_judgements(tmp_path: Path, evidence_first: bool) -> None:
    """Two files of one table, a batch each; the reader looks after each. With the table's evidence in the
    first file, no verdict a reader sees ever changes; with it in the second, hand 5 is first judged alone
    (its bring-in an assumption: ok), then against its table (a violation) - each time as a pass over the
    whole store then judges it, never with the replay's placeholders."""
    evidence = write(tmp_path, "a.txt", *[stars_hand(n) for n in range(1, 5)])
    disputed = write(tmp_path, "b.txt", stars_hand(5, bring_in=3), stars_hand(6))
    db = str(tmp_path / "s.duckdb")
    seen: list[dict[str, Any]] = []

    def reader(report: FileReport) -> None:
        state = snapshot(db)
        assert not placeholders(state)
        assert state == judged_afresh(db, tmp_path, f"copy{len(seen)}.duckdb")
        seen.append(state)

    import_watched(db, [evidence, disputed] if evidence_first else [disputed, evidence], reader)
    final = dict((hand_id, verdict) for hand_id, verdict, *_ in snapshot(db)["hands"])
    assert final == {"1": "ok", "2": "ok", "3": "ok", "4": "ok", "5": "violation", "6": "ok"}
    assert len(seen) == 2
    first = {hand_id: verdict for hand_id, verdict, *_ in seen[0]["hands"]}
    if evidence_first:
        assert all(final[hand_id] == verdict for state in seen for hand_id, verdict, *_ in state["hands"])
    else:
        assert first == {"5": "ok", "6": "ok"}  # alone: judged by their own posts, complete all the same


def test_an_import_killed_between_batches_leaves_complete_judgements(tmp_path: Path) -> None:
    first = write(tmp_path, "a.txt", *[stars_hand(n) for n in range(1, 5)], stars_hand(5, bring_in=3))
    second = write(tmp_path, "b.txt", stars_hand(6), stars_hand(7, bring_in=4))
    db = str(tmp_path / "k.duckdb")

    def killed(report: FileReport) -> None:
        raise SystemExit("killed after the first file's batch")

    with pytest.raises(SystemExit):
        import_watched(db, [first, second], killed)
    state = snapshot(db)
    assert [row[0] for row in state["hands"]] == ["1", "2", "3", "4", "5"]
    assert not placeholders(state)
    assert state == judged_afresh(db, tmp_path, "copy.duckdb")
    assert {hand_id: verdict for hand_id, verdict, *_ in state["hands"]}["5"] == "violation"
    import_watched(db, [first, second], lambda report: None)  # the re-run imports the rest
    verdicts = {hand_id: verdict for hand_id, verdict, *_ in snapshot(db)["hands"]}
    assert verdicts == {**{str(n): "ok" for n in (1, 2, 3, 4, 6)}, "5": "violation", "7": "violation"}


def judged_per_batch(db: str, paths: list[str], workers_judge: bool = False) -> list[int]:
    """Import ``paths`` (a file a batch) into ``db``: how many hands the cross-hand pass judged in each batch.
    Unless ``workers_judge``, the workers judge no hand whole (``hhtool.ingest.judged_alone``, which takes
    most hands these tests write): what is counted is the pass's own choice of every hand."""
    import hhtool.ingest.chunks
    import hhtool.ingest.cross_hand as cross_hand

    judged: list[int] = []
    real = cross_hand._judged

    def counting(*args: Any, **kwargs: Any) -> int:
        judged.append(real(*args, **kwargs))
        return judged[-1]

    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(cross_hand, "_judged", counting)
        if not workers_judge:
            patched.setattr(hhtool.ingest.chunks, "judged_alone", lambda *args: None)
        import_watched(db, paths, lambda report: None)
    return judged


@pytest.mark.parametrize("workers_judge", [False, True])
def test_many_files_of_one_table_judge_its_stored_hands_again_only_when_the_table_changes(
        tmp_path: Path, workers_judge: bool) -> None:
    """A file a batch, ten files of one table: the stored hands judged by the table's majority are left as
    they were (else each file would judge every earlier hand again); the result is what one pass over
    the whole store gives. With the workers judging the hands whose table's majority alone decides them
    (``hhtool.ingest.judged_alone``, as an import does) the pass judges none of those; without, it judges
    each batch's own."""
    paths = [write(tmp_path, f"f{n}.txt", stars_hand(2 * n + 1), stars_hand(2 * n + 2)) for n in range(10)]
    paths.append(write(tmp_path, "late.txt", stars_hand(99, bring_in=3)))
    db = str(tmp_path / "m.duckdb")
    judged = judged_per_batch(db, paths, workers_judge)
    assert snapshot(db) == judged_afresh(db, tmp_path, "copy.duckdb")
    # the first file's two hands decide the table for each other; each later batch leaves its majority
    # as it was and judges its own hands only (all 20 earlier hands each time, without the settling); the
    # late hand's bring-in is a finding, which the workers leave to the pass
    assert judged == [*[0 if workers_judge else 2] * 10, 1]
    assert {hand_id: verdict for hand_id, verdict, *_ in snapshot(db)["hands"]}["99"] == "violation"


def completed(hand: str) -> str:
    """The hand with Bob completing to the small bet instead of bringing in: it posts no bring-in."""
    return (hand.replace("Bob: brings in for $0.02", "Bob: completes it to $0.05")
            .replace("Uncalled bet ($0.02)", "Uncalled bet ($0.05)"))


def test_a_stored_hand_that_posted_no_bring_in_is_left_as_it_was_at_a_settled_table(tmp_path: Path) -> None:
    """A hand whose bring-in no one posted has no bring-in to judge (its source stays the parser's): at a table
    the later batches leave as it was, it is not judged again with each of them (#37: 2.5 % of simulated
    hands were, at every batch, however big their table)."""
    first = write(tmp_path, "f0.txt", stars_hand(1), stars_hand(2), completed(stars_hand(3)))
    assert "completes it to $0.05" in Path(first).read_text()
    paths = [first, *(write(tmp_path, f"f{n}.txt", stars_hand(2 * n + 10), stars_hand(2 * n + 11)) for n in range(1, 5))]
    db = str(tmp_path / "c.duckdb")
    judged = judged_per_batch(db, paths)
    assert snapshot(db) == judged_afresh(db, tmp_path, "copy.duckdb")
    assert judged == [3, 2, 2, 2, 2]  # (before: 3, 3, 3, 3, 3: hand 3 again with every batch)
    assert [(hand_id, source) for hand_id, _, _, _, _, source, _ in snapshot(db)["hands"]
            if source != "context"] == [("3", "posted")]


def test_a_table_is_settled_when_the_batch_leaves_each_majority_as_it_was() -> None:
    ante, bring_in = "ante", "bring_in"
    table = {("T", ante): [((1, 1, 1), True, 5)], ("T", bring_in): [((2,), True, 5)]}
    assert settled_tables(table, {("T", ante): [((1, 1, 1), True, 2)], ("T", bring_in): [((2,), True, 2)]}) == {"T"}
    # without the batch's 3 hands the table had 2: the same majority, but the batch's votes are the majority now
    flipped = {("T", ante): [((1, 1, 1), True, 2), ((2, 2, 2), True, 3)], ("T", bring_in): [((2,), True, 5)]}
    assert settled_tables(flipped, {("T", ante): [((2, 2, 2), True, 3)], ("T", bring_in): [((2,), True, 3)]}) == set()
    # the table had no hand before the batch: no majority to keep
    assert settled_tables(table, table) == set()
