"""The store's side of the cross-hand pass (:mod:`hhtool.replay.forced_bets`): it gathers the
evidence (each judged hand's forced bets, the votes of its table and of its level's other tables)
and saves what the pass decided (findings, the stakes the hand is judged with and their tier, the
notes on tiers that disagree, the verdict). It decides nothing.

A table is (site, table name, small bet, big bet, currency, structure) for cash games and (site,
tournament id, small bet, big bet, currency, structure) in tournaments; a level the same without
the table name; the site of a converted history (a PHH file hhtool wrote) is the site that dealt it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from hhtool.model import NoteTopic, StakeSource, Structure
from hhtool.replay.codes import Code
from hhtool.replay.forced_bets import (
    ANTE_BY_CONTEXT,
    BRING_IN_BY_CONTEXT,
    Bet,
    HandPosts,
    Judgement,
    Post,
    TablePlace,
    vote_of,
)
from hhtool.replay.structures import LevelKey
from hhtool.store import Store
from hhtool.store.spec import KEYED
from hhtool.store.tables import replay_table_of

_DEALT_BY = "coalesce(h.origin_site, h.site)"
_PLACE = "CASE WHEN h.is_tournament THEN h.tournament_id ELSE h.table_name END"
#: the table a hand was dealt at (JSON, so that no table name can pass for another table's key): NULL
#: when the history names neither table nor tournament
_TABLE_KEY = f"""CASE WHEN {_PLACE} IS NULL THEN NULL
    ELSE to_json(struct_pack(site := {_DEALT_BY}, tournament := h.is_tournament, place := {_PLACE},
                             small := h.small_bet, big := h.big_bet, currency := h.currency,
                             structure := h.structure))::VARCHAR END"""
#: its level: cash at these bets, or the tournament's level
_LEVEL_KEY = f"""to_json(struct_pack(site := {_DEALT_BY}, tournament := CASE WHEN h.is_tournament THEN
    coalesce(h.tournament_id, '') END, small := h.small_bet, big := h.big_bet, currency := h.currency,
    structure := h.structure))::VARCHAR"""
_SCRATCH = ("fb_hands", "fb_judged", "fb_slice", "fb_posts")

#: a hand's forced bets and, per hand, whether each took the whole stack
_POSTS = """SELECT a.hk, a.player, a.kind, a.amount, a.line, a.seq, a.all_in AS flagged,
                   a.all_in OR (s.stack IS NOT NULL AND sum(a.amount) OVER (
                       PARTITION BY a.hk, a.player ORDER BY a.seq) >= s.stack) AS all_in
            FROM keyed.actions a LEFT JOIN keyed.seats s ON s.hk = a.hk AND s.player = a.player
            WHERE a.kind IN ('ante', 'bring_in') AND a.hk IN (SELECT hk FROM {hands})"""

#: each hand's votes (see hhtool.replay.forced_bets.vote_of: the same rule, in SQL)
_VOTES = """WITH posts AS ({posts}),
    antes AS (SELECT hk, amount, count(*) AS n FROM posts WHERE kind = 'ante' AND NOT all_in GROUP BY hk, amount
              QUALIFY row_number() OVER (PARTITION BY hk ORDER BY n DESC, amount) = 1),
    silent AS (SELECT hk, 0 AS amount FROM {hands} ANTI JOIN (SELECT DISTINCT hk FROM posts WHERE kind = 'ante') p USING (hk))
    SELECT hk, 'ante' AS kind, amount AS vote FROM antes
    UNION ALL SELECT hk, 'ante', amount FROM silent
    UNION ALL SELECT hk, 'bring_in', min(amount) FROM posts WHERE kind = 'bring_in' AND NOT all_in GROUP BY hk"""


def import_mark(store: Store) -> Any:
    """The store's clock now: the hands of files imported after it are judged again at the end."""
    return store.run("SELECT current_timestamp::TIMESTAMP")[0][0]


#: hands stored with the replay's placeholder still in place: an import killed (or stopped by a full
#: disk) after writing them but before its cross-hand pass; the next import judges them
AWAITING_JUDGEMENT = f"""EXISTS (SELECT 1 FROM keyed.unverifiable u WHERE u.hk = h.hk
    AND u.profile = h.rules_profile AND ((u.check_code = '{Code.ANTE}' AND u.reason = ?)
                                         OR (u.check_code = '{Code.BRING_IN_AMOUNT}' AND u.reason = ?)))"""
AWAITING_PARAMS = (ANTE_BY_CONTEXT, BRING_IN_BY_CONTEXT)

#: hands whose forced bets no cross-hand pass has judged yet (a store from before it existed): a
#: posted value the pass always leaves with a finding or turns into a tier's value
NEVER_JUDGED = f"""h.verdict IS NOT NULL AND (
    (h.ante_source = 'posted' AND NOT EXISTS (SELECT 1 FROM keyed.unverifiable u WHERE u.hk = h.hk
        AND u.profile = h.rules_profile AND u.check_code = '{Code.ANTE}')
        AND NOT EXISTS (SELECT 1 FROM keyed.violations v WHERE v.hk = h.hk AND v.profile = h.rules_profile
        AND v.code = '{Code.ANTE}'))
    OR (h.bring_in_source = 'posted' AND EXISTS (SELECT 1 FROM keyed.actions a WHERE a.hk = h.hk
        AND a.kind = 'bring_in') AND NOT EXISTS (
        SELECT 1 FROM keyed.unverifiable u WHERE u.hk = h.hk AND u.profile = h.rules_profile
        AND u.check_code = '{Code.BRING_IN_AMOUNT}') AND NOT EXISTS (
        SELECT 1 FROM keyed.violations v WHERE v.hk = h.hk AND v.profile = h.rules_profile
        AND v.code = '{Code.BRING_IN_AMOUNT}')))"""


def has_never_judged(store: Store) -> bool:
    """Whether the store holds hands stored before the cross-hand pass existed."""
    return bool(store.run(f"SELECT EXISTS (SELECT 1 FROM hands h WHERE {NEVER_JUDGED})")[0][0])


@dataclass
class Evidence:
    """The hands to judge and the votes of their tables; :meth:`level_votes` gathers their levels'."""

    hands: list[HandPosts]
    tables: dict[tuple[str, Bet], Counter[int]]
    level_json: dict[LevelKey, str]


def choose(store: Store, touched: str, params: Sequence[Any], profile: str | None) -> int:
    """Choose the hands to judge (``fb_judged``, numbered ``n`` from 0 with each table's hands together)
    and return how many. ``touched`` is a SQL condition on ``hands h``. With ``profile`` None (after an
    import) every replayed hand whose forced bets may now be judged otherwise is chosen, under its own
    profile: the non-header hands at the tables of the touched hands, and at their levels those no
    table decided; with a profile (``audit --rules``), the touched hands under it."""
    run = store.run
    run(f"""CREATE OR REPLACE TEMP TABLE fb_hands AS
            SELECT h.hk, h.site, h.hand_id, {_DEALT_BY} AS dealt_by, h.file, h.table_name, h.tournament_id,
                   h.is_tournament, h.small_bet, h.big_bet, h.currency, h.unit, h.structure, h.rules_profile,
                   h.verdict, h.ante_source, h.bring_in_source,
                   list_contains(coalesce(h.note_topics, []), '{NoteTopic.PRIVATE_TABLE}') AS private,
                   {_TABLE_KEY} AS tkey, {_LEVEL_KEY} AS lkey, ({touched}) AS chosen FROM hands h""", list(params))
    open_sources = f"('{StakeSource.POSTED}', '{StakeSource.SITE}', '{StakeSource.STRUCTURE}')"
    scope = ("chosen" if profile is not None else f"""verdict IS NOT NULL AND (chosen
             OR tkey IN (SELECT tkey FROM fb_hands WHERE chosen)
             OR (lkey IN (SELECT lkey FROM fb_hands WHERE chosen)
                 AND (ante_source IN {open_sources} OR bring_in_source IN {open_sources})))""")
    run(f"""CREATE OR REPLACE TEMP TABLE fb_judged AS
            SELECT *, coalesce(?, rules_profile) AS profile, row_number() OVER (ORDER BY tkey NULLS LAST, hk) - 1 AS n
            FROM fb_hands WHERE (ante_source <> 'header' OR bring_in_source <> 'header') AND {scope}""", [profile])
    return int(run("SELECT count(*) FROM fb_judged")[0][0])


def gather(store: Store, first: int, stop: int) -> Evidence:
    """The evidence of the chosen hands numbered ``first`` to ``stop`` - 1 (see :func:`choose`): a slice,
    so that what is held in memory does not grow with the hands an import brings."""
    run = store.run
    run("CREATE OR REPLACE TEMP TABLE fb_slice AS SELECT * FROM fb_judged WHERE n >= ? AND n < ?", [first, stop])
    run(f"CREATE OR REPLACE TEMP TABLE fb_posts AS {_POSTS.format(hands='fb_slice')}")
    posts: dict[int, list[tuple[Any, ...]]] = {}
    for hk, *row in run("SELECT hk, kind, player, amount, line, all_in FROM fb_posts ORDER BY hk, seq"):
        posts.setdefault(hk, []).append(tuple(row))
    unanted: dict[int, list[tuple[str, int]]] = {}
    for hk, player, line in run(_UNANTED):
        unanted.setdefault(hk, []).append((player, line))
    rows = run(f"SELECT {_JUDGED_COLUMNS}, lkey FROM fb_slice ORDER BY hk")
    hands = [_hand_posts(row[:-1], posts.get(row[0], []), unanted.get(row[0], [])) for row in rows]
    level_json = [row[-1] for row in rows]
    tables = _tallies(store, "tkey", "SELECT DISTINCT tkey FROM fb_slice WHERE tkey IS NOT NULL")
    levels = {hand.level: json for hand, json in zip(hands, level_json, strict=True)}
    return Evidence(hands, tables, levels)


def level_votes(store: Store, evidence: Evidence, levels: Iterable[LevelKey]) -> dict[tuple[LevelKey, Bet], Counter[int]]:
    """The votes of every hand at these levels, over all their tables."""
    wanted = sorted({evidence.level_json[level] for level in levels})
    if not wanted:
        return {}
    by_json = {json: level for level, json in evidence.level_json.items()}
    store.run("CREATE OR REPLACE TEMP TABLE fb_wanted AS SELECT unnest(?::VARCHAR[]) AS lkey", [wanted])
    try:
        tallies = _tallies(store, "lkey", "SELECT lkey FROM fb_wanted")
    finally:
        store.run("DROP TABLE IF EXISTS fb_wanted")
    return {(by_json[json], bet): tally for (json, bet), tally in tallies.items()}


def _tallies(store: Store, column: str, keys: str) -> dict[tuple[str, Bet], Counter[int]]:
    run = store.run
    run(f"CREATE OR REPLACE TEMP TABLE fb_voters AS SELECT hk, {column} AS k FROM fb_hands WHERE {column} IN ({keys})")
    try:
        sql = _VOTES.format(posts=_POSTS.format(hands="fb_voters"), hands="fb_voters")
        tallies: dict[tuple[str, Bet], Counter[int]] = {}
        for key, kind, vote, n in run(f"SELECT v.k, x.kind, x.vote, count(*) FROM ({sql}) x JOIN fb_voters v USING (hk) "
                                      "GROUP BY ALL"):
            tallies.setdefault((key, Bet(kind)), Counter())[vote] = n
        return tallies
    finally:
        run("DROP TABLE IF EXISTS fb_voters")


_JUDGED_COLUMNS = ("hk, site, hand_id, dealt_by, file, profile, table_name, tournament_id, is_tournament, small_bet, big_bet, "
                   "currency, unit, structure, tkey, private, ante_source, bring_in_source")

#: seated, not sitting out, dealt in (a 3rd-street card or action), no ante
_UNANTED = """SELECT s.hk, s.player, s.line FROM keyed.seats s JOIN fb_slice j USING (hk)
    WHERE NOT s.sitting_out
    AND NOT EXISTS (SELECT 1 FROM fb_posts p WHERE p.hk = s.hk AND p.player = s.player AND p.kind = 'ante')
    AND (EXISTS (SELECT 1 FROM keyed.cards c WHERE c.hk = s.hk AND c.player = s.player AND c.street = 3)
         OR EXISTS (SELECT 1 FROM keyed.actions a WHERE a.hk = s.hk AND a.player = s.player AND a.street = 3
                    AND a.kind <> 'ante'))
    ORDER BY s.hk, s.seq"""


def _hand_posts(row: tuple[Any, ...], posts: list[tuple[Any, ...]], unanted: list[tuple[str, int]]) -> HandPosts:
    (hk, site, hand_id, dealt_by, file, profile, table_name, tournament_id, is_tournament, small, big, currency, unit,
     structure, tkey, private, ante_source, bring_in_source) = row
    place = TablePlace(table_name, tournament_id, bool(is_tournament), small, big, currency, unit, Structure(structure))
    level = LevelKey(dealt_by, (tournament_id or "") if is_tournament else None, currency, structure, small, big)
    stated = frozenset(bet for bet, source in ((Bet.ANTE, ante_source), (Bet.BRING_IN, bring_in_source))
                       if source == StakeSource.HEADER)
    antes: list[Post] = []
    bring_ins: list[Post] = []
    for kind, player, amount, line, all_in in posts:
        (antes if kind == "ante" else bring_ins).append(Post(player, amount, line, all_in))
    return HandPosts(hk, site, hand_id, file, profile, place, tkey, level, bool(private), stated, tuple(antes),
                     tuple(bring_ins), tuple(unanted), vote_of(Bet.ANTE, antes), vote_of(Bet.BRING_IN, bring_ins))


def save(store: Store, judgements: list[Judgement]) -> None:
    """Replace the judged hands' forced-bet findings, set the stakes they are judged with (under their
    own profile) and the notes on tiers that disagree, and recompute their verdicts; one transaction."""
    run = store.run
    owned = [(j.key, j.profile, bet.value) for j in judgements for bet in j.judged]
    violations = [(j.site, j.hand_id, j.profile, v.code, v.street, v.player, v.expected, v.actual, v.message, v.file, v.line)
                  for j in judgements for v in j.violations]
    unverifiable = [(j.site, j.hand_id, j.profile, u.check, u.reason, u.line) for j in judgements for u in j.unverifiable]
    values = [(j.key, j.profile, bet.value, value, source.value) for j in judgements for bet, (value, source) in j.values.items()]
    notes = [(j.key, j.profile, [text for text, _ in j.notes], [line for _, line in j.notes]) for j in judgements if j.notes]
    run("BEGIN TRANSACTION")
    try:
        run("CREATE OR REPLACE TEMP TABLE fb_owned AS SELECT * FROM (SELECT unnest(?::BIGINT[]) AS hk, "
            "unnest(?::VARCHAR[]) AS profile, unnest(?::VARCHAR[]) AS kind)",
            [[o[0] for o in owned], [o[1] for o in owned], [o[2] for o in owned]])
        for table, code in (("violations", "code"), ("unverifiable", "check_code")):
            run(f"""DELETE FROM {KEYED}.{table} AS x USING fb_owned o WHERE x.hk = o.hk AND x.profile = o.profile
                    AND x.{code} = CASE o.kind WHEN 'ante' THEN '{Code.ANTE}' ELSE '{Code.BRING_IN_AMOUNT}' END""")
        for name, rows in (("violations", violations), ("unverifiable", unverifiable)):
            if rows:
                store.con.register("fb_incoming", replay_table_of(name, rows))
                try:
                    run(f"INSERT INTO {KEYED}.{name} BY NAME SELECT h.hk, x.* EXCLUDE (site, hand_id) "
                        "FROM fb_incoming x JOIN hands h USING (site, hand_id)")
                finally:
                    store.con.unregister("fb_incoming")
        if values:
            run("CREATE OR REPLACE TEMP TABLE fb_values AS SELECT * FROM (SELECT unnest(?::BIGINT[]) AS hk, "
                "unnest(?::VARCHAR[]) AS profile, unnest(?::VARCHAR[]) AS kind, unnest(?::BIGINT[]) AS value, "
                "unnest(?::VARCHAR[]) AS source)", [list(column) for column in zip(*values, strict=True)])
            for kind in ("ante", "bring_in"):
                run(f"""UPDATE hands SET {kind} = v.value, {kind}_source = v.source FROM fb_values v
                        WHERE v.hk = hands.hk AND v.profile = hands.rules_profile AND v.kind = '{kind}'""")
        _save_notes(store, notes)
        run("""UPDATE hands SET verdict = CASE
                   WHEN EXISTS (SELECT 1 FROM keyed.violations v WHERE v.hk = hands.hk
                                AND v.profile = hands.rules_profile) THEN 'violation'
                   WHEN EXISTS (SELECT 1 FROM keyed.unverifiable u WHERE u.hk = hands.hk
                                AND u.profile = hands.rules_profile) THEN 'unverifiable'
                   ELSE 'ok' END
               FROM fb_owned o WHERE hands.hk = o.hk AND o.profile = hands.rules_profile""")
        run("COMMIT")
    except Exception:
        run("ROLLBACK")
        raise
    finally:
        for name in ("fb_owned", "fb_values", "fb_notes", "fb_notes_new"):
            run(f"DROP TABLE IF EXISTS {name}")


def _save_notes(store: Store, notes: list[tuple[int, str, list[str], list[int | None]]]) -> None:
    """The notes of topic STRUCTURE_DIFFERS of the judged hands (``fb_owned``) replaced by the pass's,
    beside the parser's (list positions told apart by their topic)."""
    topic = NoteTopic.STRUCTURE_DIFFERS.value
    store.run("CREATE OR REPLACE TEMP TABLE fb_notes AS SELECT * FROM (SELECT unnest(?::BIGINT[]) AS hk, "
              "unnest(?::VARCHAR[]) AS profile, unnest(?::VARCHAR[][]) AS texts, unnest(?::INTEGER[][]) AS lines)",
              [[n[0] for n in notes], [n[1] for n in notes], [n[2] for n in notes], [n[3] for n in notes]])
    keep = f"coalesce(h.note_topics[i], '') <> '{topic}'"
    store.run(f"""CREATE OR REPLACE TEMP TABLE fb_notes_new AS SELECT h.hk,
            list_filter(coalesce(h.notes, []::VARCHAR[]), lambda x, i: {keep}) || coalesce(n.texts, []) AS notes,
            list_filter(coalesce(h.note_lines, []::INTEGER[]), lambda x, i: {keep}) || coalesce(n.lines, []) AS note_lines,
            list_filter(coalesce(h.note_topics, []::VARCHAR[]), lambda x, i: {keep})
                || list_transform(coalesce(n.texts, []), lambda t: '{topic}') AS note_topics
        FROM hands h JOIN (SELECT DISTINCT hk, profile FROM fb_owned) o ON o.hk = h.hk AND o.profile = h.rules_profile
        LEFT JOIN fb_notes n ON n.hk = h.hk AND n.profile = o.profile
        WHERE n.hk IS NOT NULL OR list_contains(coalesce(h.note_topics, []::VARCHAR[]), '{topic}')""")
    store.run("""UPDATE hands SET notes = x.notes, note_lines = x.note_lines, note_topics = x.note_topics
                 FROM fb_notes_new x WHERE x.hk = hands.hk""")


def drop_scratch(store: Store) -> None:
    for name in _SCRATCH:
        store.run(f"DROP TABLE IF EXISTS {name}")


__all__ = ["AWAITING_JUDGEMENT", "AWAITING_PARAMS", "NEVER_JUDGED", "Evidence", "choose", "drop_scratch", "gather",
           "has_never_judged", "import_mark", "level_votes", "save"]
