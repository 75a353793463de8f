"""What the `hhtool serve` tests share: a store of the samples plus one hand whose player has a hostile
name, and a server started as a user starts it (a subprocess on a free port)."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from hhtool.cli import app

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_histories"
SIDE_POT = SAMPLES / "pokerstars" / "handwritten-scoop-and-side-pot.txt"
#: a name that would run a script or bold text if a page put it in as HTML
HOSTILE = "<img src=x onerror=alert(1)><b>gash</b>&amp;"
HOSTILE_HAND = "900000000777"


def hostile_history() -> str:
    """The side-pot sample with ``gashpor`` renamed to :data:`HOSTILE`, under another hand id."""
    text = SIDE_POT.read_text(encoding="utf-8").replace("900000000001", HOSTILE_HAND)
    return re.sub(r"(?<![\w.])gashpor(?!\w)", lambda _: HOSTILE, text)


def build_store(folder: Path) -> Path:
    """The samples and the hostile hand, imported into ``folder/serve.duckdb``."""
    extra = folder / "extra"
    extra.mkdir(parents=True, exist_ok=True)
    (extra / "hostile.txt").write_text(hostile_history(), encoding="utf-8")
    db = folder / "serve.duckdb"
    result = CliRunner().invoke(app, ["import", str(SAMPLES), str(extra), "--db", str(db), "-q"])
    assert result.exit_code in (0, 1), result.output
    return db


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def running_server(db: Path, *args: str) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """`hhtool serve --db DB --port FREE ARGS…` until the block ends; its base URL."""
    port = free_port()
    env = {**os.environ, "HHTOOL_LOCK_TIMEOUT": "20"}
    process = subprocess.Popen([sys.executable, "-m", "hhtool", "serve", "--db", str(db), "--port", str(port), *args],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{base}/api/latest", timeout=2):
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    process.kill()  # (a server that answers nothing still runs: communicate() would wait for ever)
                    raise AssertionError(f"serve did not start: {process.communicate()[1]}") from None
                time.sleep(0.2)
        yield base, process
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextmanager
def app_client(store: Path) -> Iterator[Any]:
    """Starlette's test client on the app over ``store`` (the pages' token ``t0ken``, host ``testserver``),
    the store let go after."""
    from starlette.testclient import TestClient

    from hhtool.service.serving import HeldStore
    from hhtool.service.stores import Database
    from hhtool.web.app import create_app

    held = HeldStore(Database(str(store)))
    try:
        with TestClient(create_app(held, {"testserver"}, token="t0ken")) as test_client:
            yield test_client
    finally:
        held.close()
