"""Forced bets learnt in tiers (issue #24): the header, the table, the site's other tables, the
site's structures table; the rules that need no context judged inside the hand; tiers that disagree
noted; home games judged by their own hands only. Each runs the import (and `audit`) as a user would."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.replay.structures import FOLDER, LevelKey, StructureRow, _rows_of, sites_with_structures, structure_for
from hhtool.store import Store
from tests.inputs import require_corpus
from tests.test_table_context import assumed, findings, stakes_of, stars_hand, verdicts, write

runner = CliRunner()

#: $0.04/$0.08 is a PokerStars cash level of the structures table (7 hands of two public files)
KNOWN = (4, 8)


def _import(tmp_path: Path, name: str, *hands: str, db: str | None = None) -> str:
    db = db or str(tmp_path / "s.duckdb")
    result = runner.invoke(app, ["import", write(tmp_path, name, *hands), "--db", db])
    assert result.exit_code == 0, result.output
    return db


def test_a_lone_hand_at_a_level_the_structures_table_knows_is_judged_ok(tmp_path: Path) -> None:
    db = _import(tmp_path, "one.txt", stars_hand(1, bets=KNOWN))
    assert verdicts(db) == {"1": "ok"}
    assert findings(db, "1") == ([], [])
    assert stakes_of(db, "1") == (1, "structure", 2, "structure")
    explained = runner.invoke(app, ["audit", "--db", db, "--explain", "1"])
    assert explained.exit_code == 0, explained.output
    assert "the site's structure for these stakes" in explained.output
    assert "7 hands (#35874487284" in explained.output  # the row's evidence, named
    shown = runner.invoke(app, ["show", "1", "--db", db])
    assert "ante: site structure, bring-in: site structure" in shown.output


def test_a_lone_hand_whose_ante_differs_from_the_structure_is_a_violation_naming_its_evidence(tmp_path: Path) -> None:
    db = _import(tmp_path, "one.txt", stars_hand(1, bets=KNOWN, antes=(2, 2, 2)))
    assert verdicts(db) == {"1": "violation"}
    violations, unverifiable = findings(db, "1")
    assert unverifiable == []
    assert len(violations) == 3
    assert violations[0].startswith("Alice anted $0.02; the ante is $0.01 by the PokerStars structure for $0.04/$0.08 USD "
                                    "(7 hands (#35874487284, #35874523510, #35874576282, …) of "
                                    "cash/Stars/Stud/7-StudHL-USD-0.04-0.08-200911.txt")
    assert "2009-11-26..2009-11-26" in violations[0]
    audited = runner.invoke(app, ["audit", "--db", db, "--format", "jsonl"])
    assert audited.exit_code == 1
    assert {json.loads(line)["code"] for line in audited.output.splitlines()} == {"ANTE"}


def test_a_missing_ante_beside_the_other_players_antes_is_an_ante_violation_alone(tmp_path: Path) -> None:
    # $0.05/$0.10: no tier knows the level, the hand's own other antes are the evidence
    db = _import(tmp_path, "one.txt", stars_hand(1, antes=(1, None, 1)))
    assert verdicts(db) == {"1": "violation"}
    violations, unverifiable = findings(db, "1")
    assert violations == ["Bob was dealt in without posting an ante; the 2 other players dealt in anted $0.01"]
    assert [u for u in unverifiable if u.startswith("ANTE")] == []
    # the same inside a hand the replay judges alone (show), not only in the stored judgement
    shown = runner.invoke(app, ["show", "1", "--db", db, "--format", "json"])
    assert "Bob was dealt in without posting an ante" in shown.output


def test_antes_that_differ_inside_a_hand_are_a_violation_alone(tmp_path: Path) -> None:
    db = _import(tmp_path, "one.txt", stars_hand(1, antes=(1, 2, 1)))
    assert findings(db, "1")[0] == ["Bob anted $0.02; the 2 other players dealt in anted $0.01"]


@pytest.mark.slow
def test_the_site_s_other_tables_answer_before_the_structures_table(tmp_path: Path) -> None:
    db = _import(tmp_path, "a.txt", stars_hand(1, table="A"), stars_hand(2, table="B"), stars_hand(3, table="C"),
                 stars_hand(4, table="D", bring_in=3))
    assert verdicts(db) == {"1": "ok", "2": "ok", "3": "ok", "4": "violation"}
    assert stakes_of(db, "1") == (1, "site", 2, "site")
    assert findings(db, "4")[0] == ["Bob brought in for $0.03; 3 hands of the other PokerStars tables at $0.05/$0.10 USD "
                                    "brought in for $0.02"]
    # one other hand alone never accuses: D's bring-in against B's only
    db2 = _import(tmp_path, "b.txt", stars_hand(1, table="B"), stars_hand(2, table="D", bring_in=3),
                  db=str(tmp_path / "t.duckdb"))
    assert verdicts(db2) == {"1": "ok", "2": "ok"}  # each judged by its own posts, an assumption
    assert "only one hand of the other PokerStars tables at $0.05/$0.10 USD is stored" in assumed(db2, "2")["bring_in"]


@pytest.mark.slow
def test_tiers_that_disagree_are_noted_and_the_nearer_judges(tmp_path: Path) -> None:
    # the table's three hands all ante $0.02 at $0.04/$0.08, where the structures table says $0.01
    db = _import(tmp_path, "a.txt", *[stars_hand(n, bets=KNOWN, antes=(2, 2, 2)) for n in (1, 2, 3)])
    assert verdicts(db) == {"1": "ok", "2": "ok", "3": "ok"}
    assert stakes_of(db, "1") == (2, "context", 2, "context")
    with Store(db, read_only=True) as store:
        notes, topics = store.run("SELECT notes, note_topics FROM hands WHERE hand_id = '1'")[0]
    assert topics == ["structure_differs"]
    assert notes[0].startswith("the ante $0.02 that 2 other hands at table 'Sabik VII' ($0.04/$0.08) show differs from "
                               "$0.01 in the PokerStars structure for $0.04/$0.08 USD")
    # judged again (a fourth hand), the note is replaced, not repeated
    _import(tmp_path, "b.txt", stars_hand(4, bets=KNOWN, antes=(2, 2, 2)), db=db)
    with Store(db, read_only=True) as store:
        assert store.run("SELECT note_topics FROM hands WHERE hand_id = '1'")[0][0] == ["structure_differs"]


HOME = ("PokerStars Home Game Hand #{id}: {{Club}}  7 Card Stud Hi/Lo Limit ($0.04/$0.08 USD) - 2013/06/05 23:30:00 ET")


def test_a_home_game_is_judged_by_its_own_hands_only(tmp_path: Path) -> None:
    text = stars_hand(1, bets=KNOWN, antes=(2, 2, 2))
    home = HOME.format(id=1) + text[text.index("\n"):]
    db = _import(tmp_path, "home.txt", home)
    assert verdicts(db) == {"1": "ok"}  # the structures table is the site's, not the host's: the posts are assumed
    assert findings(db, "1") == ([], [])
    ante = assumed(db, "1")["ante"]
    assert ante.startswith("ante $0.02, as all 3 players dealt in posted it; the history does not state the level's "
                           "ante, nor does any other source: no other hand at table 'Sabik VII'")
    assert "structure" not in ante


def test_a_structure_row_never_judges_the_hand_it_was_learnt_from() -> None:
    row = StructureRow(LevelKey("x", None, "USD", "fixed_limit", 4, 8), 1, 2, 1, ("7",), ("f",), "d")
    assert not row.independent_of("7") and row.independent_of("8")
    assert StructureRow(row.key, 1, 2, 2, ("7", "9"), ("f",), "d").independent_of("7")


def test_every_structures_file_loads_and_cites_its_evidence() -> None:
    sites = sites_with_structures()
    assert len(sites) >= 11 and {path.stem for path in FOLDER.glob("*.toml")} == set(sites)
    for site in sites:
        rows = _rows_of(site)
        assert rows, site
        for key, row in rows.items():
            assert row.files and row.hand_ids and ".." in row.dates and row.hands >= len(row.hand_ids), (site, key)
            assert row.bring_in is None or (key.small_bet is not None and 0 < row.bring_in < key.small_bet), (site, key)
            assert structure_for(key) is row


@pytest.mark.slow
def test_the_structures_table_agrees_with_the_corpus_hands_it_cites(tmp_path: Path) -> None:
    """Each row read from a corpus file: the cited hands are stored at that level and vote for its values."""
    corpus = require_corpus()
    db = str(tmp_path / "corpus.duckdb")
    result = runner.invoke(app, ["import", str(corpus), "--db", db, "-q"])
    assert result.exit_code == 0, result.output
    checked = 0
    with Store(db, read_only=True) as store:
        for site in sites_with_structures():
            for key, row in _rows_of(site).items():
                stored = store.run(
                    """SELECT h.hand_id, h.small_bet, h.big_bet, h.currency,
                              (SELECT mode(a.amount) FROM actions a WHERE a.site = h.site AND a.hand_id = h.hand_id
                               AND a.kind = 'ante' AND NOT a.all_in),
                              (SELECT min(a.amount) FROM actions a WHERE a.site = h.site AND a.hand_id = h.hand_id
                               AND a.kind = 'bring_in' AND NOT a.all_in)
                       FROM hands h WHERE coalesce(h.origin_site, h.site) = ? AND list_contains(?, h.hand_id)""",
                    [site, list(row.hand_ids)])
                for hand_id, small, big, currency, ante, bring_in in stored:
                    assert (small, big, currency) == (key.small_bet, key.big_bet, key.currency), (site, hand_id)
                    assert ante == row.ante, (site, hand_id, ante)
                    assert bring_in in (None, row.bring_in), (site, hand_id, bring_in)
                    checked += 1
    assert checked >= 35  # the corpus hands the rows cite (the others are public files outside the corpus)


def test_judging_a_slice_at_a_time_gives_the_same_judgement(tmp_path: Path) -> None:
    """The pass holds one slice of hands at a time (memory); the tiers still see every table's and level's votes."""
    from hhtool.ingest.cross_hand import judge_hands

    hands = [stars_hand(n, table=table, bring_in=3 if n == 7 else 2, antes=(1, None, 1) if n == 5 else (1, 1, 1))
             for n, table in enumerate(("A", "A", "B", "C", "C", "D", "D", "E"), start=1)]
    db = _import(tmp_path, "a.txt", *hands)

    def state() -> tuple[object, ...]:
        with Store(db, read_only=True) as store:
            return (store.run("SELECT hand_id, verdict, ante, ante_source, bring_in, bring_in_source FROM hands ORDER BY 1"),
                    store.run("SELECT hand_id, code, message FROM violations ORDER BY ALL"),
                    store.run("SELECT hand_id, check_code, reason FROM unverifiable ORDER BY ALL"))

    whole = state()
    assert {row[0] for row in whole[1]} == {"5", "7"}  # the missing ante; the odd bring-in against the other tables
    for size in (1, 3):
        with Store(db) as store:
            assert judge_hands(store, "true", slice_hands=size) == 8
        assert state() == whole
