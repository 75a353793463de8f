"""The one template engine of every page and drawing hhtool writes: Jinja2 with auto-escaping on,
constructed here once and shared by the dispute pages, the graph's file and chart, and `hhtool serve`.

Templates are looked up in the reports' folder (``dispute/``, ``graph/``, ``chart.svg``) and then in
the web app's (its page names, unchanged): the web app imports this module, never the other way
round, so the web folder is named by its path here, not imported. A value a template shows goes
through :func:`shown` first (the one rule for text hhtool did not write: controls and bidirectional
marks as "?"), then is escaped; HTML a template rendered itself is :class:`~markupsafe.Markup` and
passes as it is. Python code builds no HTML: it hands values to a template (``tests/test_one_way.py``).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from hhtool.reports.printable import printable

PACKAGE = Path(__file__).resolve().parents[1]
#: the reports' templates first, then the web app's (``hhtool serve``'s pages)
FOLDERS = (PACKAGE / "reports" / "templates", PACKAGE / "web" / "templates")


def shown(value: Any) -> Any:
    """A value a template puts on a page: a text as the one rule shows it (:func:`printable`: a NUL,
    an escape, a bidirectional override as "?", a note's line breaks kept), then escaped by Jinja;
    HTML rendered by a template (Markup) and other values as they are. What is stored stays as typed."""
    if isinstance(value, str) and not isinstance(value, Markup):
        return printable(value, lines=True)
    return value


def script_json(value: object) -> Markup:
    """JSON inside a ``<script type="application/json">`` that no text can close (``<``, ``>``, ``&``
    as ``\\u`` escapes), non-ASCII kept as it is."""
    text = json.dumps(value, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return Markup(text)  # (escaped above for the one place it goes: a script element's text)


@cache
def environment() -> Environment:
    """The one Environment (made on first use, then shared)."""
    made = Environment(loader=FileSystemLoader([str(folder) for folder in FOLDERS]),
                       autoescape=select_autoescape(default=True, default_for_string=True),
                       trim_blocks=True, lstrip_blocks=True, finalize=shown, keep_trailing_newline=True)
    made.filters["script_json"] = script_json
    return made


def render(template: str, **values: Any) -> str:
    """A whole page or file from ``template``."""
    return environment().get_template(template).render(**values)


def fragment(template: str, **values: Any) -> Markup:
    """A part of a page, rendered (and so escaped) by ``template``, to place in another template."""
    # rendered with auto-escaping on; the template file's last newline is not part of the fragment
    return Markup(render(template, **values).removesuffix("\n"))


__all__ = ["FOLDERS", "environment", "fragment", "render", "script_json", "shown"]
