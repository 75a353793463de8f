"""Writing a store's tables as Parquet files, one folder per table (``hhtool export DIR``)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pyarrow.parquet as pq

from hhtool.store import Store


def export_parquet(store: Store, out_dir: str, tables: Sequence[str]) -> dict[str, int]:
    """Write each of ``tables`` to ``<out_dir>/<table>/part-00000.parquet``; returns the rows written per table."""
    counts = {}
    for name in tables:
        folder = Path(out_dir) / name
        folder.mkdir(parents=True, exist_ok=True)
        # the per-hand tables through their views, by (site, hand_id); the hands without their store key
        chosen = "* EXCLUDE (hk)" if name == "hands" else "*"
        arrow = store.con.sql(f"SELECT {chosen} FROM {name}").to_arrow_table()
        pq.write_table(arrow, folder / "part-00000.parquet")
        counts[name] = arrow.num_rows
    return counts
