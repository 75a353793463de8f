"""Player aliases: one person's names on several sites, grouped as one player (`hhtool alias`).

They are rows of the store's ``aliases`` table (person, site, player), not of the user's config
file: the numbers `stats --player NAME` gives then depend on the store alone, and whoever reads the
store (or its Parquet export) groups the same names. Every filter asking for a player resolves the
alias (:func:`hhtool.store.filters.player_condition`): `stats`, `graph`, `violations`, `audit`,
`export` and any list of hands.

Names are matched exactly, as the histories write them and as ``--player`` matches them (no site
format documents case-insensitive names); a name a letter's case away is offered as "did you mean".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hhtool.service.errors import UsageError
from hhtool.service.filters import close_to
from hhtool.service.stores import Database
from hhtool.store import Store, known
from hhtool.store import aliases as stored


@dataclass(frozen=True, order=True)
class SiteName:
    """One name on one site (``pokerstars:Hero`` on the command line)."""

    site: str
    player: str

    def __str__(self) -> str:
        return f"{self.site}:{self.player}"


@dataclass(frozen=True)
class Alias:
    """A person and the site names grouped under it, with each name's hands in the store."""

    person: str
    names: tuple[tuple[SiteName, int], ...]

    @property
    def hands(self) -> int:
        return sum(count for _, count in self.names)


@dataclass(frozen=True)
class Added:
    """What `alias add` did: the names added, those the alias already had, and warnings to show."""

    person: str
    added: tuple[SiteName, ...]
    already: tuple[SiteName, ...]
    warnings: tuple[str, ...] = ()


def site_name(text: str) -> SiteName:
    """``SITE:PLAYER`` (the site lower-cased; the player's name as written, colons and all)."""
    site, colon, player = text.partition(":")
    if not colon or not site.strip() or not player:
        raise UsageError(f"{text!r} is not SITE:PLAYER (e.g. pokerstars:Hero)")
    return SiteName(site.strip().lower(), player)


def add(database: Database, person: str, names: Sequence[str]) -> Added:
    """Group ``names`` (``SITE:PLAYER``) under ``person``; UsageError (nothing written) when a site or
    a player is not in the store, or a name already belongs to another person."""
    person = _person_name(person)
    wanted = list(dict.fromkeys(site_name(text) for text in names))
    with database.open(read_only=True) as store:  # checked first: a store that is not there stays so
        for name in wanted:
            _check_known(store, name)
    with database.open() as store:
        members = _members(store)
        _check_case(person, set(members.values()))
        taken = [(name, members[name]) for name in wanted if members.get(name, person) != person]
        if taken:
            name, owner = taken[0]
            raise UsageError(f"{name} is already an alias of {owner!r}: `hhtool alias remove {owner} {name}` first")
        already = tuple(name for name in wanted if members.get(name) == person)
        added = tuple(name for name in wanted if name not in already)
        stored.add_members(store, person, [(name.site, name.player) for name in added])
        warnings = _shadowed(store, person)
    return Added(person, added, already, warnings)


def remove(database: Database, person: str, names: Sequence[str] = ()) -> tuple[SiteName, ...]:
    """Take ``names`` out of ``person``'s alias (none given: the whole alias); the names removed.
    UsageError when there is no such alias, or a name is not in it."""
    wanted = [site_name(text) for text in names]
    with database.open(read_only=True) as store:
        _in_alias(store, person, wanted)
    with database.open() as store:
        wanted = _in_alias(store, person, wanted)
        stored.remove_members(store, person, [(name.site, name.player) for name in wanted])
    return tuple(wanted)


def _in_alias(store: Store, person: str, wanted: list[SiteName]) -> list[SiteName]:
    """The names of ``person``'s alias asked for (none: all of them); UsageError for a name not in it."""
    members = _members(store)
    own = sorted(name for name, owner in members.items() if owner == person)
    if not own:
        raise UsageError(f"no alias {person!r}{close_to(person, sorted(set(members.values())))}")
    for name in wanted:
        if name not in own:
            raise UsageError(f"{name} is not in alias {person!r} (it has {', '.join(map(str, own))})")
    return list(dict.fromkeys(wanted)) or own


def _check_case(person: str, persons: set[str]) -> None:
    """Two aliases whose names differ only in case would be one person to a reader: refused."""
    twin = next((name for name in sorted(persons) if name != person and name.casefold() == person.casefold()), None)
    if twin is not None:
        raise UsageError(f"there is an alias {twin!r} already (names differ only in case): use that name")


def aliases(database: Database) -> list[Alias]:
    """Every alias, A to Z, each name with its hands in the store."""
    with database.open(read_only=True) as store:
        rows = stored.members_with_hands(store)
    grouped: dict[str, list[tuple[SiteName, int]]] = {}
    for person, site, player, hands in rows:
        grouped.setdefault(person, []).append((SiteName(site, player), hands))
    return [Alias(person, tuple(names)) for person, names in grouped.items()]


def _person_name(text: str) -> str:
    """An alias's name: not empty, no spaces around it, no colon (``SITE:PLAYER`` names a site's player)."""
    if not text.strip() or text.strip() != text or ":" in text:
        raise UsageError(f"an alias is a name without a colon or spaces around it, not {text!r}")
    return text


def _members(store: Store) -> dict[SiteName, str]:
    """Each site name in an alias, and whose it is."""
    return {SiteName(site, player): person for person, site, player in stored.members(store)}


def _check_known(store: Store, name: SiteName) -> None:
    """UsageError unless the store holds hands of the site and the player has a seat on it."""
    sites = known.sites(store)
    if not sites:
        raise UsageError("the store holds no hands yet: import the histories first (`hhtool import PATH`), "
                         "then name the players they show")
    if name.site not in sites:
        from hhtool.sites import site_names

        hint = "" if name.site in site_names() else close_to(name.site, sites)
        raise UsageError(f"no hands of site {name.site!r} in the store{hint} (it has {', '.join(sites)})")
    if known.seated(store, name.site, name.player):
        return
    players = known.players_on(store, name.site)
    raise UsageError(f"no player {name.player!r} on {name.site} in the store{close_to(name.player, players)}")


def _shadowed(store: Store, person: str) -> tuple[str, ...]:
    """A warning when the alias's name is also the name of players outside it: --player means the alias."""
    sites = stored.sites_seated_outside(store, person)
    if not sites:
        return ()
    shown = ", ".join(f"'{person} ({site})'" for site in sites)
    return (f"{person!r} is also a player's name on {', '.join(sites)}, outside this alias: --player {person} now "
            f"means the alias (stats without --player shows {'that player' if len(sites) == 1 else 'them'} "
            f"as {shown})",)


__all__ = ["Added", "Alias", "SiteName", "add", "aliases", "remove", "site_name"]
