"""The one chart in Chromium (issue #35: the graph's axes readable at 390 px): `hhtool serve`'s graph
page at 1280 and 390 px, by hand and by date, and `hhtool graph`'s own HTML file at 390 px. At each
width exactly one drawing shows; its tick labels are drawn at a readable size, none leaves the drawing
and none touches its neighbour (measured by the browser, not estimated). With ``HHTOOL_SHOTS=DIR``
the screenshots are kept there."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from tests.browser import NEEDS_CHROMIUM
from tests.serve_helpers import build_store, running_server
from tests.test_serve_browser import Tab

pytestmark = [pytest.mark.slow, *NEEDS_CHROMIUM]

#: every label's box in the drawing shown: [class, left, top, right, bottom], and the drawing's box
_BOXES = """() => {
  const shown = [...document.querySelectorAll('svg.chart-wide, svg.chart-narrow')]
      .filter(svg => getComputedStyle(svg).display !== 'none');
  const svg = shown[0], box = svg.getBoundingClientRect();
  const labels = [...svg.querySelectorAll('text.xtick, text.ytick')].map(text => {
    const r = text.getBoundingClientRect();
    return [text.getAttribute('class'), r.left, r.top, r.right, r.bottom, text.textContent];
  });
  return {count: shown.length, kind: svg.getAttribute('class'), svg: [box.left, box.top, box.right, box.bottom], labels};
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = build_store(tmp_path_factory.mktemp("chart-browser"))
    with running_server(db) as (base, _):
        yield base


def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("HHTOOL_SHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def readable_axes(page: Any, width: int) -> dict[str, Any]:
    """Check the drawing shown at ``width``: the one that fits, labels inside it, apart and readable."""
    found = page.evaluate(_BOXES)
    assert found["count"] == 1, found["count"]
    assert found["kind"] == ("chart-narrow" if width < 640 else "chart-wide")
    left, top, right, bottom = found["svg"]
    assert right <= width, (right, width)  # the drawing fits the page: nothing to scroll sideways
    xs = sorted((label for label in found["labels"] if label[0] == "xtick"), key=lambda label: label[1])
    ys = sorted((label for label in found["labels"] if label[0] == "ytick"), key=lambda label: label[2])
    assert len(xs) >= 2 and len(ys) >= 2, found["labels"]
    for _, start, t, r, b, text in xs + ys:
        assert left - 0.5 <= start and r <= right + 0.5 and top - 0.5 <= t and b <= bottom + 0.5, (text, found["svg"])
        assert b - t >= 11, (text, b - t)  # 12 px type drawn at about 12 px, not shrunk by the viewBox
    for a, b in pairwise(xs):
        assert a[3] + 4 <= b[1], (a[5], b[5])  # the x labels do not touch
    for a, b in pairwise(ys):
        assert a[4] <= b[2], (a[5], b[5])
    return found


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("axis", ["hands", "date"])
def test_the_graph_page_axes_read_at_each_width(browser: Any, server: str, tmp_path: Path, width: int,
                                                axis: str) -> None:
    tab = Tab(browser, server, width=width)
    page = tab.open(f"/graph?player=Hero&x={axis}")
    readable_axes(page, width)
    page.screenshot(path=str(shots(tmp_path) / f"oneway-graph-{axis}-{width}.png"), full_page=True)
    tab.close()


def test_the_graph_file_axes_read_on_a_phone(browser: Any, tmp_path: Path) -> None:
    db = build_store(tmp_path)
    out = tmp_path / "w.html"
    done = subprocess.run([sys.executable, "-m", "hhtool", "graph", "--db", str(db), "--player", "Hero", "--currency",
                           "USD", "--x", "date", "--out", str(out)], capture_output=True, text=True,
                          env={**os.environ, "COLUMNS": "80"}, check=False)
    assert done.returncode == 0, done.stderr
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(out.as_uri())
    readable_axes(page, 390)
    page.screenshot(path=str(shots(tmp_path) / "oneway-graph-file-390.png"), full_page=False)
    page.close()


@pytest.mark.parametrize("width", [1280, 390])
def test_the_dispute_page_drawn_by_the_templates_fits_each_width(browser: Any, server: str, tmp_path: Path,
                                                                  width: int) -> None:
    """The hand page's dispute report (desk copy), drawn by the dispute templates: nothing wider than
    the page, and the replayer steps."""
    tab = Tab(browser, server, width=width)
    page = tab.open("/hand/pokerstars/200/dispute")
    assert "dispute report" in page.title()
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width  # tables scroll inside their box
    page.click("#next")
    assert page.locator("#step-words").inner_text()
    page.screenshot(path=str(shots(tmp_path) / f"oneway-dispute-{width}.png"), full_page=False)
    tab.close()
