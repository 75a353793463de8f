"""`hhtool audit [PATH…]`: import the paths given, judge the forced bets of hands stored before the
table-context pass, replay the chosen hands again under --rules, and report their violations and
verdicts; or explain one hand (`--explain`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hhtool.ingest.cross_hand import has_never_judged, judge_hands, judge_never_judged
from hhtool.replay.codes import Code
from hhtool.service.errors import UsageError
from hhtool.service.filters import close_to, require_matches
from hhtool.service.importing import ImportOptions, check_rules, collect_paths, import_into
from hhtool.service.judging import explain_stored, rereplay, write_dispute_pages
from hhtool.service.stores import Database
from hhtool.service.verdicts import verdict_counts, violations
from hhtool.store import Store, StoreError
from hhtool.store.filters import HandFilter

if TYPE_CHECKING:
    from hhtool.ingest.accounting import ImportReport
    from hhtool.replay.user_structures import UserStructures
    from hhtool.reports.dispute import Report
    from hhtool.reports.dispute.customer import CustomerCopy

#: hears the report of the import `audit PATH…` ran, before anything else is reported
OnImported = Callable[["ImportReport"], None]


@dataclass(frozen=True)
class AuditOutcome:
    """The violations reported (each as VIOLATION_KEYS), the matching hands per verdict, and the
    dispute pages written (``--report DIR``; None when none were asked for)."""

    violations: list[dict[str, Any]]
    verdicts: dict[str, int]
    pages: int | None = None


def audit(database: Database, paths: Sequence[str], hand_filter: HandFilter, code: Code | None, player: str | None,
          rules: str | None, on_imported: OnImported | None = None, report_dir: str | None = None,
          desk: UserStructures | None = None) -> AuditOutcome:
    """The violations and verdicts of the matching hands, under ``rules`` (replayed again) or each
    hand's own profile (as stored), with a dispute page per hand with a violation in ``report_dir``
    when given. Without paths or rules the store is only read."""
    with _audited_store(database, paths, rules, on_imported, explaining=False, desk=desk) as (store, reading):
        if not reading:
            judge_never_judged(store)  # a store from before the table-context pass: judge its forced bets once
        profile = None
        if rules:  # every matching stored hand judged again under it (the replay and the cross-hand pass), stored whole
            profile = rereplay(store, rules, hand_filter, desk)
        elif desk is not None:  # the user's structures file: the forced bets judged again with it, each hand's own profile
            where, params = hand_filter.sql()
            judge_hands(store, where, params, None, desk=desk)
        require_matches(store, hand_filter, player)
        found = violations(store, hand_filter, code, player, profile)
        pages = None
        if report_dir is not None:
            pages = write_dispute_pages(store, report_dir, {(row["site"], row["hand_id"]) for row in found}, rules, desk)
        return AuditOutcome(found, verdict_counts(store, hand_filter, profile), pages)


#: who `audit --explain` writes for: the desk (everything) or the player (the customer copy)
EXPLAIN_FORMS = ("desk", "player")


def explain(database: Database, paths: Sequence[str], hand_id: str, site: str | None, rules: str | None,
            on_imported: OnImported | None = None, form: str = "desk", show_hidden: bool = False,
            player: str | None = None, desk: UserStructures | None = None) -> Report | CustomerCopy:
    """`audit --explain HAND_ID`: the dispute report of the stored hand with that id (after importing
    the paths given), the desk's or (``form`` "player") the copy a player can be sent, its hole cards
    that nobody showed hidden unless ``show_hidden``; UsageError when none is stored, or several sites
    share the id, or for a form not in :data:`EXPLAIN_FORMS`; ``player`` (with the player's copy)
    addresses it to that player of the hand (UsageError, with the names close to it, for a name the
    hand does not hold)."""
    if form not in EXPLAIN_FORMS:
        raise UsageError(f"--for {form!r}: use {' or '.join(EXPLAIN_FORMS)}")
    if show_hidden and form != "player":
        raise UsageError("--show-hidden goes with --for player (the desk's report shows every card it knows)")
    if player is not None and form != "player":
        raise UsageError("--player with --explain addresses the player's copy: add --for player")
    with _audited_store(database, paths, rules, on_imported, explaining=True, desk=desk) as (store, _):
        report = explain_stored(store, hand_id, site, rules, desk)
    names = [view.player for view in report.players]
    if player is not None and player not in names:
        raise UsageError(f"--player {player!r}: no such player in hand {hand_id}{close_to(player, names)} "
                         f"(the players: {', '.join(names)})")
    if form == "player":
        from hhtool.reports.dispute.customer import customer_copy

        return customer_copy(report, show_hidden, player)
    return report


@contextmanager
def _audited_store(database: Database, paths: Sequence[str], rules: str | None, on_imported: OnImported | None,
                   explaining: bool, desk: UserStructures | None = None) -> Iterator[tuple[Store, bool]]:
    """The store, opened for writing when there are paths to import or hands to replay again, with
    the paths imported; and whether it is only read."""
    check_rules(rules)
    files = collect_paths(paths, None, database.warning) if paths else None
    reading = not files and not rules and (desk is None or explaining)
    if reading and not explaining:
        _judge_old_store_once(database)
    with database.open(read_only=reading) as store:
        if files:
            report = import_into(store, files, ImportOptions(rules=rules, jobs=1, structures=desk))
            if on_imported is not None:
                on_imported(report)
        yield store, reading


def _judge_old_store_once(database: Database) -> None:
    """A store from before the table-context pass gets its forced bets judged once, briefly as a
    writer, so that a reading audit reports the current judgement; where it cannot be written the
    audit goes on with what is stored and says so."""
    with database.open(read_only=True) as store:
        if not has_never_judged(store):
            return
    try:
        with database.open() as store:
            judge_never_judged(store)
    except StoreError as error:
        database.warning(f"the forced bets of hands imported by an older hhtool are not judged yet ({error})")
