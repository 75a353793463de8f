"""The store's writes of the user's rows (notes, tags, aliases) go in whole or not at all."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from hhtool.store import Store
from hhtool.store.aliases import ALIASES
from hhtool.store.transaction import in_one_transaction, transaction


def test_a_failing_statement_leaves_none_of_its_transaction_written(tmp_path: Path) -> None:
    with Store(str(tmp_path / "t.duckdb")) as store:
        statements = [(f"INSERT INTO {ALIASES} (person, site, player) VALUES (?, ?, ?)", ["Me", "pokerstars", "Hero"]),
                      (f"INSERT INTO {ALIASES} (person, site, player) VALUES (?, ?, ?)", ["Me", "fulltilt", None])]
        with pytest.raises(duckdb.Error):  # (the second breaks NOT NULL)
            in_one_transaction(store, statements)
        assert store.run(f"SELECT count(*) FROM {ALIASES}") == [(0,)]
        assert in_one_transaction(store, statements[:1]) == 1  # (the store still writes afterwards)
        assert in_one_transaction(store, []) == 0
        assert store.run(f"SELECT person, site, player FROM {ALIASES}") == [("Me", "pokerstars", "Hero")]


def test_an_interruption_inside_a_transaction_undoes_it(tmp_path: Path) -> None:
    with Store(str(tmp_path / "t.duckdb")) as store:
        with pytest.raises(KeyboardInterrupt), transaction(store):
            store.run(f"INSERT INTO {ALIASES} (person, site, player) VALUES ('Me', 'pokerstars', 'Hero')")
            raise KeyboardInterrupt
        assert store.run(f"SELECT count(*) FROM {ALIASES}") == [(0,)]
