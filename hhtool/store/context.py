"""Table context: forced bets are table parameters, judged across the hands of a table.

Most sites state the small and big bet but not the ante or the bring-in. A hand's own posts are
then its claim, not a fact (:class:`hhtool.model.StakeSource` ``posted``), and the replay does not
judge a post against itself. This pass learns each table's forced bets from the stored hands of
the same table and stakes, and judges every hand against what the *other* hands show:

* a table is (site, table name, small bet, big bet, currency, structure) for cash games and
  (site, tournament id, small bet, big bet, currency, structure) in tournaments: one level; the
  site of a converted history (a PHH file hhtool wrote) is the site that dealt it;
* each hand votes once per forced bet: the amount of its bring-in when not all-in, and the most
  frequent of its antes that are not all-in (0 when it posts no ante at all); a hand whose posts
  are all all-in does not vote;
* the table's value is the one a **strict majority** of the voting hands agree on, the hand
  itself included, and it must be supported by at least one other hand: a hand is never judged
  by its own vote alone, and two hands that disagree accuse neither (no majority);
* a post that differs from the table's value is a violation saying what the other hands posted;
  all-in for less is legal; a hand alone at its table, or among other hands that do not agree,
  is ``unverifiable`` with that reason; a bring-in not below the small (minimum) bet is a
  violation in any case.

Where a header states a value the replay judges it and this pass leaves the hand alone. The pass
owns the ``ANTE`` findings of hands whose ante is not stated and the ``BRING_IN_AMOUNT`` findings of
hands whose bring-in is not stated: it replaces them (the replay's placeholder included), sets the
hand's stored ante / bring-in to the table's value (source ``context``, or back to its own post,
``posted``, when there is none) and recomputes ``hands.verdict``. It is a few SQL statements over
the stored actions, run after each import for the tables the import touched.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Any

from hhtool.model import Stakes, Structure
from hhtool.money import format_money
from hhtool.replay.checks.antes import ANTE_BY_CONTEXT
from hhtool.replay.checks.bring_in import BRING_IN_BY_CONTEXT
from hhtool.replay.codes import Code
from hhtool.store import Store
from hhtool.store.spec import KEYED
from hhtool.store.tables import replay_table_of

#: the table a hand was dealt at (JSON, so that no table name can pass for another table's key): NULL
#: when the history names neither table nor tournament
_TABLE_KEY = """CASE WHEN (CASE WHEN h.is_tournament THEN h.tournament_id ELSE h.table_name END) IS NULL THEN NULL
    ELSE to_json(struct_pack(site := coalesce(h.origin_site, h.site), tournament := h.is_tournament,
                             place := CASE WHEN h.is_tournament THEN h.tournament_id ELSE h.table_name END,
                             small := h.small_bet, big := h.big_bet, currency := h.currency,
                             structure := h.structure))::VARCHAR END"""


@dataclass(frozen=True, slots=True)
class _Table:
    """What a finding says about a hand's table."""

    name: str | None
    tournament_id: str | None
    is_tournament: bool
    small_bet: int | None
    big_bet: int | None
    stakes: Stakes  # currency and unit, to write amounts
    structure: Structure

    @staticmethod
    def of(fields: list[Any]) -> _Table:
        """From the columns of _TABLE_FIELDS."""
        name, tournament, is_tournament, small, big, currency, unit, structure = fields
        return _Table(name, tournament, bool(is_tournament), small, big, Stakes(None, None, small, big, currency, unit),
                      Structure(structure))

    def money(self, amount: int) -> str:
        return format_money(amount, self.stakes.unit, self.stakes.currency)

    @property
    def words(self) -> str:
        bets = "/".join("?" if bet is None else self.money(bet) for bet in (self.small_bet, self.big_bet))
        if self.is_tournament:
            return f"tournament {self.tournament_id} at {bets}"
        return f"table '{self.name}' ({bets})"


_HAND_COLUMNS = ("hk, site, hand_id, origin_site, file, table_name, tournament_id, is_tournament, small_bet, big_bet, "
                 "currency, unit, structure, rules_profile, verdict, ante_source, bring_in_source")
#: what a finding needs to name the table: the columns of _Table, in order
_TABLE_FIELDS = "table_name, tournament_id, is_tournament, small_bet, big_bet, currency, unit, structure"


def import_mark(store: Store) -> Any:
    """The store's clock now: :func:`judge_imported_since` re-judges the tables of files imported after it."""
    return store.run("SELECT current_timestamp::TIMESTAMP")[0][0]


#: hands stored with the replay's placeholder still in place: an import killed (or stopped by a full
#: disk) after writing them but before its table-context pass; the next import judges them
_AWAITING_CONTEXT = f"""EXISTS (SELECT 1 FROM keyed.unverifiable u WHERE u.hk = h.hk
    AND u.profile = h.rules_profile AND ((u.check_code = '{Code.ANTE}' AND u.reason = ?)
                                         OR (u.check_code = '{Code.BRING_IN_AMOUNT}' AND u.reason = ?)))"""


def judge_imported_since(store: Store, mark: Any) -> int:
    """After an import: re-judge every table that a file imported since ``mark`` has hands at, and
    the tables of hands an interrupted earlier import left unjudged."""
    return judge_table_context(
        store, f"(h.file IN (SELECT path FROM files WHERE imported_at >= ?) OR {_AWAITING_CONTEXT})",
        [mark, ANTE_BY_CONTEXT, BRING_IN_BY_CONTEXT])


#: hands whose forced bets no table-context pass has judged yet (a store from before it existed): a
#: posted value the pass always leaves with a finding or turns into ``context``
_NEVER_JUDGED = f"""h.verdict IS NOT NULL AND (
    (h.ante_source = 'posted' AND NOT EXISTS (SELECT 1 FROM keyed.unverifiable u WHERE u.hk = h.hk
        AND u.profile = h.rules_profile AND u.check_code = '{Code.ANTE}'))
    OR (h.bring_in_source = 'posted' AND EXISTS (SELECT 1 FROM keyed.actions a WHERE a.hk = h.hk
        AND a.kind = 'bring_in') AND NOT EXISTS (
        SELECT 1 FROM keyed.unverifiable u WHERE u.hk = h.hk AND u.profile = h.rules_profile
        AND u.check_code = '{Code.BRING_IN_AMOUNT}') AND NOT EXISTS (
        SELECT 1 FROM keyed.violations v WHERE v.hk = h.hk AND v.profile = h.rules_profile
        AND v.code = '{Code.BRING_IN_AMOUNT}')))"""


def has_never_judged(store: Store) -> bool:
    """Whether the store holds hands stored before the table-context pass existed."""
    return bool(store.run(f"SELECT EXISTS (SELECT 1 FROM hands h WHERE {_NEVER_JUDGED})")[0][0])


def judge_never_judged(store: Store) -> int:
    """Judge the tables of hands stored before the table-context pass existed (``audit`` runs it)."""
    if not has_never_judged(store):
        return 0
    return judge_table_context(store, _NEVER_JUDGED)


def judge_table_context(store: Store, touched: str, params: list[Any] | None = None,
                        profile: str | None = None) -> int:
    """Judge the forced bets of hands against their tables' other hands, and store the findings.

    ``touched`` is a SQL condition on ``hands h`` choosing the hands whose tables are re-judged.
    With ``profile`` None every replayed hand at those tables is judged under its own profile
    (after an import); with a profile, only the chosen hands, under it (``audit --rules``).
    Returns the number of hands judged."""
    try:
        return _judge_tables(store, touched, list(params or []), profile)
    finally:
        for name in ("ctx_hands", "ctx_touched", "ctx_scope", "ctx_judged", "ctx_posts", "ctx_votes", "ctx_verdicts"):
            store.run(f"DROP TABLE IF EXISTS {name}")


def _judge_tables(store: Store, touched: str, params: list[Any], profile: str | None) -> int:
    run = store.run
    run(f"CREATE OR REPLACE TEMP TABLE ctx_hands AS SELECT {_HAND_COLUMNS}, {_TABLE_KEY} AS tkey, "
        f"({touched}) AS chosen FROM hands h", params)
    run("CREATE OR REPLACE TEMP TABLE ctx_touched AS SELECT DISTINCT tkey FROM ctx_hands WHERE tkey IS NOT NULL AND chosen")
    # the hands of the tables concerned (the voters), and those of them judged now
    run("""CREATE OR REPLACE TEMP TABLE ctx_scope AS SELECT * FROM ctx_hands
           WHERE chosen OR tkey IN (SELECT tkey FROM ctx_touched)""")
    run(f"""CREATE OR REPLACE TEMP TABLE ctx_judged AS
            SELECT hk, site, hand_id, tkey, file, {_TABLE_FIELDS}, coalesce(?, rules_profile) AS profile,
                   ante_source <> 'header' AS judge_ante, bring_in_source <> 'header' AS judge_bring_in
            FROM ctx_scope
            WHERE (ante_source <> 'header' OR bring_in_source <> 'header')
              AND {'chosen' if profile is not None else 'verdict IS NOT NULL'}""", [profile])
    judged = int(run("SELECT count(*) FROM ctx_judged")[0][0])
    if judged:
        _judge(store)
    return judged


def _judge(store: Store) -> None:
    run = store.run
    # every forced bet of those hands; all-in when flagged or when it takes the whole stack
    run("""CREATE OR REPLACE TEMP TABLE ctx_posts AS
           SELECT a.site, a.hand_id, h.tkey, a.player, a.kind, a.amount, a.line, a.seq, a.all_in AS flagged,
                  a.all_in OR (s.stack IS NOT NULL AND sum(a.amount) OVER (
                      PARTITION BY a.site, a.hand_id, a.player ORDER BY a.seq) >= s.stack) AS all_in
           FROM actions a JOIN ctx_scope h ON a.site = h.site AND a.hand_id = h.hand_id
           LEFT JOIN seats s ON s.site = a.site AND s.hand_id = a.hand_id AND s.player = a.player
           WHERE a.kind IN ('ante', 'bring_in')""")
    run("""CREATE OR REPLACE TEMP TABLE ctx_votes AS
           WITH antes AS (
               SELECT site, hand_id, tkey, amount, count(*) AS n FROM ctx_posts
               WHERE kind = 'ante' AND NOT all_in GROUP BY site, hand_id, tkey, amount
               QUALIFY row_number() OVER (PARTITION BY site, hand_id ORDER BY n DESC, amount) = 1),
           silent AS (  -- a hand that posts no ante at all votes for no ante
               SELECT h.site, h.hand_id, h.tkey, 0 AS amount FROM ctx_scope h
               ANTI JOIN (SELECT DISTINCT site, hand_id FROM ctx_posts WHERE kind = 'ante') p
                    ON p.site = h.site AND p.hand_id = h.hand_id)
           SELECT site, hand_id, tkey, 'ante' AS kind, amount AS vote FROM antes
           UNION ALL SELECT site, hand_id, tkey, 'ante', amount FROM silent
           UNION ALL SELECT site, hand_id, tkey, 'bring_in', min(amount) FROM ctx_posts
                     WHERE kind = 'bring_in' AND NOT all_in GROUP BY ALL""")
    run("""CREATE OR REPLACE TEMP TABLE ctx_verdicts AS
           WITH tally AS (SELECT tkey, kind, vote, count(*) AS n FROM ctx_votes WHERE tkey IS NOT NULL GROUP BY ALL),
           tops AS (SELECT tkey, kind, sum(n) AS total, arg_max(vote, n) AS top, max(n) AS top_n FROM tally GROUP BY ALL),
           brought AS (SELECT DISTINCT site, hand_id FROM ctx_posts WHERE kind = 'bring_in'),
           asked AS (
               SELECT j.*, 'ante' AS kind FROM ctx_judged j WHERE j.judge_ante
               UNION ALL
               SELECT j.*, 'bring_in' FROM ctx_judged j SEMI JOIN brought b ON b.site = j.site AND b.hand_id = j.hand_id
               WHERE j.judge_bring_in),
           counted AS (
               SELECT a.*, v.vote AS own, t.top, coalesce(t.total, 0) AS total, coalesce(t.top_n, 0) AS top_n,
                      coalesce(v.vote = t.top, false)::INT AS own_top, (v.vote IS NOT NULL)::INT AS voted
               FROM asked a LEFT JOIN ctx_votes v ON v.site = a.site AND v.hand_id = a.hand_id AND v.kind = a.kind
               LEFT JOIN tops t ON t.tkey = a.tkey AND t.kind = a.kind)
           SELECT *, total - voted AS others, top_n - own_top AS others_top,
                  CASE WHEN tkey IS NULL OR total - voted = 0 THEN 'alone'
                       WHEN 2 * top_n > total AND top_n - own_top >= 1 THEN 'context' ELSE 'split' END AS status
           FROM counted""")
    _store_findings(store, _findings(store))


@dataclass
class _Findings:
    violations: list[tuple[Any, ...]]
    unverifiable: list[tuple[Any, ...]]


def _findings(store: Store) -> _Findings:
    run = store.run
    violations: list[tuple[Any, ...]] = []
    unverifiable: list[tuple[Any, ...]] = []
    not_below: set[tuple[str, str, str]] = set()
    # the other hands' votes at tables where they do not agree, for the words of a finding
    tallies: dict[tuple[str, str], Counter[int]] = defaultdict(Counter)
    for tkey, kind, vote, n in run("SELECT tkey, kind, vote, count(*) FROM ctx_votes WHERE tkey IN "
                                   "(SELECT tkey FROM ctx_verdicts WHERE status = 'split') GROUP BY ALL"):
        tallies[(tkey, kind)][vote] = n
    for site, hand_id, tkey, kind, own, profile, status, *fields in run(
            f"SELECT site, hand_id, tkey, kind, own, profile, status, {_TABLE_FIELDS} FROM ctx_verdicts "
            "WHERE status <> 'context'"):
        table = _Table.of(fields)
        what = "ante" if kind == "ante" else "bring-in"
        if tkey is None:
            reason = (f"the site does not state the {what} and the history names no "
                      f"{'tournament' if table.is_tournament else 'table'} to learn it from")
        elif status == "alone":
            reason = f"the site does not state the {what} and no other hand at {table.words} is stored to learn it from"
        else:
            others = tallies[(tkey, kind)].copy()
            if own is not None:
                others[own] -= 1
            verb = "anted" if kind == "ante" else "brought in for"
            counts = ", ".join(f"{n} {verb} {table.money(vote)}" for vote, n in
                               sorted(others.items(), key=lambda item: (-item[1], item[0])) if n > 0)
            reason = (f"the site does not state the {what} and the other hands at {table.words} "
                      f"do not agree on it: {counts}")
        unverifiable.append((site, hand_id, profile, Code.ANTE if kind == "ante" else Code.BRING_IN_AMOUNT, reason, None))
    for site, hand_id, profile, file, kind, player, amount, line, all_in, top, others_top, problem, *fields in run(
            _WRONG_POSTS):
        table = _Table.of(fields)
        money = table.money
        code = Code.ANTE if kind == "ante" else Code.BRING_IN_AMOUNT
        hands = f"{others_top} other hand{'s' if others_top != 1 else ''} at {table.words}"
        how = " all-in" if all_in else ""
        if problem == "not_below":
            small = money(table.small_bet or 0)
            below = "small bet" if table.structure is Structure.FIXED_LIMIT else "minimum bet"
            row = (f"less than {small}", money(amount), f"{player} brought in for {money(amount)}, not below the {below} {small}")
        elif problem == "twice":
            row = ("one ante", "a second ante", f"{player} posted the ante twice")
        elif problem == "missing":
            row = (money(top), "none", f"{player} was dealt in without posting an ante; {hands} anted {money(top)}")
        elif kind == "bring_in":
            row = (money(top), money(amount), f"{player} brought in for {money(amount)}{how}; {hands} brought in for "
                   f"{money(top)}")
        else:
            row = (money(top), money(amount), f"{player} anted {money(amount)}{how}; {hands} anted {money(top)}")
        violations.append((site, hand_id, profile, code, 3, player, *row, file, line))
        if problem == "not_below":
            not_below.add((site, hand_id, profile))
    # a bring-in that is no bring-in at all is the finding, whatever the table's amount
    unverifiable = [row for row in unverifiable if row[3] is not Code.BRING_IN_AMOUNT or row[:3] not in not_below]
    return _Findings(violations, unverifiable)


_C_FIELDS = ", ".join("c." + name for name in _TABLE_FIELDS.split(", "))

#: posts that break the table's forced bets, problem one of wrong, not_below, twice, missing. A
#: short all-in post is legal; more than the table's value never is.
_WRONG_POSTS = f"""
WITH context AS (SELECT * FROM ctx_verdicts WHERE status = 'context'),
wrong AS (
    SELECT c.site, c.hand_id, c.profile, c.file, p.kind, p.player, p.amount, p.line, p.all_in, c.top, c.others_top,
           'wrong' AS problem, {_C_FIELDS}
    FROM context c JOIN ctx_posts p ON p.site = c.site AND p.hand_id = c.hand_id AND p.kind = c.kind
    WHERE ((NOT p.all_in AND p.amount <> c.top) OR p.amount > c.top)
      AND NOT (p.kind = 'bring_in' AND NOT p.all_in AND c.small_bet IS NOT NULL AND p.amount >= c.small_bet)
),
not_below AS (
    SELECT c.site, c.hand_id, c.profile, c.file, p.kind, p.player, p.amount, p.line, p.all_in, NULL, NULL,
           'not_below', {_C_FIELDS}
    FROM ctx_verdicts c JOIN ctx_posts p ON p.site = c.site AND p.hand_id = c.hand_id AND p.kind = 'bring_in'
    WHERE c.kind = 'bring_in' AND NOT p.all_in AND c.small_bet IS NOT NULL AND p.amount >= c.small_bet
),
twice AS (
    SELECT c.site, c.hand_id, c.profile, c.file, 'ante', p.player, NULL, p.line, false, NULL, NULL, 'twice',
           {_C_FIELDS}
    FROM (SELECT site, hand_id, player, max(line) AS line FROM ctx_posts WHERE kind = 'ante'
          GROUP BY site, hand_id, player HAVING count(*) > 1) p
    JOIN ctx_verdicts c ON c.site = p.site AND c.hand_id = p.hand_id AND c.kind = 'ante'
),
missing AS (  -- seated, not sitting out, dealt in (a 3rd-street card or action), no ante where the table has one
    SELECT c.site, c.hand_id, c.profile, c.file, 'ante', s.player, NULL, s.line, false, c.top, c.others_top,
           'missing', {_C_FIELDS}
    FROM context c JOIN seats s ON s.site = c.site AND s.hand_id = c.hand_id AND NOT s.sitting_out
    ANTI JOIN (SELECT site, hand_id, player FROM ctx_posts WHERE kind = 'ante') p
         ON p.site = s.site AND p.hand_id = s.hand_id AND p.player = s.player
    SEMI JOIN (SELECT site, hand_id, player FROM cards WHERE street = 3
               UNION ALL SELECT site, hand_id, player FROM actions WHERE street = 3 AND kind <> 'ante') d
         ON d.site = s.site AND d.hand_id = s.hand_id AND d.player = s.player
    WHERE c.kind = 'ante' AND c.top > 0
)
SELECT * FROM wrong UNION ALL SELECT * FROM not_below UNION ALL SELECT * FROM twice UNION ALL SELECT * FROM missing
"""


def _store_findings(store: Store, findings: _Findings) -> None:
    """Replace the judged hands' context findings, set their stakes, recompute their verdicts."""
    run = store.run
    run("BEGIN TRANSACTION")
    try:
        for table, code in (("violations", "code"), ("unverifiable", "check_code")):
            run(f"""DELETE FROM {KEYED}.{table} AS x USING ctx_judged j
                    WHERE x.hk = j.hk AND x.profile = j.profile
                      AND ((x.{code} = '{Code.ANTE}' AND j.judge_ante)
                           OR (x.{code} = '{Code.BRING_IN_AMOUNT}' AND j.judge_bring_in))""")
        for name, rows in (("violations", findings.violations), ("unverifiable", findings.unverifiable)):
            if rows:
                store.con.register("ctx_incoming", replay_table_of(name, rows))
                try:
                    run(f"INSERT INTO {KEYED}.{name} BY NAME SELECT h.hk, x.* EXCLUDE (site, hand_id) "
                        "FROM ctx_incoming x JOIN hands h USING (site, hand_id)")
                finally:
                    store.con.unregister("ctx_incoming")
        for kind in ("ante", "bring_in"):
            # the stakes the hand is judged with: the table's value, or back to its own first post
            run(f"""UPDATE hands SET {kind} = CASE WHEN v.status = 'context' THEN v.top ELSE v.posted END,
                        {kind}_source = CASE WHEN v.status = 'context' THEN 'context' ELSE 'posted' END
                    FROM (SELECT c.site, c.hand_id, c.status, c.top,
                                 (SELECT p.amount FROM ctx_posts p WHERE p.site = c.site AND p.hand_id = c.hand_id
                                  AND p.kind = '{kind}' AND NOT p.flagged ORDER BY p.seq LIMIT 1) AS posted
                          FROM ctx_verdicts c JOIN hands h ON h.site = c.site AND h.hand_id = c.hand_id
                          WHERE c.kind = '{kind}' AND c.profile = h.rules_profile) v
                    WHERE hands.site = v.site AND hands.hand_id = v.hand_id""")
        run("""UPDATE hands SET verdict = CASE
                   WHEN EXISTS (SELECT 1 FROM keyed.violations v WHERE v.hk = hands.hk
                                AND v.profile = hands.rules_profile) THEN 'violation'
                   WHEN EXISTS (SELECT 1 FROM keyed.unverifiable u WHERE u.hk = hands.hk
                                AND u.profile = hands.rules_profile) THEN 'unverifiable'
                   ELSE 'ok' END
               FROM ctx_judged j WHERE hands.site = j.site AND hands.hand_id = j.hand_id
                 AND j.profile = hands.rules_profile""")
        run("COMMIT")
    except Exception:
        run("ROLLBACK")
        raise


__all__ = ["import_mark", "judge_imported_since", "judge_never_judged", "judge_table_context"]
