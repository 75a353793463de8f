"""`hhtool export`: the store's tables as partitioned Parquet (the layout a cluster import writes),
or the chosen stored hands as PHH (the PokerKit project's hand history notation, variant F7S/8)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from hhtool.replay.codes import Code
from hhtool.service.errors import CannotWrite
from hhtool.service.judging import stored_hands
from hhtool.service.out_files import prepare_out_file, prepare_out_folder
from hhtool.service.stores import Database
from hhtool.store import Store
from hhtool.store.filters import HandFilter
from hhtool.store.spec import TABLES, Role

if TYPE_CHECKING:
    from hhtool.model import Hand

#: every table of the store but its own bookkeeping (schema_version, the cross-hand pass's counts), as the spec lists them
EXPORTED_TABLES = tuple(table.name for table in TABLES if table.role is not Role.META)
_UNSAFE_IN_NAME = re.compile(r"[^A-Za-z0-9._-]+")


def export_parquet(database: Database, out_dir: str) -> dict[str, int]:
    """Every exported table as ``<out_dir>/<table>/part-00000.parquet``; rows written per table.
    CannotWrite when the folder cannot be written."""
    from hhtool.store.parquet import export_parquet as write_tables

    with database.open(read_only=True) as store:
        try:
            return write_tables(store, out_dir, EXPORTED_TABLES)
        except OSError as error:
            raise CannotWrite(out_dir, error) from error


def phh_file_name(site: str, hand_id: str, taken: set[str]) -> str:
    """``<site>-<hand id>.phh`` with characters a file name should not hold replaced; unique in ``taken``.

    >>> taken = set()
    >>> phh_file_name("merge", "81234567/2", taken), phh_file_name("merge", "81234567:2", taken)
    ('merge-81234567_2.phh', 'merge-81234567_2-2.phh')
    """
    stem = _UNSAFE_IN_NAME.sub("_", f"{site}-{hand_id}")
    name, number = f"{stem}.phh", 1
    while name in taken:
        number += 1
        name = f"{stem}-{number}.phh"
    taken.add(name)
    return name


@dataclass
class PhhExport:
    """Hands written, "site hand: reason" of each hand PHH cannot express (not written) and of each
    written hand PokerKit cannot replay, and what judged that (PokerKit itself, or hhtool's rules
    for it where PokerKit is not installed)."""

    written: int = 0
    refused: list[str] = field(default_factory=list)
    unreplayable: list[str] = field(default_factory=list)
    checked_by: str = ""


#: the codes of hhtool's `pokerkit` profile whose violations PokerKit refuses to play (it chooses
#: who brings in and who acts itself, and takes no other order)
POKERKIT_REFUSES = frozenset({Code.BRING_IN_PLAYER, Code.ACTION_ORDER})


def _pokerkit_checker() -> tuple[Callable[[Hand, str], str | None], str]:
    """(why PokerKit cannot replay an exported hand, or None; what judges it)."""
    try:
        from importlib.metadata import version

        import pokerkit  # noqa: F401 - only whether it is there
    except ImportError:
        return _by_known_rules, "hhtool's rules for PokerKit (PokerKit is not installed: pip install pokerkit)"
    return _by_pokerkit, f"PokerKit {version('pokerkit')}"


def _by_pokerkit(hand: Hand, text: str) -> str | None:
    """PokerKit's refusal, with the hidden up card behind it where there is one (PokerKit names
    only the action it refused)."""
    from hhtool.reports.phh_writer import hidden_up_card, pokerkit_problem

    problem = pokerkit_problem(text)
    hidden = hidden_up_card(hand) if problem is not None else None
    return problem if hidden is None else f"{problem} ({hidden})"


def _by_known_rules(hand: Hand, _text: str) -> str | None:
    """What hhtool knows PokerKit refuses: an up card the history hides (PokerKit orders the players
    by their up cards), or a bring-in or action order other than its own (the `pokerkit` profile)."""
    from hhtool.replay import replay
    from hhtool.reports.phh_writer import hidden_up_card

    hidden = hidden_up_card(hand)
    if hidden is not None:
        return hidden
    for violation in replay(hand, "pokerkit").violations:
        if violation.code in POKERKIT_REFUSES:
            return f"PokerKit plays another order: {violation.message}"
    return None


def export_phh(database: Database, target: Path, hand_filter: HandFilter, user_fields: bool = True) -> PhhExport:
    """Write the matching hands to ``target``: one ``.phhs`` when it ends so, else a folder of ``.phh``
    files (with hhtool's ``_hhtool_*`` fields unless ``user_fields`` is false). CannotWrite when the
    target cannot be written."""
    with database.open(read_only=True) as store:
        try:
            return _write_phh(store, target, hand_filter, user_fields)
        except OSError as error:
            raise CannotWrite(target, error) from error


def _write_phh(store: Store, target: Path, hand_filter: HandFilter, user_fields: bool) -> PhhExport:
    from hhtool.reports.phh_writer import PhhExportError, hand_to_phh

    check, checked_by = _pokerkit_checker()
    exported = PhhExport(checked_by=checked_by)
    single = target.suffix.lower() == ".phhs"
    if single:
        sink = prepare_out_file(target).open("w", encoding="utf-8", newline="\n")
    else:
        prepare_out_folder(target)
    taken: set[str] = set()
    try:
        for hand in stored_hands(store, hand_filter):
            try:
                text = hand_to_phh(hand, str(exported.written + 1) if single else None, user_fields)
            except PhhExportError as error:
                exported.refused.append(f"{hand.site} {hand.hand_id}: {error}")
                continue
            problem = check(hand, hand_to_phh(hand, None, user_fields) if single else text)  # a hand, not a section
            if problem is not None:  # written all the same: PHH expresses it, PokerKit cannot play it
                exported.unreplayable.append(f"{hand.site} {hand.hand_id}: {problem}")
            if single:
                sink.write(("\n" if exported.written else "") + text)
            else:
                (target / phh_file_name(hand.site, hand.hand_id, taken)).write_text(text, encoding="utf-8", newline="\n")
            exported.written += 1
    finally:
        if single:
            sink.close()
    return exported
