"""Storing judgements whole: a hand's judgement under a profile (its findings, the checks that could
not decide, its assumptions, the forced bets it is judged with and their tier, the notes on tiers that
disagree, its verdict) is replaced in one go by the one the replay made (``hhtool.replay.judgement``).
The store deletes the (hand, profile)'s rows and inserts the given ones; it writes the verdict as
given and judges nothing, and it patches no finding by its code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hhtool.model import NoteTopic
from hhtool.store import Store
from hhtool.store.spec import KEYED
from hhtool.store.tables import arrow_schema

#: the rows of a judgement, one set per (hand, profile)
JUDGEMENT_TABLES = ("violations", "unverifiable", "assumptions")


@dataclass
class JudgementRows:
    """Whole judgements as rows. Only the (hand, profile)s of ``keys`` are replaced; the verdict, the
    stake values and the notes are written for a hand's own profile (the one ``hands`` holds)."""

    #: (hk, profile): the judgements replaced
    keys: list[tuple[int, str]] = field(default_factory=list)
    #: (hk, profile, code, street, player, expected, actual, message, file, line): the stored table's columns
    violations: list[tuple[Any, ...]] = field(default_factory=list)
    #: (hk, profile, check_code, reason, line)
    unverifiable: list[tuple[Any, ...]] = field(default_factory=list)
    #: (hk, profile, kind, value, words, line)
    assumptions: list[tuple[Any, ...]] = field(default_factory=list)
    #: (hk, profile, kind, value, source): the forced bets the hand is judged with and their tier
    values: list[tuple[int, str, str, int | None, str]] = field(default_factory=list)
    #: (hk, profile, texts, lines): the notes on tiers that disagree
    notes: list[tuple[int, str, list[str], list[int | None]]] = field(default_factory=list)
    #: (hk, profile, verdict)
    verdicts: list[tuple[int, str, str]] = field(default_factory=list)


def replace_judgements(store: Store, judged: JudgementRows) -> None:
    """Replace the judgements of ``judged.keys`` whole by the given rows, in one transaction."""
    run = store.run
    run("BEGIN TRANSACTION")
    try:
        write_judgements(store, judged)
        run("COMMIT")
    except BaseException:
        store.rollback()
        raise
    finally:
        drop_scratch(store)


def drop_scratch(store: Store) -> None:
    """The tables :func:`write_judgements` works in (its caller drops them once its transaction is over)."""
    store.run("DROP TABLE IF EXISTS jd_notes_new")


#: the columns of ``jd_judged``, a judged hand a row: its key, the forced bets it is judged with (``has_``:
#: whether the judgement gives that bet's value and tier) and its verdict
_JUDGED = (("hk", "int64"), ("profile", "string"), ("has_ante", "bool_"), ("ante", "int64"), ("ante_source", "string"),
           ("has_bring_in", "bool_"), ("bring_in", "int64"), ("bring_in_source", "string"), ("verdict", "string"))


def write_judgements(store: Store, judged: JudgementRows) -> None:
    """:func:`replace_judgements` inside the caller's transaction. The rows go to DuckDB as registered
    Arrow tables and the hands' values and verdicts in one UPDATE (before: lists bound as parameters, two
    temporary tables and three UPDATEs, and each finding's key found again by a join on ``hands``: 2,500
    real hands 34 -> 18 ms CPU; #37, benchmarks/RESULTS.md)."""
    import pyarrow as pa  # (the store's writing side: loaded with the batch's rows)

    run = store.run
    keys = {key: index for index, key in enumerate(judged.keys)}
    columns: dict[str, list[Any]] = {name: [None] * len(keys) for name, _ in _JUDGED}
    columns["hk"] = [hk for hk, _ in judged.keys]
    columns["profile"] = [profile for _, profile in judged.keys]
    columns["has_ante"] = [False] * len(keys)
    columns["has_bring_in"] = [False] * len(keys)
    for hk, profile, kind, value, source in judged.values:
        at = keys[(hk, profile)]
        columns[f"has_{kind}"][at], columns[kind][at], columns[f"{kind}_source"][at] = True, value, source
    for hk, profile, verdict in judged.verdicts:
        columns["verdict"][keys[(hk, profile)]] = verdict
    given = pa.table({name: pa.array(columns[name], type=getattr(pa, kind)()) for name, kind in _JUDGED})
    with store.registered("jd_judged", given):
        for table in JUDGEMENT_TABLES:
            run(f"DELETE FROM {KEYED}.{table} AS x USING jd_judged k WHERE x.hk = k.hk AND x.profile = k.profile")
        for name, rows in (("violations", judged.violations), ("unverifiable", judged.unverifiable),
                           ("assumptions", judged.assumptions)):
            if rows:
                schema = arrow_schema(name)
                incoming = pa.table({column.name: pa.array([row[index] for row in rows], type=column.type)
                                     for index, column in enumerate(schema)})
                # (in the order given: the rows' order is how a hand's findings on one line are listed)
                with store.registered("jd_incoming", incoming):
                    run(f"INSERT INTO {KEYED}.{name} BY NAME SELECT * FROM jd_incoming")
        if given.num_rows:
            bets = ", ".join(f"{kind} = CASE WHEN v.has_{kind} THEN v.{kind} ELSE hands.{kind} END, "
                             f"{kind}_source = CASE WHEN v.has_{kind} THEN v.{kind}_source ELSE hands.{kind}_source END"
                             for kind in ("ante", "bring_in"))
            run(f"""UPDATE hands SET {bets}, verdict = v.verdict FROM jd_judged v
                    WHERE hands.hk = v.hk AND v.profile = hands.rules_profile""")
        _write_notes(store, judged.notes)



def _write_notes(store: Store, notes: list[tuple[int, str, list[str], list[int | None]]]) -> None:
    """The notes of topic STRUCTURE_DIFFERS of the judged hands (``jd_judged``) replaced by the given ones,
    beside the parser's (list positions told apart by their topic)."""
    import pyarrow as pa

    topic = NoteTopic.STRUCTURE_DIFFERS.value
    given = pa.table({"hk": pa.array([n[0] for n in notes], pa.int64()), "profile": pa.array([n[1] for n in notes], pa.string()),
                      "texts": pa.array([n[2] for n in notes], pa.list_(pa.string())),
                      "lines": pa.array([n[3] for n in notes], pa.list_(pa.int32()))})
    keep = f"coalesce(h.note_topics[i], '') <> '{topic}'"
    with store.registered("jd_notes", given):
        store.run(f"""CREATE OR REPLACE TEMP TABLE jd_notes_new AS SELECT h.hk,
                list_filter(coalesce(h.notes, []::VARCHAR[]), lambda x, i: {keep}) || coalesce(n.texts, []) AS notes,
                list_filter(coalesce(h.note_lines, []::INTEGER[]), lambda x, i: {keep}) || coalesce(n.lines, []) AS note_lines,
                list_filter(coalesce(h.note_topics, []::VARCHAR[]), lambda x, i: {keep})
                    || list_transform(coalesce(n.texts, []), lambda t: '{topic}') AS note_topics
            FROM hands h JOIN jd_judged k ON k.hk = h.hk AND k.profile = h.rules_profile
            LEFT JOIN jd_notes n ON n.hk = h.hk AND n.profile = k.profile
            WHERE n.hk IS NOT NULL OR list_contains(coalesce(h.note_topics, []::VARCHAR[]), '{topic}')""")
    if store.run("SELECT EXISTS (SELECT 1 FROM jd_notes_new)")[0][0]:  # (none, usually: an UPDATE is 3 ms)
        store.run("""UPDATE hands SET notes = x.notes, note_lines = x.note_lines, note_topics = x.note_topics
                     FROM jd_notes_new x WHERE x.hk = hands.hk""")


__all__ = ["JUDGEMENT_TABLES", "JudgementRows", "drop_scratch", "replace_judgements", "write_judgements"]
