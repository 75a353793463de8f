"""The SQL definition of Stud's 3rd-street starting-hand groups (`hhtool stats --by start`), which the
stored facts carry as ``start``; :mod:`hhtool.reports.starting_hands` describes the groups and lists
them in order.

>>> [start_group(cards) for cards in ("Kd Ks Kh", "9c 9d Ah", "Ah 7c As", "2c 7d Ah", "?? 2d 9h")]
['rolled-up trips', 'buried pair 9', 'split pair A', 'three to a low', 'unknown']
"""

from __future__ import annotations

RANKS = "AKQJT98765432"  # high to low: the order groups of a rank are listed in
LOW_RANKS = "A2345678"
UNKNOWN = "unknown"


def start_group_sql(cards: str) -> str:
    """The group of the 3rd-street cards in the SQL column ``cards`` ("down down door", one space
    between cards, e.g. ``9c 9d Ah``): the one definition of the groups. The facts carry it as
    ``start`` (so the daily sums are kept per group); :func:`start_group` evaluates it for one string."""
    card = [f"split_part({cards}, ' ', {i})" for i in (1, 2, 3)]
    rank = [f"upper(substr({c}, 1, 1))" for c in card]
    suit = [f"lower(substr({c}, 2, 1))" for c in card]
    first, second, door = rank
    known = " AND ".join([f"len(string_split({cards}, ' ')) = 3",
                          *(f"length({c}) = 2 AND strpos('{RANKS}', {r}) > 0" for c, r in zip(card, rank, strict=True))])
    high = [f"(15 - strpos('{RANKS}', {r}))" for r in rank]  # A 14, K 13, … 2 2
    low = [f"CASE WHEN {r} = 'A' THEN 1 ELSE {v} END" for r, v in zip(rank, high, strict=True)]
    within_five = " OR ".join(f"greatest({', '.join(v)}) - least({', '.join(v)}) <= 4" for v in (high, low))
    return (f"CASE WHEN coalesce({known}, FALSE) THEN CASE "
            f"WHEN {first} = {second} AND {second} = {door} THEN 'rolled-up trips' "
            f"WHEN {first} = {second} THEN 'buried pair ' || {first} "
            f"WHEN {door} IN ({first}, {second}) THEN 'split pair ' || {door} "
            f"WHEN {' AND '.join(f'strpos({LOW_RANKS!r}, {r}) > 0' for r in rank)} THEN 'three to a low' "
            f"WHEN {suit[0]} = {suit[1]} AND {suit[1]} = {suit[2]} THEN 'three to a flush' "
            f"WHEN {within_five} THEN 'three to a straight' "
            f"ELSE 'high cards, door ' || {door} END ELSE '{UNKNOWN}' END")


def start_group(cards: str | None) -> str:
    """The group of the 3rd-street cards ``cards``: "down down door" (e.g. ``"9c 9d Ah"``), as the
    facts compute it (:func:`start_group_sql`, run by an in-memory DuckDB)."""
    import duckdb

    with duckdb.connect(":memory:") as con:
        found = con.execute(f"SELECT {start_group_sql('c')} FROM (SELECT CAST(? AS VARCHAR) AS c)", [cards]).fetchall()
    return str(found[0][0])
