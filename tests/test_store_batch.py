"""A writer sharing its file holds it only inside ``with store.batch():`` scopes (issue #37: the
import's ``store.release()`` calls became those scopes); readers open the file between them."""

from __future__ import annotations

import ast
from pathlib import Path

import duckdb
import pytest

from hhtool.ingest import files, writer
from hhtool.ingest.loader import import_file
from hhtool.store import Store

PACKAGE = Path(__file__).resolve().parents[1] / "hhtool"
SAMPLES = Path(__file__).resolve().parents[1] / "sample_histories"


def reader_can_open(db: str) -> bool:
    try:
        duckdb.connect(db, read_only=True).close()
    except duckdb.Error:
        return False
    return True


def test_a_shared_store_holds_its_file_only_inside_a_batch(tmp_path: Path) -> None:
    db = str(tmp_path / "s.duckdb")
    with Store(db) as store:
        assert store.holds_file  # (opened: the schema was checked)
        store.share_between_batches()
        assert not store.holds_file and reader_can_open(db)  # given back at once
        with store.batch():
            assert store.run("SELECT count(*) FROM hands") == [(0,)]
            assert store.holds_file
            assert not reader_can_open(db)  # a reader is kept out meanwhile
        assert not store.holds_file
        assert reader_can_open(db)  # a reader's turn between batches
        with pytest.raises(ZeroDivisionError), store.batch():
            store.run("SELECT 1")
            raise ZeroDivisionError
        assert not store.holds_file  # given back whatever happened in the batch
        with store.batch():
            with store.batch():
                store.run("SELECT 1")
            assert not store.holds_file  # scopes do not nest: the inner one gave it back
            store.run("SELECT 1")  # the next use takes it again
            assert store.holds_file
        assert not store.holds_file


def test_a_store_not_shared_keeps_its_file(tmp_path: Path) -> None:
    with Store(str(tmp_path / "s.duckdb")) as store:
        with store.batch():
            store.run("SELECT 1")
        assert store.holds_file
    with Store(":memory:") as memory:
        memory.share_between_batches()  # (an in-memory store would lose everything)
        with memory.batch():
            memory.run("CREATE TABLE kept (x INTEGER)")
        assert memory.holds_file and memory.run("SELECT count(*) FROM kept") == [(0,)]


def test_an_import_gives_its_file_back_after_every_batch_and_at_its_end(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Each committed write is followed by a reader's turn: after every write_tables the store lets go
    of the file before it is used again (a reader could open it there), and holds nothing at the end."""
    db = str(tmp_path / "s.duckdb")
    events: list[str] = []
    written = Store.write_tables

    def told(self: Store, *args: object, **kwargs: object) -> None:
        events.append("write")
        written(self, *args, **kwargs)  # type: ignore[arg-type]

    given_back = Store.release

    def released(self: Store, force: bool = False) -> None:
        if self.holds_file and (self._shared or force):
            events.append("released")
        given_back(self, force)

    monkeypatch.setattr(Store, "write_tables", told)
    monkeypatch.setattr(Store, "release", released)
    monkeypatch.setattr(files, "BATCH_HANDS", 20)  # (chunks of 20 hands, a transaction of 40 at most)
    monkeypatch.setattr(writer, "WRITE_HANDS", 40)
    data = (SAMPLES / "pokerstars" / "simulated-seed1.txt").read_bytes()
    with Store(db) as store:
        store.share_between_batches()
        report = import_file(store, "simulated-seed1.txt", data)
        assert report.stored == 120
        assert not store.holds_file and reader_can_open(db)
    writes = [index for index, event in enumerate(events) if event == "write"]
    assert len(writes) >= 3 and all(events[index + 1] == "released" for index in writes)


def test_only_the_store_gives_its_file_back() -> None:
    """Outside ``hhtool/store``, a file is given back by the end of a batch scope, never by a bare release()."""
    calls = [f"{path.relative_to(PACKAGE.parent)}:{node.lineno}"
             for path in sorted(PACKAGE.rglob("*.py")) if path.relative_to(PACKAGE).parts[0] != "store"
             for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "release"]
    assert calls == []
