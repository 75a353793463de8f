"""Versions of the hhtool store's schema: how an older store is brought to the current one.

The current schema is :mod:`hhtool.store.spec` (``docs/schema.md`` is generated from it): a fresh
store is created from it directly, at ``CURRENT_VERSION``. The migrations below bring a store
written by an older hhtool to it, each from version N-1 to N, once, in a transaction; they are
history and are never edited. Adding a column is one edit in the spec plus one migration appended
here (see the spec's docstring); a test migrates a version-1 store and compares it with a fresh one.
A hand is identified by (site, hand_id); since version 8 the per-hand tables refer to it by its
number ``hands.hk`` (schema ``keyed``), each shown under its old name by a view with (site, hand_id).
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from hhtool.clock import utc_instant
from hhtool.store.spec import Role, ddl, names_of, views_sql

if TYPE_CHECKING:
    import duckdb

SCHEMA_V1 = """
CREATE TABLE files (
    path         VARCHAR NOT NULL,      -- absolute path as imported
    sha256       VARCHAR NOT NULL,      -- of the file's bytes
    size         BIGINT  NOT NULL,
    site         VARCHAR,               -- detected or forced site; NULL when unrecognised
    encoding     VARCHAR,
    hands_found  INTEGER NOT NULL,
    stored       INTEGER NOT NULL,
    duplicates   INTEGER NOT NULL,
    skipped      INTEGER NOT NULL,
    failed       INTEGER NOT NULL,
    incomplete   INTEGER NOT NULL,      -- truncated last hand (kept in import_errors, not a failure)
    lines        INTEGER NOT NULL,      -- lines in the file at import
    resume_line  INTEGER NOT NULL,      -- first line of the last hand: where parsing resumes if the file grows
    imported_at  TIMESTAMP NOT NULL DEFAULT current_timestamp
);

CREATE TABLE hands (
    site           VARCHAR NOT NULL,
    hand_id        VARCHAR NOT NULL,
    file           VARCHAR NOT NULL,
    first_line     INTEGER NOT NULL,
    last_line      INTEGER NOT NULL,
    raw_sha256     VARCHAR NOT NULL,
    started_at     TIMESTAMP,
    timezone       VARCHAR,
    table_name     VARCHAR,
    tournament_id  VARCHAR,
    game_label     VARCHAR,
    structure      VARCHAR NOT NULL,    -- fixed_limit | pot_limit | no_limit
    is_tournament  BOOLEAN NOT NULL,
    currency       VARCHAR NOT NULL,    -- USD, EUR, ... or CHIPS / PLAY
    unit           INTEGER NOT NULL,    -- smallest units per currency unit (100 = cents, 1 = chips)
    ante           BIGINT,
    bring_in       BIGINT,
    small_bet      BIGINT,
    big_bet        BIGINT,
    stakes_source  VARCHAR NOT NULL,    -- header | forced_bets (replaced in version 2)
    table_size     INTEGER,
    players        INTEGER NOT NULL,
    hero           VARCHAR,
    dealer_seat    INTEGER,
    total_pot      BIGINT,              -- as the site states it
    rake           BIGINT,
    fees           BIGINT NOT NULL,
    community_card VARCHAR,
    origin_site    VARCHAR,             -- a converted history (PHH by hhtool): the site that dealt it
    notes          VARCHAR[],
    verdict        VARCHAR,             -- ok | violation | unverifiable (NULL: not replayed)
    rules_profile  VARCHAR,
    PRIMARY KEY (site, hand_id)
);

CREATE TABLE seats (
    site VARCHAR NOT NULL, hand_id VARCHAR NOT NULL,
    seq INTEGER NOT NULL,               -- order of the seat lines in the history
    seat INTEGER NOT NULL, player VARCHAR NOT NULL, stack BIGINT, sitting_out BOOLEAN NOT NULL,
    position INTEGER NOT NULL,          -- 0-based place in dealing order
    line INTEGER NOT NULL
);

CREATE TABLE cards (
    site VARCHAR NOT NULL, hand_id VARCHAR NOT NULL,
    seq INTEGER NOT NULL,               -- order of dealing within the hand
    player VARCHAR NOT NULL, street INTEGER NOT NULL,
    face VARCHAR NOT NULL,              -- down | up
    card VARCHAR,                       -- e.g. 'Ah'; NULL when the history hides it
    line INTEGER NOT NULL
);

CREATE TABLE actions (
    site VARCHAR NOT NULL, hand_id VARCHAR NOT NULL,
    seq INTEGER NOT NULL,               -- order within the hand, antes first
    street INTEGER NOT NULL, player VARCHAR NOT NULL,
    kind VARCHAR NOT NULL,              -- ante bring_in complete bet raise call check fold
    amount BIGINT NOT NULL,             -- chips this action put in
    to_amount BIGINT NOT NULL,          -- the player's street total after it
    all_in BOOLEAN NOT NULL,
    line INTEGER NOT NULL
);

CREATE TABLE returns (
    site VARCHAR NOT NULL, hand_id VARCHAR NOT NULL, seq INTEGER NOT NULL,
    street INTEGER NOT NULL, player VARCHAR NOT NULL, amount BIGINT NOT NULL, line INTEGER NOT NULL
);

CREATE TABLE showdown (
    site VARCHAR NOT NULL, hand_id VARCHAR NOT NULL, seq INTEGER NOT NULL,
    player VARCHAR NOT NULL, status VARCHAR NOT NULL, cards VARCHAR,
    high_text VARCHAR, low_text VARCHAR, line INTEGER NOT NULL
);

CREATE TABLE awards (
    site VARCHAR NOT NULL, hand_id VARCHAR NOT NULL, seq INTEGER NOT NULL,
    player VARCHAR NOT NULL, amount BIGINT NOT NULL,
    pot INTEGER,                        -- 0 main, N side pot N, NULL unknown
    half VARCHAR NOT NULL,              -- high | low | whole | unknown
    line INTEGER NOT NULL
);

CREATE TABLE results (                  -- one row per hand and player: money in, out, net
    site VARCHAR NOT NULL, hand_id VARCHAR NOT NULL, player VARCHAR NOT NULL,
    contributed BIGINT NOT NULL, collected BIGINT NOT NULL, net BIGINT NOT NULL
);

CREATE TABLE import_errors (
    file VARCHAR NOT NULL, first_line INTEGER NOT NULL, last_line INTEGER NOT NULL,
    line INTEGER NOT NULL, site VARCHAR, hand_id VARCHAR, reason VARCHAR NOT NULL,
    raw_text VARCHAR NOT NULL, raw_sha256 VARCHAR NOT NULL,
    imported_at TIMESTAMP NOT NULL DEFAULT current_timestamp
);

CREATE TABLE skipped_hands (
    file VARCHAR NOT NULL, first_line INTEGER NOT NULL, site VARCHAR NOT NULL,
    hand_id VARCHAR, game VARCHAR NOT NULL
);

CREATE TABLE violations (
    site VARCHAR NOT NULL, hand_id VARCHAR NOT NULL, profile VARCHAR NOT NULL,
    code VARCHAR NOT NULL, street INTEGER, player VARCHAR,
    expected VARCHAR, actual VARCHAR, message VARCHAR NOT NULL,
    file VARCHAR NOT NULL, line INTEGER NOT NULL
);

CREATE TABLE unverifiable (
    site VARCHAR NOT NULL, hand_id VARCHAR NOT NULL, profile VARCHAR NOT NULL,
    check_code VARCHAR NOT NULL, reason VARCHAR NOT NULL
);

CREATE TABLE rule_awards (
    site VARCHAR NOT NULL, hand_id VARCHAR NOT NULL, profile VARCHAR NOT NULL,
    player VARCHAR NOT NULL, rules_amount BIGINT NOT NULL, site_amount BIGINT NOT NULL
);
"""

# What the site states and then states again: per-pot amounts of the summary, and the facts a
# history repeats (cumulative card lists, summary seat lines), so a re-replay from the store checks
# them as the import did.
STATED_FACTS = """
CREATE TABLE stated_pots (
    site VARCHAR NOT NULL, hand_id VARCHAR NOT NULL, seq INTEGER NOT NULL,
    pot INTEGER NOT NULL,               -- 0 main, N side pot N
    amount BIGINT NOT NULL,
    after_rake BOOLEAN NOT NULL,        -- the amount once the rake was taken (PokerStars) or before (Full Tilt)
    line INTEGER NOT NULL
);

CREATE TABLE restatements (
    site VARCHAR NOT NULL, hand_id VARCHAR NOT NULL, seq INTEGER NOT NULL,
    fact VARCHAR NOT NULL,              -- cards | folded | showed | mucked | won | lost
    player VARCHAR NOT NULL,
    street INTEGER,                     -- the deal line's street (cards) or the street folded on
    amount BIGINT,                      -- won: every pot and half together
    cards VARCHAR,                      -- as restated, '??' for a hidden card; NULL when none
    text VARCHAR,                       -- the hand description the line repeats
    line INTEGER NOT NULL
);
"""

#: where each stakes value of a hand came from (header | posted | context | inferred), instead of
#: one stakes_source for all of them; the old 'forced_bets' meant ante and bring-in as posted
STAKES_SOURCES = """
ALTER TABLE hands ADD COLUMN ante_source VARCHAR NOT NULL DEFAULT 'header';
ALTER TABLE hands ADD COLUMN bring_in_source VARCHAR NOT NULL DEFAULT 'header';
ALTER TABLE hands ADD COLUMN bets_source VARCHAR NOT NULL DEFAULT 'header';
UPDATE hands SET ante_source = 'posted', bring_in_source = 'posted' WHERE stakes_source = 'forced_bets';
ALTER TABLE hands DROP COLUMN stakes_source;
"""


MIGRATION_COPIES = """
ALTER TABLE files ADD COLUMN reading VARCHAR NOT NULL DEFAULT 'detected';  -- site 'detected' or 'forced' (--site)
ALTER TABLE files ADD COLUMN tail VARCHAR[] NOT NULL DEFAULT [];  -- how the items from resume_line on were counted
-- why: unreadable | ends_early | stray_text | unknown_format
ALTER TABLE import_errors ADD COLUMN kind VARCHAR NOT NULL DEFAULT 'unreadable';

CREATE TABLE copy_conflicts (            -- a second copy of a stored hand whose content differs
    site VARCHAR NOT NULL, hand_id VARCHAR NOT NULL,  -- the stored (first) copy, which is kept
    first_file VARCHAR NOT NULL, first_first_line INTEGER NOT NULL, first_last_line INTEGER NOT NULL,
    first_sha256 VARCHAR NOT NULL,
    second_site VARCHAR NOT NULL, second_hand_id VARCHAR NOT NULL,
    second_file VARCHAR NOT NULL, second_first_line INTEGER NOT NULL, second_last_line INTEGER NOT NULL,
    second_sha256 VARCHAR NOT NULL,
    kind VARCHAR NOT NULL,              -- text | content | grown (the first copy was read while its file was written)
    diff VARCHAR NOT NULL,              -- line-level diff summary
    first_text VARCHAR,                 -- NULL when the first copy's file no longer holds it
    second_text VARCHAR NOT NULL
);
"""

#: the file line of what a finding or a note is about, as a column instead of words in its text
FINDING_LINES = """
ALTER TABLE unverifiable ADD COLUMN line INTEGER;  -- the line of the cause; NULL: the whole hand
ALTER TABLE hands ADD COLUMN note_lines INTEGER[];  -- note_lines[i]: the line notes[i] is about (NULL: the hand)
ALTER TABLE hands ADD COLUMN note_topics VARCHAR[];  -- note_topics[i]: what notes[i] is about, where code acts on it
"""

#: betting facts the replay engine computes once (hhtool.replay.BettingFacts), read by the stats and
#: the replayer instead of deriving them again; NULL where the hand's walk failed. Rows stored before
#: this version get the values the stats derived from the actions until then.
BETTING_FACTS = """
ALTER TABLE actions ADD COLUMN to_call BIGINT;         -- chips to add to match the street's bet before the action
ALTER TABLE actions ADD COLUMN level_before INTEGER;   -- completion/bets/raises on the street before it (bring-in: none)
ALTER TABLE seats ADD COLUMN dealt_in BOOLEAN;         -- dealt into the hand (not sitting out)
UPDATE actions SET to_call = w.to_call, level_before = w.level_before
FROM (
    SELECT site, hand_id, seq,
           CASE WHEN kind = 'ante' THEN 0 ELSE greatest(coalesce(max(to_amount) OVER before, 0) - (to_amount - amount), 0)
           END AS to_call,
           CASE WHEN kind = 'ante' THEN 0 ELSE CAST(coalesce(sum(CASE WHEN kind IN ('complete', 'bet', 'raise') THEN 1 ELSE 0 END)
               OVER before, 0) AS INTEGER) END AS level_before
    FROM actions
    WINDOW before AS (PARTITION BY site, hand_id, street, kind = 'ante' ORDER BY seq
                      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
) w
WHERE actions.site = w.site AND actions.hand_id = w.hand_id AND actions.seq = w.seq;
UPDATE seats SET dealt_in = EXISTS (
    SELECT 1 FROM actions a WHERE a.site = seats.site AND a.hand_id = seats.hand_id AND a.player = seats.player
    UNION ALL
    SELECT 1 FROM cards c WHERE c.site = seats.site AND c.hand_id = seats.hand_id AND c.player = seats.player
);
"""

#: one person's names on several sites, grouped as one player by --player and the reports (`hhtool alias`)
PLAYER_ALIASES = """
CREATE TABLE aliases (                  -- one row per site name a person goes by
    person VARCHAR NOT NULL,            -- the name --player asks for
    site VARCHAR NOT NULL,
    player VARCHAR NOT NULL,            -- as the site's histories write it
    added_at TIMESTAMP NOT NULL DEFAULT current_timestamp
);
"""

#: the int64 hand key (#17): every per-hand table refers to its hand by ``hands.hk`` (a number the
#: import assigns) instead of the (site, hand_id) strings, in the ``keyed`` schema; a view of the old
#: name shows its rows with (site, hand_id) as before (made after the migrations: spec.views_sql). The
#: existing rows are rewritten (a full copy of the store's per-hand rows: minutes per million hands).
HAND_KEY = """
CREATE TABLE hands_keyed (
    site VARCHAR NOT NULL,
    hand_id VARCHAR NOT NULL,
    file VARCHAR NOT NULL,
    first_line INTEGER NOT NULL,
    last_line INTEGER NOT NULL,
    raw_sha256 VARCHAR NOT NULL,
    started_at TIMESTAMP,
    timezone VARCHAR,
    table_name VARCHAR,
    tournament_id VARCHAR,
    game_label VARCHAR,
    structure VARCHAR NOT NULL,
    is_tournament BOOLEAN NOT NULL,
    currency VARCHAR NOT NULL,
    unit INTEGER NOT NULL,
    ante BIGINT,
    bring_in BIGINT,
    small_bet BIGINT,
    big_bet BIGINT,
    table_size INTEGER,
    players INTEGER NOT NULL,
    hero VARCHAR,
    dealer_seat INTEGER,
    total_pot BIGINT,
    rake BIGINT,
    fees BIGINT NOT NULL,
    community_card VARCHAR,
    origin_site VARCHAR,
    notes VARCHAR[],
    verdict VARCHAR,
    rules_profile VARCHAR,
    ante_source VARCHAR NOT NULL DEFAULT 'header',
    bring_in_source VARCHAR NOT NULL DEFAULT 'header',
    bets_source VARCHAR NOT NULL DEFAULT 'header',
    note_lines INTEGER[],
    note_topics VARCHAR[],
    hk BIGINT NOT NULL,
    PRIMARY KEY (site, hand_id)
);
INSERT INTO hands_keyed SELECT *, row_number() OVER (ORDER BY rowid) - 1 FROM hands ORDER BY rowid;
DROP TABLE hands;
ALTER TABLE hands_keyed RENAME TO hands;
CREATE SCHEMA keyed;

CREATE TABLE keyed.seats (
    hk BIGINT NOT NULL,
    seq INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    player VARCHAR NOT NULL,
    stack BIGINT,
    sitting_out BOOLEAN NOT NULL,
    position INTEGER NOT NULL,
    line INTEGER NOT NULL,
    dealt_in BOOLEAN
);
INSERT INTO keyed.seats BY NAME SELECT h.hk, x.* EXCLUDE (site, hand_id) FROM seats x
    JOIN hands h USING (site, hand_id) ORDER BY h.hk, x.seq;
DROP TABLE seats;

CREATE TABLE keyed.cards (
    hk BIGINT NOT NULL,
    seq INTEGER NOT NULL,
    player VARCHAR NOT NULL,
    street INTEGER NOT NULL,
    face VARCHAR NOT NULL,
    card VARCHAR,
    line INTEGER NOT NULL
);
INSERT INTO keyed.cards BY NAME SELECT h.hk, x.* EXCLUDE (site, hand_id) FROM cards x
    JOIN hands h USING (site, hand_id) ORDER BY h.hk, x.seq;
DROP TABLE cards;

CREATE TABLE keyed.actions (
    hk BIGINT NOT NULL,
    seq INTEGER NOT NULL,
    street INTEGER NOT NULL,
    player VARCHAR NOT NULL,
    kind VARCHAR NOT NULL,
    amount BIGINT NOT NULL,
    to_amount BIGINT NOT NULL,
    all_in BOOLEAN NOT NULL,
    line INTEGER NOT NULL,
    to_call BIGINT,
    level_before INTEGER
);
INSERT INTO keyed.actions BY NAME SELECT h.hk, x.* EXCLUDE (site, hand_id) FROM actions x
    JOIN hands h USING (site, hand_id) ORDER BY h.hk, x.seq;
DROP TABLE actions;

CREATE TABLE keyed.returns (
    hk BIGINT NOT NULL,
    seq INTEGER NOT NULL,
    street INTEGER NOT NULL,
    player VARCHAR NOT NULL,
    amount BIGINT NOT NULL,
    line INTEGER NOT NULL
);
INSERT INTO keyed.returns BY NAME SELECT h.hk, x.* EXCLUDE (site, hand_id) FROM returns x
    JOIN hands h USING (site, hand_id) ORDER BY h.hk, x.seq;
DROP TABLE returns;

CREATE TABLE keyed.showdown (
    hk BIGINT NOT NULL,
    seq INTEGER NOT NULL,
    player VARCHAR NOT NULL,
    status VARCHAR NOT NULL,
    cards VARCHAR,
    high_text VARCHAR,
    low_text VARCHAR,
    line INTEGER NOT NULL
);
INSERT INTO keyed.showdown BY NAME SELECT h.hk, x.* EXCLUDE (site, hand_id) FROM showdown x
    JOIN hands h USING (site, hand_id) ORDER BY h.hk, x.seq;
DROP TABLE showdown;

CREATE TABLE keyed.awards (
    hk BIGINT NOT NULL,
    seq INTEGER NOT NULL,
    player VARCHAR NOT NULL,
    amount BIGINT NOT NULL,
    pot INTEGER,
    half VARCHAR NOT NULL,
    line INTEGER NOT NULL
);
INSERT INTO keyed.awards BY NAME SELECT h.hk, x.* EXCLUDE (site, hand_id) FROM awards x
    JOIN hands h USING (site, hand_id) ORDER BY h.hk, x.seq;
DROP TABLE awards;

CREATE TABLE keyed.results (
    hk BIGINT NOT NULL,
    player VARCHAR NOT NULL,
    contributed BIGINT NOT NULL,
    collected BIGINT NOT NULL,
    net BIGINT NOT NULL
);
INSERT INTO keyed.results BY NAME SELECT h.hk, x.* EXCLUDE (site, hand_id) FROM results x
    JOIN hands h USING (site, hand_id) ORDER BY h.hk, x.rowid;
DROP TABLE results;

CREATE TABLE keyed.violations (
    hk BIGINT NOT NULL,
    profile VARCHAR NOT NULL,
    code VARCHAR NOT NULL,
    street INTEGER,
    player VARCHAR,
    expected VARCHAR,
    actual VARCHAR,
    message VARCHAR NOT NULL,
    file VARCHAR NOT NULL,
    line INTEGER NOT NULL
);
INSERT INTO keyed.violations BY NAME SELECT h.hk, x.* EXCLUDE (site, hand_id) FROM violations x
    JOIN hands h USING (site, hand_id) ORDER BY h.hk, x.rowid;
DROP TABLE violations;

CREATE TABLE keyed.unverifiable (
    hk BIGINT NOT NULL,
    profile VARCHAR NOT NULL,
    check_code VARCHAR NOT NULL,
    reason VARCHAR NOT NULL,
    line INTEGER
);
INSERT INTO keyed.unverifiable BY NAME SELECT h.hk, x.* EXCLUDE (site, hand_id) FROM unverifiable x
    JOIN hands h USING (site, hand_id) ORDER BY h.hk, x.rowid;
DROP TABLE unverifiable;

CREATE TABLE keyed.rule_awards (
    hk BIGINT NOT NULL,
    profile VARCHAR NOT NULL,
    player VARCHAR NOT NULL,
    rules_amount BIGINT NOT NULL,
    site_amount BIGINT NOT NULL
);
INSERT INTO keyed.rule_awards BY NAME SELECT h.hk, x.* EXCLUDE (site, hand_id) FROM rule_awards x
    JOIN hands h USING (site, hand_id) ORDER BY h.hk, x.rowid;
DROP TABLE rule_awards;

CREATE TABLE keyed.stated_pots (
    hk BIGINT NOT NULL,
    seq INTEGER NOT NULL,
    pot INTEGER NOT NULL,
    amount BIGINT NOT NULL,
    after_rake BOOLEAN NOT NULL,
    line INTEGER NOT NULL
);
INSERT INTO keyed.stated_pots BY NAME SELECT h.hk, x.* EXCLUDE (site, hand_id) FROM stated_pots x
    JOIN hands h USING (site, hand_id) ORDER BY h.hk, x.seq;
DROP TABLE stated_pots;

CREATE TABLE keyed.restatements (
    hk BIGINT NOT NULL,
    seq INTEGER NOT NULL,
    fact VARCHAR NOT NULL,
    player VARCHAR NOT NULL,
    street INTEGER,
    amount BIGINT,
    cards VARCHAR,
    text VARCHAR,
    line INTEGER NOT NULL
);
INSERT INTO keyed.restatements BY NAME SELECT h.hk, x.* EXCLUDE (site, hand_id) FROM restatements x
    JOIN hands h USING (site, hand_id) ORDER BY h.hk, x.seq;
DROP TABLE restatements;
"""

#: the user's notes on hands and players and tags on hands (`hhtool note`, `hhtool tag`): a hand named by
#: (site, hand_id), so that a note outlives the hand's rows being replaced (a grown file read again)
NOTES_AND_TAGS = """
CREATE TABLE notes (                    -- one row per note on a hand or a player
    id BIGINT NOT NULL,
    target VARCHAR NOT NULL,            -- hand | player
    site VARCHAR,                       -- a hand's site; a player's when the note names one
    key VARCHAR NOT NULL,               -- the hand's hand_id, or the player's name
    text VARCHAR NOT NULL,
    created TIMESTAMP NOT NULL          -- UTC
);
CREATE TABLE hand_tags (                -- one row per tag on a hand
    site VARCHAR NOT NULL,
    hand_id VARCHAR NOT NULL,
    tag VARCHAR NOT NULL,
    added_at TIMESTAMP NOT NULL DEFAULT current_timestamp
);
"""

#: a tournament hand's buy-in (on ``hands``) and the finishes hands state (#25, `hhtool tournaments`): a stored
#: hand's in ``finishes``, a skipped hand's (a mixed tournament's hand of another game) on ``skipped_hands``. Hands
#: stored before have neither (NULL, no rows: the store keeps no header text to read them from); a store
#: made afresh from the same files has them
TOURNAMENT_FACTS = """
ALTER TABLE hands ADD COLUMN buy_in BIGINT;
ALTER TABLE hands ADD COLUMN buy_in_fee BIGINT;
ALTER TABLE hands ADD COLUMN buy_in_bounty BIGINT;
ALTER TABLE hands ADD COLUMN buy_in_currency VARCHAR;
ALTER TABLE hands ADD COLUMN buy_in_unit INTEGER;
ALTER TABLE skipped_hands ADD COLUMN tournament_id VARCHAR;
ALTER TABLE skipped_hands ADD COLUMN finish_players VARCHAR[];
ALTER TABLE skipped_hands ADD COLUMN finish_places INTEGER[];
ALTER TABLE skipped_hands ADD COLUMN finish_prizes BIGINT[];
ALTER TABLE skipped_hands ADD COLUMN finish_currencies VARCHAR[];
ALTER TABLE skipped_hands ADD COLUMN finish_units INTEGER[];
ALTER TABLE skipped_hands ADD COLUMN finish_lines INTEGER[];
CREATE TABLE keyed.finishes (
    hk BIGINT NOT NULL,
    seq INTEGER NOT NULL,
    player VARCHAR NOT NULL,
    place INTEGER,
    prize BIGINT,
    currency VARCHAR,
    unit INTEGER NOT NULL,
    line INTEGER NOT NULL
);
"""

#: the all-in EV of each hand where it is defined (docs/allin-ev.md): its status or why not on ``hands``, each
#: player's EV net beside his net on ``results``. Hands stored before have none (NULL): a store made afresh has them
ALLIN_EV = """
ALTER TABLE hands ADD COLUMN allin_ev VARCHAR;
ALTER TABLE hands ADD COLUMN allin_street INTEGER;
ALTER TABLE hands ADD COLUMN allin_deals BIGINT;
ALTER TABLE keyed.results ADD COLUMN ev_net BIGINT;
"""

#: the parameters a judgement adopted from a hand's own postings where no source states them (#33): the
#: ante, the bring-in, the rake a site that prints none kept. Hands stored before have none (their old
#: unverifiable ANTE, BRING_IN_AMOUNT and POT_TOTAL findings stay until the hands are imported again)
ASSUMPTIONS = """
CREATE TABLE keyed.assumptions (
    hk BIGINT NOT NULL,
    profile VARCHAR NOT NULL,
    kind VARCHAR NOT NULL,
    value BIGINT NOT NULL,
    words VARCHAR NOT NULL,
    line INTEGER
);
"""

#: every hand's instant in UTC (#35, :mod:`hhtool.clock`): the column here; the stored hands' values are computed
#: right after, in the same transaction, by :func:`_fill_started_utc` (from `started_at`, `timezone` and the site,
#: the store's own columns, so a migrated store equals one made afresh)
STARTED_UTC = """
ALTER TABLE hands ADD COLUMN started_utc TIMESTAMP;
"""

#: the ``finishes`` view holds a skipped hand's finishes too (#35: a mixed tournament's finish was only on
#: ``skipped_hands``), with each finish's tournament; nothing stored changes (views are made again after it)
FINISHES_OF_SKIPPED_HANDS = "DROP VIEW IF EXISTS finishes;"

#: how the stored hands of each table and level posted their forced bets, counted (#37: the cross-hand pass
#: reads these counts, not the posts of every hand stored at a batch's tables); the stored hands are counted
#: right after, in the same transaction, by :func:`hhtool.store.forced_bet_votes.count_all` (made afresh: a store
#: rewound to an earlier version, as tests make them, has the table already; an older store has none)
FORCED_BET_VOTES = """
DROP TABLE IF EXISTS forced_bet_votes;
CREATE TABLE forced_bet_votes (
    scope VARCHAR NOT NULL,
    place_key VARCHAR NOT NULL,
    kind VARCHAR NOT NULL,
    amounts BIGINT[] NOT NULL,
    posted BOOLEAN NOT NULL,
    hands BIGINT NOT NULL
);
"""

#: migrations[i] brings the schema to version i + 1
MIGRATIONS: list[str] = [SCHEMA_V1, STATED_FACTS, STAKES_SOURCES, MIGRATION_COPIES, FINDING_LINES, BETTING_FACTS,
                         PLAYER_ALIASES, HAND_KEY, NOTES_AND_TAGS, TOURNAMENT_FACTS, ALLIN_EV,
                         ASSUMPTIONS, STARTED_UTC, FINISHES_OF_SKIPPED_HANDS, FORCED_BET_VOTES]
CURRENT_VERSION = len(MIGRATIONS)
#: the version the spec describes: a fresh store starts there (it is CURRENT_VERSION; kept apart so
#: that a test adding a migration at run time gets a fresh store that still runs it)
SPEC_VERSION = CURRENT_VERSION

#: child tables holding per-hand rows, keyed by hk (``keyed.<name>``; the view ``<name>`` adds (site, hand_id))
HAND_TABLES = names_of(Role.HAND_PART)
REPLAY_TABLES = names_of(Role.REPLAY)


def _run(con: duckdb.DuckDBPyConnection, sql: str, params: list[object] | None = None) -> list[tuple[object, ...]]:
    return con.execute(sql, params or []).fetchall()


class SchemaTooNew(RuntimeError):
    pass


def current_version(con: duckdb.DuckDBPyConnection) -> int:
    exists = _run(con, "SELECT count(*) FROM information_schema.tables WHERE table_name = 'schema_version'")
    if not exists or not exists[0][0]:
        return 0
    rows = _run(con, "SELECT max(version) FROM schema_version")
    version = rows[0][0] if rows else None
    return version if isinstance(version, int) else 0


def migrate(con: duckdb.DuckDBPyConnection) -> int:
    """Bring the schema up to date (a new store: create it from the spec); returns the version now in force."""
    version = current_version(con)
    if version > CURRENT_VERSION:
        raise SchemaTooNew(
            f"this database has schema version {version}, newer than this hhtool understands ({CURRENT_VERSION})"
        )
    if version == 0:
        _apply(con, ddl(), SPEC_VERSION)
        version = SPEC_VERSION
    for target in range(version + 1, CURRENT_VERSION + 1):
        _apply(con, MIGRATIONS[target - 1], target, views=target == CURRENT_VERSION)
    return CURRENT_VERSION


def _apply(con: duckdb.DuckDBPyConnection, sql: str, version: int, views: bool = False) -> None:
    """Run ``sql`` and record ``version``, in one transaction; ``views``: then make the keyed tables'
    views again (a view records its table's columns: a migration may have added one)."""
    _run(con, "BEGIN TRANSACTION")
    try:
        _run(con, sql)
        if sql is STARTED_UTC:
            _fill_started_utc(con)
        if sql is FORCED_BET_VOTES:
            from hhtool.store.forced_bet_votes import count_all

            count_all(con)
        if views:
            _run(con, views_sql())
        _run(con, "INSERT INTO schema_version VALUES (?, current_timestamp)", [version])
        _run(con, "COMMIT")
    except Exception:
        _run(con, "ROLLBACK")
        raise


def _fill_started_utc(con: duckdb.DuckDBPyConnection) -> None:
    """Compute ``hands.started_utc`` of the stored hands: one conversion per distinct (site, zone label, time),
    written back by a join (a million hands: a few seconds)."""
    stated = _run(con, "SELECT DISTINCT site, timezone, started_at FROM hands WHERE started_at IS NOT NULL")
    if not stated:
        return
    import pyarrow as pa  # (here: only an upgrade needs Arrow, and `show` must not load it, test_startup_imports)

    instants = pa.table({
        "site": [row[0] for row in stated], "timezone": [row[1] for row in stated],
        "started_at": pa.array([row[2] for row in stated], pa.timestamp("us")),
        "started_utc": pa.array([utc_instant(str(row[0]), row[2], row[1] if isinstance(row[1], str) else None)
                                 if isinstance(row[2], datetime) else None for row in stated], pa.timestamp("us")),
    })
    con.register("_started_utc", instants)
    try:
        _run(con, """UPDATE hands SET started_utc = u.started_utc FROM _started_utc u
                     WHERE hands.site = u.site AND hands.started_at = u.started_at
                       AND hands.timezone IS NOT DISTINCT FROM u.timezone""")
    finally:
        con.unregister("_started_utc")
