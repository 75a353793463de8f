"""Times shown to the user: the store orders and filters hands by their UTC instant (``hands.started_utc``);
a command shows it in the user's zone (config ``timezone``, default the machine's: :func:`display_zone`)."""

from __future__ import annotations

from datetime import datetime

import polars as pl

from hhtool.clock import shown, zone_name
from hhtool.service.config import display_zone


def in_user_zone(frame: pl.DataFrame, *columns: str) -> pl.DataFrame:
    """``frame`` with its UTC-instant ``columns`` (default ``started_at``) as wall times of the user's zone."""
    zone = display_zone()
    converted = []
    for name in columns or ("started_at",):
        if name in frame.columns and frame.schema[name].is_temporal():
            values = [shown(value, zone) if isinstance(value, datetime) else None for value in frame[name].to_list()]
            converted.append(pl.Series(name, values, dtype=pl.Datetime("us")))
    return frame.with_columns(converted) if converted else frame


def zone_labelled(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` with its ``timezone`` column naming the user's zone, the one its times are shown in (the
    history's own label stays in the store: ``hands.timezone``)."""
    if "timezone" not in frame.columns:
        return frame
    return frame.with_columns(pl.lit(zone_name(display_zone()), dtype=pl.Utf8).alias("timezone"))


def user_time(instant: datetime | None) -> datetime | None:
    """One UTC instant (naive) as a wall time of the user's zone."""
    return shown(instant, display_zone())


__all__ = ["display_zone", "in_user_zone", "user_time", "zone_labelled"]
