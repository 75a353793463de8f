"""The list of stored hands (`hhtool hands`): one row a hand, or a hand and each player asked for dealt
in, with its pot, its verdict and whether another site has its id; chosen by the list's own filters
(verdict, the player's showdown, pot bounds), sorted and cut to a page, with the counts.

The selection of hands and the verdict come from the caller as SQL on ``hands h`` (the one
``HandFilter``, the verdict rule), the players' rows as the stored facts' query: the store decides
neither which hands nor what a verdict is.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    import polars as pl

    from hhtool.store import Store

#: the pot: what the players put in, less uncalled bets returned (known for every hand)
POT_SQL = ("(SELECT CAST(coalesce(sum(r.contributed), 0) AS BIGINT) FROM results r "
           "WHERE r.site = h.site AND r.hand_id = h.hand_id)")
#: another site has a hand of this id (a hand id alone does not name it)
ELSEWHERE_SQL = "EXISTS (SELECT 1 FROM hands o WHERE o.hand_id = h.hand_id AND o.site <> h.site)"
#: a player's row of the stored facts (``f``): his net, showdown and cards
_PLAYER_COLUMNS = ("f.player, f.net, CASE WHEN f.went_sd = 1 THEN CASE WHEN f.collected > 0 THEN 'won' ELSE 'lost' END "
                   "END AS showdown, (SELECT string_agg(coalesce(c.card, '??'), ' ' ORDER BY c.seq) FROM cards c "
                   "WHERE c.site = h.site AND c.hand_id = h.hand_id AND c.player = f.player) AS cards")
#: money sorts by its amount in currency units, exactly (a decimal currency's unit divides 10^6)
_SCALE = 1_000_000


class ListChoice(NamedTuple):
    """The list's own filters; None: any. Pot bounds are inclusive, in each hand's currency units."""

    verdict: str | None = None
    showdown: str | None = None
    min_pot: Decimal | None = None
    max_pot: Decimal | None = None


class Page(NamedTuple):
    """A page of listed rows, how many rows the list's filters keep, and how many there were before them."""

    rows: pl.DataFrame
    total: int
    before: int


def _hand_columns(verdict: str) -> str:
    # started_at: the hand's UTC instant, which orders the list (the service shows it in the user's zone)
    return ("h.site, h.hand_id, h.started_utc AS started_at, h.timezone, h.table_name AS \"table\", h.tournament_id, "
            "h.currency, "
            f"h.unit, h.small_bet, h.big_bet, h.players, {POT_SQL} AS pot, {verdict} AS verdict, h.rules_profile")


#: the keys whose values are money: sorted within each currency (currencies A to Z, chips among them),
#: since a pot of 10 chips, of $10 and of €10 are no three sizes of one thing
MONEY_SORT_KEYS = ("pot", "net")


def _sort_sql(key: str) -> str:
    if key in MONEY_SORT_KEYS:
        return f"CAST(l.{key} AS HUGEINT) * {_SCALE} // l.unit"
    if key == "small_bet":  # the stakes: by the big bet, then the small bet
        return f"CAST(l.big_bet AS HUGEINT) * {_SCALE} // l.unit, CAST(l.small_bet AS HUGEINT) * {_SCALE} // l.unit"
    return f'l."{key}"'


def _order(key: str, descending: bool, with_player: bool) -> str:
    direction = " DESC" if descending else ""
    order = ", ".join(f"{part}{direction} NULLS LAST" for part in _sort_sql(key).split(", "))
    if key in MONEY_SORT_KEYS:  # (the currency A to Z whichever way the amounts go)
        order = f"l.currency, {order}"
    return order + ", l.started_at DESC NULLS LAST, l.site, l.hand_id" + (", l.player" if with_player else "")


def _choice_sql(choice: ListChoice) -> tuple[str, list[Any]]:
    parts: list[str] = []
    params: list[Any] = []
    if choice.verdict is not None:
        parts.append("l.verdict = ?")
        params.append(choice.verdict)
    if choice.showdown is not None:
        parts.append("l.showdown = ?")
        params.append(choice.showdown)
    # exact: the pot is whole smallest units, the bound a decimal in currency units
    if choice.min_pot is not None:
        parts.append("l.pot >= CAST(? AS DECIMAL(38,6)) * l.unit")
        params.append(str(choice.min_pot))
    if choice.max_pot is not None:
        parts.append("l.pot <= CAST(? AS DECIMAL(38,6)) * l.unit")
        params.append(str(choice.max_pot))
    return " AND ".join(parts) or "TRUE", params


def hands_page(store: Store, where: str, params: Sequence[Any], verdict: str, choice: ListChoice, sort: str,
               descending: bool, limit: int | None) -> Page:
    """The hands meeting ``where`` (on ``hands h``) and ``choice``, one row each, sorted by the column
    ``sort`` (then newest first), the first ``limit`` (None or 0: all). ``verdict``: a hand's
    verdict, as SQL on ``hands h``."""
    rows = (f"SELECT {_hand_columns(verdict)}, h.file, h.first_line, {ELSEWHERE_SQL} AS id_elsewhere "
            f"FROM hands h WHERE {where}")
    return _page(store, rows, params, choice, _order(sort, descending, False), limit)


def player_hands_page(store: Store, facts: str, params: Sequence[Any], verdict: str, choice: ListChoice, sort: str,
                      descending: bool, limit: int | None) -> Page:
    """As :func:`hands_page`, a row for each row of ``facts`` (a query of the stored facts: a player
    dealt into a hand), with the player's net, showdown and cards."""
    rows = (f"SELECT {_hand_columns(verdict)}, {_PLAYER_COLUMNS}, h.file, h.first_line, {ELSEWHERE_SQL} AS id_elsewhere "
            f"FROM ({facts}) f JOIN hands h ON h.site = f.site AND h.hand_id = f.hand_id")
    return _page(store, rows, params, choice, _order(sort, descending, True), limit)


def _page(store: Store, rows: str, params: Sequence[Any], choice: ListChoice, order: str, limit: int | None) -> Page:
    condition, condition_params = _choice_sql(choice)
    counted = store.run(f"SELECT count(*), count(*) FILTER (WHERE {condition}) FROM ({rows}) l",
                        [*condition_params, *params])
    before, total = int(counted[0][0]), int(counted[0][1])
    page = f"SELECT * FROM ({rows}) l WHERE {condition} ORDER BY {order}" + (f" LIMIT {int(limit)}" if limit else "")
    return Page(store.frame(page, [*params, *condition_params]), total, before)


__all__ = ["ELSEWHERE_SQL", "POT_SQL", "ListChoice", "Page", "hands_page", "player_hands_page"]
