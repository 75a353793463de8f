"""Headless Chromium for the browser tests: Debian's package driven by Playwright (which cannot
download its own browser here). A test module takes ``NEEDS_CHROMIUM`` as (part of) its
``pytestmark``, so it skips with the reason where either is missing, and imports the ``browser``
fixture (one browser per module)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]

try:
    from playwright.sync_api import sync_playwright
except ImportError:  # pragma: no cover - depends on the machine
    sync_playwright = None  # type: ignore[assignment]

NEEDS_CHROMIUM = [
    pytest.mark.skipif(sync_playwright is None, reason="playwright is not installed (pip install playwright)"),
    pytest.mark.skipif(not Path(CHROMIUM).exists() and shutil.which("chromium") is None,
                       reason=f"{CHROMIUM} is missing (apt-get install -y chromium)"),
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    assert sync_playwright is not None
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()
