"""The ``player_facts`` cache: the player-hand facts of :mod:`hhtool.store.player_facts`, stored once.

A stored hand never changes (hands are only added, each with all its rows in one transaction), and
every window and join of the facts query stays inside one hand, so the facts of a batch of hands are
the facts computed over everything. :func:`refresh_facts` therefore computes facts only for the hands
not covered yet, a bounded batch at a time, one transaction per batch; reports then read the stored rows
(through the view ``player_facts``, which adds the hand columns the filters need) and their sums.

The tables are derived ones (created here, not by the store's migrations):

* ``player_facts``: one row per (site, hand_id, player) dealt in: every column of the facts query (a view:
  the rows are stored narrow in ``player_facts_rows``, :mod:`hhtool.store.facts_storage`);
* ``player_facts_daily``: the same facts summed per player, day and kind of table (the
  :data:`DAILY_KEYS`): what ``hhtool stats`` sums, far fewer rows than ``player_facts``; one row
  per key at every commit: sums are added to the stored rows of their keys
  (:func:`hhtool.store.sums.sums_added`), so SQL and Parquet readers never see a key twice, even
  while an import runs or after one was killed;
* ``player_facts_door``: the same sums with the door card in place of the starting-hand group (the
  :data:`DOOR_KEYS`), for ``stats --by door-card``; kept exactly like ``player_facts_daily`` (the
  tables of sums are listed in :data:`SUMMED`). A key of its own rather than one more key of the
  daily sums: the door card times the starting-hand group made those ≈7 times as many rows, and
  every other report slower (#26);
* ``player_facts_hands``: one row per hand whose facts are stored, by its ``hk`` (a hand nobody was
  dealt in has no player row, yet it is done);
* ``player_facts_unsummed``: the hands (``hk``) among those whose rows are stored but not yet in the sums.
  An import writes each batch's facts rows (its workers tabulated them) with the batch, and sums them
  once its workers have stopped (:meth:`BatchFacts.finish`): summed in each batch's transaction, DuckDB's
  grouping of ≈ 120 sums held ≈ 130 MiB more in the importing process while the workers ran (#37).
  Reports add these hands' sums from their rows (:func:`summed_facts`); the next refresh sums them;
* ``facts_version``: one row naming the facts definition the rows were computed with; when it is
  not this code's :func:`facts_version`, every table of the cache is dropped and rebuilt.

Hands are never deleted (but a growing file's cut last hand, with its facts: hhtool.store.replaced_hands) and
covered hands are recorded in the transaction that stores their facts, so the cache is complete exactly when it
covers as many hands as ``hands`` holds and none is left unsummed.

A store whose daily sums (or door sums) are split (each batch's appended, the merge never run: an older hhtool
stopped between its last batch and its merge) is merged by the next refresh: every import ends with
one, even an import storing nothing, and a report that refreshes runs one.

A store that was not refreshed (read-only, or written by something that does not refresh) still
reports right: :func:`selected_facts` and :func:`summed_facts` compute the hands not covered on the fly.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from functools import cache
from typing import TYPE_CHECKING, Any

import duckdb

from hhtool.store import Store, raise_if_interrupted
from hhtool.store.facts_storage import ROWS_TABLE, facts_view_sql, rows_table_ddl, stored_rows_sql, view_ddl
from hhtool.store.filters import HandFilter
from hhtool.store.player_facts import (
    CARD_VALUES_VIEW,
    COVERED_TABLE,
    FACTS_TABLE,
    card_values_registered,
    counted_columns,
    evaluated_cards,
    hands_facts_sql,
    showdown_cards_sql,
)
from hhtool.store.sums import split_keys, sums_added

if TYPE_CHECKING:
    import pyarrow as pa

#: bump when the facts change while the SQL text does not (the evaluator, say); the SQL is hashed in too
#: 2: the covered hands by hk; 3: each row's hand key and starting-hand group, summed by group; 4: the door sums;
#: 5: the all-in EV net (thousandths) and its big bets; 6: ``started_at`` is the hand's UTC instant
#: (``hands.started_utc``), the sums cut to its hour; 7: the rows stored narrow (``player_facts_rows``: the player's
#: own columns, 0/1 counts in one byte), ``player_facts`` a view adding the hand's columns (hhtool.store.facts_storage)
FACTS_DEFINITION = 7
#: hands whose facts are computed and inserted per transaction (memory stays bounded)
BATCH_HANDS = 20_000
#: facts rows an import's batch sums at a time (:meth:`BatchFacts.add_sums`)
SUMMED_ROWS = 10_000
DAILY_TABLE, DOOR_TABLE, VERSION_TABLE = "player_facts_daily", "player_facts_door", "facts_version"
#: the hands whose facts rows are stored and not yet summed (module docstring)
UNSUMMED_TABLE = "player_facts_unsummed"
CACHE_TABLES = (ROWS_TABLE, DAILY_TABLE, DOOR_TABLE, COVERED_TABLE, UNSUMMED_TABLE)
#: what the daily sums are grouped by: the player, every hand column a filter or breakdown reads, and
#: ``started_at`` (the UTC instant) cut to the hour (``--from``/``--to`` select whole days of the user's zone, which
#: are whole UTC hours in every zone of a whole-hour offset, so they select the same rows as the hands' instants);
#: ``start``, the player's starting-hand group (``--by start``: a few dozen per player and day)
DAILY_KEYS = ("player", "site", "currency", "unit", "small_bet", "big_bet", "stakes", "is_tournament", "table_size",
              "started_at", "month", "start")
#: the door sums' keys: the daily ones with the door card (``--by door-card``) in place of ``start``
DOOR_KEYS = (*(key for key in DAILY_KEYS if key != "start"), "door_card")
#: the cache tables of sums, with their keys: a batch's rows are added to the stored row of their key;
#: a report summing per some keys reads the first whose keys hold them all (:func:`summed_facts`)
SUMMED = {DAILY_TABLE: DAILY_KEYS, DOOR_TABLE: DOOR_KEYS}

#: the store's tables the facts query reads
FACTS_INPUTS = ("hands", "actions", "cards", "seats", "results", "showdown", "awards")

#: a condition on ``hands h``: the hand's facts are not stored
NOT_COVERED = f"NOT EXISTS (SELECT 1 FROM {COVERED_TABLE} c WHERE c.hk = h.hk)"


def facts_version() -> str:
    """The facts definition in force: its number and a digest of the facts query and its sums.

    >>> facts_version().startswith(f"{FACTS_DEFINITION}-")
    True
    """
    return f"{FACTS_DEFINITION}-{_sql_digest()}"


@cache
def _sql_digest() -> str:
    sql, _ = hands_facts_sql("TRUE", [])
    text = sql + rows_table_ddl() + facts_view_sql()  # (how the rows are stored is part of the definition)
    text += "".join(daily_sums_sql("facts", keys) + resum_sql("daily", keys) for keys in SUMMED.values())
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def daily_sums_sql(facts: str, keys: tuple[str, ...] = DAILY_KEYS) -> str:
    """Sum the facts rows of the query ``facts`` per ``keys`` (``started_at`` cut to the hour):
    ``hands``, ``net``, ``net_showdown``, ``big_bets`` and ``big_bets_known`` (hands whose big bet
    is known), ``rake_paid``, and every counted column under its own name."""
    columns = [("date_trunc('hour', started_at) AS started_at" if key == "started_at" else key) for key in keys]
    sums = ["CAST(count(*) AS BIGINT) AS hands", "CAST(sum(net) AS BIGINT) AS net",
            "CAST(sum(net * went_sd) AS BIGINT) AS net_showdown", "sum(big_bets) AS big_bets",
            "CAST(count(big_bets) AS BIGINT) AS big_bets_known", "CAST(sum(rake_paid) AS BIGINT) AS rake_paid",
            "CAST(sum(ev_net_milli) AS BIGINT) AS ev_net_milli", "sum(ev_big_bets) AS ev_big_bets",
            *(f"CAST(sum({name}) AS BIGINT) AS {name}" for name in counted_columns())]
    return f"SELECT {', '.join(columns)}, {', '.join(sums)} FROM ({facts}) f GROUP BY ALL"


def resum_sql(sums: str, keys: tuple[str, ...]) -> str:
    """Rows of daily sums (the query ``sums``) summed again per ``keys``, in the same shape."""
    columns = [f"CAST(sum({name}) AS BIGINT) AS {name}"
               for name in ("hands", "net", "net_showdown", "big_bets_known", "rake_paid", "ev_net_milli",
                            *counted_columns())]
    return (f"SELECT {', '.join(keys)}, sum(big_bets) AS big_bets, sum(ev_big_bets) AS ev_big_bets, "
            f"{', '.join(columns)} FROM ({sums}) s GROUP BY ALL")


#: what a current cache has: its tables, and ``player_facts`` as a view (an older cache kept its rows in a table
#: of that name)
_CURRENT = {**dict.fromkeys((*CACHE_TABLES, VERSION_TABLE), "TABLE"), FACTS_TABLE: "VIEW"}


def _present(store: Store) -> dict[str, str]:
    """Which of the cache's tables and views the store has, each as "TABLE" or "VIEW"."""
    names = list(_CURRENT)
    marks = ", ".join("?" for _ in names)
    rows = store.run(
        f"SELECT table_name, 'TABLE' FROM duckdb_tables() WHERE table_name IN ({marks}) "
        "AND database_name = current_database() AND schema_name = 'main' "
        f"UNION ALL SELECT view_name, 'VIEW' FROM duckdb_views() WHERE view_name IN ({marks}) "
        "AND database_name = current_database() AND schema_name = 'main'", [*names, *names],
    )
    return {str(name): str(kind) for name, kind in rows}


def stored_version(store: Store) -> str | None:
    """The facts version the cache was built with (None: no cache)."""
    if VERSION_TABLE not in _present(store):
        return None
    rows = store.run(f"SELECT max(version) FROM {VERSION_TABLE}")
    return None if rows[0][0] is None else str(rows[0][0])


def cache_is_current(store: Store) -> bool:
    """The cache exists and holds facts of this code's definition (maybe not of every hand)."""
    if _present(store) != _CURRENT:
        return False
    return str(store.run(f"SELECT max(version) FROM {VERSION_TABLE}")[0][0]) == facts_version()


def _complete(store: Store) -> bool:
    """Every hand is covered and summed (given a current cache): counting is enough, see the module docstring."""
    rows = store.run(f"SELECT (SELECT count(*) FROM hands) = (SELECT count(*) FROM {COVERED_TABLE}) "
                     f"AND NOT EXISTS (SELECT 1 FROM {UNSUMMED_TABLE})")
    return bool(rows[0][0])


def _unsummed(store: Store) -> bool:
    """Some hand's facts rows are stored and not summed (given a current cache)."""
    return bool(store.run(f"SELECT EXISTS (SELECT 1 FROM {UNSUMMED_TABLE})")[0][0])


def split_sums(store: Store) -> list[str]:
    """The tables of sums with a key of two rows (given a current cache; module docstring)."""
    return [table for table, keys in SUMMED.items() if split_keys(store, table, keys)]


def needs_refresh(store: Store) -> bool:
    """Whether :func:`refresh_facts` would store facts: no current cache, or a hand without facts.
    Reads only: safe on a store opened read-only. (Sums an older hhtool left split are not
    looked for here, on every report: ``stats`` sums them right; the next import merges them.)"""
    if not cache_is_current(store):
        return bool(store.run("SELECT EXISTS (SELECT 1 FROM hands)")[0][0])
    return not _complete(store)


def _transaction(store: Store, statements: list[tuple[str, list[Any]]]) -> None:
    store.run("BEGIN TRANSACTION")
    try:
        for sql, params in statements:
            store.run(sql, params)
        store.run("COMMIT")
    except Exception:
        store.rollback()  # (a failed COMMIT already ended it: keep its error, not the rollback's)
        raise


def _prepare(store: Store) -> None:
    """Create the cache tables if missing; drop and recreate them when the version differs."""
    version = facts_version()
    if cache_is_current(store):
        return
    kind = _present(store).get(FACTS_TABLE)  # (an older cache kept the rows in a table of that name)
    # the sums' columns and types are those of the facts query's sums (over the view: the query's types)
    _transaction(store, [
        *(((f"DROP {kind} {FACTS_TABLE}", []),) if kind else ()),
        *((f"DROP TABLE IF EXISTS {name}", []) for name in CACHE_TABLES),
        (rows_table_ddl(), []),
        (view_ddl(), []),
        *((f"CREATE TABLE IF NOT EXISTS {table} AS {daily_sums_sql(f'SELECT * FROM {FACTS_TABLE}', keys)}", [])
          for table, keys in SUMMED.items()),
        (f"CREATE TABLE IF NOT EXISTS {COVERED_TABLE} (hk BIGINT NOT NULL)", []),
        (f"CREATE TABLE IF NOT EXISTS {UNSUMMED_TABLE} (hk BIGINT NOT NULL)", []),
        (f"CREATE TABLE IF NOT EXISTS {VERSION_TABLE} (version VARCHAR NOT NULL)", []),
        (f"DELETE FROM {VERSION_TABLE}", []),
        (f"INSERT INTO {VERSION_TABLE} VALUES (?)", [version]),
    ])


def refresh_facts(store: Store, batch_hands: int = BATCH_HANDS) -> int:
    """Compute and store the facts of every hand not covered yet; returns how many hands that was
    (0, with nothing written but the empty tables, when the cache is up to date).

    Batches are consecutive runs of the pending hands' row ids (stable while this connection holds
    the file for writing), each stored in one transaction: an interrupted refresh keeps the batches
    it finished and the next one resumes. The sums of each batch (:data:`SUMMED`) are added to the
    stored rows of their keys in its transaction; sums left split by an older hhtool are merged first, and
    the stored rows not summed yet are summed (:func:`sum_stored_rows`)."""
    _prepare(store)
    for table in split_sums(store):
        merge_sums(store, table)
    sum_stored_rows(store, batch_hands)
    if _complete(store):
        return 0
    pending = [int(row[0]) for row in store.run(f"SELECT h.rowid FROM hands h WHERE {NOT_COVERED} ORDER BY 1")]
    store.run("SET enable_progress_bar = false")  # DuckDB's own bar would print under ours
    for start in range(0, len(pending), batch_hands):
        batch = pending[start:start + batch_hands]
        where, params = f"h.rowid BETWEEN ? AND ? AND {NOT_COVERED}", [batch[0], batch[-1]]
        with card_values_registered(store, where, params):
            sql, all_params = hands_facts_sql(where, params)
            store.run(f"CREATE OR REPLACE TEMP TABLE batch_facts AS {sql}", all_params)
            for table, keys in SUMMED.items():
                store.run(f"CREATE OR REPLACE TEMP TABLE batch_{table} AS {daily_sums_sql('SELECT * FROM batch_facts', keys)}")
        try:
            _transaction(store, [
                (f"INSERT INTO {ROWS_TABLE} BY NAME {stored_rows_sql('SELECT * FROM batch_facts')}", []),
                *((added, []) for table, keys in SUMMED.items()
                  for added in sums_added(store, table, keys, f"batch_{table}")),
                (f"INSERT INTO {COVERED_TABLE} SELECT h.hk FROM hands h WHERE {where}", params),
            ])
        finally:
            for name in ("batch_facts", *(f"batch_{table}" for table in SUMMED)):
                store.run(f"DROP TABLE IF EXISTS {name}")
    return len(pending)


def sum_stored_rows(store: Store, batch_hands: int = BATCH_HANDS) -> int:
    """Add the sums of the hands whose facts rows are stored but not summed (an import's, once its workers
    stopped) to the stored rows of their keys, ``batch_hands`` hands per transaction, each taking its hands
    out of ``player_facts_unsummed``; the number of hands summed. The sums are made from the rows as every
    report reads them (the view), so they are the sums a report would make of them."""
    pending = [int(row[0]) for row in store.run(f"SELECT hk FROM {UNSUMMED_TABLE} ORDER BY 1")]
    store.run("SET enable_progress_bar = false")  # DuckDB's own bar would print under ours
    for start in range(0, len(pending), batch_hands):
        batch = pending[start:start + batch_hands]
        these = f"hk BETWEEN ? AND ? AND hk IN (SELECT hk FROM {UNSUMMED_TABLE})"
        statements: list[tuple[str, list[Any]]] = []
        for table, keys in SUMMED.items():
            statements.append((f"CREATE OR REPLACE TEMP TABLE batch_sums AS "
                               f"{daily_sums_sql(f'SELECT * FROM {FACTS_TABLE} WHERE {these}', keys)}",
                               [batch[0], batch[-1]]))
            statements += [(added, []) for added in sums_added(store, table, keys, "batch_sums")]
        statements += [("DROP TABLE batch_sums", []),
                       (f"DELETE FROM {UNSUMMED_TABLE} WHERE {these}", [batch[0], batch[-1]])]
        _transaction(store, statements)
    return len(pending)


def merge_sums(store: Store, table: str = DAILY_TABLE) -> None:
    """Merge the sums of ``table`` (one of :data:`SUMMED`) appended batch by batch (by an older
    hhtool) into one row per key (the sums stay). Idempotent: merged sums are merged to themselves."""
    _transaction(store, [
        (f"CREATE OR REPLACE TEMP TABLE merged_sums AS {resum_sql(f'SELECT * FROM {table}', SUMMED[table])}", []),
        (f"DELETE FROM {table}", []),
        (f"INSERT INTO {table} BY NAME SELECT * FROM merged_sums", []),
        ("DROP TABLE merged_sums", []),
    ])


def sql_facts(tables: dict[str, pa.Table], con: duckdb.DuckDBPyConnection | None = None) -> pa.Table:
    """The facts rows of a batch's hands by the facts query of :func:`hhtool.store.player_facts.hands_facts_sql`
    (the definition, and the tests' oracle for the rows the workers tabulate), run unchanged over the batch's
    tables (``tables``: the rows of every table for exactly those hands) registered under the store's table
    names in ``con`` (default: a private in-memory DuckDB). Every window and join of the query stays inside
    one hand, so these are the rows a refresh over the store would compute."""
    from hhtool.store.tables import arrow_schema  # (the store's writing side: PyArrow)

    own = con is None
    con = con or _batch_connection()
    for name in FACTS_INPUTS:
        given = tables.get(name)
        con.register(name, given if given is not None else arrow_schema(name).empty_table())
    try:
        con.register(CARD_VALUES_VIEW, evaluated_cards(con.sql(showdown_cards_sql("TRUE", tables="")).fetchall()))
        sql, params = hands_facts_sql("TRUE", [], tables="")
        return con.sql(sql, params=params or None).to_arrow_table()
    except duckdb.Error as error:
        raise_if_interrupted(error)  # (a Ctrl-C while DuckDB read the batch's tables)
        raise
    finally:
        for name in (*FACTS_INPUTS, CARD_VALUES_VIEW):
            con.unregister(name)
        if own:
            con.close()


def _batch_connection() -> duckdb.DuckDBPyConnection:
    """A private in-memory DuckDB of one thread (the import's workers have the cores)."""
    con = duckdb.connect(":memory:", config={"threads": 1})
    con.execute("SET enable_progress_bar = false").fetchall()  # (DuckDB 2: fetch to finish)
    return con


class BatchFacts:
    """The cache rows of an import's batches, for the importer to write in each batch's own transaction
    (:meth:`tables_for`, given to :meth:`Store.write_tables` as ``derived``), and their sums once the
    import's workers have stopped (:meth:`finish`; module docstring).

    The facts rows come with the batch: the import's workers tabulated them from what the replay walked
    (:mod:`hhtool.store.facts_rows`, issue #37), with the hands they cover (``player_facts_hands``). A batch
    some of whose hands came without facts rows (tabulated by an older worker) has its facts computed here
    by the SQL definition instead (:func:`sql_facts`, #17: ≈ 72 µs per hand)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.hands = 0  # hands whose facts were given to be written
        self.by_sql = 0  # ... of them, those computed here by the SQL definition
        self._prepared = False
        self._con: duckdb.DuckDBPyConnection | None = None  # (made when a batch has no facts rows)

    def tables_for(self, tables: dict[str, pa.Table]) -> dict[str, pa.Table]:
        """The cache rows (facts rows, covered and not yet summed hands) of the hands in ``tables`` (the rows
        of every table for exactly those hands, none of them stored yet, under their stored keys)."""
        hands = tables.get("hands")
        if hands is None or not hands.num_rows:
            return {}
        if not self._prepared:
            _prepare(self.store)
            self._prepared = True
        covered = tables.get(COVERED_TABLE)
        rows = tables.get(ROWS_TABLE)
        if rows is None or covered is None or covered.num_rows != hands.num_rows:
            # (hands tabulated without their facts: the definition's rows, as stored)
            con = self._con = self._con or _batch_connection()
            con.register("batch_facts", sql_facts(tables, con))
            try:
                rows = con.sql(stored_rows_sql("SELECT * FROM batch_facts")).to_arrow_table()
            except duckdb.Error as error:
                raise_if_interrupted(error)  # (a Ctrl-C while DuckDB read the batch's rows)
                raise
            finally:
                con.unregister("batch_facts")
            self.by_sql += hands.num_rows
        self.hands += hands.num_rows
        keys = hands.select(["hk"])
        return {ROWS_TABLE: rows, COVERED_TABLE: keys, UNSUMMED_TABLE: keys}

    def finish(self) -> None:
        """After the import (its workers stopped): the sums of the rows it stored, the facts of any hand
        stored without them (before this import, by an interrupted one of an older hhtool, or with
        ``store_facts`` off), and sums an older hhtool left split merged."""
        if self._con is not None:
            self._con.close()
        refresh_facts(self.store)


@contextmanager
def _with_uncovered(store: Store, stored: str, stored_params: list[Any], hand_filter: HandFilter, condition: str,
                    condition_params: tuple[Any, ...], shape: Callable[[str], str]) -> Iterator[tuple[str, list[Any]]]:
    """``stored`` (a query on the cache, used when it is current) united with ``shape`` applied to
    the facts computed now of the selected hands the cache does not cover."""
    hand_where, hand_params = hand_filter.sql()
    hand_where, hand_params = f"{hand_where} AND {condition}", [*hand_params, *condition_params]
    parts: list[tuple[str, list[Any]]] = []
    compute = True
    if cache_is_current(store):
        parts.append((stored, stored_params))
        hand_where = f"{hand_where} AND {NOT_COVERED}"
        compute = not _complete(store) and bool(
            store.run(f"SELECT EXISTS (SELECT 1 FROM hands h WHERE {hand_where})", hand_params)[0][0])
    with ExitStack() as stack:
        if compute:
            stack.enter_context(card_values_registered(store, hand_where, hand_params))
            computed, params = hands_facts_sql(hand_where, hand_params, hand_filter.players)
            parts.append((shape(computed), params))
        yield " UNION ALL BY NAME ".join(f"({part})" for part, _ in parts), [p for _, params in parts for p in params]


def _cache_condition(hand_filter: HandFilter, condition: str, condition_params: tuple[Any, ...]) -> tuple[str, list[Any]]:
    where, params = hand_filter.facts_sql()
    return f"{where} AND {condition}", [*params, *condition_params]


@contextmanager
def selected_facts(store: Store, hand_filter: HandFilter, condition: str = "TRUE",
                   condition_params: tuple[Any, ...] = ()) -> Iterator[tuple[str, list[Any]]]:
    """A query (and its parameters) of the facts rows the filter selects, one per player and hand:
    read from the cache where it covers the hands, computed on the fly for the others (all of them
    without a current cache). ``condition`` is one more condition on hand columns, valid on ``hands h``
    and on the cache tables alike (e.g. ``h.currency = ?``). Valid inside the ``with`` block only."""
    where, params = _cache_condition(hand_filter, condition, condition_params)
    with _with_uncovered(store, f"SELECT * FROM {FACTS_TABLE} h WHERE {where}", params, hand_filter, condition,
                         condition_params, lambda computed: computed) as query:
        yield query


def sums_table(keys: tuple[str, ...]) -> str | None:
    """The first table of :data:`SUMMED` whose keys hold every one of ``keys`` (None: none does).

    >>> sums_table(("player", "start")), sums_table(("player", "door_card")), sums_table(("door_card", "start"))
    ('player_facts_daily', 'player_facts_door', None)
    """
    return next((table for table, summed in SUMMED.items() if set(keys) <= set(summed)), None)


@contextmanager
def summed_facts(store: Store, hand_filter: HandFilter, keys: tuple[str, ...]) -> Iterator[tuple[str, list[Any]]]:
    """Like :func:`selected_facts`, as rows of sums (:func:`daily_sums_sql`) with at least the
    columns ``keys`` and ``unit``: summing them per ``keys`` gives the sums over the facts rows. They
    are read from the first table of :data:`SUMMED` holding every key (the daily sums; the door sums
    for ``door_card``), with those of the hands whose rows an import stored and has not summed yet (it
    sums them once its workers stop) summed from their rows; keys none holds (and a filter on single
    hands: tags, a hand id) are summed from ``player_facts`` rows instead."""
    where, params = _cache_condition(hand_filter, "TRUE", ())
    grouped = tuple(dict.fromkeys((*keys, "unit")))
    table = sums_table(grouped)
    if table is not None and not hand_filter.tags and hand_filter.hand_id is None:  # (per-hand asks)
        stored = f"SELECT * FROM {table} h WHERE {where}"
        if cache_is_current(store) and _unsummed(store):
            rows = f"SELECT * FROM {FACTS_TABLE} h WHERE {where} AND h.hk IN (SELECT hk FROM {UNSUMMED_TABLE})"
            stored, params = f"{stored} UNION ALL BY NAME {daily_sums_sql(rows, grouped)}", [*params, *params]
    else:
        stored = daily_sums_sql(f"SELECT * FROM {FACTS_TABLE} h WHERE {where}", grouped)
    with _with_uncovered(store, stored, params, hand_filter, "TRUE", (),
                         lambda computed: daily_sums_sql(computed, grouped)) as query:
        yield query
