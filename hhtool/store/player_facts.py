"""One row per player and hand with every fact a statistic counts, computed in DuckDB.

Each rate statistic ``s`` has two 0/1 (or count) columns here: ``s__n`` (the player did it) and
``s__o`` (he had the opportunity). :mod:`hhtool.reports.stats` only sums them, so a statistic is
defined once, in this SQL, and documented in ``docs/stats.md``.

Vocabulary used in the SQL:

* a *decision* is a complete, bet, raise, call, check or fold (antes and the bring-in are forced);
* ``level_before`` is how many completes/bets/raises were made on the street before the action
  (the bring-in is not one: the completion is level 1, its raise the 2-bet, and so on);
* ``entered_before`` counts the calls, completes and raises before it on the street;
* ``facing``: the player had chips to add to match the street's bet (``to_call > 0``);
* who was dealt in (``seats.dealt_in``).

``level_before``, ``to_call`` and ``dealt_in`` are betting facts the replay engine computed once
and the store keeps (:class:`hhtool.replay.BettingFacts`); this SQL does not derive them again. A
hand whose walk failed has them NULL: it has no facts rows (nobody is known to be dealt in), though
it counts as covered in the cache.
* ``first_at_level``: the player's first decision at that level on the street.

Every join and window runs on the hand's number (``hk``, the store's key of the per-hand tables).

Hand evaluation (which half a showdown player won) needs the evaluator: the distinct showdown card
strings of the selected hands are evaluated once in Python and joined back as a small table.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from functools import cache
from typing import TYPE_CHECKING, Any

from hhtool.evaluation import high_value, low_value
from hhtool.model import Card
from hhtool.store import Store
from hhtool.store.filters import HandFilter, player_condition
from hhtool.store.start_groups import start_group_sql

if TYPE_CHECKING:  # loaded where used: a report over the facts cache needs neither
    import polars as pl
    import pyarrow as pa

#: the cache tables of the facts rows and of the hands they cover (:mod:`hhtool.store.player_facts_cache`)
FACTS_TABLE, COVERED_TABLE = "player_facts", "player_facts_hands"
LATER_STREETS = (4, 5, 6, 7)
ALL_STREETS = (3, 4, 5, 6, 7)
CARD_VALUES_VIEW = "hhtool_report_card_values"

# A showdown card string completed with the 7th-street community card when the site lists only six.
_FULL_CARDS = (
    "CASE WHEN fh.community_card IS NOT NULL AND len(string_split(s.cards, ' ')) = 6 "
    "THEN s.cards || ' ' || fh.community_card ELSE s.cards END"
)

#: where the facts query reads the per-hand tables, keyed by ``hk``: the store's ``keyed`` schema
#: (a batch about to be written registers its tables under their bare names instead: ``tables=""``)
STORED_TABLES = "keyed."

#: the columns of ``hands h`` the facts read, under their names in the facts (``fh``)
HAND_SOURCE = """h.hk, h.site, h.hand_id, h.currency, h.unit, h.small_bet, h.big_bet, h.started_utc AS started_at,
           h.is_tournament, h.table_size, h.community_card, h.file, h.first_line, h.table_name, h.tournament_id, h.hero"""
#: a facts row's hand columns, from the selected hands ``fh`` (``f``: the rows' source, naming the player)
HAND_FACT_COLUMNS = """fh.hk, fh.site, fh.hand_id, f.player, fh.currency, fh.unit, fh.small_bet, fh.big_bet, fh.started_at,
       fh.is_tournament, fh.table_size, fh.file, fh.first_line, fh.table_name, fh.tournament_id, fh.hero,
       strftime(fh.started_at, '%Y-%m') AS month,
       rtrim(rtrim(printf('%.4f', fh.small_bet / fh.unit), '0'), '.') || '/'
           || rtrim(rtrim(printf('%.4f', fh.big_bet / fh.unit), '0'), '.') AS stakes"""


def per_big_bet(amount: str, scale: int = 1) -> str:
    """An amount (in the unit, or thousandths of it with ``scale`` 1000) in big bets of the hand ``fh``.

    >>> per_big_bet("f.net")
    'CAST(f.net AS DOUBLE) / nullif(fh.big_bet, 0)'
    """
    scaled = "" if scale == 1 else f" / {scale}"
    return f"CAST({amount} AS DOUBLE){scaled} / nullif(fh.big_bet, 0)"


HANDS_CTE = """
fh AS MATERIALIZED (  -- the selected hands: joins and windows below use their number (hk)
    SELECT """ + HAND_SOURCE + """,
           coalesce(h.rake + h.fees, greatest(0, (SELECT sum(r.contributed) - sum(r.collected) FROM {tables}results r
                                                  WHERE r.hk = h.hk)), h.fees) AS rake_total
    FROM hands h WHERE {where}
),
a_src AS MATERIALIZED (SELECT x.* FROM {tables}actions x SEMI JOIN fh ON fh.hk = x.hk),
c_src AS MATERIALIZED (SELECT x.* FROM {tables}cards x SEMI JOIN fh ON fh.hk = x.hk),
s_src AS (SELECT x.* FROM {tables}seats x SEMI JOIN fh ON fh.hk = x.hk),
r_src AS MATERIALIZED (SELECT x.* FROM {tables}results x SEMI JOIN fh ON fh.hk = x.hk),
sd_src AS (SELECT x.* FROM {tables}showdown x SEMI JOIN fh ON fh.hk = x.hk),
aw_src AS (SELECT x.* FROM {tables}awards x SEMI JOIN fh ON fh.hk = x.hk)"""

BASE_CTES = """
acts AS MATERIALIZED (  -- level_before and to_call are the replay engine's, stored with each action
    SELECT a.hk, a.seq, a.street, a.player, a.kind,
           a.kind IN ('complete', 'bet', 'raise') AS aggressive,
           a.kind IN ('complete', 'bet', 'raise', 'call', 'check', 'fold') AS decision,
           a.level_before,
           CAST(sum(CASE WHEN a.kind IN ('complete', 'bet', 'raise', 'call') THEN 1 ELSE 0 END) OVER so_far
                - CASE WHEN a.kind IN ('complete', 'bet', 'raise', 'call') THEN 1 ELSE 0 END AS INTEGER) AS entered_before,
           a.to_call > 0 AS facing
    FROM a_src a
    WHERE a.kind <> 'ante'
    WINDOW so_far AS (PARTITION BY a.hk, a.street ORDER BY a.seq)
),
dec AS MATERIALIZED (  -- levels never fall during a street, so a new level is a rise over the previous decision's
    SELECT *, row_number() OVER mine AS nth, coalesce(lag(level_before) OVER mine, -1) < level_before AS first_at_level
    FROM acts WHERE decision
    WINDOW mine AS (PARTITION BY hk, street, player ORDER BY seq)
),
players AS MATERIALIZED (  -- dealt in, as the replay engine found (NULL: the hand has no betting facts)
    SELECT s.hk, s.player,
           row_number() OVER (PARTITION BY s.hk ORDER BY s.position) - 1 AS idx,
           count(*) OVER (PARTITION BY s.hk) AS n_dealt
    FROM s_src s WHERE s.dealt_in
),
opener AS MATERIALIZED (  -- first to act on 3rd street: the bring-in, or the player completing in its place
    SELECT hk, arg_min(player, seq) AS player, arg_min(kind, seq) = 'bring_in' AS posted
    FROM acts WHERE street = 3 GROUP BY hk
),
door AS MATERIALIZED (
    SELECT c.hk, c.player, arg_min(c.card, c.line) AS card,
           nullif(strpos('23456789TJQKA', upper(substr(arg_min(c.card, c.line), 1, 1))), 0) + 1 AS rank
    FROM c_src c
    WHERE c.street = 3 AND c.face = 'up' GROUP BY c.hk, c.player
),
third_cards AS (  -- the 3rd-street cards "down down door" when all three are known (starting-hand groups)
    SELECT c.hk, c.player,
           CASE WHEN count(*) = 3 AND count(c.card) = 3 AND count(*) FILTER (WHERE c.face = 'up') = 1
                THEN string_agg(c.card, ' ' ORDER BY c.face, c.seq) END AS cards
    FROM c_src c WHERE c.street = 3 GROUP BY c.hk, c.player
),
fold AS MATERIALIZED (
    SELECT hk, player, min(street) AS street, min(seq) AS seq FROM acts WHERE kind = 'fold'
    GROUP BY hk, player
),
reach AS MATERIALIZED (
    SELECT p.hk, count(*) FILTER (WHERE f.player IS NULL) AS remaining
    FROM players p LEFT JOIN fold f ON f.hk = p.hk AND f.player = p.player
    GROUP BY p.hk
),
streets AS (
    SELECT hk, max(street) AS last_street FROM (
        SELECT hk, street FROM acts
        UNION ALL
        SELECT c.hk, c.street FROM c_src c
    ) GROUP BY hk
),
fate AS MATERIALIZED (
    SELECT p.hk, p.player, p.idx, p.n_dealt, f.street AS fold_street,
           f.player IS NULL AND rc.remaining >= 2 AS went_sd,
           CASE WHEN rc.remaining >= 2 THEN 7 ELSE coalesce(st.last_street, 3) END AS last_street
    FROM players p
    JOIN reach rc ON rc.hk = p.hk
    LEFT JOIN streets st ON st.hk = p.hk
    LEFT JOIN fold f ON f.hk = p.hk AND f.player = p.player
)"""

_THIRD = """
third AS (
    SELECT hk, player,
           1 AS vpip__o,
           max(CASE WHEN kind IN ('complete', 'raise', 'call', 'bet') THEN 1 ELSE 0 END) AS vpip__n,
           1 AS raise_3rd__o,
           max(CASE WHEN aggressive THEN 1 ELSE 0 END) AS raise_3rd__n,
           max(CASE WHEN level_before = 1 AND first_at_level THEN 1 ELSE 0 END) AS fold_to_complete__o,
           max(CASE WHEN level_before = 1 AND first_at_level AND kind = 'fold' THEN 1 ELSE 0 END) AS fold_to_complete__n,
           max(CASE WHEN level_before = 1 AND first_at_level THEN 1 ELSE 0 END) AS two_bet_3rd__o,
           max(CASE WHEN level_before = 1 AND first_at_level AND kind = 'raise' THEN 1 ELSE 0 END) AS two_bet_3rd__n,
           max(CASE WHEN level_before = 2 AND first_at_level THEN 1 ELSE 0 END) AS three_bet_3rd__o,
           max(CASE WHEN level_before = 2 AND first_at_level AND kind = 'raise' THEN 1 ELSE 0 END) AS three_bet_3rd__n,
           max(CASE WHEN level_before = 3 AND first_at_level THEN 1 ELSE 0 END) AS four_bet_3rd__o,
           max(CASE WHEN level_before = 3 AND first_at_level AND kind = 'raise' THEN 1 ELSE 0 END) AS four_bet_3rd__n
    FROM dec WHERE street = 3 GROUP BY hk, player
),
first_in AS MATERIALIZED (  -- first decision with nobody in yet (all before folded), after the opener
    SELECT d.hk, d.player, d.seq, d.kind
    FROM dec d JOIN opener o ON o.hk = d.hk
    WHERE d.street = 3 AND d.nth = 1 AND d.entered_before = 0 AND d.player <> o.player
),
behind AS (  -- upcards of the players still in and left to act behind a first-in decision
    SELECT fi.hk, fi.player, max(dr.rank) AS best_rank, count(*) FILTER (WHERE dr.rank IS NULL) AS unknown
    FROM first_in fi
    JOIN players o ON o.hk = fi.hk AND o.player <> fi.player
    LEFT JOIN fold f ON f.hk = o.hk AND f.player = o.player
    LEFT JOIN door dr ON dr.hk = o.hk AND dr.player = o.player
    WHERE f.seq IS NULL OR f.seq > fi.seq
    GROUP BY fi.hk, fi.player
),
steal_spot AS MATERIALIZED (
    SELECT fi.hk, fi.player, fi.seq, fi.kind,
           coalesce(my.rank > b.best_rank AND b.unknown = 0, FALSE) AS by_door,
           coalesce(p.idx <> op.idx AND (p.idx - op.idx + p.n_dealt) % p.n_dealt >= p.n_dealt - 2, FALSE) AS by_position
    FROM first_in fi
    JOIN players p ON p.hk = fi.hk AND p.player = fi.player
    LEFT JOIN door my ON my.hk = fi.hk AND my.player = fi.player
    LEFT JOIN behind b ON b.hk = fi.hk AND b.player = fi.player
    LEFT JOIN opener o ON o.hk = fi.hk
    LEFT JOIN players op ON op.hk = fi.hk AND op.player = o.player
),
steal AS MATERIALIZED (
    SELECT s.hk, s.player, s.seq,
           NOT EXISTS (SELECT 1 FROM acts x WHERE x.hk = s.hk AND x.street = 3
                       AND x.seq > s.seq AND x.kind IN ('call', 'raise', 'complete')) AND rc.remaining = 1 AS success
    FROM steal_spot s JOIN reach rc ON rc.hk = s.hk
    WHERE s.kind = 'complete' AND (s.by_door OR s.by_position)
),
vs_steal AS (  -- the posted bring-in's first decision when only a steal attempt has entered
    SELECT d.hk, d.player, d.kind
    FROM dec d
    JOIN opener o ON o.hk = d.hk AND o.player = d.player AND o.posted
    JOIN steal s ON s.hk = d.hk AND s.seq < d.seq
    WHERE d.street = 3 AND d.nth = 1 AND d.entered_before = 1
),
vs_three_bet AS (  -- a 2-bettor's first decision facing the 3-bet
    SELECT d.hk, d.player, d.kind
    FROM dec d
    WHERE d.street = 3 AND d.level_before = 3 AND d.first_at_level
      AND EXISTS (SELECT 1 FROM dec t WHERE t.hk = d.hk AND t.player = d.player
                  AND t.street = 3 AND t.level_before = 1 AND t.kind = 'raise' AND t.seq < d.seq)
)"""

_LATER = """
last_aggressor AS MATERIALIZED (
    SELECT hk, street, arg_max(player, seq) AS player FROM acts WHERE aggressive GROUP BY hk, street
),
cbet_spot AS MATERIALIZED (  -- the previous street's last aggressor, acting with no bet yet on this street
    SELECT d.hk, d.player, d.street, d.seq, d.kind = 'bet' AS made
    FROM dec d JOIN last_aggressor la
      ON la.hk = d.hk AND la.street = d.street - 1 AND la.player = d.player
    WHERE d.street >= 4 AND d.level_before = 0 AND d.first_at_level
),
vs_cbet AS (
    SELECT d.hk, d.player, d.street, d.kind = 'fold' AS folded
    FROM dec d JOIN cbet_spot c
      ON c.made AND c.hk = d.hk AND c.street = d.street AND d.seq > c.seq AND d.player <> c.player
    WHERE d.level_before = 1 AND d.first_at_level
),
check_raise AS (  -- a player's next decision after checking on a street
    SELECT c.hk, c.player, c.street, arg_min(d.kind, d.seq) = 'raise' AS made
    FROM dec c JOIN dec d
      ON d.hk = c.hk AND d.player = c.player AND d.street = c.street AND d.seq > c.seq
    WHERE c.street >= 4 AND c.kind = 'check'
    GROUP BY c.hk, c.player, c.street
),
per_street AS (
    SELECT d.hk, d.player,
{per_street_columns}
    FROM dec d GROUP BY d.hk, d.player
),
cbets AS (
    SELECT hk, player,
{cbet_columns}
    FROM cbet_spot GROUP BY hk, player
),
vs_cbets AS (
    SELECT hk, player,
{vs_cbet_columns}
    FROM vs_cbet GROUP BY hk, player
),
check_raises AS (
    SELECT hk, player,
{check_raise_columns}
    FROM check_raise GROUP BY hk, player
)"""

_SHOWDOWN = """
rake_floor AS (  -- rake and fees shared among the players paid, pro rata of what each collected
    SELECT r.hk, r.player, fh.rake_total,
           (fh.rake_total * r.collected) // sum(r.collected) OVER paid AS base,
           (fh.rake_total * r.collected) % sum(r.collected) OVER paid AS remainder
    FROM r_src r JOIN fh ON fh.hk = r.hk
    WHERE r.collected > 0
    WINDOW paid AS (PARTITION BY r.hk)
),
rake_share AS (  -- units left over by rounding down go to the largest remainders, one each
    SELECT hk, player,
           base + CASE WHEN row_number() OVER (PARTITION BY hk ORDER BY remainder DESC, player)
                            <= rake_total - sum(base) OVER (PARTITION BY hk) THEN 1 ELSE 0 END AS rake_paid
    FROM rake_floor
),
shown AS (
    SELECT s.hk, s.player,
           bool_or(s.status = 'shown' AND v.cards IS NOT NULL) AS judged,
           bool_or(v.cards IS NOT NULL) AS known,
           max(v.high_value) AS high_value, max(v.low_value) AS low_value,
           bool_or(s.low_text IS NOT NULL) AS has_low_text
    FROM sd_src s JOIN fh ON fh.hk = s.hk
    LEFT JOIN {card_values} v ON v.cards = {full_cards}
    GROUP BY s.hk, s.player
),
contender AS MATERIALIZED (
    SELECT f.hk, f.player, coalesce(r.collected, 0) AS collected,
           coalesce(sh.judged, FALSE) AS judged, coalesce(sh.known, FALSE) AS known,
           sh.high_value, sh.low_value, coalesce(sh.has_low_text, FALSE) AS has_low_text
    FROM fate f
    LEFT JOIN r_src r ON r.hk = f.hk AND r.player = f.player
    LEFT JOIN shown sh ON sh.hk = f.hk AND sh.player = f.player
    WHERE f.went_sd
),
judge AS MATERIALIZED (  -- the rules' view of the main pot from the shown cards
    SELECT hk, bool_and(judged OR collected = 0) AS decidable,
           max(high_value) FILTER (WHERE judged) AS best_high, max(low_value) FILTER (WHERE judged) AS best_low
    FROM contender GROUP BY hk
),
judge_ties AS (
    SELECT c.hk,
           count(*) FILTER (WHERE c.judged AND c.high_value = j.best_high) AS high_winners,
           count(*) FILTER (WHERE c.judged AND c.low_value = j.best_low) AS low_winners
    FROM contender c JOIN judge j ON j.hk = c.hk
    GROUP BY c.hk
),
main_awards AS MATERIALIZED (
    SELECT a.hk, a.player, a.half FROM aw_src a
    WHERE coalesce(a.pot, 0) = 0
),
label AS (  -- the site's own labels on the main pot's collect lines
    SELECT hk, bool_and(half <> 'unknown') AS labelled,
           count(DISTINCT player) FILTER (WHERE half IN ('high', 'whole')) AS high_winners,
           count(DISTINCT player) FILTER (WHERE half = 'low') AS low_winners
    FROM main_awards GROUP BY hk
),
label_player AS (
    SELECT hk, player, bool_or(half IN ('high', 'whole')) AS got_high, bool_or(half = 'low') AS got_low
    FROM main_awards GROUP BY hk, player
),
halves AS (
    SELECT c.hk, c.player, c.known, c.has_low_text, c.low_value,
           CASE WHEN l.labelled THEN 'label' WHEN j.decidable THEN 'cards' END AS source,
           CASE WHEN l.labelled THEN
                    CASE WHEN coalesce(lp.got_high, FALSE) THEN CASE WHEN l.high_winners = 1 THEN 'W' ELSE 'T' END ELSE 'L' END
                ELSE CASE WHEN c.judged AND c.high_value = j.best_high
                          THEN CASE WHEN t.high_winners = 1 THEN 'W' ELSE 'T' END ELSE 'L' END
           END AS high,
           CASE WHEN l.labelled THEN
                    CASE WHEN l.low_winners = 0 THEN 'N'
                         WHEN coalesce(lp.got_low, FALSE) THEN CASE WHEN l.low_winners = 1 THEN 'W' ELSE 'T' END ELSE 'L' END
                ELSE CASE WHEN j.best_low IS NULL THEN 'N'
                          WHEN c.judged AND c.low_value = j.best_low
                          THEN CASE WHEN t.low_winners = 1 THEN 'W' ELSE 'T' END ELSE 'L' END
           END AS low
    FROM contender c
    JOIN judge j ON j.hk = c.hk
    JOIN judge_ties t ON t.hk = c.hk
    LEFT JOIN label l ON l.hk = c.hk
    LEFT JOIN label_player lp ON lp.hk = c.hk AND lp.player = c.player
),
outcome AS (
    SELECT *, CASE WHEN source IS NULL THEN 'unknown'
                   WHEN high = 'W' AND low IN ('W', 'N') THEN 'scoop'
                   WHEN high = 'W' AND low = 'L' THEN 'high_only'
                   WHEN high = 'L' AND low = 'W' THEN 'low_only'
                   WHEN (high = 'T' AND low = 'L') OR (high = 'L' AND low = 'T') THEN 'quartered'
                   WHEN high = 'L' AND low IN ('L', 'N') THEN 'lost'
                   ELSE 'split' END AS result
    FROM halves
)"""

_SELECT = """
SELECT {hand_columns},
       upper(substr(dr.card, 1, 1)) AS door_card, tc.cards AS third_cards, {start_group} AS start,
       CAST(coalesce(r.net, 0) AS BIGINT) AS net, CAST(coalesce(r.collected, 0) AS BIGINT) AS collected,
       CAST(coalesce(rs.rake_paid, 0) AS BIGINT) AS rake_paid,
       CAST(f.went_sd AS INTEGER) AS went_sd, f.fold_street, f.last_street,
       {big_bets} AS big_bets,
       CAST(coalesce(r.ev_net, coalesce(r.net, 0) * 1000) AS BIGINT) AS ev_net_milli,
       {ev_big_bets} AS ev_big_bets,
{third_columns},
       coalesce(fi.o, 0) AS complete_first_in__o, coalesce(fi.complete, 0) AS complete_first_in__n,
       coalesce(fi.o, 0) AS limp__o, coalesce(fi.call, 0) AS limp__n,
       CASE WHEN op.player IS NULL THEN 0 ELSE 1 END AS bring_in_complete__o,
       CASE WHEN op.player IS NOT NULL AND NOT op.posted THEN 1 ELSE 0 END AS bring_in_complete__n,
       CAST(coalesce(ss.by_door, FALSE) AS INTEGER) AS steal_door__o,
       CAST(coalesce(ss.by_door AND ss.kind = 'complete', FALSE) AS INTEGER) AS steal_door__n,
       CAST(coalesce(ss.by_position, FALSE) AS INTEGER) AS steal_position__o,
       CAST(coalesce(ss.by_position AND ss.kind = 'complete', FALSE) AS INTEGER) AS steal_position__n,
       CAST(coalesce(ss.by_door OR ss.by_position, FALSE) AS INTEGER) AS steal__o,
       CASE WHEN st.player IS NULL THEN 0 ELSE 1 END AS steal__n,
       CASE WHEN st.player IS NULL THEN 0 ELSE 1 END AS steal_success__o,
       CAST(coalesce(st.success, FALSE) AS INTEGER) AS steal_success__n,
       CASE WHEN vs.player IS NULL THEN 0 ELSE 1 END AS bring_in_fold_to_steal__o,
       CASE WHEN vs.kind = 'fold' THEN 1 ELSE 0 END AS bring_in_fold_to_steal__n,
       CASE WHEN vs.player IS NULL THEN 0 ELSE 1 END AS bring_in_resteal__o,
       CASE WHEN vs.kind = 'raise' THEN 1 ELSE 0 END AS bring_in_resteal__n,
       CASE WHEN v3.player IS NULL THEN 0 ELSE 1 END AS fold_to_three_bet_3rd__o,
       CASE WHEN v3.kind = 'fold' THEN 1 ELSE 0 END AS fold_to_three_bet_3rd__n,
{later_columns},
       CAST(f.last_street >= 4 AND (f.fold_street IS NULL OR f.fold_street >= 4) AS INTEGER) AS wtsd__o,
       CAST(f.went_sd AS INTEGER) AS wtsd__n,
       CAST(f.went_sd AS INTEGER) AS wsd__o, CAST(f.went_sd AND coalesce(r.collected, 0) > 0 AS INTEGER) AS wsd__n,
       CAST(f.last_street >= 4 AND (f.fold_street IS NULL OR f.fold_street >= 4) AS INTEGER) AS won_saw_4th__o,
       CAST(f.last_street >= 4 AND (f.fold_street IS NULL OR f.fold_street >= 4) AND coalesce(r.collected, 0) > 0 AS INTEGER)
           AS won_saw_4th__n,
{outcome_columns},
       CAST(coalesce(oc.source = 'label', FALSE) AS INTEGER) AS halves_by_label,
       CAST(coalesce(oc.source = 'cards', FALSE) AS INTEGER) AS halves_by_cards,
       CAST(coalesce(oc.result = 'unknown', FALSE) AS INTEGER) AS halves_unknown,
       CAST(coalesce(oc.has_low_text OR oc.known, FALSE) AS INTEGER) AS low_qualified__o,
       CAST(coalesce(oc.has_low_text OR oc.low_value IS NOT NULL, FALSE) AS INTEGER) AS low_qualified__n
FROM fate f
JOIN fh ON fh.hk = f.hk
LEFT JOIN r_src r ON r.hk = f.hk AND r.player = f.player
LEFT JOIN rake_share rs ON rs.hk = f.hk AND rs.player = f.player
LEFT JOIN door dr ON dr.hk = f.hk AND dr.player = f.player
LEFT JOIN third_cards tc ON tc.hk = f.hk AND tc.player = f.player
LEFT JOIN third t ON t.hk = f.hk AND t.player = f.player
LEFT JOIN (SELECT hk, player, 1 AS o, CASE WHEN kind = 'complete' THEN 1 ELSE 0 END AS complete,
                  CASE WHEN kind = 'call' THEN 1 ELSE 0 END AS call FROM first_in) fi
       ON fi.hk = f.hk AND fi.player = f.player
LEFT JOIN opener op ON op.hk = f.hk AND op.player = f.player
LEFT JOIN steal_spot ss ON ss.hk = f.hk AND ss.player = f.player
LEFT JOIN steal st ON st.hk = f.hk AND st.player = f.player
LEFT JOIN vs_steal vs ON vs.hk = f.hk AND vs.player = f.player
LEFT JOIN vs_three_bet v3 ON v3.hk = f.hk AND v3.player = f.player
LEFT JOIN per_street ps ON ps.hk = f.hk AND ps.player = f.player
LEFT JOIN cbets cb ON cb.hk = f.hk AND cb.player = f.player
LEFT JOIN vs_cbets vc ON vc.hk = f.hk AND vc.player = f.player
LEFT JOIN check_raises cr ON cr.hk = f.hk AND cr.player = f.player
LEFT JOIN outcome oc ON oc.hk = f.hk AND oc.player = f.player
{player_condition}
"""

THIRD_STATS = ("vpip", "raise_3rd", "fold_to_complete", "two_bet_3rd", "three_bet_3rd", "four_bet_3rd")
OUTCOMES = ("scoop", "high_only", "low_only", "split", "quartered")


def _indent(lines: list[str]) -> str:
    return ",\n".join("        " + line for line in lines)


def _later_sql() -> str:
    per_street: list[str] = []
    for street in ALL_STREETS:
        per_street += [
            f"CAST(sum(CASE WHEN d.street = {street} AND d.aggressive THEN 1 ELSE 0 END) AS INTEGER) AS aggression_{street}__n",
            f"CAST(sum(CASE WHEN d.street = {street} THEN 1 ELSE 0 END) AS INTEGER) AS aggression_{street}__o",
            f"max(CASE WHEN d.street = {street} AND d.facing THEN 1 ELSE 0 END) AS fold_{street}__o",
            f"max(CASE WHEN d.street = {street} AND d.facing AND d.kind = 'fold' THEN 1 ELSE 0 END) AS fold_{street}__n",
        ]
    cbet = [f"max(CASE WHEN street = {s} THEN 1 ELSE 0 END) AS cbet_{s}__o" for s in LATER_STREETS]
    cbet += [f"max(CASE WHEN street = {s} AND made THEN 1 ELSE 0 END) AS cbet_{s}__n" for s in LATER_STREETS]
    vs_cbet = [f"max(CASE WHEN street = {s} THEN 1 ELSE 0 END) AS fold_to_cbet_{s}__o" for s in LATER_STREETS]
    vs_cbet += [f"max(CASE WHEN street = {s} AND folded THEN 1 ELSE 0 END) AS fold_to_cbet_{s}__n" for s in LATER_STREETS]
    check_raise = [f"max(CASE WHEN street = {s} THEN 1 ELSE 0 END) AS check_raise_{s}__o" for s in LATER_STREETS]
    check_raise += [f"max(CASE WHEN street = {s} AND made THEN 1 ELSE 0 END) AS check_raise_{s}__n" for s in LATER_STREETS]
    return _LATER.format(
        per_street_columns=_indent(per_street), cbet_columns=_indent(cbet),
        vs_cbet_columns=_indent(vs_cbet), check_raise_columns=_indent(check_raise),
    )


def _select_sql(player_condition: str) -> str:
    third = [f"coalesce(t.{name}__{part}, 0) AS {name}__{part}" for name in THIRD_STATS for part in ("n", "o")]
    later: list[str] = []
    for street in ALL_STREETS:
        seen = f"f.last_street >= {street} AND (f.fold_street IS NULL OR f.fold_street >= {street})"
        later += [f"1 AS saw_{street}__o", f"CAST({seen} AS INTEGER) AS saw_{street}__n"]
        later += [f"coalesce(ps.{kind}_{street}__{part}, 0) AS {kind}_{street}__{part}"
                  for kind in ("aggression", "fold") for part in ("n", "o")]
        if street in LATER_STREETS:
            later += [f"coalesce({alias}.{kind}_{street}__{part}, 0) AS {kind}_{street}__{part}"
                      for alias, kind in (("cb", "cbet"), ("vc", "fold_to_cbet"), ("cr", "check_raise"))
                      for part in ("n", "o")]
    outcomes: list[str] = []
    for name in OUTCOMES:
        outcomes += [f"CAST(coalesce(oc.result <> 'unknown', FALSE) AS INTEGER) AS {name}__o",
                     f"CAST(coalesce(oc.result = '{name}', FALSE) AS INTEGER) AS {name}__n"]
    return _SELECT.format(
        third_columns=_indent(third), later_columns=_indent(later), outcome_columns=_indent(outcomes),
        player_condition=player_condition, start_group=start_group_sql("tc.cards"), hand_columns=HAND_FACT_COLUMNS,
        big_bets=per_big_bet("coalesce(r.net, 0)"),
        ev_big_bets=per_big_bet("coalesce(r.ev_net, coalesce(r.net, 0) * 1000)", 1000),
    )


#: the facts' count columns that reports sum: ``s__n`` and ``s__o`` of every statistic, the halves counts
HALVES_COUNTS = ("halves_by_label", "halves_by_cards", "halves_unknown")


@cache
def counted_columns() -> tuple[str, ...]:
    """Every ``s__n``/``s__o`` column of the facts query, in its order, then the halves counts.

    >>> counted_columns()[:2], counted_columns()[-1]
    (('vpip__n', 'vpip__o'), 'halves_unknown')
    """
    names = re.findall(r"\bAS (\w+__[no])\b", _select_sql(""))
    return (*dict.fromkeys(names), *HALVES_COUNTS)


@cache
def counts_in_query_order() -> tuple[str, ...]:
    """The counted columns (:func:`counted_columns`) in the facts query's own order (the halves counts before
    ``low_qualified``).

    >>> sorted(counts_in_query_order()) == sorted(counted_columns())
    True
    """
    counted = set(counted_columns())
    return tuple(dict.fromkeys(name for name in re.findall(r"\bAS (\w+)\b", _select_sql("")) if name in counted))


def facts_sql(hand_filter: HandFilter) -> tuple[str, list[Any]]:
    """The full query and its parameters (the card-value table must be registered first)."""
    where, params = hand_filter.sql()
    return hands_facts_sql(where, params, hand_filter.players)


def hands_facts_sql(where: str, params: list[Any], players: tuple[str, ...] = (),
                    tables: str = STORED_TABLES) -> tuple[str, list[Any]]:
    """The facts of the hands matching ``where`` (a condition on ``hands h``), rows of ``players``
    (names or aliases: :func:`~hhtool.store.filters.player_condition`) only when some are given
    (the card-value table must be registered first); ``tables``: where the keyed tables are."""
    rows_of = ""
    rows_params: list[Any] = []
    if players:
        who, rows_params = player_condition(players, "fh.site", "f.player")
        rows_of = f"WHERE {who}"
    showdown = _SHOWDOWN.format(card_values=CARD_VALUES_VIEW, full_cards=_FULL_CARDS)
    ctes = [HANDS_CTE.format(where=where, tables=tables), BASE_CTES, _THIRD, _later_sql(), showdown]
    sql = "WITH" + ",".join(ctes) + _select_sql(rows_of)
    return sql, [*params, *rows_params]


def evaluate_cards(text: str) -> tuple[int | None, int | None] | None:
    """(high value, low value or None) of a showdown card string; None when a card is hidden
    or the count is not 5 to 7, so the hand cannot be judged.

    >>> evaluate_cards("As 2h 3d 4c 5s Kd Kh")[1] is not None
    True
    >>> evaluate_cards("As ?? 3d 4c 5s Kd Kh") is None
    True
    """
    parts = text.split()
    if not 5 <= len(parts) <= 7 or "??" in parts:
        return None
    try:
        hand = [Card.parse(part) for part in parts]
        return high_value(hand), low_value(hand)
    except ValueError:  # duplicate or unreadable cards: not judged
        return None


def showdown_cards_sql(where: str, tables: str = STORED_TABLES) -> str:
    """The distinct showdown card strings (completed with the community card) of the hands matching ``where``."""
    return (f"WITH {HANDS_CTE.format(where=where, tables=tables)} SELECT DISTINCT {_FULL_CARDS} AS cards "
            f"FROM {tables}showdown s JOIN fh ON fh.hk = s.hk WHERE s.cards IS NOT NULL")


def card_values(store: Store, where: str, params: list[Any]) -> pa.Table:
    """Evaluate each distinct showdown card string of the hands matching ``where`` once."""
    return evaluated_cards(store.run(showdown_cards_sql(where), params))


def evaluated_cards(rows: Iterable[tuple[Any, ...]]) -> pa.Table:
    """The card-value table the facts query reads, of rows of one showdown card string each."""
    import pyarrow as pa

    texts: list[str] = []
    highs: list[int | None] = []
    lows: list[int | None] = []
    for (text,) in rows:
        values = evaluate_cards(str(text))
        if values is not None:
            texts.append(str(text))
            highs.append(values[0])
            lows.append(values[1])
    return pa.table({"cards": pa.array(texts, pa.string()), "high_value": pa.array(highs, pa.int64()),
                     "low_value": pa.array(lows, pa.int64())})


@contextmanager
def card_values_registered(store: Store, where: str, params: list[Any]) -> Iterator[None]:
    """The card values of the hands matching ``where``, as the view the facts query reads."""
    store.con.register(CARD_VALUES_VIEW, card_values(store, where, params))
    try:
        yield
    finally:
        store.con.unregister(CARD_VALUES_VIEW)


def player_hand_facts(store: Store, hand_filter: HandFilter) -> pl.DataFrame:
    """Every selected player-hand with its facts (see the module docstring), computed now from the
    hands; the reports read the same rows from the ``player_facts`` cache (:mod:`hhtool.store.player_facts_cache`)."""
    where, params = hand_filter.sql()
    with card_values_registered(store, where, params):
        return store.frame(*facts_sql(hand_filter))
