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
from hhtool.store.tables import replay_table_of

#: the rows of a judgement, one set per (hand, profile)
JUDGEMENT_TABLES = ("violations", "unverifiable", "assumptions")


@dataclass
class JudgementRows:
    """Whole judgements as rows. Only the (hand, profile)s of ``keys`` are replaced; the verdict, the
    stake values and the notes are written for a hand's own profile (the one ``hands`` holds)."""

    #: (hk, profile): the judgements replaced
    keys: list[tuple[int, str]] = field(default_factory=list)
    #: (site, hand_id, profile, code, street, player, expected, actual, message, file, line)
    violations: list[tuple[Any, ...]] = field(default_factory=list)
    #: (site, hand_id, profile, check_code, reason, line)
    unverifiable: list[tuple[Any, ...]] = field(default_factory=list)
    #: (site, hand_id, profile, kind, value, words, line)
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
    for name in ("jd_keys", "jd_values", "jd_notes", "jd_notes_new", "jd_verdicts"):
        store.run(f"DROP TABLE IF EXISTS {name}")


def write_judgements(store: Store, judged: JudgementRows) -> None:
    """:func:`replace_judgements` inside the caller's transaction."""
    run = store.run
    run("CREATE OR REPLACE TEMP TABLE jd_keys AS SELECT * FROM (SELECT unnest(?::BIGINT[]) AS hk, "
        "unnest(?::VARCHAR[]) AS profile)", [list(column) for column in zip(*judged.keys, strict=True)] or [[], []])
    for table in JUDGEMENT_TABLES:
        run(f"DELETE FROM {KEYED}.{table} AS x USING jd_keys k WHERE x.hk = k.hk AND x.profile = k.profile")
    for name, rows in (("violations", judged.violations), ("unverifiable", judged.unverifiable),
                       ("assumptions", judged.assumptions)):
        if rows:
            store.con.register("jd_incoming", replay_table_of(name, rows))
            try:
                # in the order given (a join keeps none): the rows' order is how a hand's findings on one
                # line are listed
                run(f"INSERT INTO {KEYED}.{name} BY NAME SELECT h.hk, x.* EXCLUDE (site, hand_id, pos) "
                    "FROM (SELECT *, row_number() OVER () AS pos FROM jd_incoming) x "
                    "JOIN hands h USING (site, hand_id) ORDER BY x.pos")
            finally:
                store.con.unregister("jd_incoming")
    if judged.values:
        run("CREATE OR REPLACE TEMP TABLE jd_values AS SELECT * FROM (SELECT unnest(?::BIGINT[]) AS hk, "
            "unnest(?::VARCHAR[]) AS profile, unnest(?::VARCHAR[]) AS kind, unnest(?::BIGINT[]) AS value, "
            "unnest(?::VARCHAR[]) AS source)", [list(column) for column in zip(*judged.values, strict=True)])
        for kind in ("ante", "bring_in"):
            run(f"""UPDATE hands SET {kind} = v.value, {kind}_source = v.source FROM jd_values v
                    WHERE v.hk = hands.hk AND v.profile = hands.rules_profile AND v.kind = '{kind}'""")
    _write_notes(store, judged.notes)
    if judged.verdicts:
        run("CREATE OR REPLACE TEMP TABLE jd_verdicts AS SELECT * FROM (SELECT unnest(?::BIGINT[]) AS hk, "
            "unnest(?::VARCHAR[]) AS profile, unnest(?::VARCHAR[]) AS verdict)",
            [list(column) for column in zip(*judged.verdicts, strict=True)])
        run("""UPDATE hands SET verdict = v.verdict FROM jd_verdicts v
               WHERE hands.hk = v.hk AND v.profile = hands.rules_profile""")


def _write_notes(store: Store, notes: list[tuple[int, str, list[str], list[int | None]]]) -> None:
    """The notes of topic STRUCTURE_DIFFERS of the judged hands (``jd_keys``) replaced by the given ones,
    beside the parser's (list positions told apart by their topic)."""
    topic = NoteTopic.STRUCTURE_DIFFERS.value
    store.run("CREATE OR REPLACE TEMP TABLE jd_notes AS SELECT * FROM (SELECT unnest(?::BIGINT[]) AS hk, "
              "unnest(?::VARCHAR[]) AS profile, unnest(?::VARCHAR[][]) AS texts, unnest(?::INTEGER[][]) AS lines)",
              [[n[0] for n in notes], [n[1] for n in notes], [n[2] for n in notes], [n[3] for n in notes]])
    keep = f"coalesce(h.note_topics[i], '') <> '{topic}'"
    store.run(f"""CREATE OR REPLACE TEMP TABLE jd_notes_new AS SELECT h.hk,
            list_filter(coalesce(h.notes, []::VARCHAR[]), lambda x, i: {keep}) || coalesce(n.texts, []) AS notes,
            list_filter(coalesce(h.note_lines, []::INTEGER[]), lambda x, i: {keep}) || coalesce(n.lines, []) AS note_lines,
            list_filter(coalesce(h.note_topics, []::VARCHAR[]), lambda x, i: {keep})
                || list_transform(coalesce(n.texts, []), lambda t: '{topic}') AS note_topics
        FROM hands h JOIN jd_keys k ON k.hk = h.hk AND k.profile = h.rules_profile
        LEFT JOIN jd_notes n ON n.hk = h.hk AND n.profile = k.profile
        WHERE n.hk IS NOT NULL OR list_contains(coalesce(h.note_topics, []::VARCHAR[]), '{topic}')""")
    store.run("""UPDATE hands SET notes = x.notes, note_lines = x.note_lines, note_topics = x.note_topics
                 FROM jd_notes_new x WHERE x.hk = hands.hk""")


__all__ = ["JUDGEMENT_TABLES", "JudgementRows", "drop_scratch", "replace_judgements", "write_judgements"]
