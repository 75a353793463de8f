"""Reports over the store: per-player statistics and the winnings graph.

The reports read the DuckDB store through SQL (and Polars for the last aggregation); they may use
the hand model and the evaluator, never the command line. This package's own import loads nothing:
the command line reaches the light modules here (:mod:`.filters`, :mod:`.choices`) without Polars or DuckDB.
"""
