"""`hhtool serve` beside `hhtool import --watch` (#35, item 2): the README's two terminals, as separate
processes, while a script loads pages without a pause. The importer stores 2,000 simulated hands
written into its folder in steps; no import may fail and no page may fail. Both processes run under a
wrapper that records how long each opening of the store took (the wait for the other process
included), so the longest import wait and the longest page wait are measured, printed and bounded."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from tests.serve_helpers import free_port

pytestmark = pytest.mark.slow

#: runs hhtool with Store._connect timed: each opening's seconds appended to the file named first
TIMED = """
import faulthandler, signal, sys, time
faulthandler.register(signal.SIGUSR1)
from hhtool.store import Store
log = sys.argv.pop(1)
opening = Store._connect
def timed(self, read_only, resumed=False):
    started = time.monotonic()
    try:
        return opening(self, read_only, resumed)
    finally:
        with open(log, "a") as out:
            out.write(f"{time.monotonic() - started:.4f}\\n")
Store._connect = timed
from hhtool.cli import app
app(prog_name="hhtool")
"""
STEPS, HANDS_PER_STEP = 8, 250
PAGES = ("/hands", "/stats", "/api/latest", "/sessions", "/hands?limit=200", "/problems")


def _longest(log: Path) -> float:
    return max((float(line) for line in log.read_text().split()), default=0.0)


def _get(url: str) -> tuple[int, float]:
    started = time.monotonic()
    try:
        with urllib.request.urlopen(url, timeout=60) as answer:
            answer.read()
            status = answer.status
    except urllib.error.HTTPError as error:
        status = error.code
    except OSError:
        status = -1
    return status, time.monotonic() - started


def _stored(base: str) -> int:
    import json

    with urllib.request.urlopen(f"{base}/api/latest", timeout=60) as answer:
        return int(json.loads(answer.read())["hands"])


def test_serve_and_import_watch_share_the_store_while_pages_load(tmp_path: Path) -> None:
    staged, watched, db = tmp_path / "staged", tmp_path / "watched", tmp_path / "live.duckdb"
    staged.mkdir()
    watched.mkdir()
    runner = CliRunner()
    for step in range(STEPS + 1):
        hands = 20 if step == 0 else HANDS_PER_STEP
        result = runner.invoke(app, ["simulate", "--hands", str(hands), "--seed", str(40 + step), "-q",
                                     "--out", str(staged / f"step{step}.txt")])
        assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["import", str(staged / "step0.txt"), "--db", str(db), "-q"])
    assert result.exit_code == 0, result.output

    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "80"}
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    serve_log, import_log = tmp_path / "serve.waits", tmp_path / "import.waits"
    server = subprocess.Popen([sys.executable, "-c", TIMED, str(serve_log), "serve", "--db", str(db), "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    importer: subprocess.Popen[str] | None = None
    listener: threading.Thread | None = None
    shown = 0
    loads: list[tuple[str, int, float]] = []
    stop = threading.Event()
    said: list[str] = []

    def load_pages() -> None:
        turn = 0
        while not stop.is_set():
            path = PAGES[turn % len(PAGES)]
            status, seconds = _get(base + path)
            loads.append((path, status, seconds))
            turn += 1

    try:
        deadline = time.monotonic() + 60
        while _get(f"{base}/api/latest")[0] != 200:
            assert server.poll() is None and time.monotonic() < deadline, "serve did not start"
            time.sleep(0.2)
        importer = subprocess.Popen([sys.executable, "-c", TIMED, str(import_log), "import", "--watch", str(watched),
                                     "--db", str(db), "--interval", "0.3", "-v"],
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        listener = threading.Thread(target=lambda: said.extend(importer.stdout or ()), daemon=True)
        listener.start()
        # two loaders, so that requests overlap as two open tabs' do
        loaders = [threading.Thread(target=load_pages, daemon=True) for _ in range(2)]
        for loader in loaders:
            loader.start()
        started = time.monotonic()
        for step in range(1, STEPS + 1):
            # written beside the folder, then moved in whole: each step is one new file for the importer
            shutil.copy(staged / f"step{step}.txt", tmp_path / "incoming.txt")
            os.replace(tmp_path / "incoming.txt", watched / f"step{step}.txt")
            time.sleep(1.0)
        # every step's file read whole: its line in the importer's -v output (its hands counted once the
        # import's last pass over them ran, not only once they were committed)
        while not all(f"step{step}.txt: " in "".join(said) for step in range(1, STEPS + 1)) \
                and time.monotonic() - started < 240 and importer.poll() is None:
            time.sleep(0.3)
        elapsed = time.monotonic() - started
        stop.set()
        for loader in loaders:
            loader.join(timeout=60)
        shown = _stored(base)  # what the server's pages read now
    finally:
        stop.set()
        if importer is not None:
            importer.send_signal(signal.SIGINT)
            try:
                importer.wait(timeout=60)
            except subprocess.TimeoutExpired:  # (its threads' stacks, to say where it hung)
                importer.send_signal(signal.SIGUSR1)
                time.sleep(1)
                importer.kill()
                importer.wait()
            if listener is not None:
                listener.join(timeout=10)
        server.terminate()
        serve_errors = server.communicate(timeout=30)[1]
    failed_pages = [(path, status) for path, status, _ in loads if status != 200]
    assert loads and not failed_pages, failed_pages[:10]
    import_output = "".join(said)
    assert importer is not None and importer.returncode == 130, import_output  # Ctrl-C, and nothing else, ended it
    total = STEPS * HANDS_PER_STEP
    assert f"stopped: {total} hands found = {total} stored + 0 duplicates + 0 skipped + 0 failed + 0 incomplete" \
        in import_output, import_output
    assert shown == 20 + total, shown
    assert "could not" not in import_output and "Traceback" not in import_output, import_output
    assert "Traceback" not in serve_errors, serve_errors
    longest_import, longest_page = _longest(import_log), max(seconds for _, _, seconds in loads)
    median_page = sorted(seconds for _, _, seconds in loads)[len(loads) // 2]
    print(f"\n{STEPS * HANDS_PER_STEP} hands imported in {elapsed:.1f} s beside {len(loads)} page loads; "
          f"longest import wait for the file {longest_import:.2f} s, page loads: median {median_page:.2f} s, "
          f"longest {longest_page:.2f} s "
          f"(its wait for the file {_longest(serve_log):.2f} s)")
    # an importer waits about one page's query, a page about one batch: far below the 30 s that fails either
    assert longest_import < 10, longest_import
    assert longest_page < 15, longest_page
