"""parse_datetime's fast path for numeric formats reads exactly what datetime.strptime reads."""

from __future__ import annotations

from datetime import datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from hhtool.sites.kit.base import parse_datetime

#: the numeric formats the site modules use
FORMATS = ["%Y/%m/%d %H:%M:%S", "%Y-%m-%d %H:%M:%S", "%Y%m%d%H%M%S", "%Y-%m-%d-%H:%M:%S"]


def strptime_or_none(text: str, fmt: str) -> datetime | None:
    try:
        return datetime.strptime(text.strip(), fmt)
    except ValueError:
        return None


@settings(max_examples=300, deadline=None)
@given(st.datetimes(min_value=datetime(1990, 1, 1), max_value=datetime(2099, 12, 31)), st.sampled_from(FORMATS),
       st.booleans())
def test_formatted_datetimes_read_back_as_strptime_reads_them(when: datetime, fmt: str, unpadded: bool) -> None:
    text = when.strftime(fmt)
    if unpadded:  # sites write "5:06:07" as well as "05:06:07"
        text = text.replace(" 0", " ").replace(":0", ":")
    assert parse_datetime(text, [fmt]) == strptime_or_none(text, fmt)


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="0123456789/-: \t", max_size=24), st.sampled_from(FORMATS))
def test_any_text_gives_what_strptime_gives(text: str, fmt: str) -> None:
    assert parse_datetime(text, [fmt]) == strptime_or_none(text, fmt)


def test_formats_with_names_still_go_to_strptime() -> None:
    assert parse_datetime("2009 Jan 05 12:00:01", ["%Y %B %d %H:%M:%S", "%Y %b %d %H:%M:%S"]) == datetime(2009, 1, 5, 12, 0, 1)
