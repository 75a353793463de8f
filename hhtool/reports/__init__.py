"""Reports over the store: per-player statistics and the winnings graph.

The reports read the DuckDB store through SQL (and Polars for the last aggregation); they may use
the hand model and the evaluator, never the command line.
"""

from __future__ import annotations

from hhtool.reports.filters import Game, HandFilter, parse_stakes
from hhtool.reports.stats import RATES, Breakdown, output_keys, player_stats

__all__ = ["RATES", "Breakdown", "Game", "HandFilter", "output_keys", "parse_stakes", "player_stats"]
