"""`hhtool serve` without --watch lets a writer in even while its pages overlap without a pause (#35,
item 2): requests that keep the file open for :data:`LONG_OPEN` seconds make the next ones wait until
the running ones end, and the file is left free :data:`GAP` seconds, in which an importer (another
process, retrying every 0.1 s) takes it."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from hhtool.service.serving import GAP, LONG_OPEN, HeldStore
from hhtool.service.stores import Database
from tests.serve_helpers import build_store

#: a writer in another process: how long it waited to open the file, in seconds
WRITER = """
import sys, time
from hhtool.store import Store
print("ready", flush=True)
sys.stdin.readline()
started = time.monotonic()
Store(sys.argv[1], lock_timeout=20).close()
print(f"{time.monotonic() - started:.3f}", flush=True)
"""
#: seconds each simulated page reads, and pages running at once (staggered: the file is never free)
PAGE, PAGES = 0.3, 3


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_store(tmp_path_factory.mktemp("serve-gate"))


def test_a_writer_gets_in_while_pages_overlap_without_a_pause(store: Path) -> None:
    held = HeldStore(Database(str(store)))
    stop = threading.Event()
    read: list[int] = []

    def pages(offset: float) -> None:
        time.sleep(offset)
        while not stop.is_set():
            with held.reading() as database, database.open(read_only=True) as opened:
                read.append(len(opened.run("SELECT 1 FROM hands LIMIT 1")))
                time.sleep(PAGE)

    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(store)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    assert writer.stdout is not None and writer.stdin is not None
    try:
        assert writer.stdout.readline().strip() == "ready"
        threads = [threading.Thread(target=pages, args=(index * PAGE / PAGES,), daemon=True) for index in range(PAGES)]
        for thread in threads:
            thread.start()
        time.sleep(2 * LONG_OPEN)  # the pages have kept the file open without a pause for a while
        writer.stdin.write("go\n")
        writer.stdin.flush()
        waited = float(writer.stdout.readline())
    finally:
        stop.set()
        writer.kill()
        writer.wait()
        held.close()
    assert read, "no page read"
    # at most: the stretch of LONG_OPEN, the pages running then (PAGE each), the gap; and a loaded machine's slack
    assert waited < LONG_OPEN + PAGE + GAP + 3.0, waited
