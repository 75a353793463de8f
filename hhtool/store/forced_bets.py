"""The store's side of the cross-hand pass (:mod:`hhtool.replay.table_pass`): it gathers the
evidence as plain rows (each judged hand's forced bets and stored findings, how the hands of its
table and of its level's other tables posted theirs); the judgements the replay completes from it are
stored whole by :func:`hhtool.store.judgements.replace_judgements`. It decides nothing and imports
nothing of the replay: the finding codes and placeholder reasons it looks for are its caller's
(:mod:`hhtool.ingest.cross_hand`).

A table is (site, table name, small bet, big bet, currency, structure) for cash games and (site,
tournament id, small bet, big bet, currency, structure) in tournaments; a level the same without
the table name; the site of a converted history (a PHH file hhtool wrote) is the site that dealt it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hhtool.model import NoteTopic, StakeSource
from hhtool.store import Store, raise_if_interrupted
from hhtool.store.forced_bet_votes import ADDED as _ADDED
from hhtool.store.forced_bet_votes import DEALT_BY as _DEALT_BY
from hhtool.store.forced_bet_votes import LEVEL_KEY as _LEVEL_KEY
from hhtool.store.forced_bet_votes import PER_HAND, PLACE, VOTES_TABLE, stored_counts
from hhtool.store.forced_bet_votes import POSTS as _POSTS
from hhtool.store.forced_bet_votes import TABLE_KEY as _TABLE_KEY
from hhtool.store.spec import KEYED

if TYPE_CHECKING:  # (loaded by the store where used: an import's workers never open a connection)
    import pyarrow as pa

_SCRATCH = ("fb_touched", "fb_places", "fb_posts", "fb_patterns", "fb_judged", "fb_alone", _ADDED)

#: how each hand of ``{hands}`` (rows hk, k: the table's key, chosen) posted each forced bet, out of ``{posts}``:
#: the hands that posted alike counted together (the pass reads a hand's vote from this,
#: :func:`hhtool.replay.forced_bets.vote_of`)
_PATTERNS = f"""SELECT k, kind, amounts, posted, count(*) AS hands, count(*) FILTER (WHERE chosen) AS chosen_hands
    FROM ({PER_HAND.format(voters="{hands}", keys="v.k, v.chosen", posts="{posts}")}) GROUP BY ALL"""

#: (key, kind) -> (the amounts of a hand's posts not all-in, whether it posted at all, how many hands did so)
Patterns = dict[tuple[str, str], list[tuple[tuple[int, ...], bool, int]]]


def any_hand(store: Store, condition: str, params: Sequence[Any] = ()) -> bool:
    """Whether a stored hand meets ``condition`` (a SQL condition on ``hands h``)."""
    return bool(store.run(f"SELECT EXISTS (SELECT 1 FROM hands h WHERE {condition})", list(params))[0][0])


def awaiting_judgement(placeholders: Sequence[tuple[str, str]]) -> tuple[str, list[str]]:
    """A SQL condition on ``hands h`` (and its parameters): hands stored with one of the replay's
    placeholder findings (check code, reason) still in place: an import killed (or stopped by a full
    disk) after writing them but before its cross-hand pass; the next import judges them."""
    held = " OR ".join("(u.check_code = ? AND u.reason = ?)" for _ in placeholders) or "FALSE"
    return (f"""EXISTS (SELECT 1 FROM {KEYED}.unverifiable u WHERE u.hk = h.hk AND u.profile = h.rules_profile
                AND ({held}))""", [value for pair in placeholders for value in pair])


def never_judged(codes: Sequence[tuple[str, str]]) -> str:
    """A SQL condition on ``hands h``: hands whose forced bets no cross-hand pass has judged yet (a
    store from before it existed): a posted value the pass always leaves with a finding of its code
    or turns into a tier's value. ``codes``: (the forced bet as ``actions.kind`` names it, the code of
    the pass's findings on it)."""
    def open_bet(kind: str, code: str) -> str:
        posted = ("" if kind == "ante" else
                  f" AND EXISTS (SELECT 1 FROM {KEYED}.actions a WHERE a.hk = h.hk AND a.kind = '{kind}')")
        return f"""(h.{kind}_source = 'posted'{posted}
            AND NOT EXISTS (SELECT 1 FROM {KEYED}.unverifiable u WHERE u.hk = h.hk AND u.profile = h.rules_profile
                            AND u.check_code = '{code}')
            AND NOT EXISTS (SELECT 1 FROM {KEYED}.violations v WHERE v.hk = h.hk AND v.profile = h.rules_profile
                            AND v.code = '{code}'))"""
    return f"h.verdict IS NOT NULL AND ({' OR '.join(open_bet(kind, code) for kind, code in codes)})"


def has_never_judged(store: Store, codes: Sequence[tuple[str, str]]) -> bool:
    """Whether the store holds hands stored before the cross-hand pass existed (see :func:`never_judged`)."""
    return bool(store.run(f"SELECT EXISTS (SELECT 1 FROM hands h WHERE {never_judged(codes)})")[0][0])


#: what :func:`gather` gives of each hand to judge, in this order (the replay's row type,
#: ``hhtool.replay.table_pass.HandRow``, declares the same fields, with their types): where it was dealt
#: (``dealt_by``: a converted history's origin), its table's key (None: the history names neither
#: table nor tournament) and its level's, the sources of its forced bets, its forced posts (kind, player,
#: amount, line, all-in) in order, the dealt-in players who posted no ante (player, seat line), and the
#: findings and assumptions stored for it under the profile judged (its judgement so far)
HAND_FIELDS = ("hk", "site", "hand_id", "dealt_by", "file", "profile", "table_name", "tournament_id", "is_tournament",
               "small_bet", "big_bet", "currency", "unit", "structure", "table", "level", "private", "ante_source",
               "bring_in_source", "posts", "unanted", "violations", "unverifiable", "assumptions")


@dataclass
class Evidence:
    """A slice of the hands to judge and how the hands of their tables posted; :func:`level_patterns`
    gathers their levels'."""

    hands: list[tuple[Any, ...]]  # each hand's values, in the order of HAND_FIELDS
    tables: Patterns


#: a level's columns (what :data:`_LEVEL_KEY` is made of), compared as they are stored: the hands of the
#: touched hands' levels are found by them without making every stored hand's key
_LEVEL_COLUMNS = (f"{_DEALT_BY} AS dealt_by", "CASE WHEN h.is_tournament THEN coalesce(h.tournament_id, '') END AS tid",
                  "h.small_bet", "h.big_bet", "h.currency", "h.structure")
_SAME_LEVEL = " AND ".join(f"{stored} IS NOT DISTINCT FROM l.{name}" for stored, name in (
    (_DEALT_BY, "dealt_by"), ("CASE WHEN h.is_tournament THEN coalesce(h.tournament_id, '') END", "tid"),
    ("h.small_bet", "small_bet"), ("h.big_bet", "big_bet"), ("h.currency", "currency"), ("h.structure", "structure")))
#: a table's columns (what :data:`_TABLE_KEY` is made of), compared as they are stored: a hand at a touched
#: hand's table takes its keys from that table's row (``fb_places``), not made again for every stored hand
_TABLE_COLUMNS = ((_DEALT_BY, "dealt_by"), ("h.is_tournament", "is_tournament"), (PLACE, "place"),
                  ("h.small_bet", "small_bet"), ("h.big_bet", "big_bet"), ("h.currency", "currency"),
                  ("h.structure", "structure"))
_SAME_TABLE = " AND ".join(f"{stored} IS NOT DISTINCT FROM p.{name}" for stored, name in _TABLE_COLUMNS)


#: the hands an import's workers judged whole (an Arrow table: hk, ante, bring_in) and who tells which of them
#: their tables confirm (from how the tables posted and each hand's (hk, table key, ante, bring_in))
Alone = tuple["pa.Table", Callable[[Patterns, Iterable[tuple[int, str | None, int | None, int | None]]], Iterable[int]]]


def choose(store: Store, touched: str, params: Sequence[Any], profile: str | None,
           settled: Callable[[Patterns, Patterns], Iterable[str]] | None = None, owned_codes: Sequence[str] = (),
           alone: Alone | None = None, counted: bool = False) -> int:
    """Choose the hands to judge (``fb_judged``, numbered ``n`` from 0 with each table's hands together)
    and return how many. ``touched`` is a SQL condition on ``hands h``. With ``profile`` None (an
    import's batch) every replayed hand whose forced bets may now be judged otherwise is chosen, under its
    own profile: the non-header hands at the tables of the touched hands, and at their levels those no
    table decided; with a profile (``audit --rules``), the touched hands under it. Only the hands at the
    touched hands' levels are read, and of them only the chosen are kept (``fb_judged``). How the hands of
    a table posted is read from the store's counts (:mod:`hhtool.store.forced_bet_votes`), for ``settled``
    and once (``fb_patterns``) for every slice :func:`gather` gives.

    ``settled`` (an import's batch) is asked, from how the touched hands' tables posted with the touched
    hands (first) and how the touched hands alone did, which of those tables the touched hands leave as
    they were; their other hands whose stored judgement cannot change then are not chosen: each forced bet
    the history does not state judged by the table (source ``context``; a bring-in no one posted is not
    judged: a hand with none, 2.5 % of simulated hands, was judged again with every batch at its table),
    no finding of the pass's codes (``owned_codes``), no note on a farther source that differs (the words
    of those count the table's hands).

    ``alone`` (an import's batch): the touched hands judged whole by the workers, and who tells, from how
    their tables posted with the touched hands, which of them keep that judgement: those are not chosen
    (``fb_alone``), nor judged again as hands at the touched tables. ``counted``: the touched hands are the
    batch :func:`hhtool.store.forced_bet_votes.add_hands` has just counted in this transaction; how they
    posted at their tables is read from those counts (``ADDED``), not counted again from their posts."""
    run = store.run
    run(f"CREATE OR REPLACE TEMP TABLE fb_touched AS SELECT h.hk, {', '.join(_LEVEL_COLUMNS)} FROM hands h "
        f"WHERE {touched}", list(params))
    # the touched hands' tables (their keys made once a table: making them for each of a big table's stored
    # hands was most of the choice, 231 of 367 ms CPU for 2,000 hands added to a table of 126,000, #37)
    run(f"""CREATE OR REPLACE TEMP TABLE fb_places AS
            SELECT DISTINCT {', '.join(f'{stored} AS {name}' for stored, name in _TABLE_COLUMNS)},
                   {_TABLE_KEY} AS tkey, {_LEVEL_KEY} AS lkey
            FROM hands h WHERE h.hk IN (SELECT hk FROM fb_touched) AND {PLACE} IS NOT NULL""")
    # How the hands of a table posted is read from the store's counts (forced_bet_votes, which count the
    # touched hands already: they are written with them), the touched hands' own patterns counted apart (for
    # ``settled``) from their posts (or read from the batch's counts, ``counted``): reading the posts of every
    # hand at those tables made a batch cost what its tables held, not what it brought (#37,
    # benchmarks/RESULTS.md). The posts are read only of the hands chosen to be judged (fb_posts).
    kept: list[str] = []
    confirmed: list[int] = []
    if (settled is not None or alone is not None) and profile is None:
        at_touched_tables = "SELECT tkey FROM fb_places"
        with_batch = _patterns(run(f"SELECT place_key, kind, amounts, posted, hands FROM {VOTES_TABLE} "
                                   f"WHERE scope = 'table' AND place_key IN ({at_touched_tables})"))
    if alone is not None and profile is None:
        given, confirm = alone
        with store.registered("fb_alone_given", given):
            judged_alone = run(f"""SELECT g.hk, p.tkey, g.ante, g.bring_in FROM fb_alone_given g
                                   JOIN hands h ON h.hk = g.hk JOIN fb_places p ON {_SAME_TABLE}
                                   WHERE g.hk IN (SELECT hk FROM fb_touched)""")  # (a touched hand only)
        confirmed = sorted(confirm(with_batch, judged_alone))
    run("CREATE OR REPLACE TEMP TABLE fb_alone AS SELECT unnest(?::BIGINT[]) AS hk", [confirmed])
    if settled is not None and profile is None:
        touched_at_tables = f"""(SELECT h.hk, p.tkey AS k, TRUE AS chosen FROM hands h JOIN fb_places p ON {_SAME_TABLE}
                                 WHERE h.hk IN (SELECT hk FROM fb_touched))"""
        batch = _patterns(run(f"SELECT k, kind, amounts, posted, hands FROM {_ADDED}" if counted else
                              f"SELECT k, kind, amounts, posted, hands FROM "
                              f"({_PATTERNS.format(posts=_POSTS.format(hands='fb_touched'), hands=touched_at_tables)})"))
        kept = sorted(settled(with_batch, batch))
    open_sources = f"('{StakeSource.POSTED}', '{StakeSource.SITE}', '{StakeSource.STRUCTURE}')"
    judged_by_table = f"('{StakeSource.HEADER}', '{StakeSource.CONTEXT}')"
    # at the touched hands' levels: the touched hands, the hands at their tables (p), and those whose forced
    # bets no table decided; only those chosen are kept (fb_judged), their columns read then
    scope = ("chosen" if profile is not None else f"""h.verdict IS NOT NULL AND (chosen OR p.tkey IS NOT NULL
             OR h.ante_source IN {open_sources} OR h.bring_in_source IN {open_sources})""")
    codes = ", ".join(f"'{code}'" for code in owned_codes) or "NULL"
    unchanged = f"""NOT chosen AND coalesce(p.tkey IN (SELECT unnest(?::VARCHAR[])), FALSE)
        AND NOT list_contains(coalesce(h.note_topics, []), '{NoteTopic.STRUCTURE_DIFFERS}')
        AND h.ante_source IN {judged_by_table}
        AND (h.bring_in_source IN {judged_by_table} OR h.hk NOT IN (
             SELECT a.hk FROM {KEYED}.actions a WHERE a.kind = 'bring_in'
             AND a.hk IN (SELECT hk FROM hands WHERE bring_in_source NOT IN {judged_by_table})))
        AND NOT EXISTS (SELECT 1 FROM {KEYED}.violations v WHERE v.hk = h.hk
                        AND v.profile = h.rules_profile AND v.code IN ({codes}))"""
    run(f"""CREATE OR REPLACE TEMP TABLE fb_judged AS
            SELECT h.hk, h.site, h.hand_id, {_DEALT_BY} AS dealt_by, h.file, h.table_name, h.tournament_id,
                   h.is_tournament, h.small_bet, h.big_bet, h.currency, h.unit, h.structure,
                   list_contains(coalesce(h.note_topics, []), '{NoteTopic.PRIVATE_TABLE}') AS private,
                   CASE WHEN p.tkey IS NOT NULL THEN p.tkey ELSE {_TABLE_KEY} END AS tkey,
                   CASE WHEN p.tkey IS NOT NULL THEN p.lkey ELSE {_LEVEL_KEY} END AS lkey,
                   h.ante_source, h.bring_in_source, chosen, coalesce(?, h.rules_profile) AS profile,
                   row_number() OVER (ORDER BY tkey NULLS LAST, h.hk) - 1 AS n
            FROM (SELECT *, hk IN (SELECT hk FROM fb_touched) AS chosen FROM hands
                  WHERE hk NOT IN (SELECT hk FROM fb_alone)) h
            SEMI JOIN (SELECT DISTINCT * EXCLUDE (hk) FROM fb_touched) l ON {_SAME_LEVEL}
            LEFT JOIN fb_places p ON {_SAME_TABLE}
            WHERE (h.ante_source <> 'header' OR h.bring_in_source <> 'header') AND {scope}
              AND NOT ({unchanged})""", [profile, kept])
    run(f"CREATE OR REPLACE TEMP TABLE fb_posts AS {_POSTS.format(hands='(SELECT hk FROM fb_judged)')}")
    # how the hands of the chosen hands' tables posted (for every slice gather gives)
    run(f"""CREATE OR REPLACE TEMP TABLE fb_patterns AS SELECT place_key AS k, kind, amounts, posted, hands
            FROM {VOTES_TABLE} WHERE scope = 'table' AND place_key IN (SELECT tkey FROM fb_judged)""")
    return int(run("SELECT count(*) FROM fb_judged")[0][0])



def _patterns(rows: Iterable[tuple[Any, ...]]) -> Patterns:
    """Rows (key, kind, amounts, posted, hands) as :data:`Patterns`."""
    found: Patterns = {}
    for key, kind, amounts, posted, hands in rows:
        found.setdefault((key, kind), []).append((tuple(amounts), bool(posted), int(hands)))
    return found


def gather(store: Store, first: int, stop: int) -> Evidence:
    """The evidence of the chosen hands numbered ``first`` to ``stop`` - 1 (see :func:`choose`): a slice,
    so that what is held in memory does not grow with the hands an import brings. Each of its tables
    is read as Arrow columns in hand order and cut into each hand's rows here (before: a Python tuple a
    value and temporary tables a slice; lists aggregated by DuckDB cost more than they saved: 2,500
    real hands' posts 18 -> 33 ms CPU)."""
    slice_ = [first, stop]
    hands = _arrow(store, f"SELECT {', '.join(_JUDGED_NAMES)} FROM fb_judged WHERE n >= ? AND n < ? ORDER BY hk", slice_)
    keys = hands.column("hk").to_pylist()
    lists = [_rows_by_hand(_arrow(store, sql, slice_)) for sql in _EVIDENCE]
    rows = list(zip(*(hands.column(name).to_pylist() for name in _JUDGED_NAMES), strict=True))
    evidence = [(*row, *(found.get(hk, []) for found in lists)) for hk, row in zip(keys, rows, strict=True)]
    tables = _patterns(store.run(
        "SELECT * FROM fb_patterns WHERE k IN (SELECT tkey FROM fb_judged WHERE n >= ? AND n < ?)", slice_))
    return Evidence(evidence, tables)


def level_patterns(store: Store, levels: Iterable[str]) -> Patterns:
    """How every hand at these levels (by key), over all their tables, posted its forced bets (the store's
    counts, :mod:`hhtool.store.forced_bet_votes`)."""
    return _patterns(stored_counts(store, "level", list(levels)))


def _arrow(store: Store, sql: str, params: Sequence[Any]) -> pa.Table:
    """A query's result as Arrow columns (a value becomes a Python object only as its column is read)."""
    try:
        return store.con.sql(sql, params=list(params)).to_arrow_table()
    except Exception as error:  # (duckdb.Error: DuckDB loads on first use, hhtool.store)
        raise_if_interrupted(error)
        raise


def _rows_by_hand(table: pa.Table) -> dict[int, list[tuple[Any, ...]]]:
    """Rows whose first column is their hand's key, as each hand's rows (the rest of their columns, in
    order): each column converted whole (``to_pylist`` a column, not a value). (Cutting the rows where
    the key changes, ``run_end_encode``, measured no faster: 20,622 posts 8-9 against 10 ms.)"""
    found: dict[int, list[tuple[Any, ...]]] = {}
    rows = zip(*(column.to_pylist() for column in table.columns[1:]), strict=True)
    for hk, row in zip(table.column(0).to_pylist(), rows, strict=True):
        found.setdefault(hk, []).append(row)
    return found


#: the values of a hand to judge (HAND_FIELDS' first, in order; fb_judged's names)
_JUDGED_NAMES = ("hk", "site", "hand_id", "dealt_by", "file", "profile", "table_name", "tournament_id", "is_tournament",
                 "small_bet", "big_bet", "currency", "unit", "structure", "tkey", "lkey", "private", "ante_source",
                 "bring_in_source")

#: a hand's stored judgement rows, as the replay reads them (``hhtool.replay.table_pass.HandRow``)
_FINDINGS = {"violations": "x.code, x.street, x.player, x.expected, x.actual, x.message, x.file, x.line",
             "unverifiable": "x.check_code, x.reason, x.line", "assumptions": "x.kind, x.value, x.words, x.line"}

_SLICE = "(SELECT hk, profile FROM fb_judged WHERE n >= ? AND n < ?)"
#: the rows of each hand of a slice of fb_judged (its hands numbered ``n`` from the first parameter to before
#: the second), by its key (HAND_FIELDS' last, in order): its posts (kind, player, amount, line, all-in) in
#: order; the players dealt in who posted no ante (seated, not sitting out, a 3rd-street card or action) in
#: seat order; its stored findings in the order stored
_EVIDENCE = (
    f"""SELECT p.hk, p.kind, p.player, p.amount, p.line, p.all_in FROM fb_posts p SEMI JOIN {_SLICE} j USING (hk)
        ORDER BY p.hk, p.seq""",
    # (the seats that posted no ante found first, their cards and actions then: as correlated EXISTS on
    # the whole tables DuckDB took 18 ms for 2,500 hands)
    f"""WITH unanted AS (SELECT s.hk, s.player, s.line, s.seq FROM keyed.seats s SEMI JOIN {_SLICE} j USING (hk)
            ANTI JOIN (SELECT hk, player FROM fb_posts WHERE kind = 'ante') p ON p.hk = s.hk AND p.player = s.player
            WHERE NOT s.sitting_out),
        dealt AS (SELECT c.hk, c.player FROM keyed.cards c SEMI JOIN unanted u ON u.hk = c.hk AND u.player = c.player
                  WHERE c.street = 3
                  UNION SELECT a.hk, a.player FROM keyed.actions a SEMI JOIN unanted u ON u.hk = a.hk AND u.player = a.player
                  WHERE a.street = 3 AND a.kind <> 'ante')
        SELECT u.hk, u.player, u.line FROM unanted u SEMI JOIN dealt d ON d.hk = u.hk AND d.player = u.player
        ORDER BY u.hk, u.seq""",
    *(f"""SELECT x.hk, {columns} FROM {KEYED}.{table} x JOIN {_SLICE} j ON j.hk = x.hk AND j.profile = x.profile
          ORDER BY x.hk, x.rowid""" for table, columns in _FINDINGS.items()),
)


def drop_scratch(store: Store) -> None:
    for name in _SCRATCH:
        store.run(f"DROP TABLE IF EXISTS {name}")


__all__ = ["HAND_FIELDS", "Evidence", "Patterns", "any_hand", "awaiting_judgement", "choose", "drop_scratch", "gather",
           "has_never_judged", "level_patterns", "never_judged"]
