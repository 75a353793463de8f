"""What `hhtool stats --help` and its table need to know of the columns, without loading a report:
each column's header and meaning, the starting-hand groups, the headers left out to fit."""

from __future__ import annotations

from hhtool.reports.starting_hands import GROUPS_HELP
from hhtool.reports.stats_columns import OPTIONAL_HEADERS, UNCUT_HEADERS, column_help

__all__ = ["GROUPS_HELP", "OPTIONAL_HEADERS", "UNCUT_HEADERS", "column_help"]
