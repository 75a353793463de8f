"""One clock for every site: the UTC instant of a history's stated time, and the user's zone.

A history states a wall time and, mostly, a zone label of its own (``ET``, ``EDT``, ``CET``,
``GMT+0300``, ``UTC``, a PHH file's IANA name) or none. :func:`reading_of` says which zone of the
zone database (:mod:`zoneinfo`, daylight saving included) a (site, label) means, and whether that is
an assumption: a history naming no zone (or a label no table here knows) is read in its site's
default, :data:`SITE_DEFAULTS`, and the reading says so (``hhtool problems`` counts them per site).

A label names the wall-clock rules of a place, not a fixed offset: ``EST`` on a summer date is read
as New York's time that day, as the sites that print it mean (their servers print one label all
year). An explicit offset (``GMT+0300``, ``UTC-5``) is fixed. A wall time that happens twice (the
hour clocks go back) is taken as the first of the two; one that never happens (the hour clocks go
forward) as the same wall time before the change (``fold=0``, :pep:`495`).

Instants are stored and compared as naive ``datetime`` values in UTC (DuckDB ``TIMESTAMP``); a time
shown to the user is that instant in the user's zone (config ``timezone``, default the machine's).
This module imports nothing of hhtool: the model's users (sites, store, reports) may all use it.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

NEW_YORK = "America/New_York"

#: the zone a label means; each is a place's rules (daylight saving included), not one offset
LABEL_ZONES: dict[str, str] = {
    "ET": NEW_YORK, "EST": NEW_YORK, "EDT": NEW_YORK,
    "CT": "America/Chicago", "CST": "America/Chicago", "CDT": "America/Chicago",
    "MT": "America/Denver", "MST": "America/Denver", "MDT": "America/Denver",
    "PT": "America/Los_Angeles", "PST": "America/Los_Angeles", "PDT": "America/Los_Angeles",
    "AT": "America/Halifax", "AST": "America/Halifax", "ADT": "America/Halifax",
    "UTC": "UTC", "GMT": "UTC", "Z": "UTC", "UT": "UTC",
    "WET": "Europe/Lisbon", "WEST": "Europe/Lisbon", "BST": "Europe/London",
    "CET": "Europe/Paris", "CEST": "Europe/Paris",
    "EET": "Europe/Helsinki", "EEST": "Europe/Helsinki",
    "MSK": "Europe/Moscow",
    "AEST": "Australia/Sydney", "AEDT": "Australia/Sydney",
}

#: the zone a site's histories are in where a history names none, and the source of that reading.
#: Bovada, KingsClub, Merge and the old Winning export print a bare wall time; each is read in the
#: site's server time, ET, as fpdb's importers read them. iPoker's XML and PHH files state no zone and
#: no source documents one: UTC is assumed. Every reading from here is said as an assumption.
SITE_DEFAULTS: dict[str, tuple[str, str]] = {
    "bovada": (NEW_YORK, "ET, its server time, as fpdb reads it"),
    "kingsclub": (NEW_YORK, "ET, its server time, as fpdb reads it"),
    "merge": (NEW_YORK, "ET, its server time, as fpdb reads it"),
    "winning": (NEW_YORK, "ET, its server time, as fpdb reads it"),
    "pokerstars": (NEW_YORK, "ET, the zone its other headers name"),
    "fulltilt": (NEW_YORK, "ET, the zone its other headers name"),
    "absolute": (NEW_YORK, "ET, the zone its other headers name"),
    "partypoker": (NEW_YORK, "ET, the zone its other headers name"),
}
#: a site not in SITE_DEFAULTS: no documented zone
FALLBACK_ZONE = ("UTC", "UTC, as no zone is documented")

_OFFSET = re.compile(r"(?:GMT|UTC|UT)?\s*(?P<sign>[+-])(?P<hours>\d{1,2}):?(?P<minutes>\d{2})?")


class UnknownZone(ValueError):
    """A zone name the zone database does not hold."""


@dataclass(frozen=True, slots=True)
class Reading:
    """How one (site, label) is read: the zone, and why it is assumed (None: the history names it)."""

    zone: tzinfo
    assumed: str | None = None


def _fixed(label: str) -> tzinfo | None:
    found = _OFFSET.fullmatch(label)
    if not found:
        return None
    minutes = int(found["hours"]) * 60 + int(found["minutes"] or 0)
    if minutes > 18 * 60:
        return None
    sign = -1 if found["sign"] == "-" else 1
    return timezone(timedelta(minutes=sign * minutes), label)


def _named(name: str) -> tzinfo | None:
    if "/" not in name and name not in ("UTC", "GMT"):
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


@lru_cache(maxsize=256)
def reading_of(site: str, label: str | None) -> Reading:
    """The zone a history of ``site`` stating ``label`` (None: none) is in."""
    text = (label or "").strip().strip("()")
    if text:
        zone = LABEL_ZONES.get(text.upper())
        if zone is not None:
            return Reading(ZoneInfo(zone))
        known = _fixed(text.upper()) or _named(text)
        if known is not None:
            return Reading(known)
    name, why = SITE_DEFAULTS.get(site, FALLBACK_ZONE)
    said = f"zone {text!r} unknown" if text else "no zone stated"
    return Reading(ZoneInfo(name), f"{said}; read as {why}")


def utc_instant(site: str, started_at: datetime | None, label: str | None) -> datetime | None:
    """The UTC instant (naive) of a history's wall time ``started_at`` stated with ``label``."""
    if started_at is None:
        return None
    zone = reading_of(site, label).zone
    return started_at.replace(tzinfo=zone, fold=0).astimezone(UTC).replace(tzinfo=None)


def user_zone(name: str | None) -> tzinfo:
    """The zone times are shown and read in: the IANA ``name`` (raises :class:`UnknownZone`), or the machine's."""
    if name is None or name == "":
        return machine_zone()
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as error:
        raise UnknownZone(f"{name!r} is not a time zone (an IANA name such as 'Europe/Paris' or 'America/New_York')") \
            from error


def machine_zone() -> tzinfo:
    """The machine's zone: ``$TZ`` or ``/etc/localtime``'s IANA name where it has one (its rules, daylight
    saving included), else the offset in force now."""
    # realpath of a missing file is the path itself: no "zoneinfo/" in it, so no name from it
    candidates = [os.environ.get("TZ", "").lstrip(":"), os.path.realpath("/etc/localtime").partition("zoneinfo/")[2]]
    for candidate in candidates:
        zone = _named(candidate) if candidate else None
        if zone is not None:
            return zone
    return datetime.now().astimezone().tzinfo or UTC


def zone_name(zone: tzinfo) -> str:
    """The zone's IANA name where it has one (``str(ZoneInfo)``), else its current abbreviation."""
    return getattr(zone, "key", None) or zone.tzname(datetime.now()) or "UTC"


def shown(instant: datetime | None, zone: tzinfo) -> datetime | None:
    """The UTC ``instant`` (naive) as a wall time (naive) in ``zone``."""
    if instant is None:
        return None
    return instant.replace(tzinfo=UTC).astimezone(zone).replace(tzinfo=None)


def instant_of(wall: datetime, zone: tzinfo) -> datetime:
    """The UTC instant (naive) of the wall time ``wall`` in ``zone`` (``--from``/``--to``)."""
    return wall.replace(tzinfo=zone, fold=0).astimezone(UTC).replace(tzinfo=None)
