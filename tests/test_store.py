"""The DuckDB store: schema versioning, idempotent imports, one transaction per batch, import errors."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from hhtool.ingest.loader import import_file, import_sources
from hhtool.ingest.sources import collect_sources
from hhtool.store import Store
from hhtool.store.schema import CURRENT_VERSION, SchemaTooNew
from tests.test_site_pokerstars import ALLIN_SIDE_POT, SPLIT_HAND

BROKEN = SPLIT_HAND.replace("35874576282", "999").replace("Hero: calls $0.02\nPlayer9", "Hero: teleports $0.02\nPlayer9")


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def count(store: Store, table: str) -> int:
    return int(store.run(f"SELECT count(*) FROM {table}")[0][0])


def test_schema_is_versioned_and_migrated_once(tmp_path: Path) -> None:
    db = str(tmp_path / "h.duckdb")
    with Store(db) as store:
        assert store.run("SELECT max(version) FROM schema_version")[0][0] == CURRENT_VERSION
    with Store(db) as store:  # created from the spec at the current version; reopening does not migrate again
        assert store.run("SELECT version FROM schema_version") == [(CURRENT_VERSION,)]
        store.run("INSERT INTO schema_version VALUES (99, current_timestamp)")
    with pytest.raises(SchemaTooNew):
        Store(db)


def test_reimport_stores_nothing_twice_and_counts_duplicates(tmp_path: Path) -> None:
    path = write(tmp_path, "a.txt", SPLIT_HAND + "\n\n" + ALLIN_SIDE_POT + "\n\n" + SPLIT_HAND)
    with Store(":memory:") as store:
        first = import_file(store, path, path.read_bytes(), store_facts=False)
        assert (first.hands_found, first.stored, first.duplicates, first.failed) == (3, 2, 1, 0)
        tables = {name: count(store, name) for name in ("hands", "actions", "seats", "cards", "awards", "results")}
        second = import_file(store, path, path.read_bytes(), store_facts=False)
        # not read again: nothing found in it by this import (#14: no phantom duplicates), its totals kept
        assert (second.hands_found, second.stored, second.duplicates, second.status) == (0, 0, 0, "unchanged")
        assert second.file_totals() == first.file_totals() and second.balanced()
        assert tables == {name: count(store, name) for name in tables}
        copy = write(tmp_path, "copy.txt", path.read_text() + "\n")  # same hands, other bytes: parsed again
        third = import_file(store, copy, copy.read_bytes(), store_facts=False)
        assert (third.status, third.stored, third.duplicates) == ("parsed", 0, 3)
        assert tables == {name: count(store, name) for name in tables}


def test_stored_hand_round_trips_money_and_lines(tmp_path: Path) -> None:
    path = write(tmp_path, "a.txt", ALLIN_SIDE_POT)
    with Store(":memory:") as store:
        import_file(store, path, path.read_bytes(), store_facts=False)
        rows = store.run("SELECT player, contributed, collected, net FROM results ORDER BY player")
        assert rows == [("Big", 2100, 2400, 300), ("Bigger", 2100, 2400, 300), ("Shorty", 600, 0, -600)]
        assert store.run("SELECT total_pot, rake, unit, currency FROM hands") == [(4800, 0, 100, "USD")]
        assert store.run("SELECT line FROM actions WHERE kind = 'bring_in'") == [(13,)]
        assert store.run("SELECT count(*) FROM cards WHERE card IS NULL") == [(6,)]  # three players, two hidden down cards each


def test_failed_hand_is_kept_raw_with_lines_and_reason_and_neighbours_are_stored(tmp_path: Path) -> None:
    path = write(tmp_path, "b.txt", SPLIT_HAND + "\n\n" + BROKEN + "\n\n" + ALLIN_SIDE_POT)
    with Store(":memory:") as store:
        report = import_file(store, path, path.read_bytes(), store_facts=False)
        assert (report.stored, report.failed) == (2, 1)
        [(file, first, last, line, site, hand_id, reason, raw)] = store.run(
            "SELECT file, first_line, last_line, line, site, hand_id, reason, raw_text FROM import_errors"
        )
        assert (file, first, last, line, site, hand_id) == (str(path), 55, 106, 68, "pokerstars", "999")
        assert "Hero: teleports $0.02" in reason
        assert raw == BROKEN.rstrip("\n")


def test_a_batch_is_one_transaction(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path, "c.txt", SPLIT_HAND + "\n\n" + ALLIN_SIDE_POT)
    with Store(":memory:") as store:
        original = Store._insert

        def failing_insert(self: Store, name: str, table: object, *key: object) -> None:
            if name == "awards":
                raise duckdb.IOException("disk full (simulated)")
            original(self, name, table, *key)  # type: ignore[arg-type]

        monkeypatch.setattr(Store, "_insert", failing_insert)
        with pytest.raises(duckdb.IOException):
            import_file(store, path, path.read_bytes(), store_facts=False)
        monkeypatch.setattr(Store, "_insert", original)
        assert all(count(store, name) == 0 for name in ("hands", "seats", "actions", "files"))
        report = import_file(store, path, path.read_bytes(), store_facts=False)  # a re-run completes the import
        assert report.stored == 2 and count(store, "hands") == 2


def test_batches_split_large_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    hands = [SPLIT_HAND.replace("35874576282", str(1000 + n)) for n in range(7)]
    path = write(tmp_path, "d.txt", "\n\n".join(hands))
    monkeypatch.setattr("hhtool.ingest.files.BATCH_HANDS", 3)  # chunks of 3 hands
    for write_hands, expected in ((3, [3, 3, 1]), (6, [6, 1]), (100, [7])):
        monkeypatch.setattr("hhtool.ingest.writer.WRITE_HANDS", write_hands)  # chunks grouped per transaction
        writes: list[int] = []
        with Store(":memory:") as store:
            original = store.write_tables

            def counting_write(tables: dict, original=original, writes=writes, **options) -> None:  # type: ignore[no-untyped-def, type-arg]
                writes.append(tables["hands"].num_rows if "hands" in tables else 0)
                original(tables, **options)

            store.write_tables = counting_write  # type: ignore[method-assign]
            report = import_file(store, path, path.read_bytes(), store_facts=False)
            assert report.stored == 7 and writes == expected
            assert store.run("SELECT stored, hands_found FROM files") == [(7, 7)]


def test_a_hand_twice_in_one_write_group_is_stored_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Chunks waiting in one transaction are checked against each other, not only against the store."""
    hands = [SPLIT_HAND.replace("35874576282", str(1000 + n % 4)) for n in range(7)]  # 1000..1003, then again
    path = write(tmp_path, "e.txt", "\n\n".join(hands))
    monkeypatch.setattr("hhtool.ingest.files.BATCH_HANDS", 2)
    with Store(":memory:") as store:
        report = import_file(store, path, path.read_bytes(), store_facts=False)
        assert (report.stored, report.duplicates) == (4, 3)
        assert store.run("SELECT count(*), count(DISTINCT hand_id) FROM hands") == [(4, 4)]


def test_unknown_format_is_one_failure_with_the_raw_text(tmp_path: Path) -> None:
    """A file no site detects but in which a hand of some site starts (after a long preamble): one
    failure holding its whole text. Without any hand start it is not a hand history (#14)."""
    path = write(tmp_path, "x.txt", "hello\nthis is not poker\n" * 30 + SPLIT_HAND)
    with Store(":memory:") as store:
        report = import_file(store, path, path.read_bytes(), store_facts=False)
        assert report.failed == 1 and "no supported site" in report.failures[0].reason
        assert store.run("SELECT raw_text FROM import_errors") == [(path.read_text().rstrip("\n"),)]
    notes = write(tmp_path, "notes.txt", "hello\nthis is not poker\n")
    with Store(":memory:") as store:
        report = import_file(store, notes, notes.read_bytes(), store_facts=False)
        assert (report.status, report.failed, report.hands_found) == ("not a hand history", 0, 0)
        assert store.run("SELECT count(*) FROM import_errors") == [(0,)]


def test_collect_paths_expands_folders_globs_and_dedupes(tmp_path: Path) -> None:
    a = write(tmp_path, "a.txt", SPLIT_HAND)
    (tmp_path / "sub").mkdir()
    b = write(tmp_path / "sub", "b.xml", "<x/>")
    write(tmp_path, "notes.json", "{}")  # not a hand-history ending: ignored in folders
    collected = collect_sources([str(tmp_path), str(a), str(tmp_path / "*.txt"), str(tmp_path / "nope*")])
    assert [source.fs_path for source in collected.sources] == [a.resolve(), b.resolve()]
    assert collected.unmatched == [str(tmp_path / "nope*")]


def test_stored_hands_load_back_identical(tmp_path: Path) -> None:
    from dataclasses import replace

    from hhtool.model import Hand, StakeSource
    from hhtool.sites import parser_for
    from hhtool.store.load import load_hands

    text = SPLIT_HAND + "\n\n" + ALLIN_SIDE_POT
    path = write(tmp_path, "e.txt", text)
    parser = parser_for("pokerstars")
    from hhtool.ingest.reader import decode_bytes

    parsed = [parser.parse(raw) for raw in parser.split(decode_bytes(text.encode()).lines, str(path))]
    with Store(":memory:") as store:
        import_file(store, path, path.read_bytes(), store_facts=False)
        loaded = {hand.hand_id: hand for hand in load_hands(store)}
    assert parsed and all(isinstance(hand, Hand) for hand in parsed)
    # the cross-hand pass judged the $0.04/$0.08 hand's posts by the site's structure (the same amounts)
    learnt = {hand_id: (hand.stakes.ante_source, hand.stakes.bring_in_source) for hand_id, hand in loaded.items()}
    assert learnt == {"35874576282": ("structure", "structure"), "200": ("posted", "posted")}
    posted = replace(loaded["35874576282"].stakes, ante_source=StakeSource.POSTED, bring_in_source=StakeSource.POSTED)
    loaded["35874576282"] = replace(loaded["35874576282"], stakes=posted)
    assert {hand.hand_id: hand for hand in parsed} == loaded


def test_big_files_are_streamed_with_the_same_result(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file over STREAM_MIN_BYTES is read as a stream (never whole); every table must come out
    as from the whole-file path, including a grown file resumed from its last hand."""
    from hhtool.ingest.sources import collect_sources
    from tests.test_parallel import snapshot

    hands = [SPLIT_HAND.replace("35874576282", str(5000 + n)) for n in range(9)]
    path = tmp_path / "big.txt"
    path.write_bytes(("\r\n\r\n".join(hands[:6]) + "\r\n\r\n" + BROKEN).encode("utf-16"))
    results = {}
    for threshold in (0, 1 << 40):  # streamed, then whole
        monkeypatch.setattr("hhtool.ingest.files.STREAM_MIN_BYTES", threshold)
        monkeypatch.setattr("hhtool.ingest.files.BATCH_HANDS", 4)
        with Store(":memory:") as store:
            first = import_sources(store, collect_sources([str(path)]).sources, store_facts=False).files[0]
            path.write_bytes(path.read_bytes() + ("\r\n\r\n" + "\r\n\r\n".join(hands[6:])).encode("utf-16-le"))
            grown = import_sources(store, collect_sources([str(path)]).sources, store_facts=False).files[0]
            again = import_sources(store, collect_sources([str(path)]).sources, store_facts=False).files[0]
            results[threshold] = (first.as_json() | {"path": ""}, grown.status, grown.stored, again.status, snapshot(store))
            path.write_bytes(("\r\n\r\n".join(hands[:6]) + "\r\n\r\n" + BROKEN).encode("utf-16"))
    streamed, whole = results[0], results[1 << 40]
    assert streamed[0]["stored"] == 6 and streamed[0]["failed"] == 1 and streamed[1:4] == ("grown", 3, "unchanged")
    assert streamed[4]["files"] and streamed == whole


def test_a_new_store_has_small_blocks_and_a_second_connection_in_the_process(tmp_path: Path) -> None:
    """A store made afresh gets 64 KiB blocks, and another connection of the same process to it opens
    (`serve --watch`: its pages beside its importer; DuckDB refuses one whose configuration differs)."""
    from hhtool.store import NEW_STORE_BLOCK_SIZE

    path = str(tmp_path / "new.duckdb")
    writer = Store(path)
    reader = Store(path)  # (read-only differs by its access mode: a process opens a file one way)
    assert reader.run("SELECT count(*) FROM hands")[0][0] == 0
    assert writer.run("SELECT block_size FROM pragma_database_size()")[0][0] == NEW_STORE_BLOCK_SIZE
    reader.close()
    writer.close()
