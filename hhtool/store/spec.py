"""The store's tables, written once: every column's name, DuckDB type, nullability, default and
meaning, and each table's key. Derived from it: the DDL of a fresh store (:func:`ddl`), the Arrow
types of the row builders (:mod:`hhtool.store.tables`, which also takes the column order and the
model attribute each value is read from), the tables the Parquet export names, and the tables part
of ``docs/schema.md`` (:mod:`hhtool.store.document`; a test compares the two).

Adding a column (e.g. a new model field) is one edit here plus its migration:

1. append ``Column("to_call", BIGINT, "chips the player had to call before it", of="to_call")`` as
   the **last** column of its table (``ALTER TABLE ... ADD COLUMN`` appends, and a fresh store must
   equal a migrated one column for column); ``of`` names the attribute of the row's model value
   (``Action`` for ``actions``) the row builder reads it from and :mod:`hhtool.store.load` gives
   back to it by name (for the hand tables, ``of`` is a dataclass field), so neither needs an edit;
   a value the builder computes instead (no ``of``) is one more named list in the builder, and its
   ``Rows(..., given=...)`` in :mod:`hhtool.store.tables` names it (they are checked at import);
2. append one migration to ``MIGRATIONS`` in :mod:`hhtool.store.schema`
   (``ALTER TABLE actions ADD COLUMN to_call BIGINT;`` — a NOT NULL column needs a ``DEFAULT``, here
   and in the migration alike);
3. regenerate the document: ``python -m hhtool.store.document --write docs/schema.md``.

``tests/test_schema_spec.py`` fails when a migrated store differs from a fresh one, when a builder's
rows differ from its table, and when ``docs/schema.md`` differs from what this module generates.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

VARCHAR, INTEGER, BIGINT, BOOLEAN, TIMESTAMP = "VARCHAR", "INTEGER", "BIGINT", "BOOLEAN", "TIMESTAMP"
VARCHAR_LIST, INTEGER_LIST, BIGINT_LIST = "VARCHAR[]", "INTEGER[]", "BIGINT[]"


#: the DuckDB schema of the per-hand tables (roles HAND_PART and REPLAY), keyed by ``hands.hk``; a
#: view of the same name in ``main`` shows each of them with the hand's (site, hand_id) in its place
KEYED = "keyed"


class Role(StrEnum):
    """What a table holds, which is how other code names groups of tables."""

    META = "meta"  # the store's own bookkeeping
    IMPORT = "import"  # what an import found in the files, beside the hands
    HAND = "hand"  # the hands
    HAND_PART = "hand_part"  # per-hand rows, keyed by hk (the hand's number), written with the hand
    REPLAY = "replay"  # what a replay under a profile found, keyed by (hk, profile)
    SHARED = "shared"  # what the analysts record beside the hands (aliases, notes, tags), travelling with them


@dataclass(frozen=True, slots=True)
class Column:
    """One column. ``of``: the attribute (dotted path) of the model value a row is made from, which
    the row builder reads; None when the builder computes the value. ``default``: SQL text.
    ``auto``: the database fills it at insert (its default); row builders leave it out."""

    name: str
    type: str
    comment: str
    null: bool = False
    default: str | None = None
    of: str | None = None
    auto: bool = False

    def ddl(self) -> str:
        default = f" DEFAULT {self.default}" if self.default is not None else ""
        return f"{self.name} {self.type}{'' if self.null else ' NOT NULL'}{default}"


@dataclass(frozen=True, slots=True)
class Table:
    name: str
    row: str  # what one row is, for the document ("one row per …")
    role: Role
    columns: tuple[Column, ...]
    primary_key: tuple[str, ...] = ()

    def column(self, name: str) -> Column:
        for column in self.columns:
            if column.name == name:
                return column
        raise KeyError(f"{self.name} has no column {name}")

    @property
    def keyed(self) -> bool:
        """Stored in the ``keyed`` schema under ``hk``, shown in ``main`` by a view with (site, hand_id)."""
        return self.role in (Role.HAND_PART, Role.REPLAY)

    @property
    def stored(self) -> str:
        """The name of the table that holds the rows (``keyed.<name>`` for a keyed one)."""
        return f"{KEYED}.{self.name}" if self.keyed else self.name

    @property
    def built(self) -> tuple[Column, ...]:
        """The columns a row builder supplies (all but those the database fills)."""
        return tuple(column for column in self.columns if not column.auto)


def _key(of_hand: bool = False) -> tuple[Column, Column]:
    site = "the site whose history it is (`phh` for a PHH file: see `hands.origin_site`)"
    return (Column("site", VARCHAR, site, of="site" if of_hand else None),
            Column("hand_id", VARCHAR, "the site's id of the hand", of="hand_id" if of_hand else None))


#: the columns of ``skipped_hands`` holding the finishes a skipped hand states, each a list, in the order of
#: :class:`hhtool.model.Finish`'s fields (player, place, prize, currency, unit, line)
SKIPPED_FINISH_COLUMNS = ("finish_players", "finish_places", "finish_prizes", "finish_currencies", "finish_units",
                          "finish_lines")

#: the columns of ``hands`` holding a tournament hand's buy-in, in the order of :class:`hhtool.model.BuyIn`'s
#: fields (amount, fee, bounty, currency, unit); NULL where the hand states none
BUY_IN_COLUMNS = ("buy_in", "buy_in_fee", "buy_in_bounty", "buy_in_currency", "buy_in_unit")

#: the hand a keyed table's row belongs to (its view shows the hand's site and hand_id instead)
_HK = Column("hk", BIGINT, "the hand: `hands.hk`")


def _seq(what: str) -> Column:
    return Column("seq", INTEGER, f"0-based {what}")


def _line(meaning: str = "the line of the file that states it", of: str | None = "line") -> Column:
    return Column("line", INTEGER, meaning, of=of)


_PROFILE = Column("profile", VARCHAR, "the rules profile the hand was replayed under")


def _copy_place(which: str) -> tuple[Column, ...]:
    """Where one copy of a conflicting hand stands: ``<which>_file``, its lines and its text's sha256."""
    return (Column(f"{which}_file", VARCHAR, ""), Column(f"{which}_first_line", INTEGER, ""),
            Column(f"{which}_last_line", INTEGER, ""), Column(f"{which}_sha256", VARCHAR, ""))

TABLES: tuple[Table, ...] = (
    Table("schema_version", "version the store was created at or migrated to", Role.META, (
        Column("version", INTEGER, "schema version"),
        Column("applied_at", TIMESTAMP, "when"),
    )),
    Table("files", "file as last imported (the row of a file grown, read again another way, or shrunk or changed "
          "since it was read is replaced)", Role.IMPORT, (
        Column("path", VARCHAR, "absolute path as imported"),
        Column("sha256", VARCHAR, "of the bytes read (a file cut or rewritten while read: of what was read)"),
        Column("size", BIGINT, "bytes read (a file found shorter, or changed before them, is read again from its start)"),
        Column("site", VARCHAR, "detected or forced site; NULL when unrecognised", null=True),
        Column("encoding", VARCHAR, "the encoding the text was read in", null=True),
        Column("hands_found", INTEGER, "hands found in the whole file, whatever imports it took (so are the next five)"),
        Column("stored", INTEGER, "hands stored"),
        Column("duplicates", INTEGER, "hands already stored"),
        Column("skipped", INTEGER, "hands of another game"),
        Column("failed", INTEGER, "hands that could not be read (in `import_errors`)"),
        Column("incomplete", INTEGER, "truncated last hand (kept in `import_errors`, not a failure)"),
        Column("lines", INTEGER, "lines in the file at import"),
        Column("resume_line", INTEGER, "first line of the last hand: where a grown file is read again from"),
        Column("imported_at", TIMESTAMP, "when", default="current_timestamp", auto=True),
        Column("reading", VARCHAR, "`detected`, or `forced` by `--site`: a file read another way is parsed again",
               default="'detected'"),
        Column("tail", VARCHAR_LIST, "how the items from `resume_line` on were counted", default="[]"),
    )),
    Table("hands", "hand", Role.HAND, (
        *_key(of_hand=True),
        Column("file", VARCHAR, "the file it was read from", of="source.file"),
        Column("first_line", INTEGER, "its first line in the file", of="source.first_line"),
        Column("last_line", INTEGER, "its last line", of="source.last_line"),
        Column("raw_sha256", VARCHAR, "sha256 of its text", of="source.sha256"),
        Column("started_at", TIMESTAMP, "as the history states it, in `timezone`", null=True, of="started_at"),
        Column("timezone", VARCHAR, "as the history names it", null=True, of="timezone"),
        Column("table_name", VARCHAR, "", null=True, of="table_name"),
        Column("tournament_id", VARCHAR, "", null=True, of="tournament_id"),
        Column("game_label", VARCHAR, "the site's name for the game", null=True, of="game_label"),
        Column("structure", VARCHAR, "fixed_limit, pot_limit or no_limit", of="stakes.structure"),
        Column("is_tournament", BOOLEAN, "", of="stakes.is_tournament"),
        Column("currency", VARCHAR, "USD, EUR, … or CHIPS / PLAY", of="stakes.currency"),
        Column("unit", INTEGER, "smallest units per currency unit (100 = cents, 1 = chips)", of="stakes.unit"),
        Column("ante", BIGINT, "the stakes (source in `ante_source`)", null=True, of="stakes.ante"),
        Column("bring_in", BIGINT, "source in `bring_in_source`", null=True, of="stakes.bring_in"),
        Column("small_bet", BIGINT, "no-limit and pot-limit: the minimum bet; source in `bets_source`", null=True,
               of="stakes.small_bet"),
        Column("big_bet", BIGINT, "NULL in no-limit and pot-limit unless stated", null=True, of="stakes.big_bet"),
        Column("table_size", INTEGER, "seats at the table, as stated", null=True, of="stakes.table_size"),
        Column("players", INTEGER, "seated players"),
        Column("hero", VARCHAR, "the player whose history it is, if it says", null=True, of="hero"),
        Column("dealer_seat", INTEGER, "the seat the site calls dealer, if any", null=True, of="dealer_seat"),
        Column("total_pot", BIGINT, "as the site states it", null=True, of="total_pot"),
        Column("rake", BIGINT, "as the site states it", null=True, of="rake"),
        Column("fees", BIGINT, "other deductions the site states (e.g. a jackpot fee)", of="fees"),
        Column("community_card", VARCHAR, "the 7th-street card shared when the deck runs out", null=True),
        Column("origin_site", VARCHAR, "for a PHH file hhtool wrote: the site that dealt the hand", null=True,
               of="origin_site"),
        Column("notes", VARCHAR_LIST, "ambiguities the parser recorded", null=True),
        Column("verdict", VARCHAR, "ok, violation or unverifiable (NULL: not replayed)", null=True),
        Column("rules_profile", VARCHAR, "the profile of `verdict`", null=True),
        Column("ante_source", VARCHAR, "where `ante` came from: header (stated by the history), posted (this hand's "
               "own forced bets), user (the user's structures file, --structures), context (what the other hands at the "
               "table agree on), site (what the site's other tables at the same level agree on), structure (hhtool's "
               "structures table of the site; user, context, site and structure are set by the cross-hand pass) or inferred "
               "(worked out from the betting)", default="'header'",
               of="stakes.ante_source"),
        Column("bring_in_source", VARCHAR, "where `bring_in` came from (as `ante_source`)", default="'header'",
               of="stakes.bring_in_source"),
        Column("bets_source", VARCHAR, "where `small_bet` and `big_bet` came from (as `ante_source`)", default="'header'",
               of="stakes.bets_source"),
        Column("note_lines", INTEGER_LIST, "`note_lines[i]`: the file line `notes[i]` is about (NULL: the hand as a "
               "whole)", null=True),
        Column("note_topics", VARCHAR_LIST, "`note_topics[i]`: what `notes[i]` is about where other code acts on it "
               "(`bets_inferred`, `private_table`, `structure_differs`, `bad_date`), else NULL", null=True),
        Column("hk", BIGINT, "the store's number of the hand, by which the per-hand tables refer to it (`keyed` "
               "schema): assigned by the import, increasing in the order hands are stored; (site, hand_id) stays the "
               "hand's identity"),
        Column("buy_in", BIGINT, "a tournament hand's buy-in as its header states it: the prize-pool part, in "
               "`buy_in_unit`s of `buy_in_currency` (0 for a freeroll); NULL where the header states none (and in a "
               "cash game)", null=True),
        Column("buy_in_fee", BIGINT, "the site's fee of the buy-in (`$10+$1`: 100 cents)", null=True),
        Column("buy_in_bounty", BIGINT, "a knockout's bounty part of the buy-in (PokerStars' `$200+$50+$15`: 5000 "
               "cents), else 0", null=True),
        Column("buy_in_currency", VARCHAR, "USD, EUR, … or PLAY (play money), FPP (PokerStars' player points), SC "
               "(StarsCoin); NULL for a freeroll", null=True),
        Column("buy_in_unit", INTEGER, "smallest units per unit of `buy_in_currency` (100 = cents, 1 = whole points)",
               null=True),
        Column("allin_ev", VARCHAR, "the all-in EV (docs/allin-ev.md): `exact` (every completion counted) or `sampled` "
               "(a seeded sample); where it is not defined, why: `no_all_in`, `last_card`, `uncontested`, `unshown`, "
               "`hidden_card`, `bad_cards`, `error`; NULL: not replayed", null=True),
        Column("allin_street", INTEGER, "the street whose betting closed the all-in (3–6); NULL without an EV", null=True),
        Column("allin_deals", BIGINT, "completions the EV averages over; NULL without an EV", null=True),
        Column("started_utc", TIMESTAMP, "the instant `started_at` names, in UTC: the history's wall time read in "
               "its `timezone` (zone database rules, daylight saving included), or in the site's default zone where "
               "it names none (`hhtool.clock`); everything that orders or filters hands by time uses it", null=True),
    ), primary_key=("site", "hand_id")),
    Table("seats", "player in a hand", Role.HAND_PART, (
        _HK, _seq("order of the seat lines in the history"),
        Column("seat", INTEGER, "", of="seat"),
        Column("player", VARCHAR, "", of="player"),
        Column("stack", BIGINT, "starting stack; NULL when not printed", null=True, of="stack"),
        Column("sitting_out", BOOLEAN, "", of="sitting_out"),
        Column("position", INTEGER, "0-based place in dealing order"),
        _line(),
        Column("dealt_in", BOOLEAN, "dealt into the hand (not sitting out), as the replay engine walked it; NULL "
               "when the hand's walk failed", null=True),
    )),
    Table("cards", "dealt card", Role.HAND_PART, (
        _HK, _seq("order of dealing within the hand"),
        Column("player", VARCHAR, "", of="player"),
        Column("street", INTEGER, "3–7", of="street"),
        Column("face", VARCHAR, "down or up"),
        Column("card", VARCHAR, "e.g. `Ah`; NULL when the history hides it", null=True),
        _line("the deal line"),
    )),
    Table("actions", "action", Role.HAND_PART, (
        _HK, _seq("order within the hand, antes first"),
        Column("street", INTEGER, "3–7", of="street"),
        Column("player", VARCHAR, "", of="player"),
        Column("kind", VARCHAR, "ante, bring_in, complete, bet, raise, call, check or fold", of="kind"),
        Column("amount", BIGINT, "chips this action put in", of="amount"),
        Column("to_amount", BIGINT, "the player's street total after it", of="to_amount"),
        Column("all_in", BOOLEAN, "", of="all_in"),
        _line(),
        Column("to_call", BIGINT, "chips the player had to add to match the street's bet before the action (0 for "
               "antes), as the replay engine computed it; NULL when the hand's walk failed", null=True),
        Column("level_before", INTEGER, "completions, bets and raises on the street before the action (the bring-in "
               "is none); NULL when the hand's walk failed", null=True),
    )),
    Table("returns", "uncalled bet returned", Role.HAND_PART, (
        _HK, _seq("order within the hand"),
        Column("street", INTEGER, "", of="street"),
        Column("player", VARCHAR, "", of="player"),
        Column("amount", BIGINT, "", of="amount"),
        _line(),
    )),
    Table("showdown", "player's shown or mucked hand", Role.HAND_PART, (
        _HK, _seq("order within the hand"),
        Column("player", VARCHAR, "", of="player"),
        Column("status", VARCHAR, "shown, mucked or not_shown", of="status"),
        Column("cards", VARCHAR, "as printed, space-separated, `??` hidden", null=True),
        Column("high_text", VARCHAR, "the site's description", null=True, of="high_text"),
        Column("low_text", VARCHAR, "the site's description", null=True, of="low_text"),
        _line(),
    )),
    Table("awards", "collect line", Role.HAND_PART, (
        _HK, _seq("order within the hand"),
        Column("player", VARCHAR, "", of="player"),
        Column("amount", BIGINT, "", of="amount"),
        Column("pot", INTEGER, "0 main, N side pot N, NULL unknown", null=True, of="pot"),
        Column("half", VARCHAR, "high, low, whole or unknown", of="half"),
        _line(),
    )),
    Table("results", "player in a hand: money in, out, net", Role.HAND_PART, (
        _HK,
        Column("player", VARCHAR, ""),
        Column("contributed", BIGINT, "put in less returns"),
        Column("collected", BIGINT, ""),
        Column("net", BIGINT, "`collected` - `contributed`"),
        Column("ev_net", BIGINT, "the all-in EV net, in thousandths of the smallest unit: expected winnings at the "
               "moment the betting closed less the contribution (docs/allin-ev.md); NULL where the hand has none",
               null=True),
    )),
    Table("import_errors", "hand that failed, or lines that are no hand", Role.IMPORT, (
        Column("file", VARCHAR, "", of="raw.file"),
        Column("first_line", INTEGER, "", of="raw.first_line"),
        Column("last_line", INTEGER, "", of="raw.last_line"),
        Column("line", INTEGER, "where parsing stopped", of="line"),
        Column("site", VARCHAR, "", null=True, of="site"),
        Column("hand_id", VARCHAR, "", null=True, of="hand_id"),
        Column("reason", VARCHAR, "", of="reason"),
        Column("raw_text", VARCHAR, "the lines, as read", of="raw.text"),
        Column("raw_sha256", VARCHAR, "of `raw_text`"),
        Column("imported_at", TIMESTAMP, "when", default="current_timestamp", auto=True),
        Column("kind", VARCHAR, "unreadable; ends_early: a truncated hand; stray_text: lines after a complete hand "
               "that belong to no hand; unknown_format; damaged: the unread rest of a damaged archive",
               default="'unreadable'", of="kind"),
    )),
    Table("skipped_hands", "hand of another game", Role.IMPORT, (
        Column("file", VARCHAR, "", of="raw.file"),
        Column("first_line", INTEGER, "", of="raw.first_line"),
        Column("site", VARCHAR, "", of="site"),
        Column("hand_id", VARCHAR, "", null=True, of="hand_id"),
        Column("game", VARCHAR, "as the site names it", of="game"),
        Column("tournament_id", VARCHAR, "a tournament hand's tournament (kept for the finishes it states)", null=True,
               of="tournament_id"),
        Column("finish_players", VARCHAR_LIST, "the players a finish line of the hand names (a mixed tournament's "
               "last hand dealt as another game), as `finishes.player`; NULL when it states none", null=True),
        Column("finish_places", INTEGER_LIST, "`finish_places[i]`: the place of `finish_players[i]`, as "
               "`finishes.place`", null=True),
        Column("finish_prizes", BIGINT_LIST, "as `finishes.prize`", null=True),
        Column("finish_currencies", VARCHAR_LIST, "as `finishes.currency`", null=True),
        Column("finish_units", INTEGER_LIST, "as `finishes.unit`", null=True),
        Column("finish_lines", INTEGER_LIST, "the file line of each finish line", null=True),
    )),
    Table("violations", "rule violation", Role.REPLAY, (
        _HK, _PROFILE,
        Column("code", VARCHAR, "the rule's code (docs/violations.md)", of="code"),
        Column("street", INTEGER, "NULL for a hand-level finding", null=True, of="street"),
        Column("player", VARCHAR, "", null=True, of="player"),
        Column("expected", VARCHAR, "what the rules require", null=True, of="expected"),
        Column("actual", VARCHAR, "what the history shows", null=True, of="actual"),
        Column("message", VARCHAR, "", of="message"),
        Column("file", VARCHAR, "", of="file"),
        _line("the line it is found on"),
    )),
    Table("unverifiable", "check that could not run", Role.REPLAY, (
        _HK, _PROFILE,
        Column("check_code", VARCHAR, "", of="check"),
        Column("reason", VARCHAR, "", of="reason"),
        Column("line", INTEGER, "the file line of the cause, like `violations.line`; NULL when the cause is the "
               "whole hand (e.g. a stake the history never states)", null=True, of="line"),
    )),
    Table("assumptions", "parameter of the rules a judgement adopted from the hand's own postings", Role.REPLAY, (
        _HK, _PROFILE,
        Column("kind", VARCHAR, "ante, bring_in or rake", of="kind"),
        Column("value", BIGINT, "the value adopted, in the hand's smallest unit", of="value"),
        Column("words", VARCHAR, "the assumption in plain words, as every report shows it", of="words"),
        Column("line", INTEGER, "the file line of the postings that give it; NULL: the whole hand (the rake)",
               null=True, of="line"),
    )),
    Table("rule_awards", "player in a replayed hand", Role.REPLAY, (
        _HK, _PROFILE,
        Column("player", VARCHAR, "", of="player"),
        Column("rules_amount", BIGINT, "what the rules award", of="rules_amount"),
        Column("site_amount", BIGINT, "what the site paid", of="site_amount"),
    )),
    Table("stated_pots", "pot amount a summary states (`Main pot $0.41. Side pot $0.18.`)", Role.HAND_PART, (
        _HK, _seq("order within the hand"),
        Column("pot", INTEGER, "0 main, N side pot N", of="pot"),
        Column("amount", BIGINT, "", of="amount"),
        Column("after_rake", BOOLEAN, "true: what the pot held once raked, as PokerStars states it; false: before the "
               "rake, as Full Tilt does", of="after_rake"),
        _line(),
    )),
    Table("restatements", "fact the history states a second time", Role.HAND_PART, (
        _HK, _seq("order within the hand"),
        Column("fact", VARCHAR, "cards: a later deal line's repeated earlier cards; folded, showed, mucked, won, lost, "
               "net, stack_after: a summary seat line", of="fact"),
        Column("player", VARCHAR, "", of="player"),
        Column("street", INTEGER, "the deal line's street (cards) or the street folded on", null=True, of="street"),
        Column("amount", BIGINT, "won: every pot and half together", null=True, of="amount"),
        Column("cards", VARCHAR, "as restated, `??` for a hidden card; NULL when none", null=True),
        Column("text", VARCHAR, "the hand description the line repeats", null=True, of="text"),
        _line(),
    )),
    Table("finishes", "tournament finish a hand states (`X finished the tournament in 2nd place and received "
          "$12.34.`)", Role.HAND_PART, (
        _HK, _seq("order within the hand"),
        Column("player", VARCHAR, "", of="player"),
        Column("place", INTEGER, "1 for the winner; NULL when the line names no place", null=True, of="place"),
        Column("prize", BIGINT, "in `unit`s of `currency`; NULL when the line states no prize", null=True, of="prize"),
        Column("currency", VARCHAR, "the prize's: as the line writes it, else the buy-in's; NULL when neither says",
               null=True, of="currency"),
        Column("unit", INTEGER, "smallest units per unit of `currency`", of="unit"),
        _line(),
    )),
    Table("copy_conflicts", "second copy of a stored hand whose history differs", Role.IMPORT, (
        Column("site", VARCHAR, "the stored (first) copy, which is kept"),
        Column("hand_id", VARCHAR, "the stored copy's id"),
        *_copy_place("first"),
        Column("second_site", VARCHAR, "a PHH copy is `phh` (with `second_hand_id` `<site>:<id>`)"),
        Column("second_hand_id", VARCHAR, ""),
        *_copy_place("second"),
        Column("kind", VARCHAR, "text: same format, text differs beyond blanks; content: another format, or the first "
               "copy's file is gone, and the hand's facts differ; grown: the first copy was read while its file was "
               "still being written"),
        Column("diff", VARCHAR, "line-level summary"),
        Column("first_text", VARCHAR, "NULL when the first copy's file no longer holds it", null=True),
        Column("second_text", VARCHAR, ""),
    )),
    Table("aliases", "site name a person goes by (`hhtool alias`; a site name belongs to one person at most)",
          Role.SHARED, (
        Column("person", VARCHAR, "the name `--player` asks for: every site name of the person together (a name "
               "that is also a player's means the alias)"),
        Column("site", VARCHAR, "as `hands.site`"),
        Column("player", VARCHAR, "as the site's histories write it"),
        Column("added_at", TIMESTAMP, "when", default="current_timestamp", auto=True),
    )),
    Table("notes", "note a user wrote on a hand or a player (`hhtool note`; kept across re-imports: a hand is named "
          "by its site and id, not by `hk`)", Role.SHARED, (
        Column("id", BIGINT, "the note's number, as `hhtool note --delete ID` takes it (one more than the largest "
               "when written)"),
        Column("target", VARCHAR, "hand or player"),
        Column("site", VARCHAR, "a hand's site; a player's site when the note names one, NULL for the name on "
               "any site or an alias", null=True),
        Column("key", VARCHAR, "the hand's `hand_id`, or the player's name (as `--player` takes it)"),
        Column("text", VARCHAR, "as written (up to 10,000 characters; shown with control characters replaced)"),
        Column("created", TIMESTAMP, "when, in UTC"),
    )),
    Table("hand_tags", "tag on a hand (`hhtool tag`; kept across re-imports, by the hand's site and id)",
          Role.SHARED, (
        Column("site", VARCHAR, "as `hands.site`"),
        Column("hand_id", VARCHAR, "as `hands.hand_id`"),
        Column("tag", VARCHAR, "lower-case letters, digits, `_` and `-`, up to 40"),
        Column("added_at", TIMESTAMP, "when", default="current_timestamp", auto=True),
    )),    Table("forced_bet_votes", "way the stored hands of one table or one level posted one forced bet (the "
          "cross-hand pass's counts, changed in the transaction that stores or replaces the hands; derived from "
          "`actions` and `seats`, not exported)", Role.META, (
        Column("scope", VARCHAR, "table or level"),
        Column("place_key", VARCHAR, "the table's or level's key: JSON of the site that dealt it, whether a "
               "tournament, the table name or tournament id (a table only), small and big bet, currency, structure"),
        Column("kind", VARCHAR, "ante or bring_in"),
        Column("amounts", BIGINT_LIST, "the amounts of a hand's posts of it that were not all-in, smallest first"),
        Column("posted", BOOLEAN, "whether the hand posted it at all"),
        Column("hands", BIGINT, "how many stored hands posted so"),
    )),
)

BY_NAME: dict[str, Table] = {table.name: table for table in TABLES}


def table(name: str) -> Table:
    return BY_NAME[name]


def names_of(role: Role) -> tuple[str, ...]:
    return tuple(t.name for t in TABLES if t.role is role)


def view_sql(spec: Table) -> str:
    """The view showing a keyed table's rows with their hand's (site, hand_id) in place of ``hk``: the
    table as users' SQL and the exports know it. (Made again after each migration: a view records its
    columns, so one added to the table needs the view made again.)"""
    if spec.name == "finishes":
        return FINISHES_VIEW
    return (f"CREATE OR REPLACE VIEW {spec.name} AS SELECT h.site, h.hand_id, x.* EXCLUDE (hk) "
            f"FROM {spec.stored} x JOIN hands h ON h.hk = x.hk;")


#: the columns a keyed table's view adds after the table's own (the finishes view: its tournament, and whether
#: its hand is stored)
VIEW_EXTRA_COLUMNS: dict[str, tuple[str, ...]] = {"finishes": ("tournament_id", "stored_hand")}

#: every finish the histories state, for an analyst's SQL (#35): a stored hand's, and a skipped hand's (a
#: mixed tournament's last hand is often dealt as another game: its finishes are kept on ``skipped_hands``),
#: each with its tournament and whether its hand is stored
FINISHES_VIEW = f"""CREATE OR REPLACE VIEW finishes AS
SELECT h.site, h.hand_id, x.* EXCLUDE (hk), h.tournament_id, TRUE AS stored_hand
FROM {KEYED}.finishes x JOIN hands h ON h.hk = x.hk
UNION ALL
SELECT s.site, s.hand_id, CAST(f.seq AS INTEGER) AS seq, f.player, f.place, f.prize, f.currency, f.unit, f.line,
       s.tournament_id, FALSE AS stored_hand
FROM skipped_hands s, LATERAL (
    SELECT unnest(range(len(s.finish_players))) AS seq, unnest(s.finish_players) AS player,
           unnest(s.finish_places) AS place, unnest(s.finish_prizes) AS prize,
           unnest(s.finish_currencies) AS currency, unnest(s.finish_units) AS unit, unnest(s.finish_lines) AS line) f
WHERE s.finish_players IS NOT NULL;"""


def views_sql() -> str:
    return "\n".join(view_sql(spec) for spec in TABLES if spec.keyed) + "\n"


def ddl(only: Table | None = None) -> str:
    """CREATE TABLE statements of the current schema (of one table, or of all of them), and the views
    of the keyed tables."""
    statements = [] if only else [f"CREATE SCHEMA IF NOT EXISTS {KEYED};"]
    for spec in (only,) if only else TABLES:
        entries = [(column.ddl(), column.comment) for column in spec.columns]
        if spec.primary_key:
            entries.append((f"PRIMARY KEY ({', '.join(spec.primary_key)})", ""))
        lines = [f"    {code}{',' if index < len(entries) - 1 else ''}" + (f"  -- {comment}" if comment else "")
                 for index, (code, comment) in enumerate(entries)]
        statements.append(f"CREATE TABLE {spec.stored} (  -- one row per {spec.row}\n" + "\n".join(lines) + "\n);")
    if not only:
        statements.append(views_sql())
    return "\n\n".join(statements) + "\n"
