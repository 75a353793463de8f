"""The replayer page of an all-in hand (`hhtool show --format html`) with its equities, in Chromium
at 1280 and 390 px: the all-in table is there, every number in it readable, and nothing makes the
page wider than the screen (a wide table scrolls inside its box). Screenshots are saved beside the
test's files (tmp_path) to look at."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from tests.browser import NEEDS_CHROMIUM

pytestmark = [pytest.mark.slow, *NEEDS_CHROMIUM]  # (Chromium: the slow set, CI's)


@pytest.fixture(scope="module")
def page_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("allin-page")
    history, db, page = folder / "sim.txt", str(folder / "sim.duckdb"), folder / "hand.html"
    runner = CliRunner()
    assert runner.invoke(app, ["simulate", "--hands", "300", "--seed", "7", "--out", str(history), "-q"]).exit_code == 0
    assert runner.invoke(app, ["import", str(history), "--db", db, "--jobs", "1", "-q"]).exit_code == 0
    import duckdb

    with duckdb.connect(db, read_only=True) as con:
        (hand_id,) = con.execute("SELECT hand_id FROM hands WHERE allin_ev = 'sampled' ORDER BY 1 LIMIT 1").fetchone()
    result = runner.invoke(app, ["show", hand_id, "--db", db, "--format", "html", "--out", str(page)])
    assert result.exit_code == 0, result.output
    return page


@pytest.mark.slow
@pytest.mark.parametrize("width", [1280, 390])
def test_the_all_in_equities_show_at_every_width(browser: Any, page_file: Path, width: int) -> None:
    view = browser.new_page(viewport={"width": width, "height": 900})
    try:
        view.goto(page_file.as_uri())
        table = view.locator("#allin-equity")
        assert table.is_visible()
        text = table.inner_text()
        assert "equity" in text and "All-in EV net" in text and "%" in text
        assert view.evaluate("document.documentElement.scrollWidth") <= width  # the page never scrolls sideways
        table.scroll_into_view_if_needed()
        view.screenshot(path=str(page_file.with_name(f"allin-{width}.png")), full_page=True)
    finally:
        view.close()
