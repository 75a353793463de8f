"""Table context: PokerStars states neither ante nor bring-in, so a hand's forced bets are judged
against the other hands at the same table and stakes (hhtool/replay/forced_bets.py), after each import
and under `audit --rules`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.store import Store
from tests.inputs import require_corpus

runner = CliRunner()


def _money(cents: int, chips: bool) -> str:
    return str(cents) if chips else f"${cents // 100}.{cents % 100:02d}"


def stars_hand(hand_id: int, *, bring_in: int = 2, antes: tuple[int | None, int | None, int | None] = (1, 1, 1),
               bob_stack: int = 150, all_in: bool = False, table: str = "Sabik VII",
               tournament: str | None = None, bets: tuple[int, int] = (5, 10)) -> str:
    """A PokerStars hand where Bob brings in and the others fold. ``antes`` per player (None: no ante).
    The default stakes, $0.05/$0.10, are a level hhtool's PokerStars structures table has no row for:
    only the stored hands can answer (tests/test_structure_tiers.py has the levels it knows)."""
    chips = tournament is not None
    m = lambda amount: _money(amount, chips)  # noqa: E731
    if tournament:
        header = (f"PokerStars Hand #{hand_id}: Tournament #{tournament}, $1+$0.10 USD 7 Card Stud Hi/Lo Limit - "
                  f"Level I ({bets[0]}/{bets[1]}) - 2009/11/26 10:25:13 ET")
    else:
        header = (f"PokerStars Hand #{hand_id}:  7 Card Stud Hi/Lo Limit ({m(bets[0])}/{m(bets[1])} USD) - "
                  "2009/11/26 10:25:13 ET")
    players = (("Alice", 1, 100), ("Bob", 3, bob_stack), ("Carol", 5, 200))
    lines = [header, f"Table '{table}' 8-max"]
    lines += [f"Seat {seat}: {name} ({m(stack)} in chips)" for name, seat, stack in players]
    lines += [f"{name}: posts the ante {m(ante)}" for (name, _, _), ante in zip(players, antes, strict=True) if ante]
    pot = sum(ante or 0 for ante in antes)
    lines += ["*** 3rd STREET ***", "Dealt to Alice [Td]", "Dealt to Bob [2h]", "Dealt to Carol [7c 3s 5h]",
              f"Bob: brings in for {m(bring_in)}" + (" and is all-in" if all_in else ""), "Carol: folds", "Alice: folds",
              f"Uncalled bet ({m(bring_in)}) returned to Bob", f"Bob collected {m(pot)} from pot", "*** SUMMARY ***",
              f"Total pot {m(pot)} | Rake {m(0)}", "Seat 1: Alice folded on the 3rd Street (didn't bet)",
              f"Seat 3: Bob collected ({m(pot)})", "Seat 5: Carol folded on the 3rd Street (didn't bet)", "", ""]
    return "\n".join(lines)


def write(tmp_path: Path, name: str, *hands: str) -> str:
    path = tmp_path / name
    path.write_text("\n".join(hands))
    return str(path)


def verdicts(db: str) -> dict[str, str]:
    with Store(db, read_only=True) as store:
        return dict(store.run("SELECT hand_id, verdict FROM hands"))


def findings(db: str, hand_id: str, profile: str = "pokerstars") -> tuple[list[str], list[str]]:
    """(violation messages, unverifiable 'CHECK: reason') of a hand under a profile."""
    with Store(db, read_only=True) as store:
        violations = [row[0] for row in store.run(
            "SELECT message FROM violations WHERE hand_id = ? AND profile = ? ORDER BY line", [hand_id, profile])]
        unverifiable = [f"{row[0]}: {row[1]}" for row in store.run(
            "SELECT check_code, reason FROM unverifiable WHERE hand_id = ? AND profile = ? ORDER BY check_code",
            [hand_id, profile])]
    return violations, unverifiable


def assumed(db: str, hand_id: str, profile: str = "pokerstars") -> dict[str, str]:
    """The assumptions of a hand under a profile: kind -> words."""
    with Store(db, read_only=True) as store:
        return dict(store.run("SELECT kind, words FROM assumptions WHERE hand_id = ? AND profile = ?",
                              [hand_id, profile]))


def stakes_of(db: str, hand_id: str) -> tuple[object, ...]:
    with Store(db, read_only=True) as store:
        return store.run("SELECT ante, ante_source, bring_in, bring_in_source FROM hands WHERE hand_id = ?", [hand_id])[0]


@pytest.mark.slow
def test_context_grows_and_re_judges_earlier_hands(tmp_path: Path) -> None:
    db = str(tmp_path / "c.duckdb")
    result = runner.invoke(app, ["import", write(tmp_path, "one.txt", stars_hand(1)), "--db", db])
    assert result.exit_code == 0, result.output
    # alone at the table: judged with its own agreeing posts, said as assumptions (issue #33), never a silent pass
    assert verdicts(db) == {"1": "ok"}
    assert findings(db, "1") == ([], [])
    nowhere = ("no other hand at table 'Sabik VII' ($0.05/$0.10) is stored; no hand of the other PokerStars tables at "
               "$0.05/$0.10 USD is stored; hhtool's structures table has no PokerStars row for $0.05/$0.10 USD")
    assert assumed(db, "1") == {
        "ante": "ante $0.01, as all 3 players dealt in posted it; the history does not state the level's ante, nor does "
                f"any other source: {nowhere}",
        "bring_in": "bring-in $0.02, as Bob brought in for it; the history does not state the level's bring-in, nor does "
                    f"any other source: {nowhere}"}
    assert stakes_of(db, "1") == (1, "posted", 2, "posted")

    more = [stars_hand(n) for n in range(2, 12)]
    more += [stars_hand(12, bring_in=3), stars_hand(13, bring_in=1, bob_stack=2, all_in=True)]
    result = runner.invoke(app, ["import", write(tmp_path, "more.txt", *more), "--db", db])
    assert result.exit_code == 0, result.output
    judged = verdicts(db)
    assert judged.pop("12") == "violation"
    assert set(judged.values()) == {"ok"}  # hand 1 re-judged; the short all-in bring-in (13) is legal
    assert findings(db, "12") == (
        ["Bob brought in for $0.03; 11 other hands at table 'Sabik VII' ($0.05/$0.10) brought in for $0.02"], [])
    assert stakes_of(db, "1") == (1, "context", 2, "context")
    assert stakes_of(db, "13") == (1, "context", 2, "context")  # judged with the table's bring-in, not its short post

    result = runner.invoke(app, ["audit", "--db", db, "--format", "jsonl"])
    assert result.exit_code == 1
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert [(r["hand_id"], r["code"], r["expected"], r["actual"]) for r in rows] == [("12", "BRING_IN_AMOUNT", "$0.02", "$0.03")]


def test_audit_rules_judges_the_context_under_that_profile(tmp_path: Path) -> None:
    db = str(tmp_path / "r.duckdb")
    hands = [stars_hand(n) for n in range(1, 5)] + [stars_hand(5, bring_in=3)]
    runner.invoke(app, ["import", write(tmp_path, "a.txt", *hands), "--db", db])
    result = runner.invoke(app, ["audit", "--db", db, "--rules", "robert", "--format", "jsonl"])
    assert result.exit_code == 1, result.output
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert [(r["hand_id"], r["code"]) for r in rows] == [("5", "BRING_IN_AMOUNT")]
    assert "4 other hands at table 'Sabik VII'" in rows[0]["message"]
    violations, unverifiable = findings(db, "1", "robert")
    assert violations == [] and unverifiable == []  # the context replaced the replay's placeholder
    result = runner.invoke(app, ["audit", "--db", db, "--explain", "5"])
    assert "bring-in: table context" in result.output and "Verdict: violation" in result.output


def test_audit_rules_stores_each_judgement_whole_in_the_transaction_of_its_replay(tmp_path: Path,
                                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """`audit --rules X` judges (the replay under X, then the pass) and stores the whole judgement in one
    write: a failure in the pass leaves no replay rows of X behind (no provisional judgement under X)."""
    import hhtool.ingest.cross_hand as cross_hand

    db = str(tmp_path / "w.duckdb")
    hands = [stars_hand(n) for n in range(1, 5)] + [stars_hand(5, bring_in=3)]
    runner.invoke(app, ["import", write(tmp_path, "a.txt", *hands), "--db", db])
    with monkeypatch.context() as patched:  # the pass fails after the replay's rows were written: nothing stays
        patched.setattr(cross_hand, "judge_slice", lambda *args: (_ for _ in ()).throw(OSError("disk full")))
        failed = runner.invoke(app, ["audit", "--db", db, "--rules", "robert", "--format", "jsonl"])
    assert failed.exit_code != 0
    with Store(db, read_only=True) as store:
        assert store.run("SELECT count(*) FROM unverifiable WHERE profile = 'robert'")[0][0] == 0
        assert store.run("SELECT count(*) FROM violations WHERE profile = 'robert'")[0][0] == 0
    with monkeypatch.context() as patched:  # and no second write replaces what the first stored
        patched.setattr(cross_hand, "replace_judgements", lambda *args: pytest.fail("a second write"))
        result = runner.invoke(app, ["audit", "--db", db, "--rules", "robert", "--format", "jsonl"])
    assert result.exit_code == 1, result.output
    assert [json.loads(line)["hand_id"] for line in result.output.splitlines()] == ["5"]
    assert findings(db, "1", "robert") == ([], [])


@pytest.mark.slow
def test_two_hands_that_disagree_accuse_neither(tmp_path: Path) -> None:
    db = str(tmp_path / "d.duckdb")
    runner.invoke(app, ["import", write(tmp_path, "a.txt", stars_hand(1), stars_hand(2, bring_in=3)), "--db", db])
    # one other hand never accuses alone: each is judged with its own post, the disagreement said in its assumption
    assert verdicts(db) == {"1": "ok", "2": "ok"}
    assert findings(db, "2") == ([], [])
    assert ("bring-in $0.03, as Bob brought in for it; the history does not state the level's bring-in, nor does any "
            "other source: the other hands at table 'Sabik VII' ($0.05/$0.10) do not agree on it: 1 brought in for "
            "$0.02; no hand of the other PokerStars tables at $0.05/$0.10 USD is stored") in assumed(db, "2")["bring_in"]
    # a third hand makes a majority: the odd one out is caught, the others are clean
    runner.invoke(app, ["import", write(tmp_path, "b.txt", stars_hand(3)), "--db", db])
    assert verdicts(db) == {"1": "ok", "2": "violation", "3": "ok"}
    # a split without a majority names every amount
    runner.invoke(app, ["import", write(tmp_path, "c.txt", stars_hand(4, bring_in=3), stars_hand(5, bring_in=1)), "--db", db])
    assert findings(db, "5") == ([], [])
    assert "do not agree on it: 2 brought in for $0.02, 2 brought in for $0.03" in assumed(db, "5")["bring_in"]


def test_other_tables_are_the_next_tier_and_other_stakes_are_none(tmp_path: Path) -> None:
    db = str(tmp_path / "o.duckdb")
    hands = [stars_hand(1), stars_hand(2, table="Other"), stars_hand(3, bets=(10, 20), bring_in=3),
             stars_hand(4, table="Sabik VII\"|x'; --", bring_in=3)]
    runner.invoke(app, ["import", write(tmp_path, "a.txt", *hands), "--db", db])
    # each hand is alone at its table; at $0.05/$0.10 the other tables' hands are the evidence: every one
    # anted $0.01; the bring-in of 1 and 2 is left to the hand's own post (the other two tables split), 4's is
    # two hands' $0.02; where no source answers, the hand's own post is assumed (issue #33), not unverifiable
    assert verdicts(db) == {"1": "ok", "2": "ok", "3": "ok", "4": "violation"}
    assert findings(db, "4")[0] == ["Bob brought in for $0.03; 2 hands of the other PokerStars tables at $0.05/$0.10 USD "
                                    "brought in for $0.02"]
    assert stakes_of(db, "1") == (1, "site", 2, "posted")
    assert findings(db, "1")[1] == []
    assert assumed(db, "1")["bring_in"].startswith("bring-in $0.02, as Bob brought in for it; the history does not state "
                                                   "the level's bring-in, nor does any other source: ")
    assert "no other hand at table 'Sabik VII' ($0.05/$0.10) is stored; the other PokerStars tables at $0.05/$0.10 USD do not " \
        "agree on it: 1 brought in for $0.02, 1 brought in for $0.03" in assumed(db, "1")["bring_in"]
    # $0.10/$0.20 is another level: nothing at it but hand 3
    assert "no hand of the other PokerStars tables at $0.10/$0.20 USD is stored" in assumed(db, "3")["ante"]


def test_wrong_and_missing_antes(tmp_path: Path) -> None:
    db = str(tmp_path / "a.duckdb")
    hands = [stars_hand(n) for n in range(1, 5)]
    hands += [stars_hand(5, antes=(1, 2, 1)), stars_hand(6, antes=(1, None, 1))]
    runner.invoke(app, ["import", write(tmp_path, "a.txt", *hands), "--db", db])
    assert findings(db, "5")[0] == ["Bob anted $0.02; 5 other hands at table 'Sabik VII' ($0.05/$0.10) anted $0.01"]
    assert findings(db, "6")[0] == [
        "Bob was dealt in without posting an ante; 5 other hands at table 'Sabik VII' ($0.05/$0.10) anted $0.01"]
    assert {hand_id for hand_id, verdict in verdicts(db).items() if verdict != "ok"} == {"5", "6"}


def test_tournament_context_is_the_tournament_and_level_across_tables(tmp_path: Path) -> None:
    db = str(tmp_path / "t.duckdb")
    hands = [stars_hand(1, tournament="99", table="99 1", bring_in=5, antes=(2, 2, 2), bets=(20, 40)),
             stars_hand(2, tournament="99", table="99 2", bring_in=5, antes=(2, 2, 2), bets=(20, 40)),
             stars_hand(3, tournament="99", table="99 3", bring_in=7, antes=(2, 2, 2), bets=(20, 40)),
             stars_hand(4, tournament="99", table="99 1", bring_in=10, antes=(5, 5, 5), bets=(40, 80))]
    result = runner.invoke(app, ["import", write(tmp_path, "t.txt", *hands), "--db", db])
    assert result.exit_code == 0, result.output
    assert verdicts(db) == {"1": "ok", "2": "ok", "3": "violation", "4": "ok"}  # 4: its own level, its posts assumed
    assert set(assumed(db, "4")) == {"ante", "bring_in"} and not assumed(db, "1")
    assert findings(db, "3")[0] == ["Bob brought in for 7; 2 other hands at tournament 99 at 20/40 brought in for 5"]


def test_a_bring_in_not_below_the_small_bet_is_caught_even_alone(tmp_path: Path) -> None:
    db = str(tmp_path / "s.duckdb")
    result = runner.invoke(app, ["import", write(tmp_path, "a.txt", stars_hand(1, bring_in=5)), "--db", db])
    assert result.exit_code == 0, result.output
    violations, unverifiable = findings(db, "1")
    assert violations == ["Bob brought in for $0.05, not below the small bet $0.05"]
    assert not [u for u in unverifiable if u.startswith("BRING_IN_AMOUNT")]


def test_migration_splits_the_old_stakes_source(tmp_path: Path) -> None:
    import duckdb

    from hhtool.store.schema import MIGRATIONS

    path = str(tmp_path / "old.duckdb")
    con = duckdb.connect(path)
    con.execute("CREATE TABLE schema_version (version INTEGER NOT NULL, applied_at TIMESTAMP NOT NULL)")
    con.execute(MIGRATIONS[0])
    con.execute("INSERT INTO schema_version VALUES (1, current_timestamp)")
    row = ("s', '1', 'f', 1, 2, 'x', NULL, NULL, 't', NULL, 'g', 'fixed_limit', false, 'USD', 100, 1, 2, 4, 8, "
           "'{source}', NULL, 3, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL")
    con.execute(f"INSERT INTO hands VALUES ('{row.format(source='forced_bets')})")
    con.execute(f"INSERT INTO hands VALUES ('{row.format(source='header').replace('1', '2', 1)})")
    con.close()
    with Store(path) as store:
        rows = store.run("SELECT hand_id, ante_source, bring_in_source, bets_source FROM hands ORDER BY hand_id")
        columns = {d[0] for d in store.con.execute("SELECT * FROM hands LIMIT 0").description}
    assert rows == [("1", "posted", "posted", "header"), ("2", "header", "header", "header")]
    assert "stakes_source" not in columns


@pytest.mark.slow
def test_the_corpus_audits_without_violations_and_its_tables_give_context(tmp_path: Path) -> None:
    corpus = require_corpus()
    db = str(tmp_path / "corpus.duckdb")
    result = runner.invoke(app, ["audit", str(corpus), "--db", db, "--format", "jsonl"])
    assert result.exit_code == 0 and not result.output.strip(), result.output
    with Store(db, read_only=True) as store:
        (judged,) = store.run("SELECT count(*) FROM hands WHERE bring_in_source = 'context'")[0]
        (left,) = store.run("""SELECT count(*) FROM unverifiable u JOIN hands h USING (site, hand_id)
                               WHERE u.check_code = 'BRING_IN_AMOUNT' AND h.bring_in_source = 'context'""")[0]
    assert judged >= 30 and left == 0  # 32 corpus hands share a table with others


@pytest.mark.slow
def test_audit_judges_a_store_from_before_the_table_context_once(tmp_path: Path) -> None:
    db = str(tmp_path / "old.duckdb")
    hands = [stars_hand(n) for n in range(1, 5)] + [stars_hand(5, bring_in=3)]
    runner.invoke(app, ["import", write(tmp_path, "a.txt", *hands), "--db", db])
    with Store(db) as store:  # what a version-1 store holds after the migration: posts judged against themselves
        store.run("DELETE FROM keyed.violations")
        store.run("DELETE FROM keyed.unverifiable")
        store.run("UPDATE hands SET verdict = 'ok', ante_source = 'posted', bring_in_source = 'posted'")
    result = runner.invoke(app, ["audit", "--db", db, "--format", "jsonl"])
    assert result.exit_code == 1, result.output
    assert [json.loads(line)["hand_id"] for line in result.output.splitlines()] == ["5"]
    assert verdicts(db) == {"1": "ok", "2": "ok", "3": "ok", "4": "ok", "5": "violation"}


def test_hands_an_interrupted_import_left_unjudged_are_judged_by_the_next_import(tmp_path: Path,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """An older hhtool judged after its last batch: killed after its writes but before that pass, it left
    the replay's placeholders; the re-run finds the file already stored, and still judges those hands."""
    import hhtool.ingest.chunks
    import hhtool.ingest.loader

    db = str(tmp_path / "d.duckdb")
    path = write(tmp_path, "a.txt", *[stars_hand(n) for n in range(1, 5)], stars_hand(5, bring_in=3))
    with monkeypatch.context() as patched:  # as an older import killed just before its pass
        patched.setattr(hhtool.ingest.loader, "judge_batch", lambda *args, **kwargs: 0)
        patched.setattr(hhtool.ingest.loader, "judge_left_unjudged", lambda *args, **kwargs: 0)
        # (whose workers judged no hand whole: hhtool.ingest.judged_alone; in this process, one job)
        patched.setattr(hhtool.ingest.chunks, "judged_alone", lambda *args: None)
        runner.invoke(app, ["import", path, "--db", db, "--jobs", "1"])
    assert set(verdicts(db).values()) == {"unverifiable"}  # placeholders only
    result = runner.invoke(app, ["import", path, "--db", db])
    assert result.exit_code == 0, result.output
    assert verdicts(db) == {"1": "ok", "2": "ok", "3": "ok", "4": "ok", "5": "violation"}


def test_the_store_gives_each_hand_the_fields_the_replay_reads_in_its_order() -> None:
    """The cross-hand pass's row is declared once with its types (the replay's HandRow); the store's
    evidence gives each hand's values in that order (HAND_FIELDS), and the pass builds the rows by place."""
    from dataclasses import fields

    from hhtool.replay.table_pass import HandRow
    from hhtool.store.forced_bets import HAND_FIELDS

    assert tuple(field.name for field in fields(HandRow)) == HAND_FIELDS
